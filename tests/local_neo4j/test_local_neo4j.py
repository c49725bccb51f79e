"""The embedded default: a real Neo4j started from Maven jars, reused, stopped."""

from __future__ import annotations

import shutil
import socket
import urllib.request

import pytest

from graphmem import LocalNeo4j, MissingToolError, PortInUseError

pytestmark = pytest.mark.integration


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_browser_page_is_served(neo4j_server):
    if neo4j_server.http_url is None:
        pytest.skip("no HTTP URL for this server")
    with urllib.request.urlopen(f"{neo4j_server.http_url}/browser/", timeout=10) as r:
        page = r.read().decode()
    assert r.status == 200
    assert "<title>Neo4j Browser</title>" in page


def test_start_twice_reuses_then_stop_ends_it(tmp_path):
    server = LocalNeo4j(
        tmp_path / "data",
        bolt_port=_free_port(),
        http_port=_free_port(),
        heap="512m",
        pagecache="64m",
    )
    try:
        first = server.start()
        assert first.running and not first.reused
        second = LocalNeo4j(
            tmp_path / "data", bolt_port=server.bolt_port, http_port=server.http_port
        ).start()
        assert second.reused and second.pid == first.pid
        assert server.status().running
    finally:
        assert server.stop()
    assert not server.status().running
    assert not server.stop()  # nothing left to stop


def test_port_taken_by_another_program_is_a_clear_error(tmp_path):
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        server = LocalNeo4j(tmp_path / "d", bolt_port=port, http_port=_free_port())
        with pytest.raises(PortInUseError, match=str(port)):
            server.start()


def test_missing_maven_is_a_clear_error(tmp_path, monkeypatch):
    real_which = shutil.which
    monkeypatch.setattr(shutil, "which", lambda n: None if n == "mvn" else real_which(n))
    server = LocalNeo4j(
        tmp_path / "d", home=tmp_path / "home", bolt_port=_free_port(), http_port=_free_port()
    )
    with pytest.raises(MissingToolError, match="Maven"):
        server.start()
