"""The block through each interface, in one run: in-process, REST (``Client``), MCP over
streamable HTTP, MCP over stdio and the CLI.

One generated personal-memory store (people with namesakes, revised facts, filler chat)
is ingested once; the service (``graphmem serve``) and the stdio MCP server
(``graphmem mcp``) run as their own processes, as they do for users. One client sends the
same requests in the same order to every interface (latency, not load: the service's
throughput under load is ``graphmem-bench service``). Every path serves the snapshot
(the default); the blocks must be identical across interfaces, and the run says so.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import time
import uuid
from collections.abc import Callable
from typing import Any

from graphmem.client import Client
from graphmem.memory import Memory
from graphmem_bench.personal import generate
from graphmem_bench.scoring import percentile
from graphmem_bench.serving import graphmem_command, running_service

KEY = "interfaces-bench-key-01"


def _stats(lat: list[float]) -> dict[str, float]:
    lat = sorted(lat)
    return {"n": len(lat), "p50_ms": percentile(lat, 0.5), "p95_ms": percentile(lat, 0.95)}


def _timed(calls: list[Callable[[], str]]) -> tuple[list[float], list[str]]:
    lat, texts = [], []
    for call in calls:
        t = time.perf_counter()
        texts.append(call())
        lat.append((time.perf_counter() - t) * 1000)
    return lat, texts


async def _mcp_calls(
    client: Any, requests: list[tuple[str, str, str]]
) -> tuple[list[float], list[str]]:
    lat, texts = [], []
    for text, partner, now in requests:
        t = time.perf_counter()
        res = await client.call_tool(
            "memory_block", {"request": text, "partner": partner, "now": now}
        )
        lat.append((time.perf_counter() - t) * 1000)
        if res.is_error:
            raise RuntimeError(f"memory_block failed: {res.content}")
        data = res.structured_content or json.loads(res.content[0].text)
        texts.append(data["text"])
    return lat, texts


def run(
    uri: str | None,
    *,
    requests: int = 200,
    cli_calls: int = 5,
    seed: int = 7,
    progress: Callable[[str], None] = print,
) -> dict[str, Any]:
    import httpx2
    from mcp import Client as McpClient
    from mcp import StdioServerParameters
    from mcp.client.streamable_http import streamable_http_client

    inst = generate(seed, "en", n_chains=160, n_fillers=1000, n_requests=requests)
    ns = f"iface-{uuid.uuid4().hex[:8]}"
    mem = Memory.connect(uri, ns)
    bolt = mem.config.neo4j_uri or ""
    report = mem.ingest(inst.records)
    progress(f"store: {report.summary()} in namespace {ns}")
    asks = [(r.text, r.partner, r.now) for r in inst.requests]
    out: dict[str, Any] = {"records": len(inst.records), "requests": len(asks)}
    with mem, running_service(bolt, {KEY: [ns]}) as service:
        base, env = service.base_url, service.env
        client = Client(base, ns, api_key=KEY)
        # Warm every path once (snapshot built, connections open), then measure in turns.
        mem.block(*asks[0][:2], now=asks[0][2])
        client.block(*asks[0][:2], now=asks[0][2])
        texts: dict[str, list[str]] = {}
        lat: dict[str, list[float]] = {"in-process": [], "REST (Client)": []}
        for text, partner, now in asks:  # interleaved: both see the same machine state
            for name, target in (("in-process", mem), ("REST (Client)", client)):
                t = time.perf_counter()
                blk = target.block(text, partner, now=now)
                lat[name].append((time.perf_counter() - t) * 1000)
                texts.setdefault(name, []).append(blk.text)
        client.close()
        progress("in-process and REST done")

        async def over_mcp() -> None:
            http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {KEY}"}, timeout=60)
            async with McpClient(streamable_http_client(f"{base}/mcp/{ns}", http_client=http)) as c:
                await _mcp_calls(c, asks[:1])
                lat["MCP (HTTP)"], texts["MCP (HTTP)"] = await _mcp_calls(c, asks)
            stdio = StdioServerParameters(
                command=graphmem_command()[0],
                args=[*graphmem_command()[1:], "-n", ns, "mcp"],
                env={**env, "GRAPHMEM_API_KEYS": ""},
            )
            async with McpClient(stdio, read_timeout_seconds=120) as c:
                await _mcp_calls(c, asks[:1])
                lat["MCP (stdio)"], texts["MCP (stdio)"] = await _mcp_calls(c, asks)

        asyncio.run(over_mcp())
        progress("MCP done")
        cli: list[Callable[[], str]] = [
            lambda a=a: (
                subprocess.run(
                    graphmem_command("-n", ns, "block", a[0], "--partner", a[1], "--now", a[2]),
                    env=env,
                    capture_output=True,
                    text=True,
                    check=True,
                ).stdout
            )
            for a in asks[:cli_calls]
        ]
        lat["CLI (a process per call)"], _ = _timed(cli)
    out["latency"] = {name: _stats(v) for name, v in lat.items()}
    reference = texts["in-process"]
    out["identical"] = {
        name: sum(a == b for a, b in zip(reference, t, strict=True)) for name, t in texts.items()
    }
    out["non_empty"] = sum(bool(t) for t in reference)
    out["http_minus_inprocess_p50_ms"] = (
        out["latency"]["REST (Client)"]["p50_ms"] - out["latency"]["in-process"]["p50_ms"]
    )
    return out


def markdown(res: dict[str, Any], command: str) -> str:
    rows = [
        f"| {name} | {s['n']} | {s['p50_ms']:.2f} | {s['p95_ms']:.2f} | "
        f"{res['identical'].get(name, '—')} |"
        for name, s in res["latency"].items()
    ]
    gap = res["http_minus_inprocess_p50_ms"]
    return (
        f"Command: `{command}`\n\n"
        f"Store: {res['records']:,} records (personal memory, English, namesakes); "
        f"{res['requests']} block requests ({res['non_empty']} answered with a block, "
        f"{res['requests'] - res['non_empty']} abstained), snapshot mode, one client.\n\n"
        "| interface | calls | p50 ms | p95 ms | blocks identical to in-process |\n"
        "|---|---:|---:|---:|---:|\n" + "\n".join(rows) + "\n\n"
        f"REST p50 minus in-process p50: **{gap:.2f} ms** (target: within 2 ms).\n"
    )
