"""The Ollama adapter: structured chat, free chat and embeddings through the official client.

Requests go through the ``ollama`` package (``ollama.Client``), so the wire format (request
models, host parsing, headers, response models) follows Ollama's own client as the API
evolves instead of a hand-written copy of it. What that client does not do is left here:

- every failure mode is turned into an ``LLMError`` that says what to do, in one place
  (``_call``): a refused connection (``ConnectionError``), a timeout and other transport
  failures (``httpx`` errors, which ``ollama`` lets through), an HTTP error status
  (``ollama.ResponseError``), a request the client's models reject (``ollama.RequestError``
  or a pydantic error on a request model), and a response that is not JSON, not a JSON
  object, or of the wrong shape (checked by a response hook and by the client's
  pydantic response models);
- the model's JSON answer is checked against the requested schema (``validate_json``),
  because constrained decoding is a request to the server, not a guarantee;
- a per-call ``timeout=``: ``ollama.Client`` fixes one at construction, so a request hook
  applies the call's limit (kept in a context variable, hence thread-safe).

``ollama.Client`` hands extra keyword arguments to ``httpx.Client``; that is how the
optional ``transport`` (tests, proxies) and the hooks get in.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from http import HTTPStatus
from typing import Any, TypeVar

import httpx
import ollama
import pydantic

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

# The limit of the call in progress in this thread/task; None: the client's default.
_CALL_TIMEOUT: ContextVar[float | None] = ContextVar("graphmem_ollama_timeout", default=None)
_T = TypeVar("_T")

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


def _problems(exc: pydantic.ValidationError, limit: int = 3) -> str:
    """A pydantic error as ``loc: msg; …``, short enough for one line."""
    errors = exc.errors()
    shown = "; ".join(
        f"{'.'.join(str(p) for p in e['loc']) or '$'}: {e['msg']}" for e in errors[:limit]
    )
    return shown + (f"; … {len(errors) - limit} more" if len(errors) > limit else "")


def _apply_call_timeout(request: httpx.Request) -> None:
    """httpx request hook: a call's ``timeout=`` overrides the client-wide default."""
    limit = _CALL_TIMEOUT.get()
    if limit is not None:
        request.extensions["timeout"] = httpx.Timeout(limit).as_dict()


@contextmanager
def _call_timeout(limit: float | None) -> Iterator[None]:
    token = _CALL_TIMEOUT.set(limit)
    try:
        yield
    finally:
        _CALL_TIMEOUT.reset(token)


class OllamaClient:
    """An ``LLMClient`` and ``Embedder`` backed by one Ollama server.

    ``transport`` is handed to httpx through ``ollama.Client`` (tests, proxies);
    ``timeout`` is the default per-call limit in seconds, overridable per call.
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
        try:
            self._ollama = ollama.Client(
                host=self.base_url,
                timeout=timeout,
                transport=transport,
                event_hooks={"request": [_apply_call_timeout], "response": [self._check_body]},
            )
        except (ValueError, httpx.InvalidURL) as exc:
            raise LLMError(
                f"base_url {base_url!r} is not a usable URL ({exc}); pass the address of an "
                f"Ollama server, e.g. {DEFAULT_BASE_URL!r}."
            ) from None

    def __repr__(self) -> str:
        return f"OllamaClient({self.base_url!r}, model={self.model!r}, embed={self.embed_model!r})"

    def close(self) -> None:
        self._ollama.close()

    def __enter__(self) -> OllamaClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- the protocols -------------------------------------------------------------------

    def chat_json(
        self, messages: list[Message], schema: dict[str, Any], *, timeout: float | None = None
    ) -> dict[str, Any]:
        """Ask for JSON that fits ``schema``; temperature 0 so a batch re-runs the same."""
        resp = self._call(
            "/api/chat",
            self.model,
            timeout,
            lambda: self._ollama.chat(
                model=self.model,
                messages=messages,
                format=schema,
                stream=False,
                options={"temperature": 0},
            ),
            expect="message.content",
        )
        content = self._content(resp)
        try:
            obj = json.loads(content)
        except json.JSONDecodeError as exc:
            cut = (
                " The answer was cut off (done_reason=length): send fewer records per call."
                if resp.done_reason == "length"
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
        resp = self._call(
            "/api/chat",
            self.model,
            timeout,
            lambda: self._ollama.chat(
                model=self.model, messages=messages, stream=False, options={"temperature": 0}
            ),
            expect="message.content",
        )
        return self._content(resp)

    def embed(self, texts: list[str], *, timeout: float | None = None) -> list[list[float]]:
        """One vector per text, in order; an empty list costs no request."""
        texts = list(texts)
        if not texts:
            return []
        hint = f"Is {self.embed_model!r} an embedding model? Try `ollama pull {self.embed_model}`."
        resp = self._call(
            "/api/embed",
            self.embed_model,
            timeout,
            lambda: self._ollama.embed(model=self.embed_model, input=texts),
            expect=f"{len(texts)} numeric vectors",
            hint=hint,
        )
        vectors = [list(v) for v in resp.embeddings]
        ok = len(vectors) == len(texts) and all(
            v and all(_type_ok(x, "number") for x in v) for v in vectors
        )
        if not ok:
            raise LLMError(
                f"Ollama at {self.base_url} answered /api/embed without {len(texts)} numeric "
                f"vectors (got {len(vectors)} vectors, sizes "
                f"{_snippet(str([len(v) for v in vectors]), 80)}). {hint}"
            )
        return [[float(x) for x in v] for v in vectors]

    def list_models(self, *, timeout: float | None = None) -> list[str]:
        """Names of the models pulled on the server (GET /api/tags): a cheap health check."""
        resp = self._call("/api/tags", self.model, timeout, self._ollama.list, expect="models")
        return [m.model or "" for m in resp.models]

    # -- failures ------------------------------------------------------------------------

    def _content(self, resp: ollama.ChatResponse) -> str:
        content = resp.message.content
        if not isinstance(content, str):
            raise LLMError(
                f"Ollama at {self.base_url} answered /api/chat without message.content "
                f"({_snippet(resp.model_dump_json(exclude_none=True))}); "
                "is it really an Ollama server?"
            )
        return content

    def _check_body(self, response: httpx.Response) -> None:
        """httpx response hook: a successful answer must be a JSON object.

        ``ollama.Client`` would fail on anything else with a bare ``JSONDecodeError`` or
        ``TypeError``; checking here names the body. Error statuses are left to the client,
        which raises ``ollama.ResponseError`` for them.
        """
        if not response.is_success:
            return
        response.read()
        where = str(response.request.url.copy_with(query=None))
        try:
            data = response.json()
        except ValueError:
            raise LLMError(
                f"Ollama at {where} answered HTTP {response.status_code} with a body that is "
                f"not JSON: {_snippet(response.text)!r}. Is {self.base_url} really an Ollama "
                "server?"
            ) from None
        if not isinstance(data, dict):
            raise LLMError(
                f"Ollama at {where} answered a JSON {type(data).__name__}, not an object; "
                f"is {self.base_url} really an Ollama server?"
            )

    def _call(
        self,
        path: str,
        model: str,
        timeout: float | None,
        send: Callable[[], _T],
        *,
        expect: str,
        hint: str = "",
    ) -> _T:
        """``send()`` (one ``ollama.Client`` call) with every failure as an ``LLMError``."""
        limit = self.timeout if timeout is None else timeout
        where = f"{self.base_url}{path}"
        try:
            with _call_timeout(timeout):
                return send()
        except LLMError:
            raise  # from the response hook: already says what to do
        except ollama.ResponseError as exc:
            raise LLMError(self._status_message(exc.status_code, exc.error, where, model)) from None
        except httpx.TimeoutException:
            raise LLMError(
                f"Ollama at {where} did not answer within {limit:g}s (model {model!r}). "
                "The first call loads the model; raise timeout=, send fewer records per "
                "call, or use a smaller model."
            ) from None
        except (ConnectionError, httpx.ConnectError) as exc:
            # ollama.Client turns httpx.ConnectError into a ConnectionError; name the cause.
            cause = exc.__context__ if isinstance(exc.__context__, httpx.ConnectError) else exc
            raise LLMError(
                f"cannot connect to Ollama at {self.base_url} ({cause}). Is Ollama running? "
                f"Start it with `ollama serve` and fetch the model with `ollama pull {model}`, "
                "or pass base_url= for another host."
            ) from None
        except ollama.RequestError as exc:
            raise LLMError(
                f"the ollama client refused the request to {where}: {exc.error}. "
                f"Check model= / embed_model= (now {model!r}) and the messages."
            ) from None
        except pydantic.ValidationError as exc:
            if exc.title.endswith("Response"):  # ChatResponse, EmbedResponse, ListResponse
                raise LLMError(
                    f"Ollama at {self.base_url} answered {path} without {expect} "
                    f"({_problems(exc)}). "
                    + (hint or f"Is {self.base_url} really an Ollama server?")
                ) from None
            raise LLMError(  # a request model (ChatRequest, Message, EmbedRequest, …)
                f"the ollama client refused to send the request to {where}: {exc.title} "
                f"{_problems(exc)}. Check the model name (now {model!r}) and the arguments: "
                "messages are {'role': str, 'content': str} dicts, texts are strings."
            ) from None
        except (httpx.HTTPError, httpx.InvalidURL) as exc:
            raise LLMError(
                f"request to Ollama at {where} failed: {type(exc).__name__}: "
                f"{str(exc).rstrip('.')}. "
                "Check that base_url points at a running Ollama server."
            ) from None
        except AttributeError as exc:
            # ollama.ResponseError() itself fails on an error body that is JSON but not an
            # object (it calls .get on it); the status error it was building is the context.
            status = exc.__context__
            if not isinstance(status, httpx.HTTPStatusError):
                raise
            resp = status.response
            raise LLMError(
                self._status_message(resp.status_code, resp.text, where, model)
            ) from None

    @staticmethod
    def _status_message(status: int, error: object, where: str, model: str) -> str:
        detail = _snippet(str(error))
        if status < 0:  # a streamed answer's {"error": ...}: no HTTP status to report
            return (
                f"Ollama at {where} reported an error: {detail}. Check the Ollama server log "
                "(`journalctl -u ollama` or the `ollama serve` output)."
            )
        if not detail:
            try:
                detail = HTTPStatus(status).phrase
            except ValueError:
                detail = "no reason given"
        if status == 404:
            return (
                f"Ollama at {where} answered 404: {detail}. If the model is missing, run "
                f"`ollama pull {model}`; if the path is, the server is not Ollama or too old."
            )
        return (
            f"Ollama at {where} answered HTTP {status}: {detail}. "
            "Check the Ollama server log (`journalctl -u ollama` or the `ollama serve` output)."
        )
