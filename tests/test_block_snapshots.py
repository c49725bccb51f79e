"""Block snapshots: the numpy BM25F index, the packed record columns, and building in a
child process (same snapshot as a thread build; a failed build keeps the old snapshot;
a late fresh read does not hold the request past its deadline)."""

from __future__ import annotations

import dataclasses
import re
import tempfile
import threading
import time
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from graphmem import Fact, Record
from graphmem.config import BlockOptions
from graphmem.domain.block import ActiveRecord
from graphmem.reads.blocks.child import (
    ChildBuilder,
    SnapshotBuildError,
    SnapshotSource,
    load_arrays,
    pack_records,
    unpack_records,
)
from graphmem.reads.blocks.gates import BlockRequest
from graphmem.reads.blocks.serving import BlockServer
from graphmem.reads.ranking import BM25F

WEIGHTS = {"body": 1.0, "entity": 2.5, "participant": 2.0}
FIELDS = tuple(WEIGHTS)
UNREACHABLE = "bolt://127.0.0.1:1"

# A small alphabet so terms overlap between documents and queries: a stopword, a word in
# two cases, Hangul runs (bigrams for three syllables and more), a digit string.
WORDS = ["alpha", "Alpha", "beta", "gamma", "delta", "the", "민준", "김민준", "회의실", "9", "x"]
field_text = st.lists(st.sampled_from(WORDS), max_size=6).map(" ".join)
doc = st.fixed_dictionaries({f: field_text for f in FIELDS})
corpus = st.lists(doc, max_size=12)
query = st.lists(st.sampled_from([*WORDS, "zeta", "missing"]), max_size=5).map(" ".join)

PROPS = settings(max_examples=300, deadline=None)


def _brute(ix: BM25F, q: str, docs: list[dict[str, str]]) -> dict[int, float]:
    """Every document's score by the reference formula, those above zero."""
    scored = {i: ix.score_fields(q, d) for i, d in enumerate(docs)}
    return {i: s for i, s in scored.items() if s > 0}


@st.composite
def ranked_case(draw):
    docs = draw(corpus)
    q = draw(query)
    depth = draw(st.integers(1, 14))
    # Distinct tie-break values in a random order, or none (ties go to the larger id).
    order = draw(
        st.one_of(
            st.none(),
            st.permutations(range(len(docs))).map(
                lambda p: np.array([10 * v for v in p], dtype=np.int64)
            ),
        )
    )
    return docs, q, depth, order


@PROPS
@given(ranked_case())
def test_top_and_scores_equal_a_brute_force_reference(case):
    docs, q, depth, order = case
    ix = BM25F(docs, WEIGHTS)
    tie = np.arange(len(docs)) if order is None else order
    brute = _brute(ix, q, docs)

    scores = ix.scores(q)
    assert set(scores) == set(brute)
    for i, s in scores.items():
        assert s == pytest.approx(brute[i], rel=1e-9, abs=1e-9), (i, q, docs)

    # Any documents scored alone (in any order, repeated) score as the whole ranking does.
    some = np.array([i for i in range(len(docs)) for _ in (0, 1)][::-1], dtype=np.int32)
    alone = ix.score_docs(q, some).tolist()
    assert alone == [scores.get(i, 0.0) for i in some.tolist()], (q, docs)

    got = ix.top(q, depth, order)
    ids = [i for i, _ in got]
    assert len(ids) == len(set(ids)) == min(depth, len(brute))
    # Against the index's own scores, exactly: best first, exact ties to the larger order.
    exact = sorted(scores.items(), key=lambda kv: (-kv[1], -tie[kv[0]]))[:depth]
    assert got == exact
    # Against the brute force, up to float noise (near ties may fall either way).
    for i, s in got:
        assert s == pytest.approx(brute[i], rel=1e-9, abs=1e-9)
    want = sorted(brute.values(), reverse=True)[:depth]
    assert [s for _, s in got] == pytest.approx(want, rel=1e-9, abs=1e-9)
    if got:
        floor = got[-1][1]
        assert all(s <= floor + 1e-9 for i, s in brute.items() if i not in set(ids))


def test_top_hand_checked_ties_and_stopwords():
    docs = [{"body": "alpha beta"}, {"body": "alpha beta"}, {"body": "gamma"}, {"entity": "alpha"}]
    ix = BM25F(docs, WEIGHTS)
    assert ix.top("the", 5) == []  # a stopword alone matches nothing
    assert ix.df("alpha") == 3 and ix.df("zeta") == 0
    # Documents 0 and 1 tie exactly: the larger id wins without an order, the larger
    # order value with one.
    assert [i for i, _ in ix.top("beta", 5)] == [1, 0]
    assert [i for i, _ in ix.top("beta", 5, np.array([9, 1, 0, 0]))] == [0, 1]
    assert [i for i, _ in ix.top("gamma alpha", 1)] == [2]  # the rare term weighs most


@st.composite
def index_case(draw):
    docs = draw(corpus)
    queries = draw(st.lists(query, min_size=1, max_size=4))
    return docs, queries


@PROPS
@given(index_case(), st.integers(1, 14))
def test_index_arrays_round_trip(case, depth):
    docs, queries = case
    ix = BM25F(docs, WEIGHTS)
    back = BM25F.from_arrays(ix.arrays(), ix.n, WEIGHTS)
    order = np.arange(len(docs), dtype=np.int64)[::-1].copy()
    assert back.vocab == ix.vocab and back.avg == ix.avg and back.n == ix.n
    for q in queries:
        assert back.top(q, depth) == ix.top(q, depth)
        assert back.top(q, depth, order) == ix.top(q, depth, order)
        assert back.scores(q) == ix.scores(q)
        for t in q.split():
            assert back.df(t.casefold()) == ix.df(t.casefold())
            assert back.idf(t.casefold()) == ix.idf(t.casefold())


def test_index_arrays_round_trip_through_files():
    docs = [
        {"body": "민준님 회의실은 B회의실", "participant": "김민준"},
        {"body": "alpha beta", "entity": "Alpha"},
        {"body": ""},
    ]
    ix = BM25F(docs, WEIGHTS)
    with tempfile.TemporaryDirectory() as tmp:
        for name, arr in ix.arrays().items():
            np.save(Path(tmp) / f"index.{name}.npy", arr, allow_pickle=False)
        loaded = load_arrays(tmp)
        assert not Path(tmp).exists()  # load_arrays removes the folder it read
    back = BM25F.from_arrays(loaded["index"], ix.n, WEIGHTS)
    for q in ("회의실", "alpha", "김민준 beta", "nothing"):
        assert back.top(q, 5) == ix.top(q, 5)


# -- packed records --------------------------------------------------------------------------
any_text = st.one_of(
    st.just(""),
    st.text(),
    st.sampled_from(["김민준님 회의실은 B회의실이에요.", "🎉👩‍👩‍👧 émoji", "\x00nul", "a\nb"]),
)
opt_text = st.one_of(st.none(), st.just(""), any_text)
active_record = st.builds(
    ActiveRecord,
    pos=st.integers(0, 2**62),
    record_id=any_text,
    text=any_text,
    observed_at=opt_text,
    participants=st.lists(any_text, max_size=3).map(tuple),
    speaker=opt_text,
    facts=st.lists(st.tuples(any_text, any_text, any_text), max_size=3).map(tuple),
    keyed=st.booleans(),
)
records = st.lists(active_record, max_size=8)


@settings(max_examples=300, deadline=None)
@given(records)
def test_pack_unpack_round_trip(rs):
    back = list(unpack_records(pack_records(rs)))
    assert back == rs
    for a, b in zip(back, rs, strict=True):
        assert type(a.pos) is int and type(a.keyed) is bool
        assert (a.observed_at is None) == (b.observed_at is None)  # "" stays "", not None
        assert (a.speaker is None) == (b.speaker is None)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(rs=records)
def test_pack_unpack_round_trip_through_files(rs):
    with tempfile.TemporaryDirectory() as tmp:
        for name, arr in pack_records(rs).items():
            np.save(Path(tmp) / f"record.{name}.npy", arr, allow_pickle=False)
        loaded = load_arrays(tmp)
    assert list(unpack_records(loaded["record"])) == rs


def test_empty_observed_at_round_trips_as_empty_not_none():
    r = ActiveRecord(
        pos=3,
        record_id="",
        text="",
        observed_at="",
        participants=("",),
        speaker="",
        facts=(("", "", ""),),
        keyed=True,
    )
    (back,) = unpack_records(pack_records([r]))
    assert back == r and back.observed_at == "" and back.speaker == ""


# -- the collector ---------------------------------------------------------------------------
# -- against the real Neo4j ------------------------------------------------------------------
NOW = "2026-05-05"
QUERIES = [
    "the standup with Minjun is at Minjun Kim",
    "민준님이랑 회의는 어디에서 김민준",
    "sync Minjun Lee",
    "lunch",
    "nothing here at all",
    "회의실",
]
REQUESTS = [
    ("the standup with Minjun is at", "Minjun Kim"),
    ("the sync with Minjun is at", "Minjun Lee"),
    ("민준님이랑 회의는 어디에서", "김민준"),
    ("the deadline for Minjun is", "Minjun Kim"),
    ("Lunch was", "Jiyoung Park"),
]


def _store(memory):
    memory.ingest(
        [
            Record(
                "The standup with Minjun Kim is at 9:30.",
                participants=("Minjun Kim",),
                observed_at="2026-05-01",
                facts=(Fact("Minjun Kim", "meeting time", "9:30"),),
            ),
            Record(
                "Moved: the standup with Minjun Kim is now at 10:15.",
                participants=("Minjun Kim",),
                observed_at="2026-05-03",
                facts=(Fact("Minjun Kim", "meeting time", "10:15", "update"),),
            ),
            Record(
                "Minjun Lee's sync is at 14:00.",
                participants=("Minjun Lee",),
                observed_at="2026-05-02",
                facts=(Fact("Minjun Lee", "meeting time", "14:00"),),
            ),
            Record(
                "김민준님 회의실은 B회의실이에요.",
                participants=("김민준",),
                observed_at="2026-05-02",
                facts=(Fact("김민준", "meeting room", "B회의실"),),
            ),
            Record(
                "Lunch was great today.", participants=("Jiyoung Park",), observed_at="2026-05-02"
            ),
        ]
    )


def _server(memory, builder, source=None, store=None):
    return BlockServer(
        store or memory.store,
        memory.namespace,
        tokenizer=memory.config.block_tokenizer,
        registry=memory.registry,
        source=source,
        builder=builder,
    )


@pytest.mark.integration
def test_process_build_equals_thread_build(memory):
    _store(memory)
    source = memory._snapshot_source()
    assert source is not None and source.namespace == memory.namespace
    threaded = _server(memory, "thread", source)
    child = _server(memory, "process", source)
    try:
        a, b = threaded.refresh(), child.refresh()
        assert threaded._child is None  # "thread" never starts a child
        proc = child._child._proc
        assert proc is not None and proc.poll() is None
        assert len(a.records) == 4  # the superseded 9:30 record is not in the active view
        assert a.records == b.records
        assert a.watermark == b.watermark
        assert list(a.positions) == list(b.positions)
        assert a.index.vocab == b.index.vocab
        for q in QUERIES:
            ta, tb = a.index.top(q, 64, a.positions), b.index.top(q, 64, b.positions)
            assert [i for i, _ in ta] == [i for i, _ in tb], q
            assert [s for _, s in ta] == pytest.approx([s for _, s in tb], rel=1e-12), q
        assert a.index.top(QUERIES[0], 64, a.positions)  # the queries do match something
        for text, partner in REQUESTS:
            req = BlockRequest(text, partner, NOW)
            ba, bb = threaded.block(req), child.block(req)
            assert (ba.text, ba.abstained) == (bb.text, bb.abstained), text
        # Nothing new was written: a second refresh keeps the published snapshot.
        assert child.refresh() is b
    finally:
        threaded.close()
        child.close()
    assert proc.wait(timeout=10) is not None  # the child process is gone
    assert child._child._proc is None


@pytest.mark.integration
def test_memory_blocks_identical_with_either_builder(connect, namespace):
    by_process = connect(namespace, block_builder="process")
    by_thread = connect(namespace, block_builder="thread")
    assert by_process._snapshot_source() is not None
    _store(by_process)
    for text, partner in REQUESTS:
        bp = by_process.block(text, partner, now=NOW)
        bt = by_thread.block(text, partner, now=NOW)
        assert (bp.text, bp.abstained) == (bt.text, bt.abstained), text
    b = by_process.block("the standup with Minjun is at", "Minjun Kim", now=NOW)
    assert "10:15" in b.text and "9:30" not in b.text
    assert by_thread._blocks._child is None
    proc = by_process._blocks._child._proc
    assert proc is not None and proc.poll() is None
    by_process.release()
    assert proc.wait(timeout=10) is not None


@pytest.mark.integration
def test_child_builder_reports_an_unreachable_neo4j():
    builder = ChildBuilder()
    try:
        t0 = time.perf_counter()
        with pytest.raises(SnapshotBuildError, match=re.escape("127.0.0.1")):
            builder.build(SnapshotSource(UNREACHABLE, "t-unreachable", timeout=0.5))
        assert time.perf_counter() - t0 < 30
        proc = builder._proc
        assert proc is not None and proc.poll() is None  # the child survives to build again
    finally:
        builder.close()
    assert proc.wait(timeout=10) is not None


@pytest.mark.integration
def test_failed_child_build_falls_back_to_a_build_in_this_process(memory):
    """A child that cannot build must not leave blocks stale: the server builds in its
    own process from then on, and the new value is served."""
    _store(memory)
    server = _server(memory, "process", memory._snapshot_source())
    try:
        old = server.refresh()
        req = BlockRequest("the standup with Minjun is at", "Minjun Kim", NOW)
        before = server.block(req)
        assert "10:15" in before.text
        server.source = dataclasses.replace(server.source, uri=UNREACHABLE, timeout=0.5)
        memory.ingest(
            [
                Record(
                    "Moved again: the standup with Minjun Kim is now at 11:45.",
                    participants=("Minjun Kim",),
                    observed_at="2026-05-04",
                    facts=(Fact("Minjun Kim", "meeting time", "11:45", "update"),),
                )
            ]
        )
        assert memory.store.watermark(memory.namespace) != old.watermark
        new = server.refresh()
        assert new is not old and server.builder == "thread"
        after = server.block(req)
        assert "11:45" in after.text and "10:15" not in after.text
        assert not after.abstained and after.served == "snapshot"
    finally:
        server.close()


class _SlowFresh:
    """The real store, with a fresh read that waits until released (2 s at most)."""

    def __init__(self, store):
        self._store = store
        self.release = threading.Event()
        self.calls = 0

    def __getattr__(self, name):
        return getattr(self._store, name)

    def fresh_candidates(self, ns, words, limit):
        self.calls += 1
        self.release.wait(2.0)
        return self._store.fresh_candidates(ns, words, limit)


@pytest.mark.integration
def test_fresh_read_past_the_deadline_serves_the_snapshot(memory):
    _store(memory)
    slow = _SlowFresh(memory.store)
    server = _server(memory, "thread", store=slow)
    try:
        server.refresh()
        text, partner = "the standup with Minjun is at", "Minjun Kim"
        snap = server.block(BlockRequest(text, partner, NOW))
        fresh = server.block(
            BlockRequest(text, partner, NOW, BlockOptions(fresh=True, deadline_ms=20))
        )
        assert slow.calls == 1  # the fresh read was started
        assert fresh.fell_back and fresh.served == "snapshot"
        assert fresh.text == snap.text and "10:15" in fresh.text
        assert fresh.abstained == snap.abstained
        assert fresh.latency_ms < 1000  # it did not wait for the 2 s read
    finally:
        slow.release.set()
        server.close()


@pytest.mark.integration
def test_fresh_read_within_the_deadline_serves_fresh(memory):
    _store(memory)
    server = _server(memory, "thread")
    try:
        server.refresh()
        b = server.block(
            BlockRequest(
                "the standup with Minjun is at",
                "Minjun Kim",
                NOW,
                BlockOptions(fresh=True, deadline_ms=5000),
            )
        )
        assert b.served == "fresh" and not b.fell_back
        assert "10:15" in b.text and "9:30" not in b.text
    finally:
        server.close()


def test_opening_a_namespace_removes_a_dead_builders_snapshot(connect, namespace) -> None:
    """A snapshot folder a killed process left in /dev/shm (record text, maybe erased
    since) goes when the next Memory opens, not when some later build starts."""
    from pathlib import Path

    from graphmem.reads.blocks.child import ram_folder_available

    if not ram_folder_available():
        pytest.skip("no /dev/shm here")
    pid = 2**22 + 17  # above Linux's default pid_max: no live process has it
    folder = Path(f"/dev/shm/graphmem-snapshot-{pid}-test")
    folder.mkdir()
    (folder / "record.text.npy").write_text("an erased secret")
    connect(namespace)
    assert not folder.exists()


# -- the partner's namesakes: ties walked from the partner ----------------------------------
_GIVEN = ["Minjun", "Sarah"]
person = st.tuples(st.sampled_from(_GIVEN), st.integers(0, 5)).map(lambda t: f"{t[0]} Park{t[1]}")


@st.composite
def tie_world(draw):
    rows = []
    for pos in range(draw(st.integers(1, 14))):
        parts = tuple(dict.fromkeys(draw(st.lists(person, min_size=1, max_size=3))))
        subject = draw(person)
        rows.append(
            ActiveRecord(
                pos, f"r{pos}", "a message", "2026-03-01", parts, parts[0], ((subject, "x", "y"),)
            )
        )
    return rows, draw(person)


@PROPS
@given(tie_world())
def test_the_partners_ties_among_namesakes_match_a_walk_over_every_namesake(world):
    """The partner's tied namesakes are found from the partner's ties (a few), not by
    looking up each of a thousand namesakes; the answer is the same."""
    from graphmem.domain.keys import normalize_name
    from graphmem.reads.blocks import gates
    from graphmem.reads.blocks.index import BlockSnapshot

    rows, partner = world
    snap = BlockSnapshot.build(rows, {})
    for namesakes in snap.people.values():
        as_stored = snap.stored_name.get(normalize_name(partner))
        if as_stored not in namesakes:
            continue
        # The reference: every namesake but the partner, looked up in the partner's ties.
        ties = snap.comention.get(normalize_name(partner), {})
        tied = {e: ties.get(normalize_name(e), 0.0) for e in namesakes if e != as_stored}
        tied = {e: w for e, w in tied.items() if w > 0}
        if not tied:
            want = [as_stored]
        else:
            ranked = sorted(tied.values(), reverse=True)
            if len(ranked) == 1 or ranked[0] >= gates.OTHER_TIE_LEAD * ranked[1]:
                want = [max(tied, key=tied.__getitem__)]
            else:
                want = list(tied)
        assert gates._partner_or_theirs(as_stored, list(namesakes), partner, snap) == want
