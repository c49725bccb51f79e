"""Evidence from real conversations: LoCoMo's ten multi-session chats, text only.

Each conversation is ingested as it would arrive (one record per turn, speaker, the
session's date, no facts, the default extractor), one namespace each. For every question
of categories 1-4 with gold evidence turns, evidence recall is the share of its gold turns
present in the evidence, at each character budget. The controls get the same budget and
the same renderer: ``bm25s`` (top turns by bm25s until the budget is full, what a user
would pick instead) and ``newest`` (the newest turns that fit).

Tuning is allowed on conv-26, conv-30, conv-41, conv-42 and conv-43 only; conv-44 to
conv-50 are held out and reported apart.
"""

from __future__ import annotations

import re
import statistics
import time
import uuid
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from graphmem.domain.evidence import EvidenceRecord, render
from graphmem.memory import Memory
from graphmem_bench.controls import BM25Index
from graphmem_bench.formats import locomo
from graphmem_bench.scoring import percentile

TUNE = ("conv-26", "conv-30", "conv-41", "conv-42", "conv-43")
CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"}
CONTROLS = ("graphmem", "bm25s", "newest")
BUDGETS = (2000, 4000, 8000, 16000)


@dataclass
class Result:
    budgets: tuple[int, ...]
    # (split, control, budget, category) -> recalls
    recall: dict[tuple[str, str, int, int], list[float]] = field(
        default_factory=lambda: defaultdict(list)
    )
    latency_ms: list[float] = field(default_factory=list)
    questions: dict[str, int] = field(default_factory=lambda: defaultdict(int))

    def mean(self, split: str, control: str, budget: int, category: int | None = None) -> float:
        cats = [category] if category else list(CATEGORIES)
        vals = [v for c in cats for v in self.recall.get((split, control, budget, c), [])]
        return statistics.mean(vals) if vals else float("nan")


def _gold(qa: dict[str, Any], sample_id: str) -> set[str]:
    ids: set[str] = set()
    for item in qa.get("evidence") or ():
        for part in re.findall(r"D\d+:\d+", str(item)):
            ids.add(f"{sample_id}:{part}")
    return ids


def _bm25s_select(
    index: BM25Index, turns: Sequence[EvidenceRecord], question: str, budget: int
) -> list[EvidenceRecord]:
    """Best-ranked turns, skipping any that no longer fit, rendered in source order."""
    room = budget - len(render([], budget)[0])
    kept = []
    for i, _ in index.search(question):
        size = len(turns[i].line())
        if size <= room:
            kept.append(turns[i])
            room -= size
    return kept


def run(
    connect: Callable[..., Memory],
    data_dir: str | Path,
    budgets: Sequence[int] = BUDGETS,
    progress: Callable[[str], None] = print,
) -> Result:
    res = Result(tuple(budgets))
    for conv in locomo.load_conversations(data_dir):
        split = "tune" if conv.sample_id in TUNE else "held-out"
        mem = connect(f"locomo-{conv.sample_id}-{uuid.uuid4().hex[:6]}")
        try:
            mem.ingest(list(locomo.records(conv)))
            turns = mem.store.all_records(mem.namespace)
            index = BM25Index([t.text for t in turns])
            asked = [
                qa
                for qa in conv.qa
                if qa.get("category") in CATEGORIES and _gold(qa, conv.sample_id)
            ]
            for qa in asked:
                question, gold = str(qa["question"]), _gold(qa, conv.sample_id)
                cat = int(qa["category"])  # type: ignore[call-overload]
                res.questions[split] += 1
                for budget in budgets:
                    t = time.perf_counter()
                    ev = mem.evidence(question, budget_chars=budget)
                    if budget == 4000:
                        res.latency_ms.append((time.perf_counter() - t) * 1000)
                    picked = {
                        "graphmem": ev.records,
                        "bm25s": _bm25s_select(index, turns, question, budget),
                        "newest": render(turns, budget)[1],
                    }
                    for control, recs in picked.items():
                        found = {r.id for r in recs} & gold
                        res.recall[(split, control, budget, cat)].append(len(found) / len(gold))
            progress(
                f"{conv.sample_id} ({split}): {len(asked)} questions, graphmem@4000 "
                f"{res.mean(split, 'graphmem', 4000):.3f} so far"
            )
        finally:
            mem.close()
    return res


def markdown(res: Result, command: str) -> str:
    out = [
        f"Command: `{command}`\n",
        f"Questions (categories 1-4 with gold turns): tune {res.questions['tune']}, "
        f"held-out {res.questions['held-out']}. Tuning used the tune conversations "
        f"({', '.join(TUNE)}) only; the held-out ones (conv-44 … conv-50) were not "
        "looked at while building.\n",
    ]
    for split in ("held-out", "tune"):
        out.append(f"\n**{split}**: evidence recall by budget (characters)\n")
        out.append("| control | " + " | ".join(f"{b:,}" for b in res.budgets) + " |")
        out.append("|---|" + "---:|" * len(res.budgets))
        for control in CONTROLS:
            cells = [f"{res.mean(split, control, b):.3f}" for b in res.budgets]
            out.append(f"| {control} | " + " | ".join(cells) + " |")
        out.append(f"\n{split}, per category at each budget (graphmem / bm25s):\n")
        out.append("| category | " + " | ".join(f"{b:,}" for b in res.budgets) + " |")
        out.append("|---|" + "---|" * len(res.budgets))
        for cat, name in CATEGORIES.items():
            cells = [
                f"{res.mean(split, 'graphmem', b, cat):.3f} / "
                f"{res.mean(split, 'bm25s', b, cat):.3f}"
                for b in res.budgets
            ]
            n = len(res.recall.get((split, "graphmem", res.budgets[0], cat), []))
            out.append(f"| {name} ({n}) | " + " | ".join(cells) + " |")
    lat = sorted(res.latency_ms)
    out.append(
        f"\nEvidence latency at 4,000 characters (all {len(lat)} questions, Neo4j "
        f"included): p50 {percentile(lat, 0.5):.1f} ms, p95 {percentile(lat, 0.95):.1f} ms.\n"
    )
    return "\n".join(out)


def plot(res: Result, out_dir: Path) -> list[Path]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import NullFormatter

    out_dir.mkdir(parents=True, exist_ok=True)
    fig, axes = plt.subplots(1, 2, figsize=(9, 3.6), sharey=True)
    for ax, split in zip(axes, ("held-out", "tune"), strict=True):
        for control, style in zip(CONTROLS, ("o-", "s--", "^:"), strict=True):
            ax.plot(
                res.budgets,
                [res.mean(split, control, b) for b in res.budgets],
                style,
                label=control,
            )
        ax.set_xscale("log")
        ax.set_xticks(res.budgets, [f"{b // 1000}k" for b in res.budgets])
        ax.xaxis.set_minor_formatter(NullFormatter())
        ax.set_title(f"LoCoMo {split}")
        ax.set_xlabel("evidence budget (characters)")
        ax.grid(alpha=0.3)
    axes[0].set_ylabel("evidence recall")
    axes[0].legend()
    fig.tight_layout()
    path = out_dir / "locomo_recall.png"
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return [path]
