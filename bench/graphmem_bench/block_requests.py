"""Memory blocks for requests worded freshly, over facts keyed with caller-chosen names.

The set (``tests/fixtures/block_requests``) was written blind from its brief: small worlds
of people, facts under relation names a developer chose ("sync time", "rate per day",
"회의 장소"), filler chats, and requests with the facts that answer them — or none, when
nothing stored answers (the room when only the time is known, another kind of meeting,
a person nobody stored, a request that is not about memory) or when a human could not
tell which of two namesakes is meant.

Twenty-two sets, each written blind, on other scenarios and people: ``block_requests``
(30 worlds per language), ``block_requests_round2``, ``_round3`` (22 each), ``_round4`` …
``_round21`` (20 each), each held out until the next round was frozen, are development
splits, read while building request reading; ``block_requests_heldout`` (round 22, 20
worlds per language) is held out and reported in aggregate and per category only.
Each world is written into its own namespace, in date order — *keyed*: facts as records
carrying their fact (a replacing fact as an update), chats as raw records; *plain*: every
message as plain text, nothing keyed (what a new user with the default
extractor writes) — then every request asks ``Memory.block`` with its partner, from the
snapshot, the day after the world's last message.

Scored per request:
- *clean*: an answerable request whose block holds a gold line and no line of another
  person's fact under the same relation;
- *left empty*: an answerable request with an empty block;
- *empty when nothing answers*: a request with no gold whose block is empty;
- *misattributed*: a block holding a line of a namesake's fact for a namesake request;
- *stale*: a block holding a superseded fact's record (the active view should make this 0).
"""

from __future__ import annotations

import json
import math
import random
import uuid
from collections import Counter, defaultdict
from collections.abc import Callable
from datetime import date, timedelta
from pathlib import Path
from typing import Any

from graphmem import Fact, Memory, Record

MODES = ("keyed", "plain")
# A Korean family name of two syllables: 남궁민수 is called 민수.
_TWO_SYLLABLE_FAMILY_NAMES = ("남궁", "황보", "제갈", "선우", "독고", "사공", "서문", "동방")


def given_name(name: str) -> str:
    """The name a person is called by among friends, casefolded: the first word of a
    Western name ("Minjun Park" → minjun), the name after the family name of a Korean
    one ("박민준" → 민준, "남궁민수" → 민수, "박 민준" → 민준)."""
    name = name.strip()
    if any("가" <= ch <= "힣" for ch in name):
        parts = name.split()
        if len(parts) > 1:
            return parts[-1]
        if len(name) == 4 and name.startswith(_TWO_SYLLABLE_FAMILY_NAMES):
            return name[2:]
        return name[1:] if len(name) >= 3 else name
    return name.split()[0].casefold() if name.split() else ""


def load(folder: Path, lang: str) -> list[dict[str, Any]]:
    return [
        json.loads(line)
        for line in (folder / f"{lang}.jsonl").read_text(encoding="utf-8").splitlines()
        if line.strip()
    ]


def _write_world(
    mem: Memory, world: dict[str, Any], mode: str = "keyed", notes: bool = False
) -> None:
    """Write a world's messages in date order; with ``notes``, first each person's note
    as a record about them (the writers labelled requests knowing who people are: "the
    midwife", "신입" name a role only the note says)."""
    names = {p["id"]: p["name"] for p in world["people"]}
    items: list[tuple[str, Record]] = []
    if notes:
        first = min(x["date"] for x in [*world["facts"], *world["chats"]])
        for p in world["people"]:
            if p.get("note"):
                items.append(
                    (
                        "",  # before every message
                        Record(
                            text=f"{p['name']}: {p['note']}",
                            id=f"note-{p['id']}",
                            participants=(p["name"],),
                            observed_at=f"{first}T00:00:00+00:00",
                        ),
                    )
                )
    for f in world["facts"]:
        intent = "update" if f.get("replaces") else "assert"
        items.append(
            (
                f["date"],
                Record(
                    text=f["text"],
                    id=f["id"],
                    speaker=names[f["speaker"]],
                    participants=tuple(names[p] for p in f["participants"]),
                    observed_at=f"{f['date']}T12:00:00+00:00",
                    facts=(Fact(names[f["subject"]], f["relation"], f["value"], intent),)
                    if mode == "keyed"
                    else (),
                ),
            )
        )
    for c in world["chats"]:
        items.append(
            (
                c["date"],
                Record(
                    text=c["text"],
                    id=c["id"],
                    speaker=names[c["speaker"]],
                    participants=tuple(names[p] for p in c["participants"]),
                    observed_at=f"{c['date']}T12:00:00+00:00",
                    facts=(),
                ),
            )
        )
    items.sort(key=lambda x: (x[0], x[1].id or ""))
    mem.ingest([r for _, r in items])


def _now(world: dict[str, Any]) -> str:
    last = max(x["date"] for x in [*world["facts"], *world["chats"]])
    return f"{date.fromisoformat(last) + timedelta(days=1)}T09:00:00+00:00"


def score_request(
    world: dict[str, Any], req: dict[str, Any], line_ids: list[str]
) -> dict[str, bool]:
    facts = {f["id"]: f for f in world["facts"]}
    names = {p["id"]: p["name"] for p in world["people"]}
    gold = set(req["gold"])
    superseded = {f["replaces"] for f in world["facts"] if f.get("replaces")}
    served = set(line_ids)
    given = {n: given_name(n) for n in names.values()}
    subject = {facts[g]["subject"] for g in gold}
    # Another person's fact under a relation the request's answer uses, or (namesakes) any
    # fact of a person sharing the given name of the person asked about.
    wrong_person = False
    for fid in served & facts.keys():
        f = facts[fid]
        if gold and f["subject"] not in subject:
            same_rel = any(facts[g]["relation"] == f["relation"] for g in gold)
            namesake = any(given[names[f["subject"]]] == given[names[s]] for s in subject)
            wrong_person |= same_rel or namesake
    return {
        "answerable": bool(gold),
        "served": bool(line_ids),
        "clean": bool(gold) and bool(served & gold) and not wrong_person,
        "misattributed": req["category"].startswith("namesake/")
        and (wrong_person or (not gold and bool(served & facts.keys()))),
        "stale": bool(served & superseded),
    }


def run(
    folder: Path,
    langs: list[str],
    split: str,
    connect: Callable[[str], Memory],
    block_options: dict[str, Any] | None = None,
    progress: Callable[[str], None] = print,
    mode: str = "keyed",
    notes: bool = False,
) -> dict[str, Any]:
    """Every world of ``folder`` (the ``split`` is its label), written as ``mode``
    (with the people's notes first when ``notes``)."""
    out: dict[str, Any] = {"split": split, "mode": mode, "langs": {}}
    for lang in langs:
        rows = []
        worlds = load(folder, lang)
        for world in worlds:
            mem = connect(f"breq-{uuid.uuid4().hex[:8]}")
            try:
                _write_world(mem, world, mode, notes)
                names = {p["id"]: p["name"] for p in world["people"]}
                for req in world["requests"]:
                    block = mem.block(
                        req["request"],
                        names[req["partner"]],
                        now=_now(world),
                        fresh=False,
                        **(block_options or {}),
                    )
                    ids = [ln.record.record_id for ln in block.lines]
                    rows.append(
                        {
                            "id": req["id"],
                            "category": req["category"],
                            "request": req["request"],
                            "gold": req["gold"],
                            "lines": ids,
                            "reason": block.reason,
                            **score_request(world, req, ids),
                        }
                    )
            finally:
                mem.close()
        progress(f"{lang}: {len(worlds)} worlds, {len(rows)} requests")
        out["langs"][lang] = summarize(rows)
    return out


def _interval(k: int, n: int, seed: int = 7, draws: int = 1000) -> tuple[float, float]:
    """95% bootstrap interval of a proportion k/n."""
    if n == 0:
        return (math.nan, math.nan)
    rng = random.Random(seed)
    xs = [1] * k + [0] * (n - k)
    means = sorted(sum(rng.choices(xs, k=n)) / n for _ in range(draws))
    return means[int(0.025 * draws)], means[int(0.975 * draws) - 1]


def summarize(rows: list[dict[str, Any]]) -> dict[str, Any]:
    answerable = [r for r in rows if r["answerable"]]
    empty_gold = [r for r in rows if not r["answerable"]]
    namesake = [r for r in rows if r["category"].startswith("namesake/")]
    by_cat: dict[str, Counter[str]] = defaultdict(Counter)
    for r in rows:
        c = by_cat[r["category"]]
        c["n"] += 1
        c["ok"] += r["clean"] if r["answerable"] else not r["served"]
    figures = {
        "requests": len(rows),
        "clean": (sum(r["clean"] for r in answerable), len(answerable)),
        "left_empty": (sum(not r["served"] for r in answerable), len(answerable)),
        "empty_when_nothing_answers": (sum(not r["served"] for r in empty_gold), len(empty_gold)),
        "misattributed": (sum(r["misattributed"] for r in namesake), len(namesake)),
        "stale": (sum(r["stale"] for r in rows), len(rows)),
    }
    return {
        "figures": figures,
        "by_category": {k: dict(v) for k, v in sorted(by_cat.items())},
        "misses": [
            r
            for r in rows
            if (r["answerable"] and not r["clean"]) or (not r["answerable"] and r["served"])
        ],
    }


def markdown(res: dict[str, Any], command: str) -> str:
    out = [
        f"Command: `{command}`\n",
        f"Split: **{res['split']}**.\n",
        "| figure | " + " | ".join(res["langs"]) + " |",
        "|---|" + "---:|" * len(res["langs"]),
    ]
    labels = {
        "clean": "clean (answerable)",
        "left_empty": "answerable left empty",
        "empty_when_nothing_answers": "empty when nothing answers",
        "misattributed": "misattributed (namesake requests)",
        "stale": "stale",
    }
    for key, label in labels.items():
        cells = []
        for lang in res["langs"]:
            k, n = res["langs"][lang]["figures"][key]
            lo, hi = _interval(k, n)
            cells.append(f"{k / n:.3f} ({k}/{n}; 95% {lo:.2f}–{hi:.2f})" if n else "–")
        out.append(f"| {label} | " + " | ".join(cells) + " |")
    out.append("\nPer category (answerable: clean; no gold: left empty):\n")
    cats = sorted({c for lang in res["langs"] for c in res["langs"][lang]["by_category"]})
    out.append("| category | " + " | ".join(res["langs"]) + " |")
    out.append("|---|" + "---:|" * len(res["langs"]))
    for c in cats:
        cells = []
        for lang in res["langs"]:
            v = res["langs"][lang]["by_category"].get(c)
            cells.append(f"{v['ok']}/{v['n']}" if v else "–")
        out.append(f"| {c} | " + " | ".join(cells) + " |")
    return "\n".join(out) + "\n"


def markdown_gates(results: dict[str, dict[str, Any]], command: str) -> str:
    """Figures per gate and language, then the per-category table of each gate."""
    gates = list(results)
    langs = list(next(iter(results.values()))["langs"])
    labels = {
        "clean": "clean (answerable)",
        "left_empty": "answerable left empty",
        "empty_when_nothing_answers": "empty when nothing answers",
        "misattributed": "misattributed (namesake requests)",
        "stale": "stale",
    }
    split = next(iter(results.values()))["split"]
    out = [
        f"Command: `{command}`\n",
        f"Split: **{split}** (95% bootstrap intervals).\n",
        "| figure | " + " | ".join(f"{g} gate, {lang}" for g in gates for lang in langs) + " |",
        "|---|" + "---:|" * (len(gates) * len(langs)),
    ]
    for key, label in labels.items():
        cells = []
        for g in gates:
            for lang in langs:
                k, n = results[g]["langs"][lang]["figures"][key]
                lo, hi = _interval(k, n)
                cells.append(f"{k / n:.3f} ({k}/{n}; {lo:.2f}–{hi:.2f})" if n else "–")
        out.append(f"| {label} | " + " | ".join(cells) + " |")
    out.append("\nPer category (answerable: clean; no gold: left empty):\n")
    cats = sorted(
        {c for g in gates for lang in langs for c in results[g]["langs"][lang]["by_category"]}
    )
    out.append("| category | " + " | ".join(f"{g}, {lang}" for g in gates for lang in langs) + " |")
    out.append("|---|" + "---:|" * (len(gates) * len(langs)))
    for c in cats:
        cells = []
        for g in gates:
            for lang in langs:
                v = results[g]["langs"][lang]["by_category"].get(c)
                cells.append(f"{v['ok']}/{v['n']}" if v else "–")
        out.append(f"| {c} | " + " | ".join(cells) + " |")
    return "\n".join(out) + "\n"
