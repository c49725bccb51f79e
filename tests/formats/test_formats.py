"""The plain JSONL reader (no database). The benchmark data sets' readers live with the
benchmarks (tests/bench/test_bench_formats.py)."""

from __future__ import annotations

from graphmem.formats import jsonl


def test_jsonl_reports_bad_lines_and_keeps_the_rest(tmp_path):
    p = tmp_path / "r.jsonl"
    p.write_bytes(b'{"text": "ok", "id": "1"}\n\nnot json\n\xff\xfe\n[1, 2]\n{"text": "two"}\n')
    got = list(jsonl.read_jsonl(p))
    assert [ln for ln, obj, _ in got if obj] == [1, 6]
    errors = {ln: err for ln, obj, err in got if err}
    assert set(errors) == {3, 4, 5} and "UTF-8" in errors[4]
