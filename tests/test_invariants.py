"""Property tests over random op sequences, against the real Neo4j.

Invariants: at most one head per key in every committed state; nothing is deleted;
SUPERSEDES is acyclic and points backwards; every version has evidence; k revokes walk
back exactly k versions.
"""

from __future__ import annotations

import uuid

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from graphmem import ConflictError, Fact, Memory, Record

pytestmark = pytest.mark.integration

KEYS = ["alpha", "beta"]
VALUES = ["red", "green", "blue", "black"]

say_step = st.tuples(
    st.just("say"),
    st.sampled_from(KEYS),
    st.sampled_from(VALUES),
    st.sampled_from(["assert", "update", "correct", "confirm"]),
    st.sampled_from([None, "ann", "bob"]),
    st.sampled_from(["hearsay", "first_person", "official"]),
    st.one_of(st.none(), st.dates().map(str)),
)
step = st.one_of(
    say_step,
    st.tuples(st.just("revoke"), st.sampled_from(KEYS)),
    st.tuples(st.just("resolve"), st.sampled_from(KEYS), st.sampled_from(VALUES)),
)
SETTINGS = settings(
    max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


def _ids(mem: Memory, label: str) -> set[str]:
    rows = mem.store.driver.execute_query(
        f"MATCH (n:{label} {{ns: $ns}}) RETURN n.uid AS uid", ns=mem.namespace
    ).records
    return {r["uid"] for r in rows}


def _check(mem: Memory) -> None:
    for name in (
        "two_heads",
        "versions_without_evidence",
        "supersedes_cycles",
        "supersedes_forward",
        "status_labels",
    ):
        assert mem.audit(name) == [], name


@SETTINGS
@given(steps=st.lists(step, min_size=1, max_size=12))
def test_random_sequences_one_at_a_time(neo4j_server, steps):
    mem = Memory.connect(
        neo4j_server.bolt_url,
        f"p-{uuid.uuid4().hex[:10]}",
        neo4j_auth=neo4j_server.auth,
        install_schema=False,
    )
    seen: dict[str, set[str]] = {"Version": set(), "Evidence": set(), "Operation": set()}
    try:
        for s in steps:
            try:
                if s[0] == "say":
                    _, key, value, intent, source, authority, stated = s
                    mem.remember(
                        key,
                        "colour",
                        value,
                        intent=intent,
                        speaker=source,
                        authority=authority,
                        stated_at=stated,
                    )
                elif s[0] == "revoke":
                    mem.revoke(s[1], "colour")
                else:
                    mem.resolve(s[1], "colour", s[2])
            except ConflictError:
                pass  # revoke with no head / resolve without contest: typed, nothing written
            _check(mem)
            for label, before in seen.items():
                now = _ids(mem, label)
                assert before <= now, f"{label} deleted"
                seen[label] = now
    finally:
        mem.close()


@SETTINGS
@given(steps=st.lists(say_step, min_size=1, max_size=20))
def test_random_sequences_in_one_batch_match_one_at_a_time(neo4j_server, steps):
    """Batched ingest (one transaction) ends in the same heads as one write per fact."""
    batched = Memory.connect(
        neo4j_server.bolt_url,
        f"b-{uuid.uuid4().hex[:10]}",
        neo4j_auth=neo4j_server.auth,
        install_schema=False,
    )
    single = Memory.connect(
        neo4j_server.bolt_url,
        f"s-{uuid.uuid4().hex[:10]}",
        neo4j_auth=neo4j_server.auth,
        install_schema=False,
    )
    try:
        records = [
            Record(
                f"{key} is {value}",
                id=f"r{i}",
                pos=i,
                speaker=source,
                authority=authority,
                stated_at=stated,
                observed_at="2026-01-01",
                facts=(Fact(key, "colour", value, intent),),
            )
            for i, (_, key, value, intent, source, authority, stated) in enumerate(steps)
        ]
        batched.ingest(records)
        for r in records:
            single.ingest([r])
        _check(batched)
        strip = lambda rows: [(r["key"], r["value"], r["status"]) for r in rows]  # noqa: E731
        assert strip(batched.audit("heads")) == strip(single.audit("heads"))
    finally:
        batched.close()
        single.close()


@SETTINGS
@given(n=st.integers(1, 6), data=st.data())
def test_k_revokes_walk_back_k_versions(neo4j_server, n, data):
    k = data.draw(st.integers(1, n))
    mem = Memory.connect(
        neo4j_server.bolt_url,
        f"k-{uuid.uuid4().hex[:10]}",
        neo4j_auth=neo4j_server.auth,
        install_schema=False,
    )
    try:
        values = [f"v{i}" for i in range(n)]
        for v in values:
            mem.remember("obj", "place", v, intent="update")
        for _ in range(k):
            mem.revoke("obj", "place")
        expected = values[n - k - 1] if k < n else None
        assert mem.why("obj", "place").value == expected
        _check(mem)
    finally:
        mem.close()


@SETTINGS
@given(
    steps=st.lists(
        st.tuples(
            st.sampled_from(KEYS), st.sampled_from(VALUES), st.sampled_from(["assert", "update"])
        ),
        min_size=1,
        max_size=14,
    ),
    data=st.data(),
)
def test_any_split_and_arrival_order_ends_in_the_same_values(neo4j_server, steps, data):
    """Order is the store's (the records' positions), not the batches': records sent in
    any split, in any order across requests, end in the heads one batch in position order
    gives, and the supersedes audit stays empty (a late record goes into history)."""
    records = [
        Record(
            f"{key} is {value}",
            id=f"r{i}",
            pos=10 * (i + 1),
            observed_at="2026-01-01",
            facts=(Fact(key, "colour", value, intent),),
        )
        for i, (key, value, intent) in enumerate(steps)
    ]
    arrival = data.draw(st.permutations(records))
    cuts = sorted(data.draw(st.sets(st.integers(1, max(1, len(records) - 1)), max_size=4)))
    requests = [
        arrival[a:b] for a, b in zip([0, *cuts], [*cuts, len(arrival)], strict=True) if arrival[a:b]
    ]
    whole = Memory.connect(
        neo4j_server.bolt_url,
        f"w-{uuid.uuid4().hex[:10]}",
        neo4j_auth=neo4j_server.auth,
        install_schema=False,
    )
    split = Memory.connect(
        neo4j_server.bolt_url,
        f"x-{uuid.uuid4().hex[:10]}",
        neo4j_auth=neo4j_server.auth,
        install_schema=False,
    )
    try:
        whole.ingest(records)
        for request in requests:
            split.ingest(request)
        _check(split)
        _check(whole)
        strip = lambda rows: sorted((r["key"], r["value"], r["status"]) for r in rows)  # noqa: E731
        assert strip(split.audit("heads")) == strip(whole.audit("heads"))
    finally:
        whole.close()
        split.close()


def test_a_value_revoked_back_to_and_said_again_keeps_edges_backwards(connect, namespace):
    """Found by the random sequences: red, red, green, revoke (back to red), red again.
    Said again, red stands as of the last saying, and green's edge to red still points
    back to red's first saying."""
    mem = connect(namespace)
    for i, value in enumerate(("red", "red", "green")):
        mem.remember("alpha", "colour", value, record_id=f"s{i}")
    mem.revoke("alpha", "colour")
    mem.remember("alpha", "colour", "red", authority="first_person", record_id="s3")
    _check(mem)
    assert mem.why("alpha", "colour").value == "red"
