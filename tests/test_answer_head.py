"""The answer head's features and its saved form (the gate's use of it is tested in
test_blocks.py, on the real server with the bundled model)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from graphmem.reads.blocks import answer_head as ah


def _unit(rng: np.random.Generator, n: int, d: int = 8) -> np.ndarray:
    x = rng.normal(size=(n, d)).astype(np.float32)
    return x / np.linalg.norm(x, axis=1, keepdims=True)


def test_features_hold_the_cosines_and_the_products():
    rng = np.random.default_rng(1)
    q = _unit(rng, 1)[0]
    lines, records = _unit(rng, 3), _unit(rng, 3)
    x = ah.features(
        q,
        lines,
        records,
        [True, False, False],
        [True, True, False],
        [0.5, 0, 0],
        korean=True,
        asks_a_type=False,
    )
    n = len(ah.SCALAR_FEATURES)
    assert x.shape == (3, n + 16)
    col = {name: x[:, i] for i, name in enumerate(ah.SCALAR_FEATURES)}
    cos = np.maximum(lines @ q, records @ q)
    assert np.allclose(col["cos"], cos, atol=1e-6)
    assert np.allclose(col["below_nearest"], cos.max() - cos, atol=1e-6)
    assert col["nearest"].tolist() == [float(i == cos.argmax()) for i in range(3)]
    assert col["korean"].tolist() == [1.0] * 3 and col["asks_a_type"].tolist() == [0.0] * 3
    assert col["words_coverage"].tolist() == [0.5, 0.0, 0.0]
    assert np.allclose(x[:, n : n + 8].sum(1), lines @ q, atol=1e-5)
    assert np.allclose(x[:, n + 8 :].sum(1), records @ q, atol=1e-5)


@settings(max_examples=25, deadline=None)
@given(st.integers(min_value=1, max_value=6), st.integers(min_value=0, max_value=2**16))
def test_a_fact_nearest_in_meaning_is_never_below_it(n, seed):
    rng = np.random.default_rng(seed)
    x = ah.features(
        _unit(rng, 1)[0],
        _unit(rng, n),
        _unit(rng, n),
        [False] * n,
        [True] * n,
        [0.0] * n,
        korean=False,
        asks_a_type=True,
    )
    below = x[:, ah.SCALAR_FEATURES.index("below_nearest")]
    assert below.min() == 0.0 and (below >= 0).all()
    assert x[:, ah.SCALAR_FEATURES.index("nearest")].sum() == 1.0


def test_keyed_features_say_where_a_fact_stands_among_the_eligible():
    rng = np.random.default_rng(2)
    q = _unit(rng, 1)[0]
    lines, records = _unit(rng, 4), _unit(rng, 4)
    args = (q, lines, records, [False] * 4, [True] * 4, [0.0] * 4, False, True)
    base = ah.features(*args)
    x = ah.keyed_features(*args, [True, False, True, True])
    n, k = len(ah.SCALAR_FEATURES), len(ah.KEYED_FEATURES)
    assert x.shape == (4, n + k + 16)
    assert np.allclose(x[:, :n], base[:, :n]) and np.allclose(x[:, n + k :], base[:, n:])
    col = {name: x[:, n + i] for i, name in enumerate(ah.KEYED_FEATURES)}
    cos = base[:, ah.SCALAR_FEATURES.index("cos")]
    among = sorted((cos[i], i) for i in (0, 2, 3))
    (second, _), (best, first) = among[-2], among[-1]
    assert np.allclose(col["eligible"], np.log1p(3))
    assert col["first_eligible"].tolist() == [float(i == first) for i in range(4)]
    assert col["eligible_gap"][first] == pytest.approx(cos[first] - max(second, 0.0), abs=1e-6)
    others = [i for i in range(4) if i != first]
    assert np.allclose(col["eligible_gap"][others], cos[others] - best, atol=1e-6)
    assert col["only_eligible"].tolist() == [0.0] * 4
    one = ah.keyed_features(*args, [False, True, False, False])
    assert one[:, n + ah.KEYED_FEATURES.index("only_eligible")].tolist() == [1.0] * 4
    none = ah.keyed_features(*args, [False] * 4)
    assert none[:, n + ah.KEYED_FEATURES.index("first_eligible")].sum() == 0.0


@settings(max_examples=25, deadline=None)
@given(st.lists(st.booleans(), min_size=1, max_size=6), st.integers(min_value=0, max_value=2**16))
def test_the_first_eligible_fact_is_never_behind_another(eligible, seed):
    rng = np.random.default_rng(seed)
    n = len(eligible)
    x = ah.keyed_features(
        _unit(rng, 1)[0],
        _unit(rng, n),
        _unit(rng, n),
        [False] * n,
        [True] * n,
        [0.0] * n,
        False,
        True,
        eligible,
    )
    k = len(ah.SCALAR_FEATURES)
    first = x[:, k + ah.KEYED_FEATURES.index("first_eligible")] == 1.0
    gap = x[:, k + ah.KEYED_FEATURES.index("eligible_gap")]
    mask = np.array(eligible)
    assert first.sum() == (1 if mask.any() else 0)
    assert not (first & ~mask).any()
    assert (gap[mask & ~first] <= 1e-6).all()


def _head(d: int) -> ah.AnswerHead:
    rng = np.random.default_rng(3)

    def one(veto: float, serve: float) -> ah.HeadWeights:
        return ah.HeadWeights(
            rng.normal(size=d).astype(np.float32),
            0.25,
            rng.normal(size=d).astype(np.float32),
            np.abs(rng.normal(size=d)).astype(np.float32) + 0.1,
            veto,
            serve,
        )

    return ah.AnswerHead("e5-small", one(0.2, 0.6), one(0.15, 0.8))


def test_a_saved_head_loads_as_it_was(tmp_path: Path):
    head = _head(20)
    path = tmp_path / "head.npz"
    ah.save_head(head, path)
    back = ah.load_head(path)
    assert back is not None and back.model == "e5-small"
    x = np.random.default_rng(5).normal(size=(4, 20)).astype(np.float32)
    for korean in (False, True):
        a, b = head.for_request(korean), back.for_request(korean)
        assert (a.veto, a.serve) == pytest.approx((b.veto, b.serve))
        assert np.allclose(a.probability(x), b.probability(x), atol=1e-6)
    assert back.for_request(True).veto == pytest.approx(0.15)


def test_a_head_of_other_features_or_none_is_not_loaded(tmp_path: Path, monkeypatch):
    assert ah.load_head(tmp_path / "missing.npz") is None
    path = tmp_path / "head.npz"
    ah.save_head(_head(20), path)
    monkeypatch.setattr(ah, "FEATURES_VERSION", ah.FEATURES_VERSION + 1)
    assert ah.load_head(path) is None


def test_each_kind_of_head_is_read_only_as_itself(tmp_path: Path):
    """The keyed and the plain-text heads may share a feature version: each records its
    kind, and a head of the other kind (or of another width) is not loaded."""
    scalars = len(ah.SCALAR_FEATURES) + len(ah.KEYED_FEATURES)
    plain_scalars = len(ah.SCALAR_FEATURES) + len(ah.PLAIN_FEATURES)
    keyed, plain = tmp_path / "keyed.npz", tmp_path / "plain.npz"
    ah.save_head(_head(scalars + 8), keyed)
    ah.save_head(_head(plain_scalars + 8), plain, plain=True)
    assert ah.load_head(keyed) is not None and ah.load_head(keyed, plain=True) is None
    assert ah.load_head(plain, plain=True) is not None and ah.load_head(plain) is None
    odd = tmp_path / "odd.npz"
    ah.save_head(_head(scalars + 7), odd)  # not the scalars and two equal products
    assert ah.load_head(odd) is None


def test_the_keyed_pick_keeps_from_veto_and_switches_from_serve():
    p = np.array([0.1, 0.6, 0.3])
    everyone = np.ones(3, dtype=bool)
    assert ah.keyed_pick(p, 2, False, everyone, veto=0.25, serve=0.5) is None  # kept
    assert ah.keyed_pick(p, 0, False, everyone, veto=0.25, serve=0.5) == 1  # switches
    assert ah.keyed_pick(p, 0, True, everyone, veto=0.25, serve=0.5) is None  # all words
    assert ah.keyed_pick(p, 0, False, everyone, veto=0.25, serve=0.7) == "none"
    assert ah.keyed_pick(p, -1, False, everyone, veto=0.25, serve=0.5) == 1  # fills
    assert ah.keyed_pick(p, -1, False, everyone, veto=0.25, serve=0.7) is None  # stays empty
    # The head's own pick needs ``serve``: the gate's fact below ``veto`` but the head's
    # best from ``serve`` stands.
    assert ah.keyed_pick(p, 1, False, everyone, veto=0.7, serve=0.5) is None
    # Only an eligible fact is served, however likely another.
    only_first = np.array([True, False, False])
    assert ah.keyed_pick(p, -1, False, only_first, veto=0.25, serve=0.5) is None
    assert ah.keyed_pick(p, 2, False, np.zeros(3, dtype=bool), veto=0.5, serve=0.2) == "none"


def test_the_plain_pick_follows_serve_and_leaves_whole_topic_words():
    p = np.array([0.1, 0.6, 0.3])
    assert ah.plain_pick(p, top=0, by_all_words=False, serve=0.5) == 1  # switches
    assert ah.plain_pick(p, top=1, by_all_words=False, serve=0.5) is None  # agrees
    assert ah.plain_pick(p, top=0, by_all_words=False, serve=0.7) == "none"
    assert ah.plain_pick(p, top=-1, by_all_words=False, serve=0.7) is None  # empty stays
    assert ah.plain_pick(p, top=-1, by_all_words=False, serve=0.5) == 1  # fills
    assert ah.plain_pick(p, top=0, by_all_words=True, serve=0.5) is None


def test_the_bundled_head_is_for_the_bundled_model():
    from graphmem.embedding import BundledE5

    head = ah.bundled_head()
    assert head is not None, "graphmem ships graphmem/reads/blocks/data/answer_head.npz"
    assert head.model == BundledE5.name
    n = len(ah.SCALAR_FEATURES) + len(ah.KEYED_FEATURES) + 2 * 384
    assert head.english.weights.shape == (n,) and head.korean.weights.shape == (n,)
    for weights in (head.english, head.korean):
        assert 0.0 <= weights.veto < 1.0 and 0.0 < weights.serve < 1.0


def test_the_bundled_plain_text_head_reads_its_own_features():
    from graphmem.embedding import BundledE5

    head = ah.bundled_plain_head()
    assert head is not None, "graphmem ships graphmem/reads/blocks/data/plain_head.npz"
    assert head.model == BundledE5.name
    n = len(ah.SCALAR_FEATURES) + len(ah.PLAIN_FEATURES) + 2 * 384
    assert head.english.weights.shape == (n,) and head.korean.weights.shape == (n,)
    for weights in (head.english, head.korean):
        assert 0.0 < weights.serve < 1.0


def test_plain_features_put_the_record_facts_after_the_scalars():
    rng = np.random.default_rng(3)
    q = rng.normal(size=8).astype(np.float32)
    q /= np.linalg.norm(q)
    recs = rng.normal(size=(3, 8)).astype(np.float32)
    recs /= np.linalg.norm(recs, axis=1, keepdims=True)
    x = ah.plain_features(
        q,
        recs,
        [True, False, False],
        [1.0, 0.0, 0.5],
        False,
        True,
        [False, False, True],
        [True, True, False],
        [False, True, False],
        [False, False, True],
    )
    k = len(ah.SCALAR_FEATURES)
    assert x.shape == (3, k + len(ah.PLAIN_FEATURES) + 16)
    base = ah.features(
        q, recs, recs, [True, False, False], [True] * 3, [1.0, 0.0, 0.5], False, True
    )
    assert np.allclose(x[:, :k], base[:, :k]) and np.allclose(x[:, -16:], base[:, k:])
    extras = x[:, k : k + len(ah.PLAIN_FEATURES)]
    assert extras[:, 0].tolist() == [0, 0, 1]  # the newest
    assert extras[:, 1].tolist() == [1, 1, 0]  # said by them
    assert extras[:, 2].tolist() == [0, 1, 0]  # names them
    assert extras[:, 3].tolist() == [0, 0, 1]  # says it changes something
    assert np.allclose(extras[:, 4], np.log1p(3))


def test_observing_stops_when_the_block_is_left():
    seen: list[ah.HeadSample] = []
    with ah.observing(seen.append):
        assert ah.observed()
    assert not ah.observed()
