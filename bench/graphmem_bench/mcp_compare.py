"""Side by side: graphmem's MCP server and Neo4j's ``mcp-neo4j-memory``, on one short story.

Both servers are started as stdio subprocesses and driven only over MCP, through the
official MCP Python SDK client (nothing is imported from graphmem). Each is told the same
story the way an agent would naturally use that server's tools:

a. Minjun Kim: "our weekly sync is at 9:00"
b. Minjun Kim: "the sync moved to 9:30" (an update)
c. Minjun Kim: "sorry, ignore that - the move was cancelled, still 9:00" (a retraction)
d. Minjun Park, a namesake on a different team: "my sync is at 14:00"

then asked what time Minjun Kim's sync is and where that came from, and finally asked to
forget a message (Minjun Kim) and a person (Minjun Park). Every call and the exact text it
returned (long ones truncated) go into a Markdown report.

graphmem writes into a fresh namespace per run. mcp-neo4j-memory has no namespaces: it
keeps ``:Memory`` nodes in the whole database, so the script deletes every entity it can
see first (``--no-clear`` to skip). Point ``--neo4j`` at a scratch Neo4j, never at one
whose data you want to keep.

Example (from the repository root, with a scratch Neo4j on port 7688)::

    graphmem neo4j start --data-dir /tmp/mnm-neo4j --bolt-port 7688 --http-port 7475
    python -m graphmem_bench.mcp_compare --their-command /tmp/mnm/bin/mcp-neo4j-memory \\
        --neo4j bolt://127.0.0.1:7688 --out docs/mcp_side_by_side.md
"""

from __future__ import annotations

import argparse
import asyncio
import json
import secrets
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from contextlib import AsyncExitStack
from dataclasses import dataclass, field
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import Any, TextIO

from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client

__all__ = ["main", "run"]

OURS = "graphmem"
THEIRS = "mcp-neo4j-memory"

KIM = "Minjun Kim"
PARK = "Minjun Park"
SLOT = "meeting time"
QUESTION = "Minjun, what time is our sync?"

MSG_A = f"{KIM}: our weekly sync is at 9:00"
MSG_B = f"{KIM}: the sync moved to 9:30"
MSG_C = f"{KIM}: sorry, ignore that — the move was cancelled, still 9:00"
MSG_D = f"{PARK} (a different team): my sync is at 14:00"

# What an agent using mcp-neo4j-memory writes: one observation per fact, on a person entity.
OBS_900 = "Weekly sync is at 9:00"
OBS_930 = "Weekly sync moved to 9:30"
OBS_930_PARAPHRASE = "Weekly sync is at 9:30"
OBS_CANCEL = "The move to 9:30 was cancelled; weekly sync is still at 9:00"
OBS_PARK_TEAM = "Works on a different team"
OBS_PARK_1400 = "Sync is at 14:00"

TABLE_CHARS = 260  # characters of a returned text shown in a table cell
TRANSCRIPT_CHARS = 2000  # characters of a returned text shown in the transcript


@dataclass
class Call:
    """One MCP tool call and what came back."""

    server: str
    tool: str
    args: dict[str, Any]
    is_error: bool
    text: str
    data: Any
    ms: float


@dataclass
class Step:
    """One step of the story: what was said and the calls each server got."""

    key: str
    title: str
    said: str
    ours: list[Call] = field(default_factory=list)
    theirs: list[Call] = field(default_factory=list)


@dataclass
class Server:
    """A connected MCP server and how it was launched."""

    name: str
    client: Client
    command: list[str]
    env: dict[str, str]
    tools: list[str]
    protocol: str
    info: str

    async def call(self, tool: str, args: dict[str, Any]) -> Call:
        """Call ``tool``; a tool error is recorded, not raised."""
        start = time.perf_counter()
        result = await self.client.call_tool(tool, args)
        ms = (time.perf_counter() - start) * 1000
        text = "\n".join(
            getattr(part, "text", f"<{type(part).__name__}>") for part in result.content
        )
        data: Any = result.structured_content
        if data is None:
            try:
                data = json.loads(text)
            except ValueError:
                data = None
        return Call(self.name, tool, args, bool(result.is_error), text, data, ms)


# --------------------------------------------------------------------------- helpers


def _clip(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters, saying how much was left out."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}… [{len(text) - limit} more characters]"


def _compact(call: Call) -> str:
    """The returned text on one line (JSON re-serialized without spaces, same content)."""
    try:
        return json.dumps(json.loads(call.text), ensure_ascii=False, separators=(",", ":"))
    except ValueError:
        return " ".join(call.text.split())


def _cell(parts: Sequence[str]) -> str:
    """A Markdown table cell: lines joined with <br>, pipes escaped."""
    return "<br>".join(p.replace("|", "\\|").replace("\n", " ") for p in parts)


def _args_text(args: dict[str, Any]) -> str:
    return json.dumps(args, ensure_ascii=False)


def _get(data: Any, *path: str | int) -> Any:
    """``data[path[0]][path[1]]…`` or None when any step is missing."""
    for key in path:
        if isinstance(data, dict) and isinstance(key, str):
            data = data.get(key)
        elif isinstance(data, list) and isinstance(key, int) and -len(data) <= key < len(data):
            data = data[key]
        else:
            return None
    return data


def _entities(call: Call) -> list[dict[str, Any]]:
    """The entities of an mcp-neo4j-memory read (search, find, read_graph)."""
    found = _get(call.data, "entities")
    return found if isinstance(found, list) else []


def _entity_line(entity: dict[str, Any]) -> str:
    obs = entity.get("observations") or []
    return f"{entity.get('name')} ({entity.get('type')}): " + ("; ".join(obs) or "(none)")


def summarize(call: Call) -> str:
    """What a reader takes from one returned text, in a few words."""
    if call.is_error:
        return f"ERROR: {_clip(call.text, 160)}"
    d = call.data
    if call.server == OURS:
        match call.tool:
            case "remember" | "revoke":
                return f"op {_get(d, 'op')}, current value {_get(d, 'head')!r}"
            case "memory_block":
                post = {k: round(v, 2) for k, v in (_get(d, "posterior") or {}).items()}
                if _get(d, "abstained"):
                    return f"abstained (empty block): {_get(d, 'reason')}; posterior {post}"
                lines = [str(line.get("text", "")) for line in _get(d, "lines") or []]
                return f"lines: {' / '.join(lines)}; posterior {post}"
            case "why":
                return str(_get(d, "text"))
            case "history":
                ops = _get(d, "operations") or []
                return "; ".join(
                    f"{o.get('kind')} {_get(o, 'fact', 'value')!r} (record {o.get('record')})"
                    for o in ops
                )
            case "evidence":
                recs = _get(d, "records") or []
                return "records: " + " / ".join(f"{r.get('id')}: {r.get('text')}" for r in recs)
            case "erase":
                return (
                    f"versions_removed {_get(d, 'versions_removed')}, "
                    f"keys_rematerialized {_get(d, 'keys_rematerialized')}"
                )
            case "audit":
                rows = _get(d, "rows") or []
                if not rows:
                    return "no rows"
                return "; ".join(
                    f"{r.get('subject')} / {r.get('relation')} = {r.get('value')!r}" for r in rows
                )
    else:
        if call.tool in ("search_memories", "find_memories_by_name", "read_graph"):
            ents = _entities(call)
            if not ents:
                return "no entities"
            return " / ".join(_entity_line(e) for e in ents)
        if call.tool in ("add_observations", "create_entities") and _get(d, "result") == []:
            return "empty result (nothing was added)"
    return _clip(" ".join(call.text.split()), 120)


def _their_versions(command: str) -> dict[str, str]:
    """Package versions in the virtual environment of ``command`` (best effort)."""
    exe = shutil.which(command) or command
    python = Path(exe).parent / "python"
    if not python.exists():
        return {}
    code = (
        "import importlib.metadata as m, json\n"
        "out = {}\n"
        "for p in ('mcp-neo4j-memory', 'mcp', 'fastmcp', 'neo4j'):\n"
        "    try: out[p] = m.version(p)\n"
        "    except m.PackageNotFoundError: pass\n"
        "print(json.dumps(out))"
    )
    try:
        done = subprocess.run(
            [str(python), "-c", code], capture_output=True, text=True, timeout=60, check=True
        )
        return dict(json.loads(done.stdout))
    except (OSError, subprocess.SubprocessError, ValueError):
        return {}


async def _connect(
    stack: AsyncExitStack, name: str, command: list[str], env: dict[str, str], errlog: TextIO
) -> Server:
    params = StdioServerParameters(command=command[0], args=command[1:], env=env)
    client = await stack.enter_async_context(
        Client(stdio_client(params, errlog=errlog), read_timeout_seconds=120)
    )
    tools = [t.name for t in (await client.list_tools()).tools]
    info = client.server_info
    return Server(
        name,
        client,
        command,
        env,
        tools,
        str(client.protocol_version),
        f"{info.name} {info.version}" if info else "?",
    )


# --------------------------------------------------------------------------- the story


async def tell_story(ours: Server, theirs: Server, clear: bool) -> tuple[list[Step], list[Call]]:
    """Run the story on both servers; return the steps and the append-only variant."""
    steps: list[Step] = []

    def step(key: str, title: str, said: str) -> Step:
        steps.append(Step(key, title, said))
        return steps[-1]

    block = {"request": QUESTION, "fresh": True, "deadline_ms": 5000}
    key_args = {"subject": KIM, "relation": SLOT}

    s = step("0", "Start: clear mcp-neo4j-memory's graph", "(no message)")
    seen = await theirs.call("read_graph", {})
    s.theirs.append(seen)
    names = [str(e.get("name")) for e in _entities(seen)]
    if clear and names:
        s.theirs.append(await theirs.call("delete_entities", {"entityNames": names}))
    s.ours.append(await ours.call("audit", {"name": "heads"}))

    s = step("a", "Kim states the sync time", MSG_A)
    s.ours.append(
        await ours.call(
            "remember",
            {
                **key_args,
                "value": "9:00",
                "text": MSG_A,
                "intent": "assert",
                "speaker": KIM,
                "record_id": "msg-a",
            },
        )
    )
    s.theirs.append(
        await theirs.call(
            "create_entities",
            {"entities": [{"name": KIM, "type": "person", "observations": [OBS_900]}]},
        )
    )

    s = step("b", "Kim updates it", MSG_B)
    s.ours.append(
        await ours.call(
            "remember",
            {
                **key_args,
                "value": "9:30",
                "text": MSG_B,
                "intent": "update",
                "speaker": KIM,
                "record_id": "msg-b",
            },
        )
    )
    s.theirs.append(
        await theirs.call(
            "delete_observations", {"deletions": [{"entityName": KIM, "observations": [OBS_900]}]}
        )
    )
    s.theirs.append(
        await theirs.call(
            "add_observations", {"observations": [{"entityName": KIM, "observations": [OBS_930]}]}
        )
    )

    s = step("c", "Kim takes the update back", MSG_C)
    s.ours.append(await ours.call("revoke", {**key_args, "text": MSG_C, "speaker": KIM}))
    s.theirs.append(
        await theirs.call(
            "delete_observations", {"deletions": [{"entityName": KIM, "observations": [OBS_930]}]}
        )
    )
    s.theirs.append(
        await theirs.call(
            "add_observations", {"observations": [{"entityName": KIM, "observations": [OBS_900]}]}
        )
    )

    s = step("d", "A namesake, Minjun Park, states his own sync", MSG_D)
    s.ours.append(
        await ours.call(
            "remember",
            {
                "subject": PARK,
                "relation": SLOT,
                "value": "14:00",
                "text": MSG_D,
                "intent": "assert",
                "speaker": PARK,
                "record_id": "msg-d",
            },
        )
    )
    s.theirs.append(
        await theirs.call(
            "create_entities",
            {
                "entities": [
                    {"name": PARK, "type": "person", "observations": [OBS_PARK_TEAM, OBS_PARK_1400]}
                ]
            },
        )
    )

    s = step("q1", "Ask: what time is the sync? (talking to Minjun Kim)", QUESTION)
    s.ours.append(await ours.call("memory_block", {**block, "partner": KIM}))
    s.theirs.append(await theirs.call("search_memories", {"query": "Minjun sync"}))

    s = step("q2", "Same question, talking to Minjun Park", QUESTION)
    s.ours.append(await ours.call("memory_block", {**block, "partner": PARK}))
    s.theirs.append(await theirs.call("find_memories_by_name", {"names": [PARK]}))

    s = step("q3", "Same question, partner unknown (only 'Minjun' is known)", QUESTION)
    s.ours.append(await ours.call("memory_block", {**block, "partner": ""}))
    s.theirs.append(await theirs.call("find_memories_by_name", {"names": ["Minjun"]}))
    s.theirs.append(await theirs.call("search_memories", {"query": "Minjun"}))

    s = step(
        "q4",
        "Why 9:00? Where did it come from, what did it replace?",
        "Why do you think Minjun Kim's sync is at 9:00?",
    )
    s.ours.append(await ours.call("why", key_args))
    s.ours.append(await ours.call("history", key_args))
    s.ours.append(await ours.call("evidence", {"question": "What time is Minjun Kim's sync?"}))
    s.theirs.append(await theirs.call("find_memories_by_name", {"names": [KIM]}))

    s = step("q5", "Everything currently stored", "(no message)")
    s.ours.append(await ours.call("audit", {"name": "heads"}))
    s.theirs.append(await theirs.call("read_graph", {}))

    s = step(
        "e",
        "Kim asks to forget his first message (a)",
        f"{KIM}: please forget what I told you first",
    )
    s.ours.append(await ours.call("erase", {"record_id": "msg-a"}))
    s.ours.append(await ours.call("why", key_args))
    s.ours.append(await ours.call("memory_block", {**block, "partner": KIM}))
    s.theirs.append(
        await theirs.call(
            "delete_observations", {"deletions": [{"entityName": KIM, "observations": [OBS_900]}]}
        )
    )
    s.theirs.append(await theirs.call("find_memories_by_name", {"names": [KIM]}))

    s = step("f", "Park asks to be forgotten", f"{PARK}: please forget everything about me")
    s.ours.append(await ours.call("erase", {"record_id": "msg-d"}))
    s.ours.append(await ours.call("memory_block", {**block, "partner": PARK}))
    s.ours.append(await ours.call("audit", {"name": "heads"}))
    s.theirs.append(await theirs.call("delete_entities", {"entityNames": [PARK]}))
    s.theirs.append(await theirs.call("search_memories", {"query": "Minjun"}))

    s = step(
        "g",
        "A slip: forget something that was never stored",
        "Minjun Lee: please forget me (nothing was ever stored about him)",
    )
    s.ours.append(await ours.call("erase", {"record_id": "msg-lee"}))
    s.theirs.append(await theirs.call("delete_entities", {"entityNames": ["Minjun Lee"]}))

    # The other natural way to use mcp-neo4j-memory: never delete, only append.
    variant: list[Call] = [await theirs.call("delete_entities", {"entityNames": [KIM, PARK]})]
    variant.append(
        await theirs.call(
            "create_entities",
            {"entities": [{"name": KIM, "type": "person", "observations": [OBS_900]}]},
        )
    )
    variant.append(
        await theirs.call(
            "add_observations", {"observations": [{"entityName": KIM, "observations": [OBS_930]}]}
        )
    )
    variant.append(
        await theirs.call(
            "add_observations",
            {"observations": [{"entityName": KIM, "observations": [OBS_CANCEL]}]},
        )
    )
    variant.append(
        await theirs.call(
            "create_entities",
            {
                "entities": [
                    {"name": PARK, "type": "person", "observations": [OBS_PARK_TEAM, OBS_PARK_1400]}
                ]
            },
        )
    )
    variant.append(await theirs.call("search_memories", {"query": "Minjun sync"}))
    # Tidying up later, the agent paraphrases the observation it wants gone.
    variant.append(
        await theirs.call(
            "delete_observations",
            {"deletions": [{"entityName": KIM, "observations": [OBS_930_PARAPHRASE]}]},
        )
    )
    variant.append(await theirs.call("find_memories_by_name", {"names": [KIM]}))
    return steps, variant


# --------------------------------------------------------------------------- the report


def _find(steps: list[Step], key: str) -> Step:
    return next(s for s in steps if s.key == key)


def _first(calls: list[Call], tool: str) -> Call | None:
    return next((c for c in calls if c.tool == tool), None)


def _block_lines(call: Call | None) -> list[str]:
    if call is None or call.is_error:
        return []
    return [str(line.get("text", "")) for line in _get(call.data, "lines") or []]


def observations(steps: list[Step], variant: list[Call], theirs: Server) -> list[str]:
    """Plain sentences on what the two runs returned, computed from the returned data."""
    out: list[str] = []
    q1, q2, q3, q4 = (_find(steps, k) for k in ("q1", "q2", "q3", "q4"))
    forget_kim, forget_park = _find(steps, "e"), _find(steps, "f")

    # Current value.
    kim_block = _block_lines(_first(q1.ours, "memory_block"))
    why = _first(q4.ours, "why")
    search = _first(q1.theirs, "search_memories")
    kim_seen = [x for x in _entities(search) if x.get("name") == KIM] if search else []
    park_seen = [x for x in _entities(search) if x.get("name") == PARK] if search else []
    their_bc = sum(len(_find(steps, k).theirs) for k in "bc")
    kim_obs = kim_seen[0].get("observations") if kim_seen else None
    verdict = "right, but only" if kim_obs == [OBS_900] else "not the expected 9:00, even"
    our_bc = sum(len(_find(steps, k).ours) for k in "bc")
    out.append(
        f"**Current value.** graphmem's `memory_block` for Minjun Kim returned "
        f"{len(kim_block)} line(s), the first being `{kim_block[0] if kim_block else '-'}`, "
        f'and `why` said: "{_get(why.data, "text") if why else "-"}". '
        f'mcp-neo4j-memory\'s `search_memories("Minjun sync")` returned Minjun Kim with '
        f"observations {kim_obs}: {verdict} because the agent itself deleted and re-added "
        f"observations by exact text "
        f"({their_bc} calls for steps b and c, against {our_bc} for graphmem); the server "
        f"has no notion of an update or a retraction (its tools: {', '.join(theirs.tools)})."
    )
    final = _first(variant, "search_memories")
    kim_var = [x for x in _entities(final) if x.get("name") == KIM] if final else []
    if kim_var:
        out.append(
            f"**Append-only agent.** When the agent only appends (no deletes), the same search "
            f"returns every statement, {kim_var[0].get('observations')}, with no timestamps, "
            f"speaker or status: the reading model must work out from the wording which one "
            f"holds. The list does keep the order the observations were added in."
        )

    # What it replaced / provenance.
    hist = _first(q4.ours, "history")
    ops = _get(hist.data, "operations") if hist else None
    find_kim = _first(q4.theirs, "find_memories_by_name")
    versions = ", ".join(
        f"{v.get('value')} `{v.get('status')}`"
        + (f" with {len(v['tombstones'])} tombstone(s)" if v.get("tombstones") else "")
        for v in (_get(why.data, "versions") or [] if why else [])
    )
    out.append(
        f"**What it replaced, and evidence.** graphmem's `why` lists every version with its "
        f"status ({versions}), the message text, record id, speaker and times behind each, "
        f"plus a Cypher query to view the subgraph; `history` returned "
        f"{len(ops) if isinstance(ops, list) else '?'} operations "
        f"({summarize(hist) if hist else '-'}). mcp-neo4j-memory's `find_memories_by_name` "
        f"returned only `{_compact(find_kim) if find_kim else '-'}`: no trace of 9:30, of "
        f"who said what, or when. The price on graphmem's side is size: its `why` answer was "
        f"{len(why.text) if why else 0} characters against "
        f"{len(find_kim.text) if find_kim else 0} for the whole Minjun Kim entity."
    )

    # Namesakes.
    park_block = _block_lines(_first(q2.ours, "memory_block"))
    anon = _first(q3.ours, "memory_block")
    anon_lines = _block_lines(anon)
    posterior = (
        {k: round(v, 2) for k, v in (_get(anon.data, "posterior") or {}).items()} if anon else None
    )
    by_first = _first(q3.theirs, "find_memories_by_name")
    right = bool(kim_block and KIM in kim_block[0] and park_block and PARK in park_block[0])
    if anon_lines:
        unsure = (
            f"still served a block whose first line was `{anon_lines[0]}`: a weakness, "
            f"a guess rather than an abstention"
        )
    else:
        unsure = "abstained (an empty block)"
    out.append(
        f"**Namesakes.** With the partner given, graphmem's block put "
        f"{'the right' if right else 'NOT the right'} person's message first (Kim: "
        f"`{kim_block[0] if kim_block else '-'}`; Park: `{park_block[0] if park_block else '-'}`"
        f"). Without a partner (posterior {posterior}) it {unsure}. mcp-neo4j-memory keeps "
        f"the two apart as two entities because the agent chose full names; its search for "
        f'"Minjun sync" returned both ({len(kim_seen)} Kim, {len(park_seen)} Park), '
        f"leaving the choice to the agent, and "
        f'`find_memories_by_name(["Minjun"])` returned '
        f"{summarize(by_first) if by_first else '-'} because it matches exact names only."
    )

    # Erasure.
    erased = _first(forget_kim.ours, "erase")
    why_after = _first(forget_kim.ours, "why")
    why_after_text = _get(why_after.data, "text") if why_after else "-"
    block_after = _block_lines(_first(forget_kim.ours, "memory_block"))
    if not block_after:
        after = "abstained (an empty block, nothing to say about the sync)"
    elif PARK in block_after[0]:
        after = f"led with `{block_after[0]}`, the namesake's value (a weakness)"
    else:
        after = f"led with `{block_after[0]}`"
    heads_after = _first(forget_park.ours, "audit")
    their_after = _first(forget_park.theirs, "search_memories")
    kim_after = _first(forget_kim.theirs, "find_memories_by_name")
    out.append(
        f'**Erasure.** graphmem\'s `erase("msg-a")` reported '
        f'{summarize(erased) if erased else "-"}; afterwards `why` said "{why_after_text}" '
        f"(the revoked 9:30 was not brought back) and the block for Minjun Kim {after}; "
        f'the retraction message (c), which also says "9:00", is a separate record and '
        f'stays unless erased too. After `erase("msg-d")` the current '
        f"values were: {summarize(heads_after) if heads_after else '-'}. mcp-neo4j-memory "
        f"stores no messages, so the agent deletes the observation or the entity it wrote: "
        f"Kim's entity became {summarize(kim_after) if kim_after else '-'}, and after "
        f'`delete_entities(["Minjun Park"])` a search for "Minjun" returned '
        f"{summarize(their_after) if their_after else '-'}. Simple and complete for what it "
        f"holds."
    )

    # Mistakes: what each says when nothing matches.
    slip = _find(steps, "g")
    our_slip, their_slip = _first(slip.ours, "erase"), _first(slip.theirs, "delete_entities")
    para = [c for c in variant if c.tool == "delete_observations"]
    kept = _entities(variant[-1]) if variant and variant[-1].tool == "find_memories_by_name" else []
    out.append(
        f"**Mistakes.** Asked to erase a record that was never stored, graphmem answered "
        f"{'with a tool error' if our_slip and our_slip.is_error else 'without an error'}: "
        f'"{_clip(our_slip.text, 160) if our_slip else "-"}". mcp-neo4j-memory\'s '
        f'`delete_entities(["Minjun Lee"])` answered '
        f'"{their_slip.text if their_slip else "-"}" for an entity that never existed, and '
        f"in the append-only variant `delete_observations` with a paraphrase "
        f'("{OBS_930_PARAPHRASE}" for "{OBS_930}") answered '
        f'"{para[0].text if para else "-"}" while the entity still read '
        f"{'; '.join(_entity_line(x) for x in kept) or '-'}: its deletes match exact text "
        f"and report success whether or not anything matched."
    )

    # Fair points for mcp-neo4j-memory.
    their_calls = [c for s in steps for c in s.theirs]
    our_calls = [c for s in steps for c in s.ours]
    writes = {
        "remember",
        "revoke",
        "erase",
        "create_entities",
        "add_observations",
        "delete_observations",
        "delete_entities",
    }
    our_w = [c.ms for c in our_calls if c.tool in writes]
    their_w = [c.ms for c in their_calls if c.tool in writes]
    out.append(
        f"**Where mcp-neo4j-memory is simpler.** Its model (entities with a type, free-text "
        f"observations, typed relations) is easy for an agent to use and to read back, "
        f"`read_graph` dumps the whole graph, and `search_memories` is a Neo4j full-text "
        f"search over names, types and observations. Its answers are small (median "
        f"{_median([len(c.text) for c in their_calls]):.0f} characters against "
        f"{_median([len(c.text) for c in our_calls]):.0f} for graphmem) and quick (median "
        f"{_median([c.ms for c in their_calls]):.0f} ms against "
        f"{_median([c.ms for c in our_calls]):.0f} ms per call over MCP in this run; for "
        f"writes alone {_median(their_w):.0f} ms against {_median(our_w):.0f} ms). "
        f"graphmem's answers are heavier for an agent to read (the `why` above), and its "
        f"block is built around a slot: the script stored the fact under a relation name the "
        f'block reader knows ("{SLOT}"); other names were not tried here. '
        f"mcp-neo4j-memory has no namespaces: every client shares the database's `:Memory` "
        f"nodes (its `--namespace` option only prefixes tool names)."
    )
    return out


def _median(values: Sequence[float]) -> float:
    ordered = sorted(values)
    if not ordered:
        return 0.0
    mid = len(ordered) // 2
    return ordered[mid] if len(ordered) % 2 else (ordered[mid - 1] + ordered[mid]) / 2


def _calls_cell(calls: list[Call]) -> str:
    parts: list[str] = []
    for c in calls:
        parts.append(f"`{c.tool}`: **{summarize(c)}**")
        parts.append(f"<sub>`{_clip(_compact(c), TABLE_CHARS)}`</sub>")
    return _cell(parts) if parts else "-"


def _server_rows(servers: list[Server], versions: dict[str, dict[str, str]]) -> list[str]:
    rows = ["| | graphmem | mcp-neo4j-memory |", "|---|---|---|"]
    ours, theirs = servers

    def both(fn: Callable[[Server], str]) -> str:
        return f"{_cell([fn(ours)])} | {_cell([fn(theirs)])}"

    rows.append(f"| launched as | {both(lambda s: '`' + shlex.join(s.command) + '`')} |")
    rows.append(
        "| environment | "
        + both(lambda s: ", ".join(f"`{k}={v}`" for k, v in s.env.items()))
        + " |"
    )
    rows.append(
        "| packages | "
        + both(lambda s: ", ".join(f"{k} {v}" for k, v in versions[s.name].items()))
        + " |"
    )
    rows.append(f"| server info | {both(lambda s: s.info)} |")
    rows.append(f"| protocol negotiated | {both(lambda s: s.protocol)} |")
    rows.append(f"| tools | {both(lambda s: ', '.join(f'`{t}`' for t in s.tools))} |")
    return rows


def _info_note(theirs: Server, versions: dict[str, str]) -> list[str]:
    own, fast = versions.get("mcp-neo4j-memory"), versions.get("fastmcp")
    if own and fast and own not in theirs.info and theirs.info.endswith(fast):
        return [
            f"(mcp-neo4j-memory's server info reports `{theirs.info}`: that is the "
            f"version of FastMCP it runs on, not its own {own}.)",
            "",
        ]
    return []


def render(
    steps: list[Step],
    variant: list[Call],
    servers: list[Server],
    versions: dict[str, dict[str, str]],
    command: str,
    neo4j: str,
    namespace: str,
    cleared: bool,
) -> str:
    """The Markdown report."""
    theirs = servers[1]
    now = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    md: list[str] = [
        "# MCP memory servers side by side: graphmem and mcp-neo4j-memory",
        "",
        f"<!-- Generated by graphmem_bench/mcp_compare.py on {now}. Do not edit by hand: "
        "run the command below again. -->",
        "",
        "Two MCP servers that keep an agent's memory in Neo4j, told the same four-message "
        "story and asked the same questions: graphmem's own server (`graphmem mcp`) and "
        "Neo4j's official [`mcp-neo4j-memory`](https://pypi.org/project/mcp-neo4j-memory/). "
        "Both were started over stdio and driven by the official MCP Python SDK client; each "
        "was used the way an agent would naturally use its tools. The tables quote what each "
        "call returned (long answers cut); the transcript at the end has every call.",
        "",
        "## How this was produced",
        "",
        "```bash",
        command,
        "```",
        "",
        f"Neo4j: `{neo4j}` (a scratch server, shared by both). graphmem namespace: "
        f"`{namespace}` (fresh for this run). mcp-neo4j-memory has no namespaces; "
        + (
            "the script deleted every entity it could see before the run."
            if cleared
            else "its graph was NOT cleared first (`--no-clear`)."
        )
        + f" Client: `mcp` {_version('mcp')} (Python SDK) in this repository's environment.",
        "",
        *_server_rows(servers, versions),
        "",
        *_info_note(servers[1], versions[THEIRS]),
        "## The story",
        "",
        f"a. {MSG_A}  ",
        f"b. {MSG_B} (an update)  ",
        f"c. {MSG_C} (a retraction)  ",
        f"d. {MSG_D} (a namesake)  ",
        "",
        f'graphmem gets each fact as `remember(subject, relation="{SLOT}", value, text, '
        "intent, speaker, record_id)` and the retraction as `revoke`. For mcp-neo4j-memory "
        "the agent keeps one `person` entity per Minjun with one observation per fact; "
        "since the server has no update or retraction, the agent deletes the outdated "
        "observation by its exact text and adds the new one (a second variant, which only "
        "appends, follows the table).",
        "",
        "## Step by step",
        "",
        "Each cell: the tool, **what it says**, then the returned text on one line "
        f"(cut at {TABLE_CHARS} characters).",
        "",
        "| step | graphmem returns | mcp-neo4j-memory returns |",
        "|---|---|---|",
    ]
    for s in steps:
        head = _cell([f"**{s.key}.** {s.title}", f"<sub>{s.said}</sub>"])
        md.append(f"| {head} | {_calls_cell(s.ours)} | {_calls_cell(s.theirs)} |")
    md += [
        "",
        "## Variant: an mcp-neo4j-memory agent that only appends",
        "",
        "Many agents never delete; they add what they hear. The same story, then the same search:",
        "",
        "| call | arguments | returns |",
        "|---|---|---|",
    ]
    for c in variant:
        md.append(
            f"| `{c.tool}` | {_cell(['`' + _clip(_args_text(c.args), 200) + '`'])} | "
            f"{_cell(['**' + summarize(c) + '**'])} |"
        )
    md += ["", "## Observed differences", ""]
    md += [f"- {line}" for line in observations(steps, variant, theirs)]
    md += [
        "",
        "## Transcript",
        "",
        f"Every call in order: arguments, then the exact text returned (cut at "
        f"{TRANSCRIPT_CHARS} characters) and the time the call took over MCP.",
        "",
    ]
    for s in steps:
        md += [f"### {s.key}. {s.title}", "", f"Said: {s.said}", ""]
        for c in [*s.ours, *s.theirs]:
            md += _transcript_entry(c)
    md += ["### Variant (append only)", ""]
    for c in variant:
        md += _transcript_entry(c)
    return "\n".join(md).rstrip() + "\n"


def _transcript_entry(c: Call) -> list[str]:
    flag = " — **tool error**" if c.is_error else ""
    return [
        f"**{c.server}** `{c.tool}` ({c.ms:.0f} ms){flag}",
        "",
        "```json",
        _args_text(c.args),
        "```",
        "",
        "```",
        _clip(c.text, TRANSCRIPT_CHARS),
        "```",
        "",
    ]


def _version(dist: str) -> str:
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return "?"


# --------------------------------------------------------------------------- entry point


def _default_graphmem() -> str:
    beside = Path(sys.executable).parent / "graphmem"
    return str(beside) if beside.exists() else (shutil.which("graphmem") or "graphmem")


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(
        prog="python -m graphmem_bench.mcp_compare",
        description="Tell graphmem's MCP server and mcp-neo4j-memory the same short story "
        "over MCP and write a Markdown side-by-side of what each returns.",
        epilog="mcp-neo4j-memory shares the whole database (no namespaces) and this script "
        "deletes its entities before the run: use a scratch Neo4j, e.g. `graphmem neo4j "
        "start --data-dir /tmp/mnm-neo4j --bolt-port 7688 --http-port 7475`.",
    )
    p.add_argument(
        "--their-command",
        default="mcp-neo4j-memory",
        help="The mcp-neo4j-memory console script (default: %(default)s on PATH).",
    )
    p.add_argument(
        "--our-command",
        default=_default_graphmem(),
        help="The graphmem console script (default: the one beside this Python).",
    )
    p.add_argument(
        "--neo4j",
        default="bolt://127.0.0.1:7688",
        help="Bolt URL of the scratch Neo4j both servers use (default: %(default)s).",
    )
    p.add_argument("--their-user", default="neo4j", help="Neo4j user for mcp-neo4j-memory.")
    p.add_argument(
        "--their-password",
        default="unused",
        help="Neo4j password for mcp-neo4j-memory (auth is off on the embedded "
        "server, but it needs one; default: %(default)s).",
    )
    p.add_argument("--their-database", default="neo4j", help="Neo4j database name.")
    p.add_argument(
        "--namespace",
        default=None,
        help="graphmem namespace (default: a fresh 'mcpcmp-<time>-<random>').",
    )
    p.add_argument(
        "--no-clear",
        action="store_true",
        help="Do not delete mcp-neo4j-memory's existing entities first.",
    )
    p.add_argument("--out", default="docs/mcp_side_by_side.md", help="Markdown file to write.")
    p.add_argument(
        "--server-log",
        default=str(Path(tempfile.gettempdir()) / "mcp_compare_servers.log"),
        help="Where both servers' stderr goes (default: %(default)s).",
    )
    return p.parse_args(argv)


async def run(args: argparse.Namespace, command_line: str) -> tuple[Path, str]:
    """Run the comparison with parsed ``args``; return the report's path and namespace."""
    namespace = args.namespace or (
        f"mcpcmp-{datetime.now(UTC):%Y%m%d%H%M%S}-{secrets.token_hex(3)}"
    )
    our_cmd = [args.our_command, "-n", namespace, "mcp"]
    our_env = {"NEO4J_URI": args.neo4j}
    their_cmd = [args.their_command]
    their_env = {
        "NEO4J_URL": args.neo4j,
        "NEO4J_USERNAME": args.their_user,
        "NEO4J_PASSWORD": args.their_password,
        "NEO4J_DATABASE": args.their_database,
    }
    versions = {OURS: {}, THEIRS: _their_versions(args.their_command)}
    with open(args.server_log, "a", encoding="utf-8") as errlog:
        errlog.write(f"\n=== mcp_compare {datetime.now(UTC).isoformat()} ===\n")
        errlog.flush()
        async with AsyncExitStack() as stack:
            ours = await _connect(stack, OURS, our_cmd, our_env, errlog)
            theirs = await _connect(stack, THEIRS, their_cmd, their_env, errlog)
            versions[OURS] = {"graphmem": ours.info.split()[-1], "mcp": _version("mcp")}
            steps, variant = await tell_story(ours, theirs, clear=not args.no_clear)
    text = render(
        steps,
        variant,
        [ours, theirs],
        versions,
        command_line,
        args.neo4j,
        namespace,
        cleared=not args.no_clear,
    )
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(text, encoding="utf-8")
    return out, namespace


def _leaves(exc: BaseException) -> list[BaseException]:
    """The exceptions inside (nested) exception groups, or ``exc`` itself."""
    if isinstance(exc, BaseExceptionGroup):
        return [leaf for inner in exc.exceptions for leaf in _leaves(inner)]
    return [exc]


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    given = list(sys.argv[1:] if argv is None else argv)
    command_line = shlex.join(["python", "-m", "graphmem_bench.mcp_compare", *given])
    try:
        out, namespace = asyncio.run(run(args, command_line))
    except Exception as exc:  # a server that fails to start surfaces here
        causes = "; ".join(f"{type(e).__name__}: {e}" for e in _leaves(exc))
        print(
            f"mcp_compare: failed: {causes}\n(servers' stderr: {args.server_log})", file=sys.stderr
        )
        return 1
    print(f"wrote {out} (graphmem namespace {namespace}; servers' stderr: {args.server_log})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
