"""Cross-script linking on held-out Hangul renderings of FactConsolidation names.

The set (``tests/fixtures/hangul_names``) was written by a helper that read no linker
code: Hangul renderings of entity names of the FactConsolidation 262k graph
(transliterated, translated, mixed, variants) with the gold entity, and names that are
not in the graph (gold null). Ids up to ``hn-0300`` were used to tune the linker's
threshold and margin; the rest is held out. The linker indexes every name of the 262k
graph (subjects and objects of its facts, as the grammar adapter reads them).

Precision: correct links / links made (a link for a name not in the graph is wrong);
recall: correct links / renderings of names in the graph.
"""

from __future__ import annotations

import json
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from graphmem.language.crossscript import CrossScriptLinker
from graphmem_bench.extract.grammar import GrammarExtractor
from graphmem_bench.formats.factconsolidation import load_rows, parse_context

__all__ = ["Result", "markdown", "run"]

TUNE_LAST_ID = 300


@dataclass
class Result:
    names: int
    build_seconds: float
    per_item_ms: float
    counts: dict[tuple[str, str, str], Counter[str]] = field(default_factory=dict)
    misses: dict[str, list[dict[str, Any]]] = field(default_factory=lambda: defaultdict(list))


def graph_names(data_dir: str | Path) -> set[str]:
    rows = load_rows(data_dir)
    extractor = GrammarExtractor.from_data_dir(data_dir)
    row = next(r for r in rows if r.length == "262k" and r.hops == "mh")
    names: set[str] = set()
    for record in parse_context(row.context, row.source):
        for fact in extractor.extract(record).facts:
            names.update((fact.subject, fact.value))
    return names


def run(data_dir: str | Path, fixtures: Path) -> Result:
    """Link every rendering of ``fixtures/names.jsonl`` (``tests/fixtures/hangul_names`` in
    graphmem's source tree) against the names of the 262k graph in ``data_dir``."""
    names = graph_names(data_dir)
    t0 = time.perf_counter()
    linker = CrossScriptLinker(names)
    build = time.perf_counter() - t0
    items = [
        json.loads(line)
        for line in (fixtures / "names.jsonl").read_text(encoding="utf-8").splitlines()
        if line.strip()
    ]
    res = Result(len(linker), build, 0.0)
    t0 = time.perf_counter()
    for it in items:
        split = "tune" if int(it["id"].split("-")[1]) <= TUNE_LAST_ID else "held-out"
        link = linker.link(it["hangul"])
        gold = it["gold"]
        right = link is not None and gold is not None and link.name.lower() == gold.lower()
        for key in (
            (split, "all", "all"),
            (split, "kind", it["kind"]),
            (split, "category", it["category"]),
        ):
            c = res.counts.setdefault(key, Counter())
            c["items"] += 1
            c["positives"] += gold is not None
            c["links"] += link is not None
            c["correct"] += right
        if split == "held-out" and not right and (link is not None or gold is not None):
            res.misses[it["kind"]].append(
                {"hangul": it["hangul"], "gold": gold, "linked": link.name if link else None}
            )
    res.per_item_ms = (time.perf_counter() - t0) * 1000 / max(1, len(items))
    return res


def _pr(c: Counter[str]) -> tuple[str, str]:
    p = f"{c['correct'] / c['links']:.3f}" if c["links"] else "—"
    r = f"{c['correct'] / c['positives']:.3f}" if c["positives"] else "—"
    return p, r


def markdown(res: Result, command: str) -> str:
    out = [
        f"Command: `{command}`",
        "",
        f"Index: {res.names:,} Latin names of the 262k graph, built in "
        f"{res.build_seconds:.2f} s; {res.per_item_ms:.2f} ms per rendering linked "
        "(cold, no cache).",
        "",
        "| split | items | names in the graph | links made | correct | precision | recall |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for split in ("tune", "held-out"):
        c = res.counts[(split, "all", "all")]
        p, r = _pr(c)
        out.append(
            f"| {split} | {c['items']} | {c['positives']} | {c['links']} | "
            f"{c['correct']} | {p} | {r} |"
        )
    for facet in ("kind", "category"):
        out += [
            "",
            f"Held-out, by {facet}:",
            "",
            f"| {facet} | items | names in the graph | links | correct | precision | recall |",
            "|---|---:|---:|---:|---:|---:|---:|",
        ]
        for (split, f, value), c in sorted(res.counts.items()):
            if split == "held-out" and f == facet:
                p, r = _pr(c)
                out.append(
                    f"| {value} | {c['items']} | {c['positives']} | {c['links']} | "
                    f"{c['correct']} | {p} | {r} |"
                )
    out += [
        "",
        "Held-out misses, by kind (first 12 each; `linked` is what the linker chose "
        "instead, empty when it abstained):",
        "",
    ]
    for kind, misses in sorted(res.misses.items()):
        wrong = sum(1 for m in misses if m["linked"])
        out.append(
            f"- **{kind}**: {len(misses)} ({wrong} wrong links, "
            f"{len(misses) - wrong} abstentions) — "
            + "; ".join(
                f"{m['hangul']} → {m['linked'] or '∅'} (gold {m['gold'] or '∅'})"
                for m in misses[:12]
            )
        )
    return "\n".join(out) + "\n"
