"""The plain data of graphmem: records, candidate facts, versions, operations.

Nothing here knows about Neo4j, HTTP or an LLM.
"""

from __future__ import annotations

import copy
import hashlib
import hmac
import json
import re
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from enum import IntEnum, StrEnum
from typing import Any

from graphmem._errors import InvalidInputError

__all__ = [
    "Authority",
    "Fact",
    "Intent",
    "OpKind",
    "ParseStatus",
    "Record",
    "Status",
    "VersionState",
    "content_id",
    "legacy_content_id",
    "to_utc_iso",
    "utc_now_iso",
]


class Status(StrEnum):
    ACTIVE = "active"
    SUPERSEDED = "superseded"
    CONTRADICTED = "contradicted"
    CONTESTED = "contested"
    REVOKED = "revoked"


HEAD_STATUSES = frozenset({Status.ACTIVE, Status.CONTESTED})


class OpKind(StrEnum):
    ACCEPT = "ACCEPT"
    REJECT = "REJECT"
    CONTEST = "CONTEST"
    REVOKE = "REVOKE"
    RESOLVE = "RESOLVE"
    NOOP = "NOOP"


class Intent(StrEnum):
    """What a statement does to its key, as the extractor read it."""

    ASSERT = "assert"  # a plain statement of the value
    UPDATE = "update"  # an explicit change ("now", "moved to", "이제")
    CORRECT = "correct"  # the old value was wrong from the start ("not X, it was Y")
    REVOKE = "revoke"  # "that update was a mistake"
    CONFIRM = "confirm"  # "checked: it is B"


class Authority(IntEnum):
    """hearsay < first_person < official = system. Lower never supersedes higher."""

    HEARSAY = 0
    FIRST_PERSON = 1
    OFFICIAL = 2
    SYSTEM = 2

    @classmethod
    def parse(cls, value: str | int | Authority | None) -> Authority:
        if value is None:
            return cls.FIRST_PERSON
        if isinstance(value, Authority):
            return value
        if isinstance(value, int):
            if value not in (0, 1, 2):
                raise InvalidInputError(f"authority must be 0, 1 or 2, got {value}")
            return cls(value)
        try:
            return cls[str(value).strip().upper()]
        except KeyError:
            raise InvalidInputError(
                f"unknown authority {value!r}; use hearsay, first_person, official or system"
            ) from None


class ParseStatus(StrEnum):
    FACTS = "facts"
    UNRESOLVED = "unresolved"
    NO_FACT = "no_fact"


def _iso(value: datetime | str | None, field_name: str) -> str | None:
    if value is None or value == "":
        return None
    if not isinstance(value, datetime):
        try:
            value = datetime.fromisoformat(str(value))
        except ValueError:
            raise InvalidInputError(
                f"{field_name} must be an ISO-8601 date or datetime, got {value!r}"
            ) from None
    return to_utc_iso(value)


def to_utc_iso(value: datetime) -> str:
    """One string form for every time, so stored times compare as strings."""
    if value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    return value.astimezone(UTC).isoformat(timespec="microseconds")


def utc_now_iso() -> str:
    return to_utc_iso(datetime.now(UTC))


@dataclass(frozen=True)
class Fact:
    """One candidate fact about a key, as an extractor (or a caller) states it."""

    subject: str
    relation: str
    value: str
    intent: Intent = Intent.ASSERT

    def __post_init__(self) -> None:
        for name in ("subject", "relation", "value"):
            v = getattr(self, name)
            if not isinstance(v, str):
                raise InvalidInputError(f"fact {name} must be a string, got {type(v).__name__}")
            if len(v) > MAX_NAME_CHARS:
                raise InvalidInputError(
                    f"fact {name} has {len(v):,} characters; the limit is {MAX_NAME_CHARS:,}"
                )
            _check_encodable(v, f"fact {name}", multiline=name == "value")
        for name in ("subject", "relation"):
            if not getattr(self, name).strip():
                raise InvalidInputError(f"fact {name} must not be empty")
        try:
            intent = Intent(self.intent)
        except ValueError:
            raise InvalidInputError(
                f"unknown intent {self.intent!r}; use one of {[i.value for i in Intent]}"
            ) from None
        if intent is not Intent.REVOKE and not self.value.strip():
            raise InvalidInputError("fact value must not be empty")
        object.__setattr__(self, "intent", intent)


MAX_TEXT_CHARS = 200_000
MAX_NAME_CHARS = 1_000  # names and values are indexed: Neo4j caps index keys
# A caller may number records up to MAX_GIVEN_POS; memory numbers the rest above the
# highest one, up to MAX_POS (exact in a JSON double). The gap (about 9e15 positions)
# means no record a caller can send leaves a namespace without positions to give.
MAX_GIVEN_POS = 10**12
# One record's facts are applied in one transaction that holds the namespace's writers.
MAX_FACTS_PER_RECORD = 256
# Explanations and histories come a page at a time: at most this many items per answer.
PAGE_MAX = 1000
OFFSET_MAX = 10**9
MAX_PARTICIPANTS = 64
MAX_POS = 2**53

# C0 controls and DEL; text and values may keep tab and line breaks, names and ids may not.
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
_CONTROL_IN_TEXT = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def _check_encodable(text: str, what: str, *, multiline: bool = False) -> None:
    """Lone surrogates cannot be stored (the driver would fail mid-batch); control
    characters (NUL among them) are refused the same way in every field."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise InvalidInputError(f"{what} is not valid Unicode (lone surrogate)") from None
    found = (_CONTROL_IN_TEXT if multiline else _CONTROL).search(text)
    if found:
        allowed = " (tab and line breaks are fine)" if multiline else ""
        raise InvalidInputError(f"{what} contains a control character {found.group()!r}{allowed}")


def _optional_str(value: object, what: str) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise InvalidInputError(f"record {what} must be a string, got {type(value).__name__}")
    if len(value) > MAX_NAME_CHARS:
        raise InvalidInputError(
            f"record {what} has {len(value):,} characters; the limit is {MAX_NAME_CHARS:,}"
        )
    _check_encodable(value, f"record {what}")
    return value


@dataclass(frozen=True)
class Record:
    """One immutable source record: a message, a fact line, a tool result."""

    text: str
    id: str | None = None
    pos: int | None = None
    speaker: str | None = None
    participants: tuple[str, ...] = ()
    observed_at: str | None = None
    stated_at: str | None = None
    source: str | None = None
    authority: Authority = Authority.FIRST_PERSON
    facts: tuple[Fact, ...] | None = None  # pre-extracted facts skip the extractor

    def __post_init__(self) -> None:
        text = self.text
        if isinstance(text, bytes):
            try:
                text = text.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise InvalidInputError(f"record text is not valid UTF-8: {exc}") from None
        if not isinstance(text, str):
            raise InvalidInputError("record text must be a string")
        if not text.strip():
            raise InvalidInputError("record text is empty")
        _check_encodable(text, "record text", multiline=True)
        for name in ("speaker", "source"):
            _optional_str(getattr(self, name), name)
        if isinstance(self.participants, str):
            object.__setattr__(self, "participants", (self.participants,))
        if len(self.participants or ()) > MAX_PARTICIPANTS:
            raise InvalidInputError(
                f"a record has at most {MAX_PARTICIPANTS} participants, got "
                f"{len(self.participants):,}"
            )
        for p in self.participants or ():
            _optional_str(p, "participant")
        if len(text) > MAX_TEXT_CHARS:
            raise InvalidInputError(
                f"record text has {len(text):,} characters; the limit is {MAX_TEXT_CHARS:,}"
            )
        object.__setattr__(self, "text", text)
        object.__setattr__(self, "participants", tuple(self.participants or ()))
        object.__setattr__(self, "observed_at", _iso(self.observed_at, "observed_at"))
        object.__setattr__(self, "stated_at", _iso(self.stated_at, "stated_at"))
        object.__setattr__(self, "authority", Authority.parse(self.authority))
        if self.facts is not None:
            object.__setattr__(self, "facts", tuple(self.facts))
            if len(self.facts) > MAX_FACTS_PER_RECORD:
                raise InvalidInputError(
                    f"a record carries at most {MAX_FACTS_PER_RECORD} facts, got "
                    f"{len(self.facts):,}; split them over several records"
                )
        if self.pos is not None and (
            isinstance(self.pos, bool)
            or not isinstance(self.pos, int)
            or not 0 <= self.pos <= MAX_GIVEN_POS
        ):
            raise InvalidInputError(
                f"record pos must be an integer from 0 to {MAX_GIVEN_POS:,}, got {self.pos!r}"
            )
        # Without an id, ingest derives one from the content and the namespace's key
        # (content_id); the domain never sees the key.
        if self.id is not None and (
            not isinstance(self.id, str) or not self.id.strip() or len(self.id) > 512
        ):
            raise InvalidInputError("record id must be a string of 1-512 characters")
        if self.id is not None:
            _check_encodable(self.id, "record id")

    def with_id(self, record_id: str) -> Record:
        """This record under ``record_id`` (no second validation: the id is ours)."""
        out = copy.copy(self)
        object.__setattr__(out, "id", record_id)
        return out

    @property
    def source_identity(self) -> str | None:
        """Who said it: two records from one identity never contest each other."""
        return self.speaker or self.source


def content_id(record: Record, key: bytes) -> str:
    """The id of a record sent without one: a keyed hash (HMAC-SHA256) of its content, so
    re-sending it is recognised, while nobody without ``key`` (kept outside the database)
    can test a guess of what an erased record said against its id."""
    facts = [[f.subject, f.relation, f.value, str(f.intent)] for f in record.facts or ()]
    content = json.dumps(
        [
            record.text,
            record.pos,
            record.speaker,
            record.observed_at,
            record.source,
            list(record.participants),
            record.stated_at,
            int(record.authority),
            facts,
        ]
    ).encode()
    return "r-" + hmac.new(key, content, hashlib.sha256).hexdigest()[:24]


def erased_ref(uid: str, key: bytes) -> str:
    """What an erase tombstone keeps of a record's id: a keyed hash (HMAC-SHA256, the key
    outside the database), so the id a caller chose is not left in clear, while the same
    id sent again is still recognised as erased."""
    return "e-" + hmac.new(key, uid.encode("utf-8"), hashlib.sha256).hexdigest()[:32]


def legacy_content_id(record: Record) -> str:
    """The unkeyed id earlier versions derived (a plain hash): looked up so records stored
    by them are still recognised when sent again, never given to a new record."""
    content = json.dumps(
        [record.text, record.pos, record.speaker, record.observed_at, record.source]
    ).encode()
    return "r-" + hashlib.sha256(content).hexdigest()[:24]


@dataclass
class VersionState:
    """One value of one key, as the controller sees it."""

    uid: str
    key: str
    subject: str
    relation: str
    value: str
    status: Status
    pos: int
    # (valid time or "", the position it was last said at): supersession order
    order: tuple[str, int]
    authority: int
    source: str | None
    valid_from: str | None = None
    valid_to: str | None = None
    tx_from: str | None = None
    tx_to: str | None = None
    is_head: bool = False
    # Versions this one replaced; several only when a late, older value was slotted in.
    supersedes: list[str] = field(default_factory=list)
    alternative_of: str | None = None
    evidence: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["status"] = str(self.status)
        d["order"] = list(self.order)
        return d
