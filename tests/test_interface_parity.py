"""Every public method of ``Memory`` is reachable from every interface, or its absence is
deliberate and says why: ``Client``, ``AsyncClient``, the REST API (by operation id), the
CLI and the MCP tools. A new ``Memory`` method fails here until each interface has it or a
reason is written down below.
"""

from __future__ import annotations

import inspect

import pytest

from graphmem import Memory
from graphmem.cli import main as cli
from graphmem.client import AsyncClient, Client
from graphmem.service.app import Settings, create_app
from graphmem.service.mcp import TOOLS

LIFECYCLE = (
    "each interface opens and closes its own way: Client(url)/close(), the "
    "service process, the CLI's --uri and -n for one command"
)
DIAGNOSTIC = "a diagnostic for idempotence tests; the audits answer users' questions"

# (method, interface) -> why the interface does not offer it.
ABSENT: dict[tuple[str, str], str] = {
    **{
        (m, i): LIFECYCLE
        for m in ("connect", "release")
        for i in ("client", "async_client", "rest", "cli", "mcp")
    },
    **{("close", i): LIFECYCLE for i in ("rest", "cli", "mcp")},
    ("close", "async_client"): "it is aclose(), as in httpx",
    **{("counts", i): DIAGNOSTIC for i in ("client", "async_client", "rest", "cli", "mcp")},
    ("answer", "mcp"): "the agent calling the tools is the reader; it asks for evidence",
    ("state", "mcp"): "the whole memory at once floods an agent's context; memory_block and "
    "evidence select what to read",
    ("as_of", "mcp"): "history gives every value with its dates; agents have no use for a "
    "point query yet",
    **{
        ("reembed", i): "an operator's maintenance step (minutes on a large namespace) run "
        "where the namespace's Neo4j is, with the CLI or Python; not a request"
        for i in ("client", "async_client", "rest", "mcp")
    },
    **{
        ("wait_vectors", i): "waits on the embedding thread of the process holding the "
        "Memory (a test's or a benchmark's step); a service keeps its own vectors"
        for i in ("client", "async_client", "rest", "cli", "mcp")
    },
}
# Where an interface names a method differently.
ALIASES = {
    ("block", "mcp"): "memory_block",
    ("ingest", "mcp"): "remember",
    ("as_of", "cli"): "as-of",
}


def memory_methods() -> list[str]:
    return sorted(
        name
        for name, member in inspect.getmembers(Memory)
        if not name.startswith("_") and callable(member)
    )


def _rest_operations() -> set[str]:
    spec = create_app(Settings()).openapi()
    return {op["operationId"] for item in spec["paths"].values() for op in item.values()}


def offered() -> dict[str, set[str]]:
    public = {n for n in dir(Client) if not n.startswith("_")}
    async_public = {n for n in dir(AsyncClient) if not n.startswith("_")}
    return {
        "client": public,
        "async_client": async_public,
        "rest": _rest_operations(),
        "cli": set(cli.commands),
        "mcp": set(TOOLS),
    }


INTERFACES = ("client", "async_client", "rest", "cli", "mcp")


def test_memory_has_the_methods_this_test_knows() -> None:
    # If this fails, a method was added or removed: update ABSENT/ALIASES deliberately.
    assert memory_methods() == sorted(
        [
            "answer",
            "as_of",
            "audit",
            "block",
            "close",
            "connect",
            "counts",
            "erase",
            "evidence",
            "history",
            "ingest",
            "release",
            "remember",
            "resolve",
            "revoke",
            "state",
            "reembed",
            "wait_vectors",
            "why",
        ]
    )


@pytest.mark.parametrize("interface", INTERFACES)
def test_every_method_is_offered_or_deliberately_absent(interface: str) -> None:
    names = offered()[interface]
    missing = [
        m
        for m in memory_methods()
        if ALIASES.get((m, interface), m) not in names and (m, interface) not in ABSENT
    ]
    assert missing == [], f"{interface} lacks {missing}: add it, or say why in ABSENT"


@pytest.mark.parametrize("interface", INTERFACES)
def test_absences_are_real(interface: str) -> None:
    """A reason for something an interface does offer is stale: remove it."""
    names = offered()[interface]
    stale = [m for (m, i) in ABSENT if i == interface and ALIASES.get((m, i), m) in names]
    assert stale == []


def test_clients_take_memorys_arguments() -> None:
    """The same keyword arguments, so code moves between Memory and Client unchanged."""
    skip = {"connect", "close", "release", "counts", "answer", "ingest", "reembed", "wait_vectors"}
    for name in memory_methods():
        if name in skip:
            continue
        expected = list(inspect.signature(getattr(Memory, name)).parameters)
        for cls in (Client, AsyncClient):
            got = list(inspect.signature(getattr(cls, name)).parameters)
            assert got == expected, f"{cls.__name__}.{name}{got} != Memory.{name}{expected}"
