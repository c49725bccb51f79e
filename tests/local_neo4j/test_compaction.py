"""Compaction is fenced maintenance: writes that were acknowledged while it ran are in the
database that survives, writes it refused say so (503 / StoreUnavailableError), `stop`
always stops, a kill -9 at any step leaves the graph whole, and no plaintext export is
ever left in the data folder."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from neo4j import GraphDatabase

from graphmem import LocalNeo4j, LocalNeo4jError, Memory, StoreUnavailableError
from graphmem.local_neo4j.compact import LEASE_S, content_checksum

pytestmark = [pytest.mark.integration, pytest.mark.slow]

MARK = "Plaintextmarker"  # in every record: a plaintext export would hold it


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _exe() -> list[str]:
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


@pytest.fixture
def server(tmp_path: Path) -> Iterator[LocalNeo4j]:
    srv = LocalNeo4j(
        tmp_path / "server",
        bolt_port=_free_port(),
        http_port=_free_port(),
        heap="512m",
        pagecache="64m",
    )
    srv.start()
    yield srv
    srv.stop()


def _stored_ids(srv: LocalNeo4j, ns: str) -> set[str]:
    with GraphDatabase.driver(srv.bolt_url) as driver:
        rows = driver.execute_query(
            "MATCH (e:Evidence {ns: $ns}) RETURN e.record_id AS id", ns=ns
        ).records
    return {r["id"] for r in rows}


def _checksum(srv: LocalNeo4j) -> tuple[int, int, str]:
    with GraphDatabase.driver(srv.bolt_url) as driver:
        return content_checksum(driver)


def _no_plaintext(srv: LocalNeo4j) -> None:
    work = srv.data_dir / "compact"
    assert not work.exists(), f"the compaction left {sorted(work.rglob('*'))}"
    out = subprocess.run(
        ["grep", "-rlai", "--", MARK, str(srv.data_dir / "compact"), str(srv.data_dir / "run")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert not out.stdout.strip()


class Writers:
    """Threads writing unique records until stopped: what was acknowledged, what was
    refused, and anything else that went wrong."""

    def __init__(self, write: Callable[[str], bool], threads: int = 2) -> None:
        self.write = write
        self.round = uuid.uuid4().hex[:6]
        self.acknowledged: list[str] = []
        self.refused = 0
        self.errors: list[str] = []
        self._stop = threading.Event()
        self._threads = [
            threading.Thread(target=self._run, args=(t,), daemon=True) for t in range(threads)
        ]

    def _run(self, t: int) -> None:
        i = 0
        while not self._stop.is_set():
            rid = f"w{self.round}-{t}-{i}"
            i += 1
            try:
                if self.write(rid):
                    self.acknowledged.append(rid)
                else:
                    self.refused += 1
                    time.sleep(0.2)
            except StoreUnavailableError:
                self.refused += 1
                time.sleep(0.2)
            except Exception as exc:
                self.errors.append(f"{type(exc).__name__}: {exc}")
                time.sleep(0.2)

    def __enter__(self) -> Writers:
        for th in self._threads:
            th.start()
        time.sleep(1.0)  # writes are flowing before the compaction begins
        return self

    def __exit__(self, *exc: object) -> None:
        time.sleep(1.0)  # and after it ends
        self._stop.set()
        for th in self._threads:
            th.join(60)


def _remember(m: Memory, rid: str) -> bool:
    m.remember(f"item {rid}", "location", f"box {rid}", record_id=rid, text=f"{MARK} {rid}")
    return True


def test_compaction_under_python_writers_loses_no_acknowledged_write(
    server: LocalNeo4j,
) -> None:
    ns = f"cw-{uuid.uuid4().hex[:8]}"
    with Memory.connect(server.bolt_url, ns) as m:
        for i in range(50):
            _remember(m, f"seed{i}")
        for _ in range(2):
            with Writers(lambda rid: _remember(m, rid)) as writers:
                report = server.compact()
            assert not writers.errors, writers.errors[:3]
            assert writers.acknowledged
            lost = set(writers.acknowledged) - _stored_ids(server, ns)
            assert not lost, f"{len(lost)} acknowledged writes lost: {sorted(lost)[:5]}"
            assert report["nodes"] > 0
            _no_plaintext(server)
        for name in ("two_heads", "supersedes_forward", "versions_without_evidence"):
            assert not m.audit(name), name
        _remember(m, "after")  # the fence is down
    assert server.status().running


def _serve(srv: LocalNeo4j, ns: str, key: str) -> tuple[subprocess.Popen[bytes], str]:
    port = _free_port()
    env = {
        **os.environ,
        "GRAPHMEM_API_KEYS": json.dumps({key: [ns]}),
        "NEO4J_URI": srv.bolt_url,
    }
    proc = subprocess.Popen(
        [*_exe(), "serve", "--port", str(port)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"{base}/healthz", timeout=2).status_code == 200:
                return proc, base
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    proc.kill()
    raise AssertionError("the service did not start")


def test_compaction_under_service_writers_answers_503_never_a_lost_200(
    server: LocalNeo4j,
) -> None:
    ns = f"cs-{uuid.uuid4().hex[:8]}"
    key = "compaction-key-0123456789"
    proc, base = _serve(server, ns, key)
    statuses: list[int] = []
    try:
        with httpx.Client(base_url=base, headers={"Authorization": f"Bearer {key}"}) as http:

            def write(rid: str) -> bool:
                try:
                    r = http.post(
                        f"/v1/{ns}/remember",
                        json={
                            "subject": f"item {rid}",
                            "relation": "location",
                            "value": f"box {rid}",
                            "record_id": rid,
                            "text": f"{MARK} {rid}",
                        },
                        timeout=30,
                    )
                except httpx.HTTPError:
                    return False
                statuses.append(r.status_code)
                if r.status_code == 503:
                    assert r.headers.get("Retry-After")
                    return False
                assert r.status_code == 200, r.text
                return True

            with Writers(write) as writers:
                server.compact()
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(30)
    assert not writers.errors, writers.errors[:3]
    assert set(statuses) <= {200, 503}, sorted(set(statuses))
    assert 503 in statuses  # the fence was met: the test exercised the window
    lost = set(writers.acknowledged) - _stored_ids(server, ns)
    assert not lost, f"{len(lost)} acknowledged writes lost: {sorted(lost)[:5]}"
    _no_plaintext(server)


def test_stop_under_a_writer_stops_and_leaves_no_export(server: LocalNeo4j) -> None:
    ns = f"cst-{uuid.uuid4().hex[:8]}"
    with Memory.connect(server.bolt_url, ns) as m:
        _remember(m, "gone")
        m.erase("gone")  # so that stop compacts
        with Writers(lambda rid: _remember(m, rid)):
            out = subprocess.run(
                [*_exe(), "neo4j", "stop", *_server_args(server)],
                capture_output=True,
                text=True,
                timeout=600,
                check=False,
            )
    assert out.returncode == 0, out.stderr
    assert "Traceback" not in out.stderr
    assert not server.status().running
    _no_plaintext(server)


# The steps a compaction reports, each a moment to kill it at.
STEPS = ["fencing writes", "read ", "wrote ", "installing the schema"]


def _fact(i: int) -> dict[str, Any]:
    return {"subject": f"item {i}", "relation": "location", "value": f"box {i}"}


@pytest.mark.parametrize("step", STEPS)
def test_kill_9_at_each_step_leaves_the_graph_whole(server: LocalNeo4j, step: str) -> None:
    ns = f"ck-{uuid.uuid4().hex[:8]}"
    with Memory.connect(server.bolt_url, ns) as m:
        m.ingest([{"id": f"r{i}", "text": f"{MARK} {i}", "facts": [_fact(i)]} for i in range(300)])
    before = _checksum(server)
    proc = subprocess.Popen(
        [*_exe(), "neo4j", "compact", *_server_args(server)],
        stderr=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        text=True,
        start_new_session=True,
    )
    assert proc.stderr is not None
    seen: list[str] = []
    for line in proc.stderr:
        seen.append(line)
        if line.strip().startswith(step.strip()):
            break
    proc.send_signal(signal.SIGKILL)
    proc.wait(30)
    assert any(line.strip().startswith(step.strip()) for line in seen), seen
    status = server.start()  # restores what the compaction left half-done
    assert status.running
    assert _checksum(server) == before
    _no_plaintext(server)
    if step in ("fencing writes", "read "):
        # The killed compaction's fence is still up: a new compaction takes it over.
        server.compact()
        assert _checksum(server) == before
    with Memory.connect(server.bolt_url, ns) as m:
        deadline = time.monotonic() + LEASE_S + 10  # a fence left up lapses with its lease
        while True:
            try:
                _remember(m, "after")
                break
            except StoreUnavailableError:
                assert time.monotonic() < deadline
                time.sleep(0.5)


def _mark_stopped_by(server: LocalNeo4j, pid: int) -> None:
    info = json.loads(server._pid_file.read_text())
    server._pid_file.write_text(json.dumps({**info, "stopping": pid}))


def test_start_after_a_stop_whose_caller_died_gives_a_server_that_stays(
    server: LocalNeo4j,
) -> None:
    """A compaction killed just as it stopped the server leaves a server that still
    answers for a moment; start must finish that stop, not reuse the dying server. A
    stop whose caller is alive is not raced: start says so."""
    ns = f"cs-{uuid.uuid4().hex[:8]}"
    with Memory.connect(server.bolt_url, ns) as m:
        _remember(m, "kept")
    before = _checksum(server)
    pid = server.status().pid
    assert pid is not None
    stopper = subprocess.Popen(["sleep", "60"])
    try:
        _mark_stopped_by(server, stopper.pid)  # a stop under way in another process
        with pytest.raises(LocalNeo4jError, match="being stopped by process"):
            server.start()
    finally:
        stopper.kill()
        stopper.wait()
    # The stopper died between marking the server and stopping it.
    status = server.start()
    assert status.running and not status.reused
    assert server.status().pid != pid
    assert _checksum(server) == before
