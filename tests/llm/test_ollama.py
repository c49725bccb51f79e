"""OllamaClient against a real local HTTP server that speaks Ollama's API."""

from __future__ import annotations

import json
import math
import socket
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import ollama
import pytest

from graphmem import LLMError
from graphmem.llm import Embedder, LLMClient, OllamaClient, validate_json
from graphmem.llm.testserver import (
    Delay,
    OllamaTestServer,
    RawBody,
    StatusError,
    hashed_bow_embedding,
)

SCHEMA = {
    "type": "object",
    "properties": {
        "name": {"type": "string"},
        "count": {"type": "integer"},
        "kind": {"type": "string", "enum": ["a", "b"]},
        "items": {
            "type": "array",
            "items": {"type": "object", "properties": {"x": {"type": "number"}}, "required": ["x"]},
        },
    },
    "required": ["name", "count"],
}
MESSAGES = [{"role": "user", "content": "hi"}]


@pytest.fixture
def server() -> Iterator[OllamaTestServer]:
    with OllamaTestServer() as srv:
        yield srv


@pytest.fixture
def client(server: OllamaTestServer) -> Iterator[OllamaClient]:
    with OllamaClient(server.url, model="test-model", embed_model="test-embed", timeout=5) as c:
        yield c


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_client_satisfies_both_protocols(client: OllamaClient) -> None:
    assert isinstance(client, LLMClient)
    assert isinstance(client, Embedder)


def test_chat_json_sends_schema_and_temperature_zero(
    server: OllamaTestServer, client: OllamaClient
) -> None:
    answer = {"name": "door", "count": 2, "kind": "a", "items": [{"x": 1.5}]}
    server.push(answer)
    assert client.chat_json(MESSAGES, SCHEMA) == answer
    [req] = server.chat_requests
    assert req["format"] == SCHEMA
    assert req["options"] == {"temperature": 0}
    assert req["stream"] is False
    assert req["model"] == "test-model"
    assert req["messages"] == MESSAGES


def test_chat_returns_free_text_without_format(
    server: OllamaTestServer, client: OllamaClient
) -> None:
    server.push("The door is red.")
    assert client.chat(MESSAGES) == "The door is red."
    [req] = server.chat_requests
    assert "format" not in req
    assert req["options"] == {"temperature": 0}


def test_malformed_json_content_is_llm_error(
    server: OllamaTestServer, client: OllamaClient
) -> None:
    server.push('{"name": "door", "count": ')
    with pytest.raises(LLMError, match="not valid JSON"):
        client.chat_json(MESSAGES, SCHEMA)


@pytest.mark.parametrize(
    ("answer", "problem"),
    [
        ({"name": "door"}, "missing required key 'count'"),
        ({"name": "door", "count": "2"}, r"\$\.count: expected integer, got str"),
        ({"name": "door", "count": True}, r"\$\.count: expected integer, got bool"),
        ({"name": "door", "count": 1, "kind": "c"}, r"'c' is not one of"),
        ({"name": "d", "count": 1, "items": [{"y": 1}]}, r"\$\.items\[0\]: missing required"),
        (["not", "an", "object"], r"\$: expected object, got list"),
    ],
)
def test_json_not_matching_schema_is_llm_error(
    server: OllamaTestServer, client: OllamaClient, answer: object, problem: str
) -> None:
    server.push(json.dumps(answer))
    with pytest.raises(LLMError, match=problem):
        client.chat_json(MESSAGES, SCHEMA)


def test_body_not_json_is_llm_error(server: OllamaTestServer, client: OllamaClient) -> None:
    server.push(RawBody("<html>proxy error</html>", content_type="text/html"))
    with pytest.raises(LLMError, match=r"not JSON.*really an Ollama server"):
        client.chat_json(MESSAGES, SCHEMA)


def test_envelope_without_message_is_llm_error(
    server: OllamaTestServer, client: OllamaClient
) -> None:
    server.push(RawBody(json.dumps({"model": "test-model", "done": True})))
    with pytest.raises(LLMError, match=r"without message\.content"):
        client.chat(MESSAGES)


def test_http_500_is_llm_error_with_the_servers_reason(
    server: OllamaTestServer, client: OllamaClient
) -> None:
    server.push(StatusError(500, "llama runner process has terminated"))
    with pytest.raises(LLMError, match="HTTP 500: llama runner process has terminated"):
        client.chat_json(MESSAGES, SCHEMA)


def test_missing_model_says_to_pull_it(server: OllamaTestServer, client: OllamaClient) -> None:
    server.push(StatusError(404, 'model "test-model" not found, try pulling it first'))
    with pytest.raises(LLMError, match="`ollama pull test-model`"):
        client.chat_json(MESSAGES, SCHEMA)


def test_timeout_is_llm_error_quickly(server: OllamaTestServer, client: OllamaClient) -> None:
    server.push(Delay(10, {"name": "late", "count": 1}))
    t0 = time.monotonic()
    with pytest.raises(LLMError, match=r"did not answer within 0\.3s"):
        client.chat_json(MESSAGES, SCHEMA, timeout=0.3)
    assert time.monotonic() - t0 < 3


def test_connection_refused_says_to_start_ollama() -> None:
    url = f"http://127.0.0.1:{_closed_port()}"
    with (
        OllamaClient(url, model="m1", timeout=2) as client,
        pytest.raises(
            LLMError, match=r"cannot connect to Ollama.*Is Ollama running.*ollama pull m1"
        ),
    ):
        client.chat_json(MESSAGES, SCHEMA)


def test_exhausted_queue_fails_loud(server: OllamaTestServer, client: OllamaClient) -> None:
    with pytest.raises(LLMError, match="no recorded chat response left"):
        client.chat(MESSAGES)


def test_a_single_response_is_not_taken_for_a_queue() -> None:
    with OllamaTestServer({"name": "one", "count": 1}) as srv, OllamaClient(srv.url) as client:
        assert client.chat_json(MESSAGES, SCHEMA) == {"name": "one", "count": 1}
        assert srv.pending == 0


def test_callable_responder_sees_the_request() -> None:
    def answer(body: dict) -> dict:
        return {"name": body["messages"][-1]["content"], "count": len(body["messages"])}

    with OllamaTestServer(answer) as srv, OllamaClient(srv.url, timeout=5) as client:
        assert client.chat_json(MESSAGES, SCHEMA) == {"name": "hi", "count": 1}


def test_embeddings_round_trip(server: OllamaTestServer, client: OllamaClient) -> None:
    texts = ["Minjun 5k personal best", "minjun 5K personal best", "door colour"]
    vectors = client.embed(texts)
    assert vectors == [hashed_bow_embedding(t) for t in texts]
    assert all(math.isclose(sum(x * x for x in v), 1.0) for v in vectors)
    assert vectors[0] == vectors[1]  # case-insensitive bag of words
    assert vectors[0] != vectors[2]
    [req] = server.requests_to("/api/embed")
    assert req.body == {"model": "test-embed", "input": texts}


def test_embeddings_use_the_tests_function() -> None:
    with (
        OllamaTestServer(embed_fn=lambda t: [float(len(t)), 1.0]) as srv,
        OllamaClient(srv.url, timeout=5) as client,
    ):
        assert client.embed(["ab", "abcd"]) == [[2.0, 1.0], [4.0, 1.0]]


def test_embed_nothing_sends_nothing(server: OllamaTestServer, client: OllamaClient) -> None:
    assert client.embed([]) == []
    assert server.requests == []


def test_embed_wrong_vector_count_is_llm_error(
    server: OllamaTestServer, client: OllamaClient
) -> None:
    server.push_embed(RawBody(json.dumps({"embeddings": [[0.1, 0.2]]})))
    with pytest.raises(LLMError, match="without 2 numeric vectors"):
        client.embed(["a", "b"])


def test_embed_http_error_is_llm_error(server: OllamaTestServer, client: OllamaClient) -> None:
    server.push_embed(StatusError(400, '"test-embed" does not support embeddings'))
    with pytest.raises(LLMError, match="does not support embeddings"):
        client.embed(["a"])


def test_list_models(server: OllamaTestServer, client: OllamaClient) -> None:
    assert client.list_models() == server.models


def test_transport_is_handed_to_httpx() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        body = json.loads(request.content)
        assert body["format"] == SCHEMA
        content = json.dumps({"name": "mock", "count": 0})
        return httpx.Response(200, json={"message": {"role": "assistant", "content": content}})

    with OllamaClient(transport=httpx.MockTransport(handler)) as client:
        assert client.chat_json(MESSAGES, SCHEMA) == {"name": "mock", "count": 0}


def test_validate_json_accepts_a_fitting_value() -> None:
    assert validate_json({"name": "x", "count": 3.0, "items": []}, SCHEMA) == []
    assert validate_json({"name": "x", "count": 3.5}, SCHEMA) == [
        "$.count: expected integer, got float"
    ]


# -- failure modes of the official client, each mapped to an LLMError ---------------------


def _mock_client(handler: Callable[[httpx.Request], httpx.Response], **kwargs: Any) -> OllamaClient:
    return OllamaClient(transport=httpx.MockTransport(handler), timeout=1, **kwargs)


def test_body_json_but_not_an_object_is_llm_error(
    server: OllamaTestServer, client: OllamaClient
) -> None:
    server.push(RawBody("[1, 2]"))
    with pytest.raises(LLMError, match=r"answered a JSON list, not an object"):
        client.chat(MESSAGES)


@pytest.mark.parametrize(
    ("body", "shown"),
    [
        ('["x"]', r'HTTP 502: \["x"\]'),  # JSON, not an object: ollama.ResponseError trips
        ('"boom"', 'HTTP 502: "boom"'),
        ("", "HTTP 502: Bad Gateway"),  # no body: the status's phrase
    ],
)
def test_error_status_with_an_odd_body_is_llm_error(
    server: OllamaTestServer, client: OllamaClient, body: str, shown: str
) -> None:
    server.push(RawBody(body, status=502))
    with pytest.raises(LLMError, match=shown):
        client.chat(MESSAGES)


def test_envelope_with_non_string_content_is_llm_error(
    server: OllamaTestServer, client: OllamaClient
) -> None:
    server.push(RawBody(json.dumps({"message": {"role": "assistant", "content": 5}})))
    with pytest.raises(LLMError, match=r"without message\.content \(message\.content: "):
        client.chat_json(MESSAGES, SCHEMA)


@pytest.mark.parametrize(
    "answer",
    [
        {"model": "test-embed"},  # no embeddings at all
        {"embeddings": [["x"], [1.0]]},  # not numbers
        {"embeddings": [[], [1.0]]},  # an empty vector
    ],
)
def test_embed_answer_of_the_wrong_shape_is_llm_error(
    server: OllamaTestServer, client: OllamaClient, answer: dict
) -> None:
    server.push_embed(RawBody(json.dumps(answer)))
    with pytest.raises(LLMError, match=r"without 2 numeric vectors.*`ollama pull test-embed`"):
        client.embed(["a", "b"])


def test_tags_of_the_wrong_shape_is_llm_error() -> None:
    with (
        _mock_client(lambda _: httpx.Response(200, json={"tags": []})) as client,
        pytest.raises(LLMError, match=r"/api/tags without models .*really an Ollama server"),
    ):
        client.list_models()


@pytest.mark.parametrize(
    ("kwargs", "call", "problem"),
    [
        ({"model": ""}, lambda c: c.chat(MESSAGES), "ChatRequest model: String should"),
        ({"embed_model": ""}, lambda c: c.embed(["a"]), "EmbedRequest model: String should"),
        ({}, lambda c: c.chat([{"role": "user", "content": 5}]), "Message content: Input"),
        ({}, lambda c: c.chat([{"content": "hi"}]), "Message role: Field required"),
    ],
)
def test_request_the_client_refuses_is_llm_error_and_sends_nothing(
    server: OllamaTestServer,
    kwargs: dict[str, str],
    call: Callable[[OllamaClient], object],
    problem: str,
) -> None:
    with (
        OllamaClient(server.url, timeout=5, **kwargs) as client,
        pytest.raises(
            LLMError, match=rf"refused to send the request.*{problem}.*Check the model name"
        ),
    ):
        call(client)
    assert server.requests == []


@pytest.mark.parametrize(
    ("raised", "message"),
    [
        (httpx.ReadError("connection reset"), r"failed: ReadError: connection reset\. Check"),
        (httpx.RemoteProtocolError("bad frame"), r"failed: RemoteProtocolError: bad frame"),
        (httpx.ConnectTimeout("slow"), r"did not answer within 1s"),
        (httpx.ConnectError("nope"), r"cannot connect to Ollama at .*\(nope\).*ollama pull m1"),
        (ollama.RequestError("must provide a model"), r"refused the request.*must provide a"),
        (ollama.ResponseError("stream broke"), r"reported an error: stream broke"),
    ],
)
def test_transport_and_client_errors_are_llm_errors(raised: Exception, message: str) -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        raise raised

    with _mock_client(handler, model="m1") as client, pytest.raises(LLMError, match=message):
        client.chat(MESSAGES)


def test_unsupported_scheme_is_llm_error() -> None:
    with (
        OllamaClient("ftp://127.0.0.1:1", timeout=1) as client,
        pytest.raises(LLMError, match=r"failed: UnsupportedProtocol: .*Check that base_url points"),
    ):
        client.chat(MESSAGES)


@pytest.mark.parametrize("base_url", ["http://[::1", "http://host:abc"])
def test_unusable_base_url_is_llm_error(base_url: str) -> None:
    with pytest.raises(LLMError, match=r"is not a usable URL"):
        OllamaClient(base_url)


def test_default_timeout_applies_and_a_call_can_raise_it(server: OllamaTestServer) -> None:
    with OllamaClient(server.url, timeout=0.3) as client:
        server.push(Delay(10, "late"))
        with pytest.raises(LLMError, match=r"within 0\.3s"):
            client.chat(MESSAGES)
        server.push(Delay(0.6, "slow but in time"))
        assert client.chat(MESSAGES, timeout=5) == "slow but in time"
        server.push(Delay(10, "late again"))  # the call's limit did not stick
        with pytest.raises(LLMError, match=r"within 0\.3s"):
            client.chat(MESSAGES)


def test_per_call_timeouts_do_not_leak_across_threads() -> None:
    def answer(body: dict) -> Delay:
        return Delay(10 if body["messages"][-1]["content"] == "slow" else 0.6, "ok")

    results: dict[str, object] = {}
    with OllamaTestServer(answer) as srv, OllamaClient(srv.url, timeout=5) as client:

        def ask(content: str, limit: float) -> None:
            try:
                results[content] = client.chat(
                    [{"role": "user", "content": content}], timeout=limit
                )
            except LLMError as exc:
                results[content] = exc

        threads = [
            threading.Thread(target=ask, args=("slow", 0.3)),
            threading.Thread(target=ask, args=("fast", 5)),
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join(10)
    assert isinstance(results["slow"], LLMError)
    assert results["fast"] == "ok"
