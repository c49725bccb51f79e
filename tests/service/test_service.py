"""The REST service over real HTTP (uvicorn in a thread) and a real Neo4j.

Covers the round trip, problem JSON for every error kind, API keys and namespace
isolation, the request-size limit, malformed bodies, background ingest jobs, healthz,
memory blocks (``POST block``, both clients, bad options) and the configured extractor.
"""

from __future__ import annotations

import asyncio
import json
import socket
import threading
import time
import uuid
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote

import httpx
import pytest
from fastapi import FastAPI

from graphmem import InvalidInputError, MemoryConfig, RelationRegistry
from graphmem.client import AsyncClient, Client
from graphmem.domain.block import Block
from graphmem.llm.testserver import OllamaTestServer, StatusError
from graphmem.service.app import ServiceThread, Settings, create_app
from graphmem.wire import PROBLEM_JSON, block_from_dict, block_to_dict

pytestmark = pytest.mark.integration

RUN = uuid.uuid4().hex[:8]
KEY_ALL = "test-key-all-namespaces"
KEY_A = "test-key-namespace-a"
KEY_B = "test-key-namespace-b"
NS_A = f"svc-a-{RUN}"
NS_B = f"svc-b-{RUN}"
MINJUN = {"subject": "Minjun", "relation": "5k personal best"}
NOWHERE = MemoryConfig(neo4j_uri="bolt://127.0.0.1:1")  # port 1 refuses


def _boom() -> None:
    raise RuntimeError("secret internals: /etc/passwd line 42")


def _registry(ns: str) -> RelationRegistry:
    """Namespaces named strict-… refuse undeclared relations (for UnknownRelationError)."""
    return RelationRegistry(strict=ns.startswith("strict-"))


@pytest.fixture(scope="module")
def reader() -> Iterator[OllamaTestServer]:
    with OllamaTestServer() as server:
        yield server


@pytest.fixture(scope="module")
def service(neo4j_server: Any, reader: OllamaTestServer) -> Iterator[ServiceThread]:
    settings = Settings(
        memory=MemoryConfig(
            neo4j_uri=neo4j_server.bolt_url,
            neo4j_auth=neo4j_server.auth,
            neo4j_http_url=neo4j_server.http_url,
        ),
        api_keys={KEY_ALL: "*", KEY_A: [NS_A], KEY_B: [NS_B]},
        reader_url=reader.url,
        reader_model="reader-test",
        registry=_registry,
    )
    app = create_app(settings)
    app.add_api_route("/boom", _boom, include_in_schema=False)  # an unexpected exception
    with ServiceThread(app) as server:
        yield server


@pytest.fixture(scope="module")
def down() -> Iterator[ServiceThread]:
    """A service whose Neo4j is not there (port 1 refuses) and has no reader."""
    app = create_app(Settings(memory=NOWHERE, api_keys={KEY_ALL: "*"}))
    with ServiceThread(app) as server:
        yield server


def _memory(server: Any, **fields: Any) -> MemoryConfig:
    return MemoryConfig(neo4j_uri=server.bolt_url, neo4j_auth=server.auth, **fields)


def _client(url: str, key: str | None = KEY_ALL) -> httpx.Client:
    headers = {"Authorization": f"Bearer {key}"} if key else {}
    return httpx.Client(base_url=url, headers=headers, timeout=60)


@pytest.fixture
def http(service: ServiceThread) -> Iterator[httpx.Client]:
    with _client(service.url) as client:
        yield client


def assert_problem(resp: httpx.Response, status: int, type_: str = "about:blank") -> dict:
    """RFC 7807: the media type, the four members, and nothing that looks like a traceback."""
    assert resp.status_code == status, resp.text
    assert resp.headers["content-type"].startswith(PROBLEM_JSON)
    body = resp.json()
    assert {"type", "title", "status", "detail"} <= set(body)
    assert body["status"] == status and body["type"] == type_, body
    assert body["title"] and isinstance(body["detail"], str)
    assert "Traceback" not in resp.text and 'File "' not in resp.text
    return body


def _urn(slug: str) -> str:
    return f"urn:graphmem:problem:{slug}"


# -- health ---------------------------------------------------------------------------------
def test_healthz_reports_neo4j_reachable_without_a_key(service: ServiceThread) -> None:
    resp = httpx.get(service.url + "/healthz")
    assert resp.status_code == 200
    assert resp.json() == {"status": "ok", "neo4j": "reachable", "version": "0.1.0"}


def test_neo4j_down_is_503_for_healthz_and_every_call(down: ServiceThread) -> None:
    body = assert_problem(httpx.get(down.url + "/healthz"), 503, _urn("store-unavailable"))
    assert "127.0.0.1" not in body["detail"]  # no key needed here: no addresses either
    with _client(down.url) as http:
        assert_problem(http.get("/v1/ns1/why", params=MINJUN), 503, _urn("store-unavailable"))
        assert_problem(
            http.post("/v1/ns1/remember", json=MINJUN | {"value": "1"}),
            503,
            _urn("store-unavailable"),
        )
        # No reader configured: said before Neo4j is even needed.
        assert_problem(
            http.post("/v1/ns1/answer", json={"question": "q?"}), 503, _urn("reader-not-configured")
        )


# -- the round trip -------------------------------------------------------------------------
def test_remember_update_why_evidence_revoke_erase(http: httpx.Client, namespace: str) -> None:
    v1 = f"/v1/{namespace}"
    first = http.post(
        v1 + "/remember",
        json=MINJUN
        | {
            "value": "27:12",
            "text": "내 5k 기록은 27:12야",
            "speaker": "Minjun",
            "stated_at": "2026-03-12",
            "record_id": "m1",
        },
    )
    assert first.status_code == 200
    assert first.json() == {
        "op": "ACCEPT",
        "key": "minjun␟5k_personal_best",
        "head": "27:12",
        "status": "active",
        "note": "new key",
    }
    update = http.post(
        v1 + "/remember",
        json=MINJUN
        | {
            "value": "25:50",
            "text": "PB 깼다 25:50!",
            "speaker": "Minjun",
            "stated_at": "2026-07-03",
            "intent": "update",
            "record_id": "m2",
        },
    ).json()
    assert (update["op"], update["head"]) == ("ACCEPT", "25:50")

    why = http.get(v1 + "/why", params=MINJUN).json()
    assert (why["value"], why["status"]) == ("25:50", "active")
    assert "25:50 since 2026-07-03" in why["text"] and "27:12" in why["text"]
    assert why["params"] == {"kid": f"{namespace}/minjun␟5k_personal_best"}
    assert "MATCH" in why["cypher"] and len(why["versions"]) == 2

    ev = http.post(v1 + "/evidence", json={"question": "What is Minjun's 5k personal best?"})
    assert ev.status_code == 200
    ev_body = ev.json()
    assert "PB 깼다 25:50!" in ev_body["text"] and ev_body["anchors"]
    assert ev_body["chars"] == len(ev_body["text"])
    assert [r["id"] for r in ev_body["records"]][-1] == "m2"

    revoked = http.post(v1 + "/revoke", json=MINJUN).json()
    assert (revoked["op"], revoked["head"]) == ("REVOKE", "27:12")
    assert http.get(v1 + "/why", params=MINJUN).json()["value"] == "27:12"
    ops = http.get(v1 + "/history", params=MINJUN).json()["operations"]
    assert [o["kind"] for o in ops] == ["ACCEPT", "ACCEPT", "REVOKE"]
    assert ops[1]["fact"]["intent"] == "update"
    revoked_rows = http.get(v1 + "/audit/revoked_values").json()["rows"]
    assert [r["value"] for r in revoked_rows] == ["25:50"]

    erased = http.delete(v1 + "/records/m1")
    assert erased.status_code == 200
    assert erased.json() == {"record_id": "m1", "versions_removed": 1, "keys_rematerialized": 1}
    after = http.get(v1 + "/why", params=MINJUN).json()
    assert after["value"] is None and "27:12" not in json.dumps(after, ensure_ascii=False)
    assert_problem(http.delete(v1 + "/records/m1"), 404, _urn("not-found"))
    assert http.get(v1 + "/audit/two_heads").json() == {"name": "two_heads", "rows": []}


def test_contest_then_resolve(http: httpx.Client, namespace: str) -> None:
    v1 = f"/v1/{namespace}"
    http.post(v1 + "/remember", json=MINJUN | {"value": "27:12", "speaker": "Minjun"})
    contest = http.post(
        v1 + "/remember",
        json=MINJUN | {"value": "26:40", "speaker": "Jiyoung", "authority": "hearsay"},
    ).json()
    assert (contest["op"], contest["status"]) == ("CONTEST", "contested")
    rows = http.get(v1 + "/audit/contested_keys").json()["rows"]
    assert rows == [
        {
            "subject": "Minjun",
            "relation": "5k_personal_best",
            "head_value": "27:12",
            "alternatives": ["26:40"],
        }
    ]
    done = http.post(
        v1 + "/resolve", json=MINJUN | {"value": "26:40", "authority": "official"}
    ).json()
    assert (done["op"], done["head"], done["status"]) == ("RESOLVE", "26:40", "active")
    assert http.get(v1 + "/audit/contested_keys").json()["rows"] == []


def test_record_ids_with_slashes_and_unicode_round_trip(http: httpx.Client, namespace: str) -> None:
    rid = "chat/42?x=1#frag 회의"
    http.post(
        f"/v1/{namespace}/remember",
        json={"subject": "door", "relation": "colour", "value": "red", "record_id": rid},
    )
    resp = http.delete(f"/v1/{namespace}/records/{quote(rid, safe='')}")
    assert resp.status_code == 200 and resp.json()["record_id"] == rid


def test_parallel_writes_to_one_key_keep_one_head(http: httpx.Client, namespace: str) -> None:
    """Memory assumes one writer per namespace; the service serializes writes."""
    results: list[int] = []

    def write(i: int) -> None:
        with _client(http.base_url.__str__()) as c:
            r = c.post(
                f"/v1/{namespace}/remember",
                json={
                    "subject": "door",
                    "relation": "colour",
                    "value": f"c{i}",
                    "intent": "update",
                },
            )
            results.append(r.status_code)

    threads = [threading.Thread(target=write, args=(i,)) for i in range(12)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == [200] * 12
    assert http.get(f"/v1/{namespace}/audit/two_heads").json()["rows"] == []
    ops = http.get(
        f"/v1/{namespace}/history", params={"subject": "door", "relation": "colour"}
    ).json()["operations"]
    assert sorted(o["pos"] for o in ops) == list(range(12))


def test_a_busy_namespace_is_a_503_with_retry_after(neo4j_server: Any, namespace: str) -> None:
    """A write waits for the namespace's writer (e.g. a background ingest), then gives up."""
    settings = Settings(
        memory=_memory(neo4j_server),
        api_keys={KEY_ALL: "*"},
        write_wait_seconds=0.2,
        async_ingest_threshold=1,
    )
    app = create_app(settings)
    two = {"records": [{"text": "a", "id": "a"}, {"text": "b", "id": "b"}]}
    with ServiceThread(app) as server, _client(server.url) as http:
        with app.state.graphmem.writing(namespace):
            resp = http.post(f"/v1/{namespace}/remember", json=MINJUN | {"value": "1"})
            assert_problem(resp, 503, _urn("namespace-busy"))
            assert resp.headers["retry-after"] == "5"
            # Reads do not wait; a background job waits as long as it takes.
            assert http.get(f"/v1/{namespace}/why", params=MINJUN).status_code == 200
            job = http.post(f"/v1/{namespace}/records", json=two)
            assert job.status_code == 202
            time.sleep(0.5)
            assert http.get(job.headers["location"]).json()["status"] == "running"
        for _ in range(100):
            if (state := http.get(job.headers["location"]).json())["status"] == "done":
                break
            time.sleep(0.1)
        assert state["report"]["stored"] == 2
    # The app can be served again after a shutdown (the driver is reopened).
    with ServiceThread(app) as server, _client(server.url) as http:
        assert (
            http.post(f"/v1/{namespace}/remember", json=MINJUN | {"value": "1"}).status_code == 200
        )


# -- problems -----------------------------------------------------------------------------------
def test_core_errors_map_to_problem_types(http: httpx.Client, namespace: str) -> None:
    v1 = f"/v1/{namespace}"
    body = assert_problem(
        http.post(v1 + "/remember", json=MINJUN | {"value": " "}), 422, _urn("invalid-input")
    )
    assert body["detail"] == "fact value must not be empty"
    assert body["instance"] == v1 + "/remember"
    assert_problem(
        http.post(v1 + "/evidence", json={"question": "x?", "hops": 0}), 422, _urn("invalid-input")
    )
    strict = f"strict-{namespace}"
    body = assert_problem(
        http.post(f"/v1/{strict}/remember", json=MINJUN | {"value": "1"}),
        422,
        _urn("unknown-relation"),
    )
    assert "not declared" in body["detail"]
    assert_problem(http.delete(v1 + "/records/nope"), 404, _urn("not-found"))
    assert_problem(http.get(v1 + "/audit/drop_everything"), 404, _urn("not-found"))
    assert_problem(http.get(v1 + "/jobs/0123"), 404, _urn("not-found"))
    body = assert_problem(http.post(v1 + "/revoke", json=MINJUN), 409, _urn("conflict"))
    assert "no current value" in body["detail"]
    http.post(v1 + "/remember", json=MINJUN | {"value": "1", "record_id": "r1"})
    assert_problem(http.post(v1 + "/resolve", json=MINJUN | {"value": "2"}), 409, _urn("conflict"))
    assert_problem(
        http.post(v1 + "/remember", json=MINJUN | {"value": "3", "record_id": "r1"}),
        409,
        _urn("conflict"),
    )


def test_request_validation_is_a_422_problem(http: httpx.Client, namespace: str) -> None:
    v1 = f"/v1/{namespace}"
    body = assert_problem(
        http.post(v1 + "/remember", json={"subject": "a", "value": "b"}), 422, _urn("invalid-input")
    )
    assert body["errors"][0]["loc"] == ["body", "relation"] and "input" not in body["errors"][0]
    for bad in (
        {"subject": "a", "relation": "r", "value": 5},
        {"subject": "a", "relation": "r", "value": "v", "intent": "bogus"},
        {"subject": "a", "relation": "r", "value": "v", "colour": "extra"},
    ):
        assert_problem(http.post(v1 + "/remember", json=bad), 422, _urn("invalid-input"))
    assert_problem(http.get(v1 + "/why", params={"subject": "a"}), 422, _urn("invalid-input"))
    assert_problem(
        http.post(v1 + "/records", json={"records": [{"text": 1}]}), 422, _urn("invalid-input")
    )


def test_llm_failure_is_502_and_answer_works(
    http: httpx.Client, namespace: str, reader: OllamaTestServer
) -> None:
    v1 = f"/v1/{namespace}"
    http.post(
        v1 + "/remember",
        json={
            "subject": "field hockey",
            "relation": "country of origin",
            "value": "Philippines",
            "text": "field hockey was created in the Philippines.",
        },
    )
    reader.push("Philippines\nbecause record 0 says so")
    ok = http.post(v1 + "/answer", json={"question": "Where was field hockey created?"})
    assert ok.status_code == 200, ok.text
    assert ok.json()["first_line"] == "Philippines"
    assert "field hockey was created" in ok.json()["evidence"]["text"]
    reader.push(StatusError(500, "model crashed"))
    assert_problem(
        http.post(v1 + "/answer", json={"question": "Where was field hockey created?"}),
        502,
        _urn("llm-error"),
    )


def test_unexpected_error_is_a_500_problem_without_internals(http: httpx.Client) -> None:
    body = assert_problem(http.get("/boom"), 500)
    assert "secret" not in json.dumps(body) and "RuntimeError" not in json.dumps(body)


def test_unknown_route_and_method_are_problems(http: httpx.Client) -> None:
    assert_problem(http.get("/v2/nothing"), 404)
    resp = http.put("/v1/ns1/remember", json={})
    assert_problem(resp, 405)
    assert "POST" in resp.headers["allow"]


# -- auth and isolation ---------------------------------------------------------------------------
def _calls(ns: str) -> list[tuple[str, str, dict[str, Any]]]:
    """One request per /v1 route, each harmless if it were allowed."""
    return [
        ("POST", f"/v1/{ns}/records", {"json": {"records": [{"text": "x"}]}}),
        ("POST", f"/v1/{ns}/remember", {"json": MINJUN | {"value": "1"}}),
        ("POST", f"/v1/{ns}/evidence", {"json": {"question": "Minjun?"}}),
        ("POST", f"/v1/{ns}/answer", {"json": {"question": "Minjun?"}}),
        ("GET", f"/v1/{ns}/why", {"params": MINJUN}),
        ("GET", f"/v1/{ns}/history", {"params": MINJUN}),
        ("POST", f"/v1/{ns}/revoke", {"json": MINJUN}),
        ("POST", f"/v1/{ns}/resolve", {"json": MINJUN | {"value": "1"}}),
        ("DELETE", f"/v1/{ns}/records/secret-1", {}),
        ("GET", f"/v1/{ns}/audit/heads", {}),
        ("GET", f"/v1/{ns}/jobs/abc", {}),
        ("POST", f"/v1/{ns}/block", {"json": {"request": "Minjun's 5k best is"}}),
    ]


@pytest.mark.parametrize("index", range(len(_calls("x"))))
def test_keys_are_required_and_scoped(service: ServiceThread, index: int) -> None:
    method, path, kw = _calls(NS_B)[index]
    with _client(service.url, key=None) as anon:
        assert_problem(anon.request(method, path, **kw), 401)
        resp = anon.request(method, path, headers={"Authorization": "Bearer wrong-key-123"}, **kw)
        assert_problem(resp, 401)
        assert resp.headers["www-authenticate"] == "Bearer"
        basic = anon.request(method, path, headers={"Authorization": f"Basic {KEY_B}"}, **kw)
        assert_problem(basic, 401)
    with _client(service.url, key=KEY_A) as a:
        body = assert_problem(a.request(method, path, **kw), 403)
        assert NS_B in body["detail"]


def test_x_api_key_header_and_namespace_rule(service: ServiceThread) -> None:
    with _client(service.url, key=None) as anon:
        resp = anon.get(f"/v1/{NS_A}/audit/two_heads", headers={"X-API-Key": KEY_A})
        assert resp.status_code == 200
        bad = anon.get("/v1/-starts-with-dash/audit/two_heads", headers={"X-API-Key": KEY_ALL})
        assert (
            "namespace '-starts-with-dash' is invalid"
            in assert_problem(bad, 422, _urn("invalid-input"))["detail"]
        )


def test_namespace_b_is_invisible_from_a(service: ServiceThread) -> None:
    secret = {
        "subject": "vault",
        "relation": "code",
        "value": "4417",
        "text": "the vault code is 4417",
        "record_id": "secret-1",
    }
    with _client(service.url, key=KEY_B) as b, _client(service.url, key=KEY_A) as a:
        assert b.post(f"/v1/{NS_B}/remember", json=secret).status_code == 200
        key = {"subject": "vault", "relation": "code"}
        # Key A in its own namespace sees nothing of B's.
        assert a.get(f"/v1/{NS_A}/why", params=key).json()["versions"] == []
        assert a.get(f"/v1/{NS_A}/history", params=key).json()["operations"] == []
        ev = a.post(f"/v1/{NS_A}/evidence", json={"question": "What is the vault code?"}).json()
        assert "4417" not in ev["text"]
        assert "4417" not in a.get(f"/v1/{NS_A}/audit/heads").text
        assert_problem(a.delete(f"/v1/{NS_A}/records/secret-1"), 404, _urn("not-found"))
        assert_problem(a.post(f"/v1/{NS_A}/revoke", json=key), 409, _urn("conflict"))
        # B's value is untouched.
        assert b.get(f"/v1/{NS_B}/why", params=key).json()["value"] == "4417"


# -- bodies ------------------------------------------------------------------------------------
def _raw_request(url: str, head: bytes) -> bytes:
    host, port = httpx.URL(url).host, httpx.URL(url).port
    with socket.create_connection((host, port), timeout=10) as sock:
        sock.sendall(head)
        chunks = []
        while chunk := sock.recv(65536):
            chunks.append(chunk)
    return b"".join(chunks)


def test_declared_oversized_body_is_413_before_reading(service: ServiceThread) -> None:
    size = 10 * 1024 * 1024 + 1
    head = (
        f"POST /v1/{NS_A}/records HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {KEY_A}\r\n"
        f"Content-Type: application/json\r\nContent-Length: {size}\r\n\r\n"
    ).encode()
    raw = _raw_request(service.url, head)  # the body is never sent: the answer comes anyway
    status_line, _, rest = raw.partition(b"\r\n")
    assert b" 413 " in status_line
    assert b"application/problem+json" in rest.lower()


@pytest.mark.parametrize("length", ["12abc", "-1", "1, 2"])
def test_malformed_content_length_is_problem_json(service: ServiceThread, length: str) -> None:
    """uvicorn refuses these before the app sees them; the refusal is problem JSON too."""
    head = (
        f"POST /v1/{NS_A}/records HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {KEY_A}\r\n"
        f"Content-Type: application/json\r\nContent-Length: {length}\r\n\r\n{{}}"
    ).encode()
    raw = _raw_request(service.url, head)
    status_line, _, rest = raw.partition(b"\r\n")
    headers, _, body = rest.partition(b"\r\n\r\n")
    assert b" 400 " in status_line
    assert b"application/problem+json" in headers.lower()
    problem = json.loads(body)
    assert problem["status"] == 400 and "Content-Length" in problem["detail"]


def test_streamed_oversized_body_is_413(http: httpx.Client) -> None:
    def body() -> Iterator[bytes]:
        chunk = b" " * 65536
        for _ in range(10 * 16 + 1):  # 10 MiB + 64 KiB, without a Content-Length
            yield chunk

    resp = http.post(
        f"/v1/{NS_A}/records", content=body(), headers={"Content-Type": "application/json"}
    )
    assert_problem(resp, 413)


def test_large_body_under_the_limit_reaches_the_core(http: httpx.Client, namespace: str) -> None:
    text = "가" * 300_000  # ~900 KB: parsed, then refused by the core's 200,000-char rule
    resp = http.post(f"/v1/{namespace}/remember", json=MINJUN | {"value": "1", "text": text})
    assert "200,000" in assert_problem(resp, 422, _urn("invalid-input"))["detail"]


@pytest.mark.parametrize(
    ("content", "ctype", "status"),
    [
        (b'{"subject": "a", ', "application/json", 400),
        (b'{"subject": "\xff\xfe"}', "application/json", 400),
        (b"\xff\xfe\x00", "application/json", 400),
        (b"", "application/json", 422),
        (b"[1, 2]", "application/json", 422),
        (b'{"subject": "a", "relation": "r", "value": "v"}', "text/plain", 422),
        (b'{"subject": "\\ud800", "relation": "r", "value": "v"}', "application/json", 422),
    ],
)
def test_malformed_bodies_are_4xx_problems(
    http: httpx.Client, namespace: str, content: bytes, ctype: str, status: int
) -> None:
    resp = http.post(f"/v1/{namespace}/remember", content=content, headers={"Content-Type": ctype})
    assert_problem(resp, status, "about:blank" if status == 400 else _urn("invalid-input"))


# -- ingest --------------------------------------------------------------------------------------
def test_small_ingest_is_synchronous_and_reports_bad_records(
    http: httpx.Client, namespace: str
) -> None:
    records = [
        {
            "text": "Door is red",
            "id": "d1",
            "facts": [{"subject": "door", "relation": "colour", "value": "red"}],
        },
        {
            "text": "The door is blue now",
            "id": "d2",
            "facts": [
                {"subject": "door", "relation": "colour", "value": "blue", "intent": "update"}
            ],
        },
        {"text": "unknown field", "id": "d3", "colour": "green"},
        {"text": "bad date", "id": "d4", "stated_at": "yesterday"},
    ]
    resp = http.post(f"/v1/{namespace}/records", json={"records": records})
    assert resp.status_code == 200
    report = resp.json()
    assert (report["records"], report["stored"], report["ops"]) == (4, 2, {"ACCEPT": 2})
    assert [e["id"] for e in report["errors"]] == ["d3", "d4"]
    again = http.post(f"/v1/{namespace}/records", json={"records": records[:2]}).json()
    assert (again["stored"], again["skipped_known"]) == (0, 2)


def test_large_ingest_is_a_job(http: httpx.Client, namespace: str) -> None:
    records = [
        {
            "text": f"item {i} weighs {i} kg",
            "id": f"i{i}",
            "facts": [{"subject": f"item {i}", "relation": "weight", "value": f"{i} kg"}],
        }
        for i in range(2001)
    ]
    resp = http.post(f"/v1/{namespace}/records", json={"records": records})
    assert resp.status_code == 202, resp.text
    job = resp.json()
    assert resp.headers["location"] == f"/v1/{namespace}/jobs/{job['id']}"
    assert job["status"] in ("queued", "running") and job["records"] == 2001
    deadline = time.monotonic() + 120
    while job["status"] in ("queued", "running") and time.monotonic() < deadline:
        time.sleep(0.2)
        job = http.get(resp.headers["location"]).json()
    assert job["status"] == "done", job
    assert job["report"]["stored"] == 2001 and job["report"]["ops"] == {"ACCEPT": 2001}
    assert job["finished_at"] >= job["started_at"] >= job["submitted_at"]
    # Another namespace does not see the job; the data is there.
    assert_problem(http.get(f"/v1/other-{namespace}/jobs/{job['id']}"), 404, _urn("not-found"))
    why = http.get(f"/v1/{namespace}/why", params={"subject": "item 2000", "relation": "weight"})
    assert why.json()["value"] == "2000 kg"


# -- docs ----------------------------------------------------------------------------------------
def test_openapi_documents_every_route_with_models(service: ServiceThread) -> None:
    spec = httpx.get(service.url + "/openapi.json").json()
    paths = spec["paths"]
    assert set(paths) == {
        "/healthz",
        "/v1/{namespace}/records",
        "/v1/{namespace}/jobs/{job_id}",
        "/v1/{namespace}/remember",
        "/v1/{namespace}/revoke",
        "/v1/{namespace}/resolve",
        "/v1/{namespace}/records/{record_id}",
        "/v1/{namespace}/evidence",
        "/v1/{namespace}/answer",
        "/v1/{namespace}/why",
        "/v1/{namespace}/history",
        "/v1/{namespace}/audit/{name}",
        "/v1/{namespace}/block",
        "/v1/{namespace}/as_of",
        "/v1/{namespace}/state",
    }
    schemas = spec["components"]["schemas"]
    assert {
        "Problem",
        "WriteResultOut",
        "EvidenceOut",
        "ExplanationOut",
        "IngestReportOut",
        "JobOut",
        "EraseReportOut",
        "RecordIn",
        "BlockIn",
        "BlockOut",
    } <= set(schemas)
    post = paths["/v1/{namespace}/records"]["post"]
    assert "202" in post["responses"]
    assert list(post["responses"]["422"]["content"]) == [PROBLEM_JSON]
    assert {"HTTPBearer", "APIKeyHeader"} <= set(spec["components"]["securitySchemes"])
    assert httpx.get(service.url + "/docs").status_code == 200


def test_settings_from_env_parse_keys_once(neo4j_server: Any) -> None:
    env = {
        "NEO4J_URI": neo4j_server.bolt_url,
        "GRAPHMEM_API_KEYS": json.dumps({KEY_A: [NS_A], KEY_ALL: "*"}),
        "GRAPHMEM_MAX_REQUEST_BYTES": "1000",
    }
    settings = Settings.from_env(env, async_ingest_threshold=5)
    assert settings.max_request_bytes == 1000 and settings.async_ingest_threshold == 5
    with ServiceThread(create_app(settings)) as server:
        ok = httpx.get(f"{server.url}/v1/{NS_A}/audit/two_heads", headers={"X-API-Key": KEY_A})
        assert ok.status_code == 200
        big = httpx.post(
            f"{server.url}/v1/{NS_A}/remember",
            content=b" " * 1001,
            headers={"X-API-Key": KEY_A, "Content-Type": "application/json"},
        )
        assert_problem(big, 413)
    for bad in (
        '{"short": "*"}',
        '{"long-enough-key": 5}',
        '{"long-enough-key": ["a/b"]}',
        "[1]",
        "{not json",
    ):
        with pytest.raises(ValueError):
            create_app(Settings.from_env({"GRAPHMEM_API_KEYS": bad}))


def test_app_without_keys_refuses_everything() -> None:
    app: FastAPI = create_app(Settings(memory=NOWHERE))
    with ServiceThread(app) as server:
        assert_problem(
            httpx.get(
                server.url + "/v1/ns/why",
                params=MINJUN,
                headers={"Authorization": "Bearer anything-at-all"},
            ),
            401,
        )


# -- memory blocks -------------------------------------------------------------------------------
BLOCK_KEYS = {
    "text",
    "lines",
    "abstained",
    "fell_back",
    "reason",
    "slot",
    "posterior",
    "latency_ms",
    "served",
    "snapshot_age_ms",
}


def _standup_records() -> list[dict[str, Any]]:
    return [
        {
            "text": "Minjun: standup moves to 9:30 from Monday",
            "id": "b1",
            "speaker": "Minjun",
            "participants": ["Jiyoung"],
            "observed_at": "2026-05-04T08:00:00",
            "facts": [{"subject": "Minjun", "relation": "standup time", "value": "9:30"}],
        },
        {
            "text": "Minjun's 5k personal best is 25:50",
            "id": "b2",
            "speaker": "Minjun",
            "participants": ["Jiyoung"],
            "observed_at": "2026-05-05T08:00:00",
            "facts": [{"subject": "Minjun", "relation": "5k personal best", "value": "25:50"}],
        },
    ]


def test_block_over_http_and_through_both_clients(
    service: ServiceThread, http: httpx.Client, namespace: str
) -> None:
    v1 = f"/v1/{namespace}"
    assert http.post(v1 + "/records", json={"records": _standup_records()}).status_code == 200
    ask = {
        "request": "Minjun's 5k personal best is",
        "partner": "Jiyoung",
        "now": "2026-06-01T09:00:00+00:00",
        "gate": "none",
        "k": 3,
    }
    resp = http.post(v1 + "/block", json=ask)
    assert resp.status_code == 200, resp.text
    body = resp.json()
    assert set(body) == BLOCK_KEYS
    assert body["text"].startswith("[Relevant memory]\n") and not body["abstained"]
    assert "25:50" in body["text"] and 1 <= len(body["lines"]) <= 3
    line = body["lines"][0]
    assert line["text"] in body["text"] and line["record"]["record_id"] == "b2"
    assert line["record"]["participants"] == ["Jiyoung"]
    assert line["record"]["facts"] == [["Minjun", "5k_personal_best", "25:50"]]
    # The one wire form: what the client reads back is the Block the service wrote.
    block = block_from_dict(body)
    assert isinstance(block, Block) and block_to_dict(block) == body
    assert block.line_texts == [ln["text"] for ln in body["lines"]]

    with Client(service.url, namespace, api_key=KEY_ALL) as client:
        got = client.block(ask["request"], ask["partner"], ask["now"], gate="none", k=3)
    assert isinstance(got, Block) and got.text == body["text"]
    assert [ln.record for ln in got.lines] == [ln.record for ln in block.lines]

    async def go() -> Block:
        async with AsyncClient(service.url, namespace, api_key=KEY_ALL) as client:
            return await client.block(ask["request"], ask["partner"], ask["now"], gate="none")

    assert asyncio.run(go()).text.startswith("[Relevant memory]")
    # Fresh: read Neo4j now, within the deadline.
    fresh = http.post(v1 + "/block", json=ask | {"fresh": True, "deadline_ms": 10_000}).json()
    assert fresh["fell_back"] is False and fresh["lines"][0]["record"]["record_id"] == "b2"


def test_block_servers_stop_when_evicted_and_at_shutdown(neo4j_server: Any, namespace: str) -> None:
    """Each namespace's Memory runs a snapshot thread for blocks; the service stops it when
    the namespace leaves the cache and when the app shuts down (the store stays shared)."""

    def publishers() -> set[threading.Thread]:
        return {t for t in threading.enumerate() if t.name == "graphmem-snapshot"}

    settings = Settings(
        memory=_memory(neo4j_server), api_keys={KEY_ALL: "*"}, max_cached_namespaces=1
    )
    before = publishers()
    ask = {"request": "Minjun's 5k personal best is"}
    with ServiceThread(create_app(settings)) as server, _client(server.url) as http:
        assert http.post(f"/v1/{namespace}/block", json=ask).status_code == 200
        first = publishers() - before
        assert len(first) == 1
        assert http.post(f"/v1/other-{namespace}/block", json=ask).status_code == 200
        assert not any(t.is_alive() for t in first)  # evicted: stopped
        second = publishers() - before
        assert len(second) == 1
        # The shared store is still open for the namespace that remains.
        assert http.post(f"/v1/other-{namespace}/block", json=ask).status_code == 200
    assert not any(t.is_alive() for t in second)


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"gate": "psychic"}, "unknown gate 'psychic'"),
        ({"identity": "telepathy"}, "unknown identity"),
        ({"k": 0}, "k must be an integer from 1 to 50"),
        ({"k": "many"}, "k:"),
        ({"max_chars": 10}, "max_chars must be"),
        ({"tau": 2}, "tau must be a number"),
        ({"deadline_ms": -1}, "deadline_ms must be"),
        ({"colour": "red"}, "unknown block options ['colour']"),
        ({"now": "yesterday"}, "now must be an ISO-8601"),
        ({"request": "x" * 20_001}, "the limit is 20,000"),
        ({"request": None}, "request:"),
    ],
)
def test_bad_block_options_are_422_invalid_input(
    http: httpx.Client, namespace: str, options: dict[str, Any], words: str
) -> None:
    body = {"request": "Minjun's 5k personal best is"} | options
    problem = assert_problem(
        http.post(f"/v1/{namespace}/block", json=body), 422, _urn("invalid-input")
    )
    assert words in problem["detail"], problem


def test_bad_block_options_raise_invalid_input_in_the_client(
    service: ServiceThread, namespace: str
) -> None:
    with (
        Client(service.url, namespace, api_key=KEY_ALL) as client,
        pytest.raises(InvalidInputError, match="unknown gate 'psychic'") as err,
    ):
        client.block("the door is", gate="psychic")
    assert getattr(err.value, "status", None) == 422


def test_block_needs_neo4j(down: ServiceThread) -> None:
    with _client(down.url) as http:
        assert_problem(
            http.post("/v1/ns1/block", json={"request": "Minjun's 5k best is"}),
            503,
            _urn("store-unavailable"),
        )


# -- the extractor ---------------------------------------------------------------------------------
def test_text_only_records_go_through_the_configured_extractor(
    neo4j_server: Any, namespace: str
) -> None:
    """GRAPHMEM_EXTRACTOR=llm: the service reads plain-text records with the LLM extractor."""

    def model(body: dict[str, Any]) -> dict[str, Any]:
        user = body["messages"][-1]["content"]
        n = len(user.split("Records:\n", 1)[1].splitlines())
        assert n == 1, user
        return {
            "records": [
                {
                    "record": 1,
                    "status": "facts",
                    "facts": [
                        {
                            "subject": "Minjun",
                            "relation": "5k personal best",
                            "value": "27:12",
                            "intent": "assert",
                        }
                    ],
                }
            ]
        }

    with OllamaTestServer(model) as llm:
        env = {
            "NEO4J_URI": neo4j_server.bolt_url,
            "GRAPHMEM_EXTRACTOR": "llm",
            "GRAPHMEM_OLLAMA_URL": llm.url,
            "GRAPHMEM_OLLAMA_MODEL": "extractor-test",
            "GRAPHMEM_API_KEYS": json.dumps({KEY_ALL: "*"}),
        }
        settings = Settings.from_env(env, neo4j_auth=neo4j_server.auth)
        assert settings.memory.extractor == "llm"
        assert settings.memory.ollama_url == llm.url
        with ServiceThread(create_app(settings)) as server, _client(server.url) as http:
            record = {"text": "Minjun's 5k personal best is 27:12", "id": "x1"}
            report = http.post(f"/v1/{namespace}/records", json={"records": [record]}).json()
            assert (report["stored"], report["facts"], report["unresolved"]) == (1, 1, 0)
            why = http.get(f"/v1/{namespace}/why", params=MINJUN).json()
            assert why["value"] == "27:12"
        chats = llm.requests_to("/api/chat")
        assert len(chats) == 1 and chats[0].body["model"] == "extractor-test"


def test_without_an_extractor_text_only_records_stay_unresolved(
    http: httpx.Client, namespace: str
) -> None:
    record = {"text": "Minjun's 5k personal best is 27:12", "id": "x1"}
    report = http.post(f"/v1/{namespace}/records", json={"records": [record]}).json()
    assert (report["stored"], report["facts"], report["unresolved"]) == (1, 0, 1)


def test_an_unknown_extractor_fails_at_startup() -> None:
    with pytest.raises(InvalidInputError, match="unknown extractor"):
        Settings.from_env({"GRAPHMEM_EXTRACTOR": "psychic"})
    with pytest.raises(InvalidInputError, match="needs an Ollama URL"):
        Settings.from_env({"GRAPHMEM_EXTRACTOR": "llm"})


def test_settings_from_env_route_overrides_to_memory_config() -> None:
    settings = Settings.from_env(
        {},
        neo4j_uri="bolt://db:7687",
        reader_url="http://r:11434",
        neo4j_http_url="http://db:7474",
        max_request_bytes=5,
    )
    assert settings.memory.neo4j_uri == "bolt://db:7687"
    assert settings.memory.neo4j_http_url == "http://db:7474"
    assert (settings.reader_url, settings.max_request_bytes) == ("http://r:11434", 5)
    assert Settings.from_env({}).memory.neo4j_uri == "bolt://127.0.0.1:7687"
    assert Settings().neo4j_uri == "bolt://127.0.0.1:7687"


def test_browser_guide_is_public_html_with_cors(service: ServiceThread) -> None:
    resp = httpx.get(service.url + "/browser/guide.html", params={"ns": NS_A})
    assert resp.status_code == 200 and resp.headers["content-type"].startswith("text/html")
    assert resp.headers["access-control-allow-origin"] == "*"
    assert f":param ns =&gt; &quot;{NS_A}&quot;" in resp.text and "two heads" in resp.text
    pre = httpx.options(service.url + "/browser/guide.html")
    assert pre.status_code == 204 and pre.headers["access-control-allow-origin"] == "*"
    assert httpx.get(service.url + "/browser/guide.html", params={"ns": "-x"}).status_code == 422
