"""The block-request scorer: given names, namesakes and what counts as clean."""

from __future__ import annotations

from graphmem_bench.block_requests import given_name, score_request


def test_given_names_in_both_languages():
    assert given_name("Minjun Park") == "minjun"
    assert given_name("Jake Kim") == "jake"
    assert given_name("박민준") == "민준"  # no space splits a Korean given name off
    assert given_name("남궁민수") == "민수"  # a two-syllable family name
    assert given_name("김민수") == given_name("남궁민수")
    assert given_name("박 민준") == "민준"
    assert given_name("  Sarah  ") == "sarah"


WORLD = {
    "people": [
        {"id": "p1", "name": "김민수"},
        {"id": "p2", "name": "남궁민수"},
        {"id": "p3", "name": "이서윤"},
    ],
    "facts": [
        {"id": "f1", "subject": "p1", "relation": "회의 장소", "value": "3층"},
        {"id": "f2", "subject": "p2", "relation": "마감일", "value": "금요일"},
        {"id": "f3", "subject": "p1", "relation": "마감일", "value": "월요일", "replaces": "f4"},
        {"id": "f4", "subject": "p1", "relation": "마감일", "value": "화요일"},
    ],
}


def test_a_korean_namesakes_line_is_misattributed():
    req = {"gold": ["f3"], "category": "namesake/cue"}
    clean = score_request(WORLD, req, ["f3"])
    assert clean["clean"] and not clean["misattributed"]
    # 남궁민수's line beside the gold: the same given name, so misattributed and not clean
    mixed = score_request(WORLD, req, ["f3", "f2"])
    assert mixed["misattributed"] and not mixed["clean"]


def test_empty_and_stale():
    nothing = score_request(WORLD, {"gold": [], "category": "namesake/ambiguous"}, [])
    assert not nothing["served"] and not nothing["misattributed"]
    guessed = score_request(WORLD, {"gold": [], "category": "namesake/ambiguous"}, ["f1"])
    assert guessed["misattributed"]
    stale = score_request(WORLD, {"gold": ["f3"], "category": "answerable/date"}, ["f4"])
    assert stale["stale"] and not stale["clean"]
