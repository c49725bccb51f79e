"""The routes: ``/healthz`` and ``/v1/{namespace}/…``, each one ``Memory`` call.

A route authenticates (``authorize``), turns its body into ``Memory``'s arguments, calls
one method of the namespace's ``Memory`` (under the namespace's write lock when it
writes) and returns the result's one JSON form. Errors are raised, never built here:
``graphmem.service.problems`` turns them into problem JSON.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Query, Request
from fastapi import Path as PathParam
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.security import APIKeyHeader, HTTPAuthorizationCredentials, HTTPBearer
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException

from graphmem import __version__
from graphmem._names import validate_namespace
from graphmem.browser import guide_html
from graphmem.domain.model import OFFSET_MAX, PAGE_MAX
from graphmem.results import IngestReport, evidence_to_dict
from graphmem.service.state import Service
from graphmem.wire import (
    AnswerIn,
    AnswerOut,
    AsOfOut,
    AuditOut,
    BlockIn,
    BlockOut,
    EraseReportOut,
    EvidenceIn,
    EvidenceOut,
    ExplanationOut,
    HealthOut,
    HistoryOut,
    IngestIn,
    IngestReportOut,
    JobOut,
    Problem,
    RememberIn,
    ResolveIn,
    RevokeIn,
    StateOut,
    WriteResultOut,
    block_to_dict,
)

__all__ = ["router"]

router = APIRouter()
V1 = "/v1/{namespace}"


# -- dependencies --------------------------------------------------------------------------
# Dependencies are coroutines: FastAPI runs a plain function in its thread pool, a hop
# that costs more than the check itself.
async def get_service(request: Request) -> Service:
    svc = request.app.state.graphmem
    assert isinstance(svc, Service)
    return svc


_bearer = HTTPBearer(auto_error=False, description="Authorization: Bearer KEY")
_api_key = APIKeyHeader(name="X-API-Key", auto_error=False, description="X-API-Key: KEY")

Svc = Annotated[Service, Depends(get_service)]
BearerKey = Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)]
HeaderKey = Annotated[str | None, Depends(_api_key)]
NamespacePath = Annotated[
    str, PathParam(description="whose memory: 1-64 letters, digits, '_', '.' or '-'")
]


async def authorize(
    svc: Svc, bearer: BearerKey, api_key: HeaderKey, namespace: NamespacePath
) -> str:
    """401 without a valid key, 422 for an invalid name, 403 for another's namespace."""
    refusal = svc.keys.refusal(bearer.credentials if bearer else api_key, namespace)
    if refusal is not None:
        raise HTTPException(refusal.status, refusal.detail, headers=dict(refusal.headers))
    return namespace


Ns = Annotated[str, Depends(authorize)]


def _responses(*codes: int) -> dict[int | str, dict[str, Any]]:
    why = {
        400: "Malformed body (not JSON, not UTF-8)",
        401: "No valid API key",
        403: "The key may not use this namespace",
        404: "Not found",
        409: "Impossible in the key's current state",
        413: "Request body too large",
        422: "Invalid input",
        500: "Unexpected error",
        502: "The reader LLM failed",
        503: "Neo4j unreachable, namespace busy, or no reader configured",
    }
    return {c: {"model": Problem, "description": why[c]} for c in codes}


_COMMON = (401, 403, 422, 500, 503)


# -- the service ---------------------------------------------------------------------------
@router.get(
    "/healthz",
    tags=["service"],
    response_model=HealthOut,
    operation_id="healthz",
    responses=_responses(503),
)
def healthz(svc: Svc) -> dict[str, Any]:
    """Is Neo4j reachable? 200 when it is, 503 (problem JSON) when not. No key needed."""
    svc.check_health()
    return {"status": "ok", "neo4j": "reachable", "version": __version__}


@router.get(
    "/browser/guide.html",
    tags=["service"],
    operation_id="browser_guide",
    response_class=HTMLResponse,
    include_in_schema=False,
)
def browser_guide(
    ns: Annotated[str, Query(description="the namespace the queries use")] = "default",
) -> HTMLResponse:
    """The Neo4j Browser guide: ``:play http://HOST:PORT/browser/guide.html?ns=NAME``.
    No key needed: it holds queries, no data. Browser fetches it cross-origin (CORS)."""
    validate_namespace(ns)
    return HTMLResponse(guide_html(ns), headers=_GUIDE_CORS)


# Browser fetches guides with headers that make Chromium ask first (a CORS preflight).
_GUIDE_CORS = {
    "Access-Control-Allow-Origin": "*",
    "Access-Control-Allow-Methods": "GET",
    "Access-Control-Allow-Headers": "*",
    "Access-Control-Max-Age": "600",
}


@router.options("/browser/guide.html", include_in_schema=False)
def browser_guide_preflight() -> Response:
    return Response(status_code=204, headers=_GUIDE_CORS)


# -- writing -------------------------------------------------------------------------------
@router.post(
    V1 + "/records",
    tags=["write"],
    response_model=IngestReportOut,
    operation_id="ingest",
    responses={
        202: {"model": JobOut, "description": "Accepted as a background job; poll the Location"},
        **_responses(*_COMMON, 413),
    },
)
def ingest(body: IngestIn, svc: Svc, ns: Ns) -> dict[str, Any] | Response:
    """Store records and apply their facts (``Memory.ingest``); records without facts go
    through the service's extractor (``GRAPHMEM_EXTRACTOR``; none: kept unresolved).

    More than the threshold (2,000 records by default): 202 with
    ``Location: /v1/{namespace}/jobs/{id}``.
    """
    records = [r.model_dump(exclude_unset=True) for r in body.records]
    mem = svc.memory(ns)

    def work(patient: bool = False) -> IngestReport:
        with svc.writing(ns, patient=patient):
            return mem.ingest(records)

    if len(records) > svc.settings.async_ingest_threshold:
        job = svc.jobs.submit(ns, len(records), lambda: work(patient=True))
        return JSONResponse(
            job.to_dict(), status_code=202, headers={"Location": f"/v1/{ns}/jobs/{job.id}"}
        )
    return work().to_dict()


@router.get(
    V1 + "/jobs/{job_id}",
    tags=["write"],
    response_model=JobOut,
    operation_id="job",
    responses=_responses(*_COMMON, 404),
)
def job(job_id: str, svc: Svc, ns: Ns) -> dict[str, Any]:
    """A background ingest: queued, running, done (with its report) or failed."""
    return svc.jobs.get(ns, job_id).to_dict()


@router.post(
    V1 + "/remember",
    tags=["write"],
    response_model=WriteResultOut,
    operation_id="remember",
    responses=_responses(*_COMMON, 409, 413),
)
def remember(body: RememberIn, svc: Svc, ns: Ns) -> dict[str, Any]:
    """Store one fact with its record (``Memory.remember``)."""
    mem = svc.memory(ns)
    with svc.writing(ns):
        return mem.remember(**body.model_dump()).to_dict()


@router.post(
    V1 + "/revoke",
    tags=["write"],
    response_model=WriteResultOut,
    operation_id="revoke",
    responses=_responses(*_COMMON, 409, 413),
)
def revoke(body: RevokeIn, svc: Svc, ns: Ns) -> dict[str, Any]:
    """Take back the current value; the previous one comes back (409: nothing to revoke)."""
    mem = svc.memory(ns)
    with svc.writing(ns):
        return mem.revoke(**body.model_dump()).to_dict()


@router.post(
    V1 + "/resolve",
    tags=["write"],
    response_model=WriteResultOut,
    operation_id="resolve",
    responses=_responses(*_COMMON, 409, 413),
)
def resolve(body: ResolveIn, svc: Svc, ns: Ns) -> dict[str, Any]:
    """Settle a contested key (409 when it is not contested)."""
    mem = svc.memory(ns)
    with svc.writing(ns):
        return mem.resolve(**body.model_dump()).to_dict()


@router.delete(
    V1 + "/records/{record_id:path}",
    tags=["write"],
    response_model=EraseReportOut,
    operation_id="erase",
    responses=_responses(*_COMMON, 404),
)
def erase(record_id: str, svc: Svc, ns: Ns) -> dict[str, Any]:
    """Erase a record, its text and every value only it supported (``Memory.erase``)."""
    mem = svc.memory(ns)
    with svc.writing(ns):
        return mem.erase(record_id).to_dict()


# -- reading -------------------------------------------------------------------------------
@router.post(
    V1 + "/evidence",
    tags=["read"],
    response_model=EvidenceOut,
    operation_id="evidence",
    responses=_responses(*_COMMON, 413),
)
def evidence(body: EvidenceIn, svc: Svc, ns: Ns) -> dict[str, Any]:
    """The original records a reader needs to answer the question (``Memory.evidence``)."""
    ev = svc.memory(ns).evidence(
        body.question, hops=body.hops, budget_chars=body.budget_chars, control=body.control
    )
    return evidence_to_dict(ev)


@router.post(
    V1 + "/answer",
    tags=["read"],
    response_model=AnswerOut,
    operation_id="answer",
    responses=_responses(*_COMMON, 413, 502),
)
def answer(body: AnswerIn, svc: Svc, ns: Ns) -> dict[str, Any]:
    """Evidence, then one call to the configured reader LLM (503 when none is)."""
    reader = svc.reader()
    return (
        svc.memory(ns)
        .answer(
            body.question,
            reader,
            hops=body.hops,
            budget_chars=body.budget_chars,
            control=body.control,
            timeout=body.timeout,
        )
        .to_dict()
    )


@router.post(
    V1 + "/block",
    tags=["read"],
    response_model=BlockOut,
    operation_id="block",
    responses=_responses(*_COMMON, 413),
)
async def block(body: BlockIn, svc: Svc, ns: Ns) -> dict[str, Any]:
    """The ``[Relevant memory]`` block for an unfinished message (``Memory.block``).

    Options left out keep the service's defaults; an unknown option or a value out of
    range is a 422. Serving itself never fails: a block that could not be built comes
    back empty, ``abstained``, with the ``reason``.
    """
    options = body.options()
    mem = svc.serving_memory(ns)
    if mem is not None and not options.get("fresh", mem.config.block.fresh):
        # From a built snapshot a block is a fraction of a millisecond of CPU and no I/O:
        # served on the event loop, without the thread pool's hops.
        return block_to_dict(mem.block(body.request, body.partner, body.now, **options))
    # A first block (it builds the snapshot) or a fresh read (it waits on Neo4j).
    return block_to_dict(
        await run_in_threadpool(
            lambda: svc.memory(ns).block(body.request, body.partner, body.now, **options)
        )
    )


@router.get(
    V1 + "/why",
    tags=["read"],
    response_model=ExplanationOut,
    operation_id="why",
    responses=_responses(*_COMMON),
)
def why(
    svc: Svc,
    ns: Ns,
    subject: Annotated[str, Query()],
    relation: Annotated[str, Query()],
    limit: Annotated[int, Query(ge=1, le=PAGE_MAX)] = 100,
    evidence_limit: Annotated[int, Query(ge=1, le=PAGE_MAX)] = 20,
) -> dict[str, Any]:
    """Why do you remember this? Value, evidence, what it replaced, the Cypher query: the
    newest ``limit`` versions, each with its newest ``evidence_limit`` records."""
    mem = svc.memory(ns)
    return mem.why(subject, relation, limit=limit, evidence_limit=evidence_limit).to_dict()


@router.get(
    V1 + "/history",
    tags=["read"],
    response_model=HistoryOut,
    operation_id="history",
    responses=_responses(*_COMMON),
)
def history(
    svc: Svc,
    ns: Ns,
    subject: Annotated[str, Query()],
    relation: Annotated[str, Query()],
    limit: Annotated[int, Query(ge=1, le=PAGE_MAX)] = 100,
    offset: Annotated[int, Query(ge=0, le=OFFSET_MAX)] = 0,
) -> dict[str, Any]:
    """The op log of one key, oldest first: ``limit`` operations after ``offset``."""
    ops = svc.memory(ns).history(subject, relation, limit=limit, offset=offset)
    return {"subject": subject, "relation": relation, "operations": ops}


@router.get(
    V1 + "/as_of",
    tags=["read"],
    response_model=AsOfOut,
    operation_id="as_of",
    responses=_responses(*_COMMON),
)
def as_of(
    svc: Svc,
    ns: Ns,
    subject: Annotated[str, Query()],
    relation: Annotated[str, Query()],
    at: Annotated[str, Query(description="ISO-8601 date or datetime")],
    axis: Annotated[Literal["valid", "transaction"], Query()] = "valid",
) -> dict[str, Any]:
    """The value that held at ``at`` (valid time), or that memory believed then
    (transaction time)."""
    value = svc.memory(ns).as_of(subject, relation, at, axis=axis)
    return {"subject": subject, "relation": relation, "at": at, "axis": axis, "value": value}


@router.get(
    V1 + "/state",
    tags=["read"],
    response_model=StateOut,
    operation_id="state",
    responses=_responses(*_COMMON),
)
def state(
    svc: Svc,
    ns: Ns,
    disclosure: Annotated[Literal["current", "history"], Query()] = "current",
) -> dict[str, Any]:
    """Every current value, one line each; with ``history``, what each replaced."""
    return {"disclosure": disclosure, "text": svc.memory(ns).state(disclosure)}


@router.get(
    V1 + "/audit/{name}",
    tags=["read"],
    response_model=AuditOut,
    operation_id="audit",
    responses=_responses(*_COMMON, 404),
)
def audit(name: str, svc: Svc, ns: Ns) -> dict[str, Any]:
    """A named read-only audit query (two_heads, contested_keys, heads, …); 404 otherwise."""
    return {"name": name, "rows": svc.memory(ns).audit(name)}
