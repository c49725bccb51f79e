"""Cross-script linking on Hangul renderings of FactConsolidation names.

Three sets, each written by a helper that read no linker code: Hangul renderings of
entity names of the FactConsolidation 262k graph (transliterated, translated, mixed,
variants) with the gold entity, and real names that are not in the graph (gold null).
``tests/fixtures/hangul_names`` (round 1), ``hangul_names_round2`` and ``_round3`` are
development splits: their misses were read while building, and the meaning model's
weights are fitted on them (``fit``). ``tests/fixtures/hangul_names_round4`` is held out:
reported in aggregate, by kind and by category only. The linker indexes every name of the 262k graph
(subjects and objects of its facts, as the grammar adapter reads them), by sound, and
with ``meaning`` by the bundled e5 model's vectors too.

Precision: correct links / links made (a link for a name not in the graph is wrong);
recall: correct links / renderings of names in the graph.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from graphmem.language.crossscript import CrossScriptLinker
from graphmem.language.name_meaning import NameVectors
from graphmem_bench.extract.grammar import GrammarExtractor
from graphmem_bench.formats.factconsolidation import load_rows, parse_context

__all__ = ["Result", "fit", "markdown", "run"]

# rounds 1-3: development splits; round 4: held out
DEV = ("hangul_names", "hangul_names_round2", "hangul_names_round3")
HELD_OUT = "hangul_names_round4"
HELD_OUT_ROUND = 4


@dataclass
class Result:
    names: int
    build_seconds: float
    per_item_ms: float
    meaning: bool = False
    embed_seconds: float = 0.0
    link_ms: list[float] = field(default_factory=list)
    # the meaning arm's search over SCALE_NAMES vectors: (p50, p95) ms, and MB held
    scale_search: tuple[float, float, float] | None = None
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


class BundledNameMeaning:
    """Meaning for the linker: the graph's names embedded once by the bundled e5 model
    (cached on disk by the names' digest), spans embedded as queries."""

    def __init__(self, names: list[str]) -> None:
        from graphmem.embedding import BundledE5

        self._e5 = BundledE5()
        self._vectors = NameVectors()
        digest = hashlib.blake2b("\n".join(sorted(names)).encode(), digest_size=8).hexdigest()
        cache = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache"))
        path = cache / "graphmem-bench" / f"name-vectors-e5-{digest}.npy"
        ordered = sorted(names)
        t0 = time.perf_counter()
        if path.exists():
            matrix = np.load(path)
        else:
            rows = [self._e5.embed(ordered[i : i + 64]) for i in range(0, len(ordered), 64)]
            matrix = np.asarray([r for chunk in rows for r in chunk], dtype=np.float32)
            path.parent.mkdir(parents=True, exist_ok=True)
            np.save(path, matrix)
        self.embed_seconds = time.perf_counter() - t0
        self._vectors.add(ordered, matrix)

    @property
    def vectors(self) -> NameVectors:
        return self._vectors

    def query(self, text: str) -> npt.NDArray[np.float32] | None:
        return np.asarray(self._e5.embed_query(text), dtype=np.float32)


def _items(fixtures: Path) -> list[dict[str, Any]]:
    return [
        json.loads(line)
        for line in (fixtures / "names.jsonl").read_text(encoding="utf-8").splitlines()
        if line.strip()
    ]


def _linker(names: set[str], meaning: bool) -> tuple[CrossScriptLinker, float, float]:
    bundled = BundledNameMeaning(sorted(names)) if meaning else None
    t0 = time.perf_counter()
    linker = CrossScriptLinker(names, meaning=bundled)
    return linker, time.perf_counter() - t0, bundled.embed_seconds if bundled else 0.0


def run(data_dir: str | Path, fixtures: Path, *, meaning: bool = True) -> Result:
    """Link every rendering of the four rounds (``fixtures`` holds ``hangul_names`` and
    ``hangul_names_round2`` … ``_round4``, as ``tests/fixtures`` in graphmem's source tree)
    against the names of the 262k graph in ``data_dir``."""
    names = graph_names(data_dir)
    linker, build, embed = _linker(names, meaning)
    res = Result(len(linker), build, 0.0, meaning=meaning, embed_seconds=embed)
    as_written = _as_written(names)
    items = [("dev", it) for dev in DEV for it in _items(fixtures / dev)]
    items += [("held-out", it) for it in _items(fixtures / HELD_OUT)]
    t0 = time.perf_counter()
    for split, it in items:
        t1 = time.perf_counter()
        link = linker.link(it["hangul"])
        res.link_ms.append((time.perf_counter() - t1) * 1000)
        gold = it["gold"]
        linked = link.name if link is not None else None
        # what a Memory's question reader anchors: a name as written or through the alias
        # table first, the linker's link otherwise
        read = as_written(it["hangul"]) or linked
        as_read = f"{split}, as read"
        for name, facets in (
            (
                linked,
                (
                    (split, "all", "all"),
                    (split, "kind", it["kind"]),
                    (split, "category", it["category"]),
                ),
            ),
            (read, ((as_read, "all", "all"), (as_read, "kind", it["kind"]))),
        ):
            for key in facets:
                c = res.counts.setdefault(key, Counter())
                c["items"] += 1
                c["positives"] += gold is not None
                c["links"] += name is not None
                c["correct"] += _right(name, gold)
        if split == "dev" and not _right(linked, gold) and (linked is not None or gold is not None):
            res.misses[it["kind"]].append({"hangul": it["hangul"], "gold": gold, "linked": linked})
    res.per_item_ms = (time.perf_counter() - t0) * 1000 / max(1, len(items))
    if linker.meaning is not None:
        res.scale_search = _search_at_scale(linker.meaning.vectors)
    return res


def _right(name: str | None, gold: str | None) -> bool:
    """A link to the gold entity (names compared in lower case, as the data's are)."""
    return name is not None and gold is not None and name.lower() == gold.lower()


def _as_written(names: set[str]) -> Callable[[str], str | None]:
    """The graph name a rendering names as written (a Latin name kept in a Korean
    question) or through the default alias table (``KOREAN_ALIASES``: "이탈리아"), as a
    Memory's question reader finds it before any linking; None otherwise."""
    from graphmem.domain.aliases import KOREAN_ALIASES
    from graphmem.domain.keys import normalize_name

    by_key: dict[str, set[str]] = defaultdict(set)
    for n in names:
        by_key[normalize_name(n)].add(n)

    def find(rendering: str) -> str | None:
        written = KOREAN_ALIASES.get(rendering.strip(), rendering)
        found = by_key.get(normalize_name(written), set())
        return next(iter(found)) if len(found) == 1 else None

    return find


SCALE_NAMES = 100_000


def _search_at_scale(vectors: NameVectors, queries: int = 200) -> tuple[float, float, float]:
    """The meaning arm's nearest-name search over SCALE_NAMES vectors (the graph's own,
    repeated: the cost does not depend on the values): p50 and p95 ms, and the MB the
    vectors hold."""
    from graphmem.language.name_meaning import MEANING_CANDIDATES, nearest

    rows = vectors.matrix()
    reps = -(-SCALE_NAMES // len(rows))
    big = NameVectors()
    tiled = np.tile(rows, (reps, 1))[:SCALE_NAMES]
    big.add([f"n{i}" for i in range(len(tiled))], tiled)
    rng = np.random.default_rng(0)
    times = []
    for i in rng.choice(len(rows), queries):
        t = time.perf_counter()
        found, sims = big.similarities(rows[i])
        nearest(found, sims, MEANING_CANDIDATES)
        times.append((time.perf_counter() - t) * 1000)
    times.sort()
    return times[len(times) // 2], times[int(len(times) * 0.95)], tiled.nbytes / 2**20


def _dev_candidates(
    linker: CrossScriptLinker, fixtures: Path
) -> list[tuple[str, str | None, list[tuple[str, list[float]]]]]:
    """Per development rendering: its gold (lowercased, "" when none), the sound link,
    and the meaning arm's candidates with their features."""
    out = []
    for it in (it for dev in DEV for it in _items(fixtures / dev)):
        features: dict[str, list[float]] = {}
        linker.meaning_candidates(it["hangul"], features)
        sound = linker.link(it["hangul"], by_meaning=False)
        out.append(
            ((it["gold"] or "").lower(), sound.name if sound else None, list(features.items()))
        )
    return out


def _logistic(rows: list[tuple[list[float], float]], l2: float) -> list[float]:
    x = np.asarray([r for r, _ in rows], dtype=np.float64)
    y = np.asarray([t for _, t in rows], dtype=np.float64)
    mu, sd = x.mean(0), x.std(0) + 1e-9
    z = (x - mu) / sd
    w = np.zeros(z.shape[1])
    b = 0.0
    for _ in range(5000):  # plain gradient descent: a convex loss, a few thousand rows
        p = 1.0 / (1.0 + np.exp(-(z @ w + b)))
        w -= 0.5 * (z.T @ (p - y) / len(y) + l2 * w)
        b -= 0.5 * float((p - y).mean())
    raw = w / sd  # back to the features' own scale
    return [*map(float, raw), float(b - (w * mu / sd).sum())]


def _rows(items: list[tuple[str, str | None, list[tuple[str, list[float]]]]]) -> list[Any]:
    return [(x, 1.0 if n.lower() == g else 0.0) for g, _, cands in items for n, x in cands]


def fit(
    data_dir: str | Path, fixtures: Path, l2: float = 0.01, folds: int = 5
) -> tuple[list[float], dict[float, Counter[str]]]:
    """Fit the meaning model's weights on the development splits only: a logistic
    regression over each span's candidates (``MEANING_FEATURES``), the gold name the
    positive. Returns the weights with the bias last, and per link threshold what a
    ``folds``-fold cross-validation on the same splits gives: links the meaning arm adds
    where sound abstains, how many are right, and all links and right ones."""
    linker, _, _ = _linker(graph_names(data_dir), True)
    items = _dev_candidates(linker, fixtures)
    order = np.random.default_rng(0).permutation(len(items))
    cv: dict[float, Counter[str]] = {t: Counter() for t in CV_THRESHOLDS}
    for k in range(folds):
        test = set(order[k::folds].tolist())
        *w, b = _logistic(_rows([it for i, it in enumerate(items) if i not in test]), l2)
        for i in test:
            gold, sound, cands = items[i]
            scored = sorted(
                ((1.0 / (1.0 + np.exp(-(float(np.dot(w, x)) + b))), n) for n, x in cands),
                reverse=True,
            )
            for t in CV_THRESHOLDS:
                link, added = sound, False
                if sound is None and scored:
                    best, name = scored[0]
                    second = scored[1][0] if len(scored) > 1 else 0.0
                    if best >= t and best - second >= t / 2:
                        link, added = name, True
                right = link is not None and link.lower() == gold
                cv[t].update(added=added, added_right=added and right)
                cv[t].update(links=link is not None, right=right, positives=bool(gold))
    return _logistic(_rows(items), l2), cv


CV_THRESHOLDS = (0.5, 0.6, 0.7, 0.8, 0.9)


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))] if ordered else 0.0


def _pr(c: Counter[str]) -> tuple[str, str]:
    p = f"{c['correct'] / c['links']:.3f}" if c["links"] else "—"
    r = f"{c['correct'] / c['positives']:.3f}" if c["positives"] else "—"
    return p, r


def markdown(res: Result, command: str) -> str:
    arms = "sound and meaning (bundled e5)" if res.meaning else "sound only"
    out = [
        f"Command: `{command}`",
        "",
        f"Linker: {arms}. Index: {res.names:,} Latin names of the 262k graph, built in "
        f"{res.build_seconds:.2f} s"
        + (f" (names' vectors: {res.embed_seconds:.1f} s)" if res.meaning else "")
        + f"; {res.per_item_ms:.2f} ms per rendering linked (cold, no cache; p50 "
        f"{_pct(res.link_ms, 0.5):.1f} ms, p95 {_pct(res.link_ms, 0.95):.1f} ms, an e5 "
        "query embedding included where sound linked nothing).",
        "",
        "| split | items | names in the graph | links made | correct | precision | recall |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for split in ("dev", "held-out", "dev, as read", "held-out, as read"):
        c = res.counts[(split, "all", "all")]
        p, r = _pr(c)
        out.append(
            f"| {split} | {c['items']} | {c['positives']} | {c['links']} | "
            f"{c['correct']} | {p} | {r} |"
        )
    if res.scale_search is not None:
        p50, p95, mb = res.scale_search
        out += [
            "",
            f"The meaning arm's search at {SCALE_NAMES:,} name vectors (exact, numpy): "
            f"p50 {p50:.1f} ms, p95 {p95:.1f} ms; the vectors hold {mb:.0f} MB (float32).",
        ]
    out += [
        "",
        "*As read*: what a Memory's question reader anchors for the rendering: a name kept "
        "in Latin letters, or one the default alias table (`KOREAN_ALIASES`) holds, as "
        "written; the linker's link otherwise.",
    ]
    for facet, which, title in (
        ("kind", "held-out", "by kind"),
        ("category", "held-out", "by category"),
        ("kind", "held-out, as read", "as read, by kind"),
    ):
        out += [
            "",
            f"Held-out (round {HELD_OUT_ROUND}), {title}:",
            "",
            f"| {facet} | items | names in the graph | links | correct | precision | recall |",
            "|---|---:|---:|---:|---:|---:|---:|",
        ]
        for (split, f, value), c in sorted(res.counts.items()):
            if split == which and f == facet:
                p, r = _pr(c)
                out.append(
                    f"| {value} | {c['items']} | {c['positives']} | {c['links']} | "
                    f"{c['correct']} | {p} | {r} |"
                )
    out += [
        "",
        "Development-split misses, by kind (first 8 each; `linked` is what the linker "
        "chose instead, empty when it abstained). Held-out misses are not printed.",
        "",
    ]
    for kind, misses in sorted(res.misses.items()):
        wrong = sum(1 for m in misses if m["linked"])
        out.append(
            f"- **{kind}**: {len(misses)} ({wrong} wrong links, "
            f"{len(misses) - wrong} abstentions) — "
            + "; ".join(
                f"{m['hangul']} → {m['linked'] or '∅'} (gold {m['gold'] or '∅'})"
                for m in misses[:8]
            )
        )
    return "\n".join(out) + "\n"
