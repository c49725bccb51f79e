"""Bad input gets a typed error and locks nothing: numbers are bounded, control
characters are refused the same way in every field, names are matched whole."""

from __future__ import annotations

import pytest

from graphmem import Fact, InvalidInputError, Memory, Record
from graphmem._names import validate_namespace
from graphmem.domain.model import MAX_GIVEN_POS, MAX_POS
from graphmem.service.auth import parse_api_keys


@pytest.mark.parametrize("pos", [MAX_GIVEN_POS + 1, MAX_POS, 2**63 - 1, 2**64, -1, True])
def test_a_position_out_of_range_is_refused(pos: int) -> None:
    with pytest.raises(InvalidInputError, match="pos"):
        Record("p", id="pmax", pos=pos)


def test_the_largest_position_is_accepted() -> None:
    assert Record("p", id="pmax", pos=MAX_GIVEN_POS).pos == MAX_GIVEN_POS


@pytest.mark.integration
def test_a_huge_position_cannot_lock_the_namespace(memory: Memory) -> None:
    with pytest.raises(InvalidInputError):
        memory.ingest([Record("p", id="pmax", pos=2**63 - 1)])
    report = memory.ingest([{"text": "p", "id": "pmax", "pos": 2**63 - 1}])
    assert report.stored == 0 and report.errors
    # The largest position a caller may give leaves room for every later write.
    memory.ingest([Record("q", id="given-max", pos=MAX_GIVEN_POS)])
    assert memory.remember("door", "colour", "red").head == "red"
    assert memory.remember("door", "colour", "blue", intent="update").head == "blue"
    assert [op["pos"] for op in memory.history("door", "colour")] == [
        MAX_GIVEN_POS + 1,
        MAX_GIVEN_POS + 2,
    ]


BAD_NAMES = ["a\x00b", "a\nb", "a\rb", "a\x1bb", "a\x7fb"]


@pytest.mark.parametrize("bad", BAD_NAMES)
@pytest.mark.parametrize("field", ["id", "speaker", "source", "participants"])
def test_control_characters_are_refused_in_record_fields(field: str, bad: str) -> None:
    value: object = (bad,) if field == "participants" else bad
    with pytest.raises(InvalidInputError, match="control character"):
        Record("text", **{field: value})  # type: ignore[arg-type]


@pytest.mark.parametrize("bad", BAD_NAMES)
@pytest.mark.parametrize("field", ["subject", "relation"])
def test_control_characters_are_refused_in_fact_names(field: str, bad: str) -> None:
    parts = {"subject": "s", "relation": "r", "value": "v", field: bad}
    with pytest.raises(InvalidInputError, match="control character"):
        Fact(**parts)


@pytest.mark.parametrize("bad", ["a\x00b", "a\x1bb", "a\x07b"])
def test_nul_and_control_characters_are_refused_in_text_and_values(bad: str) -> None:
    with pytest.raises(InvalidInputError, match="control character"):
        Record(bad)
    with pytest.raises(InvalidInputError, match="control character"):
        Fact("s", "r", bad)


def test_line_breaks_and_tabs_are_fine_in_text_and_values() -> None:
    assert Record("line one\nline two\ttab\r\n").text.startswith("line one")
    assert Fact("s", "address", "1 Main St\nApt 2").value.endswith("Apt 2")


@pytest.mark.parametrize("ns", ["alice\n", "alice\n\n", "alice\x00", " alice", "al ice"])
def test_a_namespace_is_matched_whole(ns: str) -> None:
    with pytest.raises(InvalidInputError):
        validate_namespace(ns)
    with pytest.raises(ValueError):
        parse_api_keys({"key-123456789": [ns]})


@pytest.mark.parametrize(
    ("fields", "what"),
    [
        ({"speaker": "x" * 1001}, "speaker"),
        ({"source": "x" * 1001}, "source"),
        ({"participants": ["x" * 1001]}, "participant"),
        ({"participants": [f"p{i}" for i in range(65)]}, "participants"),
        ({"facts": [Fact("door", "colour", f"c{i}") for i in range(257)]}, "facts"),
    ],
)
def test_every_string_and_list_of_a_record_is_bounded(fields: dict, what: str) -> None:
    with pytest.raises(InvalidInputError, match=what):
        Record("p", id="b", **fields)


@pytest.mark.parametrize("subject", ["!!!", "🙂", "  ...  "])
def test_a_subject_that_normalises_to_nothing_is_refused(subject: str) -> None:
    from graphmem.domain.keys import make_key

    with pytest.raises(InvalidInputError, match="subject"):
        make_key(subject, "colour")


@pytest.mark.integration
def test_an_unkeyable_fact_writes_nothing(memory: Memory) -> None:
    with pytest.raises(InvalidInputError):
        memory.remember("!!!", "colour", "red")
    assert memory.state() == ""
    report = memory.ingest([Record("p", id="k", facts=(Fact("?!", "colour", "red"),))])
    assert report.errors  # kept raw, reported
    assert memory.state() == ""
