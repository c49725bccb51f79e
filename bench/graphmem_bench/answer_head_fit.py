"""Fitting the answer head on the development splits of the blind block requests.

Every world of each development split is written keyed, and every request asks
``Memory.block`` while ``answer_head.observing`` records what the reading gate saw: each
fact's features, which facts were eligible, and the gate's own best line before the
head. A fact is labelled by the set's gold. One logistic model per language (L2, plain
gradient descent over standardised features) is cross-validated leaving one round out:
for each penalty and each pair of decision points (``veto``, ``serve``), the held-out
round's requests are decided as the gate would with the head — its best line kept from
``veto`` or when whole-topic words chose it, else the head's best eligible fact from
``serve``, else nothing —
and scored as right when a gold line is served or, with no gold, nothing is. The best
setting is fitted on every round and saved.

With ``plain`` the worlds are written as plain text and the plain-text head is fitted
the same way over the person's raw records. A record an answer's record replaced counts
as right too, since the gate serves the newest record on the topic of the one chosen;
so the cross-validation scores the record the head picks, and what is served after that
step may differ (the held-out run measures what is served).
"""

from __future__ import annotations

import itertools
import uuid
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from graphmem.memory import Memory
from graphmem.reads.blocks import answer_head
from graphmem.reads.blocks.answer_head import AnswerHead, HeadSample, HeadWeights
from graphmem_bench import block_requests as br

PENALTIES = (0.003, 0.01, 0.03)
VETOES = (0.0, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5)
SERVES = (0.3, 0.35, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.1)
# Plain text: the head picks the record it gives at least this; below it, nothing is
# served (the gate's own record too), unless whole-topic words chose that record.
PLAIN_SERVES = (0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.6, 0.7, 1.1)
# The scalar features are penalised this much less than the vector products: they are
# few and general, the products many and easily fitted to one round's words.
SCALAR_PENALTY = 0.01


@dataclass(frozen=True)
class Labelled:
    round: str
    lang: str
    sample: HeadSample
    gold: frozenset[str]


def replaced_by(world: dict[str, Any], gold: Iterable[str]) -> frozenset[str]:
    """The gold facts and every fact they replaced, directly or through others."""
    replaces = {f["id"]: f["replaces"] for f in world["facts"] if f.get("replaces")}
    out = set(gold)
    todo = list(out)
    while todo:
        older = replaces.get(todo.pop())
        if older is not None and older not in out:
            out.add(older)
            todo.append(older)
    return frozenset(out)


def collect(
    folders: dict[str, Path],
    connect: Callable[[str], Memory],
    progress: Callable[[str], None] = print,
    plain: bool = False,
) -> list[Labelled]:
    """Each request's last keyed decision (with ``plain``: plain-text decision), with
    its gold."""
    out: list[Labelled] = []
    seen: list[HeadSample] = []

    def keep(sample: HeadSample) -> None:
        if sample.plain == plain:
            seen.append(sample)

    for name, folder in folders.items():
        for lang in ("en", "ko"):
            with answer_head.observing(keep):
                for world in br.load(folder, lang):
                    mem = connect(f"head-{uuid.uuid4().hex[:8]}")
                    try:
                        br._write_world(mem, world, "plain" if plain else "keyed", False)
                        names = {p["id"]: p["name"] for p in world["people"]}
                        for req in world["requests"]:
                            seen.clear()
                            mem.block(
                                req["request"],
                                names[req["partner"]],
                                now=br._now(world),
                                fresh=False,
                            )
                            if seen:
                                gold = (
                                    replaced_by(world, req["gold"])
                                    if plain
                                    else frozenset(req["gold"])
                                )
                                out.append(Labelled(name, lang, seen[-1], gold))
                    finally:
                        mem.close()
            progress(f"{name} {lang}: {sum(1 for x in out if x.round == name and x.lang == lang)}")
    return out


def fit(
    x: np.ndarray,
    y: np.ndarray,
    penalty: float,
    iters: int = 300,
    scalars: int = len(answer_head.SCALAR_FEATURES),
) -> HeadWeights:
    mean = x.mean(0)
    scale = x.std(0) + 1e-6
    # float32 rows halve the time of each step (the plain rows are ~90k x 790); the
    # fitted weights differ from a float64 fit far below the decision points' grid.
    z = ((x - mean) / scale).astype(np.float32)
    y32 = y.astype(np.float32)
    w = np.zeros(z.shape[1], dtype=np.float32)
    b = 0.0
    reg = np.full(z.shape[1], penalty, dtype=np.float32)
    reg[:scalars] *= SCALAR_PENALTY
    for _ in range(iters):
        p = 1.0 / (1.0 + np.exp(-(z @ w + np.float32(b))))
        w -= np.float32(0.5) * (z.T @ (p - y32) / np.float32(len(y)) + reg * w)
        b -= 0.5 * float((p - y32).mean())
    return HeadWeights(w, b, mean, scale, 0.0, 1.1)  # float32 already


def _train(items: list[Labelled], penalty: float) -> HeadWeights:
    used = [it.sample for it in items if it.sample.eligible.any()]
    golds = [it.gold for it in items if it.sample.eligible.any()]
    xs = [s.features[s.eligible] for s in used]
    ys = [
        np.array([r in g for r, e in zip(s.record_ids, s.eligible, strict=True) if e])
        for s, g in zip(used, golds, strict=True)
    ]
    scalars = answer_head.scalar_columns(bool(used) and used[0].plain)
    return fit(np.concatenate(xs), np.concatenate(ys).astype(np.float64), penalty, scalars=scalars)


def decide(it: Labelled, p: np.ndarray, veto: float, serve: float) -> str | None:
    """The record served first, as the gate decides with the head (plain text: the
    head picks from ``serve``, ``veto`` unused)."""
    s = it.sample
    top = s.record_ids.index(s.top) if s.top is not None else -1
    if s.plain:
        pick = answer_head.plain_pick(p, top, s.top_by_all_words, serve)
    else:
        pick = answer_head.keyed_pick(p, top, s.top_by_all_words, s.eligible, veto, serve)
    if pick is None:
        return s.top
    return None if pick == "none" else s.record_ids[int(pick)]


def right(it: Labelled, served: str | None) -> bool:
    return served in it.gold if it.gold else served is None


def cross_validate(items: list[Labelled]) -> dict[str, Any]:
    """Per language: the gate alone and each setting, leaving one round out."""
    report: dict[str, Any] = {}
    for lang in ("en", "ko"):
        mine = [it for it in items if it.lang == lang]
        rounds = sorted({it.round for it in mine})
        gate_alone = sum(right(it, it.sample.top) for it in mine)
        scores: dict[tuple[float, float, float], int] = {}
        plain = any(it.sample.plain for it in mine)
        for penalty in PENALTIES:
            probs: list[tuple[Labelled, np.ndarray]] = []
            for held in rounds:
                model = _train([it for it in mine if it.round != held], penalty)
                probs += [
                    (it, model.probability(it.sample.features)) for it in mine if it.round == held
                ]
            # The head's own pick needs at least what keeps the gate's: veto <= serve.
            points = (
                ((0.0, s) for s in PLAIN_SERVES)
                if plain
                else ((v, s) for v, s in itertools.product(VETOES, SERVES) if v <= s)
            )
            for veto, serve in points:
                scores[(penalty, veto, serve)] = sum(
                    right(it, decide(it, p, veto, serve)) for it, p in probs
                )
        best = max(scores, key=lambda k: (scores[k], -k[1], k[2]))
        report[lang] = {
            "requests": len(mine),
            "gate_alone": gate_alone,
            "best": best,
            "best_right": scores[best],
            "scores": scores,
        }
    return report


def fit_head(items: list[Labelled], report: dict[str, Any], model: str) -> AnswerHead:
    heads = {}
    for lang in ("en", "ko"):
        penalty, veto, serve = report[lang]["best"]
        w = _train([it for it in items if it.lang == lang], penalty)
        heads[lang] = HeadWeights(w.weights, w.bias, w.mean, w.scale, veto, serve)
    return AnswerHead(model, heads["en"], heads["ko"])


def markdown(report: dict[str, Any], command: str, plain: bool = False) -> str:
    decided = (
        "the person's raw records, the worlds written as plain text; right: a gold record "
        "or one it replaced"
        if plain
        else "the person's facts; right: a gold line"
    )
    lines = [
        f"Command: `{command}`",
        "",
        "Leave-one-round-out cross-validation on the development splits (requests the "
        f"reading gate decided on {decided} first, or nothing when nothing answers)"
        + (": the head picks, from `serve`; no veto" if plain else "")
        + ":",
        "",
        "| language | requests | gate alone | with the head | penalty | veto | serve |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for lang, r in report.items():
        penalty, veto, serve = r["best"]
        lines.append(
            f"| {lang} | {r['requests']} | {r['gate_alone']} | {r['best_right']} "
            f"| {penalty} | {'–' if plain else veto} | {serve} |"
        )
    return "\n".join(lines) + "\n"
