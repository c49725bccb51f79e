"""kill -9 of the service in the middle of a background ingest job: a new service comes
up, the client re-sends the same records, and every record is stored exactly once with
the right current values."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path
from typing import Any

import httpx
import pytest

pytestmark = [pytest.mark.integration, pytest.mark.slow]

KEY = "crash-key-0123456789"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _serve(neo4j_server: Any, ns: str) -> tuple[subprocess.Popen[bytes], str]:
    port = _free_port()
    env = {
        **os.environ,
        "GRAPHMEM_API_KEYS": json.dumps({KEY: [ns]}),
        "NEO4J_URI": neo4j_server.bolt_url,
    }
    if neo4j_server.auth:
        env["NEO4J_USER"], env["NEO4J_PASSWORD"] = neo4j_server.auth
    exe = Path(sys.executable).with_name("graphmem")
    cmd = [str(exe)] if exe.exists() else [sys.executable, "-m", "graphmem.cli"]
    proc = subprocess.Popen(
        [*cmd, "serve", "--port", str(port)],
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


def test_kill_9_of_the_service_mid_job_then_resend(neo4j_server: Any) -> None:
    ns = f"svc-crash-{uuid.uuid4().hex[:8]}"
    records = [
        {
            "text": f"item {i % 53} is in box {i}",
            "id": f"r{i}",
            "facts": [
                {
                    "subject": f"item {i % 53}",
                    "relation": "location",
                    "value": f"box {i}",
                    "intent": "update",
                }
            ],
        }
        for i in range(12_000)
    ]
    headers = {"Authorization": f"Bearer {KEY}"}
    proc, base = _serve(neo4j_server, ns)
    try:
        resp = httpx.post(
            f"{base}/v1/{ns}/records", json={"records": records}, headers=headers, timeout=60
        )
        assert resp.status_code == 202, resp.text  # a background job
        job = resp.headers["location"]
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:  # kill it while the job runs
            state = httpx.get(f"{base}{job}", headers=headers, timeout=10).json()["status"]
            if state == "running":
                break
            time.sleep(0.05)
        time.sleep(0.5)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    proc, base = _serve(neo4j_server, ns)
    try:
        with httpx.Client(base_url=f"{base}/v1/{ns}", headers=headers, timeout=120) as http:
            resp = http.post("/records", json={"records": records})
            assert resp.status_code == 202
            job = resp.headers["location"].removeprefix(f"/v1/{ns}")
            deadline = time.monotonic() + 300
            while time.monotonic() < deadline:
                body = http.get(job).json()
                if body["status"] in ("done", "failed"):
                    break
                time.sleep(0.5)
            assert body["status"] == "done", body
            report = body["report"]
            assert report["stored"] + report["skipped_known"] == len(records)
            assert report["stored"] > 0, "the kill came after the job had finished"
            assert report["errors"] == []
            for audit in ("two_heads", "versions_without_evidence", "status_labels"):
                assert http.get(f"/audit/{audit}").json()["rows"] == [], audit
            heads = {r["subject"]: r["value"] for r in http.get("/audit/heads").json()["rows"]}
        for i in range(53):  # the last write for each item is its current value
            last = max(j for j in range(len(records)) if j % 53 == i)
            assert heads[f"item {i}"] == f"box {last}"
    finally:
        proc.kill()
        proc.wait(timeout=30)
