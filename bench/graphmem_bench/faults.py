"""Faults a trusted store must survive, on a scratch local Neo4j and a real service.

- **Compactions under writers**: writers through the Python API and through the service
  (HTTP) write unique records without pause while the database is compacted again and
  again. A write that was acknowledged (returned, or 200) must be in the database that
  survives; a refused one must say so (StoreUnavailableError, 503 with Retry-After).
- **kill -9 at each step** of a compaction (`graphmem neo4j compact` in a process of its
  own): the next start must bring back the same counts and content checksum, with no
  export left in the data folder.
- **Neo4j stopped**: every route of the service answers 503, timed.
- **Soak**: writers, erasers and one compaction in the middle, for minutes: errors,
  lost writes, audits.
"""

from __future__ import annotations

import json
import logging
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from neo4j import GraphDatabase

from graphmem import LocalNeo4j, Memory, StoreUnavailableError
from graphmem.local_neo4j.compact import content_checksum

KEY = "faults-bench-key-0123456789"
STEPS = ["fencing writes", "read ", "wrote ", "installing the schema"]
GAP_S = 8.0  # writes flow between two compactions
AUDITS = ("two_heads", "supersedes_forward", "supersedes_cycles", "versions_without_evidence")
Progress = Callable[[str], None]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _graphmem() -> list[str]:
    exe = Path(sys.executable).with_name("graphmem")
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "graphmem.cli"]


def _server_args(srv: LocalNeo4j) -> list[str]:
    return [
        "--data-dir",
        str(srv.data_dir),
        "--bolt-port",
        str(srv.bolt_port),
        "--http-port",
        str(srv.http_port),
    ]


@contextmanager
def _service(srv: LocalNeo4j, namespaces: list[str]) -> Iterator[str]:
    port = _free_port()
    env = {
        **os.environ,
        "GRAPHMEM_API_KEYS": json.dumps({KEY: namespaces}),
        "NEO4J_URI": srv.bolt_url,
    }
    proc = subprocess.Popen(
        [*_graphmem(), "serve", "--port", str(port)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 90
        while True:
            try:
                if httpx.get(f"{base}/healthz", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("the service did not start")
            time.sleep(0.2)
        yield base
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()


@dataclass
class Writers:
    """Threads writing unique records until stopped."""

    acknowledged: dict[str, list[str]] = field(default_factory=dict)  # namespace -> ids
    refused: int = 0
    errors: list[str] = field(default_factory=list)
    _stop: threading.Event = field(default_factory=threading.Event)
    _threads: list[threading.Thread] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, ns: str, write: Callable[[str], bool], pause: float = 0.0) -> None:
        self.acknowledged.setdefault(ns, [])
        name = f"{ns}-{len(self._threads)}-{uuid.uuid4().hex[:4]}"

        def run() -> None:
            i = 0
            while not self._stop.is_set():
                rid = f"{name}-{i}"
                i += 1
                try:
                    ok = write(rid)
                except StoreUnavailableError:
                    ok = False
                except Exception as exc:  # counted: any other failure is a finding
                    with self._lock:
                        self.errors.append(f"{type(exc).__name__}: {exc}"[:300])
                    time.sleep(0.2)
                    continue
                with self._lock:
                    if ok:
                        self.acknowledged[ns].append(rid)
                    else:
                        self.refused += 1
                time.sleep(0.2 if not ok else pause)

        self._threads.append(threading.Thread(target=run, daemon=True))

    def start(self) -> None:
        for t in self._threads:
            t.start()

    def stop(self) -> None:
        self._stop.set()
        for t in self._threads:
            t.join(60)

    def total(self) -> int:
        return sum(len(v) for v in self.acknowledged.values())


def _remember(m: Memory, rid: str) -> bool:
    m.remember(f"item {rid[-3:]}", "location", f"box {rid}", record_id=rid, text=f"at {rid}")
    return True


def _http_remember(base: str, ns: str) -> Callable[[str], bool]:
    client = httpx.Client(base_url=base, headers={"Authorization": f"Bearer {KEY}"}, timeout=60)

    def write(rid: str) -> bool:
        try:
            r = client.post(
                f"/v1/{ns}/remember",
                json={
                    "subject": f"item {rid[-3:]}",
                    "relation": "location",
                    "value": f"box {rid}",
                    "record_id": rid,
                    "text": f"at {rid}",
                },
            )
        except httpx.HTTPError:
            return False  # no answer: not acknowledged
        if r.status_code == 503 and r.headers.get("Retry-After"):
            return False
        if r.status_code != 200:
            raise RuntimeError(f"HTTP {r.status_code}: {r.text[:200]}")
        return True

    return write


def _stored(srv: LocalNeo4j, ns: str) -> set[str]:
    with GraphDatabase.driver(srv.bolt_url) as driver:
        rows = driver.execute_query(
            "MATCH (e:Evidence {ns: $ns}) RETURN e.record_id AS id", ns=ns
        ).records
    return {r["id"] for r in rows}


def _checksum(srv: LocalNeo4j) -> tuple[int, int, str]:
    with GraphDatabase.driver(srv.bolt_url, notifications_min_severity="OFF") as driver:
        return content_checksum(driver)


def _audits(srv: LocalNeo4j, ns: str) -> int:
    with Memory.connect(srv.bolt_url, ns, embedder="none") as m:
        return sum(len(m.audit(a)) for a in AUDITS)


def _export_left(srv: LocalNeo4j) -> bool:
    return (srv.data_dir / "compact").exists()


def compactions_under_writers(srv: LocalNeo4j, n: int, progress: Progress) -> dict[str, Any]:
    py_ns, http_ns = "faults-python", "faults-service"
    seconds: list[float] = []
    exports_left = 0
    with (
        _service(srv, [http_ns]) as base,
        Memory.connect(srv.bolt_url, py_ns, embedder="none") as m,
    ):
        writers = Writers()
        for _ in range(2):
            writers.add(py_ns, lambda rid: _remember(m, rid))
            writers.add(http_ns, _http_remember(base, http_ns))
        writers.start()
        time.sleep(5)  # writes are flowing before the first compaction
        for i in range(n):
            t = time.perf_counter()
            srv.compact()
            seconds.append(time.perf_counter() - t)
            exports_left += _export_left(srv)
            progress(f"compaction {i + 1}/{n}: {seconds[-1]:.1f} s, {writers.total()} acknowledged")
            time.sleep(GAP_S)
        time.sleep(2)
        writers.stop()
    lost = {ns: len(set(ids) - _stored(srv, ns)) for ns, ids in writers.acknowledged.items()}
    return {
        "compactions": n,
        "acknowledged": {ns: len(ids) for ns, ids in writers.acknowledged.items()},
        "lost": lost,
        "refused": writers.refused,
        "errors": len(writers.errors),
        "error_samples": writers.errors[:3],
        "exports_left": exports_left,
        "audit_rows": _audits(srv, py_ns) + _audits(srv, http_ns),
        "seconds_p50": statistics.median(seconds),
        "seconds_max": max(seconds),
    }


def kills_at_each_step(srv: LocalNeo4j, progress: Progress) -> list[dict[str, Any]]:
    rows = []
    for step in STEPS:
        before = _checksum(srv)
        proc = subprocess.Popen(
            [*_graphmem(), "neo4j", "compact", *_server_args(srv)],
            stderr=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            text=True,
            start_new_session=True,
        )
        assert proc.stderr is not None
        reached = False
        for line in proc.stderr:
            if line.strip().startswith(step.strip()):
                reached = True
                break
        proc.send_signal(signal.SIGKILL)
        proc.wait(30)
        t = time.perf_counter()
        srv.start()
        recovered = time.perf_counter() - t
        after = _checksum(srv)
        rows.append(
            {
                "step": step.strip(),
                "reached": reached,
                "nodes": before[0],
                "same_counts": before[:2] == after[:2],
                "same_checksum": before[2] == after[2],
                "export_left": _export_left(srv),
                "start_seconds": recovered,
            }
        )
        progress(f"kill -9 at '{step.strip()}': checksum equal {before == after}")
    return rows


def outage(srv: LocalNeo4j, calls: int, progress: Progress) -> dict[str, Any]:
    ns = "faults-outage"
    out: dict[str, Any] = {}
    with _service(srv, [ns, "faults-outage-new"]) as base:
        h = httpx.Client(base_url=base, headers={"Authorization": f"Bearer {KEY}"}, timeout=60)
        h.post(f"/v1/{ns}/remember", json={"subject": "door", "relation": "colour", "value": "red"})
        srv.stop()
        q = {"subject": "door", "relation": "colour"}
        routes: dict[str, Callable[[], httpx.Response]] = {
            "remember": lambda: h.post(f"/v1/{ns}/remember", json={**q, "value": "blue"}),
            "records": lambda: h.post(f"/v1/{ns}/records", json={"records": [{"text": "hi"}]}),
            "revoke": lambda: h.post(f"/v1/{ns}/revoke", json=q),
            "erase": lambda: h.delete(f"/v1/{ns}/records/r1"),
            "why": lambda: h.get(f"/v1/{ns}/why", params=q),
            "history": lambda: h.get(f"/v1/{ns}/history", params=q),
            "as_of": lambda: h.get(f"/v1/{ns}/as_of", params={**q, "at": "2026-01-01"}),
            "state": lambda: h.get(f"/v1/{ns}/state"),
            "audit": lambda: h.get(f"/v1/{ns}/audit/two_heads"),
            "evidence": lambda: h.post(f"/v1/{ns}/evidence", json={"question": "door?"}),
            "a namespace not yet open": lambda: h.get("/v1/faults-outage-new/state"),
            "healthz": lambda: h.get("/healthz"),
        }
        for name, call in routes.items():
            times, codes = [], set()
            for _ in range(calls):
                t = time.perf_counter()
                r = call()
                times.append(time.perf_counter() - t)
                codes.add(r.status_code)
            out[name] = {"codes": sorted(codes), "p50": statistics.median(times), "max": max(times)}
        progress(f"outage: slowest 503 {max(v['max'] for v in out.values()):.2f} s")
    srv.start()
    return out


def soak(srv: LocalNeo4j, minutes: float, progress: Progress) -> dict[str, Any]:
    py_ns, http_ns = "soak-python", "soak-service"
    erased: set[str] = set()
    erase_errors: list[str] = []
    compaction_seconds = 0.0
    with (
        _service(srv, [http_ns]) as base,
        Memory.connect(srv.bolt_url, py_ns, embedder="none") as m,
    ):
        writers = Writers()
        for _ in range(2):
            writers.add(py_ns, lambda rid: _remember(m, rid), pause=0.05)
        writers.add(http_ns, _http_remember(base, http_ns), pause=0.05)
        writers.start()
        stop = threading.Event()

        def erase_some() -> None:
            rng = random.Random(7)
            while not stop.wait(0.5):
                ids = list(writers.acknowledged[py_ns])
                if not ids:
                    continue
                rid = rng.choice(ids)
                if rid in erased:
                    continue
                try:
                    m.erase(rid)
                    erased.add(rid)
                except StoreUnavailableError:
                    pass
                except Exception as exc:
                    erase_errors.append(f"{type(exc).__name__}: {exc}"[:300])

        eraser = threading.Thread(target=erase_some, daemon=True)
        eraser.start()
        end = time.monotonic() + minutes * 60
        half = time.monotonic() + minutes * 30
        compacted = False
        while time.monotonic() < end:
            if not compacted and time.monotonic() >= half:
                t = time.perf_counter()
                srv.compact()
                compaction_seconds = time.perf_counter() - t
                compacted = True
                progress(f"soak: compacted in {compaction_seconds:.1f} s")
            time.sleep(1)
        stop.set()
        eraser.join(60)
        writers.stop()
    stored = {ns: _stored(srv, ns) for ns in (py_ns, http_ns)}
    lost = sum(len(set(ids) - erased - stored[ns]) for ns, ids in writers.acknowledged.items())
    kept_erased = len(erased & stored[py_ns])
    return {
        "minutes": minutes,
        "acknowledged": writers.total(),
        "erased": len(erased),
        "refused": writers.refused,
        "errors": len(writers.errors) + len(erase_errors),
        "error_samples": (writers.errors + erase_errors)[:3],
        "lost": lost,
        "erased_still_stored": kept_erased,
        "compaction_seconds": compaction_seconds,
        "audit_rows": _audits(srv, py_ns) + _audits(srv, http_ns),
    }


def run(
    compactions: int, soak_minutes: float, outage_calls: int, progress: Progress
) -> dict[str, Any]:
    # The driver logs every retry while Neo4j is down on purpose.
    logging.getLogger("neo4j").setLevel(logging.CRITICAL)
    with tempfile.TemporaryDirectory(prefix="graphmem-faults-") as tmp:
        srv = LocalNeo4j(
            Path(tmp) / "server",
            bolt_port=_free_port(),
            http_port=_free_port(),
            heap="1g",
            pagecache="256m",
        )
        srv.start()
        try:
            res: dict[str, Any] = {}
            res["compactions"] = compactions_under_writers(srv, compactions, progress)
            res["kills"] = kills_at_each_step(srv, progress)
            res["outage"] = outage(srv, outage_calls, progress)
            if soak_minutes > 0:
                res["soak"] = soak(srv, soak_minutes, progress)
            return res
        finally:
            srv.stop()


def markdown(res: dict[str, Any], cmd: str) -> str:
    c = res["compactions"]
    lines = [
        f"Command: `{cmd}`",
        "",
        "A scratch local Neo4j and a `graphmem serve` in its own process. **Compactions "
        "under writers**: two threads through the Python API and two through the service "
        "write unique records without pause, and the database is compacted again "
        f"{GAP_S:g} s after each compaction ends. A write counts as acknowledged when it "
        "returned (or answered 200); while a compaction runs every write is refused, and "
        "the first writes after it wait for Neo4j to plan its queries afresh.",
        "",
        "| compactions | acknowledged (Python / service) | lost | refused (503 / "
        "StoreUnavailableError) | other errors | export left | audit rows | compaction "
        "p50 / max |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|",
        f"| {c['compactions']} | {' / '.join(str(v) for v in c['acknowledged'].values())} "
        f"| {sum(c['lost'].values())} | {c['refused']} | {c['errors']} | "
        f"{c['exports_left']} | {c['audit_rows']} | {c['seconds_p50']:.1f} s / "
        f"{c['seconds_max']:.1f} s |",
        "",
        "**kill -9 of `graphmem neo4j compact` at each step**, then `start`:",
        "",
        "| killed after | nodes | counts equal | content checksum equal | export left | "
        "start (restores) |",
        "|---|---:|:-:|:-:|:-:|---:|",
    ]
    for k in res["kills"]:
        lines.append(
            f"| {k['step']}{'' if k['reached'] else ' (not reached)'} | {k['nodes']:,} | "
            f"{'yes' if k['same_counts'] else 'NO'} | {'yes' if k['same_checksum'] else 'NO'} "
            f"| {'YES' if k['export_left'] else 'no'} | {k['start_seconds']:.1f} s |"
        )
    lines += [
        "",
        "**Neo4j stopped**: every route of the service, timed (seconds):",
        "",
        "| route | status | p50 | max |",
        "|---|---|---:|---:|",
    ]
    for name, o in res["outage"].items():
        lines.append(f"| {name} | {o['codes']} | {o['p50']:.2f} | {o['max']:.2f} |")
    worst = max(o["max"] for o in res["outage"].values())
    lines.append(f"\nSlowest answer with Neo4j stopped: **{worst:.2f} s** (target ≤ 2.5 s).")
    if "soak" in res:
        s = res["soak"]
        lines += [
            "",
            f"**Soak**, {s['minutes']:g} minutes: three writers (two Python, one service), "
            "an eraser (two erases a second at most), one compaction in the middle.",
            "",
            "| acknowledged | erased | refused | errors | lost | erased but stored | "
            "audit rows | compaction |",
            "|---:|---:|---:|---:|---:|---:|---:|---:|",
            f"| {s['acknowledged']:,} | {s['erased']:,} | {s['refused']} | {s['errors']} | "
            f"{s['lost']} | {s['erased_still_stored']} | {s['audit_rows']} | "
            f"{s['compaction_seconds']:.1f} s |",
        ]
    samples = res["compactions"]["error_samples"] + res.get("soak", {}).get("error_samples", [])
    if samples:
        lines += ["", "Errors seen: " + "; ".join(f"`{e}`" for e in samples)]
    return "\n".join(lines) + "\n"
