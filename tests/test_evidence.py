"""Read path A: the closure contract, the renderer, controls and bad input (real Neo4j)."""

from __future__ import annotations

import threading
import uuid

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from graphmem import Fact, InvalidInputError, Memory, Record
from graphmem.domain.evidence import EvidenceRecord as ER
from graphmem.domain.evidence import render, render_selected
from graphmem.reads.refreshing import Refreshing
from graphmem_bench.controls import baselines
from graphmem_bench.scoring import answer_in_text, normalize_answer

pytestmark = pytest.mark.integration


@pytest.fixture
def memory(connect, namespace):
    """A Memory given the benchmark's baseline controls besides ``cmc``."""
    return connect(namespace, evidence_controls=baselines())


def _facts(memory, rows):
    memory.ingest(
        [
            Record(text, id=str(pos), pos=pos, facts=(Fact(s, r, v, i),))
            for pos, (text, s, r, v, i) in enumerate(rows)
        ]
    )


MEETING = [
    ("The weekly meeting is held in room A.", "weekly meeting", "held in", "room A", "assert"),
    ("Room A is on floor 2.", "room A", "floor", "2", "assert"),
    ("Room B is on floor 5.", "room B", "floor", "5", "assert"),
    ("The canteen is on floor 1.", "canteen", "floor", "1", "assert"),
    ("The weekly meeting moved to room B.", "weekly meeting", "held in", "room B", "update"),
]


def test_meeting_moved_brings_in_the_record_that_never_mentions_it(memory):
    _facts(memory, MEETING)
    ev = memory.evidence("What floor is the weekly meeting on?")
    assert ev.anchors == ["weekly meeting"] and not ev.fallback
    texts = [r.text for r in ev.records]
    assert texts == ["Room B is on floor 5.", "The weekly meeting moved to room B."]
    assert [r.pos for r in ev.records] == sorted(r.pos for r in ev.records)
    # Selecting before refreshing keeps room A's floor and misses room B's.
    prior = [
        r.text
        for r in memory.evidence(
            "What floor is the weekly meeting on?", control="prior_refresh"
        ).records
    ]
    assert "Room A is on floor 2." in prior and "Room B is on floor 5." not in prior
    stale = [
        r.text
        for r in memory.evidence(
            "What floor is the weekly meeting on?", control="stale_closure"
        ).records
    ]
    assert "The weekly meeting is held in room A." in stale


def test_no_anchor_falls_back_to_the_whole_history_under_budget(memory):
    _facts(memory, MEETING)
    ev = memory.evidence("Who won the cup?", budget_chars=200)
    assert ev.fallback and ev.anchors == []
    assert len(ev.text) <= 200
    assert ev.records[-1].text == MEETING[-1][0]  # the newest records survive


@settings(
    max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    budget=st.integers(min_value=40, max_value=2_000), page=st.integers(min_value=1, max_value=9)
)
def test_fallback_reads_pages_but_keeps_what_the_whole_history_would(memory, budget, page):
    """The fallback reads the newest records page by page until the budget is spent; what
    it renders is what rendering the whole history gives."""
    if not memory.store.all_records(memory.namespace):
        memory.ingest(
            [
                Record(
                    f"Note {i}: " + "x" * (i % 7 * 9),
                    id=f"n{i}",
                    pos=i,
                    observed_at=f"2026-01-{1 + i % 28:02d}",
                )
                for i in range(40)
            ]
        )
    whole = render(memory.store.all_records(memory.namespace), budget)
    paged = render(memory._evidence._newest_within(budget, page=page), budget)
    assert paged == whole


def test_raw_records_are_selected_for_the_question(memory):
    """Records no fact came from are ranked for the question, not handed over wholesale:
    a matching one comes back, with the turn after it (its session neighbour); an
    unrelated one far away does not."""
    _facts(memory, MEETING)
    memory.ingest(
        [
            Record(
                "Jiyoung thinks the weekly meeting needs a bigger floor.",
                id="u1",
                pos=99,
                observed_at="2026-05-04T10:00:00",
            ),
            Record("Agreed, it is cramped.", id="u2", pos=100, observed_at="2026-05-04T10:00:00"),
            Record("Lunch was great today.", id="u3", pos=300, observed_at="2026-06-01T12:00:00"),
        ]
    )
    ev = memory.evidence("What floor is the weekly meeting on?")
    ids = [r.id for r in ev.records]
    assert "u1" in ids and "u2" in ids and "u3" not in ids
    assert "On 2026-05-04:\n99. Jiyoung thinks" in ev.text  # each day's records under it
    assert ev.records == sorted(ev.records, key=lambda r: r.pos)  # source order


def test_conversation_without_facts_gets_the_matching_turns_not_the_newest(memory):
    turns = [Record(f"filler turn number {i} about nothing", id=f"f{i}", pos=i) for i in range(200)]
    turns[20] = Record(
        "Caroline researched adoption agencies last week.", id="hit", pos=20, speaker="Caroline"
    )
    memory.ingest(turns)
    ev = memory.evidence("What did Caroline research?", budget_chars=400)
    assert not ev.fallback and "hit" in [r.id for r in ev.records]
    assert "f199" not in [r.id for r in ev.records]  # not the newest turns


def test_every_control_runs_with_the_same_renderer(memory, connect, namespace):
    _facts(memory, MEETING)
    for control in (
        "cmc",
        "prior_refresh",
        "stale_closure",
        "bm25_top100",
        "bm25_matched",
        "current_state",
        "raw_history",
    ):
        ev = memory.evidence("What floor is the weekly meeting on?", control=control)
        assert ev.text.startswith("Here is a list of records")
        assert ev.control == control
    lexical = connect(namespace, embedder="none", evidence_controls=baselines())
    for control in ("dense_top100", "state_top12", "turns_pruned"):
        assert memory.evidence("weekly meeting", control=control).control == control
        with pytest.raises(InvalidInputError, match="embedder"):
            lexical.evidence("weekly meeting", control=control)


def test_controls_are_given_to_a_memory_not_registered_globally(connect, namespace, memory):
    _facts(memory, MEETING)
    plain = connect(namespace)  # the same namespace, no controls given: cmc only
    assert plain.evidence("weekly meeting").control == "cmc"
    with pytest.raises(InvalidInputError, match=r"unknown control 'prior_refresh'.*'cmc'"):
        plain.evidence("weekly meeting", control="prior_refresh")
    assert memory.evidence("weekly meeting", control="prior_refresh").control == "prior_refresh"
    with pytest.raises(ValueError, match="cmc"):
        connect(namespace, evidence_controls={"cmc": lambda r, q, h, b: None})
    with pytest.raises(ValueError, match="letters"):
        connect(namespace, evidence_controls={"no spaces": lambda r, q, h, b: None})


def test_embedding_controls_over_ollamas_protocol(connect, namespace):
    from graphmem.llm.ollama import OllamaClient
    from graphmem.llm.testserver import OllamaTestServer

    with OllamaTestServer([]) as server:
        memory = connect(
            namespace,
            embedder=OllamaClient(server.url, embed_model="e"),
            evidence_controls=baselines(),
        )
        _facts(memory, MEETING)
        memory.ingest([Record("Lunch is at noon.", id="x", pos=50, observed_at="2026-01-09")])
        q = "What floor is the weekly meeting on?"
        dense = memory.evidence(q, control="dense_top100")
        state = memory.evidence(q, control="state_top12")
        turns = memory.evidence(q, control="turns_pruned")
    assert "Room B is on floor 5." in dense.text and not dense.fallback
    assert len(state.keys) <= 12 and "Room B is on floor 5." in state.text
    assert len(turns.records) <= 12 and not turns.fallback


def test_turns_pruned_drops_the_earlier_of_two_conflicting_turns(connect, namespace):
    from graphmem.llm.ollama import OllamaClient
    from graphmem.llm.testserver import OllamaTestServer

    server = OllamaTestServer([]).__enter__()
    memory = connect(
        namespace,
        embedder=OllamaClient(server.url, embed_model="e"),
        evidence_controls=baselines(),
    )
    memory.ingest(
        [
            Record(
                "The weekly meeting is in room A.",
                id="1",
                pos=1,
                observed_at="2026-01-01",
                facts=(Fact("weekly meeting", "room", "room A"),),
            ),
            Record(
                "The weekly meeting is in room B.",
                id="2",
                pos=2,
                observed_at="2026-02-01",
                facts=(Fact("weekly meeting", "room", "room B", "update"),),
            ),
        ]
    )
    try:
        ev = memory.evidence("Which room is the weekly meeting in?", control="turns_pruned")
    finally:
        server.__exit__(None, None, None)
    assert [r.text for r in ev.records] == ["The weekly meeting is in room B."]


@pytest.mark.parametrize(
    ("question", "hops"),
    [("", 5), ("   ", 5), ("x" * 100_000, 5), ("weekly meeting", 0), ("weekly meeting", 50)],
)
def test_bad_input_is_a_clear_error(memory, question, hops):
    with pytest.raises(InvalidInputError):
        memory.evidence(question, hops=hops)


def test_cypher_in_a_question_is_inert_text(memory):
    _facts(memory, MEETING)
    before = memory.counts()
    q = "weekly meeting'}) MATCH (n) DETACH DELETE n //"
    ev = memory.evidence(q)
    assert ev.anchors == ["weekly meeting"]
    assert memory.counts() == before


def test_korean_particles_and_aliases_anchor(memory):
    _facts(
        memory,
        [
            (
                "Christian Abbiati plays the position of goalkeeper.",
                "Christian Abbiati",
                "position",
                "goalkeeper",
                "assert",
            ),
            ("The capital of Italy is Rome.", "Italy", "capital", "Rome", "assert"),
            (
                "Sketches by Boz was written by Charles Dickens.",
                "Sketches by Boz",
                "author",
                "Charles Dickens",
                "assert",
            ),
            ("김민준 is on the platform team.", "김민준", "team", "platform", "assert"),
        ],
    )
    assert memory.evidence("Christian Abbiati가 맡은 포지션은?").anchors == ["Christian Abbiati"]
    assert memory.evidence('"Sketches by Boz"의 저자는?').anchors == ["Sketches by Boz"]
    assert memory.evidence("이탈리아의 수도는?").anchors == ["Italy"]
    assert memory.evidence("김민준님에게 무슨 팀인지 물어봐").anchors == ["김민준"]


def test_maximal_match_wins(memory):
    _facts(
        memory,
        [
            ("New York is in the United States.", "New York", "country", "United States", "assert"),
            (
                "The New York Times is written in English.",
                "The New York Times",
                "language",
                "English",
                "assert",
            ),
        ],
    )
    assert memory.evidence("Which language was The New York Times written in?").anchors == [
        "The New York Times"
    ]


def test_render_keeps_newest_whole_records():
    recs = [ER(i, "x" * 10) for i in range(10)]
    text, kept, truncated = render(recs + recs[:3], budget_chars=80, header="H\n")
    assert truncated and [r.pos for r in kept] == [5, 6, 7, 8, 9]  # 5 lines of 14 chars
    assert len(text) <= 80


_DAYS = st.sampled_from([None, "2023-05-08T10:00", "2023-05-09T09:00", "2023-06-01"])


@given(
    st.lists(
        st.tuples(
            st.integers(0, 40),
            st.text(min_size=1, max_size=30),
            st.sampled_from([None, "Caroline", "민지"]),
            _DAYS,
        ),
        max_size=20,
    ),
    st.integers(0, 5),
    st.integers(10, 400),
)
def test_rendered_evidence_never_exceeds_its_budget_and_names_each_day_once(rows, keyed, budget):
    recs = [ER(pos, text, None, who, day) for pos, text, who, day in rows]
    text, kept, _ = render_selected(recs[:keyed], recs[keyed:], budget, header="H\n")
    assert len(text) <= max(budget, 2)
    assert [r.pos for r in kept] == sorted({r.pos for r in kept})
    body = text[2:]
    for r in kept:
        assert r.line() in body
    days = [r.day() for r in kept]
    runs = [d for i, d in enumerate(days) if d != (days[i - 1] if i else "")]
    assert body.count("On ") >= len([d for d in runs if d]) and all(
        f"On {d}:\n" in body for d in runs if d
    )


def test_a_speaker_is_named_once_per_line():
    said = ER(3, "Minjun Kim: our sync is at 9", speaker="Minjun Kim").line()
    assert said == "3. Minjun Kim: our sync is at 9\n"
    assert ER(4, "sure", speaker="Jiyoung").line() == "4. Jiyoung: sure\n"
    assert ER(5, "Dana: good news", speaker="Dana Cole").line() == "5. Dana: good news\n"
    assert ER(6, "hi", speaker=" ").line() == "6. hi\n"


def test_normalized_substring_scoring():
    assert normalize_answer("The United  States!") == "united states"
    assert answer_in_text(["the Philippines"], "7774. field hockey ... Philippines.")
    assert answer_in_text(["Peru"], "Perugia is a city")  # a plain substring rule, as published
    assert not answer_in_text(["Lima"], "Perugia is a city")


# -- the contract as a property: currency and bounded coverage ---------------------------
NAMES = ["a", "b", "c", "d", "e"]
fact_st = st.tuples(st.sampled_from(NAMES), st.sampled_from(["r1", "r2"]), st.sampled_from(NAMES))


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    facts=st.lists(fact_st, min_size=1, max_size=15),
    anchor=st.sampled_from(NAMES),
    hops=st.integers(1, 4),
)
def test_closure_is_current_and_covers_every_subject_within_reach(
    neo4j_server, facts, anchor, hops
):
    mem = Memory.connect(
        neo4j_server.bolt_url,
        f"c-{uuid.uuid4().hex[:10]}",
        neo4j_auth=neo4j_server.auth,
        install_schema=False,
    )
    try:
        records = [
            Record(
                f"ent{s} {r} ent{o}",
                id=str(i),
                pos=i,
                facts=(Fact(f"ent{s}", r, f"ent{o}", "update"),),
            )
            for i, (s, r, o) in enumerate(facts)
        ]
        mem.ingest(records)
        current: dict[tuple[str, str], tuple[str, list[int]]] = {}
        for i, (s, r, o) in enumerate(facts):  # last write wins, computed independently
            old = current.get((f"ent{s}", r))
            if old and old[0] == f"ent{o}":
                old[1].append(i)  # the same value again supports the current version
            else:
                current[(f"ent{s}", r)] = (f"ent{o}", [i])
        depth, frontier = {f"ent{anchor}": 0}, [f"ent{anchor}"]
        while frontier:
            nxt = []
            for s in frontier:
                for (subj, _r), (obj, _) in current.items():
                    if subj == s and obj not in depth:
                        depth[obj] = depth[s] + 1
                        nxt.append(obj)
            frontier = nxt
        expected = {(s, r) for (s, r) in current if s in depth and depth[s] < hops}
        ev = mem.evidence(f"tell me about ent{anchor}", hops=hops)
        if not any(s == f"ent{anchor}" for s, _ in current):
            assert ev.fallback
            return
        got = {tuple(k.split(" / ")) for k in ev.keys}
        assert got == {(s, r.lower()) for s, r in expected}
        # Currency: every record handed over supports a current value.
        current_pos = {i for (_, support) in current.values() for i in support}
        assert {r.pos for r in ev.records} <= current_pos
    finally:
        mem.close()


def test_raw_records_are_also_ranked_by_meaning_with_an_embedder(connect, namespace):
    """With an embedder, dense ranking joins the lexical one (reciprocal rank fusion);
    records are embedded once, in the background, and their vectors persist: a restart
    embeds nothing again. A failing embedder only costs the dense half."""
    from graphmem.llm.ollama import OllamaClient
    from graphmem.llm.testserver import OllamaTestServer

    with OllamaTestServer([]) as server:
        memory = connect(namespace, embedder=OllamaClient(server.url, embed_model="e"))
        memory.ingest(
            [Record(f"small talk number {i}", id=f"s{i}", pos=i) for i in range(30)]
            + [Record("Caroline researched adoption agencies.", id="hit", pos=40)]
        )
        assert memory.wait_vectors(timeout=60)
        embedded = sum(
            len(r.body.get("input", [])) for r in server.requests if r.path == "/api/embed"
        )
        q = "What did Caroline research?"
        before = len([r for r in server.requests if r.path == "/api/embed"])
        first = memory.evidence(q, budget_chars=300)
        second = memory.evidence("What about the small talk?", budget_chars=300)
        after = len([r for r in server.requests if r.path == "/api/embed"])
        memory.close()
        # A restart reads the vectors back from Neo4j: only questions are embedded.
        again = connect(namespace, embedder=OllamaClient(server.url, embed_model="e"))
        assert again.wait_vectors(timeout=60)
        again.evidence(q, budget_chars=300)
        restarted = len([r for r in server.requests if r.path == "/api/embed"])
    assert embedded >= 31  # every record's text was embedded once
    assert "hit" in [r.id for r in first.records] and not first.fallback
    assert 0 < first.stats["embed_ms"] <= first.stats["ms"]  # the call's time, split
    assert after == before + 2  # only the two questions
    assert restarted == after + 1  # only the question: the records' vectors were kept
    assert second.records and all(r.id.startswith("s") for r in second.records[:1])
    # The server is gone: the dense half fails, the lexical ranking still answers.
    assert "hit" in [r.id for r in again.evidence(q, budget_chars=300).records]


def test_a_hangul_question_anchors_on_the_latin_entity_it_names(memory):
    memory.remember("Victoria Beckham", "spouse", "David Beckham", record_id="vb")
    memory.remember("David Beckham", "team", "LA Galaxy", record_id="db")
    memory.remember("University of Minnesota", "headquarters", "Minneapolis", record_id="um")
    ev = memory.evidence("빅토리아 베컴의 배우자는 어느 팀에서 뛰어?")
    assert ev.anchors == ["Victoria Beckham"] and "LA Galaxy" in ev.text
    assert memory.evidence("미네소타 대학교는 어디에 있어요?").anchors == [
        "University of Minnesota"
    ]
    # a surname two entities share anchors on neither; a name not in the graph on nothing
    assert memory.evidence("베컴은 어느 팀이야?").anchors == []
    assert memory.evidence("손흥민은 어느 팀이야?").anchors == []


def test_names_written_later_are_linked_too(memory):
    memory.remember("Clayton Kershaw", "team", "Los Angeles Dodgers", record_id="ck")
    assert memory.evidence("클레이튼 커쇼는 어느 팀 선수야?").anchors == ["Clayton Kershaw"]
    memory.remember("Hideo Kojima", "employer", "Konami", record_id="hk")
    assert memory.evidence("고지마 히데오는 어디서 일해?").anchors == ["Hideo Kojima"]


def test_a_latin_question_anchors_on_a_hangul_entity(memory):
    memory.remember("빅토리아 베컴", "배우자", "데이비드 베컴", record_id="k1")
    memory.remember("데이비드 베컴", "소속팀", "LA 갤럭시", record_id="k2")
    ev = memory.evidence("Who is Victoria Beckham's spouse?")
    assert ev.anchors == ["빅토리아 베컴"] and "LA 갤럭시" in ev.text
    assert memory.evidence("Where does Lionel Messi play?").anchors == []


def test_the_name_index_grows_in_place_as_names_are_written(memory):
    memory.remember("Clayton Kershaw", "team", "Los Angeles Dodgers", record_id="ck")
    memory.evidence("클레이튼 커쇼는 어느 팀이야?")
    index = memory._evidence.linker()
    memory.remember("Hideo Kojima", "employer", "Konami", record_id="hk")
    assert memory._evidence.linker() is index  # no rebuild per write
    assert memory.evidence("고지마 히데오는 어디서 일해?").anchors == ["Hideo Kojima"]


def test_short_common_korean_nouns_are_not_linked_to_names(memory):
    memory.remember("Nara", "prefecture of", "Japan", record_id="n1")
    memory.remember("Bada", "genre", "pop", record_id="n2")
    assert memory.evidence("그 나라의 수도는 어디야?").anchors == []
    assert memory.evidence("바다는 어떤 색이야?").anchors == []


def test_an_old_name_index_keeps_serving_while_it_is_rebuilt(connect, namespace, monkeypatch):
    reader, writer = connect(namespace), connect(namespace)  # two processes, in effect
    try:
        reader.remember("Clayton Kershaw", "team", "Los Angeles Dodgers", record_id="ck")
        assert reader.evidence("클레이튼 커쇼는 어느 팀이야?").anchors == ["Clayton Kershaw"]
        writer.remember("Hideo Kojima", "employer", "Konami", record_id="hk")  # not seen
        old = reader._evidence.linker()
        monkeypatch.setattr(reader._evidence._linker, "ttl", 0.0)
        # expired: the question is answered from the old index, a rebuild starts aside
        assert reader.evidence("고지마 히데오는 어디서 일해?").anchors == []
        reader.remember("Shohei Ohtani", "team", "Los Angeles Dodgers", record_id="so")
        for thread in [t for t in threading.enumerate() if t.name.startswith("graphmem-")]:
            thread.join(timeout=30)
        monkeypatch.setattr(reader._evidence._linker, "ttl", 300.0)
        assert reader._evidence.linker() is not old
        assert reader.evidence("고지마 히데오는 어디서 일해?").anchors == ["Hideo Kojima"]
        # written during the rebuild through this reader: the new index holds it as well
        assert reader.evidence("오타니 쇼헤이는 어느 팀이야?").anchors == ["Shohei Ohtani"]
    finally:
        reader.close()
        writer.close()


# -- Refreshing: one kept value, rebuilt aside, caught up with this process's writes ------
def _join_rebuilds() -> None:
    for thread in [t for t in threading.enumerate() if t.name.startswith("graphmem-")]:
        thread.join(timeout=30)


def test_refreshing_builds_once_and_serves_the_old_value_while_rebuilding():
    built: list[int] = []
    gate = threading.Event()

    def build() -> list[str]:
        if built:
            gate.wait(timeout=30)  # the rebuild blocks until the test lets it finish
        built.append(1)
        return ["store"]

    def catch_up(value: list[str], names: set[str]) -> list[str]:
        value.extend(sorted(names))  # in place: keeps its age
        return value

    kept = Refreshing("things", "t-ns", build, catch_up, ttl=300.0)
    first = kept.get()
    assert kept.get() is first and len(built) == 1
    kept.names_added({"a"})
    assert first == ["store", "a"]
    kept.ttl = 0.0
    assert kept.get() is first  # expired: the old value serves, a rebuild starts aside
    kept.names_added({"b"})  # written during the rebuild
    gate.set()
    _join_rebuilds()
    kept.ttl = 300.0
    fresh = kept.get()
    assert fresh is not first and fresh == ["store", "b"]  # the new one holds "b" too
    assert len(built) == 2


def test_refreshing_seeded_value_is_replaced_by_a_catch_up_and_kept_on_failure():
    calls: list[int] = []

    def build() -> bool:
        calls.append(1)
        if len(calls) > 1:
            raise RuntimeError("store down")
        return False

    flag = Refreshing("flag", "t-ns", build, lambda v, n: v or "x" in n, ttl=300.0, seed=False)
    flag.names_added({"x"})  # before any build: the seed caught up stands for it
    assert flag.get() is True and not calls
    unseeded = Refreshing("flag", "t-ns", build, lambda v, n: v or "x" in n, ttl=0.0)
    unseeded.names_added({"x"})  # nothing built and no seed: left to the first build
    assert unseeded.get() is False and len(calls) == 1
    assert unseeded.get() is False  # expired: a rebuild starts, fails, the old one stays
    _join_rebuilds()
    unseeded.ttl = 300.0
    assert unseeded.get() is False and len(calls) == 2


def test_a_latin_name_in_a_korean_question_anchors_on_a_hangul_entity(memory):
    memory.remember("빅토리아 베컴", "배우자", "데이비드 베컴", record_id="k1")
    memory.remember("데이비드 베컴", "소속팀", "LA 갤럭시", record_id="k2")
    ev = memory.evidence("Victoria Beckham의 남편은 어느 팀이야?")
    assert "빅토리아 베컴" in ev.anchors and "데이비드 베컴" in ev.text


def test_a_hangul_name_in_a_korean_question_anchors_on_a_latin_entity(memory):
    memory.remember("Victoria Beckham", "spouse", "David Beckham", record_id="vb")
    ev = memory.evidence("빅토리아 베컴의 남편은 누구야?")
    assert ev.anchors == ["Victoria Beckham"] and "David Beckham" in ev.text


def test_names_are_embedded_only_once_a_namespace_is_asked_in_hangul(connect, namespace):
    memory = connect(namespace, embedder="e5")
    memory.remember("Ender's Game", "author", "Orson Scott Card", record_id="eg")
    memory.remember("Apple Watch", "maker", "Apple Inc.", record_id="aw")
    keeper = memory._evidence.names_by_meaning
    assert keeper is not None
    memory.evidence("Who wrote Ender's Game?")
    assert list(memory.store.stored_name_vectors(namespace)) == []  # Latin only: nothing
    memory.evidence("엔더의 게임은 누가 썼어?")
    assert keeper.wait_idle(120)
    stored = dict(memory.store.stored_name_vectors(namespace))
    assert set(stored) == {"Ender's Game", "Orson Scott Card", "Apple Watch", "Apple Inc."}
    assert memory.store.vector_model(namespace) == "e5-small"
    ev = memory.evidence("엔더의 게임은 누가 썼어?")
    assert ev.anchors == ["Ender's Game"] and "Orson Scott Card" in ev.text
    # a name written later is embedded too; an erased one leaves with its entity
    memory.remember("Ender's Shadow", "author", "Orson Scott Card", record_id="es")
    assert keeper.wait_idle(120)
    assert "Ender's Shadow" in dict(memory.store.stored_name_vectors(namespace))
    memory.erase("aw")
    assert "Apple Watch" not in dict(memory.store.stored_name_vectors(namespace))
    # reembed forgets every vector, names' included
    memory.reembed()
    assert list(memory.store.stored_name_vectors(namespace)) == []


def test_without_an_embedder_links_stay_by_sound(connect, namespace):
    memory = connect(namespace, embedder="none")
    memory.remember("Victoria Beckham", "spouse", "David Beckham", record_id="vb")
    assert memory._evidence.names_by_meaning is None
    assert memory.evidence("빅토리아 베컴의 남편은?").anchors == ["Victoria Beckham"]


def test_relative_time_is_resolved_at_ingest_and_shown_in_evidence(memory, namespace):
    memory.ingest(
        [
            Record(
                "I went to the support group yesterday",
                id="t1",
                speaker="Caroline",
                observed_at="2023-05-08T13:56:00",
            ),
            Record(
                "지난주 토요일에 이사했어", id="t2", speaker="민지", observed_at="2024-03-13T09:00"
            ),
        ]
    )
    stored = memory.store.driver.execute_query(
        "MATCH (e:Evidence {ns: $ns}) RETURN e.record_id AS id, e.times AS times ORDER BY id",
        ns=namespace,
    ).records
    assert [(r["id"], r["times"]) for r in stored] == [
        ("t1", ["28:37=2023-05-07"]),
        ("t2", ["0:7=2024-03-09"]),
    ]
    ev = memory.evidence("When did Caroline go to the support group?")
    assert (
        "On 2023-05-08:\n0. Caroline: I went to the support group yesterday "
        "(yesterday = 2023-05-07)\n"
    ) in ev.text
    assert "지난주 토요일 = 2024-03-09" in memory.evidence("민지는 언제 이사했어?").text


def test_a_question_about_yesterday_ranks_the_turns_said_then():
    from datetime import date

    from graphmem.domain.evidence import EvidenceRecord
    from graphmem.language.relative_time import resolve_times
    from graphmem.reads.raw_records import RawRecordIndex

    def turn(pos: int, text: str, said: str) -> EvidenceRecord:
        times = tuple(t.stored() for t in resolve_times(text, said))
        return EvidenceRecord(pos, text, f"t{pos}", "Minjun", said, times)

    index = RawRecordIndex(
        [
            turn(i, f"the dentist note {chr(97 + i)}", f"2024-02-{10 + i:02d}T10:00")
            for i in range(10)
        ]
        + [
            turn(20, "the dentist moved my cleaning", "2024-03-12T10:00"),
            turn(21, "어제 치과 다녀왔어", "2024-03-05T10:00"),
        ]
    )
    today = date(2024, 3, 13)
    best = index.rank("What did Minjun say about the dentist yesterday?", today=today)
    assert best[0].pos == 20
    # "어제" said on 5 March meant 4 March: a question about that day finds it
    assert index.rank("민준이 9일 전에 뭐 했어?", today=today)[0].pos == 21


def _turn_vector(memory, namespace, record_id):
    rows = memory.store.driver.execute_query(
        "MATCH (e:Evidence {ns: $ns, record_id: $id}) RETURN e.turn_embedding AS v",
        ns=namespace,
        id=record_id,
    ).records
    return rows[0]["v"] if rows else None


def test_a_turn_vector_made_before_an_erase_is_not_written_after_it(connect, namespace):
    """The keeper reads a turn with the one before it, embeds (seconds), then writes: an
    erase of the turn before in between must not leave its text in the vector."""
    memory = connect(namespace, embedder="none")
    said = "2024-03-13T09:00"
    memory.ingest(
        [
            Record("A: my PIN is 4921 SECRETWORD", id="a", speaker="A", observed_at=said),
            Record("ha, classic", id="b", speaker="B", observed_at=said),
        ]
    )
    store = memory.store
    read = [t for t in store.missing_vectors(namespace, 64) if t.kind == "turn"]
    assert any("SECRETWORD" in t.text and t.text.endswith("B: ha, classic") for t in read)
    memory.erase("a")
    store.write_vectors(namespace, [(t, [0.5] * 8) for t in read])
    assert _turn_vector(memory, namespace, "b") is None
    again = [t for t in store.missing_vectors(namespace, 64) if t.kind == "turn"]
    assert [t.text for t in again] == ["B: ha, classic"]  # embedded again, alone
    store.write_vectors(namespace, [(t, [0.5] * 8) for t in again])
    assert _turn_vector(memory, namespace, "b") is not None


def test_a_turn_written_before_an_existing_one_renews_its_vector(connect, namespace):
    memory = connect(namespace, embedder="none")
    memory.ingest([Record("sounds good", id="late", pos=10, speaker="B")])
    store = memory.store
    first = [t for t in store.missing_vectors(namespace, 64) if t.kind == "turn"]
    store.write_vectors(namespace, [(t, [0.5] * 8) for t in first])
    assert _turn_vector(memory, namespace, "late") is not None
    memory.ingest([Record("dinner at 7?", id="early", pos=9, speaker="A")])
    assert _turn_vector(memory, namespace, "late") is None
    texts = {t.text for t in store.missing_vectors(namespace, 64) if t.kind == "turn"}
    assert "A: dinner at 7?\nB: sounds good" in texts


def _mentions(memory, record_id):
    rows = memory.store.driver.execute_query(
        "MATCH (e:Evidence {ns: $ns, record_id: $id})-[:MENTIONS]->(m:Mention) "
        "RETURN m.key AS key ORDER BY key",
        ns=memory.namespace,
        id=record_id,
    ).records
    return [r["key"] for r in rows]


def _nate(pos: int, text: str, day: int) -> Record:
    return Record(text, id=f"n{pos}", pos=pos, speaker="Nate", observed_at=f"2024-03-{day:02d}")


DESSERTS = [
    # session 1: the turn the question finds by its words
    _nate(0, "My favourite dessert is coconut milk ice cream.", 1),
    # session 2, weeks later: the same thing, none of the question's words
    _nate(50, "I baked a chocolate cake with coconut milk yesterday.", 20),
    # a word every filler turn says leads nowhere: too common to mean anything
    _nate(60, "The weather was lovely for the cake stall.", 21),
] + [_nate(100 + i, f"The weather report {i} was dull.", 25) for i in range(40)]


def test_evidence_walks_from_the_best_turn_to_turns_that_mention_the_same_thing(connect, namespace):
    """Resolve, then traverse, over turns: the turn that answers a question leads through
    what it mentions ("coconut milk") to a turn in another session that shares no word
    with the question; a word half the namespace mentions ("weather") leads nowhere.
    Without an embedder, so that only words and the walk choose."""
    memory = connect(namespace, embedder="none")
    memory.ingest(DESSERTS)
    assert "coconut" in _mentions(memory, "n0") and "coconut" in _mentions(memory, "n50")
    assert "nate" not in _mentions(memory, "n0")  # the speaker's name is no mention
    question = "What is the favourite dessert?"
    ev = memory.evidence(question, budget_chars=2000)
    ids = [r.id for r in ev.records]
    assert "n0" in ids and "n50" in ids
    assert "n60" not in ids  # shares "cake" with n50 only, never a seed
    # Without the walk the question's words alone never reach the cake.
    from graphmem.reads.raw_records import RankingWeights, RawRecordIndex

    records = memory.store.unresolved_records(memory.namespace)
    alone = RawRecordIndex(records, RankingWeights(walk_weight=0)).rank(question)
    assert "n50" not in [r.id for r in alone]
    # A question naming the speaker matches every turn of theirs by its words (raw
    # BM25F scores): the walk still joins that ranking by rank, so the cake fits.
    named = memory.evidence("What desserts does Nate love?", budget_chars=600)
    assert "n50" in [r.id for r in named.records]


def test_an_erased_turn_takes_the_words_only_it_mentioned(connect, namespace):
    memory = connect(namespace, embedder="none")
    memory.ingest(DESSERTS[:2])

    def keys():
        rows = memory.store.driver.execute_query(
            "MATCH (m:Mention {ns: $ns}) RETURN m.key AS key", ns=memory.namespace
        ).records
        return {r["key"] for r in rows}

    assert {"dessert", "coconut", "bake"} <= keys()
    memory.erase("n0")
    assert "dessert" not in keys() and "coconut" in keys()  # n50 still says coconut
    memory.erase("n50")
    assert keys() == set()


def test_a_record_mentions_its_content_words_not_names_numbers_or_function_words():
    from graphmem.reads.ranking import mention_keys

    assert mention_keys("Caroline and Melanie went", ["Caroline", "Melanie"]) == ["went"]
    assert mention_keys("Joanna, I made 3 tubs of coconut milk ice cream!", ["Joanna"]) == [
        "made",
        "tub",
        "coconut",
        "milk",
        "ice",
        "cream",
    ]
    # Korean content morphemes; the given name of a three-syllable name is a name too
    keys = mention_keys("민준아 어제 코코넛 밀크 아이스크림 만들었어", ["김민준"])
    assert {"코코넛", "밀크", "아이스크림"} <= set(keys) and "민준" not in keys
    many = " ".join(f"thing{chr(97 + i % 26)}{chr(97 + i // 26)}" for i in range(100))
    assert mention_keys(many)[:2] == ["thingaa", "thingba"]
    from graphmem.reads.ranking import MAX_MENTIONS

    assert len(mention_keys(many)) == MAX_MENTIONS  # a long record keeps its first ones


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.sampled_from(["coconut", "Milk", "the", "of", "7", "ok", "Nate", "민준", "케이크", "!"]),
        max_size=200,
    )
)
def test_mentions_are_bounded_distinct_and_never_the_speakers(words):
    from graphmem.reads.ranking import MAX_MENTIONS, STOPWORDS, mention_keys

    keys = mention_keys(" ".join(words), ["Nate", "김민준"])
    assert len(keys) <= MAX_MENTIONS and len(keys) == len(set(keys))
    assert not {"nate", "민준", "7", "ok"} & set(keys) and not STOPWORDS & set(keys)
