"""The service under load with one and two worker processes, against the in-process call.

``graphmem serve --workers N`` runs in its own process group; the load comes from a
separate process (asyncio, HTTP/1.1 keep-alive, a fixed number of connections each
sending its next request when the last one is answered), so the clients' Python does not
share the service's cores more than it must. The in-process baseline is ``Memory.block``
/ ``Memory.evidence`` called in a loop in this process, in the same run.
"""

from __future__ import annotations

import asyncio
import json
import multiprocessing as mp
import re
import time
import uuid
from collections.abc import Callable
from typing import Any

from graphmem.memory import Memory
from graphmem_bench.personal import generate
from graphmem_bench.scale import fact_records
from graphmem_bench.scoring import percentile
from graphmem_bench.serving import running_service

KEY = "workers-bench-key-0001"
_LENGTH = re.compile(rb"content-length:\s*(\d+)", re.I)


async def _connection(
    host: str,
    port: int,
    path: str,
    bodies: list[bytes],
    start: int,
    stop_at: float,
    lat: list[float],
    errors: list[str],
) -> None:
    reader, writer = await asyncio.open_connection(host, port)
    i = start
    try:
        while time.monotonic() < stop_at:
            body = bodies[i % len(bodies)]
            i += 1
            head = (
                f"POST {path} HTTP/1.1\r\nHost: {host}\r\nAuthorization: Bearer {KEY}\r\n"
                f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n"
            )
            t = time.perf_counter()
            writer.write(head.encode() + body)
            resp = await reader.readuntil(b"\r\n\r\n")
            m = _LENGTH.search(resp)
            await reader.readexactly(int(m.group(1)) if m else 0)
            dt = (time.perf_counter() - t) * 1000
            status = resp[9:12]
            if status == b"200":
                lat.append(dt)
            else:
                errors.append(status.decode())
    finally:
        writer.close()


def _load(
    base: str, path: str, bodies: list[bytes], connections: int, seconds: float
) -> dict[str, Any]:
    """Runs in the load process: ``connections`` closed loops for ``seconds``."""
    host, port = base.removeprefix("http://").split(":")
    lat: list[float] = []
    errors: list[str] = []

    async def main() -> None:
        stop_at = time.monotonic() + seconds
        await asyncio.gather(
            *(
                _connection(host, int(port), path, bodies, k, stop_at, lat, errors)
                for k in range(connections)
            )
        )

    t0 = time.perf_counter()
    asyncio.run(main())
    elapsed = time.perf_counter() - t0
    return {
        "requests": len(lat),
        "errors": len(errors),
        "seconds": elapsed,
        "throughput": len(lat) / elapsed,
        "p50_ms": percentile(lat, 0.5),
        "p99_ms": percentile(lat, 0.99),
        "max_ms": max(lat, default=float("nan")),
    }


def _in_load_process(*args: Any) -> dict[str, Any]:
    with mp.get_context("spawn").Pool(1) as pool:
        return pool.apply(_load, args)


def _in_process(call: Callable[[int], Any], n: int, seconds: float) -> dict[str, Any]:
    lat: list[float] = []
    t0 = time.perf_counter()
    k = 0
    while time.perf_counter() - t0 < seconds:
        t = time.perf_counter()
        call(k % n)
        lat.append((time.perf_counter() - t) * 1000)
        k += 1
    elapsed = time.perf_counter() - t0
    return {
        "requests": len(lat),
        "errors": 0,
        "seconds": elapsed,
        "throughput": len(lat) / elapsed,
        "p50_ms": percentile(lat, 0.5),
        "p99_ms": percentile(lat, 0.99),
        "max_ms": max(lat),
    }


def run(
    uri: str | None,
    size: int,
    workers: list[int],
    connections: int,
    seconds: float,
    progress: Callable[[str], None],
) -> list[dict[str, Any]]:
    inst = generate(0, "en", n_fillers=max(0, size // 2 - 474))
    facts = list(fact_records(size - len(inst.records), seed=size))
    ns = f"workers-{size}-{uuid.uuid4().hex[:6]}"
    mem = Memory.connect(uri, ns)
    mem.ingest(inst.records + facts, batch_size=5000)
    progress(f"workers: {size:,} records in {ns}")
    reqs = inst.requests
    questions = [
        f"What is the {r.facts[0].relation} of {r.facts[0].subject}?"
        for r in facts[:: max(1, len(facts) // 200)]
    ]
    block_bodies = [
        json.dumps({"request": r.text, "partner": r.partner, "now": r.now}).encode() for r in reqs
    ]
    evidence_bodies = [json.dumps({"question": q}).encode() for q in questions]
    rows: list[dict[str, Any]] = []
    mem.block("warm up", "nobody")
    for route, call, n in (
        ("block", lambda k: mem.block(reqs[k].text, reqs[k].partner, now=reqs[k].now), len(reqs)),
        ("evidence", lambda k: mem.evidence(questions[k]), len(questions)),
    ):
        row = {"route": route, "workers": "in-process", **_in_process(call, n, seconds)}
        rows.append(row)
        progress(f"workers: {row}")
    bolt = mem.config.neo4j_uri or ""
    mem.close()
    for w in workers:
        with running_service(bolt, {KEY: [ns]}, args=("--workers", str(w))) as service:
            # Every worker builds its own snapshot on its first block: warm them all.
            _in_load_process(
                service.base_url,
                f"/v1/{ns}/block",
                block_bodies,
                connections,
                max(10.0, seconds / 2),
            )
            for route, bodies in (("block", block_bodies), ("evidence", evidence_bodies)):
                res = _in_load_process(
                    service.base_url, f"/v1/{ns}/{route}", bodies, connections, seconds
                )
                row = {"route": route, "workers": w, **res}
                rows.append(row)
                progress(f"workers: {row}")
    return rows


def markdown(rows: list[dict[str, Any]], command: str, size: int, connections: int) -> str:
    lines = [
        f"### One and two workers, against the in-process call\n\n`{command}`\n",
        f"{size:,} records (half keyed facts, half chat with namesakes); the load "
        f"process keeps {connections} HTTP/1.1 keep-alive connections busy (each sends "
        "its next request when the last is answered), on the same 2-core machine as "
        "the service and Neo4j. In-process: the same calls on `Memory` in a loop.\n",
        "| route | workers | requests | errors | req/s | p50 ms | p99 ms | max ms |",
        "|---|---|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        lines.append(
            f"| `/{r['route']}` | {r['workers']} | {r['requests']:,} | {r['errors']} "
            f"| {r['throughput']:,.0f} | {r['p50_ms']:.2f} | {r['p99_ms']:.2f} "
            f"| {r['max_ms']:.1f} |"
        )
    return "\n".join(lines) + "\n"
