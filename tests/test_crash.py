"""kill -9 of Neo4j in the middle of a large ingest: restart, re-send, nothing lost twice."""

from __future__ import annotations

import os
import signal
import socket
import threading
import time

import pytest

from graphmem import Fact, GraphmemError, LocalNeo4j, Memory, Record

pytestmark = [pytest.mark.integration, pytest.mark.slow]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_kill_9_mid_ingest_then_resubmit(tmp_path):
    server = LocalNeo4j(
        tmp_path / "data",
        bolt_port=_free_port(),
        http_port=_free_port(),
        heap="512m",
        pagecache="64m",
    )
    records = [
        Record(
            f"item {i % 97} is in box {i}",
            id=f"r{i}",
            facts=(Fact(f"item {i % 97}", "location", f"box {i}", "update"),),
        )
        for i in range(6000)
    ]
    acked: list[str] = []
    try:
        status = server.start()
        mem = Memory.connect(status.bolt_url, "crash")

        def ingest() -> None:
            for start in range(0, len(records), 200):
                batch = records[start : start + 200]
                try:
                    mem.ingest(batch)
                except GraphmemError:
                    return  # the server died under us; this batch was not acknowledged
                except Exception:
                    return
                acked.extend(r.id for r in batch)

        worker = threading.Thread(target=ingest)
        worker.start()
        deadline = time.monotonic() + 60
        while len(acked) < 1000 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert acked, "no batch was acknowledged before the kill"
        os.kill(status.pid, signal.SIGKILL)
        worker.join(timeout=120)
        assert not worker.is_alive()
        assert len(acked) < len(records), "the kill came too late to test anything"
        mem.close()

        status = server.start()  # recovery from the transaction log
        mem = Memory.connect(status.bolt_url, "crash")
        report = mem.ingest(records, batch_size=1000)
        assert report.skipped_known >= len(acked)
        ids = mem.store.run("count_record_ids", {"ns": "crash"})[0]
        assert ids["total"] == ids["distinct"] == len(records)
        stored = {
            r["record_id"]
            for r in mem.store.driver.execute_query(
                "MATCH (e:Evidence {ns: 'crash'}) RETURN e.record_id AS record_id"
            ).records
        }
        assert set(acked) <= stored
        assert mem.audit("two_heads") == []
        assert mem.audit("versions_without_evidence") == []
        for i in range(97):  # the last write for each item is its current value
            last = max(j for j in range(len(records)) if j % 97 == i)
            assert mem.why(f"item {i}", "location").value == f"box {last}"
        mem.close()
    finally:
        server.stop()
