"""The relative time scorer: a found expression covers the same days and overlaps the
expected phrase; extra resolutions count against precision."""

from __future__ import annotations

from datetime import date

from graphmem.language.relative_time import TimeRef
from graphmem_bench.relative_time import load, score_case


def _ref(text: str, phrase: str, start: str, end: str) -> TimeRef:
    at = text.index(phrase)
    return TimeRef(phrase, date.fromisoformat(start), date.fromisoformat(end), at, at + len(phrase))


def test_a_korean_phrase_with_its_particle_still_matches():
    case = {
        "text": "어제는 바빴어",
        "expect": [{"phrase": "어제", "start": "2024-01-01", "end": "2024-01-01"}],
    }
    assert score_case(case, [_ref(case["text"], "어제는", "2024-01-01", "2024-01-01")]) == (
        1,
        1,
        True,
    )


def test_a_wrong_day_is_a_miss_and_a_wrong_resolution():
    case = {
        "text": "see you next week",
        "expect": [{"phrase": "next week", "start": "2024-01-08", "end": "2024-01-14"}],
    }
    assert score_case(case, [_ref(case["text"], "next week", "2024-01-08", "2024-01-08")]) == (
        0,
        0,
        False,
    )


def test_a_resolution_where_none_is_expected_makes_the_case_wrong():
    case = {"text": "every Monday", "expect": []}
    assert score_case(case, [_ref("every Monday", "Monday", "2024-01-08", "2024-01-08")]) == (
        0,
        0,
        False,
    )
    assert score_case(case, []) == (0, 0, True)


def test_the_fixture_phrases_are_in_their_texts():
    cases = load()
    assert len(cases) >= 220 and {c["split"] for c in cases} == {"dev", "heldout"}
    for c in cases:
        for e in c["expect"]:
            assert e["phrase"] in c["text"] and e["start"] <= e["end"]
