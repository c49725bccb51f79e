"""The answer head's fit: its decisions and scoring, on made-up samples."""

from __future__ import annotations

import numpy as np

from graphmem.reads.blocks.answer_head import SCALAR_FEATURES, HeadSample
from graphmem_bench import answer_head_fit as fit

N = len(SCALAR_FEATURES)


def _sample(x: np.ndarray, top: str | None, by_words: bool = False) -> HeadSample:
    ids = tuple(f"f{i}" for i in range(len(x)))
    return HeadSample("q", False, x, np.ones(len(x), dtype=bool), ids, top, by_words)


def test_a_separable_set_is_fitted():
    rng = np.random.default_rng(0)
    x = rng.normal(size=(400, N + 4))
    y = (x[:, N] > 0).astype(float)  # a vector product decides
    w = fit.fit(x, y, penalty=0.001)
    p = w.probability(x)
    assert ((p > 0.5) == (y > 0)).mean() > 0.95


def test_decisions_follow_veto_and_serve():
    x = np.zeros((2, N))
    p = np.array([0.1, 0.7])
    gold = fit.Labelled("r", "en", _sample(x, "f0"), frozenset({"f0"}))
    assert fit.decide(gold, p, veto=0.05, serve=1.1) == "f0"
    assert fit.decide(gold, p, veto=0.2, serve=1.1) is None
    words = fit.Labelled("r", "en", _sample(x, "f0", by_words=True), frozenset())
    assert fit.decide(words, p, veto=0.9, serve=1.1) == "f0"  # whole-topic words stand
    empty = fit.Labelled("r", "en", _sample(x, None), frozenset({"f1"}))
    assert fit.decide(empty, p, veto=0.2, serve=0.6) == "f1"
    assert fit.decide(empty, p, veto=0.2, serve=0.8) is None


def test_right_is_a_gold_line_or_an_empty_block_when_nothing_answers():
    x = np.zeros((1, N))
    assert fit.right(fit.Labelled("r", "en", _sample(x, None), frozenset({"f0"})), "f0")
    assert not fit.right(fit.Labelled("r", "en", _sample(x, None), frozenset({"f0"})), None)
    assert fit.right(fit.Labelled("r", "en", _sample(x, None), frozenset()), None)
    assert not fit.right(fit.Labelled("r", "en", _sample(x, None), frozenset()), "f0")


def test_cross_validation_never_scores_below_the_gate_alone():
    rng = np.random.default_rng(1)
    items = []
    for k in range(240):
        x = rng.normal(size=(3, N + 4))
        answers = x[:, N] > 1.0
        gold = frozenset(f"f{i}" for i in np.flatnonzero(answers)[:1])
        top = f"f{int(x[:, 0].argmax())}"
        items.append(fit.Labelled(f"r{k % 3}", "en" if k % 2 else "ko", _sample(x, top), gold))
    report = fit.cross_validate(items)
    for lang in ("en", "ko"):
        r = report[lang]
        # veto 0 and serve above 1 is the gate alone, so the best is never worse.
        assert r["scores"][(fit.PENALTIES[0], 0.0, 1.1)] == r["gate_alone"]
        assert r["best_right"] >= r["gate_alone"]


def test_a_plain_answer_counts_the_records_it_replaced():
    """The plain-text gate serves the newest record on the topic it chose: choosing a
    record the answer replaced (directly or through another) is right too, and nothing
    newer than the answer is."""
    world = {
        "facts": [
            {"id": "f1"},
            {"id": "f2", "replaces": "f1"},
            {"id": "f3", "replaces": "f2"},
            {"id": "f4"},
            {"id": "f5", "replaces": "f4"},
        ]
    }
    assert fit.replaced_by(world, ["f3"]) == {"f1", "f2", "f3"}
    assert fit.replaced_by(world, ["f2"]) == {"f1", "f2"}
    assert fit.replaced_by(world, ["f4"]) == {"f4"}
    assert fit.replaced_by(world, []) == frozenset()


def test_on_plain_text_the_head_picks_from_serve_unless_whole_topic_words_chose():
    x = np.zeros((3, N))
    p = np.array([0.1, 0.6, 0.3])
    ids = ("f0", "f1", "f2")

    def plain(top: str | None, by_words: bool = False) -> fit.Labelled:
        s = HeadSample("q", False, x, np.ones(3, dtype=bool), ids, top, by_words, plain=True)
        return fit.Labelled("r", "en", s, frozenset({"f1"}))

    assert fit.decide(plain("f0"), p, veto=0.0, serve=0.5) == "f1"  # the head switches
    assert fit.decide(plain("f0"), p, veto=0.0, serve=0.7) is None  # or serves none
    assert fit.decide(plain(None), p, veto=0.9, serve=0.5) == "f1"  # veto is unused
    assert fit.decide(plain("f0", by_words=True), p, veto=0.0, serve=0.5) == "f0"
