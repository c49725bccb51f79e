"""Erase reaches the disk: after erase and ``graphmem neo4j stop``, nothing of the erased
record is left anywhere in the server's data folder (store files, Lucene segments,
transaction logs), while what was kept is still there and readable."""

from __future__ import annotations

import shutil
import socket
import struct
import subprocess
import sys
from pathlib import Path

import pytest

from graphmem import InvalidInputError, Memory
from graphmem.local_neo4j import LocalNeo4j, default_home

pytestmark = pytest.mark.integration

# Distinctive words, so a hit can only be this test's data (grep is case-insensitive:
# Lucene keeps lowercased terms).
SECRET = "Zorblaxine Quentworthy"
PIN = "Pin-73169931"
KEPT = "Maximiliano Keepsworthy"
CALLER_ID = "ledger-Xyloquent-5581"  # a record id the caller chose: it must not stay either


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _files_holding(folder: Path, word: str) -> list[str]:
    """``grep -rlaci word folder``: every file whose bytes contain the word."""
    out = subprocess.run(
        ["grep", "-rlai", "--", word, str(folder)], capture_output=True, text=True, check=False
    )
    assert out.returncode in (0, 1), out.stderr
    return out.stdout.split()


_VECTOR_QUERIES = {
    "embedding": "MATCH (e:Evidence {ns: $ns, record_id: $id}) RETURN e.embedding AS v",
    "turn_embedding": "MATCH (e:Evidence {ns: $ns, record_id: $id}) RETURN e.turn_embedding AS v",
}


def _vector_of(m: Memory, record_id: str, prop: str = "embedding") -> list[float]:
    rows = m.store.driver.execute_query(_VECTOR_QUERIES[prop], ns=m.namespace, id=record_id).records
    assert rows and rows[0]["v"] is not None, "the record has no vector"
    return list(rows[0]["v"])


def _files_holding_bytes(folder: Path, vector: list[float]) -> list[str]:
    """Files holding the vector's first eight components as 32-bit floats, either byte
    order (how Neo4j lays out a float array is its own business)."""
    patterns = [struct.pack(f"{order}8f", *vector[:8]) for order in "<>"]
    found = []
    for path in folder.rglob("*"):
        if path.is_file() and not path.is_symlink():
            data = path.read_bytes()
            if any(p in data for p in patterns):
                found.append(str(path))
    return found


def _graphmem(*args: str) -> subprocess.CompletedProcess[str]:
    exe = Path(sys.executable).with_name("graphmem")
    return subprocess.run(
        [str(exe), *args], capture_output=True, text=True, check=False, timeout=600
    )


@pytest.fixture
def server(tmp_path: Path):
    srv = LocalNeo4j(
        tmp_path / "server",
        bolt_port=_free_port(),
        http_port=_free_port(),
        heap="512m",
        pagecache="64m",
    )
    srv.start()
    yield srv
    srv.stop()


def _cli_server_args(srv: LocalNeo4j) -> list[str]:
    return [
        "--data-dir",
        str(srv.data_dir),
        "--bolt-port",
        str(srv.bolt_port),
        "--http-port",
        str(srv.http_port),
    ]


def test_erased_text_is_gone_from_the_data_folder_after_stop(server: LocalNeo4j) -> None:
    with Memory.connect(server.bolt_url, "disk") as m:
        m.remember(
            SECRET, "card pin", PIN, record_id="s1", text=f"{SECRET} says the card pin is {PIN}"
        )
        m.revoke(SECRET, "card pin")  # generated revoke evidence names the secret too
        m.ingest(
            [
                {"id": CALLER_ID, "text": f"{SECRET} hides the pin {PIN} under the mat"},
                # A turn's evidence vector embeds the turn before it: the reply's must go.
                {"id": "reply", "text": "ha, classic"},
            ]
        )
        m.remember("door", "colour", "red", record_id="keep", text=f"the door is red, said {KEPT}")
        # Blocks keep vectors of records and values in Neo4j: the erased ones must go too.
        m.block(f"what's {SECRET}'s pin?", "door")
        assert m._blocks is not None and m._blocks.vectors is not None
        assert m._blocks.vectors.wait_idle(120)
        secret_vector = _vector_of(m, CALLER_ID)
        reply_vector = _vector_of(m, "reply", "turn_embedding")
        m.erase("s1")
        m.erase(CALLER_ID)
        assert SECRET not in m.evidence(f"What is {SECRET}'s card pin?").text
        assert m.wait_vectors(120)  # the reply is embedded again, alone
        assert _vector_of(m, "reply", "turn_embedding") != reply_vector
    # Neo4j itself keeps the bytes: this is what the test would find without compaction.
    assert _files_holding(server.data_dir, "Zorblaxine")
    assert _files_holding_bytes(server.data_dir, secret_vector)
    assert _files_holding_bytes(server.data_dir, reply_vector)

    stopped = _graphmem("neo4j", "stop", *_cli_server_args(server))
    assert stopped.returncode == 0, stopped.stderr
    assert "erased since the last compaction" in stopped.stderr
    assert not server.status().running
    # "Zorblax" and "Quentworth" also find the words' stems (what a turn mentions).
    for word in (SECRET, "Zorblax", "Quentworth", PIN, "73169931", "Xyloquent"):
        assert _files_holding(server.data_dir, word) == [], word
        if Path("/dev/shm").is_dir():
            assert _files_holding(Path("/dev/shm"), word) == [], word
        # GRAPHMEM_HOME but the jars and the default server (not this test's): the
        # installation secret, key stores.
        for path in default_home().glob("*"):
            if not path.name.startswith(("m2", "neo4j-", "server")):
                assert _files_holding(path, word) == [], (word, path)
    assert _files_holding_bytes(server.data_dir, secret_vector) == []
    assert _files_holding_bytes(server.data_dir, reply_vector) == []
    assert _files_holding(server.data_dir, KEPT)  # what was kept is still stored

    server.start()
    with Memory.connect(server.bolt_url, "disk") as m:
        assert m.why("door", "colour").value == "red"
        assert KEPT in m.evidence("What colour is the door?").text
        for audit in ("two_heads", "versions_without_evidence", "status_labels", "contested_keys"):
            assert m.audit(audit) == [], audit
        # The same words can be remembered again, as a new record.
        m.remember(SECRET, "card pin", PIN, text=f"{SECRET} says the card pin is {PIN}")
        assert m.why(SECRET, "card pin").value == PIN
    assert server.erasures_since_compaction() == 0


def test_stop_without_erasures_does_not_rewrite(server: LocalNeo4j) -> None:
    with Memory.connect(server.bolt_url, "disk") as m:
        m.remember("door", "colour", "red", record_id="keep")
    stopped = _graphmem("neo4j", "stop", *_cli_server_args(server))
    assert stopped.returncode == 0, stopped.stderr
    assert "compaction" not in stopped.stderr and "Stopped Neo4j." in stopped.stdout


def test_a_compaction_cut_short_is_undone_on_the_next_start(server: LocalNeo4j) -> None:
    with Memory.connect(server.bolt_url, "disk") as m:
        m.remember("door", "colour", "red", record_id="keep")
    server.stop()
    # What a crash between moving the old database aside and finishing leaves behind:
    # the old database under compact/old and a half-written new one in its place.
    old = server.data_dir / "compact" / "old"
    old.mkdir(parents=True)
    data = server.data_dir / "data"
    for sub in ("databases", "transactions"):
        (data / sub / "neo4j").rename(old / sub)
        shutil.copytree(data / sub / "system", data / sub / "neo4j")  # not the real one
    server.start()
    with Memory.connect(server.bolt_url, "disk") as m:
        assert m.why("door", "colour").value == "red"
    assert not (server.data_dir / "compact").exists()


def test_compact_keeps_the_server_running_and_the_graph_whole(server: LocalNeo4j) -> None:
    with Memory.connect(server.bolt_url, "disk") as m:
        m.remember("door", "colour", "red", record_id="a")
        m.remember("door", "colour", "blue", record_id="b")
        before = m.history("door", "colour")
    done = _graphmem("neo4j", "compact", *_cli_server_args(server))
    assert done.returncode == 0, done.stderr
    assert "Compacted" in done.stdout
    assert server.status().running
    with Memory.connect(server.bolt_url, "disk") as m:
        assert m.history("door", "colour") == before
        assert m.why("door", "colour").value == "blue"


def test_sealed_text_is_unreadable_on_disk_at_once(server: LocalNeo4j, tmp_path: Path) -> None:
    """With seal_text, no compaction is needed for record text: Neo4j only ever held its
    ciphertext, and erase destroyed the key."""
    keys = tmp_path / "keys.sqlite3"
    with Memory.connect(server.bolt_url, "sealed", seal_text=True, key_store=str(keys)) as m:
        m.ingest(
            [
                {"id": "s1", "text": f"{SECRET} whispered the code {PIN} at the gate"},
                {"id": "k1", "text": f"{KEPT} likes tea"},
            ]
        )
        sealed = m.store.driver.execute_query(
            "MATCH (e:Evidence {ns: 'sealed', record_id: 's1'}) RETURN e.text AS t"
        ).records[0]["t"]
        assert KEPT in m.evidence(f"What does {KEPT} like?").text
        m.erase("s1")
        with pytest.raises(InvalidInputError, match="destroyed"):
            m.store.sealer.open(sealed)
    # While the server runs: what it still keeps of s1 is ciphertext without a key.
    for word in ("Zorblaxine", "Quentworthy", "73169931", "whispered", KEPT):
        assert _files_holding(server.data_dir, word) == [], word
    assert _files_holding(tmp_path, "Zorblaxine") == []
