"""Names Korean translates: the CLDR table of countries, regions and languages."""

from __future__ import annotations

from graphmem.language.lexicon import compact, english_names, korean_names


def test_a_korean_name_gives_its_english_names_and_back():
    assert english_names("독일") == ("Germany",)
    assert english_names("독일어") == ("German",)
    assert set(english_names("미얀마")) >= {"Myanmar", "Burma"}  # "Myanmar (Burma)" in CLDR
    assert english_names("남극 대륙") == english_names("남극대륙") == ("Antarctica",)
    assert "영국" in korean_names("united kingdom")
    assert english_names("김치") == () and korean_names("Kimchi") == ()


def test_compact_drops_every_space():
    assert compact(" 중앙 아프리카  공화국 ") == "중앙아프리카공화국"
