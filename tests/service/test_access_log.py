"""The service's access log keeps routes, never names, ids or query strings."""

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

from graphmem.service.access_log import redacted_path

KEY = "access-log-key-0123456789"


def test_paths_keep_the_route_words_only() -> None:
    assert redacted_path("/v1/alice/why?subject=Minjun&relation=team") == "/v1/*/why"
    assert redacted_path("/v1/alice/records/invoice-8812") == "/v1/*/records/*"
    assert redacted_path("/v1/김민준/records/a%2Fb/c") == "/v1/*/records/*/*"
    assert redacted_path("/v1/ns/audit/two_heads") == "/v1/*/audit/*"
    assert redacted_path("/mcp/alice") == "/mcp/*"
    assert redacted_path("/healthz") == "/healthz"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.mark.integration
def test_the_access_log_of_a_running_service_names_no_one(
    neo4j_server: Any, tmp_path: Path
) -> None:
    ns = f"log-{uuid.uuid4().hex[:8]}"
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
    log = tmp_path / "service.log"
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [*cmd, "serve", "--port", str(port)], env=env, stdout=out, stderr=out
        )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(f"{base}/healthz", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline, log.read_text()
            time.sleep(0.2)
        with httpx.Client(base_url=base, headers={"Authorization": f"Bearer {KEY}"}) as http:
            r = http.post(
                f"/v1/{ns}/remember",
                json={
                    "subject": "Quizzleton",
                    "relation": "pin",
                    "value": "4417",
                    "record_id": "ledger-77123",
                },
            )
            assert r.status_code == 200, r.text
            http.get(f"/v1/{ns}/why", params={"subject": "Quizzleton", "relation": "pin"})
            assert http.delete(f"/v1/{ns}/records/ledger-77123").status_code == 200
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(30)
    text = log.read_text(errors="replace")
    assert "/v1/*/why" in text and "/v1/*/records/*" in text, text[-2000:]
    for secret in ("Quizzleton", "ledger-77123", ns, "subject="):
        assert secret not in text, secret
