"""The wire format: one module for what the service writes and the client, the CLI and
the MCP server read.

- *Problems*: every error the service returns is RFC 7807 problem JSON. A core error has
  a ``urn:graphmem:problem:<slug>`` type; HTTP-level problems (401, 403, 413, unknown
  route) use ``about:blank``. ``PROBLEM_KINDS`` is the one place where a graphmem error
  class, an HTTP status and a problem type meet: the service maps exceptions to problems
  with ``problem_kind`` and the client maps problems back with ``error_from_problem``.
- *Bodies*: the request and response models (pydantic) that validate requests and make
  the OpenAPI spec. Request models check shape and types only; what a value means (a
  date, an authority, a block option's range) is checked by the core, so HTTP and
  ``Memory`` refuse the same input with the same message.
- *Converters*: a ``Block``, a ``Job`` and a ``Record`` to and from JSON; the other
  results (``graphmem.results``) carry their own ``to_dict`` / ``from_dict``, and a test
  checks every one against its response model here.

It imports no web framework and no database driver: ``graphmem.Client`` loads it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from http import HTTPStatus
from typing import Annotated, Any, Literal, get_args

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, Strict

from graphmem._errors import (
    ConflictError,
    GraphmemError,
    InvalidInputError,
    LLMError,
    NotFoundError,
    ServiceError,
    StoreUnavailableError,
    UnknownRelationError,
)
from graphmem.config import Gate, Identity
from graphmem.domain.block import ActiveRecord, Block, BlockLine
from graphmem.domain.model import MAX_GIVEN_POS, Fact, Record
from graphmem.results import IngestReport

__all__ = [
    "PROBLEM_JSON",
    "PROBLEM_KINDS",
    "AnswerIn",
    "AnswerOut",
    "AsOfOut",
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
    "Job",
    "JobOut",
    "JobStatus",
    "Problem",
    "ProblemException",
    "ProblemKind",
    "RecordIn",
    "RememberIn",
    "ResolveIn",
    "RevokeIn",
    "ServiceError",
    "StateOut",
    "WriteResultOut",
    "block_from_dict",
    "block_to_dict",
    "error_from_problem",
    "kind_named",
    "problem_body",
    "problem_for",
    "problem_kind",
    "record_json",
]


# -- problems ------------------------------------------------------------------------------
PROBLEM_JSON = "application/problem+json"
PROBLEM_PREFIX = "urn:graphmem:problem:"


@dataclass(frozen=True)
class ProblemKind:
    """One row of the table: an error class, its status and problem type."""

    error: type[GraphmemError]
    status: int
    slug: str
    title: str

    @property
    def type(self) -> str:
        return PROBLEM_PREFIX + self.slug


# Subclasses before their bases: the first row an exception is an instance of wins.
PROBLEM_KINDS: tuple[ProblemKind, ...] = (
    ProblemKind(UnknownRelationError, 422, "unknown-relation", "Unknown relation"),
    ProblemKind(InvalidInputError, 422, "invalid-input", "Invalid input"),
    ProblemKind(NotFoundError, 404, "not-found", "Not found"),
    ProblemKind(ConflictError, 409, "conflict", "Conflict"),
    ProblemKind(StoreUnavailableError, 503, "store-unavailable", "Neo4j is unavailable"),
    ProblemKind(LLMError, 502, "llm-error", "The reader LLM failed"),
    # Service-only conditions: raised as ServiceError by the client.
    ProblemKind(ServiceError, 503, "namespace-busy", "Namespace busy"),
    ProblemKind(ServiceError, 503, "reader-not-configured", "No reader configured"),
    ProblemKind(GraphmemError, 500, "graphmem-error", "graphmem error"),
)
_BY_TYPE = {k.type: k for k in PROBLEM_KINDS}
INTERNAL = ProblemKind(GraphmemError, 500, "internal", "Internal server error")
UNEXPECTED = "an unexpected error occurred; the service log has the details"


def problem_kind(exc: BaseException) -> ProblemKind:
    """The table row for an exception raised by the core (``INTERNAL`` for anything else)."""
    for kind in PROBLEM_KINDS:
        if kind.error is not ServiceError and isinstance(exc, kind.error):
            return kind
    return INTERNAL


def kind_named(slug: str) -> ProblemKind:
    return _BY_TYPE[PROBLEM_PREFIX + slug]


class ProblemException(Exception):
    """A service-only condition (namespace busy, no reader) with its table row.

    ``headers`` go on the response (e.g. ``Retry-After``).
    """

    def __init__(
        self, kind: ProblemKind, detail: str, headers: Mapping[str, str] | None = None
    ) -> None:
        super().__init__(detail)
        self.kind, self.detail, self.headers = kind, detail, dict(headers or {})


def problem_body(
    status: int,
    detail: str | None,
    *,
    type_: str = "about:blank",
    title: str | None = None,
    instance: str | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """RFC 7807 problem JSON: ``type``, ``title``, ``status``, ``detail`` (and more)."""
    body: dict[str, Any] = {
        "type": type_,
        "title": title or HTTPStatus(status).phrase,
        "status": status,
        "detail": detail,
    }
    if instance:
        body["instance"] = instance
    return body | extra


def problem_for(exc: BaseException, instance: str | None = None) -> dict[str, Any]:
    """The problem JSON for an exception: its table row, or a 500 that says nothing more
    (an unexpected exception's message can leak internals; the log has it)."""
    if isinstance(exc, ProblemException):
        kind, detail = exc.kind, exc.detail
    elif isinstance(exc, GraphmemError):
        kind, detail = problem_kind(exc), str(exc)
    else:
        return problem_body(500, UNEXPECTED, instance=instance)
    return problem_body(kind.status, detail, type_=kind.type, title=kind.title, instance=instance)


def error_from_problem(status: int | None, problem: Mapping[str, Any] | None) -> GraphmemError:
    """The exception a client raises for a problem response: the core's class when typed.

    Every returned exception carries ``status`` and ``problem`` attributes.
    """
    problem = dict(problem or {})
    detail = str(problem.get("detail") or problem.get("title") or f"HTTP {status}")
    kind = _BY_TYPE.get(str(problem.get("type", "")))
    if kind is None or kind.error in (ServiceError, GraphmemError):
        return ServiceError(detail, status=status, problem=problem)
    exc = kind.error(detail)
    # The core's classes declare no such attributes; set them as ServiceError has them.
    vars(exc).update(status=status, problem=problem)
    return exc


# -- jobs ------------------------------------------------------------------------------
JobStatus = Literal["queued", "running", "done", "failed"]


@dataclass(frozen=True)
class Job:
    """A background ingest: its report when done, its problem JSON when failed."""

    id: str
    namespace: str
    records: int
    submitted_at: str
    status: JobStatus = "queued"
    started_at: str | None = None
    finished_at: str | None = None
    report: IngestReport | None = None
    error: dict[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        out = {f.name: getattr(self, f.name) for f in fields(self)}
        out["report"] = self.report.to_dict() if self.report is not None else None
        return out

    @classmethod
    def from_dict(cls, data: Any) -> Job:
        """Read ``to_dict``'s form back (fields a newer server adds are ignored)."""
        report = data.get("report")
        return cls(
            id=data["id"],
            namespace=data["namespace"],
            records=int(data["records"]),
            submitted_at=data["submitted_at"],
            status=data["status"],
            started_at=data.get("started_at"),
            finished_at=data.get("finished_at"),
            report=IngestReport.from_dict(report) if report is not None else None,
            error=data.get("error"),
        )


# -- blocks ----------------------------------------------------------------------------
def _record_to_dict(r: ActiveRecord) -> dict[str, Any]:
    return {
        "pos": r.pos,
        "record_id": r.record_id,
        "text": r.text,
        "observed_at": r.observed_at,
        "participants": list(r.participants),
        "speaker": r.speaker,
        "facts": [list(f) for f in r.facts],
        "keyed": r.keyed,
    }


def _record_from_dict(d: Any) -> ActiveRecord:
    facts = tuple((str(s), str(rel), str(v)) for s, rel, v in d.get("facts") or ())
    return ActiveRecord(
        pos=int(d["pos"]),
        record_id=d["record_id"],
        text=d["text"],
        observed_at=d.get("observed_at"),
        participants=tuple(d.get("participants") or ()),
        speaker=d.get("speaker"),
        facts=facts,
        keyed=bool(d.get("keyed", False)),
    )


def block_to_dict(block: Block) -> dict[str, Any]:
    """``Block`` as JSON."""
    return {
        "text": block.text,
        "lines": [
            {"text": ln.render(), "score": ln.score, "record": _record_to_dict(ln.record)}
            for ln in block.lines
        ],
        "abstained": block.abstained,
        "fell_back": block.fell_back,
        "reason": block.reason,
        "slot": block.slot,
        "posterior": dict(block.posterior),
        "latency_ms": block.latency_ms,
        "served": block.served,
        "snapshot_age_ms": block.snapshot_age_ms,
    }


def block_from_dict(d: Any) -> Block:
    """The ``Block`` that ``block_to_dict`` wrote (fields a newer server adds are ignored)."""
    lines = [
        BlockLine(_record_from_dict(ln["record"]), float(ln["score"]))
        for ln in d.get("lines") or ()
    ]
    return Block(
        text=d["text"],
        lines=lines,
        abstained=bool(d.get("abstained", False)),
        fell_back=bool(d.get("fell_back", False)),
        reason=d.get("reason", ""),
        slot=d.get("slot"),
        posterior={str(k): float(v) for k, v in (d.get("posterior") or {}).items()},
        latency_ms=float(d.get("latency_ms", 0.0)),
        served=str(d.get("served", "snapshot")),
        snapshot_age_ms=float(d.get("snapshot_age_ms", 0.0)),
    )


# -- records ---------------------------------------------------------------------------
def _fact_json(f: Fact | Mapping[str, Any]) -> dict[str, Any]:
    if isinstance(f, Fact):
        return {
            "subject": f.subject,
            "relation": f.relation,
            "value": f.value,
            "intent": str(f.intent),
        }
    return dict(f)


def record_json(r: Record | Mapping[str, Any]) -> dict[str, Any]:
    """A ``Record`` (or a record mapping with ``Fact`` objects) as the JSON the service takes."""
    if isinstance(r, Record):
        out: dict[str, Any] = {
            "text": r.text,
            "id": r.id,
            "pos": r.pos,
            "speaker": r.speaker,
            "participants": list(r.participants) or None,
            "observed_at": r.observed_at,
            "stated_at": r.stated_at,
            "source": r.source,
            "authority": int(r.authority),
            "facts": None if r.facts is None else [_fact_json(f) for f in r.facts],
        }
        return {k: v for k, v in out.items() if v is not None}
    out = dict(r)
    if isinstance(out.get("facts"), list | tuple):
        out["facts"] = [_fact_json(f) for f in out["facts"]]
    if isinstance(out.get("participants"), tuple):
        out["participants"] = list(out["participants"])
    return out


# -- bodies ----------------------------------------------------------------------------
def _unicode(value: str) -> str:
    """JSON may escape lone surrogates (``"\\ud800"``); Neo4j cannot store them."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise ValueError("contains a lone UTF-16 surrogate: not valid Unicode text") from None
    return value


Text = Annotated[str, AfterValidator(_unicode)]
# JSON has its own types: "7" is not a number and true is not 1 (the CLI and Python
# refuse both too).
Int = Annotated[int, Strict()]
Float = Annotated[float, Strict()]
Bool = Annotated[bool, Strict()]
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
    pos: Int | None = Field(None, ge=0, le=MAX_GIVEN_POS)
    speaker: Text | None = None
    participants: list[Text] | None = None
    observed_at: Text | None = None
    stated_at: Text | None = None
    source: Text | None = None
    authority: Int | Text | None = Field(
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
    authority: Int | Text | None = None
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
    authority: Int | Text | None = None


class EvidenceIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    question: Text
    hops: Int = 5
    budget_chars: Int = 60_000
    control: Text = "cmc"


class AnswerIn(EvidenceIn):
    timeout: Float | None = Field(None, gt=0, le=600, description="reader timeout, seconds")


class BlockIn(BaseModel):
    """A memory block request: ``Memory.block``'s arguments. An option left out (or
    ``null``) keeps the service's default (``MemoryConfig.block``); option values are
    checked by ``BlockOptions``, and any other field is refused by it as an unknown
    option (422 invalid-input, the message ``Memory.block`` gives)."""

    model_config = ConfigDict(extra="allow")
    request: Text = Field(description="the unfinished message the block is for")
    partner: Text = Field("", description="who the message is to")
    now: Text | None = Field(None, description="ISO-8601; default: the current time")
    deadline_ms: Float | None = Field(None, description="fresh reads wait at most this")
    fresh: Bool | None = Field(None, description="read Neo4j now, not the snapshot")
    identity: Text | None = Field(None, description=" | ".join(get_args(Identity)))
    gate: Text | None = Field(None, description=" | ".join(get_args(Gate)))
    k: Int | None = Field(None, description="at most this many lines")
    max_chars: Int | None = Field(None, description="at most this many characters")
    tau: Float | None = None
    margin: Float | None = None

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
