"""The service's wire shapes without a server: one form per type, read back equal, and a
client that loads no web framework and no database driver."""

from __future__ import annotations

import subprocess
import sys

from graphmem.domain.block import ActiveRecord, Block, BlockLine
from graphmem.results import IngestReport
from graphmem.wire import (
    Job,
    ProblemException,
    ServiceError,
    block_from_dict,
    block_to_dict,
    error_from_problem,
    kind_named,
    problem_for,
)


def _block() -> Block:
    rec = ActiveRecord(
        7,
        "m1",
        "Standup is at 9:30",
        "2026-05-04T08:00:00.000000+00:00",
        ("Jiyoung",),
        "Minjun",
        (("Minjun", "standup time", "9:30"),),
        True,
    )
    bare = ActiveRecord(8, "m2", "no facts", None, (), None)
    return Block(
        "[Relevant memory]\n…",
        [BlockLine(rec, 2.5), BlockLine(bare, 0.25)],
        abstained=False,
        fell_back=True,
        reason="",
        slot="time",
        posterior={"Minjun": 0.75, "Minjun Kim": 0.25},
        latency_ms=1.5,
    )


def test_block_round_trips() -> None:
    block = _block()
    data = block_to_dict(block)
    assert block_from_dict(data) == block
    assert [ln["text"] for ln in data["lines"]] == block.line_texts
    assert data["lines"][0]["record"]["facts"] == [["Minjun", "standup time", "9:30"]]
    empty = Block("", [], abstained=True, reason="empty request")
    assert block_from_dict(block_to_dict(empty)) == empty
    # A newer server may send more; the client reads what it knows.
    assert block_from_dict(block_to_dict(empty) | {"new_field": 1}) == empty


def test_job_round_trips_with_its_report() -> None:
    report = IngestReport(records=3, stored=2, ops={"ACCEPT": 2}, seconds=0.5)
    job = Job("abc", "ns", 3, "2026-01-01T00:00:00", status="done", report=report)
    data = job.to_dict()
    assert data["report"] == report.to_dict()
    assert Job.from_dict(data) == job
    queued = Job("def", "ns", 9, "2026-01-01T00:00:00")
    assert Job.from_dict(queued.to_dict() | {"extra": True}) == queued


def test_problem_for_and_back() -> None:
    busy = ProblemException(kind_named("namespace-busy"), "busy", {"Retry-After": "5"})
    body = problem_for(busy, instance="/v1/ns/remember")
    assert (body["status"], body["type"]) == (503, "urn:graphmem:problem:namespace-busy")
    exc = error_from_problem(503, body)
    assert isinstance(exc, ServiceError) and exc.status == 503
    secret = problem_for(RuntimeError("secret internals"))
    assert secret["status"] == 500 and "secret" not in str(secret)
    conflict = error_from_problem(
        409, {"type": "urn:graphmem:problem:conflict", "detail": "no head"}
    )
    assert getattr(conflict, "status", None) == 409 and str(conflict) == "no head"


def test_the_client_loads_no_framework_and_no_driver() -> None:
    code = (
        "import sys; from graphmem import Client; import graphmem.client; "
        "import graphmem.wire, graphmem.client; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in "
        "('fastapi', 'starlette', 'neo4j', 'neomodel', 'uvicorn')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]", out.stdout
