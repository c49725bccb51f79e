"""``graphmem serve --workers 2``: two processes on one port, each answering /block from
its own snapshot, both seeing what the other wrote."""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any

import httpx
import pytest

from graphmem_bench.serving import running_service

pytestmark = pytest.mark.integration

KEY = "workers-key-0123456789"


def _children(pid: int) -> list[int]:
    path = Path(f"/proc/{pid}/task/{pid}/children")
    return [int(x) for x in path.read_text().split()] if path.exists() else []


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="reads /proc (Linux)")
def test_two_workers_serve_blocks_and_see_each_others_writes(neo4j_server: Any) -> None:
    ns = f"svc-workers-{uuid.uuid4().hex[:8]}"
    headers = {"Authorization": f"Bearer {KEY}"}
    with running_service(
        neo4j_server.bolt_url,
        {KEY: [ns]},
        startup_seconds=90,
        args=("--workers", "2"),
        auth=neo4j_server.auth,
    ) as service:
        proc, base = service.proc, service.base_url
        assert httpx.get(f"{base}/healthz", timeout=5).status_code == 200
        # uvicorn's supervisor runs the two workers as its child processes.
        assert len(_children(proc.pid)) >= 2

        body = {
            "text": "The standup with Minjun Kim is at 9:30.",
            "id": "w1",
            "participants": ["Minjun Kim"],
            "observed_at": "2026-05-01",
            "facts": [{"subject": "Minjun Kim", "relation": "meeting time", "value": "9:30"}],
        }
        with httpx.Client(base_url=base, headers=headers, timeout=30) as client:
            assert client.post(f"/v1/{ns}/records", json={"records": [body]}).status_code == 200
            update = {
                **body,
                "id": "w2",
                "text": "Moved: the standup with Minjun Kim is now at 10:15.",
                "observed_at": "2026-05-03",
                "facts": [
                    {
                        "subject": "Minjun Kim",
                        "relation": "meeting time",
                        "value": "10:15",
                        "intent": "update",
                    }
                ],
            }
            assert client.post(f"/v1/{ns}/records", json={"records": [update]}).status_code == 200
            # Many connections, so both workers answer: each must serve the current value
            # (its own snapshot follows Neo4j, whichever worker took the write).
            texts = set()
            for _ in range(20):
                with httpx.Client(base_url=base, headers=headers, timeout=30) as fresh_conn:
                    r = fresh_conn.post(
                        f"/v1/{ns}/block",
                        json={
                            "request": "what time is the standup with Minjun?",
                            "partner": "Minjun Kim",
                            "now": "2026-05-05",
                        },
                    )
                    assert r.status_code == 200, r.text
                    texts.add(r.json()["text"])
            assert len(texts) == 1
            (text,) = texts
            assert "10:15" in text and "9:30" not in text
