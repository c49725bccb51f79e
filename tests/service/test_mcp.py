"""The MCP server, driven by the official SDK's client: over stdio (``graphmem mcp`` in a
real subprocess) and over streamable HTTP (``/mcp/{namespace}`` on the service, with keys).
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import httpx2
import pytest
from mcp import Client as McpClient
from mcp import StdioServerParameters
from mcp.client.streamable_http import streamable_http_client

from graphmem import MemoryConfig
from graphmem.service.app import ServiceThread, Settings, create_app
from graphmem.service.mcp import TOOLS

pytestmark = pytest.mark.integration

KEY_ALL, KEY_A = "mcp-key-all-0123", "mcp-key-a-0123456"
NS_A, NS_B = f"mcp-a-{uuid.uuid4().hex[:8]}", f"mcp-b-{uuid.uuid4().hex[:8]}"
SECRET = "vault code 4417"


def _graphmem_command() -> str:
    found = Path(sys.executable).with_name("graphmem")
    return str(found) if found.exists() else (shutil.which("graphmem") or "graphmem")


def _stdio(server: Any, namespace: str) -> StdioServerParameters:
    env = {
        "PATH": os.environ.get("PATH", ""),
        "HOME": os.environ.get("HOME", "/tmp"),
        "NEO4J_URI": server.bolt_url,
    }
    for name in ("GRAPHMEM_HOME", "JAVA_HOME"):
        if name in os.environ:
            env[name] = os.environ[name]
    if server.auth:
        env["NEO4J_USER"], env["NEO4J_PASSWORD"] = server.auth
    if server.http_url:
        env["GRAPHMEM_NEO4J_HTTP"] = server.http_url
    return StdioServerParameters(
        command=_graphmem_command(), args=["-n", namespace, "mcp"], env=env
    )


def _http(url: str, key: str | None) -> Any:
    headers = {"Authorization": f"Bearer {key}"} if key else {}
    return streamable_http_client(url, http_client=httpx2.AsyncClient(headers=headers, timeout=60))


def _data(result: Any) -> Any:
    """A tool's structured answer (the SDK also sends it as JSON text)."""
    assert not result.is_error, result.content
    if result.structured_content is not None:
        return result.structured_content
    return json.loads(result.content[0].text)


def _error(result: Any) -> str:
    assert result.is_error
    return " ".join(getattr(c, "text", "") for c in result.content)


async def _story(client: McpClient) -> dict[str, Any]:
    """write → update → block → why → erase, the answers an agent sees."""
    out: dict[str, Any] = {}
    tools = await client.list_tools()
    out["tools"] = sorted(t.name for t in tools.tools)
    first = await client.call_tool(
        "remember",
        {
            "subject": "Minjun",
            "relation": "meeting time",
            "value": "9:00",
            "text": "Minjun: standup is at 9:00",
            "speaker": "Minjun",
            "record_id": "m1",
        },
    )
    out["first"] = _data(first)
    second = await client.call_tool(
        "remember",
        {
            "subject": "Minjun",
            "relation": "meeting time",
            "value": "9:30",
            "text": "Minjun: standup moved to 9:30",
            "speaker": "Minjun",
            "intent": "update",
            "record_id": "m2",
        },
    )
    out["second"] = _data(second)
    raw = await client.call_tool("remember", {"text": "lunch was great today", "record_id": "m3"})
    out["raw"] = _data(raw)
    blk = await client.call_tool(
        "memory_block",
        {
            "request": "Minjun, when is the meeting?",
            "partner": "Minjun",
            "fresh": True,
            "deadline_ms": 5000,
        },
    )
    out["block"] = _data(blk)
    out["why"] = _data(
        await client.call_tool("why", {"subject": "Minjun", "relation": "meeting time"})
    )
    out["history"] = _data(
        await client.call_tool("history", {"subject": "Minjun", "relation": "meeting time"})
    )
    out["evidence"] = _data(
        await client.call_tool("evidence", {"question": "When is Minjun's standup?"})
    )
    out["erase"] = _data(await client.call_tool("erase", {"record_id": "m2"}))
    out["after_erase"] = _data(
        await client.call_tool("why", {"subject": "Minjun", "relation": "meeting time"})
    )
    out["conflict"] = _error(
        await client.call_tool(
            "resolve", {"subject": "Minjun", "relation": "meeting time", "value": "9:00"}
        )
    )
    out["half_fact"] = _error(await client.call_tool("remember", {"subject": "Minjun"}))
    out["audit"] = _data(await client.call_tool("audit", {"name": "two_heads"}))
    res = await client.read_resource("graphmem://why/Minjun/meeting%20time")
    out["resource"] = json.loads(res.contents[0].text)
    return out


def _check_story(out: dict[str, Any]) -> None:
    assert out["tools"] == sorted(TOOLS)
    assert out["first"]["head"] == "9:00" and out["first"]["op"] == "ACCEPT"
    assert out["second"]["head"] == "9:30"
    assert out["raw"]["stored"] == 1
    assert "9:30" in out["block"]["text"] and out["block"]["served"] == "fresh"
    assert out["why"]["value"] == "9:30"
    assert "replaced 9:00" in out["why"]["text"] and "moved to 9:30" in out["why"]["text"]
    assert sorted(v["value"] for v in out["why"]["versions"]) == ["9:00", "9:30"]
    assert [(op["fact"] or {}).get("value") for op in out["history"]["operations"]] == [
        "9:00",
        "9:30",
    ]
    assert "9:30" in out["evidence"]["text"]
    assert out["erase"]["versions_removed"] == 1
    assert out["after_erase"]["value"] == "9:00"
    assert out["conflict"].startswith("Error executing tool resolve: Conflict: ")
    assert "not contested" in out["conflict"] and "Traceback" not in out["conflict"]
    assert "Invalid input: give subject, relation and value together" in out["half_fact"]
    assert out["audit"]["rows"] == []
    assert out["resource"]["value"] == "9:00"
    assert "MATCH" in out["resource"]["cypher"]


# -- stdio -------------------------------------------------------------------------------------
def test_stdio_subprocess_tells_the_whole_story(neo4j_server: Any, namespace: str) -> None:
    async def run() -> dict[str, Any]:
        async with McpClient(_stdio(neo4j_server, namespace), read_timeout_seconds=120) as c:
            return await _story(c)

    _check_story(asyncio.run(run()))


# -- streamable HTTP ---------------------------------------------------------------------------
@pytest.fixture(scope="module")
def service(neo4j_server: Any) -> Iterator[ServiceThread]:
    settings = Settings(
        memory=MemoryConfig(
            neo4j_uri=neo4j_server.bolt_url,
            neo4j_auth=neo4j_server.auth,
            neo4j_http_url=neo4j_server.http_url,
        ),
        api_keys={KEY_ALL: "*", KEY_A: [NS_A]},
    )
    with ServiceThread(create_app(settings)) as server:
        yield server


def test_http_tells_the_same_story(service: ServiceThread, namespace: str) -> None:
    async def run() -> dict[str, Any]:
        async with McpClient(_http(f"{service.url}/mcp/{namespace}", KEY_ALL)) as c:
            return await _story(c)

    _check_story(asyncio.run(run()))


def _initialize() -> dict[str, Any]:
    return {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "raw", "version": "0"},
        },
    }


@pytest.mark.parametrize("key, status", [(None, 401), ("wrong-key-1234", 401), (KEY_A, 403)])
def test_http_needs_a_key_for_the_namespace(
    service: ServiceThread, key: str | None, status: int
) -> None:
    headers = {"Accept": "application/json, text/event-stream"}
    if key:
        headers["Authorization"] = f"Bearer {key}"
    resp = httpx.post(f"{service.url}/mcp/{NS_B}", json=_initialize(), headers=headers)
    assert resp.status_code == status, resp.text
    assert resp.headers["content-type"].startswith("application/problem+json")
    assert resp.json()["status"] == status
    if status == 401:
        assert resp.headers["www-authenticate"] == "Bearer"


def test_http_refuses_an_invalid_namespace(service: ServiceThread) -> None:
    resp = httpx.post(
        f"{service.url}/mcp/-dash", json=_initialize(), headers={"X-API-Key": KEY_ALL}
    )
    assert resp.status_code == 422


def test_http_namespaces_are_isolated(service: ServiceThread) -> None:
    async def run() -> tuple[Any, Any, str]:
        async with McpClient(_http(f"{service.url}/mcp/{NS_B}", KEY_ALL)) as b:
            _data(
                await b.call_tool(
                    "remember",
                    {
                        "subject": "vault",
                        "relation": "code",
                        "value": "4417",
                        "text": SECRET,
                        "record_id": "secret-1",
                    },
                )
            )
        async with McpClient(_http(f"{service.url}/mcp/{NS_A}", KEY_A)) as a:
            why = _data(await a.call_tool("why", {"subject": "vault", "relation": "code"}))
            ev = _data(await a.call_tool("evidence", {"question": "What is the vault code?"}))
            erase = _error(await a.call_tool("erase", {"record_id": "secret-1"}))
        return why, ev, erase

    why, ev, erase = asyncio.run(run())
    assert why["versions"] == [] and "4417" not in ev["text"]
    assert erase.startswith("Error executing tool erase: Not found")
