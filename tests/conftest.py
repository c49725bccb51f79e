"""Test fixtures: a real Neo4j, chosen in the order NEO4J_URI, testcontainers, local server.

Each test gets its own namespace, so tests never see each other's data.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from graphmem import LocalNeo4j, Memory


@dataclass(frozen=True)
class Server:
    bolt_url: str
    http_url: str | None
    auth: tuple[str, str] | None
    kind: str


def _docker_answers() -> bool:
    try:
        import docker

        docker.from_env(timeout=3).ping()
        return True
    except Exception:
        return False


@pytest.fixture(scope="session")
def neo4j_server() -> Iterator[Server]:
    uri = os.environ.get("NEO4J_URI")
    if uri:
        auth = None
        if os.environ.get("NEO4J_USER"):
            auth = (os.environ["NEO4J_USER"], os.environ.get("NEO4J_PASSWORD", ""))
        yield Server(uri, os.environ.get("GRAPHMEM_NEO4J_HTTP"), auth, "NEO4J_URI")
        return
    if _docker_answers():
        from testcontainers.neo4j import Neo4jContainer

        with Neo4jContainer("neo4j:5.26-community") as container:
            http = f"http://{container.get_container_host_ip()}:{container.get_exposed_port(7474)}"
            yield Server(
                container.get_connection_url(),
                http,
                (container.username, container.password),
                "testcontainers",
            )
        return
    status = LocalNeo4j().start()
    yield Server(status.bolt_url, status.browser_url.removesuffix("/browser/"), None, "local")


@pytest.fixture
def namespace() -> str:
    return f"t-{uuid.uuid4().hex[:12]}"


@pytest.fixture
def connect(neo4j_server: Server) -> Iterator[Callable[..., Memory]]:
    """Open a Memory on the test server with ``MemoryConfig`` overrides; closed after."""
    opened: list[Memory] = []

    def open_memory(namespace: str, **overrides: Any) -> Memory:
        mem = Memory.connect(
            neo4j_server.bolt_url,
            namespace,
            neo4j_auth=neo4j_server.auth,
            neo4j_http_url=neo4j_server.http_url,
            **overrides,
        )
        opened.append(mem)
        return mem

    yield open_memory
    for mem in opened:
        mem.close()


@pytest.fixture
def memory(connect: Callable[..., Memory], namespace: str) -> Memory:
    return connect(namespace)
