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


def _fact(fid: str, who: str, value: str, text: str, other: str) -> dict[str, object]:
    return {
        "id": fid,
        "subject": who,
        "relation": "court time",
        "value": value,
        "text": text,
        "speaker": who,
        "participants": [who, other],
        "date": "2026-04-01",
    }


def test_notes_are_written_first_as_records_about_each_person(connect, namespace):
    """``--notes``: each person's note becomes a record about them, before any message,
    so a cue only the note states ("Fiona the coach") can be read."""
    from graphmem_bench.block_requests import _write_world

    world = {
        "people": [
            {"id": "p1", "name": "Fiona Marsh", "note": "ladder player"},
            {"id": "p2", "name": "Fiona Castellano", "note": "junior coach at the club"},
            {"id": "p3", "name": "Beth Lind"},
            {"id": "p4", "name": "Kwame Asante"},
            {"id": "p5", "name": "Gordon Reyes"},
        ],
        "facts": [
            _fact("f1", "p1", "Tuesdays 7pm", "Fiona: Kwame, we're on Tuesdays at 7pm.", "p4"),
            _fact(
                "f2", "p2", "Saturdays 9:30am", "Fiona: Beth, juniors are 9:30am Saturdays.", "p3"
            ),
        ],
        "chats": [
            {
                "id": "c1",
                "speaker": "p5",
                "participants": ["p5", "p1", "p2"],
                "date": "2026-04-02",
                "text": "Gordon: thanks both Fionas for the help today",
            }
        ],
    }
    request = "what time does Fiona the coach have her session?"
    with connect(namespace) as memory:
        _write_world(memory, world, "keyed", notes=True)
        b = memory.block(request, "Gordon Reyes", now="2026-04-05")
        assert "9:30am" in b.text and "7pm" not in b.text, b
    with connect(namespace + "-bare") as memory:
        _write_world(memory, world, "keyed")
        b = memory.block(request, "Gordon Reyes", now="2026-04-05")
        assert "9:30am" not in b.text, b  # nothing memory holds says who coaches
