"""the block study §2: per-request memory-block metrics, judged at the block, not the answer.

Why score the block: the same correct final answer can come from a clean block, from a
block that also holds the old value, or from one that also holds a namesake's value; a
reader that happens to pick the right line hides the last two until the day it does not
(the block study §2: with 5% key noise 18.3% of blocks held a stale value, a 7B reader copied it
into 4.2% of answers, a 3B reader into 10.0%). So every metric here looks only at the
lines the memory layer handed over.

The seed's labels, per fact f in the selected set S of request t (translated; the memory
layer never sees them):

- R(f) — "does it state a value of the requested slot? 1 for *anyone* whose name has the
  same surface form as the name in the request";
- I(f) — "is it about exactly the intended person (entity)?";
- V(f) — "is the value still the current one?";
- G = {f : R(f) = I(f) = V(f) = 1}, the gold set.

Because the controlled benchmark's values (times, rooms, dates, amounts) are unique per
instance "down to token boundaries, so that 'Dec 2' and 'Dec 24' never mix", the labels
are read off the block by string match: the current value present ⇔ S ∩ G ≠ ∅; an earlier
value of the asked key present ⇔ some f with R=I=1, V=0; a namesake's value of the slot
present ⇔ some f with R=1, I=0. :func:`mentions` is that token-bounded match.

The seed notes three design points, all kept here: the exposures are not mutually
exclusive (a block can hold current, stale and misattributed values at once and still
have recall 1 — hence co-injection); unanswerable requests are scored separately
(recall is 0 for every policy there, so an emptied block and a filled-with-the-wrong-
value block must be told apart by other metrics, and answerable/unanswerable abstention
are reported separately because abstaining more helps one and hurts the other); and
time is part of the score: Y(D) = clean × 1{retrieval time ≤ D}.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from functools import lru_cache
from typing import Any, Protocol

__all__ = [
    "BLOCK_HEADER",
    "PAPER_ANCHORS",
    "BlockRequest",
    "BlockScore",
    "abstained",
    "aggregate",
    "clean",
    "co_injection",
    "content_lines",
    "mentions",
    "misattribution_exposure",
    "recall",
    "score_block",
    "stale_exposure",
    "wilson_interval",
]

BLOCK_HEADER = "[Relevant memory]"

# The seed's reference numbers (Deng & Sinchaisri 2026, as retold in the block study), so a
# report can print them next to ours. Main benchmark: 5 seeds × 240 = 1,200 requests.
PAPER_ANCHORS: dict[str, float] = {
    # Table 1 — keyed vs unkeyed store, same drafts (§4)
    "keyed.clean": 0.877,
    "keyed.stale": 0.0,  # 0/1,200; the seed quotes a 95% Wilson upper bound of 0.005
    "keyed.misattribution": 0.121,  # 145 blocks, all among the 223 ambiguous requests
    "unkeyed.stale": 0.703,
    "unkeyed.co_injection": 0.701,
    "unkeyed.recall": 0.950,
    "unkeyed.clean.reweighted_70pct_unrevised": 0.603,  # keyed stays 0.877 (Table 14)
    "unkeyed.stale.budget_240_chars": 0.446,
    # Table 2 / §5 — rankers on the same active store with P_t
    "bm25_validity_pt.clean": 0.873,
    "dense.misattribution": 0.164,
    "hybrid.misattribution": 0.157,
    "lexical.misattribution": 0.128,
    "no_validity.stale_range_low": 0.78,
    "no_validity.stale_range_high": 0.80,
    # Table 13 ablations, ambiguous requests only
    "ambiguous.clean.full": 0.341,
    "ambiguous.clean.no_participant": 0.130,
    "ambiguous.clean.no_key": 0.247,
    # Table 3 / §7 — identity
    "posterior.misattribution": 0.032,  # from 0.121; paired diff 0.089 [0.071, 0.110]
    "posterior.third_party_recall": 0.985,
    "participant_filter.third_party_recall": 0.020,
    "participant_filter.no_misattribution_share": 0.998,
    "hard.no_rule.misattribution": 1.0,  # every hard-slice request exposed the rival
    "hard.relative_cut.misattribution": 0.092,
    # §8 — abstention (hard slice: 60 unanswerable requests)
    "slot_gate.abstain_unanswerable": 1.0,  # 60/60 emptied
    "slot_gate.abstain_answerable": 0.002,
    "margin_gate.abstain_unanswerable": 0.0,
    "margin_gate.abstain_answerable": 0.158,
    "margin_gate.clean_drop": 0.134,
    "no_gate.misattribution_unanswerable": 1.0,  # all 60 got someone's same-kind value
    # §6 / Figure 3 — key noise on the keyed store
    "missed_merge.p0.05.stale": 0.100,
    "missed_merge.p0.2.stale": 0.370,
    "missed_merge.p0.4.stale": 0.592,
    "false_merge.q0.05.current_lost": 0.061,
    "false_merge.q0.2.current_lost": 0.225,
    "false_merge.q0.2.clean": 0.553,
    # Appendix N — 30% of chains arrive out of order, transaction-time store
    "out_of_order_0.3.clean": 0.747,
    "out_of_order_0.3.stale": 0.156,
}


class BlockRequest(Protocol):
    """What the metrics need from a request (``graphmem_bench.personal.Request`` fits)."""

    @property
    def answer(self) -> str | None: ...
    @property
    def stale_values(self) -> Sequence[str]: ...
    @property
    def other_values(self) -> Sequence[str]: ...
    @property
    def answerable(self) -> bool: ...
    @property
    def ambiguous(self) -> bool: ...
    @property
    def third_party(self) -> bool: ...
    @property
    def hard(self) -> bool: ...


# ------------------------------------------------------------------------ matching


@lru_cache(maxsize=65536)
def _value_pattern(value: str) -> re.Pattern[str]:
    # Token boundaries, not substrings: "9:30" is not in "19:30", "Dec 2" not in "Dec 24",
    # "$850" not in "$850,000", "85만 원" not in "185만 원". A Hangul letter right after a
    # value is a particle ("10시 45분으로", "16C호예요"), so only ASCII letters and digits
    # (and a digit group continued by , . :) end a token.
    return re.compile(
        r"(?<![0-9A-Za-z])(?<![0-9][,.:])" + re.escape(value) + r"(?![0-9A-Za-z])(?![,.:][0-9])"
    )


def mentions(text: str, value: str) -> bool:
    """Does ``value`` occur in ``text`` as a whole token sequence (the seed's string match)?"""
    if not value:
        return False
    return _value_pattern(value).search(text) is not None


def content_lines(lines: Sequence[str]) -> list[str]:
    """The block's fact lines: the ``[Relevant memory]`` header and blank lines dropped."""
    return [ln for ln in lines if ln.strip() and ln.strip() != BLOCK_HEADER]


def _any(lines: Sequence[str], values: Iterable[str]) -> bool:
    vals = [v for v in values if v]
    return any(mentions(ln, v) for ln in lines for v in vals)


# ----------------------------------------------------------------- the metrics


def abstained(lines: Sequence[str]) -> bool:
    """The block is empty (the memory layer emitted no line).

    Seed §8: a top-k retriever "always fills its k slots"; the right answer to a request
    whose value was never stored is an empty block. Reported separately on answerable
    requests (false abstention: slot gate 0.2%, margin gate 15.8%) and unanswerable ones
    (slot gate 60/60, margin gate 0/60).
    """
    return not content_lines(lines)


def recall(lines: Sequence[str], request: BlockRequest) -> bool:
    """Current-value recall: 1[S ∩ G ≠ ∅] — the current value of the asked key appears.

    Always False on an unanswerable request ("recall is 0 there for every policy").
    """
    return bool(request.answerable and request.answer) and _any(
        content_lines(lines), [request.answer or ""]
    )


def stale_exposure(lines: Sequence[str], request: BlockRequest) -> bool:
    """Stale exposure: 1[∃ f ∈ S: R(f)=1, I(f)=1, V(f)=0].

    An earlier value of the asked key (the intended entity's own slot) appears — the
    failure a missing validity filter or a missed merge produces (unkeyed store: 70.3%).
    """
    return _any(content_lines(lines), request.stale_values)


def misattribution_exposure(lines: Sequence[str], request: BlockRequest) -> bool:
    """Misattribution exposure: 1[∃ f ∈ S: R(f)=1, I(f)=0].

    A value of the requested slot belonging to another entity whose name has the same
    surface form as the request's mention (a namesake: 김민준 vs 이민준) appears — current or
    superseded, since R ignores V. Keyed store: 12.1%, all from ambiguous requests.
    """
    return _any(content_lines(lines), request.other_values)


def co_injection(lines: Sequence[str], request: BlockRequest) -> bool:
    """Co-injection: the current value and a stale value of the same key are both in the block.

    The seed counts it separately because recall alone scores such a block as perfect
    (unkeyed store: stale 0.703, of which co-injection 0.701).
    """
    return recall(lines, request) and stale_exposure(lines, request)


def clean(lines: Sequence[str], request: BlockRequest) -> bool:
    """Clean retrieval.

    Answerable: current value present, no stale value, no misattributed value
    (S ∩ G ≠ ∅, and no f with R=1 outside G). Unanswerable (G is empty by construction):
    no value of the requested slot for any same-name entity and no stale value — the
    block may be empty or hold unrelated lines; :func:`abstained` says which.
    """
    if stale_exposure(lines, request) or misattribution_exposure(lines, request):
        return False
    return recall(lines, request) if request.answerable else True


# --------------------------------------------------------------------- per block


@dataclass(frozen=True)
class BlockScore:
    """One request's block, scored. ``clean_at_deadline`` is the seed's Y(D)."""

    answerable: bool
    ambiguous: bool
    third_party: bool
    hard: bool
    revised: bool
    n_lines: int
    abstained: bool
    recall: bool
    stale: bool
    misattributed: bool
    co_injection: bool
    clean: bool
    latency_ms: float | None = None
    on_time: bool | None = None
    clean_at_deadline: bool | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def score_block(
    lines: Sequence[str],
    request: BlockRequest,
    *,
    latency_ms: float | None = None,
    deadline_ms: float | None = None,
) -> BlockScore:
    """Every metric for one block.

    ``lines`` are the rendered ``- (date, to PARTNER) text`` lines (the header may be
    included; it is ignored), or ``[]`` when the block abstained. With ``latency_ms``
    and ``deadline_ms`` the seed's deadline score Y(D) = clean × 1{latency ≤ D} is
    filled in: "a clean block past the deadline scores the same 0 as an unclean one",
    because it arrives after prefill has started and does not exist for this turn.
    """
    body = content_lines(lines)
    is_clean = clean(body, request)
    on_time = None
    at_deadline = None
    if latency_ms is not None and deadline_ms is not None:
        on_time = latency_ms <= deadline_ms
        at_deadline = is_clean and on_time
    return BlockScore(
        answerable=request.answerable,
        ambiguous=request.ambiguous,
        third_party=request.third_party,
        hard=request.hard,
        revised=bool(request.stale_values),
        n_lines=len(body),
        abstained=not body,
        recall=recall(body, request),
        stale=stale_exposure(body, request),
        misattributed=misattribution_exposure(body, request),
        co_injection=co_injection(body, request),
        clean=is_clean,
        latency_ms=latency_ms,
        on_time=on_time,
        clean_at_deadline=at_deadline,
    )


# --------------------------------------------------------------------- aggregate


def _mean(flags: Iterable[bool | None]) -> float | None:
    vals = [bool(f) for f in flags if f is not None]
    return sum(vals) / len(vals) if vals else None


def _answerable_means(scores: Sequence[BlockScore]) -> dict[str, Any]:
    return {
        "n": len(scores),
        "recall": _mean(s.recall for s in scores),
        "stale": _mean(s.stale for s in scores),
        "misattribution": _mean(s.misattributed for s in scores),
        "co_injection": _mean(s.co_injection for s in scores),
        "clean": _mean(s.clean for s in scores),
        "abstain": _mean(s.abstained for s in scores),
    }


def aggregate(results: Iterable[BlockScore]) -> dict[str, Any]:
    """The means the seed reports, answerable and unanswerable kept apart.

    Top level (over answerable requests): ``recall``, ``stale``, ``misattribution``,
    ``co_injection``, ``clean``, ``abstain_answerable``; over unanswerable requests:
    ``abstain_unanswerable``, ``misattribution_unanswerable``, ``stale_unanswerable``,
    ``clean_unanswerable``; when latencies were given, ``on_time`` and
    ``clean_at_deadline`` (over all requests: Y(D) counts an unanswerable request
    as clean-and-on-time or not). ``slices`` repeats the answerable means for the
    ambiguous, third-party, hard, revised and unrevised requests (the seed's
    third-party recall and ambiguous-only clean come from there). ``stale_count`` and
    ``stale_wilson_upper`` are there because "0 of 1,200" means "≤ 0.005", not 0.
    A mean over no requests is ``None``.
    """
    scores = list(results)
    ans = [s for s in scores if s.answerable]
    unans = [s for s in scores if not s.answerable]
    main = _answerable_means(ans)
    stale_k = sum(s.stale for s in ans)
    out: dict[str, Any] = {
        "n": len(scores),
        "n_answerable": len(ans),
        "n_unanswerable": len(unans),
        "recall": main["recall"],
        "stale": main["stale"],
        "misattribution": main["misattribution"],
        "co_injection": main["co_injection"],
        "clean": main["clean"],
        "abstain_answerable": main["abstain"],
        "abstain_unanswerable": _mean(s.abstained for s in unans),
        "misattribution_unanswerable": _mean(s.misattributed for s in unans),
        "stale_unanswerable": _mean(s.stale for s in unans),
        "clean_unanswerable": _mean(s.clean for s in unans),
        "on_time": _mean(s.on_time for s in scores),
        "clean_at_deadline": _mean(s.clean_at_deadline for s in scores),
        "stale_count": stale_k,
        "stale_wilson_upper": wilson_interval(stale_k, len(ans))[1] if ans else None,
        "slices": {
            "ambiguous": _answerable_means([s for s in ans if s.ambiguous]),
            "third_party": _answerable_means([s for s in ans if s.third_party]),
            "hard": _answerable_means([s for s in ans if s.hard]),
            "revised": _answerable_means([s for s in ans if s.revised]),
            "unrevised": _answerable_means([s for s in ans if not s.revised]),
        },
    }
    return out


def wilson_interval(k: int, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """The 95% Wilson score interval for k successes out of n (the seed's bound on 0/1,200)."""
    if n <= 0:
        raise ValueError("wilson_interval needs n > 0")
    if not 0 <= k <= n:
        raise ValueError(f"k must be in [0, n], got k={k}, n={n}")
    p = k / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    lo = 0.0 if k == 0 else max(0.0, centre - half)
    hi = 1.0 if k == n else min(1.0, centre + half)
    return lo, hi
