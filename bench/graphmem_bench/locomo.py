"""Evidence from real conversations: LoCoMo's ten multi-session chats, text only, and
the Korean conversations written for graphmem in LoCoMo's layout.

Each conversation is ingested as it would arrive (one record per turn, speaker, the
session's date, no facts, the default extractor), one namespace each; the benchmark then
waits until the embedder has kept every turn's vector (the wait is reported). For every
question of categories 1-4 with gold evidence turns, evidence recall is the share of its
gold turns present in the evidence, at each character budget. The peers get the same
budget and the same renderer, on the same turns, in the same run: ``bm25s`` (top turns by
bm25s until the budget is full; for Korean over Kiwi morphemes), ``e5`` (turns by the
bundled multilingual-e5-small, each embedded as "speaker: text"), ``rrf`` (the two fused
by reciprocal rank, k = 60: hybrid retrieval as Graphiti, Mem0 or Letta users get it)
and ``newest`` (the newest turns that fit).

Tuning is allowed on LoCoMo's conv-26, conv-30, conv-41, conv-42 and conv-43 and on
ko-conv-1 and ko-conv-2 only; the others are held out and reported apart.
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

import numpy as np

from graphmem.domain.evidence import EvidenceRecord, render, render_selected
from graphmem.memory import Memory
from graphmem_bench.controls import BM25Index
from graphmem_bench.formats import locomo
from graphmem_bench.scoring import percentile

TUNE = ("conv-26", "conv-30", "conv-41", "conv-42", "conv-43")
KOREAN_TUNE = ("ko-conv-1", "ko-conv-2")
KOREAN_FIXTURE = Path(__file__).resolve().parents[2] / "tests" / "fixtures" / "korean_conversations"
# round -> (folder, tuning conversations); each round's held-out part was frozen first.
KOREAN_ROUNDS: dict[int, tuple[Path, tuple[str, ...]]] = {
    1: (KOREAN_FIXTURE, KOREAN_TUNE),
    2: (KOREAN_FIXTURE.with_name("korean_conversations_round2"), ()),
}
CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"}
CONTROLS = ("graphmem", "rrf", "e5", "bm25s", "newest")
BUDGETS = (2000, 4000, 8000, 16000)
RRF_K = 60


@dataclass(frozen=True)
class Dataset:
    name: str
    conversations: list[locomo.Conversation]
    tune: tuple[str, ...]
    korean: bool = False


def locomo_set(data_dir: str | Path) -> Dataset:
    return Dataset("LoCoMo", locomo.load_conversations(data_dir), TUNE)


def korean_set(round_: int = 1) -> Dataset:
    """The Korean conversations written blind: round 1 (ko-conv-1 … 4, two of them to
    tune) or round 2 (ko-conv-5 … 8, long ones, all held out)."""
    folder, tune = KOREAN_ROUNDS[round_]
    paths = sorted(Path(folder).glob("ko-conv-*.json"))
    if not paths:
        raise FileNotFoundError(f"no ko-conv-*.json in {folder}")
    name = "Korean conversations" + (f", round {round_}" if round_ > 1 else "")
    return Dataset(name, locomo.load_files(paths), tune, korean=True)


@dataclass
class Result:
    budgets: tuple[int, ...]
    # (split, control, budget, category) -> recalls
    recall: dict[tuple[str, str, int, int], list[float]] = field(
        default_factory=lambda: defaultdict(list)
    )
    latency_ms: list[float] = field(default_factory=list)
    inner_ms: list[float] = field(default_factory=list)  # the call less its embedding
    embed_ms: list[float] = field(default_factory=list)  # the embedder alone, one question
    questions: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    turns: int = 0
    keep_seconds: float = 0.0  # from ingest's return until every turn's vector was kept
    dataset: str = "LoCoMo"
    tune: tuple[str, ...] = TUNE
    embedder: str = "e5"

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


def _fill(
    turns: Sequence[EvidenceRecord], order: Sequence[int], budget: int
) -> list[EvidenceRecord]:
    """Turns in rank order, skipping any that no longer fit, laid out as graphmem's own
    evidence is (source order, one heading per day): every arm pays the same."""
    return render_selected([], [turns[i] for i in order], budget)[1]


def _rrf(*rankings: Sequence[int]) -> list[int]:
    fused: dict[int, float] = defaultdict(float)
    for ranking in rankings:
        for rank, i in enumerate(ranking):
            fused[i] += 1.0 / (RRF_K + rank + 1)
    return sorted(fused, key=lambda i: (-fused[i], i))


def run(
    connect: Callable[..., Memory],
    dataset: Dataset,
    budgets: Sequence[int] = BUDGETS,
    embedder: str = "e5",
    progress: Callable[[str], None] = print,
) -> Result:
    from graphmem.embedding import BundledE5
    from graphmem.reads.ranking import KoreanMorphemes, simple_tokens

    res = Result(tuple(budgets), dataset=dataset.name, tune=dataset.tune, embedder=embedder)
    model = BundledE5()  # the peers' embedder: the bundled model graphmem also uses
    for conv in dataset.conversations:
        split = "tune" if conv.sample_id in dataset.tune else "held-out"
        mem = connect(f"conv-{conv.sample_id}-{uuid.uuid4().hex[:6]}", embedder=embedder)
        try:
            mem.ingest(list(locomo.records(conv)))
            t = time.perf_counter()
            if not mem.wait_vectors(timeout=3600):
                raise RuntimeError(f"{conv.sample_id}: vectors not kept within an hour")
            res.keep_seconds += time.perf_counter() - t
            turns = mem.store.all_records(mem.namespace)
            res.turns += len(turns)
            tokenize: Callable[[str], list[str]] = simple_tokens
            if dataset.korean:
                tokenize = KoreanMorphemes(sorted({t.speaker for t in turns if t.speaker}))
            index = BM25Index([t.text for t in turns], tokenize)
            passages = np.asarray(
                model.embed([f"{t.speaker}: {t.text}" if t.speaker else t.text for t in turns]),
                dtype=np.float32,
            )
            asked = [
                qa
                for qa in conv.qa
                if qa.get("category") in CATEGORIES and _gold(qa, conv.sample_id)
            ]
            for qa in asked:
                question, gold = str(qa["question"]), _gold(qa, conv.sample_id)
                cat = int(qa["category"])  # type: ignore[call-overload]
                res.questions[split] += 1
                t = time.perf_counter()
                q = np.asarray(model.embed_query(question), dtype=np.float32)
                res.embed_ms.append((time.perf_counter() - t) * 1000)
                lexical = [i for i, _ in index.search(question)]
                dense = np.argsort(-(passages @ q), kind="stable").tolist()
                orders = {"bm25s": lexical, "e5": dense, "rrf": _rrf(lexical, dense)}
                for budget in budgets:
                    t = time.perf_counter()
                    ev = mem.evidence(question, budget_chars=budget)
                    if budget == 4000:
                        res.latency_ms.append((time.perf_counter() - t) * 1000)
                        res.inner_ms.append(res.latency_ms[-1] - ev.stats.get("embed_ms", 0.0))
                    picked = {"graphmem": ev.records, "newest": render(turns, budget)[1]}
                    for control, order in orders.items():
                        picked[control] = _fill(turns, order, budget)
                    for control, recs in picked.items():
                        found = {r.id for r in recs} & gold
                        res.recall[(split, control, budget, cat)].append(len(found) / len(gold))
            progress(
                f"{conv.sample_id} ({split}): {len(asked)} questions, graphmem@4000 "
                f"{res.mean(split, 'graphmem', 4000):.3f}, rrf@4000 "
                f"{res.mean(split, 'rrf', 4000):.3f} so far"
            )
        finally:
            mem.close()
    return res


def markdown(res: Result, command: str) -> str:
    out = [
        f"Command: `{command}`\n",
        f"{res.dataset}: {res.turns:,} turns; questions (categories 1-4 with gold turns): "
        f"tune {res.questions['tune']}, held-out {res.questions['held-out']}. "
        + (
            f"Tuning used the tune conversations ({', '.join(res.tune)}) only. "
            if res.tune
            else "Every conversation is held out. "
        )
        + f"Embedder: {res.embedder}; "
        f"every turn's vector was kept {res.keep_seconds:.0f} s after ingest (all "
        "conversations, the bundled CPU model) before the questions were asked.\n",
    ]
    for split in ("held-out", "tune") if res.tune else ("held-out",):
        out.append(f"\n**{split}**: evidence recall by budget (characters)\n")
        out.append("| control | " + " | ".join(f"{b:,}" for b in res.budgets) + " |")
        out.append("|---|" + "---:|" * len(res.budgets))
        for control in CONTROLS:
            cells = [f"{res.mean(split, control, b):.3f}" for b in res.budgets]
            out.append(f"| {control} | " + " | ".join(cells) + " |")
        gap = [res.mean(split, "graphmem", b) - res.mean(split, "rrf", b) for b in res.budgets]
        out.append("| graphmem − rrf | " + " | ".join(f"{g:+.3f}" for g in gap) + " |")
        out.append(f"\n{split}, per category at each budget (graphmem / rrf / bm25s):\n")
        out.append("| category | " + " | ".join(f"{b:,}" for b in res.budgets) + " |")
        out.append("|---|" + "---|" * len(res.budgets))
        for cat, name in CATEGORIES.items():
            cells = [
                f"{res.mean(split, 'graphmem', b, cat):.3f} / "
                f"{res.mean(split, 'rrf', b, cat):.3f} / "
                f"{res.mean(split, 'bm25s', b, cat):.3f}"
                for b in res.budgets
            ]
            n = len(res.recall.get((split, "graphmem", res.budgets[0], cat), []))
            out.append(f"| {name} ({n}) | " + " | ".join(cells) + " |")
    lat, inner, emb = sorted(res.latency_ms), sorted(res.inner_ms), sorted(res.embed_ms)
    if lat:
        out.append(
            f"\nEvidence latency at 4,000 characters (all {len(lat)} questions, Neo4j "
            f"included): p50 {percentile(lat, 0.5):.1f} ms, p95 {percentile(lat, 0.95):.1f} ms "
            "with the question's embedding inside the call; without it (the call less its "
            f"own embedding time) p50 {percentile(inner, 0.5):.1f} ms, p95 "
            f"{percentile(inner, 0.95):.1f} ms"
            + (
                f"; the embedder alone on the same questions: p50 "
                f"{percentile(emb, 0.5):.1f} ms, p95 {percentile(emb, 0.95):.1f} ms.\n"
                if emb
                else ".\n"
            )
        )
    return "\n".join(out)


def plot(res: Result, out_dir: Path, name: str = "locomo_recall") -> list[Path]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import NullFormatter

    out_dir.mkdir(parents=True, exist_ok=True)
    fig, axes = plt.subplots(1, 2, figsize=(9, 3.6), sharey=True)
    for ax, split in zip(axes, ("held-out", "tune"), strict=True):
        for control, style in zip(CONTROLS, ("o-", "D-", "v--", "s--", "^:"), strict=True):
            ax.plot(
                res.budgets,
                [res.mean(split, control, b) for b in res.budgets],
                style,
                label=control,
            )
        ax.set_xscale("log")
        ax.set_xticks(res.budgets, [f"{b // 1000}k" for b in res.budgets])
        ax.xaxis.set_minor_formatter(NullFormatter())
        ax.set_title(f"{res.dataset} {split}")
        ax.set_xlabel("evidence budget (characters)")
        ax.grid(alpha=0.3)
    axes[0].set_ylabel("evidence recall")
    axes[0].legend()
    fig.tight_layout()
    path = out_dir / f"{name}.png"
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return [path]
