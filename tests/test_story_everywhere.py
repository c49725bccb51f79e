"""One story — write, update, block, why, erase — told to ``Memory`` and through REST
(``Client``), the CLI and MCP over HTTP: every interface must give the same answers."""

from __future__ import annotations

import asyncio
import json
import os
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import httpx2
import pytest
from click.testing import CliRunner
from mcp import Client as McpClient
from mcp.client.streamable_http import streamable_http_client

from graphmem import Memory, MemoryConfig
from graphmem.cli import main as cli
from graphmem.client import Client
from graphmem.service.app import ServiceThread, Settings, create_app
from graphmem.wire import block_to_dict

pytestmark = pytest.mark.integration

KEY = "story-key-0123456789"
WHO, REL = "Minjun", "meeting time"
FIRST = {"text": "Minjun: our meeting is at 9:00", "speaker": "Minjun", "record_id": "m1"}
SECOND = {
    "text": "Minjun: the meeting moved to 9:30",
    "speaker": "Minjun",
    "intent": "update",
    "record_id": "m2",
}
ASK = "Minjun, when is the meeting?"
BLOCK_OPTIONS = {"fresh": True, "deadline_ms": 5000}

Story = dict[str, Any]


def _summary(first: dict, second: dict, block: dict, why: dict, erase: dict, after: dict) -> Story:
    """What a user reads from each step; ids, times and links differ by design."""
    return {
        "first": (first["head"], first["status"]),
        "second": (second["head"], second["status"]),
        "block": (
            block["text"],
            block["abstained"],
            [ln["record"]["record_id"] for ln in block["lines"]],
        ),
        "why": (
            why["value"],
            why["status"],
            why["text"],
            sorted((v["value"], v["status"]) for v in why["versions"]),
        ),
        "erase": (erase["record_id"], erase["versions_removed"], erase["keys_rematerialized"]),
        "after": (after["value"], after["text"]),
    }


def via_memory(mem: Memory) -> Story:
    first = mem.remember(WHO, REL, "9:00", **FIRST).to_dict()
    second = mem.remember(WHO, REL, "9:30", **SECOND).to_dict()
    block = block_to_dict(mem.block(ASK, WHO, **BLOCK_OPTIONS))
    why = mem.why(WHO, REL).to_dict()
    erase = mem.erase("m2").to_dict()
    return _summary(first, second, block, why, erase, mem.why(WHO, REL).to_dict())


def via_client(client: Client) -> Story:
    first = client.remember(WHO, REL, "9:00", **FIRST).to_dict()
    second = client.remember(WHO, REL, "9:30", **SECOND).to_dict()
    block = block_to_dict(client.block(ASK, WHO, **BLOCK_OPTIONS))
    why = client.why(WHO, REL).to_dict()
    erase = client.erase("m2").to_dict()
    return _summary(first, second, block, why, erase, client.why(WHO, REL).to_dict())


def via_cli(run: Callable[..., Any]) -> Story:
    def flags(step: dict) -> list[str]:
        return [arg for k, v in step.items() for arg in (f"--{k.replace('_', '-')}", v)]

    first = run("remember", WHO, REL, "9:00", *flags(FIRST), "--json")
    second = run("remember", WHO, REL, "9:30", *flags(SECOND), "--json")
    block = run("block", ASK, "--partner", WHO, "--fresh", "--deadline-ms", "5000", "--json")
    why = run("why", WHO, REL, "--json")
    erase = run("erase", "m2", "--json")
    return _summary(first, second, block, why, erase, run("why", WHO, REL, "--json"))


async def via_mcp(url: str) -> Story:
    http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {KEY}"}, timeout=60)
    async with McpClient(streamable_http_client(url, http_client=http)) as mcp:

        async def call(tool: str, **args: Any) -> dict:
            result = await mcp.call_tool(tool, args)
            assert not result.is_error, result.content
            return result.structured_content or json.loads(result.content[0].text)

        first = await call("remember", subject=WHO, relation=REL, value="9:00", **FIRST)
        second = await call("remember", subject=WHO, relation=REL, value="9:30", **SECOND)
        block = await call("memory_block", request=ASK, partner=WHO, **BLOCK_OPTIONS)
        why = await call("why", subject=WHO, relation=REL)
        erase = await call("erase", record_id="m2")
        return _summary(
            first, second, block, why, erase, await call("why", subject=WHO, relation=REL)
        )


@pytest.fixture(scope="module")
def service(neo4j_server: Any) -> Iterator[ServiceThread]:
    settings = Settings(
        memory=MemoryConfig(neo4j_uri=neo4j_server.bolt_url, neo4j_auth=neo4j_server.auth),
        api_keys={KEY: "*"},
    )
    with ServiceThread(create_app(settings)) as server:
        yield server


def _ns() -> str:
    return f"story-{uuid.uuid4().hex[:10]}"


def test_every_interface_tells_the_same_story(
    neo4j_server: Any, connect: Callable[..., Memory], service: ServiceThread
) -> None:
    expected = via_memory(connect(_ns()))
    assert expected["second"] == ("9:30", "active")
    assert "9:30" in expected["block"][0] and expected["block"][2] == ["m2"]
    assert expected["after"][0] == "9:00"

    with Client(service.url, _ns(), api_key=KEY) as client:
        assert via_client(client) == expected

    env = {"NEO4J_URI": neo4j_server.bolt_url}
    if neo4j_server.auth:
        env["NEO4J_USER"], env["NEO4J_PASSWORD"] = neo4j_server.auth
    ns = _ns()

    def run(*args: str) -> Any:
        result = CliRunner().invoke(cli, ["-n", ns, *args], env={**os.environ, **env})
        assert result.exit_code == 0, result.output
        return json.loads(result.output)

    assert via_cli(run) == expected
    assert asyncio.run(via_mcp(f"{service.url}/mcp/{_ns()}")) == expected
