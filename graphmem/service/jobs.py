"""Background ingests: ``Jobs``, the runner (a job's wire shape is ``graphmem.wire.Job``).

A batch of more records than the service's threshold is ingested on a small thread pool;
``GET /v1/{namespace}/jobs/{id}`` reports it. The service writes ``Job.to_dict()`` and
the client reads it with ``Job.from_dict``.
Jobs are kept in memory: a restart forgets them (not their data).
"""

from __future__ import annotations

import logging
import threading
import uuid
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from typing import Any

from graphmem._errors import NotFoundError
from graphmem.domain.model import utc_now_iso
from graphmem.results import IngestReport
from graphmem.wire import Job, problem_for

__all__ = ["Jobs"]

log = logging.getLogger("graphmem.service")


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
