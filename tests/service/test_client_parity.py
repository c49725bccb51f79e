"""One scenario, three ways: ``Memory`` directly, ``Client`` and ``AsyncClient`` over HTTP.

Each run uses a fresh namespace; the results must be equal once the namespace name, ids
derived from it and wall-clock times are taken out: values, statuses, op kinds, evidence
text, error classes and messages.
"""

from __future__ import annotations

import asyncio
import re
import uuid
from collections.abc import Iterator
from dataclasses import asdict
from typing import Any

import httpx
import pytest

from graphmem import (
    ConflictError,
    EraseReport,
    Explanation,
    Fact,
    GraphmemError,
    IngestReport,
    InvalidInputError,
    Memory,
    MemoryConfig,
    NotFoundError,
    Record,
    WriteResult,
)
from graphmem.client import AsyncClient, Client, ServiceError
from graphmem.domain.block import Block
from graphmem.domain.evidence import Evidence
from graphmem.service.app import ServiceThread, Settings, create_app

pytestmark = pytest.mark.integration

KEY = "parity-key-0123456789"
MINJUN = ("Minjun", "5k personal best")
NOW = "2026-08-01T09:00:00+00:00"

Step = tuple[str, tuple[Any, ...], dict[str, Any]]

SCENARIO: list[Step] = [
    (
        "ingest",
        (
            [
                Record("Door is red", id="m1", facts=(Fact("door", "colour", "red"),)),
                {
                    "text": "The door is blue now",
                    "id": "m2",
                    "facts": [
                        {
                            "subject": "door",
                            "relation": "colour",
                            "value": "blue",
                            "intent": "update",
                        }
                    ],
                },
                {
                    "text": "The door is in building 5",
                    "id": "m3",
                    "facts": [Fact("door", "building", "building 5")],
                },
                {"text": "no facts here", "id": "m4"},
                {"text": "an unknown field", "id": "m5", "colour": "x"},
                {"text": "a bad date", "id": "m6", "stated_at": "yesterday"},
            ],
        ),
        {},
    ),
    (
        "remember",
        (*MINJUN, "27:12"),
        {
            "text": "내 5k 기록은 27:12야",
            "speaker": "Minjun",
            "stated_at": "2026-03-12",
            "record_id": "k1",
        },
    ),
    (
        "remember",
        (*MINJUN, "25:50"),
        {
            "text": "PB 깼다 25:50!",
            "speaker": "Minjun",
            "stated_at": "2026-07-03",
            "intent": "update",
        },
    ),
    ("why", MINJUN, {}),
    ("revoke", MINJUN, {}),
    ("revoke", ("nobody", "anything"), {}),
    ("remember", (*MINJUN, "26:40"), {"speaker": "Jiyoung", "authority": "hearsay"}),
    ("audit", ("contested_keys",), {}),
    ("resolve", (*MINJUN, "26:40"), {"authority": "official"}),
    ("resolve", ("door", "colour", "green"), {}),
    ("remember", ("standup", "time", "9:00"), {"record_id": "s1"}),
    ("remember", ("standup", "time", "9:30"), {"intent": "correct", "text": "not 9:00, 9:30"}),
    ("remember", ("standup", "time", "9:45"), {"record_id": "s1"}),
    ("remember", ("standup", "time", " "), {}),
    ("remember", ("standup", "", "9:45"), {}),
    ("why", MINJUN, {}),
    ("why", ("standup", "time"), {}),
    ("why", ("nobody", "anything"), {}),
    ("history", MINJUN, {}),
    ("evidence", ("What is Minjun's 5k personal best?",), {}),
    ("evidence", ("Which building is the door in?",), {"hops": 2, "budget_chars": 300}),
    ("evidence", ("What colour is the door?",), {"control": "raw_history"}),
    ("evidence", ("x?",), {"hops": 0}),
    ("evidence", ("x?",), {"control": "psychic"}),
    ("block", ("Minjun's 5k personal best is",), {"partner": "Jiyoung", "now": NOW}),
    ("block", ("the door is",), {"partner": "Minjun", "now": NOW, "k": 2, "gate": "none"}),
    ("block", ("the door is",), {"gate": "psychic"}),
    ("block", ("the door is",), {"k": 0}),
    ("block", ("the door is",), {"colour": "red"}),
    ("block", ("the door is",), {"now": "yesterday"}),
    ("erase", ("m2",), {}),
    ("why", ("door", "colour"), {}),
    ("erase", ("m2",), {}),
    ("erase", ("never-stored",), {}),
    ("ingest", ([{"text": "Door is red", "id": "m1"}, {"text": "gone", "id": "m2"}],), {}),
    ("audit", ("two_heads",), {}),
    ("audit", ("heads",), {}),
    ("audit", ("revoked_values",), {}),
    ("audit", ("versions_without_evidence",), {}),
    ("audit", ("no_such_audit",), {}),
]


def _stable(record_id: str | None, text: str | None = "") -> str | None:
    """Revoke and resolve records are observed now: their ids include a clock reading.
    Ids derived from content are keyed per namespace: each run has its own."""
    if str(record_id).startswith("revoke-") or (text or "").startswith(("revoke: ", "confirmed: ")):
        return "<clock>"
    if re.fullmatch(r"r-[0-9a-f]{24}", str(record_id)):
        return "<derived>"
    return record_id


def normalize(result: Any, ns: str) -> Any:
    """What must agree across the three runs, tagged with the result's type."""
    if isinstance(result, BaseException):
        return ("raised", type(result).__name__, str(result).replace(ns, "<ns>"))
    if isinstance(result, IngestReport):
        d = result.to_dict()
        for k in ("seconds", "parse_seconds", "db_seconds"):
            d.pop(k)
        return ("IngestReport", d)
    if isinstance(result, WriteResult | EraseReport):
        return (type(result).__name__, asdict(result))
    if isinstance(result, Evidence):
        records = [(r.pos, r.text, _stable(r.id, r.text), r.speaker) for r in result.records]
        return (
            "Evidence",
            result.text,
            records,
            result.anchors,
            result.keys,
            result.fallback,
            result.control,
            result.hops,
            result.truncated,
            result.chars,
        )
    if isinstance(result, Explanation):
        versions = [
            (
                v["value"],
                v["status"],
                v["is_head"],
                v["pos"],
                v.get("stated_at"),
                sorted(
                    (_stable(e["record_id"], e["text"]) or "", e["text"]) for e in v["evidence"]
                ),
                len(v["tombstones"]),
                len(v["supersedes"]),
            )
            for v in result.versions
        ]
        params = {k: str(v).replace(ns, "<ns>") for k, v in result.params.items()}
        return (
            "Explanation",
            result.subject,
            result.relation,
            result.value,
            result.status,
            result.text(),
            versions,
            result.cypher,
            params,
            [a["value"] for a in result.alternatives],
        )
    if isinstance(result, Block):  # dates of revoke records and the latency vary
        lines = [
            (
                re.sub(r"^- \([^,]*,", "- (*,", ln.render()),
                round(ln.score, 6),
                ln.record.pos,
                _stable(ln.record.record_id, ln.record.text),
            )
            for ln in result.lines
        ]
        posterior = {k: round(v, 6) for k, v in result.posterior.items()}
        return (
            "Block",
            lines,
            result.abstained,
            result.fell_back,
            result.reason,
            result.slot,
            posterior,
            bool(result.text),
        )
    if isinstance(result, list):  # history and audit rows
        rows = []
        for row in result:
            row = {k: v for k, v in row.items() if k not in ("uid", "at") and not k.endswith("_at")}
            if "record" in row:
                row["record"] = _stable(row["record"], row.get("text"))
            rows.append(row)
        return ("list", rows)
    raise AssertionError(f"unexpected result type {type(result).__name__}")


def run(target: Memory | Client, ns: str) -> list[Any]:
    out = []
    for name, args, kwargs in SCENARIO:
        try:
            result = getattr(target, name)(*args, **kwargs)
        except GraphmemError as exc:
            result = exc
        out.append((name, normalize(result, ns)))
    return out


async def run_async(target: AsyncClient, ns: str) -> list[Any]:
    out = []
    for name, args, kwargs in SCENARIO:
        try:
            result = await getattr(target, name)(*args, **kwargs)
        except GraphmemError as exc:
            result = exc
        out.append((name, normalize(result, ns)))
    return out


def fresh() -> str:
    return f"p-{uuid.uuid4().hex[:12]}"


@pytest.fixture(scope="module")
def settings(neo4j_server: Any) -> Settings:
    memory = MemoryConfig(
        neo4j_uri=neo4j_server.bolt_url,
        neo4j_auth=neo4j_server.auth,
        neo4j_http_url=neo4j_server.http_url,
    )
    return Settings(memory=memory, api_keys={KEY: "*"}, async_ingest_threshold=20)


@pytest.fixture(scope="module")
def service(settings: Settings) -> Iterator[ServiceThread]:
    with ServiceThread(create_app(settings)) as server:
        yield server


@pytest.fixture(scope="module")
def expected(neo4j_server: Any, settings: Settings) -> list[Any]:
    """The scenario against Memory itself (same Browser URL setting as the service)."""
    ns = fresh()
    with Memory.connect(neo4j_server.bolt_url, ns, config=settings.memory) as mem:
        return run(mem, ns)


def test_the_scenario_exercises_every_outcome(expected: list[Any]) -> None:
    kinds = {r[1]["op"] for _, r in expected if r[0] == "WriteResult"}
    assert kinds == {"ACCEPT", "REVOKE", "CONTEST", "RESOLVE", "REJECT"}
    raised = {r[1] for _, r in expected if r[0] == "raised"}
    assert raised == {"ConflictError", "InvalidInputError", "NotFoundError"}
    blocks = [r for step, r in expected if step == "block" and r[0] == "Block"]
    assert len(blocks) == 2 and all(b[1] and bool(b[-1]) for b in blocks)
    assert [len(b[1]) for b in blocks][1] == 2  # k=2 was applied


def test_client_matches_memory(service: ServiceThread, expected: list[Any]) -> None:
    ns = fresh()
    with Client(service.url, ns, api_key=KEY) as client:
        got = run(client, ns)
    for (step, want), (_, have) in zip(expected, got, strict=True):
        assert (step, have) == (step, want)


def test_async_client_matches_memory(service: ServiceThread, expected: list[Any]) -> None:
    ns = fresh()

    async def go() -> list[Any]:
        async with AsyncClient(service.url, ns, api_key=KEY) as client:
            return await run_async(client, ns)

    got = asyncio.run(go())
    for (step, want), (_, have) in zip(expected, got, strict=True):
        assert (step, have) == (step, want)


def test_async_client_over_an_in_process_transport(settings: Settings, expected: list[Any]) -> None:
    """``transport`` is httpx's: the app can be called without a socket (no lifespan)."""
    app = create_app(settings)
    ns = fresh()

    async def go() -> list[Any]:
        transport = httpx.ASGITransport(app=app)
        async with AsyncClient("http://graphmem", ns, api_key=KEY, transport=transport) as c:
            return await run_async(c, ns)

    try:
        got = asyncio.run(go())
    finally:
        app.state.graphmem.close()
    assert got == expected


def _batch(n: int) -> list[dict[str, Any]]:
    return [
        {
            "text": f"item {i} weighs {i} kg",
            "id": f"i{i}",
            "facts": [{"subject": f"item {i}", "relation": "weight", "value": f"{i} kg"}],
        }
        for i in range(n)
    ]


def test_ingest_through_a_job_returns_the_same_report(
    neo4j_server: Any, service: ServiceThread
) -> None:
    """Above the threshold (20 here) the client polls the job and returns its report."""
    ns = fresh()
    with Memory.connect(neo4j_server.bolt_url, ns, neo4j_auth=neo4j_server.auth) as mem:
        want = normalize(mem.ingest(_batch(50)), ns)
    ns = fresh()
    with Client(service.url, ns, api_key=KEY, poll_interval=0.05) as client:
        assert normalize(client.ingest(_batch(50)), ns) == want
        assert normalize(client.ingest(_batch(50)), ns)[1]["skipped_known"] == 50

    async def go() -> Any:
        ns = fresh()
        async with AsyncClient(service.url, ns, api_key=KEY, poll_interval=0.05) as c:
            return normalize(await c.ingest(_batch(50)), ns)

    assert asyncio.run(go()) == want


def test_errors_keep_their_classes_and_carry_the_problem(service: ServiceThread) -> None:
    with Client(service.url, fresh(), api_key=KEY) as client:
        with pytest.raises(ConflictError) as conflict:
            client.revoke("nobody", "x")
        problem = getattr(conflict.value, "problem", {})
        assert getattr(conflict.value, "status", None) == 409
        assert problem["type"] == "urn:graphmem:problem:conflict"
        with pytest.raises(NotFoundError):
            client.erase("nothing")
        # Memory raises ValueError for an unknown intent; the service refuses it as invalid
        # input, which is a ValueError too.
        with pytest.raises(InvalidInputError):
            client.remember("a", "b", "c", intent="bogus")
        with pytest.raises(ServiceError) as no_reader:
            client.answer("Where is the door?")
        assert no_reader.value.status == 503
    with Client(service.url, fresh(), api_key="not-a-key-at-all") as stranger:
        with pytest.raises(ServiceError) as unauthorized:
            stranger.why("a", "b")
        assert unauthorized.value.status == 401
    with pytest.raises(InvalidInputError):
        Client(service.url, "no/slashes")
    with (
        Client("http://127.0.0.1:1", fresh()) as nowhere,
        pytest.raises(ServiceError, match="cannot reach"),
    ):
        nowhere.health()
