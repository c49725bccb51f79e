"""HTTP clients for the graphmem service that look like ``Memory``.

``Client`` (httpx.Client) and ``AsyncClient`` (httpx.AsyncClient) have Memory's method
names and return Memory's types, and raise Memory's exceptions: a problem response
becomes the graphmem error class of its problem type (``graphmem.wire.PROBLEM_KINDS``),
with ``status`` and ``problem`` attributes; problems with no core counterpart (401, 403,
413, 500, an unreachable service) become ``ServiceError``.

    with Client("http://127.0.0.1:8000", namespace="alice", api_key="…") as mem:
        mem.remember("Minjun", "standup time", "9:30")
        mem.why("Minjun", "standup time").text()

Responses are read with the one deserializer of each type: the ``from_dict`` of
``graphmem.results`` and ``graphmem.wire``, neither of which loads FastAPI or the Neo4j
driver. The request building and response parsing are shared; the two classes differ
only in how they wait.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Generic, Literal, TypeVar
from urllib.parse import quote

import httpx

from graphmem._names import validate_namespace
from graphmem.domain.block import Block
from graphmem.domain.evidence import Evidence
from graphmem.domain.model import Intent, Record
from graphmem.results import (
    Answer,
    EraseReport,
    Explanation,
    IngestReport,
    WriteResult,
    evidence_from_dict,
)
from graphmem.wire import Job, ServiceError, block_from_dict, error_from_problem, record_json

__all__ = ["AsyncClient", "Client", "Job", "ServiceError"]

DEFAULT_TIMEOUT = 120.0


T = TypeVar("T")
Rows = list[dict[str, Any]]


@dataclass(frozen=True)
class _Call(Generic[T]):
    """One request and how to read its answer."""

    method: str
    path: str
    parse: Callable[[Any], T]
    params: dict[str, str] | None = None
    json: Any = None


def _raise_for(resp: httpx.Response) -> None:
    if resp.is_success:
        return
    try:
        problem = resp.json()
    except ValueError:
        problem = None
    if not isinstance(problem, dict):
        problem = {"status": resp.status_code, "detail": resp.text[:500] or resp.reason_phrase}
    raise error_from_problem(resp.status_code, problem)


def _unreachable(base_url: str, exc: httpx.TransportError) -> ServiceError:
    return ServiceError(
        f"cannot reach the graphmem service at {base_url}: {type(exc).__name__}: {exc}"
    )


class _Calls:
    """Memory's methods as HTTP requests; shared by the sync and async clients."""

    namespace: str

    def _p(self, tail: str) -> str:
        return f"/v1/{quote(self.namespace, safe='')}/{tail}"

    def _ingest_call(self, records: Iterable[Record | Mapping[str, Any]]) -> _Call[dict[str, Any]]:
        body = {"records": [record_json(r) for r in records]}
        return _Call("POST", self._p("records"), lambda d: d, json=body)

    def _job_call(self, job_id: str) -> _Call[Job]:
        return _Call("GET", self._p(f"jobs/{quote(job_id, safe='')}"), Job.from_dict)

    def _remember_call(
        self, subject: str, relation: str, value: str, kw: Mapping[str, Any]
    ) -> _Call[WriteResult]:
        body = {"subject": subject, "relation": relation, "value": value, **kw}
        body["intent"] = str(body["intent"])
        return _Call("POST", self._p("remember"), WriteResult.from_dict, json=body)

    def _revoke_call(
        self, subject: str, relation: str, kw: Mapping[str, Any]
    ) -> _Call[WriteResult]:
        return _Call(
            "POST",
            self._p("revoke"),
            WriteResult.from_dict,
            json={"subject": subject, "relation": relation, **kw},
        )

    def _resolve_call(
        self, subject: str, relation: str, value: str, kw: Mapping[str, Any]
    ) -> _Call[WriteResult]:
        return _Call(
            "POST",
            self._p("resolve"),
            WriteResult.from_dict,
            json={"subject": subject, "relation": relation, "value": value, **kw},
        )

    def _erase_call(self, record_id: str) -> _Call[EraseReport]:
        return _Call(
            "DELETE", self._p(f"records/{quote(str(record_id), safe='')}"), EraseReport.from_dict
        )

    def _evidence_call(
        self, question: str, hops: int, budget_chars: int, control: str
    ) -> _Call[Evidence]:
        body = {
            "question": question,
            "hops": hops,
            "budget_chars": budget_chars,
            "control": control,
        }
        return _Call("POST", self._p("evidence"), evidence_from_dict, json=body)

    def _answer_call(
        self, question: str, hops: int, budget_chars: int, control: str, timeout: float | None
    ) -> _Call[Answer]:
        body = {
            "question": question,
            "hops": hops,
            "budget_chars": budget_chars,
            "control": control,
            "timeout": timeout,
        }
        return _Call("POST", self._p("answer"), Answer.from_dict, json=body)

    def _block_call(
        self, request: str, partner: str, now: str | None, options: Mapping[str, Any]
    ) -> _Call[Block]:
        body = {"request": request, "partner": partner, "now": now, **options}
        return _Call("POST", self._p("block"), block_from_dict, json=body)

    def _key_call(
        self, tail: str, subject: str, relation: str, parse: Callable[[Any], T], **page: int
    ) -> _Call[T]:
        params: dict[str, Any] = {"subject": subject, "relation": relation, **page}
        return _Call("GET", self._p(tail), parse, params=params)

    def _why_call(
        self, subject: str, relation: str, limit: int, evidence_limit: int
    ) -> _Call[Explanation]:
        return self._key_call(
            "why",
            subject,
            relation,
            Explanation.from_dict,
            limit=limit,
            evidence_limit=evidence_limit,
        )

    def _history_call(self, subject: str, relation: str, limit: int, offset: int) -> _Call[Rows]:
        return self._key_call(
            "history", subject, relation, lambda d: d["operations"], limit=limit, offset=offset
        )

    def _as_of_call(self, subject: str, relation: str, at: str, axis: str) -> _Call[str | None]:
        return _Call(
            "GET",
            self._p("as_of"),
            lambda d: d["value"],
            params={"subject": subject, "relation": relation, "at": at, "axis": axis},
        )

    def _state_call(self, disclosure: str) -> _Call[str]:
        return _Call(
            "GET", self._p("state"), lambda d: d["text"], params={"disclosure": disclosure}
        )

    def _health_call(self) -> _Call[dict[str, Any]]:
        return _Call("GET", "/healthz", dict)

    def _audit_call(self, name: str) -> _Call[Rows]:
        return _Call("GET", self._p(f"audit/{quote(name, safe='')}"), lambda d: d["rows"])


def _headers(api_key: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {api_key}"} if api_key else {}


class Client(_Calls):
    """``Memory`` over HTTP (synchronous). ``transport`` is handed to httpx (tests, proxies)."""

    def __init__(
        self,
        base_url: str,
        namespace: str = "default",
        api_key: str | None = None,
        transport: httpx.BaseTransport | None = None,
        *,
        timeout: float = DEFAULT_TIMEOUT,
        poll_interval: float = 0.2,
    ) -> None:
        self.namespace = validate_namespace(namespace)
        self.base_url = base_url.rstrip("/")
        self.poll_interval = poll_interval
        self._http = httpx.Client(
            base_url=self.base_url, transport=transport, timeout=timeout, headers=_headers(api_key)
        )

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _send(self, call: _Call[Any]) -> httpx.Response:
        try:
            resp = self._http.request(call.method, call.path, params=call.params, json=call.json)
        except httpx.TransportError as exc:
            raise _unreachable(self.base_url, exc) from exc
        _raise_for(resp)
        return resp

    def _do(self, call: _Call[T]) -> T:
        return call.parse(self._send(call).json())

    # -- writing --------------------------------------------------------------------------
    def ingest(
        self, records: Iterable[Record | Mapping[str, Any]], *, wait_timeout: float | None = None
    ) -> IngestReport:
        """Store records; a batch the service runs as a job is waited for (polling)."""
        resp = self._send(self._ingest_call(records))
        if resp.status_code != 202:
            return IngestReport.from_dict(resp.json())
        job_id, deadline = resp.json()["id"], _deadline(wait_timeout)
        delay = self.poll_interval
        while True:
            job = self.job(job_id)
            if (report := _finished(job)) is not None:
                return report
            _check_deadline(deadline, job)
            time.sleep(delay)
            delay = min(delay * 1.5, 2.0)

    def job(self, job_id: str) -> Job:
        return self._do(self._job_call(job_id))

    def remember(
        self,
        subject: str,
        relation: str,
        value: str,
        *,
        text: str | None = None,
        intent: Intent | str = Intent.ASSERT,
        speaker: str | None = None,
        source: str | None = None,
        authority: str | int | None = None,
        stated_at: str | None = None,
        observed_at: str | None = None,
        record_id: str | None = None,
    ) -> WriteResult:
        """Store one fact with its record (``Memory.remember``)."""
        kw = {
            "text": text,
            "intent": intent,
            "speaker": speaker,
            "source": source,
            "authority": authority,
            "stated_at": stated_at,
            "observed_at": observed_at,
            "record_id": record_id,
        }
        return self._do(self._remember_call(subject, relation, value, kw))

    def revoke(
        self,
        subject: str,
        relation: str,
        *,
        value: str | None = None,
        text: str | None = None,
        speaker: str | None = None,
    ) -> WriteResult:
        """Take back the current value (``Memory.revoke``)."""
        kw = {"value": value, "text": text, "speaker": speaker}
        return self._do(self._revoke_call(subject, relation, kw))

    def resolve(
        self,
        subject: str,
        relation: str,
        value: str,
        *,
        text: str | None = None,
        speaker: str | None = None,
        authority: str | int | None = None,
    ) -> WriteResult:
        """Settle a contested key (``Memory.resolve``)."""
        kw = {"text": text, "speaker": speaker, "authority": authority}
        return self._do(self._resolve_call(subject, relation, value, kw))

    def erase(self, record_id: str) -> EraseReport:
        return self._do(self._erase_call(record_id))

    # -- reading --------------------------------------------------------------------------
    def evidence(
        self, question: str, hops: int = 5, budget_chars: int = 60_000, control: str = "cmc"
    ) -> Evidence:
        return self._do(self._evidence_call(question, hops, budget_chars, control))

    def answer(
        self,
        question: str,
        *,
        hops: int = 5,
        budget_chars: int = 60_000,
        control: str = "cmc",
        timeout: float | None = None,
    ) -> Answer:
        """Like ``Memory.answer`` with the service's reader (503 ServiceError when none)."""
        return self._do(self._answer_call(question, hops, budget_chars, control, timeout))

    def block(
        self, request: str, partner: str = "", now: str | None = None, **options: Any
    ) -> Block:
        """The memory block for an unfinished message to ``partner`` (``Memory.block``);
        ``options`` override the service's ``BlockOptions``."""
        return self._do(self._block_call(request, partner, now, options))

    def why(
        self, subject: str, relation: str, *, limit: int = 100, evidence_limit: int = 20
    ) -> Explanation:
        return self._do(self._why_call(subject, relation, limit, evidence_limit))

    def history(
        self, subject: str, relation: str, *, limit: int = 100, offset: int = 0
    ) -> list[dict[str, Any]]:
        return self._do(self._history_call(subject, relation, limit, offset))

    def as_of(
        self, subject: str, relation: str, at: str, axis: Literal["valid", "transaction"] = "valid"
    ) -> str | None:
        """The value that held at ``at`` (valid time), or that memory believed then."""
        return self._do(self._as_of_call(subject, relation, at, axis))

    def state(self, disclosure: Literal["current", "history"] = "current") -> str:
        """Every current value as ``key = value`` lines; with history, what each replaced."""
        return self._do(self._state_call(disclosure))

    def audit(self, name: str) -> list[dict[str, Any]]:
        return self._do(self._audit_call(name))

    def health(self) -> dict[str, Any]:
        return self._do(self._health_call())


class AsyncClient(_Calls):
    """``Memory`` over HTTP for asyncio: the same methods, awaited."""

    def __init__(
        self,
        base_url: str,
        namespace: str = "default",
        api_key: str | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
        *,
        timeout: float = DEFAULT_TIMEOUT,
        poll_interval: float = 0.2,
    ) -> None:
        self.namespace = validate_namespace(namespace)
        self.base_url = base_url.rstrip("/")
        self.poll_interval = poll_interval
        self._http = httpx.AsyncClient(
            base_url=self.base_url, transport=transport, timeout=timeout, headers=_headers(api_key)
        )

    async def aclose(self) -> None:
        await self._http.aclose()

    async def __aenter__(self) -> AsyncClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def _send(self, call: _Call[Any]) -> httpx.Response:
        try:
            resp = await self._http.request(
                call.method, call.path, params=call.params, json=call.json
            )
        except httpx.TransportError as exc:
            raise _unreachable(self.base_url, exc) from exc
        _raise_for(resp)
        return resp

    async def _do(self, call: _Call[T]) -> T:
        return call.parse((await self._send(call)).json())

    async def ingest(
        self, records: Iterable[Record | Mapping[str, Any]], *, wait_timeout: float | None = None
    ) -> IngestReport:
        resp = await self._send(self._ingest_call(records))
        if resp.status_code != 202:
            return IngestReport.from_dict(resp.json())
        job_id, deadline = resp.json()["id"], _deadline(wait_timeout)
        delay = self.poll_interval
        while True:
            job = await self.job(job_id)
            if (report := _finished(job)) is not None:
                return report
            _check_deadline(deadline, job)
            await asyncio.sleep(delay)
            delay = min(delay * 1.5, 2.0)

    async def job(self, job_id: str) -> Job:
        return await self._do(self._job_call(job_id))

    async def remember(
        self,
        subject: str,
        relation: str,
        value: str,
        *,
        text: str | None = None,
        intent: Intent | str = Intent.ASSERT,
        speaker: str | None = None,
        source: str | None = None,
        authority: str | int | None = None,
        stated_at: str | None = None,
        observed_at: str | None = None,
        record_id: str | None = None,
    ) -> WriteResult:
        """Store one fact with its record (``Memory.remember``)."""
        kw = {
            "text": text,
            "intent": intent,
            "speaker": speaker,
            "source": source,
            "authority": authority,
            "stated_at": stated_at,
            "observed_at": observed_at,
            "record_id": record_id,
        }
        return await self._do(self._remember_call(subject, relation, value, kw))

    async def revoke(
        self,
        subject: str,
        relation: str,
        *,
        value: str | None = None,
        text: str | None = None,
        speaker: str | None = None,
    ) -> WriteResult:
        """Take back the current value (``Memory.revoke``)."""
        kw = {"value": value, "text": text, "speaker": speaker}
        return await self._do(self._revoke_call(subject, relation, kw))

    async def resolve(
        self,
        subject: str,
        relation: str,
        value: str,
        *,
        text: str | None = None,
        speaker: str | None = None,
        authority: str | int | None = None,
    ) -> WriteResult:
        """Settle a contested key (``Memory.resolve``)."""
        kw = {"text": text, "speaker": speaker, "authority": authority}
        return await self._do(self._resolve_call(subject, relation, value, kw))

    async def erase(self, record_id: str) -> EraseReport:
        return await self._do(self._erase_call(record_id))

    async def evidence(
        self, question: str, hops: int = 5, budget_chars: int = 60_000, control: str = "cmc"
    ) -> Evidence:
        return await self._do(self._evidence_call(question, hops, budget_chars, control))

    async def answer(
        self,
        question: str,
        *,
        hops: int = 5,
        budget_chars: int = 60_000,
        control: str = "cmc",
        timeout: float | None = None,
    ) -> Answer:
        return await self._do(self._answer_call(question, hops, budget_chars, control, timeout))

    async def block(
        self, request: str, partner: str = "", now: str | None = None, **options: Any
    ) -> Block:
        """The memory block for an unfinished message to ``partner`` (``Memory.block``)."""
        return await self._do(self._block_call(request, partner, now, options))

    async def why(
        self, subject: str, relation: str, *, limit: int = 100, evidence_limit: int = 20
    ) -> Explanation:
        return await self._do(self._why_call(subject, relation, limit, evidence_limit))

    async def history(
        self, subject: str, relation: str, *, limit: int = 100, offset: int = 0
    ) -> list[dict[str, Any]]:
        return await self._do(self._history_call(subject, relation, limit, offset))

    async def as_of(
        self, subject: str, relation: str, at: str, axis: Literal["valid", "transaction"] = "valid"
    ) -> str | None:
        """The value that held at ``at`` (valid time), or that memory believed then."""
        return await self._do(self._as_of_call(subject, relation, at, axis))

    async def state(self, disclosure: Literal["current", "history"] = "current") -> str:
        """Every current value as ``key = value`` lines; with history, what each replaced."""
        return await self._do(self._state_call(disclosure))

    async def audit(self, name: str) -> list[dict[str, Any]]:
        return await self._do(self._audit_call(name))

    async def health(self) -> dict[str, Any]:
        return await self._do(self._health_call())


# -- waiting for jobs ---------------------------------------------------------------------------
def _deadline(timeout: float | None) -> float | None:
    return None if timeout is None else time.monotonic() + timeout


def _finished(job: Job) -> IngestReport | None:
    """The report of a finished job; a failed job raises its problem as an exception."""
    if job.status == "done" and job.report is not None:
        return job.report
    if job.status == "failed":
        problem = job.error or {"detail": f"ingest job {job.id} failed"}
        raise error_from_problem(problem.get("status"), problem)
    return None


def _check_deadline(deadline: float | None, job: Job) -> None:
    if deadline is not None and time.monotonic() > deadline:
        raise ServiceError(
            f"ingest job {job.id} is still {job.status}; poll it with job({job.id!r})", status=202
        )
