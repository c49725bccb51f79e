"""The wire shape of a memory ``Block``: written by the service, read by the client.

``block_to_dict`` is the one JSON form of ``graphmem.domain.block.Block`` and
``block_from_dict`` reads it back into an equal ``Block``. Each line carries its
rendered ``text`` (what the block shows) besides the record it came from. The other
results have theirs in ``graphmem.results``; a job's is ``graphmem.service.jobs.Job``.
This module imports no web framework.
"""

from __future__ import annotations

from typing import Any

from graphmem.domain.block import ActiveRecord, Block, BlockLine

__all__ = ["block_from_dict", "block_to_dict"]


def _record_to_dict(r: ActiveRecord) -> dict[str, Any]:
    return {
        "pos": r.pos,
        "record_id": r.record_id,
        "text": r.text,
        "observed_at": r.observed_at,
        "participants": list(r.participants),
        "speaker": r.speaker,
        "facts": [list(f) for f in r.facts],
        "keyed": r.keyed,
    }


def _record_from_dict(d: Any) -> ActiveRecord:
    facts = tuple((str(s), str(rel), str(v)) for s, rel, v in d.get("facts") or ())
    return ActiveRecord(
        pos=int(d["pos"]),
        record_id=d["record_id"],
        text=d["text"],
        observed_at=d.get("observed_at"),
        participants=tuple(d.get("participants") or ()),
        speaker=d.get("speaker"),
        facts=facts,
        keyed=bool(d.get("keyed", False)),
    )


def block_to_dict(block: Block) -> dict[str, Any]:
    """``Block`` as JSON."""
    return {
        "text": block.text,
        "lines": [
            {"text": ln.render(), "score": ln.score, "record": _record_to_dict(ln.record)}
            for ln in block.lines
        ],
        "abstained": block.abstained,
        "fell_back": block.fell_back,
        "reason": block.reason,
        "slot": block.slot,
        "posterior": dict(block.posterior),
        "latency_ms": block.latency_ms,
        "served": block.served,
        "snapshot_age_ms": block.snapshot_age_ms,
    }


def block_from_dict(d: Any) -> Block:
    """The ``Block`` that ``block_to_dict`` wrote (fields a newer server adds are ignored)."""
    lines = [
        BlockLine(_record_from_dict(ln["record"]), float(ln["score"]))
        for ln in d.get("lines") or ()
    ]
    return Block(
        text=d["text"],
        lines=lines,
        abstained=bool(d.get("abstained", False)),
        fell_back=bool(d.get("fell_back", False)),
        reason=d.get("reason", ""),
        slot=d.get("slot"),
        posterior={str(k): float(v) for k, v in (d.get("posterior") or {}).items()},
        latency_ms=float(d.get("latency_ms", 0.0)),
        served=str(d.get("served", "snapshot")),
        snapshot_age_ms=float(d.get("snapshot_age_ms", 0.0)),
    )
