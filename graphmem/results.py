"""What graphmem's operations return, and their one JSON form.

``Memory``, the service, the HTTP client and the CLI all use these classes; ``to_dict``
is the wire form and ``from_dict`` reads it back, so a result looks the same whichever
interface produced it.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from typing import Any, TypeVar

from graphmem.domain.evidence import Evidence, EvidenceRecord
from graphmem.domain.model import Status

__all__ = [
    "Answer",
    "EraseReport",
    "Explanation",
    "IngestReport",
    "WriteResult",
    "evidence_from_dict",
    "evidence_to_dict",
    "pick",
]

T = TypeVar("T")


def pick(cls: type[T], data: Any) -> T:
    """Build a dataclass from the fields it knows (a newer server may send more)."""
    names = {f.name for f in fields(cls)}  # type: ignore[arg-type]
    return cls(**{k: v for k, v in dict(data).items() if k in names})


@dataclass
class IngestReport:
    records: int = 0
    stored: int = 0
    skipped_known: int = 0
    skipped_erased: int = 0
    facts: int = 0
    unresolved: int = 0
    no_fact: int = 0
    ops: dict[str, int] = field(default_factory=dict)
    errors: list[dict[str, Any]] = field(default_factory=list)
    seconds: float = 0.0
    parse_seconds: float = 0.0
    db_seconds: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @classmethod
    def from_dict(cls, data: Any) -> IngestReport:
        return pick(cls, data)

    def summary(self) -> str:
        ops = ", ".join(f"{k} {v}" for k, v in sorted(self.ops.items())) or "none"
        return (
            f"{self.stored} of {self.records} records stored ({self.skipped_known} already known, "
            f"{self.skipped_erased} erased, {len(self.errors)} rejected); {self.facts} facts, "
            f"{self.unresolved} unresolved, {self.no_fact} without facts; ops: {ops}; "
            f"{self.seconds:.2f}s (parse {self.parse_seconds:.2f}s, db {self.db_seconds:.2f}s)"
        )


@dataclass(frozen=True)
class WriteResult:
    """What one remembered fact did to its key."""

    op: str
    key: str
    head: str | None
    status: str | None
    note: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "op": self.op,
            "key": self.key,
            "head": self.head,
            "status": self.status,
            "note": self.note,
        }

    @classmethod
    def from_dict(cls, data: Any) -> WriteResult:
        return pick(cls, data)


@dataclass
class Explanation:
    """The answer to "why do you remember this?" for one (subject, relation)."""

    subject: str
    relation: str
    head: dict[str, Any] | None
    versions: list[dict[str, Any]]
    cypher: str
    params: dict[str, Any]
    browser_url: str | None = None

    @property
    def status(self) -> str | None:
        return self.head["status"] if self.head else None

    @property
    def value(self) -> str | None:
        return self.head["value"] if self.head else None

    def _by_uid(self) -> dict[str, dict[str, Any]]:
        return {v["uid"]: v for v in self.versions}

    @property
    def replaced(self) -> list[dict[str, Any]]:
        """Versions the head superseded or contradicted, newest first."""
        if not self.head:
            return []
        by_uid, out, seen = self._by_uid(), [], set()
        todo = list(self.head.get("supersedes", []))
        while todo:
            uid = todo.pop(0)
            if uid in seen or uid not in by_uid:
                continue
            seen.add(uid)
            out.append(by_uid[uid])
            todo.extend(by_uid[uid].get("supersedes", []))
        return sorted(out, key=lambda v: v["pos"], reverse=True)

    @property
    def alternatives(self) -> list[dict[str, Any]]:
        if not self.head:
            return []
        return [v for v in self.versions if v.get("alternative_of") == self.head["uid"]]

    @property
    def tombstones(self) -> list[dict[str, Any]]:
        return [t | {"value": v["value"]} for v in self.versions for t in v.get("tombstones", [])]

    def text(self) -> str:
        """One or two sentences a person can read."""
        if not self.versions:
            return f"Nothing is remembered about {self.subject} / {self.relation}."
        if self.head is None:
            last = self.versions[-1]
            return (
                f"{self.subject} / {self.relation}: no current value "
                f"(last value {last['value']!r} is {last['status']})."
            )

        def src(v: dict[str, Any]) -> str:
            ev = v.get("evidence") or []
            if not ev:
                return "no record"
            e = max(ev, key=lambda e: e.get("pos") or 0)
            quote = (e.get("text") or "")[:120]
            return f"from {quote!r}"

        def when(v: dict[str, Any]) -> str:
            t = v.get("stated_at") or v.get("valid_from") or v.get("tx_from")
            return f" since {t[:10]}" if t else ""

        h = self.head
        parts = [f"{h['value']}{when(h)}, {src(h)}"]
        if h["status"] == Status.CONTESTED:
            alts = ", ".join(f"{a['value']!r} ({src(a)})" for a in self.alternatives)
            parts[0] += f" — contested by {alts}"
        for old in self.replaced[:3]:
            if old["status"] == Status.REVOKED:
                continue
            verb = "contradicted" if old["status"] == Status.CONTRADICTED else "replaced"
            parts.append(f"{verb} {old['value']}{when(old)}, {src(old)}")
        for v in self.versions:
            if v["status"] == Status.REVOKED:
                at = (v.get("tombstones") or [{}])[-1].get("at") or ""
                parts.append(f"{v['value']} was revoked {at[:10]}".rstrip())
        return "; ".join(parts)

    def to_dict(self) -> dict[str, Any]:
        return {
            "subject": self.subject,
            "relation": self.relation,
            "head": self.head,
            "status": self.status,
            "value": self.value,
            "text": self.text(),
            "versions": self.versions,
            "cypher": self.cypher,
            "params": self.params,
            "browser_url": self.browser_url,
        }

    @classmethod
    def from_dict(cls, data: Any) -> Explanation:
        return cls(
            data["subject"],
            data["relation"],
            data["head"],
            data["versions"],
            cypher=data["cypher"],
            params=data["params"],
            browser_url=data.get("browser_url"),
        )


@dataclass(frozen=True)
class EraseReport:
    record_id: str
    versions_removed: int
    keys_rematerialized: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "record_id": self.record_id,
            "versions_removed": self.versions_removed,
            "keys_rematerialized": self.keys_rematerialized,
        }

    @classmethod
    def from_dict(cls, data: Any) -> EraseReport:
        return pick(cls, data)


def evidence_to_dict(ev: Evidence) -> dict[str, Any]:
    return {
        "text": ev.text,
        "chars": ev.chars,
        "records": [asdict(r) for r in ev.records],
        "anchors": ev.anchors,
        "keys": ev.keys,
        "fallback": ev.fallback,
        "control": ev.control,
        "hops": ev.hops,
        "truncated": ev.truncated,
        "stats": ev.stats,
    }


def evidence_from_dict(d: Any) -> Evidence:
    return Evidence(
        text=d["text"],
        records=[pick(EvidenceRecord, r) for r in d["records"]],
        anchors=list(d["anchors"]),
        keys=list(d["keys"]),
        fallback=d["fallback"],
        control=d.get("control", "cmc"),
        hops=d.get("hops", 5),
        truncated=d.get("truncated", False),
        stats=dict(d.get("stats") or {}),
    )


@dataclass(frozen=True)
class Answer:
    """A reader's answer with the evidence it read."""

    text: str
    evidence: Evidence

    @property
    def first_line(self) -> str:
        lines = [ln.strip() for ln in self.text.strip().splitlines() if ln.strip()]
        return lines[0] if lines else ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "text": self.text,
            "first_line": self.first_line,
            "evidence": evidence_to_dict(self.evidence),
        }

    @classmethod
    def from_dict(cls, data: Any) -> Answer:
        return cls(data["text"], evidence_from_dict(data["evidence"]))
