"""The Ollama adapter: structured chat, free chat and embeddings over Ollama's REST API.

Plain httpx rather than the ``ollama`` package, so every failure mode (refused
connection, timeout, HTTP status, a body or an answer that is not JSON, JSON of the wrong
shape) is caught in one place and turned into an ``LLMError`` that says what to do.
The model's JSON is checked against the schema here, because constrained decoding is a
request to the server, not a guarantee.
"""

from __future__ import annotations

import json
from typing import Any

import httpx

from graphmem._errors import LLMError
from graphmem.llm.base import Message

__all__ = [
    "DEFAULT_BASE_URL",
    "DEFAULT_EMBED_MODEL",
    "DEFAULT_MODEL",
    "OllamaClient",
    "validate_json",
]

DEFAULT_BASE_URL = "http://127.0.0.1:11434"
# Instruction-tuned, follows JSON schemas well and reads Korean.
DEFAULT_MODEL = "qwen2.5:7b-instruct"
# Multilingual embeddings: Korean and English names land in one space.
DEFAULT_EMBED_MODEL = "bge-m3"
DEFAULT_TIMEOUT = 120.0  # seconds; the first call also loads the model into memory

_JSON_TYPES: dict[str, tuple[type, ...]] = {
    "object": (dict,),
    "array": (list,),
    "string": (str,),
    "integer": (int,),
    "number": (int, float),
    "boolean": (bool,),
    "null": (type(None),),
}


def _type_ok(value: Any, name: str) -> bool:
    if name in ("integer", "number") and isinstance(value, bool):
        return False  # bool is an int in Python, never in JSON
    if name == "integer" and isinstance(value, float):
        return value.is_integer()
    return isinstance(value, _JSON_TYPES.get(name, (object,)))


def validate_json(value: Any, schema: dict[str, Any], path: str = "$") -> list[str]:
    """The problems of ``value`` against the subset of JSON schema graphmem writes.

    Checks ``type``, ``enum``, ``required``, ``properties`` and ``items``; other keywords
    are ignored. Returns an empty list when the value fits. Hand-written so that no
    schema library becomes a dependency for these few checks.
    """
    problems: list[str] = []
    expected = schema.get("type")
    if expected is not None:
        names = [expected] if isinstance(expected, str) else list(expected)
        if not any(_type_ok(value, n) for n in names):
            got = "null" if value is None else type(value).__name__
            return [f"{path}: expected {' or '.join(names)}, got {got}"]
    if "enum" in schema and value not in schema["enum"]:
        problems.append(f"{path}: {value!r} is not one of {schema['enum']!r}")
    if isinstance(value, dict):
        for key in schema.get("required", ()):
            if key not in value:
                problems.append(f"{path}: missing required key {key!r}")
        for key, sub in schema.get("properties", {}).items():
            if key in value:
                problems.extend(validate_json(value[key], sub, f"{path}.{key}"))
    if isinstance(value, list) and isinstance(schema.get("items"), dict):
        for i, item in enumerate(value):
            problems.extend(validate_json(item, schema["items"], f"{path}[{i}]"))
    return problems


def _snippet(text: str, limit: int = 200) -> str:
    text = text.strip()
    return text if len(text) <= limit else text[:limit] + f"… ({len(text):,} chars)"


class OllamaClient:
    """An ``LLMClient`` and ``Embedder`` backed by one Ollama server.

    ``transport`` is handed to httpx (tests, proxies); ``timeout`` is the default per-call
    limit in seconds, overridable per call.
    """

    def __init__(
        self,
        base_url: str = DEFAULT_BASE_URL,
        model: str = DEFAULT_MODEL,
        embed_model: str = DEFAULT_EMBED_MODEL,
        *,
        transport: httpx.BaseTransport | None = None,
        timeout: float = DEFAULT_TIMEOUT,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.model = model
        self.embed_model = embed_model
        self.timeout = timeout
        self._http = httpx.Client(base_url=self.base_url, transport=transport, timeout=timeout)

    def __repr__(self) -> str:
        return f"OllamaClient({self.base_url!r}, model={self.model!r}, embed={self.embed_model!r})"

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> OllamaClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- the protocols -------------------------------------------------------------------

    def chat_json(
        self, messages: list[Message], schema: dict[str, Any], *, timeout: float | None = None
    ) -> dict[str, Any]:
        """Ask for JSON that fits ``schema``; temperature 0 so a batch re-runs the same."""
        payload = {
            "model": self.model,
            "messages": messages,
            "format": schema,
            "stream": False,
            "options": {"temperature": 0},
        }
        data = self._post("/api/chat", payload, timeout, self.model)
        content = self._content(data)
        try:
            obj = json.loads(content)
        except json.JSONDecodeError as exc:
            cut = (
                " The answer was cut off (done_reason=length): send fewer records per call."
                if data.get("done_reason") == "length"
                else " Retry, or use a model that supports structured outputs (Ollama ≥ 0.5)."
            )
            raise LLMError(
                f"model {self.model!r} at {self.base_url} answered content that is not valid "
                f"JSON ({exc.msg} at char {exc.pos}): {_snippet(content)!r}.{cut}"
            ) from None
        problems = validate_json(obj, schema)
        if problems:
            shown = "; ".join(problems[:5])
            if len(problems) > 5:
                shown += f"; … {len(problems) - 5} more"
            raise LLMError(
                f"model {self.model!r} answered JSON that does not match the requested schema: "
                f"{shown}. The server may be too old to enforce `format` (Ollama ≥ 0.5 does); "
                "retry or use a stronger model."
            )
        return obj

    def chat(self, messages: list[Message], *, timeout: float | None = None) -> str:
        """A free-text answer, temperature 0."""
        payload = {
            "model": self.model,
            "messages": messages,
            "stream": False,
            "options": {"temperature": 0},
        }
        return self._content(self._post("/api/chat", payload, timeout, self.model))

    def embed(self, texts: list[str], *, timeout: float | None = None) -> list[list[float]]:
        """One vector per text, in order; an empty list costs no request."""
        texts = list(texts)
        if not texts:
            return []
        data = self._post(
            "/api/embed", {"model": self.embed_model, "input": texts}, timeout, self.embed_model
        )
        vectors = data.get("embeddings")
        ok = (
            isinstance(vectors, list)
            and len(vectors) == len(texts)
            and all(
                isinstance(v, list) and v and all(_type_ok(x, "number") for x in v)
                for v in vectors
            )
        )
        if not ok:
            got = f"{len(vectors)} vectors" if isinstance(vectors, list) else repr(vectors)[:80]
            raise LLMError(
                f"Ollama at {self.base_url} answered /api/embed without {len(texts)} numeric "
                f"vectors (got {got}); is {self.embed_model!r} an embedding model? "
                f"Try `ollama pull {self.embed_model}`."
            )
        return [[float(x) for x in v] for v in vectors]

    def list_models(self, *, timeout: float | None = None) -> list[str]:
        """Names of the models pulled on the server (GET /api/tags): a cheap health check."""
        data = self._request("GET", "/api/tags", None, timeout, self.model)
        models = data.get("models")
        if not isinstance(models, list):
            raise LLMError(
                f"{self.base_url}/api/tags did not list models; is it really an Ollama server?"
            )
        return [str(m.get("name", "")) for m in models if isinstance(m, dict)]

    # -- HTTP ----------------------------------------------------------------------------

    def _content(self, data: dict[str, Any]) -> str:
        message = data.get("message")
        content = message.get("content") if isinstance(message, dict) else None
        if not isinstance(content, str):
            raise LLMError(
                f"Ollama at {self.base_url} answered /api/chat without message.content "
                f"({_snippet(json.dumps(data))}); is it really an Ollama server?"
            )
        return content

    def _post(
        self, path: str, payload: dict[str, Any], timeout: float | None, model: str
    ) -> dict[str, Any]:
        return self._request("POST", path, payload, timeout, model)

    def _request(
        self,
        method: str,
        path: str,
        payload: dict[str, Any] | None,
        timeout: float | None,
        model: str,
    ) -> dict[str, Any]:
        limit = self.timeout if timeout is None else timeout
        where = f"{self.base_url}{path}"
        try:
            resp = self._http.request(method, path, json=payload, timeout=limit)
        except httpx.TimeoutException:
            raise LLMError(
                f"Ollama at {where} did not answer within {limit:g}s (model {model!r}). "
                "The first call loads the model; raise timeout=, send fewer records per "
                "call, or use a smaller model."
            ) from None
        except httpx.ConnectError as exc:
            raise LLMError(
                f"cannot connect to Ollama at {self.base_url} ({exc}). Is Ollama running? "
                f"Start it with `ollama serve` and fetch the model with `ollama pull {model}`, "
                "or pass base_url= for another host."
            ) from None
        except (httpx.HTTPError, httpx.InvalidURL) as exc:
            raise LLMError(
                f"request to Ollama at {where} failed: {type(exc).__name__}: {exc}. "
                "Check that base_url points at a running Ollama server."
            ) from None
        if resp.status_code >= 400:
            raise LLMError(self._status_message(resp, where, model))
        try:
            data = resp.json()
        except ValueError:
            raise LLMError(
                f"Ollama at {where} answered HTTP {resp.status_code} with a body that is not "
                f"JSON: {_snippet(resp.text)!r}. Is {self.base_url} really an Ollama server?"
            ) from None
        if not isinstance(data, dict):
            raise LLMError(
                f"Ollama at {where} answered a JSON {type(data).__name__}, not an object; "
                f"is {self.base_url} really an Ollama server?"
            )
        return data

    @staticmethod
    def _status_message(resp: httpx.Response, where: str, model: str) -> str:
        try:
            body = resp.json()
            detail = str(body.get("error", body)) if isinstance(body, dict) else str(body)
        except ValueError:
            detail = resp.text
        detail = _snippet(detail) or resp.reason_phrase
        if resp.status_code == 404:
            return (
                f"Ollama at {where} answered 404: {detail}. If the model is missing, run "
                f"`ollama pull {model}`; if the path is, the server is not Ollama or too old."
            )
        return (
            f"Ollama at {where} answered HTTP {resp.status_code}: {detail}. "
            "Check the Ollama server log (`journalctl -u ollama` or the `ollama serve` output)."
        )
