"""``graphmem serve --workers 2``: two processes on one port, each answering /block from
its own snapshot, both seeing what the other wrote."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path
from typing import Any

import httpx
import pytest

pytestmark = pytest.mark.integration

KEY = "workers-key-0123456789"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _children(pid: int) -> list[int]:
    path = Path(f"/proc/{pid}/task/{pid}/children")
    return [int(x) for x in path.read_text().split()] if path.exists() else []


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="reads /proc (Linux)")
def test_two_workers_serve_blocks_and_see_each_others_writes(neo4j_server: Any) -> None:
    ns = f"svc-workers-{uuid.uuid4().hex[:8]}"
    port = _free_port()
    env = {**os.environ, "GRAPHMEM_API_KEYS": json.dumps({KEY: [ns]}),
           "NEO4J_URI": neo4j_server.bolt_url}
    if neo4j_server.auth:
        env["NEO4J_USER"], env["NEO4J_PASSWORD"] = neo4j_server.auth
    exe = Path(sys.executable).with_name("graphmem")
    cmd = [str(exe)] if exe.exists() else [sys.executable, "-m", "graphmem.cli"]
    proc = subprocess.Popen([*cmd, "serve", "--port", str(port), "--workers", "2"], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    headers = {"Authorization": f"Bearer {KEY}"}
    try:
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"{base}/healthz", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            time.sleep(0.3)
        else:
            raise AssertionError("the service did not start")
        # uvicorn's supervisor runs the two workers as its child processes.
        assert len(_children(proc.pid)) >= 2

        body = {"text": "The standup with Minjun Kim is at 9:30.", "id": "w1",
                "participants": ["Minjun Kim"], "observed_at": "2026-05-01",
                "facts": [{"subject": "Minjun Kim", "relation": "meeting time",
                           "value": "9:30"}]}
        with httpx.Client(base_url=base, headers=headers, timeout=30) as client:
            assert client.post(f"/v1/{ns}/records", json={"records": [body]}).status_code == 200
            update = {**body, "id": "w2", "text": "Moved: the standup with Minjun Kim is now "
                      "at 10:15.", "observed_at": "2026-05-03",
                      "facts": [{"subject": "Minjun Kim", "relation": "meeting time",
                                 "value": "10:15", "intent": "update"}]}
            assert client.post(f"/v1/{ns}/records", json={"records": [update]}).status_code \
                == 200
            # Many connections, so both workers answer: each must serve the current value
            # (its own snapshot follows Neo4j, whichever worker took the write).
            texts = set()
            for _ in range(20):
                with httpx.Client(base_url=base, headers=headers, timeout=30) as fresh_conn:
                    r = fresh_conn.post(f"/v1/{ns}/block", json={
                        "request": "what time is the standup with Minjun?",
                        "partner": "Minjun Kim", "now": "2026-05-05"})
                    assert r.status_code == 200, r.text
                    texts.add(r.json()["text"])
            assert len(texts) == 1
            (text,) = texts
            assert "10:15" in text and "9:30" not in text
    finally:
        proc.terminate()
        proc.wait(timeout=60)
