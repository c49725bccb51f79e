"""Namesakes at scale: the partner's own given name must resolve to the partner.

One namespace holds ``people`` people who share ``given`` given names (``Minjun
Park17``: a thousand Minjuns at 10,000 people), each with keyed facts restated over time
(``records`` in all, most of them superseded), one of which is their standup time. Then
``requests`` blocks are asked, each from the point of view of one person as partner,
naming only the partner's given name ("when is the standup with Minjun?"); the block
should hold that partner's current standup time and nothing of a namesake's.

Measured: blocks left empty, blocks holding the partner's current value, blocks holding a
namesake's value, and the latency of a block from the snapshot (p50/p99), beside the
embedder's own latency for one query measured in the same run. The same requests are
then asked again, the snapshot warm (a new snapshot's first requests are the first to
touch its arrays). After each first-pass block a fixed piece of pure-Python work is
timed too: its p99 against its p50 shows how much this machine alone stretches a
sub-millisecond task.
"""

from __future__ import annotations

import random
import time
import uuid
from collections.abc import Callable
from typing import Any

from graphmem import Fact, Memory, Record
from graphmem.embedding import BundledE5
from graphmem_bench.scoring import percentile

GIVEN_NAMES = (
    "Minjun",
    "Seoyeon",
    "Jiho",
    "Hayoon",
    "Doyun",
    "Jiwoo",
    "Eunwoo",
    "Seojun",
    "Yuna",
    "Haneul",
)
RELATIONS = ("desk", "team", "laptop", "lunch spot")
TIMES = [f"{h:02d}:{m:02d}" for h in range(8, 12) for m in (0, 15, 30, 45)]
REQUESTS = (
    "when is the standup with {given}?",
    "the standup with {given} is at",
    "what time is {given}'s standup again",
)


def generate(
    people: int, given: int, records: int, seed: int = 7
) -> tuple[list[str], list[Record]]:
    """The people and their records, in write order: every person's standup time first
    (so each has one), then restatements, standup times or other facts, at random."""
    rng = random.Random(seed)
    names = [f"{GIVEN_NAMES[i % given]} Park{i // given}" for i in range(people)]
    out: list[Record] = []

    def record(name: str, relation: str, value: str) -> Record:
        pos = len(out)
        day = 1 + pos * 300 // max(records, 1)
        return Record(
            f"{name}: my {relation} is {value}",
            id=f"n{pos}",
            pos=pos,
            speaker=name,
            participants=(name,),
            observed_at=f"2026-{1 + day // 28 % 12:02d}-{1 + day % 28:02d}T12:00:00+00:00",
            facts=(Fact(name, relation, value, "update"),),
        )

    for name in names:
        out.append(record(name, "standup time", rng.choice(TIMES)))
    while len(out) < records:
        name = rng.choice(names)
        if rng.random() < 0.3:
            out.append(record(name, "standup time", rng.choice(TIMES)))
        else:
            relation = rng.choice(RELATIONS)
            out.append(record(name, relation, f"{relation} {rng.randrange(1000)}"))
    return names, out[:records]


def run(
    connect: Callable[..., Memory],
    *,
    people: int,
    given: int,
    records: int,
    requests: int,
    embedder: str,
    progress: Callable[[str], None] = print,
    seed: int = 7,
) -> dict[str, Any]:
    names, recs = generate(people, given, records, seed)
    current: dict[str, str] = {}
    for r in recs:
        f = r.facts[0]
        if f.relation == "standup time":
            current[f.subject] = r.id or ""
    # The steady state: blocks with no embedding going on beside them (keeping the
    # vectors of 100k records takes the bundled CPU model most of an hour; `vectors`
    # measures that).
    mem = connect(f"names-{uuid.uuid4().hex[:8]}", embedder=embedder, keep_vectors=False)
    try:
        t0 = time.perf_counter()
        mem.ingest(recs, progress=False)
        ingest_s = time.perf_counter() - t0
        progress(f"ingested {len(recs):,} records in {ingest_s:.0f} s")
        t0 = time.perf_counter()
        mem.block("warm-up", names[0], fresh=False)
        snapshot_s = time.perf_counter() - t0
        rng = random.Random(seed + 1)
        empty = right = namesake = 0
        ms: list[float] = []
        fixed_ms: list[float] = []
        asked: list[tuple[str, str]] = []
        for i in range(requests):
            partner = rng.choice(names)
            given_name = partner.split()[0]
            text = REQUESTS[i % len(REQUESTS)].format(given=given_name)
            asked.append((text, partner))
            t0 = time.perf_counter()
            block = mem.block(text, partner, fresh=False)
            ms.append((time.perf_counter() - t0) * 1000)
            t0 = time.perf_counter()
            _fixed_work()
            fixed_ms.append((time.perf_counter() - t0) * 1000)
            ids = {ln.record.record_id for ln in block.lines}
            subjects = {f[0] for ln in block.lines for f in ln.record.facts}
            empty += not block.lines
            right += current[partner] in ids
            namesake += bool(subjects - {partner})
        # The same requests again: a new snapshot's first requests touch its arrays and
        # tables for the first time; the second pass is the snapshot once warm.
        again: list[float] = []
        for text, partner in asked:
            t0 = time.perf_counter()
            mem.block(text, partner, fresh=False)
            again.append((time.perf_counter() - t0) * 1000)
        embed_ms = _embedder_ms(mem, requests)
    finally:
        mem.close()
    return {
        "people": people,
        "given": given,
        "records": records,
        "requests": requests,
        "embedder": embedder,
        "ingest_s": ingest_s,
        "snapshot_s": snapshot_s,
        "empty": empty,
        "right": right,
        "namesake": namesake,
        "p50": percentile(ms, 0.5),
        "p99": percentile(ms, 0.99),
        "p99_again": percentile(again, 0.99),
        "fixed_p50": percentile(fixed_ms, 0.5),
        "fixed_p99": percentile(fixed_ms, 0.99),
        "embed_p50": percentile(embed_ms, 0.5) if embed_ms else None,
        "embed_p99": percentile(embed_ms, 0.99) if embed_ms else None,
    }


def _fixed_work() -> int:
    """The same pure-Python work every time (about half a millisecond here)."""
    return sum(i * i for i in range(12_000))


def _embedder_ms(mem: Memory, n: int) -> list[float]:
    """The embedder's own time for one request, as a peer measured in the same run."""
    model = mem.embedder
    if model is None:
        return []
    out = []
    for i in range(min(n, 200)):
        text = f"when is the standup with {GIVEN_NAMES[i % len(GIVEN_NAMES)]}? ({i})"
        t0 = time.perf_counter()
        if isinstance(model, BundledE5):
            model.embed_query(text)
        else:
            model.embed([text])
        out.append((time.perf_counter() - t0) * 1000)
    return out


def markdown(results: list[dict[str, Any]], command: str) -> str:
    rows = []
    for r in results:
        emb = f"{r['embed_p50']:.1f} / {r['embed_p99']:.1f}" if r["embed_p50"] is not None else "—"
        rows.append(
            f"| {r['embedder']} | {r['records']:,} | {r['people']:,} / {r['given']} | "
            f"{r['requests']} | {r['empty']} | {r['right']} | {r['namesake']} | "
            f"{r['p50']:.2f} | {r['p99']:.2f} | {r['p99_again']:.2f} | "
            f"{r['fixed_p50']:.2f} / {r['fixed_p99']:.2f} | "
            f"{emb} | {r['ingest_s']:.0f} |"
        )
    return (
        f"Command: `{command}`\n\n"
        "| embedder | records | people / given names | requests | empty | partner's "
        "current value | a namesake's line | block p50 ms | block p99 ms | p99, second "
        "pass | fixed work p50 / p99 ms | embedder p50 / p99 ms (one query) | ingest s |\n"
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n"
        + "\n".join(rows)
        + "\n"
    )


__all__ = ["generate", "markdown", "run"]
