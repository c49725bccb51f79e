"""A real HTTP server that speaks enough of Ollama's API to test graphmem without Ollama.

It lives in the package, not under ``tests/``, so any test module (extractors, readers,
soft key identity, the service) can import it. Chat answers come from a queue or a
callable of recorded responses, each one of:

- a ``dict``: the model's JSON answer, sent back as the chat envelope's content;
- a ``str``: raw content, e.g. malformed JSON;
- ``StatusError(code, error)``: an HTTP error status with Ollama's ``{"error": ...}`` body;
- ``RawBody(body, status)``: a body that is not an Ollama envelope (or not JSON at all);
- ``Delay(seconds, then)``: wait first (longer than the client's timeout: a timeout).

Embeddings come from a deterministic function (default: a hashed bag of words), so
similar texts get similar vectors and tests can reason about cosine similarity.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
import threading
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

__all__ = [
    "Delay",
    "EmbedFn",
    "OllamaTestServer",
    "RawBody",
    "RecordedRequest",
    "Responder",
    "Response",
    "StatusError",
    "hashed_bow_embedding",
]


@dataclass(frozen=True)
class StatusError:
    """Answer with this HTTP status and Ollama's error body."""

    code: int = 500
    error: str = "internal server error"


@dataclass(frozen=True)
class RawBody:
    """Answer with exactly this body (not wrapped in the chat envelope)."""

    body: str | bytes
    status: int = 200
    content_type: str = "application/json"


@dataclass(frozen=True)
class Delay:
    """Sleep ``seconds`` (interrupted when the server stops), then answer ``then``."""

    seconds: float
    then: Response | None = None


Response = dict[str, Any] | str | StatusError | RawBody | Delay
# Called with the decoded request body; returns the response for it.
Responder = Callable[[dict[str, Any]], Response]
EmbedFn = Callable[[str], list[float]]

_WORD = re.compile(r"\w+", re.UNICODE)


def hashed_bow_embedding(text: str, dim: int = 64) -> list[float]:
    """A unit vector of hashed lower-cased word counts: stable across runs and processes."""
    vec = [0.0] * dim
    for word in _WORD.findall(text.casefold()):
        h = int.from_bytes(hashlib.blake2b(word.encode(), digest_size=8).digest(), "big")
        vec[h % dim] += 1.0
    norm = math.sqrt(sum(x * x for x in vec))
    return [x / norm for x in vec] if norm else vec


@dataclass(frozen=True)
class RecordedRequest:
    """One request the server received, body decoded when it was JSON."""

    method: str
    path: str
    body: Any


class OllamaTestServer:
    """Ollama's /api/chat, /api/embed and /api/tags on 127.0.0.1, on a free port.

    ``responses`` is either an iterable (consumed in order; more can be ``push``-ed) or a
    callable given each chat request body. An exhausted queue answers HTTP 500 saying so,
    which the client reports as an ``LLMError``: a test that forgot a response fails loud.
    """

    def __init__(
        self,
        responses: Iterable[Response] | Responder = (),
        *,
        embed_fn: EmbedFn = hashed_bow_embedding,
        models: Iterable[str] = ("qwen2.5:7b-instruct", "bge-m3"),
        host: str = "127.0.0.1",
    ) -> None:
        if isinstance(responses, dict | str | StatusError | RawBody | Delay):
            responses = [responses]  # one response, not an iterable of them
        self._responder: Responder | None = responses if callable(responses) else None
        self._queue: deque[Response] = deque() if callable(responses) else deque(responses)
        self._embed_queue: deque[Response] = deque()
        self.embed_fn = embed_fn
        self.models = list(models)
        self.requests: list[RecordedRequest] = []
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._httpd = ThreadingHTTPServer((host, 0), self._handler_class())
        self._httpd.daemon_threads = True
        self._thread: threading.Thread | None = None

    # -- lifecycle -----------------------------------------------------------------------

    @property
    def url(self) -> str:
        host, port = self._httpd.server_address[:2]
        assert isinstance(host, str)  # an AF_INET server: a host string, never bytes
        return f"http://{host}:{port}"

    def start(self) -> OllamaTestServer:
        if self._thread is None:
            self._thread = threading.Thread(
                target=self._httpd.serve_forever,
                kwargs={"poll_interval": 0.05},  # a quick shutdown keeps test suites fast
                name="ollama-test-server",
                daemon=True,
            )
            self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()  # wakes any handler sleeping in a Delay
        if self._thread is not None:
            self._httpd.shutdown()
            self._thread.join(timeout=5)
            self._thread = None
        self._httpd.server_close()

    def __enter__(self) -> OllamaTestServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- scripting -----------------------------------------------------------------------

    def push(self, *responses: Response) -> None:
        """Queue more chat responses."""
        with self._lock:
            self._queue.extend(responses)

    def push_embed(self, *responses: Response) -> None:
        """Queue responses that /api/embed gives instead of computing vectors (errors)."""
        with self._lock:
            self._embed_queue.extend(responses)

    def requests_to(self, path: str) -> list[RecordedRequest]:
        with self._lock:
            return [r for r in self.requests if r.path == path]

    @property
    def chat_requests(self) -> list[dict[str, Any]]:
        """The bodies of the /api/chat requests received so far, oldest first."""
        return [r.body for r in self.requests_to("/api/chat")]

    @property
    def pending(self) -> int:
        """Chat responses queued and not yet used."""
        with self._lock:
            return len(self._queue)

    # -- answering -----------------------------------------------------------------------

    def _next_chat(self, body: dict[str, Any]) -> Response:
        if self._responder is not None:
            return self._responder(body)
        with self._lock:
            if self._queue:
                return self._queue.popleft()
        return StatusError(500, "OllamaTestServer: no recorded chat response left")

    def _answer(self, path: str, body: Any) -> tuple[int, bytes, str]:
        if path == "/api/tags":
            now = datetime.now(UTC).isoformat()
            models = [{"name": m, "model": m, "modified_at": now, "size": 0} for m in self.models]
            return self._json(200, {"models": models})
        if not isinstance(body, dict):
            return self._json(400, {"error": "request body must be a JSON object"})
        if path == "/api/chat":
            return self._render(self._next_chat(body), body)
        if path == "/api/embed":
            with self._lock:
                queued = self._embed_queue.popleft() if self._embed_queue else None
            if queued is not None:
                return self._render(queued, body)
            inputs = body.get("input", [])
            inputs = [inputs] if isinstance(inputs, str) else list(inputs)
            vectors = [self.embed_fn(str(t)) for t in inputs]
            return self._json(200, {"model": body.get("model"), "embeddings": vectors})
        return self._json(404, {"error": f"path {path} not found"})

    def _render(self, response: Response, body: dict[str, Any]) -> tuple[int, bytes, str]:
        while isinstance(response, Delay):
            if self._stop.wait(response.seconds):
                return self._json(503, {"error": "server stopping"})
            if response.then is None:
                return self._json(500, {"error": "OllamaTestServer: Delay without a response"})
            response = response.then
        if isinstance(response, StatusError):
            return self._json(response.code, {"error": response.error})
        if isinstance(response, RawBody):
            raw = response.body.encode() if isinstance(response.body, str) else response.body
            return response.status, raw, response.content_type
        content = response if isinstance(response, str) else json.dumps(response)
        return self._json(
            200,
            {
                "model": body.get("model"),
                "created_at": datetime.now(UTC).isoformat(),
                "message": {"role": "assistant", "content": content},
                "done_reason": "stop",
                "done": True,
            },
        )

    @staticmethod
    def _json(status: int, obj: Any) -> tuple[int, bytes, str]:
        return status, json.dumps(obj).encode(), "application/json; charset=utf-8"

    def _handler_class(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: Any) -> None:
                pass  # keep test output clean

            def _handle(self, method: str) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b""
                try:
                    body: Any = json.loads(raw) if raw else None
                except ValueError:
                    body = raw.decode("utf-8", "replace")
                path = self.path.split("?", 1)[0]
                with server._lock:
                    server.requests.append(RecordedRequest(method, path, body))
                status, payload, ctype = server._answer(path, body)
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", ctype)
                    self.send_header("Content-Length", str(len(payload)))
                    self.end_headers()
                    self.wfile.write(payload)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (a timeout test): nothing to answer

            def do_GET(self) -> None:
                self._handle("GET")

            def do_POST(self) -> None:
                self._handle("POST")

        return Handler
