import pytest

from graphmem import RelationRegistry, UnknownRelationError
from graphmem.domain.keys import make_key, normalize_name
from graphmem.language.text import strip_korean_title


@pytest.mark.parametrize(
    ("raw", "norm"),
    [
        ("The New York Times", "the new york times"),
        ("  Victoria   Beckham's ", "victoria beckham"),
        ("Washington, D.C.", "washington d c"),
        ("김민준님", "김민준"),
        ("이민준 씨", "이민준"),
        ("박지영 팀장님", "박지영"),
        ("태양", "태양"),  # '양' is a title only after a longer name
        ("ＡＢＣ", "abc"),  # NFKC full-width
    ],
)
def test_normalize_name(raw, norm):
    assert normalize_name(raw) == norm


def test_strip_title_keeps_name_that_is_only_a_title():
    assert strip_korean_title("선생님") == "선생님"


def test_registry_aligns_synonyms_and_knows_cardinality():
    reg = RelationRegistry()
    reg.declare("spouse", "one", synonyms=["married to", "husband", "wife"])
    reg.declare("hobby", "many")
    assert reg.align("Married To") == "spouse"
    assert reg.is_set_valued("hobby")
    assert not reg.is_set_valued("spouse")
    assert make_key("Ann", "hobby", "Chess") != make_key("Ann", "hobby", "Go")


def test_unknown_cardinality_is_a_typed_error():
    with pytest.raises(UnknownRelationError):
        RelationRegistry().declare("hobby", "several")


def test_strict_registry_rejects_undeclared_relation():
    reg = RelationRegistry(strict=True)
    reg.declare("spouse")
    with pytest.raises(UnknownRelationError):
        reg.align("employer")
