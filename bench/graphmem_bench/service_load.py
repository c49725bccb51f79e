"""Load on the REST service: N concurrent clients for T seconds against /evidence.

The service runs as its own process (``graphmem serve``), the clients are threads of this
process, all on this machine's loopback; every request loop is bounded in time.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx

from graphmem.memory import Memory
from graphmem_bench.extract.grammar import GrammarExtractor
from graphmem_bench.formats.factconsolidation import load_rows, parse_context
from graphmem_bench.scoring import percentile
from graphmem_bench.serving import running_service

KEY = "load-bench-key-0001"


def run(
    uri: str | None,
    data_dir: str | Path,
    clients: int = 50,
    seconds: float = 60.0,
    namespace: str = "fc-262k-load",
    progress: Callable[[str], None] = print,
) -> dict[str, Any]:
    rows = load_rows(data_dir)
    row = next(r for r in rows if r.length == "262k" and r.hops == "mh")
    sh = next(r for r in rows if r.length == "262k" and r.hops == "sh")
    mem = Memory.connect(uri, namespace, extractor=GrammarExtractor.from_data_dir(data_dir))
    report = mem.ingest(list(parse_context(row.context, row.source)))
    progress(f"store: {report.summary()}")
    bolt = mem.config.neo4j_uri
    mem.close()
    questions = row.questions + sh.questions
    with running_service(bolt or "", {KEY: [namespace]}) as service:
        base = service.base_url
        lat: list[float] = []
        errors: list[str] = []
        lock = threading.Lock()
        stop_at = time.monotonic() + seconds

        def client(i: int) -> None:
            with httpx.Client(
                base_url=base, timeout=30, headers={"Authorization": f"Bearer {KEY}"}
            ) as c:
                k = i
                while time.monotonic() < stop_at:
                    q = questions[k % len(questions)]
                    k += clients
                    t = time.perf_counter()
                    try:
                        r = c.post(f"/v1/{namespace}/evidence", json={"question": q})
                        ok = r.status_code == 200
                        err = None if ok else f"{r.status_code}"
                    except httpx.HTTPError as exc:
                        err = type(exc).__name__
                    dt = (time.perf_counter() - t) * 1000
                    with lock:
                        if err:
                            errors.append(err)
                        else:
                            lat.append(dt)

        threads = [threading.Thread(target=client, args=(i,)) for i in range(clients)]
        t0 = time.perf_counter()
        for th in threads:
            th.start()
        for th in threads:
            th.join()
        elapsed = time.perf_counter() - t0
    lat.sort()

    out = {
        "clients": clients,
        "seconds": elapsed,
        "requests": len(lat) + len(errors),
        "errors": len(errors),
        "throughput": len(lat) / elapsed,
        "p50_ms": percentile(lat, 0.5),
        "p99_ms": percentile(lat, 0.99),
        "max_ms": lat[-1] if lat else float("nan"),
        "latencies": lat,
    }
    progress(f"load: {len(lat)} ok, {len(errors)} errors, {out['throughput']:.0f} req/s")
    return out


def markdown(res: dict[str, Any], command: str) -> str:
    return (
        f"Command: `{command}`\n\n"
        "| clients | seconds | requests | errors | throughput (req/s) | p50 ms | p99 ms | "
        "max ms |\n|---:|---:|---:|---:|---:|---:|---:|---:|\n"
        f"| {res['clients']} | {res['seconds']:.0f} | {res['requests']:,} | "
        f"{res['errors']} | {res['throughput']:.1f} | {res['p50_ms']:.1f} | "
        f"{res['p99_ms']:.1f} | {res['max_ms']:.1f} |\n"
    )
