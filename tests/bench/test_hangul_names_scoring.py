"""The hangul-names benchmark's reading of a rendering as a Memory's question reader does."""

from __future__ import annotations

from graphmem_bench.hangul_names import _as_written


def test_a_latin_name_or_an_alias_is_read_as_written():
    find = _as_written({"Barack Obama", "Italy", "Dr. Dre", "Beckham", "beckham"})
    assert find("Barack Obama") == "Barack Obama"
    assert find("barack  obama") == "Barack Obama"  # case and spaces, as names are keyed
    assert find("Dr Dre") == "Dr. Dre"
    assert find("이탈리아") == "Italy"  # the default alias table
    assert find("오바마") is None  # a rendering by sound is the linker's to find
    assert find("Beckham") is None  # two graph names with one key: not read as one
