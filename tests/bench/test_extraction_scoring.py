"""The extraction scorer: what counts as a right fact (and that a wrong one fails)."""

from __future__ import annotations

from pathlib import Path

from graphmem.domain.model import Fact, Intent
from graphmem_bench.extraction import fact_matches, load, score_thread

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "extraction"

GOLD = {
    "subject": "Atlas weekly sync",
    "subject_forms": ["weekly sync", "the sync"],
    "relation": "meeting time",
    "value": "11:00",
    "value_forms": ["11"],
    "value_type": "time",
    "intent": "update",
    "previous": "10:00",
}


def test_a_right_fact_may_name_things_its_own_way():
    assert fact_matches(Fact("weekly sync", "time", "11:00", Intent.UPDATE), GOLD)
    assert fact_matches(Fact("Atlas weekly sync", "start", "11", Intent.ASSERT), GOLD)


def test_a_wrong_subject_value_or_kind_of_intent_is_wrong():
    assert not fact_matches(Fact("Priya Raman", "time", "11:00", Intent.UPDATE), GOLD)
    assert not fact_matches(Fact("weekly sync", "time", "23:00", Intent.UPDATE), GOLD)
    assert not fact_matches(Fact("weekly sync", "time", "11:00", Intent.CORRECT), GOLD)


def test_revocations_match_the_value_they_cancel():
    gold = {**GOLD, "intent": "revoke", "value": "", "value_forms": []}
    assert fact_matches(Fact("weekly sync", "time", "10:00", Intent.REVOKE), gold)
    assert not fact_matches(Fact("weekly sync", "time", "09:00", Intent.REVOKE), gold)


class _Silent:
    name = "silent"

    def extract(self, record):
        from graphmem.extract.base import Extraction

        return Extraction.no_fact()


def test_an_extractor_that_says_nothing_scores_zero_recall():
    thread = load("en", FIXTURES)[0]
    s = score_thread(thread, 0, lambda t: _Silent())
    assert s.predicted == 0 and s.right == 0 and s.gold > 0 and s.recall == 0.0
