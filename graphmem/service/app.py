"""The REST service: FastAPI routes over ``graphmem.Memory``, nothing more.

Every route authenticates, validates the namespace with graphmem's own rule, calls one
``Memory`` method and returns its result as JSON. The service adds only what HTTP needs:
API keys, a request-size limit, problem JSON, background jobs for large ingests, and one
lock per namespace, because ``Memory`` writes read-then-write and assume a single writer
(within this process; run one worker per database, or several on disjoint namespaces).

    from graphmem.service import Settings, create_app
    app = create_app(Settings.from_env())      # uvicorn graphmem.service.app:app_from_env
"""

from __future__ import annotations

import json
import logging
import os
import socket
import threading
import time
import uuid
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable, Iterator, Mapping
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager, contextmanager
from dataclasses import asdict, dataclass, field, replace
from http import HTTPStatus
from typing import Annotated, Any, Literal

import uvicorn
from fastapi import Depends, FastAPI, Query, Request
from fastapi import Path as PathParam
from fastapi.exceptions import RequestValidationError
from fastapi.openapi.utils import get_openapi
from fastapi.responses import JSONResponse, Response
from fastapi.security import APIKeyHeader, HTTPAuthorizationCredentials, HTTPBearer
from neo4j.exceptions import ServiceUnavailable, SessionExpired
from pydantic import AfterValidator, BaseModel, ConfigDict, Field
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from graphmem import __version__
from graphmem._errors import GraphmemError, NotFoundError, StoreUnavailableError
from graphmem.domain.evidence import Evidence
from graphmem.domain.keys import RelationRegistry
from graphmem.domain.model import utc_now_iso
from graphmem.llm.base import LLMClient
from graphmem.llm.ollama import DEFAULT_MODEL, OllamaClient
from graphmem.memory import IngestReport, Memory, validate_namespace
from graphmem.service import PROBLEM_JSON, ProblemKind, kind_named, problem_kind
from graphmem.service.auth import KeyRing, KeySpec, parse_api_keys
from graphmem.store.neo4j.store import Neo4jStore

__all__ = ["ServiceThread", "Settings", "app_from_env", "create_app"]

log = logging.getLogger("graphmem.service")

MB = 1024 * 1024


# -- settings --------------------------------------------------------------------------
@dataclass(frozen=True)
class Settings:
    """What the service needs: where Neo4j is, who may call, and a few limits.

    ``api_keys`` maps each key to the namespaces it may touch (``"*"``: any); with no
    keys every ``/v1`` request is refused. ``registry`` builds the relation registry of a
    namespace (set-valued or strict relations); ``reader_url`` enables ``POST answer``.
    """

    neo4j_uri: str = "bolt://127.0.0.1:7687"
    neo4j_auth: tuple[str, str] | None = None
    neo4j_database: str | None = None
    neo4j_http_url: str | None = None  # Neo4j Browser, for ``why``'s browser_url
    api_keys: Mapping[str, KeySpec] = field(default_factory=dict)
    max_request_bytes: int = 10 * MB
    async_ingest_threshold: int = 2000  # more records than this: a background job (202)
    reader_url: str | None = None
    reader_model: str = DEFAULT_MODEL
    reader_timeout: float = 120.0
    registry: Callable[[str], RelationRegistry] | None = None
    write_wait_seconds: float = 30.0  # then 503 namespace-busy (e.g. behind a long job)
    max_cached_namespaces: int = 256
    install_schema: bool = True

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None, **overrides: Any) -> Settings:
        """``NEO4J_URI``, ``NEO4J_USER``/``NEO4J_PASSWORD``, ``GRAPHMEM_API_KEYS`` (JSON),
        ``GRAPHMEM_MAX_REQUEST_BYTES``, ``GRAPHMEM_READER_URL``, ``GRAPHMEM_READER_MODEL``,
        ``GRAPHMEM_NEO4J_HTTP``; keyword overrides win."""
        env = os.environ if environ is None else environ
        values: dict[str, Any] = {}
        if env.get("NEO4J_URI"):
            values["neo4j_uri"] = env["NEO4J_URI"]
        if env.get("NEO4J_USER"):
            values["neo4j_auth"] = (env["NEO4J_USER"], env.get("NEO4J_PASSWORD", ""))
        if env.get("NEO4J_DATABASE"):
            values["neo4j_database"] = env["NEO4J_DATABASE"]
        if env.get("GRAPHMEM_NEO4J_HTTP"):
            values["neo4j_http_url"] = env["GRAPHMEM_NEO4J_HTTP"]
        if env.get("GRAPHMEM_API_KEYS"):
            values["api_keys"] = parse_api_keys(env["GRAPHMEM_API_KEYS"])
        if env.get("GRAPHMEM_MAX_REQUEST_BYTES"):
            values["max_request_bytes"] = int(env["GRAPHMEM_MAX_REQUEST_BYTES"])
        if env.get("GRAPHMEM_READER_URL"):
            values["reader_url"] = env["GRAPHMEM_READER_URL"]
        if env.get("GRAPHMEM_READER_MODEL"):
            values["reader_model"] = env["GRAPHMEM_READER_MODEL"]
        return replace(cls(**values), **overrides)


# -- request and response bodies ------------------------------------------------------
def _unicode(value: str) -> str:
    """JSON may escape lone surrogates (``"\\ud800"``); Neo4j cannot store them."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise ValueError("contains a lone UTF-16 surrogate: not valid Unicode text") from None
    return value


Text = Annotated[str, AfterValidator(_unicode)]
IntentName = Literal["assert", "update", "correct", "revoke", "confirm"]
INT64_MAX = 2**63 - 1


class FactIn(BaseModel):
    """A pre-extracted fact; extra fields go on to ``Memory.ingest``, which reports them."""

    model_config = ConfigDict(extra="allow")
    subject: Text
    relation: Text
    value: Text
    intent: IntentName = "assert"


class RecordIn(BaseModel):
    """One record, in the shape ``Memory.ingest`` takes. Semantic problems (bad dates,
    unknown fields, over-long text) are reported per record in the report's ``errors``."""

    model_config = ConfigDict(extra="allow")
    text: Text
    id: Text | None = None
    pos: int | None = Field(None, ge=0, le=INT64_MAX)
    speaker: Text | None = None
    participants: list[Text] | None = None
    observed_at: Text | None = None
    stated_at: Text | None = None
    source: Text | None = None
    authority: int | Text | None = Field(
        None, description="hearsay, first_person, official, system (or 0-2)")
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


JobStatus = Literal["queued", "running", "done", "failed"]


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


def evidence_dict(ev: Evidence) -> dict[str, Any]:
    """``Evidence`` as JSON (``chars`` included, it is a property)."""
    return {
        "text": ev.text, "records": [asdict(r) for r in ev.records], "anchors": ev.anchors,
        "keys": ev.keys, "fallback": ev.fallback, "control": ev.control, "hops": ev.hops,
        "truncated": ev.truncated, "stats": ev.stats, "chars": ev.chars,
    }


# -- problems -------------------------------------------------------------------------
class ProblemException(Exception):
    """A service-only condition (namespace busy, no reader) with its table row."""

    def __init__(self, kind: ProblemKind, detail: str, headers: dict[str, str] | None = None):
        super().__init__(detail)
        self.kind, self.detail, self.headers = kind, detail, headers or {}


def problem_body(status: int, detail: str | None, *, type_: str = "about:blank",
                 title: str | None = None, instance: str | None = None,
                 **extra: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "type": type_, "title": title or HTTPStatus(status).phrase, "status": status,
        "detail": detail,
    }
    if instance:
        body["instance"] = instance
    return body | extra


def problem_response(status: int, detail: str | None, *, headers: Mapping[str, str] | None = None,
                     **kw: Any) -> JSONResponse:
    return JSONResponse(problem_body(status, detail, **kw), status_code=status,
                        headers=dict(headers or {}), media_type=PROBLEM_JSON)


def kind_response(kind: ProblemKind, detail: str, request: Request,
                  headers: Mapping[str, str] | None = None) -> JSONResponse:
    return problem_response(kind.status, detail, type_=kind.type, title=kind.title,
                            instance=request.url.path, headers=headers)


def _error_fields(exc: RequestValidationError) -> list[dict[str, Any]]:
    """Pydantic's errors without the offending input (it may be large or sensitive)."""
    return [{"loc": list(e.get("loc", ())), "msg": e.get("msg", ""), "type": e.get("type", "")}
            for e in exc.errors()]


def _install_error_handlers(app: FastAPI) -> None:
    async def on_graphmem(request: Request, exc: Exception) -> Response:
        return kind_response(problem_kind(exc), str(exc), request)

    async def on_problem(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, ProblemException)
        return kind_response(exc.kind, exc.detail, request, exc.headers)

    async def on_neo4j_down(request: Request, exc: Exception) -> Response:
        kind = problem_kind(StoreUnavailableError())
        return kind_response(kind, "Neo4j could not be reached; retry later", request,
                             {"Retry-After": "5"})

    async def on_validation(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, RequestValidationError)
        errors = _error_fields(exc)
        bad_json = [e for e in exc.errors() if e.get("type") == "json_invalid"]
        if bad_json:
            ctx = bad_json[0].get("ctx") or {}
            loc = bad_json[0].get("loc", ())
            at = f" at position {loc[-1]}" if loc else ""
            return problem_response(
                400, f"the request body is not valid JSON: {ctx.get('error', '')}{at}",
                instance=request.url.path)
        detail = "; ".join(
            f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}" for e in errors[:5])
        kind = kind_named("invalid-input")
        return problem_response(kind.status, detail, type_=kind.type, title=kind.title,
                                instance=request.url.path, errors=errors)

    async def on_http(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, HTTPException)
        return problem_response(exc.status_code, str(exc.detail), headers=exc.headers,
                                instance=request.url.path)

    async def on_unexpected(request: Request, exc: Exception) -> Response:
        # No message, no traceback in the body: both can leak internals. The log has them.
        return problem_response(500, "an unexpected error occurred; the service log has "
                                "the details", instance=request.url.path)

    app.add_exception_handler(GraphmemError, on_graphmem)
    app.add_exception_handler(ProblemException, on_problem)
    app.add_exception_handler(ServiceUnavailable, on_neo4j_down)
    app.add_exception_handler(SessionExpired, on_neo4j_down)
    app.add_exception_handler(RequestValidationError, on_validation)
    app.add_exception_handler(HTTPException, on_http)
    app.add_exception_handler(Exception, on_unexpected)


# -- the request-size limit -------------------------------------------------------------
class BodyLimit:
    """413 for a body over ``max_bytes``, before anything parses it.

    A declared Content-Length over the limit is refused without reading; otherwise the
    body is read and counted (chunked uploads declare no length), then replayed to the app.
    """

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app, self.max_bytes = app, max_bytes

    async def _refuse(self, scope: Scope, send: Send, status: int, detail: str) -> None:
        body = json.dumps(problem_body(status, detail, instance=scope.get("path"))).encode()
        await send({"type": "http.response.start", "status": status, "headers": [
            (b"content-type", PROBLEM_JSON.encode()),
            (b"content-length", str(len(body)).encode()), (b"connection", b"close")]})
        await send({"type": "http.response.body", "body": body})

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        too_big = f"the request body is larger than {self.max_bytes:,} bytes"
        for name, value in scope.get("headers", ()):
            if name == b"content-length":
                try:
                    declared = int(value)
                except ValueError:
                    await self._refuse(scope, send, 400, "Content-Length is not a number")
                    return
                if declared > self.max_bytes:
                    await self._refuse(scope, send, 413, too_big)
                    return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_bytes:
                await self._refuse(scope, send, 413, too_big)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": b"".join(chunks), "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


# -- state: one store, one Memory per namespace, locks, jobs ---------------------------------
@dataclass
class Job:
    """A background ingest. Kept in memory: a restart forgets jobs (not their data)."""

    id: str
    namespace: str
    records: int
    submitted_at: str
    status: JobStatus = "queued"
    started_at: str | None = None
    finished_at: str | None = None
    report: dict[str, Any] | None = None
    error: dict[str, Any] | None = None


class Jobs:
    """Runs large ingests on a small thread pool and remembers the latest results."""

    def __init__(self, workers: int = 2, keep: int = 1000) -> None:
        self._workers = workers
        self._pool: ThreadPoolExecutor | None = None
        self._jobs: OrderedDict[str, Job] = OrderedDict()
        self._lock = threading.Lock()
        self._keep = keep

    def _executor(self) -> ThreadPoolExecutor:
        """Started on first use, so an app restarted after a shutdown still runs jobs."""
        with self._lock:
            if self._pool is None:
                self._pool = ThreadPoolExecutor(max_workers=self._workers,
                                                thread_name_prefix="graphmem-job")
            return self._pool

    def submit(self, namespace: str, records: int, work: Callable[[], IngestReport]) -> Job:
        job = Job(uuid.uuid4().hex, namespace, records, utc_now_iso())
        with self._lock:
            self._jobs[job.id] = job
            while len(self._jobs) > self._keep:
                oldest = next(iter(self._jobs.values()))
                if oldest.status in ("queued", "running"):
                    break
                self._jobs.popitem(last=False)
        self._executor().submit(self._run, job, work)
        return job

    def _run(self, job: Job, work: Callable[[], IngestReport]) -> None:
        with self._lock:
            job.status, job.started_at = "running", utc_now_iso()
        try:
            report = work().to_dict()
        except Exception as exc:
            log.exception("ingest job %s in %s failed", job.id, job.namespace)
            if isinstance(exc, GraphmemError | ProblemException):
                kind = exc.kind if isinstance(exc, ProblemException) else problem_kind(exc)
                error = problem_body(kind.status, str(exc), type_=kind.type, title=kind.title)
            else:
                error = problem_body(500, "an unexpected error occurred; see the service log")
            with self._lock:
                job.status, job.error, job.finished_at = "failed", error, utc_now_iso()
            return
        with self._lock:
            job.status, job.report, job.finished_at = "done", report, utc_now_iso()

    def get(self, namespace: str, job_id: str) -> dict[str, Any]:
        with self._lock:
            job = self._jobs.get(job_id)
            if job is None or job.namespace != namespace:
                raise NotFoundError(f"no job {job_id!r} in namespace {namespace!r}")
            return asdict(job)

    def close(self) -> None:
        """Wait for running jobs; queued ones are dropped (their records were not written)."""
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)


class Service:
    """The shared state behind the routes; every Neo4j call goes through ``Memory``."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.keys = KeyRing(parse_api_keys(settings.api_keys))
        self.jobs = Jobs()
        self._store: Neo4jStore | None = None
        self._store_lock = threading.Lock()
        self._memories: OrderedDict[str, Memory] = OrderedDict()
        self._write_locks: dict[str, threading.Lock] = {}
        self._lock = threading.Lock()
        self._reader: OllamaClient | None = None
        if not self.keys:
            log.warning("no API keys configured (GRAPHMEM_API_KEYS): every /v1 request "
                        "will be refused with 401")

    def store(self) -> Neo4jStore:
        """Connect on first use (so the service starts, and says so, while Neo4j is down)."""
        with self._store_lock:
            if self._store is None:
                s = self.settings
                store = Neo4jStore.connect(s.neo4j_uri, auth=s.neo4j_auth,
                                           database=s.neo4j_database)
                try:
                    if s.install_schema:
                        store.install_schema()
                except Exception:
                    store.close()
                    raise
                self._store = store
            return self._store

    def memory(self, namespace: str) -> Memory:
        """The namespace's ``Memory`` (cached, all sharing one driver)."""
        store = self.store()
        with self._lock:
            mem = self._memories.get(namespace)
            if mem is None:
                factory = self.settings.registry
                mem = Memory(store, namespace, http_url=self.settings.neo4j_http_url,
                             registry=factory(namespace) if factory else None)
                self._memories[namespace] = mem
                while len(self._memories) > self.settings.max_cached_namespaces:
                    self._memories.popitem(last=False)
            self._memories.move_to_end(namespace)
            return mem

    @contextmanager
    def writing(self, namespace: str, *, patient: bool = False) -> Iterator[None]:
        """One writer per namespace at a time in this process.

        Correctness does not depend on it: every write transaction takes the namespace's
        lock in Neo4j, so writers in several processes stay serialized. This lock bounds
        how long a request waits behind another write here (``write_wait_seconds``, then a
        503 with Retry-After) instead of piling up threads; a ``patient`` background job
        waits as long as it takes.
        """
        with self._lock:
            lock = self._write_locks.setdefault(namespace, threading.Lock())
        timeout = -1 if patient else self.settings.write_wait_seconds
        if not lock.acquire(timeout=timeout):
            raise ProblemException(
                kind_named("namespace-busy"),
                f"namespace {namespace!r} is busy with another write (e.g. a background "
                "ingest); retry later", {"Retry-After": "5"})
        try:
            yield
        finally:
            lock.release()

    def reader(self) -> LLMClient:
        if self.settings.reader_url is None:
            raise ProblemException(
                kind_named("reader-not-configured"),
                "no reader LLM is configured: start the service with GRAPHMEM_READER_URL "
                "(an Ollama base URL)")
        with self._lock:
            if self._reader is None:
                self._reader = OllamaClient(self.settings.reader_url,
                                            model=self.settings.reader_model,
                                            timeout=self.settings.reader_timeout)
            return self._reader

    def check_health(self) -> None:
        """Raise StoreUnavailableError unless Neo4j answers. The detail stays generic: the
        endpoint needs no key, so it must not tell strangers where the database is."""
        try:
            self.store().driver.verify_connectivity()
        except Exception as exc:
            log.warning("health check: Neo4j is not reachable: %s", exc)
            raise StoreUnavailableError(
                "Neo4j is not reachable; the service log has the details") from exc

    def close(self) -> None:
        self.jobs.close()
        with self._lock:
            self._memories.clear()  # they hold the store closed below
        with self._store_lock:
            if self._store is not None:
                self._store.close()
                self._store = None
        if self._reader is not None:
            self._reader.close()


# -- the app ----------------------------------------------------------------------------------
_bearer = HTTPBearer(auto_error=False, description="Authorization: Bearer KEY")
_api_key = APIKeyHeader(name="X-API-Key", auto_error=False, description="X-API-Key: KEY")

_NS = PathParam(description="whose memory: 1-64 letters, digits, '_', '.' or '-'")
BearerKey = Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)]
HeaderKey = Annotated[str | None, Depends(_api_key)]


def _responses(*codes: int) -> dict[int | str, dict[str, Any]]:
    why = {
        400: "Malformed body (not JSON, not UTF-8)", 401: "No valid API key",
        403: "The key may not use this namespace", 404: "Not found",
        409: "Impossible in the key's current state", 413: "Request body too large",
        422: "Invalid input", 500: "Unexpected error", 502: "The reader LLM failed",
        503: "Neo4j unreachable, namespace busy, or no reader configured",
    }
    return {c: {"model": Problem, "description": why[c]} for c in codes}


_COMMON = (401, 403, 422, 500, 503)


def create_app(settings: Settings | None = None) -> FastAPI:
    """The FastAPI app for ``settings`` (default: ``Settings.from_env()``)."""
    settings = settings or Settings.from_env()
    svc = Service(settings)

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        yield
        svc.close()

    app = FastAPI(
        title="graphmem", version=__version__, lifespan=lifespan,
        description="Agent memory in Neo4j: current values decided at write time, every "
        "value with its evidence and what it replaced. Authenticate with "
        "`Authorization: Bearer KEY` or `X-API-Key: KEY`. Errors are RFC 7807 problem JSON.",
    )
    app.state.graphmem = svc
    app.add_middleware(BodyLimit, max_bytes=settings.max_request_bytes)
    _install_error_handlers(app)

    def authorize(
        bearer: BearerKey, api_key: HeaderKey, namespace: str = _NS
    ) -> str:
        """401 without a valid key, 422 for an invalid name, 403 for another's namespace."""
        scope = svc.keys.scope(bearer.credentials if bearer else api_key)
        if scope is None:
            raise HTTPException(401, "a valid API key is required: send 'Authorization: "
                                "Bearer KEY' or 'X-API-Key: KEY'",
                                headers={"WWW-Authenticate": "Bearer"})
        validate_namespace(namespace)
        if not KeyRing.allows(scope, namespace):
            raise HTTPException(403, f"this API key may not use namespace {namespace!r}")
        return namespace

    v1 = "/v1/{namespace}"

    @app.get("/healthz", tags=["service"], response_model=HealthOut, operation_id="healthz",
             responses=_responses(503))
    def healthz() -> dict[str, Any]:
        """Is Neo4j reachable? 200 when it is, 503 (problem JSON) when not. No key needed."""
        svc.check_health()
        return {"status": "ok", "neo4j": "reachable", "version": __version__}

    @app.post(v1 + "/records", tags=["write"], response_model=IngestReportOut,
              operation_id="ingest",
              responses={202: {"model": JobOut, "description": "Accepted as a background "
                               "job; poll the Location"}, **_responses(*_COMMON, 413)})
    def ingest(body: IngestIn, ns: str = Depends(authorize)) -> dict[str, Any] | Response:
        """Store records and apply their facts (``Memory.ingest``).

        More than the threshold (2,000 records by default): 202 with
        ``Location: /v1/{namespace}/jobs/{id}``.
        """
        records = [r.model_dump(exclude_unset=True) for r in body.records]
        mem = svc.memory(ns)

        def work(patient: bool = False) -> IngestReport:
            with svc.writing(ns, patient=patient):
                return mem.ingest(records)

        if len(records) > settings.async_ingest_threshold:
            job = svc.jobs.submit(ns, len(records), lambda: work(patient=True))
            location = f"/v1/{ns}/jobs/{job.id}"
            return JSONResponse(svc.jobs.get(ns, job.id), status_code=202,
                                headers={"Location": location})
        return work().to_dict()

    @app.get(v1 + "/jobs/{job_id}", tags=["write"], response_model=JobOut,
             operation_id="job", responses=_responses(*_COMMON, 404))
    def job(job_id: str, ns: str = Depends(authorize)) -> dict[str, Any]:
        """A background ingest: queued, running, done (with its report) or failed."""
        return svc.jobs.get(ns, job_id)

    @app.post(v1 + "/remember", tags=["write"], response_model=WriteResultOut,
              operation_id="remember", responses=_responses(*_COMMON, 409, 413))
    def remember(body: RememberIn, ns: str = Depends(authorize)) -> dict[str, Any]:
        """Store one fact with its record (``Memory.remember``)."""
        mem = svc.memory(ns)
        with svc.writing(ns):
            return asdict(mem.remember(**body.model_dump()))

    @app.post(v1 + "/revoke", tags=["write"], response_model=WriteResultOut,
              operation_id="revoke", responses=_responses(*_COMMON, 409, 413))
    def revoke(body: RevokeIn, ns: str = Depends(authorize)) -> dict[str, Any]:
        """Take back the current value; the previous one comes back (409: nothing to revoke)."""
        mem = svc.memory(ns)
        with svc.writing(ns):
            return asdict(mem.revoke(**body.model_dump()))

    @app.post(v1 + "/resolve", tags=["write"], response_model=WriteResultOut,
              operation_id="resolve", responses=_responses(*_COMMON, 409, 413))
    def resolve(body: ResolveIn, ns: str = Depends(authorize)) -> dict[str, Any]:
        """Settle a contested key (409 when it is not contested)."""
        mem = svc.memory(ns)
        with svc.writing(ns):
            return asdict(mem.resolve(**body.model_dump()))

    @app.delete(v1 + "/records/{record_id:path}", tags=["write"], response_model=EraseReportOut,
                operation_id="erase", responses=_responses(*_COMMON, 404))
    def erase(record_id: str, ns: str = Depends(authorize)) -> dict[str, Any]:
        """Erase a record, its text and every value only it supported (``Memory.erase``)."""
        mem = svc.memory(ns)
        with svc.writing(ns):
            return asdict(mem.erase(record_id))

    @app.post(v1 + "/evidence", tags=["read"], response_model=EvidenceOut,
              operation_id="evidence", responses=_responses(*_COMMON, 413))
    def evidence(body: EvidenceIn, ns: str = Depends(authorize)) -> dict[str, Any]:
        """The original records a reader needs to answer the question (``Memory.evidence``)."""
        ev = svc.memory(ns).evidence(body.question, hops=body.hops,
                                     budget_chars=body.budget_chars, control=body.control)
        return evidence_dict(ev)

    @app.post(v1 + "/answer", tags=["read"], response_model=AnswerOut, operation_id="answer",
              responses=_responses(*_COMMON, 413, 502))
    def answer(body: AnswerIn, ns: str = Depends(authorize)) -> dict[str, Any]:
        """Evidence, then one call to the configured reader LLM (503 when none is)."""
        reader = svc.reader()
        ans = svc.memory(ns).answer(body.question, reader, hops=body.hops,
                                    budget_chars=body.budget_chars, control=body.control,
                                    timeout=body.timeout)
        return {"text": ans.text, "first_line": ans.first_line,
                "evidence": evidence_dict(ans.evidence)}

    @app.get(v1 + "/why", tags=["read"], response_model=ExplanationOut, operation_id="why",
             responses=_responses(*_COMMON))
    def why(subject: str = Query(...), relation: str = Query(...),
            ns: str = Depends(authorize)) -> dict[str, Any]:
        """Why do you remember this? Value, evidence, what it replaced, the Cypher query."""
        return svc.memory(ns).why(subject, relation).to_dict()

    @app.get(v1 + "/history", tags=["read"], response_model=HistoryOut,
             operation_id="history", responses=_responses(*_COMMON))
    def history(subject: str = Query(...), relation: str = Query(...),
                ns: str = Depends(authorize)) -> dict[str, Any]:
        """The op log of one key, oldest first."""
        ops = svc.memory(ns).history(subject, relation)
        return {"subject": subject, "relation": relation, "operations": ops}

    @app.get(v1 + "/audit/{name}", tags=["read"], response_model=AuditOut,
             operation_id="audit", responses=_responses(*_COMMON, 404))
    def audit(name: str, ns: str = Depends(authorize)) -> dict[str, Any]:
        """A named read-only audit query (two_heads, contested_keys, heads, …); 404 otherwise."""
        return {"name": name, "rows": svc.memory(ns).audit(name)}

    def openapi() -> dict[str, Any]:
        """FastAPI's schema, with error responses declared as application/problem+json."""
        if app.openapi_schema is None:
            schema = get_openapi(title=app.title, version=app.version,
                                 description=app.description, routes=app.routes)
            for item in schema.get("paths", {}).values():
                for op in item.values():
                    for code, resp in op.get("responses", {}).items():
                        content = resp.get("content", {})
                        if code[:1] in ("4", "5") and "application/json" in content:
                            resp["content"] = {PROBLEM_JSON: content["application/json"]}
            app.openapi_schema = schema
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]
    return app


def app_from_env() -> FastAPI:
    """For ``uvicorn --factory graphmem.service.app:app_from_env``."""
    return create_app(Settings.from_env())


# -- running it in a thread (tests, notebooks) ------------------------------------------------
class ServiceThread:
    """uvicorn serving ``app`` on 127.0.0.1 (a free port) in a background thread."""

    def __init__(self, app: ASGIApp, host: str = "127.0.0.1", port: int = 0,
                 log_level: str = "warning") -> None:
        self._sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self._sock.bind((host, port))
        self.host, self.port = self._sock.getsockname()[:2]
        config = uvicorn.Config(app, log_level=log_level, lifespan="on")
        self.server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self._sock]},
                                        name="graphmem-service", daemon=True)

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    def start(self, timeout: float = 15.0) -> ServiceThread:
        self._thread.start()
        deadline = time.monotonic() + timeout
        while not self.server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the service did not start")
            time.sleep(0.02)
        return self

    def stop(self) -> None:
        self.server.should_exit = True
        self._thread.join(timeout=30)
        self._sock.close()

    def __enter__(self) -> ServiceThread:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
