"""The op state machine on plain data: no database involved."""

from __future__ import annotations

import itertools

from graphmem import Fact, Intent, OpKind, RelationRegistry, Status
from graphmem.domain.controller import Controller, FactContext, KeyState, Plan, check_invariants

_pos = itertools.count()


class Harness:
    def __init__(self, preserve: bool = True, registry: RelationRegistry | None = None):
        self.c = Controller(registry, preserve_history=preserve)
        self.states: dict[str, KeyState] = {}

    def say(
        self,
        value,
        intent=Intent.ASSERT,
        *,
        source=None,
        authority=1,
        stated=None,
        subject="key",
        relation="location",
    ):
        pos = next(_pos)
        fact = Fact(subject, relation, value, intent)
        key, _ = self.c.key_for(fact)
        state = self.states.setdefault(key, KeyState(key))
        ctx = FactContext(
            f"r{pos}", pos, 0, f"2026-01-01T00:00:{pos % 60:02d}", stated, authority, source
        )
        op = self.c.apply(state, fact, ctx, Plan())
        assert check_invariants(state) == []
        return op.kind, state

    def head(self, subject="key", relation="location"):
        key, _ = self.c.key_for(Fact(subject, relation, "x"))
        h = self.states[key].head()
        return (h.value, h.status) if h else None


def test_accept_supersedes():
    h = Harness()
    assert h.say("drawer")[0] is OpKind.ACCEPT
    kind, state = h.say("shelf", Intent.UPDATE)
    assert kind is OpKind.ACCEPT
    assert h.head() == ("shelf", Status.ACTIVE)
    assert sorted(v.status for v in state.versions.values()) == [Status.ACTIVE, Status.SUPERSEDED]


def test_reject_contradicts():
    h = Harness()
    h.say("27:12")
    kind, state = h.say("28:12", Intent.CORRECT)
    assert kind is OpKind.REJECT
    assert {v.value: v.status for v in state.versions.values()} == {
        "27:12": Status.CONTRADICTED,
        "28:12": Status.ACTIVE,
    }


def test_noop_adds_evidence_only():
    h = Harness()
    h.say("drawer")
    kind, state = h.say("Drawer")
    assert kind is OpKind.NOOP
    assert len(state.versions) == 1
    assert len(state.head().evidence) == 2


def test_contest_then_resolve():
    h = Harness()
    h.say("drawer", source="minsu")
    kind, state = h.say("shelf", source="jiyoung")
    assert kind is OpKind.CONTEST
    assert h.head() == ("drawer", Status.CONTESTED)
    assert [a.value for a in state.alternatives()] == ["shelf"]
    kind, state = h.say("shelf", Intent.CONFIRM)
    assert kind is OpKind.RESOLVE
    assert h.head() == ("shelf", Status.ACTIVE)
    assert {v.value: v.status for v in state.versions.values()}["drawer"] is Status.CONTRADICTED


def test_a_confirmation_stated_before_the_contest_does_not_settle_it():
    """A new value confirmed with a stated time before the contested head is history:
    made the head, it would supersede a value stated after it."""
    h = Harness()
    h.say("drawer", source="minsu", stated="2000-01-01")
    h.say("shelf", source="jiyoung")
    assert h.head() == ("drawer", Status.CONTESTED)
    kind, state = h.say("desk", Intent.CONFIRM, stated="1999-01-01")
    assert kind is OpKind.ACCEPT
    assert h.head() == ("drawer", Status.CONTESTED)
    assert not state.versions[
        next(u for u, v in state.versions.items() if v.value == "desk")
    ].is_head


def test_resolve_without_contest_is_not_a_resolve():
    h = Harness()
    h.say("drawer")
    kind, _ = h.say("drawer", Intent.CONFIRM)
    assert kind is OpKind.NOOP


def test_k_revokes_walk_back_k_versions():
    h = Harness()
    for v in ["a", "b", "c", "d"]:
        h.say(v, Intent.UPDATE)
    assert h.say("", Intent.REVOKE)[0] is OpKind.REVOKE
    assert h.head()[0] == "c"
    h.say("", Intent.REVOKE)
    assert h.head()[0] == "b"
    h.say("", Intent.REVOKE)
    h.say("", Intent.REVOKE)
    assert h.head() is None
    assert h.say("", Intent.REVOKE)[0] is OpKind.NOOP  # nothing left to revoke


def test_revoke_without_preservation_restores_nothing():
    h = Harness(preserve=False)
    h.say("v1")
    h.say("v2", Intent.UPDATE)
    kind, state = h.say("", Intent.REVOKE)
    assert kind is OpKind.REVOKE
    assert h.head() is None
    assert [v.value for v in state.versions.values()] == ["v2"]


def test_lower_authority_contests_higher_head():
    h = Harness()
    h.say("10M", authority=2)
    kind, _ = h.say("50M", Intent.UPDATE, authority=0)
    assert kind is OpKind.CONTEST
    assert h.head() == ("10M", Status.CONTESTED)
    kind, _ = h.say("12M", Intent.UPDATE, authority=2)
    assert kind is OpKind.ACCEPT
    assert h.head() == ("12M", Status.ACTIVE)


def test_late_older_value_goes_to_history():
    h = Harness()
    h.say("room B", stated="2026-05-01T00:00:00+00:00")
    kind, state = h.say("room A", stated="2026-04-01T00:00:00+00:00")
    assert kind is OpKind.ACCEPT
    assert h.head() == ("room B", Status.ACTIVE)
    old = next(v for v in state.versions.values() if v.value == "room A")
    assert old.status is Status.SUPERSEDED
    assert old.uid in state.head().supersedes


def test_set_valued_relation_adds_members():
    reg = RelationRegistry()
    reg.declare("hobby", "many")
    h = Harness(registry=reg)
    assert h.say("chess", relation="hobby")[0] is OpKind.ACCEPT
    assert h.say("go", relation="hobby")[0] is OpKind.ACCEPT
    assert h.say("chess", Intent.REVOKE, relation="hobby")[0] is OpKind.REVOKE
    members = {k: s.head() for k, s in h.states.items()}
    assert sorted(v.value for v in members.values() if v) == ["go"]


class ProposesResolve:
    def propose(self, fact, state):
        return OpKind.RESOLVE


def test_annotator_impossible_proposal_falls_back_to_noop():
    h = Harness()
    h.say("drawer")
    h.c.annotator = ProposesResolve()
    kind, _ = h.say("shelf", Intent.UPDATE)
    assert kind is OpKind.NOOP
    assert h.head() == ("drawer", Status.ACTIVE)
