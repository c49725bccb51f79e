"""Readers of the benchmark data sets (FactConsolidation, LoCoMo) and the grammar
adapter, on the shared data folder (no database)."""

from __future__ import annotations

from pathlib import Path

import pytest

from graphmem_bench.extract.grammar import GrammarExtractor
from graphmem_bench.formats import factconsolidation, locomo

DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data"
needs_data = pytest.mark.skipif(not DATA.is_dir(), reason="shared data folder not present")


@needs_data
def test_factconsolidation_every_line_parses_with_names_as_written():
    rows = factconsolidation.load_rows(DATA)
    ex = GrammarExtractor.from_data_dir(DATA)
    for row in rows:
        recs = list(factconsolidation.parse_context(row.context))
        assert [r.pos for r in recs] == list(range(len(recs)))
        for r in recs:
            (fact,) = ex.extract(r).facts
            assert fact.subject in r.text and fact.value in r.text
    sizes = {r.length: len(list(factconsolidation.parse_context(r.context))) for r in rows}
    assert sizes == {"6k": 455, "32k": 2310, "64k": 4580, "262k": 18332}


@needs_data
def test_grammar_keeps_a_value_that_ends_with_a_period():
    ex = GrammarExtractor.from_data_dir(DATA)
    from graphmem import Record

    (f,) = ex.extract(Record("Pedro Pierluisi worked in the city of Washington, D.C..")).facts
    assert (f.subject, f.relation, f.value) == (
        "Pedro Pierluisi",
        "work location",
        "Washington, D.C.",
    )
    assert ex.extract(Record("This sentence matches no template")).status == "no_fact"


@needs_data
def test_locomo_turns_become_records_with_partner_and_date():
    convs = locomo.load_conversations(DATA)
    assert len(convs) == 10
    recs = list(locomo.records(convs[0]))
    assert recs[0].speaker == "Caroline" and recs[0].participants == ("Melanie",)
    assert recs[0].observed_at.startswith("2023-05-08")
    distinct = list(locomo.records(convs[0], distinct_speakers=True))
    assert distinct[0].speaker == f"Caroline#{convs[0].sample_id}"
    assert len({r.id for r in recs}) == len(recs)
