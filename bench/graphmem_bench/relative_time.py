"""Relative time resolution against the blind set (``tests/fixtures/relative_time``).

A case is right when the resolver finds exactly the expected expressions with their
dates; an expected expression is found when a resolved one covers the same days and its
phrase overlaps the expected phrase (particles and "on" may differ). Precision counts the
resolved expressions that match an expected one; messages that mean no date must get
none. Dev misses may be printed; the held-out split is reported in aggregate and per
category only.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

from graphmem.language.relative_time import TimeRef, resolve_times

FIXTURE = Path(__file__).resolve().parents[2] / "tests" / "fixtures" / "relative_time"


@dataclass
class Score:
    cases: int = 0
    right: int = 0
    expected: int = 0
    found: int = 0  # expected expressions resolved right
    resolved: int = 0
    correct: int = 0  # resolved expressions that match an expected one
    by_category: dict[str, list[int]] = field(default_factory=lambda: defaultdict(lambda: [0, 0]))
    misses: list[str] = field(default_factory=list)

    def add(self, other: Score) -> None:
        for name in ("cases", "right", "expected", "found", "resolved", "correct"):
            setattr(self, name, getattr(self, name) + getattr(other, name))


def _matches(exp: dict[str, Any], got: TimeRef, text: str) -> bool:
    start = text.find(exp["phrase"])
    end = start + len(exp["phrase"])
    overlaps = start >= 0 and got.start_char < end and start < got.end_char
    return (
        overlaps
        and got.start == date.fromisoformat(exp["start"])
        and got.end == date.fromisoformat(exp["end"])
    )


def score_case(case: dict[str, Any], resolved: Sequence[TimeRef]) -> tuple[int, int, bool]:
    """(expected found, resolved correct, the case right)."""
    text, expect = case["text"], case["expect"]
    found = sum(any(_matches(e, r, text) for r in resolved) for e in expect)
    correct = sum(any(_matches(e, r, text) for e in expect) for r in resolved)
    return found, correct, found == len(expect) and correct == len(resolved)


def load(folder: Path = FIXTURE) -> list[dict[str, Any]]:
    lines = (folder / "cases.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def run(
    split: str,
    resolve: Callable[[str, str], list[TimeRef]] = resolve_times,
    folder: Path = FIXTURE,
) -> dict[str, Score]:
    """Scores per language for one split ("dev" or "heldout")."""
    out: dict[str, Score] = defaultdict(Score)
    for case in load(folder):
        if case["split"] != split:
            continue
        got = resolve(case["text"], case["sent_at"])
        found, correct, right = score_case(case, got)
        s = out[case["lang"]]
        s.cases += 1
        s.right += right
        s.expected += len(case["expect"])
        s.found += found
        s.resolved += len(got)
        s.correct += correct
        s.by_category[case["category"]][0] += right
        s.by_category[case["category"]][1] += 1
        if not right and split == "dev":
            s.misses.append(
                f"{case['id']} {case['sent_at']} {case['text']!r}: expected "
                f"{[(e['phrase'], e['start'], e['end']) for e in case['expect']]}, got "
                f"{[(r.phrase, str(r.start), str(r.end)) for r in got]}"
            )
    return dict(out)


def markdown(scores: dict[str, dict[str, Score]], command: str) -> str:
    out = [f"Command: `{command}`\n"]
    out.append(
        "| split | language | cases right | expressions found (recall) "
        "| resolved right (precision) |"
    )
    out.append("|---|---|---:|---:|---:|")
    for split, by_lang in scores.items():
        for lang, s in sorted(by_lang.items()):
            out.append(
                f"| {split} | {lang} | {s.right}/{s.cases} ({s.right / max(s.cases, 1):.3f}) | "
                f"{s.found}/{s.expected} ({s.found / max(s.expected, 1):.3f}) | "
                f"{s.correct}/{s.resolved} ({s.correct / max(s.resolved, 1):.3f}) |"
            )
    cats = sorted(
        {c for by_lang in scores.values() for s in by_lang.values() for c in s.by_category}
    )
    out.append("\nCases right per category:\n")
    cols = [(split, lang) for split, by_lang in scores.items() for lang in sorted(by_lang)]
    out.append("| category | " + " | ".join(f"{sp} {lg}" for sp, lg in cols) + " |")
    out.append("|---|" + "---:|" * len(cols))
    for c in cats:
        cells = []
        for sp, lg in cols:
            r, n = scores[sp][lg].by_category.get(c, [0, 0])
            cells.append(f"{r}/{n}")
        out.append(f"| {c} | " + " | ".join(cells) + " |")
    return "\n".join(out) + "\n"
