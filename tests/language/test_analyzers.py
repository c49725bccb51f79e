"""The language analyzers: offsets, sentences, user words and particle-aware name spans.

No Neo4j and no model download: spaCy runs a blank pipeline, Kiwi its installed model.
"""

from __future__ import annotations

import subprocess
import sys
import time

import pytest

from graphmem.language import (
    Analyzer,
    AutoAnalyzer,
    EnglishAnalyzer,
    KoreanAnalyzer,
    NameSpan,
    Token,
    detect_language,
    has_hangul,
    name_spans,
    strip_particles_and_honorifics,
)
from graphmem.language.korean import shared_kiwi

# One batch of names for the whole module: every new batch makes Kiwi rebuild (~1 s).
NAMES = [
    "김민준",
    "이민준",
    "Christian Abbiati",
    "Sketches by Boz",
    "Tunisia national football team",
    "New York",
    "New York Times",
    "Alex",
]


@pytest.fixture(scope="module")
def ko() -> KoreanAnalyzer:
    return KoreanAnalyzer(NAMES)


@pytest.fixture(scope="module")
def en() -> EnglishAnalyzer:
    return EnglishAnalyzer(NAMES)


def _offsets_match(text: str, tokens: list[Token]) -> bool:
    return all(text[t.start : t.end] == t.text for t in tokens)


# ----------------------------------------------------------------- construction


def test_analyzers_satisfy_the_protocol(ko: KoreanAnalyzer, en: EnglishAnalyzer) -> None:
    for a in (ko, en, AutoAnalyzer()):
        assert isinstance(a, Analyzer)


def test_construction_is_cheap_and_loads_no_model() -> None:
    code = (
        "import sys, time\n"
        "t = time.perf_counter()\n"
        "from graphmem.language import KoreanAnalyzer, EnglishAnalyzer, AutoAnalyzer\n"
        "KoreanAnalyzer(['김민준']); EnglishAnalyzer(['Alex']); AutoAnalyzer(['Alex'])\n"
        "print('kiwipiepy' in sys.modules, 'spacy' in sys.modules)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    assert out.stdout.split() == ["False", "False"]


def test_korean_analyzer_constructs_in_microseconds() -> None:
    t = time.perf_counter()
    for _ in range(100):
        KoreanAnalyzer(["김민준"])
    assert (time.perf_counter() - t) / 100 < 0.01


def test_kiwi_is_created_once(ko: KoreanAnalyzer) -> None:
    ko.tokens("안녕")
    assert shared_kiwi() is shared_kiwi()


# ---------------------------------------------------------------------- English


def test_english_tokens_have_offsets_and_norms(en: EnglishAnalyzer) -> None:
    text = "Alex's meeting isn't at 3pm."
    toks = en.tokens(text)
    assert _offsets_match(text, toks)
    assert toks[0] == Token("Alex", "Alex", 0, 4, "PROPN", False)  # a registered name
    assert toks[1].text == "'s" and toks[1].is_particle
    assert "not" in [t.norm for t in toks]  # n't normalized
    it = en.tokens("it's here")
    assert not it[1].is_particle  # "'s" after a pronoun is "is", not a possessive


def test_english_multiword_user_word_is_one_token(en: EnglishAnalyzer) -> None:
    toks = en.tokens("The New York Times's office")
    assert [t.text for t in toks] == ["The", "New York Times", "'s", "office"]
    assert toks[1].pos == "PROPN" and toks[1].norm == "New York Times"


def test_english_sentences(en: EnglishAnalyzer) -> None:
    assert en.sentences("Alex moved it. The meeting is at 3 p.m. now!  ") == [
        "Alex moved it.",
        "The meeting is at 3 p.m. now!",
    ]
    assert en.sentences("   ") == []


def test_english_name_spans_whole_words_and_maximal(en: EnglishAnalyzer) -> None:
    text = "The New York Times's desk in New York. Alexa met Alex's team."
    spans = en.name_spans(text)
    assert [(text[s.start : s.end], s.name) for s in spans] == [
        ("New York Times", "New York Times"),
        ("New York", "New York"),
        ("Alex", "Alex"),
    ]
    assert en.name_spans("ALEX is here", ["Alex"]) == [NameSpan(0, 4, "Alex")]


# ----------------------------------------------------------------------- Korean


def test_korean_user_words_split_name_from_particles(ko: KoreanAnalyzer) -> None:
    for text, name, particle in [
        ("김민준님에게 전해줘", "김민준", "에게"),
        ("Christian Abbiati가 뛰었다", "Christian Abbiati", "가"),
        ('"Sketches by Boz"의 저자는?', "Sketches by Boz", "의"),
        ("Tunisia national football team이 이겼다", "Tunisia national football team", "이"),
    ]:
        toks = ko.tokens(text)
        assert _offsets_match(text, [t for t in toks if t.end > t.start and t.pos != "EF"])
        forms = [t.text for t in toks]
        assert name in forms, (text, forms)
        named = toks[forms.index(name)]
        assert named.pos == "NNP" and not named.is_particle
        assert any(t.text == particle and t.is_particle for t in toks), (text, toks)


def test_korean_tokens_tag_particles_and_lemmas(ko: KoreanAnalyzer) -> None:
    toks = ko.tokens("이민준 팀장님은 회의를 3시로 옮겼어")
    by_text = {t.text: t for t in toks}
    assert by_text["이민준"].pos == "NNP"
    assert by_text["은"].is_particle and by_text["를"].is_particle
    assert not by_text["팀장"].is_particle
    assert "옮기다" in [t.norm for t in toks]  # predicates carry their dictionary form


def test_korean_sentences(ko: KoreanAnalyzer) -> None:
    assert ko.sentences("김민준님 회의는 3시야. 이민준은 4시로 옮겼어! 정말?") == [
        "김민준님 회의는 3시야.",
        "이민준은 4시로 옮겼어!",
        "정말?",
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("김민준님에게 전해줘", [(0, 3, "김민준")]),
        ("이민준 팀장님은 어디 있어?", [(0, 3, "이민준")]),
        ("김민준씨가 왔어", [(0, 3, "김민준")]),
        ("김민준이야", [(0, 3, "김민준")]),
        ("박 팀장이 김민준님께 말했다", [(6, 9, "김민준")]),
        ("김민준호는 누구야", []),  # 호 is not a particle: another name
        ("김이민준이 왔어", []),  # 이민준 inside another word
        ("김민준과 이민준", [(0, 3, "김민준"), (5, 8, "이민준")]),
    ],
)
def test_korean_name_spans(ko: KoreanAnalyzer, text: str, expected: list[tuple]) -> None:
    assert [tuple(s) for s in ko.name_spans(text)] == expected


MEASURED = [
    ("Christian Abbiati가 뛴 팀은?", "Christian Abbiati"),
    ('"Sketches by Boz"의 저자는 누구야?', "Sketches by Boz"),
    ("Tunisia national football team이 참가한 대회는?", "Tunisia national football team"),
    ("김민준님에게 회의 시간을 알려줘", "김민준"),
    ("이민준 팀장님은 어느 회의실에 있어?", "이민준"),
]


def test_measurement_korean_name_recall(ko: KoreanAnalyzer) -> None:
    """Seed 000: particle-aware matching anchors (almost) every Korean question."""
    found = 0
    for text, name in MEASURED:
        spans = ko.name_spans(text)
        if any(s.name == name and text[s.start : s.end] == name for s in spans):
            found += 1
    whole_string = sum(f" {name} " in f" {text} " for text, name in MEASURED)
    assert found == len(MEASURED), f"found {found}/{len(MEASURED)}"
    assert whole_string < found  # what plain whole-word matching would have found


def test_module_level_name_spans_registers_names() -> None:
    text = "Christian Abbiati가 왔다"
    assert name_spans(text, ["Christian Abbiati"]) == [NameSpan(0, 17, "Christian Abbiati")]


@pytest.mark.parametrize(
    ("mention", "bare"),
    [
        ("김민준님에게", "김민준"),
        ("Christian Abbiati가", "Christian Abbiati"),
        ('"Sketches by Boz"의', "Sketches by Boz"),
        ("Tunisia national football team이", "Tunisia national football team"),
        ("이민준 팀장님은", "이민준"),
        ("김민준씨께서", "김민준"),
        ("김민준이야", "김민준"),
        ("김민준", "김민준"),
        ("팀장님", "팀장님"),  # the title alone is what the person is called
        ("  ", ""),
    ],
)
def test_strip_particles_and_honorifics(mention: str, bare: str) -> None:
    assert strip_particles_and_honorifics(mention) == bare


# ------------------------------------------------------------------- detection


def test_detect_language() -> None:
    assert detect_language("Alex's meeting is at 3pm") == "en"
    assert detect_language("Christian Abbiati가 뛰었다") == "ko"
    assert has_hangul("ㅋㅋ") and not has_hangul("café")


def test_auto_analyzer_dispatches_by_script() -> None:
    auto = AutoAnalyzer(["Alex", "김민준"])
    assert auto.for_text("Alex is here") is auto.english
    assert auto.for_text("김민준님") is auto.korean
    assert auto.name_spans("Alex's desk") == [NameSpan(0, 4, "Alex")]
    assert auto.name_spans("김민준님에게") == [NameSpan(0, 3, "김민준")]
    assert auto.name_spans("Alex님에게") == [NameSpan(0, 4, "Alex")]
    assert auto.sentences("Hi. Bye.") == ["Hi.", "Bye."]
