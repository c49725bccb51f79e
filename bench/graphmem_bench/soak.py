"""Soak: several clients mix reads and writes over HTTP for N minutes.

The service runs as its own process (``graphmem serve``). Each client owns a few people
in one shared namespace and, in a loop, updates their facts, reads blocks, evidence and
explanations, revokes and erases now and then. Reported: requests and errors by kind,
p50/p99 latency, the server's resident memory after warm-up and at the end, and the
audits run afterwards (each must be empty).
"""

from __future__ import annotations

import random
import threading
import time
import uuid
from collections import Counter, defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx

from graphmem_bench.scoring import percentile
from graphmem_bench.serving import running_service

KEY = "soak-bench-key-000001"
AUDITS = (
    "two_heads",
    "versions_without_evidence",
    "supersedes_cycles",
    "supersedes_forward",
    "status_labels",
)
RELATIONS = ("meeting time", "meeting room", "deadline", "favourite drink")


def _rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def run(
    uri: str | None,
    minutes: float = 10.0,
    clients: int = 8,
    seed: int = 5,
    progress: Callable[[str], None] = print,
) -> dict[str, Any]:
    from graphmem.memory import Memory

    ns = f"soak-{uuid.uuid4().hex[:8]}"
    with Memory.connect(uri, ns) as mem:  # the schema, and the local Neo4j if needed
        bolt = mem.config.neo4j_uri or ""
    lat: dict[str, list[float]] = defaultdict(list)
    errors: Counter[str] = Counter()
    lock = threading.Lock()
    with running_service(bolt, {KEY: [ns]}) as service:
        base, server = service.base_url, service.proc
        warm_until = time.monotonic() + min(30.0, minutes * 6)
        stop_at = time.monotonic() + minutes * 60
        rss: dict[str, int] = {}

        def client(i: int) -> None:
            rng = random.Random(seed * 1000 + i)
            people = [f"Person {i}-{j}" for j in range(5)]
            written: list[str] = []
            with httpx.Client(
                base_url=f"{base}/v1/{ns}", timeout=30, headers={"Authorization": f"Bearer {KEY}"}
            ) as http:
                n = 0
                while time.monotonic() < stop_at:
                    n += 1
                    who, rel = rng.choice(people), rng.choice(RELATIONS)
                    roll = rng.random()
                    request: tuple[str, str, dict[str, Any]]
                    if roll < 0.35:
                        kind, rid = "remember", f"c{i}-{n}"
                        value = f"{rng.randint(7, 18)}:{rng.choice(['00', '15', '30', '45'])}"
                        request = (
                            "POST",
                            "/remember",
                            {
                                "json": {
                                    "subject": who,
                                    "relation": rel,
                                    "value": value,
                                    "text": f"{who}: the {rel} is now {value}",
                                    "speaker": who,
                                    "intent": "update",
                                    "record_id": rid,
                                }
                            },
                        )
                        written.append(rid)
                    elif roll < 0.65:
                        kind = "block"
                        request = (
                            "POST",
                            "/block",
                            {"json": {"request": f"what is the {rel}?", "partner": who}},
                        )
                    elif roll < 0.80:
                        kind = "evidence"
                        request = (
                            "POST",
                            "/evidence",
                            {"json": {"question": f"What is {who}'s {rel}?", "budget_chars": 4000}},
                        )
                    elif roll < 0.93:
                        kind = "why"
                        request = ("GET", "/why", {"params": {"subject": who, "relation": rel}})
                    elif roll < 0.97 or not written:
                        kind = "revoke"
                        request = ("POST", "/revoke", {"json": {"subject": who, "relation": rel}})
                    else:
                        kind = "erase"
                        rid = written.pop(rng.randrange(len(written)))
                        request = ("DELETE", f"/records/{rid}", {})
                    t = time.perf_counter()
                    try:
                        method, path, kwargs = request
                        resp = http.request(method, path, **kwargs)
                        # 409: nothing to revoke, a deliberate outcome; 404: erased twice.
                        ok = resp.status_code in (200, 409) or (
                            kind == "erase" and resp.status_code == 404
                        )
                        err = None if ok else f"{kind} {resp.status_code}"
                    except httpx.HTTPError as exc:
                        err = f"{kind} {type(exc).__name__}"
                    dt = (time.perf_counter() - t) * 1000
                    with lock:
                        if err:
                            errors[err] += 1
                        else:
                            lat[kind].append(dt)

        threads = [threading.Thread(target=client, args=(i,)) for i in range(clients)]
        for th in threads:
            th.start()
        while time.monotonic() < stop_at:
            if "warm" not in rss and time.monotonic() >= warm_until:
                rss["warm"] = _rss_kb(server.pid)
                progress(f"soak: warm, server RSS {rss['warm'] / 1024:.0f} MiB")
            time.sleep(1)
        for th in threads:
            th.join()
        rss["end"] = _rss_kb(server.pid)
        rss.setdefault("warm", rss["end"])
        with httpx.Client(
            base_url=f"{base}/v1/{ns}", timeout=60, headers={"Authorization": f"Bearer {KEY}"}
        ) as http:
            audits = {a: len(http.get(f"/audit/{a}").json()["rows"]) for a in AUDITS}
    total = sum(len(v) for v in lat.values()) + sum(errors.values())
    every = sorted(x for v in lat.values() for x in v)
    return {
        "minutes": minutes,
        "clients": clients,
        "requests": total,
        "errors": dict(errors),
        "by_kind": {
            k: {"n": len(v), "p50": percentile(sorted(v), 0.5), "p99": percentile(sorted(v), 0.99)}
            for k, v in sorted(lat.items())
        },
        "p50": percentile(every, 0.5),
        "p99": percentile(every, 0.99),
        "rss_warm_mib": rss["warm"] / 1024,
        "rss_end_mib": rss["end"] / 1024,
        "rss_growth": (rss["end"] - rss["warm"]) / rss["warm"] if rss["warm"] else 0.0,
        "audits": audits,
    }


def markdown(res: dict[str, Any], command: str) -> str:
    rows = "\n".join(
        f"| {k} | {v['n']:,} | {v['p50']:.1f} | {v['p99']:.1f} |" for k, v in res["by_kind"].items()
    )
    errs = ", ".join(f"{k}: {v}" for k, v in res["errors"].items()) or "none"
    audits = ", ".join(f"{k} {v}" for k, v in res["audits"].items())
    return (
        f"Command: `{command}`\n\n"
        f"{res['clients']} clients, {res['minutes']:g} minutes, {res['requests']:,} "
        f"requests; errors: **{errs}**. All requests p50 {res['p50']:.1f} ms, p99 "
        f"{res['p99']:.1f} ms. Server RSS {res['rss_warm_mib']:.0f} MiB after warm-up, "
        f"{res['rss_end_mib']:.0f} MiB at the end (**{res['rss_growth']:+.1%}**). Audits "
        f"after (rows; each must be 0): {audits}.\n\n"
        "| request | ok | p50 ms | p99 ms |\n|---|---:|---:|---:|\n" + rows + "\n"
    )
