"""Seed 004's personal-memory generator and block metrics.

The generator is only useful if its labels are exact: counts as the seed states them,
values unique at token boundaries (so exposure is a string match), noise at the rates
asked for, and Korean sentences a reader would not trip over. The metrics are checked
on hand-made blocks, one per definition, including the edge cases the seed calls out.
"""

from __future__ import annotations

import itertools
import re
from collections import Counter
from datetime import datetime

import pytest

from graphmem.domain.keys import make_key, normalize_name
from graphmem.domain.model import Intent
from graphmem_bench import block_metrics as bm
from graphmem_bench import personal as pm
from graphmem_bench.personal import Request, generate

LANGS = ("en", "ko")


def _by_id(inst: pm.Instance) -> dict[str, object]:
    return {r.id: r for r in inst.records}


# ------------------------------------------------------------------- determinism


@pytest.mark.parametrize("lang", LANGS)
def test_same_seed_same_instance_other_seed_other_instance(lang):
    a, b = generate(3, lang), generate(3, lang)
    assert a.records == b.records
    assert a.requests == b.requests
    assert a.chains == b.chains and a.entities == b.entities
    c = generate(4, lang)
    assert [r.text for r in c.records] != [r.text for r in a.records]


def test_noise_and_order_leave_the_base_instance_alone():
    """Paired comparisons need identical texts, values and requests across settings."""
    base = generate(2, "en")
    noisy = generate(2, "en", missed_merge=0.3, false_merge=0.2, out_of_order=0.3)
    assert {r.id: r.text for r in base.records} == {r.id: r.text for r in noisy.records}
    assert base.requests == noisy.requests
    assert [c.values for c in base.chains] == [c.values for c in noisy.chains]
    unkeyed = generate(2, "en", keyed=False)
    assert [r.text for r in unkeyed.records] == [r.text for r in base.records]
    assert all(r.facts is None for r in unkeyed.records)


# ------------------------------------------------------------------------ counts


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("seed", range(5))
def test_counts_follow_the_seed(lang, seed):
    inst = generate(seed, lang)
    s = inst.summary()
    assert s["chains"] == 160
    assert s["revised_chains"] == 128  # 80%
    assert all(0 <= c.revisions <= 4 for c in inst.chains)
    assert {c.revisions for c in inst.chains} == {0, 1, 2, 3, 4}
    assert s["fillers"] == 1000
    assert s["requests"] == 240
    assert 40 <= s["ambiguous"] <= 50
    assert s["third_party"] > 0 and s["unanswerable"] == 0
    assert {c.slot for c in inst.chains} == set(pm.SLOTS)
    # arrival order, ~120 days of observed times
    assert [r.pos for r in inst.records] == list(range(len(inst.records)))
    times = [datetime.fromisoformat(r.observed_at) for r in inst.records]
    assert times == sorted(times)
    assert 100 <= (times[-1] - times[0]).days <= 120
    now = datetime.fromisoformat(inst.requests[0].now)
    assert now > times[-1]
    # facts on chain messages only, the gold fact when there is no noise
    for r in inst.records:
        if r.id in inst.gold:
            assert r.facts == (inst.gold[r.id],)
            assert r.stated_at == r.observed_at and r.speaker == pm.USER
        else:
            assert r.facts is None and r.stated_at is None


@pytest.mark.parametrize("lang", LANGS)
def test_requests_carry_the_right_labels(lang):
    inst = generate(0, lang)
    chains = {c.index: c for c in inst.chains}
    firsts = inst.first_names
    for q in inst.requests:
        c = chains[q.chain]
        assert q.answerable and q.entity == c.entity == q.intended
        assert q.answer == c.values[-1] and q.stale_values == c.values[:-1]
        assert q.slot == c.slot and q.partner == c.partner
        assert q.mention == firsts[c.entity]
        rivals = [
            o
            for o in inst.chains
            if o.slot == c.slot and o.entity != c.entity and firsts[o.entity] == firsts[c.entity]
        ]
        assert sorted(q.other_values) == sorted(v for o in rivals for v in o.values)
        assert q.ambiguous == bool(rivals)
        if c.kind == "person":
            assert q.third_party == (q.partner != q.entity)
            assert firsts[q.partner] != q.mention or not q.third_party
        else:
            assert not q.third_party and q.partner != q.entity
        # the partner is the conversation the chain's messages belong to
        recs = _by_id(inst)
        assert all(recs[rid].participants == (q.partner,) for rid in c.record_ids)
    # repeated requests on one chain are worded differently
    texts = Counter((q.chain, q.text) for q in inst.requests)
    assert max(texts.values()) == 1


def test_request_wording_matches_the_brief_examples():
    assert pm.request_text("en", "meeting time", "Minjun", "standup") == (
        "the standup with Minjun is at"
    )
    assert pm.request_text("en", "meeting room", "Minjun", "standup") == (
        "the standup with Minjun is in"
    )
    assert pm.request_text("ko", "meeting time", "민준", "스탠드업") == (
        "민준님이랑 하는 스탠드업은 몇 시에"
    )
    assert pm.request_text("ko", "meeting room", "민준", "주간 회의") == (
        "민준님이랑 하는 주간 회의는 어디서"
    )
    assert pm.request_text("ko", "deadline", "초롱") == "초롱 마감일은"


@pytest.mark.parametrize("lang", LANGS)
def test_the_requested_slot_reads_off_noun_and_ending(lang):
    """The slot gate's input: the seed's rule matched the generator on every request."""
    for inst in (generate(1, lang), generate(1, lang, hard_slice=True)):
        for q in inst.requests:
            assert pm.read_requested_slot(q.text) == q.slot, q.text
            assert pm.read_requested_slot(q.text, lang) == q.slot
    assert pm.read_requested_slot("see you soon") is None


# ------------------------------------------------------------------------ values


@pytest.mark.parametrize("lang", LANGS)
def test_values_are_unique_at_token_boundaries(lang):
    inst = generate(0, lang)
    values = [v for c in inst.chains for v in c.values]
    assert len(values) == len(set(values))
    for a, b in itertools.permutations(values, 2):
        assert not bm.mentions(b, a), (a, b)
    owner = {v: c for c in inst.chains for v in c.values}
    recs = _by_id(inst)
    for c in inst.chains:
        for k, rid in enumerate(c.record_ids):
            assert bm.mentions(recs[rid].text, c.values[k])
    hits = Counter()
    for r in inst.records:
        for v in values:
            if bm.mentions(r.text, v):
                hits[v] += 1
                assert r.id in owner[v].record_ids
    assert all(hits[v] == 1 for v in values)
    for q in inst.requests:
        assert not any(bm.mentions(q.text, v) for v in values)


@pytest.mark.parametrize("lang", LANGS)
def test_the_rule_extractor_reads_back_every_gold_fact(lang):
    """Keyed via the extractor or via gold facts, the store gets the same keys."""
    from graphmem.domain.model import Record
    from graphmem.extract.slots import SlotRuleExtractor, find_slot_nouns, find_values

    inst = generate(5, lang, n_chains=40, n_fillers=60, n_requests=60)
    ex = SlotRuleExtractor(inst.entities)
    for r in inst.records:
        got = ex.extract(Record(r.text))
        gold = inst.gold.get(r.id)
        if gold is None:
            assert not got.facts and not find_values(r.text) and not find_slot_nouns(r.text)
        else:
            assert got.facts == (gold,), (r.text, got.reason)


# --------------------------------------------------------------------- particles


def test_josa_follows_the_final_sound():
    cases = {
        ("스탠드업", "은/는"): "은",
        ("주간 회의", "은/는"): "는",
        ("기획 미팅", "은/는"): "은",
        ("민준님", "이랑/랑"): "이랑",
        ("지우", "이랑/랑"): "랑",
        ("10시 45분", "으로/로"): "으로",
        ("16C호", "으로/로"): "로",
        ("12월 2일", "으로/로"): "로",
        ("85만 원", "이에요/예요"): "이에요",
        ("16C호", "이에요/예요"): "예요",
        ("OPS-1432", "이/가"): "가",
        ("OPS-1433", "이/가"): "이",
        ("OPS-1437", "으로/로"): "로",
        ("김민준님", "과/와"): "과",
        ("초롱", "을/를"): "을",
        ("바다", "을/를"): "를",
    }
    for (word, pair), want in cases.items():
        assert pm.josa(word, pair) == want, (word, pair)
    with pytest.raises(ValueError):
        pm.josa("민준", "은")


_PAIRS = ("이에요/예요", "으로/로", "이랑/랑", "은/는", "이/가", "과/와", "을/를")
_PAIR_OF = {form: pair for pair in _PAIRS for form in pair.split("/")}


def _particle_errors(texts: list[str], words: set[str]) -> list[str]:
    """Every known word followed directly by a particle takes the right form."""
    alternation = "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))
    forms = "|".join(sorted(_PAIR_OF, key=len, reverse=True))  # 이에요 before 이
    finder = re.compile(rf"({alternation})({forms})")
    bad = []
    for text in texts:
        for m in finder.finditer(text):
            word, form = m.groups()
            if pm.josa(word, _PAIR_OF[form]) != form:
                bad.append(f"{word}+{form} in {text!r}")
    return bad


@pytest.mark.parametrize("hard", [False, True])
def test_korean_sentences_use_the_right_particles(hard):
    inst = generate(0, "ko", hard_slice=hard)
    words = {v for c in inst.chains for v in c.values}
    words |= set(pm._NOUNS["ko"]) | {"마감일", "출시일", "일당", "예산 한도"}
    words |= {name + "님" for name, first in inst.first_names.items() if name != first}
    words |= {first + "님" for name, first in inst.first_names.items() if name != first}
    texts = [r.text for r in inst.records] + [q.text for q in inst.requests]
    assert not _particle_errors(texts, words)
    # the checker does see particles, right and wrong
    assert len(_particle_errors(["스탠드업는", "16C호으로", "민준님랑"], words | {"16C호"})) == 3
    seen = Counter(m for t in texts for m in re.findall(r"(?:분으로|호로|일로|원으로) ", t))
    if not hard:
        assert set(seen) == {"분으로 ", "호로 ", "일로 ", "원으로 "}


def test_korean_names_share_a_given_name_and_keep_their_keys():
    inst = generate(0, "ko")
    people = {n: f for n, f in inst.first_names.items() if n != f}
    assert all(n.endswith(f) and len(n) == len(f) + 1 for n, f in people.items())
    # namesakes exist (김민준 / 이민준 style) and are distinct keys
    by_first = Counter(people.values())
    assert any(k > 1 for k in by_first.values())
    # no title or honorific rule eats part of a name
    for given, last in itertools.product(pm._KO_GIVEN, pm._KO_SURNAMES):
        assert normalize_name(last + given) == last + given
        assert normalize_name(last + given + "님") == last + given
        assert normalize_name(f"{last} {given}") != last + given
    assert not set(pm._KO_GIVEN) & set(pm._KO_PROJECTS)
    assert not set(pm._EN_GIVEN) & (set(pm._EN_PROJECTS) | set(pm._EN_SURNAMES))


# ------------------------------------------------------------------------- noise


def _noise_rates(lang: str, p: float, q: float, target: str = "slot"):
    missed = revisions = false = eligible = 0
    for seed in range(5):
        inst = generate(seed, lang, missed_merge=p, false_merge=q, false_merge_target=target)
        firsts = inst.first_names
        recs = _by_id(inst)
        for rid, gold in inst.gold.items():
            (fact,) = recs[rid].facts
            kind = inst.noise.get(rid)
            if gold.intent is Intent.UPDATE:
                revisions += 1
                missed += kind == "missed"
            if kind == "missed":
                assert gold.intent is Intent.UPDATE
                assert fact.relation == gold.relation and fact.value == gold.value
                assert make_key(fact.subject, fact.relation) != make_key(
                    gold.subject, gold.relation
                )
                continue
            has_rival = any(firsts[o] == firsts[gold.subject] for o in firsts if o != gold.subject)
            if target == "slot" or has_rival:
                eligible += 1
            if kind == "false":
                false += 1
                if target == "slot":
                    assert fact.subject == gold.subject and fact.relation != gold.relation
                    family = (
                        pm.PERSON_SLOTS if gold.relation in pm.PERSON_SLOTS else (pm.PROJECT_SLOTS)
                    )
                    assert fact.relation in family
                else:
                    assert fact.relation == gold.relation and fact.subject != gold.subject
                    assert firsts[fact.subject] == firsts[gold.subject]
            else:
                assert fact == gold
    return missed / revisions, false / eligible, revisions, eligible


@pytest.mark.parametrize("lang", LANGS)
def test_key_noise_comes_at_the_rates_asked_for(lang):
    miss, false, n_rev, n_elig = _noise_rates(lang, 0.2, 0.1)
    assert n_rev > 1200 and n_elig > 1800  # "over many facts"
    assert abs(miss - 0.2) < 0.035
    assert abs(false - 0.1) < 0.025
    _, false_ns, _, n_ns = _noise_rates(lang, 0.0, 0.2, target="namesake")
    assert n_ns > 250 and abs(false_ns - 0.2) < 0.07
    clean = generate(0, lang)
    assert not clean.noise


def test_noise_sets_grow_with_the_rate():
    small = generate(1, "en", missed_merge=0.1, false_merge=0.05).noise
    large = generate(1, "en", missed_merge=0.3, false_merge=0.05).noise
    assert {k for k, v in small.items() if v == "missed"} <= {
        k for k, v in large.items() if v == "missed"
    }
    assert len(large) > len(small)


def test_a_missed_merge_leaves_the_old_value_current_under_the_old_key():
    inst = generate(0, "en", missed_merge=1.0)
    recs = _by_id(inst)
    c = next(c for c in inst.chains if c.revisions >= 1)
    keys = [
        make_key(recs[rid].facts[0].subject, recs[rid].facts[0].relation) for rid in c.record_ids
    ]
    assert keys[0] != keys[1] and len(set(keys[1:])) == 1  # every revision on the variant


# ---------------------------------------------------------------------- ordering


@pytest.mark.parametrize("lang", LANGS)
def test_out_of_order_chains_keep_their_stated_order(lang):
    inst = generate(0, lang, out_of_order=0.3)
    shuffled = [c for c in inst.chains if c.shuffled]
    assert len(shuffled) == 48  # 30% of 160
    assert all(c.revisions > 0 for c in shuffled)
    recs = _by_id(inst)
    for c in inst.chains:
        rs = [recs[rid] for rid in c.record_ids]  # true order
        stated = [r.stated_at for r in rs]
        assert stated == sorted(stated) and len(set(stated)) == len(stated)
        assert all(r.stated_at <= r.observed_at for r in rs)
        arrival = [r.pos for r in rs]
        if c.shuffled:
            assert arrival != sorted(arrival)
        else:
            assert arrival == sorted(arrival)
            assert all(r.stated_at == r.observed_at for r in rs)
    assert not any(c.shuffled for c in generate(0, lang).chains)


# ---------------------------------------------------------------------- hard slice


@pytest.mark.parametrize("lang", LANGS)
def test_the_hard_slice(lang):
    inst = generate(0, lang, hard_slice=True)
    s = inst.summary()
    assert s["requests"] == 180 and s["unanswerable"] == 60 and s["ambiguous"] == 180
    recs = _by_id(inst)
    chains = {c.index: c for c in inst.chains}
    for q in inst.requests:
        assert q.hard and q.ambiguous and not q.third_party and q.partner == q.intended
        if q.answerable:
            c = chains[q.chain]
            assert q.slot == "meeting time" and len(q.other_values) == 1
            (rival,) = [o for o in inst.chains if o.values == q.other_values]
            assert inst.first_names[rival.entity] == q.mention != rival.entity
            a, b = recs[c.record_ids[0]], recs[rival.record_ids[0]]
            assert a.observed_at[:10] == b.observed_at[:10]  # same day
            assert c.noun == rival.noun
            # same template: the texts differ only in the name and the value
            strip = [
                r.text.replace(ent, "E").replace(v, "V")
                for r, ent, v in ((a, c.entity, c.values[0]), (b, rival.entity, rival.values[0]))
            ]
            assert strip[0] == strip[1]
        else:
            assert q.entity is None and q.answer is None and q.stale_values == ()
            assert q.slot == "meeting room" and len(q.other_values) == 1
            (room,) = [o for o in inst.chains if o.values == q.other_values]
            assert room.slot == "meeting room" and room.entity != q.intended
            assert inst.first_names[room.entity] == q.mention
            assert not any(o.entity == q.intended and o.slot == "meeting room" for o in inst.chains)


# ----------------------------------------------------------------------- metrics


def _req(answer: str | None = "10:45", stale=("9:30",), other=("11:15",), **kw) -> Request:
    fields = {
        "id": "q",
        "text": "the standup with Minjun is at",
        "partner": "Minjun Kim",
        "now": "2026-07-01T00:00:00+00:00",
        "entity": "Minjun Kim",
        "slot": "meeting time",
        "answer": answer,
        "stale_values": tuple(stale),
        "other_values": tuple(other),
        "answerable": answer is not None,
        "ambiguous": bool(other),
        "third_party": False,
        "hard": False,
        "lang": "en",
        "mention": "Minjun",
        "intended": "Minjun Kim",
    }
    if answer is None:
        fields["entity"] = None
    fields.update(kw)
    return Request(**fields)


def _line(text: str, partner: str = "Minjun Kim") -> str:
    return f"- (2026-06-11, to {partner}) {text}"


CUR = _line("The standup with Minjun Kim is moved to 10:45.")
OLD = _line("The standup with Minjun Kim is at 9:30.")
RIVAL = _line("The standup with Minjun Lee is at 11:15.", "Minjun Lee")
OTHER = _line("Ticket OPS-1432 is assigned to Minjun Kim.")


def test_recall_is_the_current_value_at_token_boundaries():
    q = _req()
    assert bm.recall([CUR], q)
    assert not bm.recall([OLD, RIVAL], q)
    assert not bm.recall([_line("The sync is at 10:45:30 sharp.")], q)  # not a token
    assert not bm.recall([_line("moved to 110:45")], q)
    d = _req("Dec 2", stale=(), other=())
    assert not bm.recall([_line("The Orion deadline is Dec 24.")], d)
    assert bm.recall([_line("The Orion deadline is Dec 2.")], d)
    k = _req("85만 원", stale=(), other=())
    assert bm.recall([_line("김민준님 일당이 이제 85만 원으로 바뀌었어요.")], k)  # particle
    assert not bm.recall([_line("김민준님 일당은 185만 원입니다.")], k)
    money = _req("$850", stale=(), other=())
    assert not bm.recall([_line("The Orion budget cap is $850,000.")], money)
    assert bm.recall(["[Relevant memory]", CUR], q)


def test_stale_exposure_and_co_injection():
    q = _req()
    assert bm.stale_exposure([OLD], q) and not bm.co_injection([OLD], q)
    assert bm.stale_exposure([CUR, OLD], q) and bm.co_injection([CUR, OLD], q)
    assert bm.recall([CUR, OLD], q) and not bm.clean([CUR, OLD], q)  # recall hides it
    assert not bm.stale_exposure([CUR, RIVAL], q)
    unrevised = _req(stale=())
    assert not bm.stale_exposure([CUR, OLD], unrevised)


def test_misattribution_exposure_counts_namesake_values_only():
    q = _req()
    assert bm.misattribution_exposure([CUR, RIVAL], q)
    assert bm.recall([CUR, RIVAL], q) and not bm.clean([CUR, RIVAL], q)
    assert not bm.misattribution_exposure([CUR, OLD, OTHER], q)
    # the three exposures are not exclusive
    s = bm.score_block([CUR, OLD, RIVAL], q)
    assert s.recall and s.stale and s.misattributed and s.co_injection and not s.clean


def test_clean_and_abstention_on_answerable_requests():
    q = _req()
    assert bm.clean([CUR], q) and bm.clean([OTHER, CUR], q)
    assert not bm.clean([OTHER], q)  # nothing wrong, but nothing right either
    for empty in ([], ["[Relevant memory]"], ["", "  "]):
        s = bm.score_block(empty, q)
        assert s.abstained and not s.recall and not s.clean and s.n_lines == 0


def test_unanswerable_requests_are_scored_apart():
    q = _req(
        None, stale=(), other=("16C",), slot="meeting room", text="the standup with Minjun is in"
    )
    rival_room = _line("The standup with Minjun Lee is in 16C.", "Minjun Lee")
    filled = bm.score_block([rival_room, OTHER], q)
    assert filled.misattributed and not filled.clean and not filled.abstained
    assert not filled.recall
    empty = bm.score_block([], q)
    assert empty.abstained and empty.clean and not empty.recall
    unrelated = bm.score_block([OTHER], q)
    assert unrelated.clean and not unrelated.abstained


def test_deadline_turns_a_late_clean_block_into_a_zero():
    q = _req()
    late = bm.score_block([CUR], q, latency_ms=12.0, deadline_ms=10.0)
    assert late.clean and late.on_time is False and late.clean_at_deadline is False
    ok = bm.score_block([CUR], q, latency_ms=0.3, deadline_ms=10.0)
    assert ok.clean_at_deadline is True
    assert bm.score_block([CUR], q).clean_at_deadline is None


def test_aggregate_keeps_answerable_and_unanswerable_apart():
    ans, amb = _req(), _req(third_party=True)
    unans = _req(None, stale=(), other=("16C",), slot="meeting room")
    rival_room = _line("The standup with Minjun Lee is in 16C.", "Minjun Lee")
    scores = [
        bm.score_block([CUR], ans, latency_ms=1, deadline_ms=10),  # clean
        bm.score_block([CUR, OLD], ans, latency_ms=1, deadline_ms=10),  # co-injection
        bm.score_block([CUR, RIVAL], amb, latency_ms=1, deadline_ms=10),  # misattributed
        bm.score_block([], ans, latency_ms=1, deadline_ms=10),  # false abstention
        bm.score_block([], unans, latency_ms=1, deadline_ms=10),  # right abstention
        bm.score_block([rival_room], unans, latency_ms=20, deadline_ms=10),  # filled, late
    ]
    agg = bm.aggregate(scores)
    assert agg["n"] == 6 and agg["n_answerable"] == 4 and agg["n_unanswerable"] == 2
    assert agg["recall"] == 0.75 and agg["stale"] == 0.25 and agg["co_injection"] == 0.25
    assert agg["misattribution"] == 0.25 and agg["clean"] == 0.25
    assert agg["abstain_answerable"] == 0.25 and agg["abstain_unanswerable"] == 0.5
    assert agg["misattribution_unanswerable"] == 0.5 and agg["clean_unanswerable"] == 0.5
    assert agg["on_time"] == 5 / 6 and agg["clean_at_deadline"] == 2 / 6
    assert agg["slices"]["third_party"] == {
        "n": 1,
        "recall": 1.0,
        "stale": 0.0,
        "misattribution": 1.0,
        "co_injection": 0.0,
        "clean": 0.0,
        "abstain": 0.0,
    }
    assert agg["slices"]["hard"]["n"] == 0 and agg["slices"]["hard"]["clean"] is None
    assert agg["stale_count"] == 1
    empty = bm.aggregate([])
    assert empty["n"] == 0 and empty["clean"] is None and empty["stale_wilson_upper"] is None


def test_wilson_bound_on_zero_of_1200():
    lo, hi = bm.wilson_interval(0, 1200)
    assert lo == 0.0 and 0.003 < hi < 0.0035  # the seed's "0 is ≤ 0.005, not 0"
    lo, hi = bm.wilson_interval(1200, 1200)
    assert hi == 1.0 and lo > 0.996
    with pytest.raises(ValueError):
        bm.wilson_interval(1, 0)


def test_a_perfect_keyed_block_scores_clean_on_generated_requests():
    """End to end on the generator: the ideal block (current value only) is clean, the
    history block co-injects, and a namesake's block is misattributed."""
    inst = generate(0, "en")
    chains = {c.index: c for c in inst.chains}
    recs = _by_id(inst)
    ideal, history = [], []
    for q in inst.requests:
        c = chains[q.chain]
        lines = [_line(recs[rid].text, q.partner) for rid in c.record_ids]
        ideal.append(bm.score_block(lines[-1:], q))
        history.append(bm.score_block(lines, q))
    agg = bm.aggregate(ideal)
    assert agg["clean"] == 1.0 and agg["stale"] == 0.0 and agg["misattribution"] == 0.0
    hist = bm.aggregate(history)
    revised = sum(q.revised for q in inst.requests) / len(inst.requests)
    assert hist["recall"] == 1.0 and hist["co_injection"] == pytest.approx(revised)
    q = next(q for q in inst.requests if q.ambiguous)
    rival = next(c for c in inst.chains if q.other_values[0] in c.values)
    bad = bm.score_block([_line(recs[rival.record_ids[-1]].text)], q)
    assert bad.misattributed and not bad.recall


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_paraphrased_chains_keep_values_timelines_and_requests(lang):
    plain = generate(0, lang, keyed=False)
    para = generate(0, lang, keyed=False, paraphrased=True)
    assert [r.id for r in plain.records] == [r.id for r in para.records]
    assert [q.text for q in plain.requests] == [q.text for q in para.requests]
    by_id = {r.id: r for r in para.records}
    changed = 0
    for chain in para.chains:
        for rid, value in zip(chain.record_ids, chain.values, strict=True):
            text = by_id[rid].text
            assert value in text and by_id[rid].facts is None
            changed += text != next(r.text for r in plain.records if r.id == rid)
    assert changed > 0.9 * sum(len(c.record_ids) for c in para.chains)
