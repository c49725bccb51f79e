"""Vectors kept in Neo4j: what embedding costs at ingest, what a restart saves, and how
soon a write is served by meaning.

One namespace gets ``records`` keyed records (the namesakes generator's people and
facts). Measured, in one run:

- ingest with no embedder (records/s), the peer;
- the same ingest with the bundled e5, then the background keeper embedding every record
  and current value until idle (records/s from the first write to the last vector kept);
- a restart: the block server reading the persisted vectors (seconds, texts embedded
  again: should be 0);
- write to block by meaning: a new fact whose relation no word of the request names
  ("catch-up slot", asked "when am I seeing X?") is written, and blocks are asked every
  5 ms until one serves it; p50/p95 over ``writes`` writes;
- a block that embeds its request, p50/p99, beside the embedder's own time for the same
  requests (``requests`` of them).
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable
from typing import Any

from graphmem import Fact, Memory, Record
from graphmem.embedding import BundledE5
from graphmem_bench.namesakes import generate
from graphmem_bench.scoring import percentile

__all__ = ["markdown", "run"]


class _Counting(BundledE5):
    """The bundled model, counting the passages it embeds."""

    def __init__(self) -> None:
        super().__init__()
        self.passages = 0

    def embed(self, texts: list[str]) -> list[list[float]]:
        self.passages += len(texts)
        return super().embed(texts)


def _keeper_idle(mem: Memory, timeout: float) -> bool:
    server = mem._blocks
    return server is not None and server.vectors is not None and server.vectors.wait_idle(timeout)


def run(
    connect: Callable[..., Memory],
    *,
    records: int,
    writes: int,
    requests: int = 200,
    progress: Callable[[str], None] = print,
) -> dict[str, Any]:
    names, recs = generate(max(10, records // 4), 10, records, seed=11)
    out: dict[str, Any] = {"records": records, "writes": writes}

    words_only = connect(f"vec-none-{uuid.uuid4().hex[:8]}", embedder="none")
    try:
        t0 = time.perf_counter()
        words_only.ingest(recs, progress=False)
        out["ingest_none_s"] = time.perf_counter() - t0
    finally:
        words_only.close()
    progress(f"ingest without an embedder: {out['ingest_none_s']:.1f} s")

    ns = f"vec-e5-{uuid.uuid4().hex[:8]}"
    first = _Counting()
    mem = connect(ns, embedder=first)
    try:
        t0 = time.perf_counter()
        mem.ingest(recs, progress=False)
        out["ingest_e5_s"] = time.perf_counter() - t0
        mem.block("warm-up", names[0], fresh=False)  # starts the block server and keeper
        if not _keeper_idle(mem, 3600):
            raise RuntimeError("the keeper did not finish embedding within an hour")
        out["kept_s"] = time.perf_counter() - t0
        out["embedded"] = first.passages
    finally:
        mem.close()
    progress(f"ingest and every vector kept: {out['kept_s']:.1f} s ({out['embedded']} texts)")

    again = _Counting()
    mem = connect(ns, embedder=again)
    try:
        t0 = time.perf_counter()
        mem.block("warm-up", names[0], fresh=False)
        if not _keeper_idle(mem, 600):
            raise RuntimeError("the keeper did not finish reading vectors")
        out["restart_s"] = time.perf_counter() - t0
        out["restart_embedded"] = again.passages
        ms: list[float] = []
        served = 0
        for i in range(writes):
            person = names[i % len(names)]
            given = person.split()[0]
            value = f"{7 + i % 5}:{15 + i % 40:02d}pm"
            mem.ingest(
                [
                    Record(
                        f"{person}: let's keep our catch-up slot at {value}",
                        id=f"w{i}",
                        speaker=person,
                        participants=(person,),
                        facts=(Fact(person, "catch-up slot", value, "update"),),
                    )
                ]
            )
            t0 = time.perf_counter()
            while time.perf_counter() - t0 < 10:
                block = mem.block(f"when am I seeing {given} again?", person, fresh=False)
                if value in block.text:
                    served += 1
                    ms.append((time.perf_counter() - t0) * 1000)
                    break
                time.sleep(0.005)
        out["served"] = served
        out["write_p50"] = percentile(ms, 0.5) if ms else None
        out["write_p95"] = percentile(ms, 0.95) if ms else None
        # A block that needs the request's embedding, beside the embedder's own time for
        # the same request, in the same run (the query is embedded anew each time).
        block_ms: list[float] = []
        embed_ms: list[float] = []
        for i in range(requests):
            person = names[i % len(names)]
            text = f"when am I seeing {person.split()[0]} again? ({i})"
            t0 = time.perf_counter()
            mem.block(text, person, fresh=False)
            block_ms.append((time.perf_counter() - t0) * 1000)
            t0 = time.perf_counter()
            again.embed_query(text)
            embed_ms.append((time.perf_counter() - t0) * 1000)
        out["requests"] = requests
        out["block_p50"], out["block_p99"] = percentile(block_ms, 0.5), percentile(block_ms, 0.99)
        out["embed_p50"], out["embed_p99"] = percentile(embed_ms, 0.5), percentile(embed_ms, 0.99)
    finally:
        mem.close()
    return out


def markdown(r: dict[str, Any], command: str) -> str:
    n = r["records"]

    def rate(seconds: float) -> str:
        return f"{n / seconds:,.0f}"

    w50 = f"{r['write_p50']:.0f}" if r["write_p50"] is not None else "—"
    w95 = f"{r['write_p95']:.0f}" if r["write_p95"] is not None else "—"
    return (
        f"Command: `{command}`\n\n"
        "| what | records | seconds | records/s |\n|---|---:|---:|---:|\n"
        f"| ingest, no embedder | {n:,} | {r['ingest_none_s']:.1f} | "
        f"{rate(r['ingest_none_s'])} |\n"
        f"| ingest with e5 (vectors kept later) | {n:,} | {r['ingest_e5_s']:.1f} | "
        f"{rate(r['ingest_e5_s'])} |\n"
        f"| ingest with e5 until every vector is kept ({r['embedded']:,} texts) | {n:,} | "
        f"{r['kept_s']:.1f} | {rate(r['kept_s'])} |\n"
        f"| restart: vectors read from Neo4j (texts embedded again: "
        f"{r['restart_embedded']}) | {n:,} | {r['restart_s']:.1f} | — |\n\n"
        f"A write served by meaning ({r['served']}/{r['writes']} writes served within 10 s): "
        f"p50 {w50} ms, p95 {w95} ms from the write's return to a block holding it.\n\n"
        f"A block that embeds its request ({r['requests']} requests, no word of which names "
        f"the fact): p50 {r['block_p50']:.1f} ms, p99 {r['block_p99']:.1f} ms; the embedder "
        f"alone on the same requests: p50 {r['embed_p50']:.1f} ms, p99 "
        f"{r['embed_p99']:.1f} ms (target: block p99 ≤ embedder p99 + 2 ms).\n"
    )
