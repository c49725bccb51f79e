"""Rewrite the local database so that what was deleted leaves the disk.

Neo4j Community never overwrites what a transaction deleted: a freed store record keeps
its bytes until the space is reused, Lucene keeps a deleted document in its segment until
segments merge, and the transaction log keeps every write until it is rotated and pruned.
Enterprise compacts with ``neo4j-admin database copy``; Community has no such tool. So the
local server is compacted by rewriting it: the live graph is read out through Cypher into
a file in the data folder, the server stops, the database and its transaction logs are
moved aside, the server starts on an empty database, the graph is written back and the
schema installed, the counts are compared, and only then are the old files and the export
deleted. If any step fails the old files are put back; a compaction cut short by a crash
is undone the same way the next time the server starts.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from graphmem._cypher import cypher
from graphmem._errors import LocalNeo4jError

if TYPE_CHECKING:
    from neo4j import Driver

    from graphmem.local_neo4j import LocalNeo4j

__all__ = ["CompactReport", "compact", "erasures_since_compaction", "restore_interrupted"]

DATABASE = "neo4j"
BATCH = 5000
Progress = Callable[[str], None]


def _work_dir(server: LocalNeo4j) -> Path:
    return server.data_dir / "compact"


def _store_dirs(server: LocalNeo4j) -> list[Path]:
    data = server.data_dir / "data"
    return [data / "databases" / DATABASE, data / "transactions" / DATABASE]


def _marker(server: LocalNeo4j) -> Path:
    # When the last compaction finished (ISO time, the same clock as erase tombstones).
    return server.data_dir / "run" / "last-compaction"


class CompactReport(dict[str, Any]):
    """nodes, relationships, bytes_before, bytes_after, seconds."""


def _bytes(paths: list[Path]) -> int:
    return sum(f.stat().st_size for p in paths if p.exists() for f in p.rglob("*") if f.is_file())


def restore_interrupted(server: LocalNeo4j) -> bool:
    """Put back the old database of a compaction that never finished (server stopped)."""
    old = _work_dir(server) / "old"
    if not old.exists():
        return False
    for target in _store_dirs(server):
        saved = old / target.parent.name
        if saved.exists():
            shutil.rmtree(target, ignore_errors=True)
            saved.rename(target)
    shutil.rmtree(_work_dir(server), ignore_errors=True)
    return True


def erasures_since_compaction(server: LocalNeo4j) -> int:
    """Records erased on the running server since its last compaction (or ever)."""
    from neo4j import GraphDatabase

    try:
        since = _marker(server).read_text().strip()
    except OSError:
        since = ""
    with GraphDatabase.driver(server.bolt_url) as driver:
        rows = driver.execute_query(
            cypher("erasures_since"), since=since, database_=DATABASE
        ).records
    return int(rows[0]["erased"]) if rows else 0


def _export(driver: Driver, path: Path, progress: Progress) -> tuple[int, int]:
    ids: dict[str, int] = {}
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as out, driver.session(database=DATABASE) as s:
        for row in s.run(cypher("compact_export_nodes")):
            ids[row["id"]] = len(ids)
            out.write(
                json.dumps(
                    {"c": ids[row["id"]], "labels": row["labels"], "props": row["props"]},
                    ensure_ascii=False,
                )
                + "\n"
            )
        progress(f"read {len(ids):,} nodes")
        rels = 0
        for row in s.run(cypher("compact_export_relationships")):
            out.write(
                json.dumps(
                    {
                        "a": ids[row["a"]],
                        "b": ids[row["b"]],
                        "type": row["type"],
                        "props": row["props"],
                    },
                    ensure_ascii=False,
                )
                + "\n"
            )
            rels += 1
        progress(f"read {rels:,} relationships")
    return len(ids), rels


def _batches(path: Path, kind: str) -> Iterator[list[dict[str, Any]]]:
    batch: list[dict[str, Any]] = []
    with path.open(encoding="utf-8") as lines:
        for line in lines:
            row = json.loads(line)
            if ("c" in row) == (kind == "nodes"):
                batch.append(row)
                if len(batch) == BATCH:
                    yield batch
                    batch = []
    if batch:
        yield batch


def _load(driver: Driver, path: Path, progress: Progress) -> None:
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
        for batch in _batches(path, kind):
            run(query, rows=batch)
            done += len(batch)
        progress(f"wrote {done:,} {kind}")
    run("compact_load_finish")
    run("compact_drop_index")


def run_await(driver: Driver) -> None:
    driver.execute_query(cypher("await_indexes"), database_=DATABASE)


def _counts(driver: Driver) -> tuple[int, int]:
    row = driver.execute_query(cypher("compact_counts"), database_=DATABASE).records[0]
    return int(row["nodes"]), int(row["relationships"])


def compact(
    server: LocalNeo4j, *, progress: Progress = lambda _: None, keep_running: bool = True
) -> CompactReport:
    """Rewrite the server's database; the server runs afterwards iff ``keep_running``."""
    from neo4j import GraphDatabase

    from graphmem.domain.model import utc_now_iso
    from graphmem.store.neo4j.schema import install_schema

    started = time.monotonic()
    if not server.status().running:
        server.start()
    work = _work_dir(server)
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    export = work / "graph.jsonl"
    stores = _store_dirs(server)
    before = _bytes(stores)
    moment = utc_now_iso()
    with GraphDatabase.driver(server.bolt_url) as driver:
        expected = _export(driver, export, progress)
    server.stop()
    old = work / "old"
    old.mkdir()
    for target in stores:
        if target.exists():
            target.rename(old / target.parent.name)
    try:
        server.start(restore=False)
        with GraphDatabase.driver(server.bolt_url) as driver:
            _load(driver, export, progress)
            progress("installing the schema")
            install_schema(driver, DATABASE)
            run_await(driver)
            got = _counts(driver)
        if got != expected:
            raise LocalNeo4jError(
                f"the rewritten database holds {got[0]:,} nodes and {got[1]:,} relationships, "
                f"expected {expected[0]:,} and {expected[1]:,}; the old database is back"
            )
    except BaseException:
        server.stop()
        restore_interrupted(server)
        if keep_running:
            with contextlib.suppress(LocalNeo4jError):
                server.start()
        raise
    shutil.rmtree(work, ignore_errors=True)
    _marker(server).write_text(moment)
    if not keep_running:
        server.stop()
    return CompactReport(
        nodes=expected[0],
        relationships=expected[1],
        bytes_before=before,
        bytes_after=_bytes(stores),
        seconds=round(time.monotonic() - started, 1),
    )
