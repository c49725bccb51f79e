"""The P-Mem benchmark's sentences parse, and its outcomes hold on a small run."""

from __future__ import annotations

import pytest

from graphmem import Memory, Record
from graphmem.domain.model import Intent, ParseStatus
from graphmem_bench import pmem


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_every_template_sentence_parses_to_the_right_fact(lang):
    s = pmem.Sentences(lang)
    ex = s.extractor()
    for obj in pmem.OBJECTS[lang]:
        for a, b in zip(pmem.PLACES[lang], pmem.PLACES[lang][1:], strict=False):
            cases = [
                (s.state(obj, a), a, Intent.ASSERT),
                (s.move(obj, a, b), b, Intent.UPDATE),
                (s.revoke(obj, b), b, Intent.REVOKE),
                (s.report(pmem.SPEAKERS[lang][0], obj, a), a, Intent.ASSERT),
                (s.confirm(obj, b), b, Intent.CONFIRM),
            ]
            for text, value, intent in cases:
                got = ex.extract(Record(text))
                assert got.status is ParseStatus.FACTS, text
                (fact,) = got.facts
                assert (fact.subject, fact.value, fact.intent) == (obj, value, intent), text


def test_korean_particles_follow_the_final_consonant():
    s = pmem.Sentences("ko")
    assert s.state("책", "서랍") == "책은 서랍에 있다."
    assert s.state("지갑", "선반") == "지갑은 선반에 있다."
    assert s.move("열쇠", "서랍", "선반") == "업데이트: 열쇠를 서랍에서 선반으로 옮겼다."
    assert s.move("펜", "책상", "소파").endswith("소파로 옮겼다.")
    assert s.move("펜", "소파", "옷장").endswith("옷장으로 옮겼다.")


@pytest.mark.integration
def test_small_run_outcomes(neo4j_server):
    def connect(ns: str, **overrides: object) -> Memory:
        return Memory.connect(
            neo4j_server.bolt_url,
            ns,
            neo4j_auth=neo4j_server.auth,
            install_schema=False,
            **overrides,
        )

    rows = pmem.run(connect, cases=3, langs=("en",), progress=lambda m: None)
    for row in rows:
        expected = 0 if "preservation off" in row.setting else row.cases
        assert row.success == expected, (row.task, row.setting)
