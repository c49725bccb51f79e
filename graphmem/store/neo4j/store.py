"""The Neo4j store: typed methods over the named queries in ``cypher/``.

Every method runs a query from ``cypher/`` with parameters (never text built from input)
and returns the typed rows of ``graphmem.store.protocol``. Driver errors never leave this
module: an unreachable or failing database is a ``StoreUnavailableError``, a refused
write (a constraint) a ``ConflictError``.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import asdict
from typing import Any, TypeVar

from neo4j import READ_ACCESS, Driver, GraphDatabase, ManagedTransaction, unit_of_work
from neo4j.exceptions import (
    AuthError,
    ConfigurationError,
    ConstraintError,
    DriverError,
    Neo4jError,
    ServiceUnavailable,
    SessionExpired,
    TransientError,
)

from graphmem._cypher import cypher
from graphmem._errors import (
    ConflictError,
    GraphmemError,
    InvalidInputError,
    StoreUnavailableError,
)
from graphmem.domain.block import ActiveRecord, MeaningText, fact_line
from graphmem.domain.controller import KeyState, Plan
from graphmem.domain.evidence import EvidenceRecord, same_session, turn_passage
from graphmem.domain.keys import KEY_SEP, namespaced_key, normalize_name
from graphmem.domain.model import Status, VersionState
from graphmem.store.neo4j.schema import install_schema, migrate
from graphmem.store.protocol import (
    Closure,
    ClosureEdge,
    EraseScope,
    HeadRow,
    OpLogEntry,
    Span,
    Watermark,
)
from graphmem.store.sealing import TextSealer

__all__ = ["Neo4jStore", "TxStore", "evidence_record", "namespaced_key"]

log = logging.getLogger("graphmem.store")

T = TypeVar("T")

# Rows per UNWIND statement: large enough to amortize round trips, small enough for the heap.
CHUNK = 5000


# Neo4j keeps one cached plan per size class of each list or string parameter (1-10,
# 11-100, 101-1000, ...) and planning the closure costs ~200 ms: a question with 9 name
# spans and one with 12 each paid it once. The hot reads pad their parameters into the
# class from PLAN_SIZE to 1,000, which ``prepare_plans`` warms when a store connects.
PLAN_SIZE = 101
_NO_SPAN = {"uid": "", "start": -1, "end": -1}  # no entity has an empty uid


def _padded_spans(spans: Sequence[Span]) -> list[dict[str, Any]]:
    rows = [asdict(s) for s in spans]
    return rows + [_NO_SPAN] * (PLAN_SIZE - len(rows))


def _chunks(rows: list[Any], size: int = CHUNK) -> Iterable[list[Any]]:
    for i in range(0, len(rows), size):
        yield rows[i : i + size]


def _version_from_row(row: Mapping[str, Any]) -> VersionState:
    return VersionState(
        uid=row["uid"],
        key=row["key"],
        subject=row["subject"],
        relation=row["relation"],
        value=row["value"],
        status=Status(row["status"]),
        pos=int(row["pos"]),
        order=(row.get("stated_at") or "", int(row.get("said_pos") or row["pos"])),
        authority=int(row.get("authority") or 0),
        source=row.get("source"),
        valid_from=row.get("valid_from"),
        valid_to=row.get("valid_to"),
        tx_from=row.get("tx_from"),
        tx_to=row.get("tx_to"),
        is_head=row.get("head_of") is not None,
        supersedes=list(row.get("supersedes") or []),
        alternative_of=row.get("alternative_of"),
        evidence=[u for u in row.get("evidence") or []],
    )


def _version_props(ns: str, v: VersionState) -> dict[str, Any]:
    kid = namespaced_key(ns, v.key)
    return {
        "uid": v.uid,
        "ns": ns,
        "kid": kid,
        "head_of": kid if v.is_head else None,
        "key": v.key,
        "subject": v.subject,
        "relation": v.relation,
        "value": v.value,
        "status": str(v.status),
        "valid_from": v.valid_from,
        "valid_to": v.valid_to,
        "tx_from": v.tx_from,
        "tx_to": v.tx_to,
        "pos": v.pos,
        "said_pos": _said_pos(v),
        "stated_at": v.order[0] or None,
        "authority": v.authority,
        "source": v.source,
    }


def _erase_tombstone(ns: str, ref: str, at: str) -> dict[str, str]:
    """An erase tombstone's uid and record ref: each erase has its own (a derived id can
    be stored and erased again)."""
    return {"uid": f"{ns}/erased/{ref}@{at}", "ref": ref}


def _version_update(ns: str, v: VersionState) -> dict[str, Any]:
    """What ``update_versions`` changes on a version a plan touched."""
    return {
        "uid": v.uid,
        "status": str(v.status),
        "head_of": namespaced_key(ns, v.key) if v.is_head else None,
        "valid_to": v.valid_to,
        "tx_to": v.tx_to,
        "pos": v.pos,
        "said_pos": _said_pos(v),
    }


def _said_pos(v: VersionState) -> int | None:
    """Where a head was last said, when later than where it was first said."""
    return v.order[1] if v.order[1] != v.pos else None


@contextmanager
def _mapped(what: str) -> Iterator[None]:
    """Turn a driver error into the graphmem error a caller can act on."""
    try:
        yield
    except GraphmemError:
        raise
    except ConstraintError as exc:
        raise ConflictError(f"Neo4j refused the {what}: {exc.message}") from exc
    except (ServiceUnavailable, SessionExpired) as exc:
        raise StoreUnavailableError(
            f"Neo4j became unreachable during the {what} ({exc}); nothing of it was "
            "committed. Retry once Neo4j is back: known records are skipped."
        ) from exc
    except AuthError as exc:
        err = StoreUnavailableError(f"Neo4j refused the credentials during the {what}: {exc}")
        err.retryable = False
        raise err from exc
    except (Neo4jError, DriverError) as exc:
        err = StoreUnavailableError(f"Neo4j failed the {what}: {exc}")
        # Only a transient failure is worth retrying (a timed-out write or a refused
        # query fails the same way again).
        err.retryable = isinstance(exc, TransientError)
        raise err from exc


def evidence_record(r: Mapping[str, Any]) -> EvidenceRecord:
    """A record row of the named queries (``pos, text, record_id, speaker, observed_at``,
    and ``times`` where the query reads them)."""
    return EvidenceRecord(
        r["pos"],
        r["text"],
        r["record_id"],
        r["speaker"],
        r["observed_at"],
        tuple(r.get("times") or ()),
        tuple(r.get("mentions") or ()),
    )


def _active(r: Mapping[str, Any]) -> ActiveRecord:
    return ActiveRecord(
        pos=r["pos"],
        record_id=r["record_id"],
        text=r["text"],
        observed_at=r["observed_at"],
        participants=tuple(r["participants"] or ()),
        speaker=r["speaker"],
        facts=tuple((f[0], f[1], f[2]) for f in r["facts"]),
        keyed=bool(r["keyed"]),
    )


def _lucene_query(ns: str, words: Sequence[str], sealer: TextSealer | None) -> str:
    """``ns:"<ns>" AND (text:"w" OR terms:"t<hash>" ...)``: the namespace name is letters,
    digits, '_', '.' and '-' only, words are word characters, hashes hex: all safe inside
    quotes."""
    clauses = [f'text:"{w}"' for w in words if w.isalnum() or w.replace("_", "").isalnum()]
    if sealer is not None:
        clauses += [f'terms:"{t}"' for t in dict.fromkeys(sealer.terms(ns, " ".join(words)))]
    return f'ns:"{ns}" AND (' + (" OR ".join(clauses) or 'text:"_"') + ")"


class _Reads:
    """Reads shared by the store and by a store bound to one open transaction."""

    sealer: TextSealer | None = None

    def run(self, name: str, params: Mapping[str, Any]) -> list[dict[str, Any]]:
        raise NotImplementedError

    def _open(self, text: str) -> str:
        return text if self.sealer is None else self.sealer.open(text) or ""

    def _record(self, r: Mapping[str, Any]) -> EvidenceRecord:
        return evidence_record({**r, "text": self._open(r["text"])})

    def _active(self, r: Mapping[str, Any]) -> ActiveRecord:
        return _active({**r, "text": self._open(r["text"])})

    def known_records(self, ns: str, refs: Mapping[str, str]) -> dict[str, str]:
        found: dict[str, str] = {}
        rows = [{"uid": uid, "ref": ref} for uid, ref in refs.items()]
        for chunk in _chunks(rows, 20000):
            for row in self.run("known_records", {"rows": chunk}):
                found[row["uid"]] = row["state"]
        return found

    def load_keys(self, ns: str, keys: Iterable[str]) -> dict[str, KeyState]:
        key_list = list(dict.fromkeys(keys))
        states = {k: KeyState(k) for k in key_list}
        for chunk in _chunks(key_list, 20000):
            rows = self.run("key_versions", {"kids": [namespaced_key(ns, k) for k in chunk]})
            for row in rows:
                v = _version_from_row(row["v"])
                states[v.key].versions[v.uid] = v
        return states


class TxStore(_Reads):
    """The store inside one write transaction (see ``Neo4jStore.transact``)."""

    def __init__(self, tx: ManagedTransaction, sealer: TextSealer | None = None) -> None:
        self.tx = tx
        self.sealer = sealer
        self.deleted_texts: list[str] = []  # sealed ones lose their key after the commit

    def run(self, name: str, params: Mapping[str, Any]) -> list[dict[str, Any]]:
        return [r.data() for r in self.tx.run(cypher(name), dict(params))]

    def max_pos(self, ns: str) -> int:
        rows = self.run("max_pos", {"ns": ns})
        return int(rows[0]["pos"]) if rows else -1

    def erase_scope(self, uid: str) -> EraseScope | None:
        rows = self.run("erase_scope", {"uid": uid})
        if not rows:
            return None
        return EraseScope(
            rows[0]["uid"], [(v["uid"], v["key"], bool(v["only"])) for v in rows[0]["versions"]]
        )

    def write_plan(self, ns: str, evidence: list[dict[str, Any]], plan: Plan) -> None:
        if self.sealer is not None and self.sealer.seal_new and evidence:
            sealed = self.sealer.seal(ns, [r["text"] for r in evidence])
            evidence = [
                {
                    **r,
                    "text": t,
                    "terms": " ".join(self.sealer.terms(ns, r["text"])),
                    "mentions": self.sealer.hashed(ns, r.get("mentions") or ()),
                }
                for r, t in zip(evidence, sealed, strict=True)
            ]
        Neo4jStore._write_plan_tx(self.tx, ns, evidence, plan)

    def erase(
        self,
        ns: str,
        uid: str,
        doomed: list[str],
        plan: Plan,
        at: str,
        surviving: Sequence[str] = (),
        *,
        erased_ref: Callable[[str], str],
    ) -> None:
        self.deleted_texts += Neo4jStore._erase_tx(
            self.tx, ns, uid, doomed, plan, at, list(surviving), erased_ref
        )


class Neo4jStore(_Reads):
    """A Neo4j database reached over Bolt."""

    def __init__(
        self,
        driver: Driver,
        database: str | None = None,
        write_timeout: float = 120.0,
        sealer: TextSealer | None = None,
    ) -> None:
        self.driver = driver
        self.database = database
        self.write_timeout = write_timeout
        self.sealer = sealer

    @classmethod
    def connect(
        cls,
        uri: str,
        auth: tuple[str, str] | None = None,
        database: str | None = None,
        *,
        timeout: float = 2.0,
        write_timeout: float = 120.0,
        sealer: TextSealer | None = None,
    ) -> Neo4jStore:
        """A store on ``uri``. A call fails within about ``timeout`` seconds when Neo4j is
        unreachable, instead of the driver's 30-second retry: connecting may take half of
        it, and a failed attempt is retried only while a quarter of it has not passed (the
        driver waits about a second before a retry). Neo4j aborts a write still running
        after ``write_timeout``."""
        try:
            # Notifications (e.g. 'relationship type does not exist yet' on an empty
            # database) are not errors and would flood the log.
            driver = GraphDatabase.driver(
                uri,
                auth=auth,
                notifications_min_severity="OFF",
                connection_timeout=timeout / 2,
                max_transaction_retry_time=timeout / 4,
                connection_acquisition_timeout=max(10.0, timeout),
            )
            driver.verify_connectivity()
        except (ConfigurationError, ValueError) as exc:
            raise InvalidInputError(
                f"{uri!r} is not a Neo4j URI Graphmem can use ({exc}); write it like "
                "bolt://host:7687 or neo4j://host:7687"
            ) from exc
        except (ServiceUnavailable, AuthError, DriverError, OSError) as exc:
            raise StoreUnavailableError(
                f"cannot reach Neo4j at {uri}: {exc}. Start the local server with "
                "'graphmem neo4j start' or set NEO4J_URI (and NEO4J_USER/NEO4J_PASSWORD)."
            ) from exc
        return cls(driver, database, write_timeout, sealer)

    def hash_tombstone_ids(self, ns: str, erased_ref: Callable[[str], str]) -> int:
        """Rewrite erase tombstones of earlier versions, which kept the record's id in
        clear, to keep only ``erased_ref`` of it; how many were rewritten."""
        rows = [
            {"old": r["uid"], **_erase_tombstone(ns, erased_ref(r["record_uid"]), r["at"])}
            for r in self.run("migrate_tombstone_ids_found", {"ns": ns, "prefix": f"{ns}/"})
        ]
        if rows:
            self._write("migrate_tombstone_ids", {"rows": rows})
        return len(rows)

    def close(self) -> None:
        with _mapped("close"):
            self.driver.close()

    def install_schema(self) -> None:
        with _mapped("schema installation"):
            install_schema(self.driver, self.database)

    def migrate(self) -> None:
        """Bring data written by earlier versions up to date (once per database)."""
        with _mapped("migration"):
            migrate(self.driver, self.database)

    def prepare_plans(self) -> None:
        """Plan the hot reads now, so the first question does not pay ~200 ms of planning
        (a cached plan is reused: this costs a few ms on a warm server)."""
        ns = "\u241f"  # no namespace has this name: nothing is read
        try:
            self.closure(ns, [], 1)
            self.fresh_candidates(ns, ["x"], 1)
        except StoreUnavailableError as exc:  # e.g. the schema is not installed yet
            log.info("could not prepare the read plans now: %s", exc)

    def ping(self) -> None:
        with _mapped("health check"):
            self.driver.verify_connectivity()

    def run(self, name: str, params: Mapping[str, Any]) -> list[dict[str, Any]]:
        """Run a named read query from ``cypher/`` (the typed methods below use this)."""
        with _mapped(f"query {name!r}"):
            try:
                # One auto-commit round trip (RUN and PULL together); a managed read adds
                # BEGIN and COMMIT, about 0.3 ms of a 3 ms evidence call.
                with self.driver.session(
                    database=self.database, default_access_mode=READ_ACCESS
                ) as session:
                    return [r.data() for r in session.run(cypher(name), dict(params))]
            except (ServiceUnavailable, SessionExpired, TransientError):
                # The driver does not retry an auto-commit query: a connection that died in
                # the pool (Neo4j restarted) or a transient failure gets the managed path,
                # which retries.
                records, _, _ = self.driver.execute_query(
                    cypher(name), dict(params), database_=self.database, routing_="r"
                )
                return [r.data() for r in records]

    # -- read path A: evidence ----------------------------------------------------------
    def closure(self, ns: str, spans: Sequence[Span], hops: int) -> Closure:
        row = self.run("evidence_cmc", {"spans": _padded_spans(spans), "hops": hops, "ns": ns})[0]
        edges = [
            ClosureEdge(
                e["key"],
                e["subject"],
                e["relation"],
                int(e["depth"]),
                tuple(self._record(ev) for ev in e["evidence"]),
            )
            for e in row["edges"]
        ]
        return Closure(
            list(row["anchors"]), edges, bool(row["has_unresolved"]), int(row["raw_writes"])
        )

    def entity_names(self, ns: str) -> list[str]:
        return [str(r["name"]) for r in self.run("entity_names", {"ns": ns})]

    def has_hangul_names(self, ns: str) -> bool:
        return bool(self.run("has_hangul_names", {"ns": ns})[0]["any"])

    def all_records(self, ns: str) -> list[EvidenceRecord]:
        return [self._record(r) for r in self.run("all_records", {"ns": ns})]

    def newest_records(self, ns: str, before: int, limit: int) -> list[EvidenceRecord]:
        rows = self.run("newest_records", {"ns": ns, "before": before, "limit": limit})
        return [self._record(r) for r in rows]

    def unresolved_records(self, ns: str) -> list[EvidenceRecord]:
        return [self._record(r) for r in self.run("unresolved_records", {"ns": ns})]

    def stored_mentions(self, ns: str, words: Sequence[str]) -> list[str]:
        words = list(words)
        if self.sealer is not None:  # a sealed record's mentions are keyed hashes
            words += self.sealer.hashed(ns, words)
        return words

    # -- read path B: blocks ------------------------------------------------------------
    def watermark(self, ns: str) -> Watermark:
        return dict(self.run("watermark", {"ns": ns})[0])

    def active_view(self, ns: str) -> list[ActiveRecord]:
        return [self._active(r) for r in self.run("active_view", {"ns": ns})]

    def fresh_candidates(self, ns: str, words: Sequence[str], limit: int) -> list[ActiveRecord]:
        """Records of the active view whose text has one of ``words`` (Lucene ranks)."""
        query = _lucene_query(ns, words, self.sealer)
        rows = self.run("fresh_candidates", {"q": query.ljust(PLAN_SIZE), "ns": ns, "limit": limit})
        return [self._active(r) for r in rows]

    # -- meaning: vectors kept with their records and values ----------------------------
    def vector_model(self, ns: str) -> str | None:
        rows = self.run("vectors_model", {"ns": ns})
        return rows[0]["model"] if rows else None

    def claim_vector_model(self, ns: str, model: str) -> str:
        return str(self._write("vectors_claim", {"ns": ns, "model": model})[0]["model"])

    def missing_vectors(self, ns: str, limit: int) -> list[MeaningText]:
        rows = self.run("vectors_missing", {"ns": ns, "limit": limit})
        return [self._meaning_text(r) for r in rows]

    def write_vectors(self, ns: str, rows: Sequence[tuple[MeaningText, Sequence[float]]]) -> int:
        params = [
            {"kind": t.kind, "uid": t.uid, "prev": t.prev, "vector": [float(x) for x in v]}
            for t, v in rows
        ]
        if not params:
            return 0
        return int(self._write("vectors_write", {"ns": ns, "rows": params})[0]["written"])

    def stored_vectors(self, ns: str) -> Iterator[tuple[MeaningText, list[float]]]:
        for r in self.run("vectors_stored", {"ns": ns}):
            yield self._meaning_text({**r, "uid": ""}), list(r["vector"])

    def missing_name_vectors(self, ns: str, limit: int) -> list[tuple[str, str]]:
        rows = self.run("name_vectors_missing", {"ns": ns, "limit": limit})
        return [(str(r["uid"]), str(r["name"])) for r in rows]

    def write_name_vectors(self, ns: str, rows: Sequence[tuple[str, str, Sequence[float]]]) -> int:
        params = [
            {"uid": uid, "name": name, "vector": [float(x) for x in v]} for uid, name, v in rows
        ]
        if not params:
            return 0
        return int(self._write("name_vectors_write", {"ns": ns, "rows": params})[0]["written"])

    def stored_name_vectors(self, ns: str) -> Iterator[tuple[str, list[float]]]:
        for r in self.run("name_vectors_stored", {"ns": ns}):
            yield str(r["name"]), list(r["vector"])

    def clear_vectors(self, ns: str) -> int:
        cleared = 0
        while True:
            n = int(self._write("vectors_clear", {"ns": ns, "limit": 10_000})[0]["cleared"])
            cleared += n
            if n == 0:
                break
        self._write("vectors_forget_model", {"ns": ns})
        return cleared

    def _meaning_text(self, r: Mapping[str, Any]) -> MeaningText:
        if r["kind"] == "record":
            return MeaningText("record", r["uid"], self._open(r["text"]))
        if r["kind"] == "turn":
            prev = r["prev"]
            before = (
                (self._open(prev["text"]), prev["speaker"])
                if prev is not None and same_session(prev["observed_at"], r["observed_at"])
                else None
            )
            return MeaningText(
                "turn",
                r["uid"],
                turn_passage(self._open(r["text"]), r["speaker"], before),
                "" if prev is None else str(prev.get("uid") or ""),  # checked at the write
            )
        return MeaningText("fact", r["uid"], fact_line(r["subject"], r["relation"], r["value"]))

    def _write(self, name: str, params: Mapping[str, Any]) -> list[dict[str, Any]]:
        """A named write outside the namespace's lock (it changes no value)."""
        with _mapped(f"query {name!r}"):
            records, _, _ = self.driver.execute_query(
                cypher(name), dict(params), database_=self.database, routing_="w"
            )
            return [r.data() for r in records]

    # -- explanations and audits --------------------------------------------------------
    def key_versions_detail(
        self, ns: str, key: str, *, set_valued: bool, limit: int, evidence_limit: int
    ) -> list[dict[str, Any]]:
        page = {"limit": limit, "evidence_limit": evidence_limit}
        if set_valued:
            rows = self.run("why_set", {"prefix": namespaced_key(ns, key) + KEY_SEP, **page})
        else:
            rows = self.run("why", {"kid": namespaced_key(ns, key), **page})
        return [
            {
                # A vector is for ranking, not for reading.
                **{k: v for k, v in r["version"].items() if k != "embedding"},
                "evidence": [
                    {**e, "text": self._open(e["text"])} for e in r["version"]["evidence"]
                ],
            }
            for r in rows
        ]

    def history(self, ns: str, key: str, *, limit: int, offset: int) -> list[dict[str, Any]]:
        out = []
        params = {"kid": namespaced_key(ns, key), "limit": limit, "offset": offset}
        for row in self.run("history", params):
            op = dict(row["op"])
            op["fact"] = json.loads(op["fact"]) if op.get("fact") else None
            if op.get("text") is not None:
                op["text"] = self._open(op["text"])
            out.append(op)
        return out

    def value_valid_at(self, ns: str, key: str, at: str) -> str | None:
        rows = self.run("as_of_valid", {"kid": namespaced_key(ns, key), "at": at})
        return rows[0]["version"]["value"] if rows else None

    def oplog_until(self, ns: str, key: str, at: str) -> list[OpLogEntry]:
        return [
            OpLogEntry(
                r["uid"],
                r["kind"],
                int(r["pos"]),
                r["at"],
                json.loads(r["fact"]) if r["fact"] else None,
                r["record_uid"],
            )
            for r in self.run("oplog_until", {"kid": namespaced_key(ns, key), "at": at})
        ]

    def heads(self, ns: str) -> list[HeadRow]:
        return [HeadRow(**r) for r in self.run("audit_heads", {"ns": ns})]

    def audit(self, ns: str, name: str, params: Mapping[str, Any]) -> list[dict[str, Any]]:
        return self.run(name, {**params, "ns": ns})

    def counts(self, ns: str) -> dict[str, int]:
        out: dict[str, int] = {}
        for row in self.run("count_namespace", {"ns": ns}):
            out[row["label"]] = row["nodes"]
            out[f"{row['label']}->"] = row["relationships"]
        return out

    # -- the write path -----------------------------------------------------------------
    def transact(self, ns: str, work: Callable[[TxStore], T]) -> T:
        """Run ``work`` in one write transaction that holds the namespace's lock.

        Writers of one namespace are serialized by a write lock on its ``Namespace`` node,
        taken first: what ``work`` reads (known records, key versions) cannot change
        before it commits. Transient failures re-run ``work`` from the start.
        """

        attempt: list[TxStore] = []

        @unit_of_work(timeout=self.write_timeout)
        def unit(tx: ManagedTransaction) -> T:
            if tx.run(cypher("lock_namespace"), {"ns": ns}).single(strict=True)["fenced"]:
                raise StoreUnavailableError(
                    "the local Neo4j is being compacted (`graphmem neo4j compact` or "
                    "`stop`); nothing was written. Retry in a few seconds."
                )
            attempt[:] = [TxStore(tx, self.sealer)]
            return work(attempt[0])

        # Nothing of a failed transaction is committed; re-sending the same records is safe.
        with _mapped("write"), self.driver.session(database=self.database) as session:
            result = session.execute_write(unit)
        if self.sealer is not None and attempt and attempt[0].deleted_texts:
            # Crypto-shredding: the ciphertext Neo4j keeps on disk can never be read again.
            self.sealer.shred(attempt[0].deleted_texts)
        return result

    @staticmethod
    def _write_plan_tx(
        tx: ManagedTransaction,
        ns: str,
        evidence: list[dict[str, Any]],
        plan: Plan,
    ) -> None:
        def run(name: str, **params: Any) -> None:
            tx.run(cypher(name), params).consume()

        mentions = [{"uid": r["uid"], "keys": r["mentions"]} for r in evidence if r.get("mentions")]
        evidence = [{k: v for k, v in r.items() if k != "mentions"} for r in evidence]
        for chunk in _chunks(evidence):
            run("write_evidence", rows=chunk)
        for chunk in _chunks(mentions, 2000):
            run("write_mentions", rows=chunk, ns=ns)
        if any(r.get("parse") == "unresolved" for r in evidence):
            run("raw_changed", ns=ns)
        names: dict[str, str] = {}
        for v in plan.new_versions.values():
            for name in (v.subject, v.value):
                names.setdefault(normalize_name(name), name)
        entity_rows = [
            {"uid": f"{ns}/{k}", "ns": ns, "key": k, "name": n} for k, n in names.items()
        ]
        for chunk in _chunks(entity_rows):
            run("write_entities", rows=chunk)
        if plan.discarded:
            run("discard_versions", uids=plan.discarded)
        # Heads move in two steps so the one-head constraint never sees two at once:
        # release the old heads, then write new and changed versions in their final state.
        for chunk in _chunks([v.uid for v in plan.changed_versions.values()]):
            run("clear_heads", uids=chunk)
        new_rows = [
            {
                "props": _version_props(ns, v),
                "subject_uid": f"{ns}/{normalize_name(v.subject)}",
                "object_uid": f"{ns}/{normalize_name(v.value)}",
                "evidence": v.evidence[0],
            }
            for v in plan.new_versions.values()
        ]
        for chunk in _chunks(new_rows):
            run("write_versions", rows=chunk)
        updates = [_version_update(ns, v) for v in plan.changed_versions.values()]
        for chunk in _chunks(updates):
            run("update_versions", rows=chunk)
        created = {(v.uid, v.evidence[0]) for v in plan.new_versions.values()}
        supports = [p for p in plan.supports if p not in created]
        for name, pairs in (
            ("link_supersedes", plan.supersedes),
            ("link_alternatives", plan.alternatives),
            ("link_supports", supports),
        ):
            for chunk in _chunks([list(p) for p in pairs]):
                run(name, pairs=chunk)
        ops = [
            {
                "props": {
                    "uid": op.uid,
                    "ns": ns,
                    "kind": str(op.kind),
                    "kid": namespaced_key(ns, op.key),
                    "at": op.at,
                    "pos": op.pos,
                    "fact": json.dumps(op.fact, ensure_ascii=False),
                    "note": op.note,
                },
                "evidence": op.record_uid,
                "applied_to": op.applied_to,
            }
            for op in plan.operations
        ]
        for chunk in _chunks(ops):
            run("write_operations", rows=chunk)
        tombs = [
            {
                "props": {
                    "uid": t["uid"],
                    "ns": ns,
                    "at": t["at"],
                    "reason": t["reason"],
                    "sealed": False,
                },
                "version": t["version"],
            }
            for t in plan.tombstones
        ]
        if tombs:
            run("write_tombstones", rows=tombs)

    # -- erase ------------------------------------------------------------------------
    @staticmethod
    def _erase_tx(
        tx: ManagedTransaction,
        ns: str,
        uid: str,
        doomed: list[str],
        plan: Plan,
        at: str,
        surviving: list[str],
        erased_ref: Callable[[str], str],
    ) -> list[str]:
        """Delete the record, its ops and the versions only it supported; restore heads;
        versions other records keep lose the erased record's spelling; a tombstone keyed
        by ``erased_ref`` of each deleted record's uid. Returns the deleted texts."""

        def run(name: str, **params: Any) -> list[dict[str, Any]]:
            return [r.data() for r in tx.run(cypher(name), params)]

        entity_uids = run("erase_entities_of", uids=[*doomed, *surviving])[0]["uids"]
        scrubbed = []
        for row in run("erase_touched_operations", versions=doomed):
            fact = json.loads(row["fact"])
            erased = {normalize_name(v) for v in row["erased"]}
            kept = {normalize_name(v) for v in row["kept"]}
            if normalize_name(fact.get("value") or "") in erased - kept:
                scrubbed.append(
                    {
                        "uid": row["uid"],
                        "fact": json.dumps({**fact, "value": ""}, ensure_ascii=False),
                    }
                )
        if scrubbed:
            run("respell_operations", rows=scrubbed)
        run("clear_heads", uids=[*plan.changed_versions, *doomed])
        run("raw_changed", ns=ns)  # the erased record may have been an unresolved one
        run("erase_turn_vectors", uid=uid, ns=ns)  # the next turn's vector embeds its text
        deleted = run("erase_delete", uid=uid, versions=doomed, ns=ns)
        rows = [_erase_tombstone(ns, erased_ref(u), at) for row in deleted for u in row["uids"]]
        run("erase_tombstones", rows=rows, ns=ns, at=at)
        run(
            "update_versions",
            rows=[_version_update(ns, v) for v in plan.changed_versions.values()],
        )
        if plan.supersedes:
            run("link_supersedes", pairs=[list(p) for p in plan.supersedes])
        if surviving:
            respell = []
            for row in run("surviving_spellings", uids=surviving):
                # Only a spelling of the same name and value: never a different value.
                facts = [
                    f
                    for f in map(json.loads, row["facts"])
                    if f.get("intent") != "revoke"
                    and f.get("value")
                    and normalize_name(f["subject"]) == normalize_name(row["subject"])
                    and normalize_name(f["value"]) == normalize_name(row["value"])
                ]
                if facts and (facts[0]["subject"], facts[0]["value"]) != (
                    row["subject"],
                    row["value"],
                ):
                    respell.append(
                        {
                            "uid": row["uid"],
                            "subject": facts[0]["subject"],
                            "value": facts[0]["value"],
                        }
                    )
            if respell:
                run("respell_versions", rows=respell)
        run("erase_orphan_entities", uids=entity_uids)
        return [t for row in deleted for t in row["texts"] if t is not None]
