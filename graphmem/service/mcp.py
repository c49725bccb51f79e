"""graphmem as a Model Context Protocol server: the tools an agent needs, nothing more.

Built on the official ``mcp`` SDK (``MCPServer``). Each tool is one ``Memory`` call on
the namespace's cached ``Memory`` in a ``Service`` (the REST service's state: one store,
a write lock per namespace), so MCP, REST, the Python client and the CLI give the same
answers. Two transports:

- **stdio** (``graphmem -n alice mcp``): the agent starts the process; one namespace, fixed
  on the command line. Nothing listens on a port, so no key is asked for.
- **streamable HTTP**, served by ``graphmem serve`` at ``/mcp/{namespace}`` with the REST
  service's API keys: 401 without a valid key, 403 for a namespace the key may not use.

A failure comes back as an MCP tool error whose text is the problem's title and detail
(the REST service's problem JSON, in words); an unexpected one says only that the log has
the details, never a stack trace.
"""

from __future__ import annotations

import json
import logging
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Annotated, Any, Literal, TypeVar

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from mcp.server.transport_security import TransportSecuritySettings
from mcp_types import ToolAnnotations
from pydantic import Field
from starlette.types import Receive, Scope, Send

from graphmem import __version__
from graphmem._errors import GraphmemError, InvalidInputError
from graphmem._names import validate_namespace
from graphmem.results import evidence_to_dict
from graphmem.service.problems import problem_response
from graphmem.service.settings import Settings
from graphmem.service.state import Service
from graphmem.wire import ProblemException, block_to_dict, problem_for, problem_kind

__all__ = ["NAMESPACE_SCOPE_KEY", "TOOLS", "McpEndpoint", "build_mcp", "serve_stdio"]

log = logging.getLogger("graphmem.mcp")

# Where the HTTP endpoint leaves the authorized namespace for the tools to read.
NAMESPACE_SCOPE_KEY = "graphmem.namespace"

# Every tool, in the order an agent meets them (the parity test reads this).
TOOLS = (
    "remember",
    "evidence",
    "memory_block",
    "why",
    "history",
    "revoke",
    "resolve",
    "erase",
    "audit",
)

INSTRUCTIONS = """\
graphmem is your long-term memory. It keeps every fact with the message it came from and
what it replaced, and knows the current value of each (subject, relation).
- When the user tells you something worth keeping, call `remember`: with subject,
  relation and value when you know the fact, or with only the message `text` to let
  graphmem extract and keep it. Say intent "update" when the user changes a value.
- Before you reply, call `memory_block` with your draft or the user's message and the
  person you are talking to: it returns the few current lines worth reading (empty when
  nothing applies). For a question needing several facts, call `evidence`.
- `why` and `history` say where a value came from; `revoke` takes a value back, `resolve`
  settles a conflict, `erase` forgets a record for good (use it when a person asks).
"""

T = TypeVar("T")

Subject = Annotated[str, Field(description="who or what the fact is about, e.g. 'Minjun'")]
Relation = Annotated[
    str,
    Field(
        description="the attribute, in the user's words, e.g. 'standup time', '5k personal best'"
    ),
]
Speaker = Annotated[str | None, Field(description="who said it, when known")]


def _problem_text(exc: BaseException) -> str:
    """The problem's title and detail, as the REST service would say them."""
    body = problem_for(exc)
    return f"{body['title']}: {body['detail']}"


def _run(fn: Callable[[], T]) -> T:
    """One ``Memory`` call; graphmem's errors become MCP tool errors in plain words."""
    try:
        return fn()
    except (GraphmemError, ProblemException) as exc:
        raise ToolError(_problem_text(exc)) from None
    except Exception:
        log.exception("MCP tool failed")
        raise ToolError(
            "Internal server error: an unexpected error occurred; the server log has the details"
        ) from None


def build_mcp(service: Service, namespace: str | None = None) -> MCPServer:
    """The MCP server over ``service``.

    A call arriving over HTTP uses the namespace the endpoint authorized; any other
    (stdio) uses ``namespace``.
    """

    def ns_of(ctx: Context) -> str:
        request = ctx.request_context.request if ctx.request_context else None
        scope = getattr(request, "scope", None)
        if isinstance(scope, dict) and scope.get(NAMESPACE_SCOPE_KEY):
            return str(scope[NAMESPACE_SCOPE_KEY])
        if namespace is None:
            raise ToolError("Invalid input: no namespace; connect to /mcp/{namespace}")
        return namespace

    def write(ctx: Context, call: Callable[[Any], T]) -> T:
        ns = ns_of(ctx)
        mem = _run(lambda: service.memory(ns))

        def locked() -> T:
            with service.writing(ns):
                return call(mem)

        return _run(locked)

    def read(ctx: Context, call: Callable[[Any], T]) -> T:
        ns = ns_of(ctx)
        return _run(lambda: call(service.memory(ns)))

    server: MCPServer = MCPServer("graphmem", version=__version__, instructions=INSTRUCTIONS)
    reading = ToolAnnotations(read_only_hint=True, open_world_hint=False)

    @server.tool(
        annotations=ToolAnnotations(
            read_only_hint=False,
            destructive_hint=False,
            idempotent_hint=False,
            open_world_hint=False,
        )
    )
    def remember(
        ctx: Context,
        text: Annotated[
            str | None,
            Field(
                description="the message as the user said it: the evidence kept with the fact, "
                "or, without subject/relation/value, the message graphmem extracts facts from"
            ),
        ] = None,
        subject: Subject | None = None,
        relation: Relation | None = None,
        value: Annotated[str | None, Field(description="the value, e.g. '9:30'")] = None,
        intent: Annotated[
            Literal["assert", "update", "correct", "confirm"],
            Field(
                description="assert: a new fact; update: the value changed; correct: the old "
                "value was wrong; confirm: the current value is right"
            ),
        ] = "assert",
        speaker: Speaker = None,
        stated_at: Annotated[
            str | None, Field(description="ISO date when the value became true, if said")
        ] = None,
        record_id: Annotated[
            str | None, Field(description="your id for the message (default: derived)")
        ] = None,
    ) -> dict[str, Any]:
        """Remember what the user told you, with the message as evidence.

        Give subject, relation and value for one fact (the answer gives the current value),
        or only `text` to let graphmem extract the facts (kept as raw evidence when none
        is found; the answer counts what was stored)."""
        fact = (subject, relation, value)
        if all(part is not None for part in fact):
            assert subject is not None and relation is not None and value is not None
            return write(
                ctx,
                lambda mem: mem.remember(
                    subject,
                    relation,
                    value,
                    text=text,
                    intent=intent,
                    speaker=speaker,
                    stated_at=stated_at,
                    record_id=record_id,
                ).to_dict(),
            )
        if any(part is not None for part in fact):
            raise ToolError(
                _problem_text(
                    InvalidInputError("give subject, relation and value together, or only text")
                )
            )
        if not text:
            raise ToolError(
                _problem_text(
                    InvalidInputError(
                        "nothing to remember: give text, or subject, relation and value"
                    )
                )
            )
        record = {"text": text, "speaker": speaker, "stated_at": stated_at, "id": record_id}
        given = {k: v for k, v in record.items() if v is not None}
        return write(ctx, lambda mem: mem.ingest([given]).to_dict())

    @server.tool(annotations=reading)
    def evidence(
        ctx: Context,
        question: Annotated[str, Field(description="the question to answer")],
        budget_chars: Annotated[
            int, Field(ge=200, le=200_000, description=("at most this many characters of evidence"))
        ] = 6000,
        hops: Annotated[int, Field(ge=1, le=10, description="how far to follow links")] = 5,
    ) -> dict[str, Any]:
        """The original messages you must read to answer a question that may need several
        facts (e.g. 'Which country is the author of X a citizen of?'): current facts
        reached from the question's names, in the order they were said."""
        ev = read(ctx, lambda mem: mem.evidence(question, hops=hops, budget_chars=budget_chars))
        return evidence_to_dict(ev)

    @server.tool(annotations=reading)
    def memory_block(
        ctx: Context,
        request: Annotated[
            str, Field(description="the user's latest message or your unfinished reply")
        ],
        partner: Annotated[
            str, Field(description="the person you are talking to (tells namesakes apart)")
        ] = "",
        now: Annotated[str | None, Field(description="ISO time of the message")] = None,
        k: Annotated[int | None, Field(ge=1, le=50, description="at most this many lines")] = None,
        max_chars: Annotated[
            int | None, Field(ge=40, le=20_000, description=("at most this many characters"))
        ] = None,
        fresh: Annotated[
            bool | None,
            Field(description=("read the database now instead of the in-memory snapshot")),
        ] = None,
        deadline_ms: Annotated[
            float | None,
            Field(
                ge=0,
                le=60_000,
                description=("with fresh: wait at most this long, then serve the snapshot"),
            ),
        ] = None,
    ) -> dict[str, Any]:
        """The few current memory lines worth reading before you reply, about the right
        person. `text` is empty and `abstained` true when nothing applies: then add
        nothing to your reply."""
        options = {"k": k, "max_chars": max_chars, "fresh": fresh, "deadline_ms": deadline_ms}
        given = {name: v for name, v in options.items() if v is not None}
        blk = read(ctx, lambda mem: mem.block(request, partner, now, **given))
        return block_to_dict(blk)

    @server.tool(annotations=reading)
    def why(ctx: Context, subject: Subject, relation: Relation) -> dict[str, Any]:
        """Why is this remembered? The current value, the messages that support it, what
        it replaced, and a Cypher query (and Neo4j Browser link) to see it as a graph."""
        return read(ctx, lambda mem: mem.why(subject, relation).to_dict())

    @server.tool(annotations=reading)
    def history(ctx: Context, subject: Subject, relation: Relation) -> dict[str, Any]:
        """Every change to one fact, oldest first, each with the message behind it."""
        ops = read(ctx, lambda mem: mem.history(subject, relation))
        return {"subject": subject, "relation": relation, "operations": ops}

    @server.tool(
        annotations=ToolAnnotations(
            read_only_hint=False, destructive_hint=True, open_world_hint=False
        )
    )
    def revoke(
        ctx: Context,
        subject: Subject,
        relation: Relation,
        value: Annotated[
            str | None, Field(description="for a fact with several values: the one to take back")
        ] = None,
        text: Annotated[str | None, Field(description="the message that took it back")] = None,
        speaker: Speaker = None,
    ) -> dict[str, Any]:
        """Take back the current value (the user retracted it): the value before it becomes
        current again. Fails when the fact has no current value."""
        return write(
            ctx,
            lambda mem: mem.revoke(
                subject, relation, value=value, text=text, speaker=speaker
            ).to_dict(),
        )

    @server.tool(
        annotations=ToolAnnotations(
            read_only_hint=False, destructive_hint=True, open_world_hint=False
        )
    )
    def resolve(
        ctx: Context,
        subject: Subject,
        relation: Relation,
        value: Annotated[str, Field(description="the value that is right")],
        text: Annotated[str | None, Field(description="the message that settled it")] = None,
        speaker: Speaker = None,
    ) -> dict[str, Any]:
        """Settle a contested fact (two sources disagree): `value` becomes current. Fails
        when the fact is not contested; use remember with intent 'update' instead."""
        return write(
            ctx,
            lambda mem: mem.resolve(subject, relation, value, text=text, speaker=speaker).to_dict(),
        )

    @server.tool(
        annotations=ToolAnnotations(
            read_only_hint=False, destructive_hint=True, idempotent_hint=True, open_world_hint=False
        )
    )
    def erase(
        ctx: Context,
        record_id: Annotated[
            str, Field(description="the id of the message to forget (see why/history)")
        ],
    ) -> dict[str, Any]:
        """Forget a message for good (a person asked): its text and every value only it
        supported are erased; facts fall back to what other messages support."""
        return write(ctx, lambda mem: mem.erase(record_id).to_dict())

    @server.tool(annotations=reading)
    def audit(
        ctx: Context,
        name: Annotated[
            str,
            Field(
                description=(
                    "two_heads, contested_keys, revoked_values, versions_without_evidence, "
                    "supersedes_cycles, supersedes_forward, status_labels or heads"
                )
            ),
        ],
    ) -> dict[str, Any]:
        """Run a named read-only consistency check; an empty list of rows means it holds
        (heads lists every current value)."""
        return {"name": name, "rows": read(ctx, lambda mem: mem.audit(name))}

    @server.resource(
        "graphmem://why/{subject}/{relation}",
        mime_type="application/json",
        description="Why a fact is remembered, with the Cypher query to run in "
        "Neo4j Browser and a link that opens it.",
    )
    def why_resource(subject: str, relation: str, ctx: Context) -> str:
        exp = read(ctx, lambda mem: mem.why(subject, relation))
        return json.dumps(
            {
                "text": exp.text(),
                "cypher": exp.cypher,
                "params": exp.params,
                "browser_url": exp.browser_url,
                **exp.to_dict(),
            },
            ensure_ascii=False,
            default=str,
        )

    return server


class McpEndpoint:
    """``/mcp/{namespace}`` on the REST app: the service's keys, then MCP over HTTP.

    Stateless streamable HTTP with JSON responses: every request is authorized on its own,
    so a session can never carry one namespace's rights into another.
    """

    def __init__(self, service: Service) -> None:
        self.service = service
        self.server = build_mcp(service)
        self.sessions: StreamableHTTPSessionManager | None = None

    @asynccontextmanager
    async def running(self) -> AsyncIterator[None]:
        """Serve while the app runs (its lifespan); a session manager runs only once, so
        each start gets a new one."""
        # DNS-rebinding protection guards servers that trust whoever reaches them; this one
        # trusts only an API key sent explicitly with each request, which a rebound page
        # does not have. Host checks would only refuse legitimate proxies.
        self.server.streamable_http_app(
            stateless_http=True,
            json_response=True,
            transport_security=TransportSecuritySettings(enable_dns_rebinding_protection=False),
        )
        sessions = self.server.session_manager
        async with sessions.run():
            self.sessions = sessions
            try:
                yield
            finally:
                self.sessions = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        headers = {
            k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])
        }
        auth = headers.get("authorization", "")
        key = auth[7:].strip() if auth.lower().startswith("bearer ") else headers.get("x-api-key")
        ns = str(scope.get("path_params", {}).get("namespace", ""))
        try:
            refusal = self.service.keys.refusal(key, ns)
        except InvalidInputError as exc:
            kind = problem_kind(exc)
            await problem_response(kind.status, str(exc), type_=kind.type, title=kind.title)(
                scope, receive, send
            )
            return
        if refusal is not None:
            await problem_response(refusal.status, refusal.detail, headers=refusal.headers)(
                scope, receive, send
            )
            return
        sessions = self.sessions
        if sessions is None:
            await problem_response(
                503,
                "the MCP endpoint is not running (the app is starting or stopping); retry",
                headers={"Retry-After": "1"},
            )(scope, receive, send)
            return
        await sessions.handle_request({**scope, NAMESPACE_SCOPE_KEY: ns}, receive, send)


def serve_stdio(settings: Settings, namespace: str) -> None:
    """Serve ``namespace`` over stdio until the client closes it (``graphmem mcp``)."""
    validate_namespace(namespace)
    service = Service(settings, needs_keys=False)  # stdio: the agent started us
    try:
        build_mcp(service, namespace).run("stdio")
    finally:
        service.close()
