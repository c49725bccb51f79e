"""The ``graphmem`` command: a thin layer over ``Memory`` and ``LocalNeo4j``."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Literal, TypeVar

import click

from graphmem._errors import GraphmemError
from graphmem.config import EXTRACTOR_NAMES

if TYPE_CHECKING:  # the heavy modules load only in the commands that need them
    from graphmem.local_neo4j import LocalNeo4j
    from graphmem.memory import Memory
    from graphmem.service import Settings

_F = TypeVar("_F", bound=Callable[..., Any])

DATA_DEFAULT = "../shared/data"


def _connect(ctx: click.Context, **kwargs: Any) -> Memory:
    from graphmem.memory import Memory

    return Memory.connect(ctx.obj["uri"], ctx.obj["namespace"], **kwargs)


def _json(obj: Any) -> None:
    click.echo(json.dumps(obj, ensure_ascii=False, indent=2, default=str))


_extractor_options = [
    click.option(
        "--extractor",
        type=click.Choice(EXTRACTOR_NAMES),
        default=None,
        help="How records without facts are read: none (kept raw), chat (rules, no "
        "model), llm (Ollama). Default: $GRAPHMEM_EXTRACTOR, else none.",
    ),
    click.option(
        "--ollama-url",
        default=None,
        help="Ollama base URL for --extractor llm (default: $GRAPHMEM_OLLAMA_URL).",
    ),
    click.option(
        "--ollama-model",
        default=None,
        help="Ollama model for --extractor llm (default: $GRAPHMEM_OLLAMA_MODEL).",
    ),
]


def _with_extractor_options(f: _F) -> _F:
    for opt in reversed(_extractor_options):
        f = opt(f)
    return f


def _memory_overrides(
    extractor: str | None, ollama_url: str | None, ollama_model: str | None
) -> dict[str, Any]:
    given = {"extractor": extractor, "ollama_url": ollama_url, "ollama_model": ollama_model}
    return {k: v for k, v in given.items() if v is not None}


def _service_settings(ctx: click.Context, **overrides: Any) -> Settings:
    """``Settings.from_env`` with the CLI's choices; starts the local Neo4j without a URI."""
    from graphmem.service import Settings

    uri = ctx.obj["uri"]
    if uri is None:
        from graphmem.local_neo4j import LocalNeo4j

        local = LocalNeo4j()
        uri = local.start().bolt_url
        overrides.setdefault("neo4j_http_url", f"http://127.0.0.1:{local.http_port}")
    return Settings.from_env(neo4j_uri=uri, **overrides)


class _Group(click.Group):
    """Turns graphmem's own errors into one readable line and exit code 1."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except GraphmemError as exc:
            click.echo(f"error: {exc}", err=True)
            sys.exit(1)


@click.group(cls=_Group)
@click.option(
    "--uri",
    envvar="NEO4J_URI",
    default=None,
    help="Bolt URI of Neo4j (default: $NEO4J_URI, else the local server).",
)
@click.option(
    "-n",
    "--namespace",
    default="default",
    show_default=True,
    help="Whose memory: every read and write stays inside it.",
)
@click.pass_context
def main(ctx: click.Context, uri: str | None, namespace: str) -> None:
    """graphmem: agent memory in Neo4j, with evidence, history and 'why'.

    \b
    Example:
      graphmem demo
      graphmem -n alice why Minjun "5k personal best"
    """
    ctx.ensure_object(dict)
    ctx.obj.update(uri=uri, namespace=namespace)


# -- neo4j -----------------------------------------------------------------------------
@main.group()
def neo4j() -> None:
    """Start, stop or inspect the local Neo4j server (no Docker needed).

    \b
    Example:
      graphmem neo4j start --data-dir ~/graphmem-data
    """


def _server(data_dir: str | None, bolt_port: int, http_port: int, heap: str | None) -> LocalNeo4j:
    from graphmem.local_neo4j import LocalNeo4j

    return LocalNeo4j(data_dir, bolt_port=bolt_port, http_port=http_port, heap=heap)


_server_options = [
    click.option(
        "--data-dir",
        default=None,
        help="Where the database lives "
        "(default: $GRAPHMEM_HOME/server, GRAPHMEM_HOME defaults to ~/.cache/graphmem).",
    ),
    click.option("--bolt-port", default=7687, show_default=True),
    click.option("--http-port", default=7474, show_default=True),
]


def _with_server_options(f: _F) -> _F:
    for opt in reversed(_server_options):
        f = opt(f)
    return f


@neo4j.command("start")
@_with_server_options
@click.option(
    "--heap", default=None, help="JVM heap, e.g. 2g (default $GRAPHMEM_NEO4J_HEAP or 2g)."
)
def neo4j_start(data_dir: str | None, bolt_port: int, http_port: int, heap: str | None) -> None:
    """Fetch (once) and start Neo4j 5.26; reuse it when already running.

    \b
    Example:
      graphmem neo4j start
    """
    server = _server(data_dir, bolt_port, http_port, heap)
    if not server.lib_dir.joinpath(".complete").exists():
        click.echo("Fetching Neo4j jars from Maven Central (once)…", err=True)
    status = server.start()
    click.echo(("Reusing" if status.reused else "Started") + f" Neo4j (pid {status.pid})")
    click.echo(f"  Bolt:    {status.bolt_url}")
    click.echo(f"  Browser: {status.browser_url}")
    click.echo(f"  Data:    {status.data_dir}")
    click.echo(f"  Log:     {status.log_path}")


@neo4j.command("stop")
@_with_server_options
@click.option(
    "--no-compact",
    is_flag=True,
    help="Stop at once, even when records were erased since the last compaction "
    "(their text then stays in Neo4j's files until `graphmem neo4j compact`).",
)
def neo4j_stop(data_dir: str | None, bolt_port: int, http_port: int, no_compact: bool) -> None:
    """Stop the local Neo4j (SIGTERM, then wait).

    When records were erased since the last compaction, the database is first rewritten
    (as `graphmem neo4j compact` does) so that the erased text leaves the disk.

    \b
    Example:
      graphmem neo4j stop
    """
    server = _server(data_dir, bolt_port, http_port, None)
    erased = 0 if no_compact or not server.status().running else server.erasures_since_compaction()
    if erased:
        click.echo(
            f"{erased} record(s) erased since the last compaction: rewriting the "
            "database so their text leaves the disk (--no-compact skips this)…",
            err=True,
        )
        _compact(server, keep_running=False)
        click.echo("Stopped Neo4j.")
        return
    stopped = server.stop()
    click.echo("Stopped Neo4j." if stopped else "No local Neo4j was running.")


def _compact(server: LocalNeo4j, *, keep_running: bool) -> None:
    report = server.compact(
        lambda step: click.echo(f"  {step}", err=True), keep_running=keep_running
    )
    mib = 1024 * 1024
    click.echo(
        f"Compacted {report['nodes']:,} nodes and {report['relationships']:,} "
        f"relationships in {report['seconds']} s: store and logs "
        f"{report['bytes_before'] / mib:.1f} MiB -> {report['bytes_after'] / mib:.1f} MiB."
    )


@neo4j.command("compact")
@_with_server_options
def neo4j_compact(data_dir: str | None, bolt_port: int, http_port: int) -> None:
    """Rewrite the local database so deleted and erased data leaves the disk.

    Neo4j Community keeps the bytes of deleted records, Lucene segments and transaction
    logs on disk until they are reused or pruned. This reads the live graph out, restarts
    Neo4j on an empty database, writes the graph back and deletes the old files. Neo4j is
    unavailable for the rewrite (seconds per 100k records) and runs afterwards.

    \b
    Example:
      graphmem neo4j compact --data-dir ~/graphmem-data
    """
    _compact(_server(data_dir, bolt_port, http_port, None), keep_running=True)


@neo4j.command("status")
@_with_server_options
@click.option("--json", "as_json", is_flag=True, help="Print the status as JSON.")
def neo4j_status(data_dir: str | None, bolt_port: int, http_port: int, as_json: bool) -> None:
    """Say whether the local Neo4j runs, and where.

    \b
    Example:
      graphmem neo4j status --json
    """
    status = _server(data_dir, bolt_port, http_port, None).status()
    if as_json:
        _json(status.to_dict())
        return
    if status.running:
        click.echo(
            f"running (pid {status.pid})  Bolt {status.bolt_url}  Browser {status.browser_url}"
        )
    else:
        click.echo(f"not running (data {status.data_dir})")
        sys.exit(3)


@neo4j.command("schema")
def neo4j_schema() -> None:
    """Print graphmem's constraints and indexes as Cypher (what connecting installs),
    for an auditor to read or run in Neo4j Browser.

    \b
    Example:
      graphmem neo4j schema > schema.cypher
    """
    from graphmem.store.neo4j.schema import schema_cypher

    click.echo(schema_cypher(), nl=False)


# -- the main job ----------------------------------------------------------------------
@main.command()
@click.pass_context
def demo(ctx: click.Context) -> None:
    """Tell graphmem a short story and show what it remembers and why.

    Starts the local Neo4j if needed; each run uses a fresh namespace.

    \b
    Example:
      graphmem demo
    """
    from graphmem.demo import demo_namespace, run_demo
    from graphmem.memory import Memory

    ns = ctx.obj["namespace"] if ctx.obj["namespace"] != "default" else demo_namespace()
    with Memory.connect(ctx.obj["uri"], ns) as mem:
        run_demo(mem, click.echo)


# -- writing -------------------------------------------------------------------------------
@main.command()
@click.argument("path", type=click.Path(exists=True, dir_okay=False))
@click.option("--batch-size", default=5000, show_default=True)
@_with_extractor_options
@click.pass_context
def ingest(
    ctx: click.Context,
    path: str,
    batch_size: int,
    extractor: str | None,
    ollama_url: str | None,
    ollama_model: str | None,
) -> None:
    """Store records from a JSONL file (one record object per line); exit 1 when any line
    or record could not be stored (the others are).

    Each line: {"text": ..., "id": ..., "speaker": ..., "observed_at": ...,
    "facts": [{"subject": ..., "relation": ..., "value": ..., "intent": "update"}]}.

    \b
    Example:
      graphmem -n alice ingest messages.jsonl
    """
    from graphmem.formats.jsonl import read_jsonl

    rows: list[dict[str, Any]] = []
    bad = 0
    for lineno, obj, error in read_jsonl(path):
        if obj is None:  # a bad line: read_jsonl says why
            bad += 1
            click.echo(f"line {lineno}: {error}", err=True)
        else:
            rows.append(obj)
    overrides = _memory_overrides(extractor, ollama_url, ollama_model)
    with _connect(ctx, **overrides) as mem:
        report = mem.ingest(rows, batch_size=batch_size, progress=True)
    for err in report.errors:
        click.echo(f"record {err.get('id') or err.get('index')}: {err['error']}", err=True)
    click.echo(report.summary() + (f"; {bad} lines were not JSON" if bad else ""))
    if bad or report.errors:  # what could be stored is; the exit code says not all of it
        sys.exit(1)


@main.command()
@click.argument("subject")
@click.argument("relation")
@click.argument("value")
@click.option("--text", default=None, help="The record's text (default: the fact itself).")
@click.option(
    "--intent",
    default="assert",
    show_default=True,
    type=click.Choice(["assert", "update", "correct", "confirm"]),
)
@click.option("--speaker", default=None)
@click.option(
    "--authority",
    default=None,
    type=click.Choice(["hearsay", "first_person", "official", "system"]),
)
@click.option("--stated-at", default=None, help="When the value became true (ISO date).")
@click.option("--record-id", default=None, help="The record's id (default: derived).")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@click.pass_context
def remember(
    ctx: click.Context, subject: str, relation: str, value: str, as_json: bool, **kw: Any
) -> None:
    """Store one fact with its record.

    \b
    Example:
      graphmem remember Minjun "standup time" 9:30 --text "standup moved to 9:30" --intent update
    """
    with _connect(ctx) as mem:
        r = mem.remember(subject, relation, value, **kw)
    _write_result(r, subject, relation, as_json)


def _write_result(r: Any, subject: str, relation: str, as_json: bool) -> None:
    if as_json:
        _json(r.to_dict())
    else:
        click.echo(f"{r.op}: {subject} / {relation} = {r.head!r} ({r.status})")


@main.command()
@click.argument("subject")
@click.argument("relation")
@click.option("--value", default=None, help="For a set-valued relation: the member to revoke.")
@click.option("--text", default=None, help="The record's text (default: 'revoke: …').")
@click.option("--speaker", default=None)
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@click.pass_context
def revoke(ctx: click.Context, subject: str, relation: str, as_json: bool, **kw: Any) -> None:
    """Take back the current value; the one before becomes current again.

    \b
    Example:
      graphmem revoke Minjun "5k personal best"
    """
    with _connect(ctx) as mem:
        r = mem.revoke(subject, relation, **kw)
    _write_result(r, subject, relation, as_json)


@main.command()
@click.argument("subject")
@click.argument("relation")
@click.argument("value")
@click.option("--text", default=None, help="The record's text (default: 'confirmed: …').")
@click.option("--speaker", default=None)
@click.option(
    "--authority",
    default=None,
    type=click.Choice(["hearsay", "first_person", "official", "system"]),
)
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@click.pass_context
def resolve(
    ctx: click.Context, subject: str, relation: str, value: str, as_json: bool, **kw: Any
) -> None:
    """Settle a contested key: VALUE becomes current, the others are contradicted.

    \b
    Example:
      graphmem resolve Minjun "5k personal best" 26:40 --authority official
    """
    with _connect(ctx) as mem:
        r = mem.resolve(subject, relation, value, **kw)
    _write_result(r, subject, relation, as_json)


@main.command()
@click.argument("record_id")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.pass_context
def erase(ctx: click.Context, record_id: str, as_json: bool) -> None:
    """Erase a record and every value only it supported (GDPR-style).

    \b
    Example:
      graphmem -n alice erase msg-0042
    """
    with _connect(ctx) as mem:
        r = mem.erase(record_id)
    if as_json:
        _json(r.to_dict())
        return
    click.echo(
        f"erased {record_id}: {r.versions_removed} versions removed, "
        f"{r.keys_rematerialized} keys re-materialized"
    )


@main.command()
@click.option(
    "--embedder",
    default=None,
    help="The model to embed with: e5 (bundled), ollama:<model>. Default: "
    "$GRAPHMEM_EMBEDDER, else e5.",
)
@click.option("--no-progress", is_flag=True, help="Print no progress bar.")
@click.pass_context
def reembed(ctx: click.Context, embedder: str | None, no_progress: bool) -> None:
    """Re-embed a namespace: forget its vectors and their model, then embed every record
    and current value with EMBEDDER (to change models, or after a model upgrade).

    \b
    Example:
      graphmem -n alice reembed --embedder ollama:bge-m3
    """
    from graphmem.config import MemoryConfig

    chosen = embedder or MemoryConfig.from_env().embedder
    # Connected without an embedder: the namespace may hold another model's vectors.
    with _connect(ctx, embedder="none") as mem:
        n = mem.reembed(chosen if isinstance(chosen, str) else None, progress=not no_progress)
    click.echo(f"re-embedded {n} texts of namespace {ctx.obj['namespace']!r} with {chosen}")


# -- reading -------------------------------------------------------------------------------
@main.command()
@click.argument("subject")
@click.argument("relation")
@click.option("--json", "as_json", is_flag=True, help="Print the full explanation as JSON.")
@click.pass_context
def why(ctx: click.Context, subject: str, relation: str, as_json: bool) -> None:
    """Why do you remember this? Value, evidence, what it replaced, a Cypher query.

    \b
    Example:
      graphmem why Minjun "5k personal best"
    """
    with _connect(ctx) as mem:
        exp = mem.why(subject, relation)
    if as_json:
        _json(exp.to_dict())
        return
    click.echo(exp.text())
    click.echo("\nCypher (paste into Neo4j Browser):")
    from graphmem.explain import cypher_literal

    click.echo(":param kid => " + cypher_literal(exp.params["kid"]))
    click.echo(exp.cypher)
    if exp.browser_url:
        click.echo(f"Browser: {exp.browser_url}")


@main.command()
@click.argument("subject")
@click.argument("relation")
@click.option("--json", "as_json", is_flag=True, help="Print the operations as JSON.")
@click.option(
    "--limit", default=100, show_default=True, type=click.IntRange(1, 1000), help="At most."
)
@click.option(
    "--offset", default=0, show_default=True, type=click.IntRange(0, 10**9), help="Skip first."
)
@click.pass_context
def history(
    ctx: click.Context, subject: str, relation: str, as_json: bool, limit: int, offset: int
) -> None:
    """The op log of one key, oldest first, a page at a time.

    \b
    Example:
      graphmem history Minjun "5k personal best" --limit 100 --offset 100
    """
    with _connect(ctx) as mem:
        ops = mem.history(subject, relation, limit=limit, offset=offset)
    if as_json:
        _json(ops)
        return
    for op in ops:
        value = (op["fact"] or {}).get("value") or "-"
        click.echo(f"{op['pos']:>6} {op['kind']:<8} {value:<20} {op['text']!r}")


@main.command("as-of")
@click.argument("subject")
@click.argument("relation")
@click.argument("at")
@click.option(
    "--axis",
    type=click.Choice(["valid", "transaction"]),
    default="valid",
    show_default=True,
    help="valid: what held then; transaction: what memory believed then.",
)
@click.pass_context
def as_of(
    ctx: click.Context,
    subject: str,
    relation: str,
    at: str,
    axis: Literal["valid", "transaction"],  # the --axis choices
) -> None:
    """The value that held at AT (an ISO date or datetime); exit 3 when none did.

    \b
    Example:
      graphmem as-of Minjun "5k personal best" 2026-05-01
    """
    with _connect(ctx, install_schema=False) as mem:
        value = mem.as_of(subject, relation, at, axis=axis)
    if value is None:
        click.echo("(no value)")
        sys.exit(3)
    click.echo(value)


@main.command()
@click.option("--history", "with_history", is_flag=True, help="Also say what each value replaced.")
@click.pass_context
def state(ctx: click.Context, with_history: bool) -> None:
    """Every current value of the namespace, one 'subject relation = value' line each.

    \b
    Example:
      graphmem -n alice state --history
    """
    with _connect(ctx, install_schema=False) as mem:
        click.echo(mem.state("history" if with_history else "current"))


@main.command()
@click.argument("name")
@click.option("--json", "as_json", is_flag=True)
@click.pass_context
def audit(ctx: click.Context, name: str, as_json: bool) -> None:
    """Run a named, read-only audit query from cypher/audit_*.cypher.

    NAME is one of: two_heads, contested_keys, revoked_values, versions_without_evidence,
    supersedes_cycles, supersedes_forward, status_labels, heads.

    \b
    Example:
      graphmem audit two_heads
    """
    with _connect(ctx, install_schema=False) as mem:
        rows = mem.audit(name)
    if as_json:
        _json(rows)
        return
    for row in rows:
        click.echo("  ".join(f"{k}={v}" for k, v in row.items()))
    click.echo(f"({len(rows)} rows)")


@main.command()
@click.argument("question")
@click.option("--hops", default=5, show_default=True, help="Closure depth (1-10).")
@click.option(
    "--budget",
    "budget_chars",
    default=60_000,
    show_default=True,
    help="Characters of evidence, header included.",
)
@click.option(
    "--control",
    default="cmc",
    show_default=True,
    help="How records are chosen: cmc, or a control a plugin registered.",
)
@click.option("--json", "as_json", is_flag=True)
@click.pass_context
def evidence(
    ctx: click.Context, question: str, hops: int, budget_chars: int, control: str, as_json: bool
) -> None:
    """The records a reader must see to answer QUESTION, in source order.

    \b
    Example:
      graphmem -n fc evidence "Which country is the author of Hard Times a citizen of?"
    """
    with _connect(ctx, install_schema=False) as mem:
        ev = mem.evidence(question, hops=hops, budget_chars=budget_chars, control=control)
    if as_json:
        from graphmem.results import evidence_to_dict

        _json(evidence_to_dict(ev))
        return
    click.echo(
        f"anchors: {', '.join(ev.anchors) or '(none)'}"
        + ("   [no anchor: whole history]" if ev.fallback else "")
    )
    click.echo(f"keys: {len(ev.keys)}   records: {len(ev.records)}   chars: {ev.chars}")
    click.echo(ev.text)


@main.command()
@click.argument("request")
@click.option("--partner", default="", help="Who the message is to.")
@click.option("--now", default=None, help="ISO-8601 time of the message (default: now).")
@click.option(
    "--fresh/--snapshot",
    default=None,
    help="Read Neo4j now, or serve the in-memory snapshot (default: configured).",
)
@click.option("--deadline-ms", type=float, default=None, help="A fresh read waits at most this.")
@click.option("--k", type=int, default=None, help="At most this many lines.")
@click.option("--max-chars", type=int, default=None, help="At most this many characters.")
@click.option(
    "--identity",
    default=None,
    help="How the partner's namesakes are told apart: posterior, hard, participant, none.",
)
@click.option(
    "--gate", default=None, help="When to abstain: reading (default), slot, margin, none."
)
@click.option("--json", "as_json", is_flag=True, help="Print the whole block as JSON.")
@click.pass_context
def block(
    ctx: click.Context, request: str, partner: str, now: str | None, as_json: bool, **options: Any
) -> None:
    """The '[Relevant memory]' block for an unfinished message (empty: nothing to add).

    \b
    Example:
      graphmem -n alice block "what time is standup tomorrow?" --partner "Minjun Kim"
    """
    from graphmem.wire import block_to_dict

    given = {k: v for k, v in options.items() if v is not None}
    with _connect(ctx, install_schema=False) as mem:
        blk = mem.block(request, partner, now, **given)
    if as_json:
        _json(block_to_dict(blk))
    elif blk.abstained:
        click.echo(f"(no block: {blk.reason})")
    else:
        click.echo(blk.text)


@main.command()
@click.argument("question")
@click.option(
    "--reader-url",
    envvar="GRAPHMEM_READER_URL",
    required=True,
    help="Ollama base URL of the reader LLM (default: $GRAPHMEM_READER_URL).",
)
@click.option(
    "--reader-model",
    envvar="GRAPHMEM_READER_MODEL",
    default=None,
    help="The reader model (default: $GRAPHMEM_READER_MODEL, else the built-in).",
)
@click.option("--hops", default=5, show_default=True, help="Closure depth (1-10).")
@click.option(
    "--budget",
    "budget_chars",
    default=60_000,
    show_default=True,
    help="Characters of evidence, header included.",
)
@click.option("--json", "as_json", is_flag=True)
@click.pass_context
def answer(
    ctx: click.Context,
    question: str,
    reader_url: str,
    reader_model: str | None,
    hops: int,
    budget_chars: int,
    as_json: bool,
) -> None:
    """Evidence for QUESTION, then one call to the reader LLM.

    \b
    Example:
      GRAPHMEM_READER_URL=http://localhost:11434 graphmem -n fc answer "Where does Ana live?"
    """
    from graphmem.llm.ollama import DEFAULT_MODEL, OllamaClient

    reader = OllamaClient(reader_url, model=reader_model or DEFAULT_MODEL)
    try:
        with _connect(ctx, install_schema=False) as mem:
            ans = mem.answer(question, reader, hops=hops, budget_chars=budget_chars)
    finally:
        reader.close()
    if as_json:
        _json(ans.to_dict())
    else:
        click.echo(ans.text)


# -- the service -------------------------------------------------------------------------
def _require_server(command: str) -> None:
    """The service and the MCP server are an extra; say how to get them."""
    import importlib.util

    missing = [m for m in ("fastapi", "uvicorn", "mcp") if importlib.util.find_spec(m) is None]
    if missing:
        raise click.ClickException(
            f"{command} needs the service's packages ({', '.join(missing)} missing): "
            "pip install 'graphmem[server]'"
        )


@main.command()
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=8000, show_default=True)
@click.option(
    "--reader-url",
    envvar="GRAPHMEM_READER_URL",
    default=None,
    help="Ollama base URL for POST answer (default: $GRAPHMEM_READER_URL; none: 503).",
)
@click.option(
    "--workers",
    type=click.IntRange(1, 64),
    default=1,
    show_default=True,
    help="Worker processes; each keeps its own block snapshots.",
)
@_with_extractor_options
@click.pass_context
def serve(
    ctx: click.Context,
    host: str,
    port: int,
    reader_url: str | None,
    workers: int,
    extractor: str | None,
    ollama_url: str | None,
    ollama_model: str | None,
) -> None:
    """Run the REST API (/v1/{namespace}/…, docs at /docs) and MCP (/mcp/{namespace}).

    API keys come from $GRAPHMEM_API_KEYS as JSON, key → namespaces ("*": any); both
    the REST routes and the MCP endpoint require one.
    Without --uri/$NEO4J_URI the local Neo4j is started (or reused).

    With --workers N, N processes share the port; writes stay consistent across them
    (Neo4j's namespace lock), and each serves blocks from its own snapshot.

    \b
    Example:
      GRAPHMEM_API_KEYS='{"dev-key-0001": "*"}' graphmem serve --port 8000 --extractor chat
      GRAPHMEM_API_KEYS='{"dev-key-0001": "*"}' graphmem serve --workers 2
    """
    _require_server("graphmem serve")
    import uvicorn

    from graphmem.service import create_app
    from graphmem.service.protocol import http_protocol

    overrides = _memory_overrides(extractor, ollama_url, ollama_model)
    if reader_url:
        overrides["reader_url"] = reader_url
    settings = _service_settings(ctx, **overrides)
    if not settings.api_keys:
        click.echo(
            "warning: GRAPHMEM_API_KEYS is not set; every /v1 request will get 401", err=True
        )
    if workers == 1:
        uvicorn.run(create_app(settings), host=host, port=port, http=http_protocol())
        return
    # Worker processes build their app from the environment: hand them this command's
    # choices (the URI of the Neo4j started here, the extractor, the reader) through it.
    env = {
        "NEO4J_URI": settings.neo4j_uri,
        "GRAPHMEM_NEO4J_HTTP": settings.memory.neo4j_http_url,
        "GRAPHMEM_EXTRACTOR": extractor,
        "GRAPHMEM_OLLAMA_URL": ollama_url,
        "GRAPHMEM_OLLAMA_MODEL": ollama_model,
        "GRAPHMEM_READER_URL": reader_url,
    }
    os.environ.update({k: v for k, v in env.items() if v})
    uvicorn.run(
        "graphmem.service.app:app_from_env",
        factory=True,
        workers=workers,
        host=host,
        port=port,
        http=http_protocol(),
    )


@main.command()
@_with_extractor_options
@click.pass_context
def mcp(
    ctx: click.Context, extractor: str | None, ollama_url: str | None, ollama_model: str | None
) -> None:
    """Serve the namespace to an MCP client over stdio (an agent starts this command).

    The tools: remember, evidence, memory_block, why, history, revoke, resolve, erase,
    audit; "why" is also a resource. Over HTTP, `graphmem serve` offers the same tools at
    /mcp/{namespace} with API keys. Needs the [server] extra.

    \b
    Example:
      graphmem -n alice mcp --extractor chat
    """
    _require_server("graphmem mcp")
    from graphmem.service.mcp import serve_stdio

    settings = _service_settings(ctx, **_memory_overrides(extractor, ollama_url, ollama_model))
    serve_stdio(settings, ctx.obj["namespace"])


if __name__ == "__main__":
    main()
