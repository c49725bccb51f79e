"""Background ingests: ``Job`` (the one wire shape of a job) and ``Jobs`` (the runner).

A batch of more records than the service's threshold is ingested on a small thread pool;
``GET /v1/{namespace}/jobs/{id}`` reports it. The service writes ``Job.to_dict()`` and
the client reads it with ``Job.from_dict``, so this module imports no web framework.
Jobs are kept in memory: a restart forgets them (not their data).
"""

from __future__ import annotations

import logging
import threading
import uuid
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, fields, replace
from typing import Any, Literal

from graphmem._errors import NotFoundError
from graphmem.domain.model import utc_now_iso
from graphmem.results import IngestReport
from graphmem.service import problem_for

__all__ = ["Job", "JobStatus", "Jobs"]

log = logging.getLogger("graphmem.service")

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


class Jobs:
    """Runs large ingests on a small thread pool and remembers the latest ``keep`` jobs."""

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
                self._pool = ThreadPoolExecutor(
                    max_workers=self._workers, thread_name_prefix="graphmem-job"
                )
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
        self._executor().submit(self._run, job.id, work)
        return job

    def _update(self, job_id: str, **changes: Any) -> None:
        with self._lock:
            if job_id in self._jobs:
                self._jobs[job_id] = replace(self._jobs[job_id], **changes)

    def _run(self, job_id: str, work: Callable[[], IngestReport]) -> None:
        self._update(job_id, status="running", started_at=utc_now_iso())
        try:
            report = work()
        except Exception as exc:
            log.exception("ingest job %s failed", job_id)
            self._update(job_id, status="failed", error=problem_for(exc), finished_at=utc_now_iso())
            return
        self._update(job_id, status="done", report=report, finished_at=utc_now_iso())

    def get(self, namespace: str, job_id: str) -> Job:
        """The job, if it belongs to ``namespace`` (``NotFoundError`` otherwise)."""
        with self._lock:
            job = self._jobs.get(job_id)
        if job is None or job.namespace != namespace:
            raise NotFoundError(f"no job {job_id!r} in namespace {namespace!r}")
        return job

    def close(self) -> None:
        """Wait for running jobs; queued ones are dropped (their records were not written)."""
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)
