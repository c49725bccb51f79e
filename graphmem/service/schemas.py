"""The service's request and response bodies (pydantic): validation and the OpenAPI spec.

Request models check shape and types only; what a value means (a date, an authority, a
block option's range) is checked by the core, so HTTP and ``Memory`` refuse the same
input with the same message. Response models document what the routes return; the
routes build those bodies with the one serialization of each result
(``graphmem.results``, ``graphmem.service.wire``, ``graphmem.service.jobs``).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, get_args

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from graphmem.config import Gate, Identity
from graphmem.domain.model import MAX_GIVEN_POS
from graphmem.service.jobs import JobStatus

__all__ = [
    "AnswerIn",
    "AnswerOut",
    "AuditOut",
    "BlockIn",
    "BlockOut",
    "EraseReportOut",
    "EvidenceIn",
    "EvidenceOut",
    "ExplanationOut",
    "FactIn",
    "HealthOut",
    "HistoryOut",
    "IngestIn",
    "IngestReportOut",
    "JobOut",
    "Problem",
    "RecordIn",
    "RememberIn",
    "ResolveIn",
    "RevokeIn",
    "WriteResultOut",
]


def _unicode(value: str) -> str:
    """JSON may escape lone surrogates (``"\\ud800"``); Neo4j cannot store them."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise ValueError("contains a lone UTF-16 surrogate: not valid Unicode text") from None
    return value


Text = Annotated[str, AfterValidator(_unicode)]
IntentName = Literal["assert", "update", "correct", "revoke", "confirm"]


# -- requests ------------------------------------------------------------------------------
class FactIn(BaseModel):
    """A pre-extracted fact; extra fields go on to ``Memory.ingest``, which reports them."""

    model_config = ConfigDict(extra="allow")
    subject: Text
    relation: Text
    value: Text
    intent: IntentName = "assert"


class RecordIn(BaseModel):
    """One record, in the shape ``Memory.ingest`` takes. Semantic problems (bad dates,
    unknown fields, over-long text) are reported per record in the report's ``errors``.
    Without ``facts`` the service's extractor (``GRAPHMEM_EXTRACTOR``) reads the text."""

    model_config = ConfigDict(extra="allow")
    text: Text
    id: Text | None = None
    pos: int | None = Field(None, ge=0, le=MAX_GIVEN_POS)
    speaker: Text | None = None
    participants: list[Text] | None = None
    observed_at: Text | None = None
    stated_at: Text | None = None
    source: Text | None = None
    authority: int | Text | None = Field(
        None, description="hearsay, first_person, official, system (or 0-2)"
    )
    facts: list[FactIn] | None = None


class IngestIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    records: list[RecordIn]


class RememberIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    subject: Text
    relation: Text
    value: Text
    text: Text | None = None
    intent: IntentName = "assert"
    speaker: Text | None = None
    source: Text | None = None
    authority: int | Text | None = None
    stated_at: Text | None = None
    observed_at: Text | None = None
    record_id: Text | None = None


class RevokeIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    subject: Text
    relation: Text
    value: Text | None = Field(None, description="the member, for a set-valued relation")
    text: Text | None = None
    speaker: Text | None = None


class ResolveIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    subject: Text
    relation: Text
    value: Text
    text: Text | None = None
    speaker: Text | None = None
    authority: int | Text | None = None


class EvidenceIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    question: Text
    hops: int = 5
    budget_chars: int = 60_000
    control: Text = "cmc"


class AnswerIn(EvidenceIn):
    timeout: float | None = Field(None, gt=0, le=600, description="reader timeout, seconds")


class BlockIn(BaseModel):
    """A memory block request: ``Memory.block``'s arguments. An option left out (or
    ``null``) keeps the service's default (``MemoryConfig.block``); option values are
    checked by ``BlockOptions``, and any other field is refused by it as an unknown
    option (422 invalid-input, the message ``Memory.block`` gives)."""

    model_config = ConfigDict(extra="allow")
    request: Text = Field(description="the unfinished message the block is for")
    partner: Text = Field("", description="who the message is to")
    now: Text | None = Field(None, description="ISO-8601; default: the current time")
    deadline_ms: float | None = Field(None, description="fresh reads wait at most this")
    fresh: bool | None = Field(None, description="read Neo4j now, not the snapshot")
    identity: Text | None = Field(None, description=" | ".join(get_args(Identity)))
    gate: Text | None = Field(None, description=" | ".join(get_args(Gate)))
    k: int | None = Field(None, description="at most this many lines")
    max_chars: int | None = Field(None, description="at most this many characters")
    tau: float | None = None
    margin: float | None = None

    def options(self) -> dict[str, Any]:
        """The block options given, unknown ones included (``Memory.block`` refuses them)."""
        given = self.model_dump(exclude={"request", "partner", "now"}, exclude_none=True)
        return given | dict(self.model_extra or {})


# -- responses -----------------------------------------------------------------------------
class Problem(BaseModel):
    """RFC 7807 problem details."""

    model_config = ConfigDict(extra="allow")
    type: str = "about:blank"
    title: str
    status: int
    detail: str | None = None
    instance: str | None = None


class WriteResultOut(BaseModel):
    op: str
    key: str
    head: str | None
    status: str | None
    note: str = ""


class EraseReportOut(BaseModel):
    record_id: str
    versions_removed: int
    keys_rematerialized: int


class IngestReportOut(BaseModel):
    records: int
    stored: int
    skipped_known: int
    skipped_erased: int
    facts: int
    unresolved: int
    no_fact: int
    ops: dict[str, int]
    errors: list[dict[str, Any]]
    seconds: float
    parse_seconds: float
    db_seconds: float


class EvidenceRecordOut(BaseModel):
    pos: int
    text: str
    id: str | None = None
    speaker: str | None = None
    observed_at: str | None = None


class EvidenceOut(BaseModel):
    text: str
    records: list[EvidenceRecordOut]
    anchors: list[str]
    keys: list[str]
    fallback: bool
    control: str
    hops: int
    truncated: bool
    stats: dict[str, float]
    chars: int


class AnswerOut(BaseModel):
    text: str
    first_line: str
    evidence: EvidenceOut


class ExplanationOut(BaseModel):
    subject: str
    relation: str
    head: dict[str, Any] | None
    status: str | None
    value: str | None
    text: str
    versions: list[dict[str, Any]]
    cypher: str
    params: dict[str, Any]
    browser_url: str | None


class HistoryOut(BaseModel):
    subject: str
    relation: str
    operations: list[dict[str, Any]]


class AuditOut(BaseModel):
    name: str
    rows: list[dict[str, Any]]


class BlockRecordOut(BaseModel):
    """The record a block line shows, from the active view."""

    pos: int
    record_id: str
    text: str
    observed_at: str | None
    participants: list[str]
    speaker: str | None
    facts: list[list[str]] = Field(description="its current (subject, relation, value)s")
    keyed: bool


class BlockLineOut(BaseModel):
    text: str = Field(description="the line as the block shows it")
    score: float
    record: BlockRecordOut


class BlockOut(BaseModel):
    text: str = Field(description="'[Relevant memory]' and the lines; empty when abstained")
    lines: list[BlockLineOut]
    abstained: bool
    fell_back: bool = Field(description="the fresh read missed its deadline: the snapshot served")
    reason: str
    slot: str | None
    posterior: dict[str, float]
    latency_ms: float
    served: Literal["snapshot", "fresh"] = Field(
        description="fresh: read from Neo4j for this call; snapshot: the in-memory copy"
    )
    snapshot_age_ms: float = Field(description="age of the snapshot that served (0 if fresh)")


class AsOfOut(BaseModel):
    subject: str
    relation: str
    at: str
    axis: Literal["valid", "transaction"]
    value: str | None = Field(description="the value then; null when none held")


class StateOut(BaseModel):
    disclosure: Literal["current", "history"]
    text: str = Field(description="one 'subject relation = value' line per current value")


class JobOut(BaseModel):
    id: str
    namespace: str
    status: JobStatus
    records: int
    submitted_at: str
    started_at: str | None = None
    finished_at: str | None = None
    report: IngestReportOut | None = None
    error: Problem | None = None


class HealthOut(BaseModel):
    status: Literal["ok"]
    neo4j: Literal["reachable"]
    version: str
