"""Rewrite the local database so that what was deleted leaves the disk.

Neo4j Community never overwrites what a transaction deleted: a freed store record keeps
its bytes until the space is reused, Lucene keeps a deleted document in its segment until
segments merge, and the transaction log keeps every write until it is rotated and pruned.
Enterprise compacts with ``neo4j-admin database copy``; Community has no such tool. So the
local server is compacted by rewriting it:

1. **Fence.** A ``GraphmemFence`` node goes up: every graphmem write transaction checks
   it first and refuses (a ``StoreUnavailableError``; the service answers 503 with
   Retry-After), so nothing is acknowledged that the rewrite could miss. The fence is a
   lease the compaction renews; a compaction killed outright stops fencing within
   ``LEASE_S``. Transactions begun before the fence are waited for.
2. **Export** in one transaction, into a file in the data folder that is encrypted with a
   key held only in this process's memory: a crash leaves noise, never plaintext, and
   every outcome removes it.
3. **Rewrite.** The server stops, the database and its transaction logs are moved aside,
   and a server on private ports (no client can reach the half-written database) loads
   the graph and the schema. Counts and a content checksum must equal the export's.
4. **Commit.** The old files are deleted, then the server starts on its own ports.

If any step fails the old files are put back and the fence comes down; a compaction cut
short by a crash is undone the same way the next time the server starts.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import json
import os
import shutil
import socket
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from graphmem._cypher import cypher
from graphmem._errors import GraphmemError, LocalNeo4jError
from graphmem.local_neo4j._process import pid_alive

if TYPE_CHECKING:
    from neo4j import Driver

    from graphmem.local_neo4j import LocalNeo4j

__all__ = [
    "CompactReport",
    "compact",
    "content_checksum",
    "discard_abandoned",
    "erasures_since_compaction",
    "restore_interrupted",
]

DATABASE = "neo4j"
BATCH = 5000
LEASE_S = 15.0  # a fence not renewed for this long no longer holds
DRAIN_S = 150.0  # a write begun before the fence may run this long (write_timeout 120 s)
Progress = Callable[[str], None]
_MOD = 1 << 256


def _work_dir(server: LocalNeo4j) -> Path:
    return server.data_dir / "compact"


def _store_dirs(server: LocalNeo4j) -> list[Path]:
    data = server.data_dir / "data"
    return [data / "databases" / DATABASE, data / "transactions" / DATABASE]


def _marker(server: LocalNeo4j) -> Path:
    # When the last compaction finished (ISO time, the same clock as erase tombstones).
    return server.data_dir / "run" / "last-compaction"


class CompactReport(dict[str, Any]):
    """nodes, relationships, checksum, bytes_before, bytes_after, seconds."""


def _bytes(paths: list[Path]) -> int:
    return sum(f.stat().st_size for p in paths if p.exists() for f in p.rglob("*") if f.is_file())


def _owner_alive(server: LocalNeo4j) -> bool:
    """Whether the process that began the compaction in the work folder still runs."""
    try:
        pid = int((_work_dir(server) / "owner").read_text())
    except (OSError, ValueError):
        return False
    return pid > 0 and pid != os.getpid() and pid_alive(pid)


def discard_abandoned(server: LocalNeo4j) -> bool:
    """Remove the work folder of a compaction whose process is gone while the server
    runs on its old database (it was killed before the database was moved aside)."""
    work = _work_dir(server)
    if not work.exists() or _owner_alive(server) or (work / "old").exists():
        return False
    shutil.rmtree(work, ignore_errors=True)
    return True


def restore_interrupted(server: LocalNeo4j) -> bool:
    """Put back the old database of a compaction that never finished (server stopped),
    and remove whatever the compaction left in its work folder (an export is noise
    without the key its process held, and is deleted all the same)."""
    work = _work_dir(server)
    old = work / "old"
    restored = old.exists()
    if restored:
        for target in _store_dirs(server):
            saved = old / target.parent.name
            if saved.exists():
                shutil.rmtree(target, ignore_errors=True)
                saved.rename(target)
    shutil.rmtree(work, ignore_errors=True)
    return restored


def erasures_since_compaction(server: LocalNeo4j) -> int:
    """Records erased on the running server since its last compaction (or ever)."""
    from neo4j import GraphDatabase

    try:
        since = _marker(server).read_text().strip()
    except OSError:
        since = ""
    with GraphDatabase.driver(server.bolt_url, notifications_min_severity="OFF") as driver:
        rows = driver.execute_query(
            cypher("erasures_since"), since=since, database_=DATABASE
        ).records
    return int(rows[0]["erased"]) if rows else 0


# -- content -------------------------------------------------------------------------------
def _digest(value: Any) -> int:
    text = json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest(), "big")


@dataclass
class _Content:
    """An order-free checksum of a graph: the sum of its nodes' digests (labels and
    properties) and of its relationships' (type, properties and both ends' digests)."""

    relationships: int = 0
    total: int = 0
    index: dict[str, int] = field(default_factory=dict)  # element id -> number in export
    digests: list[int] = field(default_factory=list)  # by that number

    @property
    def nodes(self) -> int:
        return len(self.digests)

    def node(self, element_id: str, labels: list[str], props: dict[str, Any]) -> int:
        """Count the node in; its number in the export."""
        digest = _digest([sorted(labels), props])
        self.index[element_id] = len(self.digests)
        self.digests.append(digest)
        self.total = (self.total + digest) % _MOD
        return self.index[element_id]

    def relationship(self, a: str, b: str, kind: str, props: dict[str, Any]) -> tuple[int, int]:
        """Count the relationship in; the numbers of its ends."""
        try:
            ends = self.index[a], self.index[b]
        except KeyError:
            raise LocalNeo4jError(
                "the graph changed while it was read (a writer that does not go through "
                "graphmem?); nothing was changed. Stop that writer and compact again."
            ) from None
        digest = _digest([kind, props, self.digests[ends[0]], self.digests[ends[1]]])
        self.total = (self.total + digest) % _MOD
        self.relationships += 1
        return ends

    @property
    def checksum(self) -> str:
        return f"{self.total:064x}"


def _read_graph(driver: Driver, sink: Callable[[dict[str, Any]], None] | None) -> _Content:
    """Every node and relationship but the fence, in one transaction."""
    content = _Content()
    with driver.session(database=DATABASE) as session, session.begin_transaction() as tx:
        for row in tx.run(cypher("compact_export_nodes")):
            c = content.node(row["id"], row["labels"], row["props"])
            if sink is not None:
                sink({"c": c, "labels": row["labels"], "props": row["props"]})
        for row in tx.run(cypher("compact_export_relationships")):
            a, b = content.relationship(row["a"], row["b"], row["type"], row["props"])
            if sink is not None:
                sink({"a": a, "b": b, "type": row["type"], "props": row["props"]})
    return content


def content_checksum(driver: Driver) -> tuple[int, int, str]:
    """(nodes, relationships, checksum) of the database, the compaction fence left out:
    equal before and after a compaction, and after one that was interrupted."""
    content = _read_graph(driver, None)
    return content.nodes, content.relationships, content.checksum


class _SealedFile:
    """Lines encrypted (AES-256-GCM) with a key that lives only in this object."""

    def __init__(self, path: Path) -> None:
        from cryptography.hazmat.primitives.ciphers.aead import AESGCM

        self.path = path
        self._aead = AESGCM(AESGCM.generate_key(bit_length=256))

    @contextlib.contextmanager
    def writer(self) -> Iterator[Callable[[dict[str, Any]], None]]:
        fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "wb") as out:

            def write(row: dict[str, Any]) -> None:
                nonce = os.urandom(12)
                plain = json.dumps(row, ensure_ascii=False).encode("utf-8")
                out.write(base64.b64encode(nonce + self._aead.encrypt(nonce, plain, None)))
                out.write(b"\n")

            yield write

    def rows(self) -> Iterator[dict[str, Any]]:
        with self.path.open("rb") as lines:
            for line in lines:
                blob = base64.b64decode(line)
                yield json.loads(self._aead.decrypt(blob[:12], blob[12:], None))


# -- the fence -----------------------------------------------------------------------------
def _holder_dead(holder: str) -> bool:
    """Whether a fence's holder ("pid N on HOST") is a process of this host that is gone."""
    parts = holder.split()
    if len(parts) != 4 or parts[0] != "pid" or parts[3] != socket.gethostname():
        return False
    try:
        pid = int(parts[1])
    except ValueError:
        return False
    return pid > 0 and not pid_alive(pid)


class _Fence:
    """Raise the fence, keep renewing its lease from a thread, lower it on request."""

    def __init__(self, driver: Driver) -> None:
        self.driver = driver
        self.holder = f"pid {os.getpid()} on {socket.gethostname()}"
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def _raise(self, *, renew: bool, force: bool = False) -> str:
        row = self.driver.execute_query(
            cypher("compact_fence"),
            lease_ms=int(LEASE_S * 1000),
            holder=self.holder,
            renew=renew,
            force=force,
            database_=DATABASE,
        ).records[0]
        if row["taken"] and not force and _holder_dead(str(row["holder"])):
            return self._raise(renew=renew, force=True)  # a killed compaction's fence
        if row["taken"]:
            raise LocalNeo4jError(
                f"another compaction ({row['holder']}) is running on this database; "
                "nothing was changed"
            )
        return str(row["since"])

    def up(self) -> str:
        since = self._raise(renew=False)
        self._thread = threading.Thread(target=self._renew, name="graphmem-fence", daemon=True)
        self._thread.start()
        return since

    def _renew(self) -> None:
        while not self._stop.wait(LEASE_S / 6):
            with contextlib.suppress(Exception):  # the server is stopped on purpose
                self._raise(renew=True)

    def stop_renewing(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()

    def down(self) -> None:
        self.stop_renewing()
        self.driver.execute_query(cypher("compact_unfence"), database_=DATABASE)

    def drain(self, since: str, progress: Progress) -> None:
        """Wait for the transactions begun before the fence (a write among them may still
        commit; one begun after it sees the fence and writes nothing)."""
        deadline = time.monotonic() + DRAIN_S
        told = False
        while True:
            rows = self.driver.execute_query(
                cypher("compact_draining"), since=since, database_=DATABASE
            ).records
            if not rows or int(rows[0]["running"]) == 0:
                return
            if not told:
                progress(f"waiting for {int(rows[0]['running'])} running transaction(s)")
                told = True
            if time.monotonic() > deadline:
                raise LocalNeo4jError(
                    f"transactions begun before the compaction were still running after "
                    f"{DRAIN_S:.0f} s; nothing was changed. Compact again when they are done."
                )
            time.sleep(0.1)


# -- loading -------------------------------------------------------------------------------
def _batches(export: _SealedFile, kind: str) -> Iterator[list[dict[str, Any]]]:
    batch: list[dict[str, Any]] = []
    for row in export.rows():
        if ("c" in row) == (kind == "nodes"):
            batch.append(row)
            if len(batch) == BATCH:
                yield batch
                batch = []
    if batch:
        yield batch


def _load(driver: Driver, export: _SealedFile, progress: Progress) -> None:
    def run(name: str, **params: Any) -> None:
        with driver.session(database=DATABASE) as s:
            s.run(cypher(name), params).consume()

    run("compact_load_index")
    run_await(driver)
    for kind, query in (
        ("nodes", "compact_load_nodes"),
        ("relationships", "compact_load_relationships"),
    ):
        done = 0
        for batch in _batches(export, kind):
            run(query, rows=batch)
            done += len(batch)
        progress(f"wrote {done:,} {kind}")
    run("compact_load_finish")
    run("compact_drop_index")


def run_await(driver: Driver) -> None:
    driver.execute_query(cypher("await_indexes"), database_=DATABASE)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


# -- compaction ----------------------------------------------------------------------------
def compact(
    server: LocalNeo4j, *, progress: Progress = lambda _: None, keep_running: bool = True
) -> CompactReport:
    """Rewrite the server's database; the server runs afterwards iff ``keep_running``
    (also when the compaction fails: then on the old database, which is whole).

    Raises ``LocalNeo4jError`` saying what happened, never a driver's traceback."""
    from neo4j.exceptions import DriverError, Neo4jError

    try:
        return _compact(server, progress, keep_running)
    except GraphmemError:
        raise
    except (DriverError, Neo4jError, OSError) as exc:
        raise LocalNeo4jError(
            f"the compaction stopped: Neo4j failed or went away ({type(exc).__name__}: {exc}). "
            "The old database is back and nothing was lost; see "
            f"{server.log_path} and compact again."
        ) from exc


def _compact(server: LocalNeo4j, progress: Progress, keep_running: bool) -> CompactReport:
    from neo4j import GraphDatabase

    from graphmem.domain.model import utc_now_iso
    from graphmem.store.neo4j.schema import install_schema

    started = time.monotonic()
    if not server.status().running:
        server.start()
    work = _work_dir(server)
    if _owner_alive(server):
        raise LocalNeo4jError(
            f"another compaction (pid {(work / 'owner').read_text()}) is running on "
            f"{server.data_dir}; nothing was changed"
        )
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True, mode=0o700)
    (work / "owner").write_text(str(os.getpid()))
    export = _SealedFile(work / "graph.sealed")
    stores = _store_dirs(server)
    before = _bytes(stores)
    moment = utc_now_iso()
    try:
        with GraphDatabase.driver(
            server.bolt_url,
            notifications_min_severity="OFF",
            # The lease's renewals must not wait on a server stopped on purpose.
            max_transaction_retry_time=1.0,
            connection_timeout=2.0,
        ) as driver:
            fence = _Fence(driver)
            progress("fencing writes")
            since = fence.up()
            try:
                fence.drain(since, progress)
                with export.writer() as write:
                    expected = _read_graph(driver, write)
            except BaseException:
                with contextlib.suppress(Exception):
                    fence.down()
                raise
            progress(f"read {expected.nodes:,} nodes and {expected.relationships:,} relationships")
            # The lease is renewed until Neo4j has stopped: a slow shutdown must not let
            # a write into the database the rewrite leaves behind.
            try:
                server.stop()
            finally:
                fence.stop_renewing()
        old = work / "old"
        old.mkdir()
        for target in stores:
            if target.exists():
                target.rename(old / target.parent.name)
    except BaseException:
        shutil.rmtree(work, ignore_errors=True)
        if not keep_running:
            server.stop()
        raise
    private = server.on_ports(_free_port(), _free_port())
    try:
        private.start(restore=False)
        with GraphDatabase.driver(private.bolt_url, notifications_min_severity="OFF") as driver:
            _load(driver, export, progress)
            progress("installing the schema")
            install_schema(driver, DATABASE)
            run_await(driver)
            got = content_checksum(driver)
        want = (expected.nodes, expected.relationships, expected.checksum)
        if got != want:
            raise LocalNeo4jError(
                f"the rewritten database holds {got[0]:,} nodes and {got[1]:,} relationships "
                f"(checksum {got[2][:12]}), expected {want[0]:,} and {want[1]:,} "
                f"({want[2][:12]}); the old database is back"
            )
        private.stop()
        # The commit point: once the old files are gone, the rewritten database is the one.
        old.rename(work / "discarded")
        shutil.rmtree(work, ignore_errors=True)
    except BaseException:
        private.stop()
        restore_interrupted(server)
        if keep_running:  # else the fence left in the old database lapses with its lease
            with contextlib.suppress(Exception):
                server.start()
                with GraphDatabase.driver(
                    server.bolt_url, notifications_min_severity="OFF"
                ) as driver:
                    driver.execute_query(cypher("compact_unfence"), database_=DATABASE)
        raise
    _marker(server).write_text(moment)
    if keep_running:
        server.start()
    return CompactReport(
        nodes=expected.nodes,
        relationships=expected.relationships,
        checksum=expected.checksum,
        bytes_before=before,
        bytes_after=_bytes(stores),
        seconds=round(time.monotonic() - started, 1),
    )
