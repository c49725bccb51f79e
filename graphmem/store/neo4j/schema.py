"""The graph's labels, constraints and indexes, declared once, with neomodel.

``schema_cypher()`` writes the same declarations out as Cypher for auditors
(``graphmem neo4j schema``). The hot paths do not use neomodel objects: they run the
files in ``cypher/``.
"""

from __future__ import annotations

import io
import re
import threading

from neo4j import Driver
from neo4j.exceptions import ClientError
from neomodel import (
    ArrayProperty,
    BooleanProperty,
    IntegerProperty,
    StringProperty,
    StructuredNode,
    db,
    get_config,
)

__all__ = [
    "SCHEMA_NODES",
    "install_schema",
    "migrate",
    "run_schema_statement",
    "schema_cypher",
]


class Evidence(StructuredNode):
    """One immutable source record."""

    uid = StringProperty(unique_index=True)  # "{ns}/{record id}"
    ns = StringProperty(index=True)
    record_id = StringProperty()  # the caller's id
    pos = IntegerProperty(index=True)
    # Full-text (Lucene, CJK bigrams for Hangul): fresh candidate retrieval for blocks.
    text = StringProperty()  # full-text indexed with ns: cypher/fulltext_index.cypher
    speaker = StringProperty()
    participants = ArrayProperty(StringProperty())
    observed_at = StringProperty()
    stated_at = StringProperty()
    source = StringProperty()
    authority = IntegerProperty()
    parse = StringProperty(index=True)  # facts / unresolved / no_fact


class Unresolved(StructuredNode):
    """The second label of an unresolved record: its namespace is indexed on its own, so
    reading a namespace's unresolved records costs what that namespace holds."""

    ns = StringProperty(index=True)


class Entity(StructuredNode):
    """A normalized name."""

    uid = StringProperty(unique_index=True)  # "{ns}/{normalized name}"
    ns = StringProperty(index=True)
    key = StringProperty(index=True)
    name = StringProperty()
    aliases = ArrayProperty(StringProperty())


class Mention(StructuredNode):
    """A word raw records mention (``(:Evidence)-[:MENTIONS]->(:Mention)``): evidence walks
    from the turns that answer a question to the others that mention the same thing."""

    uid = StringProperty(unique_index=True)  # "{ns}/{word}" (a keyed hash when sealed)
    ns = StringProperty(index=True)
    key = StringProperty()


class Version(StructuredNode):
    """One value of one key."""

    uid = StringProperty(unique_index=True)
    ns = StringProperty(index=True)
    kid = StringProperty(index=True)  # "{ns}/{key}": all versions of one key
    head_of = StringProperty(unique_index=True)  # = kid on the head only: one head per key
    key = StringProperty()
    subject = StringProperty()
    relation = StringProperty()
    value = StringProperty()
    status = StringProperty(index=True)
    valid_from = StringProperty()
    valid_to = StringProperty()
    tx_from = StringProperty()
    tx_to = StringProperty()
    pos = IntegerProperty()
    authority = IntegerProperty()
    source = StringProperty()


class Operation(StructuredNode):
    """One applied write."""

    uid = StringProperty(unique_index=True)
    ns = StringProperty(index=True)
    kind = StringProperty()
    kid = StringProperty(index=True)
    at = StringProperty()
    pos = IntegerProperty()
    fact = StringProperty()  # JSON of the fact as applied: lets the op log be replayed
    note = StringProperty()


class Tombstone(StructuredNode):
    """A revocation or an erasure (sealed: no content)."""

    uid = StringProperty(unique_index=True)
    ns = StringProperty(index=True)
    at = StringProperty()
    reason = StringProperty()
    sealed = BooleanProperty()
    record_id = StringProperty(index=True)


class Namespace(StructuredNode):
    """One per namespace: writers lock it, so writes to one namespace are serialized."""

    ns = StringProperty(unique_index=True)
    writes = IntegerProperty()


class GraphmemFence(StructuredNode):
    """Raised by a compaction: while its lease holds, writers refuse to write."""

    name = StringProperty(unique_index=True)
    until = IntegerProperty()
    holder = StringProperty()
    since = StringProperty()


SCHEMA_NODES: tuple[type[StructuredNode], ...] = (
    Evidence,
    Unresolved,
    Entity,
    Mention,
    Version,
    Operation,
    Tombstone,
    Namespace,
    GraphmemFence,
)
MIGRATION_BATCH = 50_000


def schema_cypher() -> str:
    """Every constraint and index ``install_schema`` creates, as Cypher an auditor can
    read or run (safe twice: IF NOT EXISTS): the neomodel declarations above, in the
    names neomodel gives them, then the indexes it cannot declare."""
    from graphmem._cypher import cypher

    lines = [
        "// graphmem schema, written out from graphmem/store/neo4j/schema.py. Version.head_of",
        "// holds the key id on the head only: its uniqueness constraint makes 'at most one",
        "// head per key' a rule Neo4j itself enforces.",
    ]
    for cls in SCHEMA_NODES:
        label = cls.__label__
        for name, prop in cls.defined_properties(aliases=False, rels=False).items():
            if prop.unique_index:
                lines.append(
                    f"CREATE CONSTRAINT constraint_unique_{label}_{name} IF NOT EXISTS "
                    f"FOR (n:{label}) REQUIRE n.{name} IS UNIQUE;"
                )
            elif prop.index:
                lines.append(
                    f"CREATE INDEX index_{label}_{name} IF NOT EXISTS "
                    f"FOR (n:{label}) ON (n.{name});"
                )
    for extra in ("fulltext_index", "tenant_indexes"):
        lines.append(cypher(extra).strip())
    return "\n".join(lines) + "\n"


_INSTALLING = threading.Lock()


def install_schema(driver: Driver, database: str | None = None) -> None:
    """Create every constraint and index in ``database`` (the server's default when
    ``None``) and run pending migrations; running it again changes nothing."""
    # neomodel keeps one connection per process: memories connecting on several threads
    # would install through each other's drivers, closed or not, so one at a time.
    with _INSTALLING:
        if database:
            get_config().database_name = database
        db.set_connection(driver=driver)
        # neomodel reports "already exists" on a second install; the harmless case.
        sink = io.StringIO()
        for cls in SCHEMA_NODES:
            db.install_labels(cls, quiet=True, stdout=sink)
        install_cypher_indexes(driver, database)
        migrate(driver, database)


def install_cypher_indexes(driver: Driver, database: str | None = None) -> None:
    """The indexes neomodel cannot declare. The full-text index over record text *and*
    namespace: a query names its namespace inside Lucene, so other tenants' records never
    fill its top hits (the earlier text-only index is dropped). Composite indexes with the
    namespace first (``cypher/tenant_indexes.cypher``)."""
    from graphmem._cypher import cypher

    for name in ("fulltext_index", "tenant_indexes"):
        _run_schema_file(driver, cypher(name), database)


def _run_schema_file(driver: Driver, text: str, database: str | None) -> None:
    """Each statement of a named schema file (comments dropped), in order."""
    for stmt in filter(str.strip, re.sub(r"//.*", "", text).split(";")):
        run_schema_statement(driver, stmt, database)


# Two processes installing the schema of a fresh database at once (workers starting
# together) race inside "CREATE ... IF NOT EXISTS": the loser is told the index it asked
# for already exists, which is what it wanted.
_ALREADY_THERE = frozenset(
    {
        "Neo.ClientError.Schema.EquivalentSchemaRuleAlreadyExists",
        "Neo.ClientError.Schema.IndexAlreadyExists",
        "Neo.ClientError.Schema.ConstraintAlreadyExists",
    }
)


def run_schema_statement(driver: Driver, statement: str, database: str | None = None) -> None:
    """Run one schema statement; an equal index or constraint already there is success."""
    try:
        driver.execute_query(statement, database_=database)
    except ClientError as exc:
        if exc.code not in _ALREADY_THERE:
            raise


# (name, query): each runs in batches until it labels nothing, then is marked done.
MIGRATIONS = (
    ("unresolved-label", "migrate_unresolved_label"),
    ("status-labels", "migrate_status_labels"),
    ("derived-tombstones", "migrate_derived_tombstones"),
)


def migrate(driver: Driver, database: str | None = None) -> None:
    """Bring data written by earlier versions up to date, once per database."""
    from datetime import UTC, datetime

    from graphmem._cypher import cypher

    # Indexes added since the schema was first installed, which queries hint by name
    # (max_pos seeks (ns, pos)): created here too, for stores opened without installing.
    _run_schema_file(driver, cypher("tenant_indexes"), database)
    for name, query in MIGRATIONS:
        done = driver.execute_query(
            cypher("migration_done"), {"name": name}, database_=database
        ).records[0]["done"]
        if done:
            continue
        while driver.execute_query(
            cypher(query), {"batch": MIGRATION_BATCH}, database_=database
        ).records[0]["labelled"]:
            pass
        driver.execute_query(
            cypher("migration_mark"),
            {"name": name, "at": datetime.now(UTC).isoformat()},
            database_=database,
        )
