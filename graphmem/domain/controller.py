"""The operation state machine (P-Mem table 2) as a deterministic controller.

``Controller.apply`` relates one new fact to its key's versions and mutates the
``KeyState`` in place, recording every change in a ``Plan`` that a store writes in one
transaction. An optional annotator may propose an op; post-checks turn impossible
proposals into NOOP.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Protocol

from graphmem.domain.keys import RelationRegistry, make_key, normalize_name
from graphmem.domain.model import Fact, Intent, OpKind, Status, VersionState

__all__ = [
    "Annotator",
    "Controller",
    "FactContext",
    "KeyState",
    "OperationRecord",
    "Plan",
    "check_invariants",
]


def stable_id(prefix: str, *parts: object) -> str:
    """Deterministic ids: re-applying the same record yields the same nodes."""
    h = hashlib.sha256("\x1f".join(map(str, parts)).encode()).hexdigest()[:24]
    return f"{prefix}-{h}"


@dataclass(frozen=True)
class FactContext:
    """Where a fact came from: its record and that record's time and authority."""

    record_uid: str
    pos: int
    fact_index: int = 0
    observed_at: str | None = None
    stated_at: str | None = None
    authority: int = 1
    source: str | None = None


@dataclass
class KeyState:
    """All versions of one key (the head and its history)."""

    key: str
    versions: dict[str, VersionState] = field(default_factory=dict)

    def head(self) -> VersionState | None:
        heads = [v for v in self.versions.values() if v.is_head]
        return heads[0] if heads else None

    def alternatives(self) -> list[VersionState]:
        head = self.head()
        if head is None:
            return []
        return [
            v
            for v in self.versions.values()
            if v.alternative_of == head.uid and v.status is Status.CONTESTED and not v.is_head
        ]


@dataclass
class OperationRecord:
    uid: str
    kind: OpKind
    key: str
    pos: int
    at: str | None
    record_uid: str
    applied_to: list[str]
    fact: dict[str, object]
    note: str = ""


@dataclass
class Plan:
    """Everything one batch changes; the store writes it in one transaction."""

    new_versions: dict[str, VersionState] = field(default_factory=dict)
    changed_versions: dict[str, VersionState] = field(default_factory=dict)
    supersedes: list[tuple[str, str]] = field(default_factory=list)
    alternatives: list[tuple[str, str]] = field(default_factory=list)
    supports: list[tuple[str, str]] = field(default_factory=list)
    tombstones: list[dict[str, object]] = field(default_factory=list)
    operations: list[OperationRecord] = field(default_factory=list)
    discarded: list[str] = field(default_factory=list)  # ablation only (no preservation)

    def touch(self, v: VersionState) -> None:
        if v.uid not in self.new_versions:
            self.changed_versions[v.uid] = v

    def op_counts(self) -> dict[str, int]:
        counts: dict[str, int] = {}
        for op in self.operations:
            counts[str(op.kind)] = counts.get(str(op.kind), 0) + 1
        return counts


class Annotator(Protocol):
    """Proposes an op for a fact (e.g. an LLM); the controller post-checks it."""

    def propose(self, fact: Fact, state: KeyState) -> OpKind | None: ...


def before(a: tuple[str, int], b: tuple[str, int]) -> bool:
    """Whether ``a`` comes strictly before ``b`` in supersession order, each a version's
    ``order`` (stated time or "", position): by stated time when both state one and they
    differ, else by position, the store's order of records (the rule the
    ``supersedes_forward`` audit checks)."""
    if a[0] and b[0] and a[0] != b[0]:
        return a[0] < b[0]
    return a[1] < b[1]


def _older(ctx: FactContext, newest: VersionState) -> bool:
    """A late fact: it comes before the key's newest version, so however its record was
    batched it cannot replace that version (it goes into history instead)."""
    return before((ctx.stated_at or "", ctx.pos), newest.order)


class Controller:
    """Relates each new fact to its key's head and picks one of the six operations."""

    def __init__(
        self,
        registry: RelationRegistry | None = None,
        *,
        namespace: str = "default",
        preserve_history: bool = True,
        annotator: Annotator | None = None,
    ) -> None:
        self.registry = registry or RelationRegistry()
        self.namespace = namespace
        self.preserve_history = preserve_history
        self.annotator = annotator

    # -- keys -------------------------------------------------------------------
    def key_for(self, fact: Fact) -> tuple[str, str]:
        """(key, aligned relation); set-valued relations key each member separately."""
        relation = self.registry.align(fact.relation)
        member = fact.value if self.registry.is_set_valued(relation) and fact.value else None
        return make_key(fact.subject, relation, member), relation

    # -- the state machine ------------------------------------------------------------
    def apply(self, state: KeyState, fact: Fact, ctx: FactContext, plan: Plan) -> OperationRecord:
        relation = self.registry.align(fact.relation)
        head = state.head()
        kind, note = self._decide(state, fact, ctx, head)
        if self.annotator is not None:
            proposed = self.annotator.propose(fact, state)
            if proposed is not None:
                kind, note = self._post_check(proposed, state, fact, head, kind)
        applied: list[str] = []
        at = ctx.observed_at
        if kind is OpKind.NOOP:
            target = self._same_value(state, fact.value) if fact.value else None
            if target is not None and ctx.record_uid not in target.evidence:
                target.evidence.append(ctx.record_uid)
                plan.supports.append((target.uid, ctx.record_uid))
                if target.is_head and ctx.pos > target.order[1]:
                    # Said again later: the head stands as of that record, so a late
                    # record between the two cannot replace it (as in position order).
                    # Its ``pos`` stays the first saying: a value revoked back to keeps
                    # the edges that once replaced it pointing backwards.
                    target.order = (target.order[0], ctx.pos)
                plan.touch(target)
                applied.append(target.uid)
        elif kind is OpKind.REVOKE:
            assert head is not None
            applied += self._revoke(state, head, ctx, plan)
        elif kind is OpKind.RESOLVE:
            assert head is not None
            applied += self._resolve(state, head, fact, relation, ctx, plan)
        else:
            new = self._new_version(state, fact, relation, ctx, plan)
            applied.append(new.uid)
            if kind is OpKind.CONTEST:
                assert head is not None
                head.status = Status.CONTESTED
                new.status = Status.CONTESTED
                new.tx_to = None
                new.alternative_of = head.uid
                plan.alternatives.append((new.uid, head.uid))
                plan.touch(head)
                applied.append(head.uid)
            elif note == "history":
                # A late, older value: kept in history, never the head.
                newest = head or max(
                    (v for v in state.versions.values() if v is not new), key=lambda v: v.order
                )
                self._slot_into_history(state, newest, new, plan)
            else:
                new.is_head = True
                new.status = Status.ACTIVE
                if head is not None:
                    applied.append(head.uid)
                    displaced = [head, *state.alternatives()]
                    for old in displaced:
                        old.is_head = False
                        old.status = (
                            Status.CONTRADICTED if kind is OpKind.REJECT else Status.SUPERSEDED
                        )
                        old.valid_to = new.valid_from or at
                        old.tx_to = at
                        plan.touch(old)
                    new.supersedes.append(head.uid)
                    plan.supersedes.append((new.uid, head.uid))
                    if not self.preserve_history:
                        for old in displaced:
                            self._discard(state, old, plan)
        op = OperationRecord(
            uid=stable_id("o", self.namespace, ctx.record_uid, ctx.fact_index),
            kind=kind,
            key=state.key,
            pos=ctx.pos,
            at=at,
            record_uid=ctx.record_uid,
            applied_to=applied,
            fact={
                "subject": fact.subject,
                "relation": relation,
                "value": fact.value,
                "intent": str(fact.intent),
                "authority": ctx.authority,
                "source": ctx.source,
                "stated_at": ctx.stated_at,
            },
            note=note,
        )
        plan.operations.append(op)
        return op

    def _same_value(self, state: KeyState, value: str) -> VersionState | None:
        head = state.head()
        if head is None:
            return None
        norm = normalize_name(value)
        for v in [head, *state.alternatives()]:
            if normalize_name(v.value) == norm:
                return v
        return None

    def _decide(
        self, state: KeyState, fact: Fact, ctx: FactContext, head: VersionState | None
    ) -> tuple[OpKind, str]:
        intent = fact.intent
        if intent is Intent.REVOKE:
            if head is None:
                return OpKind.NOOP, "revoke: the key has no head"
            if fact.value and normalize_name(fact.value) != normalize_name(head.value):
                return OpKind.NOOP, "revoke: the named value is not the head"
            if _older(ctx, head):
                return OpKind.NOOP, "revoke: older than the head"
            return OpKind.REVOKE, ""
        if head is None:
            newest = max(state.versions.values(), key=lambda v: v.order, default=None)
            if newest is not None and _older(ctx, newest):
                return OpKind.ACCEPT, "history"
            return OpKind.ACCEPT, "new key"
        if self._same_value(state, fact.value) is not None:
            if intent is Intent.CONFIRM and head.status is Status.CONTESTED:
                return OpKind.RESOLVE, ""
            return OpKind.NOOP, "same value"
        if _older(ctx, head):
            # Stated or sent before the head (a late record, however it was batched), so
            # it cannot replace or settle it: history, which a new head would wrongly
            # supersede forward in time.
            return OpKind.ACCEPT, "history"
        if intent is Intent.CONFIRM and head.status is Status.CONTESTED:
            return OpKind.RESOLVE, "confirmed a value no source had given"
        if ctx.authority < head.authority:
            return OpKind.CONTEST, "lower authority than the head"
        if ctx.authority > head.authority:
            kind = OpKind.REJECT if intent is Intent.CORRECT else OpKind.ACCEPT
            return kind, "higher authority"
        if intent is Intent.CORRECT:
            return OpKind.REJECT, ""
        if (
            intent is Intent.ASSERT
            and ctx.source is not None
            and head.source is not None
            and ctx.source != head.source
        ):
            return OpKind.CONTEST, "two sources disagree"
        return OpKind.ACCEPT, ""

    def _post_check(
        self,
        proposed: OpKind,
        state: KeyState,
        fact: Fact,
        head: VersionState | None,
        fallback: OpKind,
    ) -> tuple[OpKind, str]:
        """An annotator's proposal must be possible in the key's state, else NOOP."""
        ok = {
            OpKind.CONTEST: head is not None
            and head.status is Status.ACTIVE
            and self._same_value(state, fact.value) is None,
            OpKind.RESOLVE: head is not None and head.status is Status.CONTESTED,
            OpKind.REVOKE: head is not None,
            OpKind.REJECT: head is not None and self._same_value(state, fact.value) is None,
            OpKind.ACCEPT: self._same_value(state, fact.value) is None,
            OpKind.NOOP: True,
        }[proposed]
        if ok:
            return proposed, "annotator"
        return OpKind.NOOP, f"annotator proposed {proposed}, impossible here (was {fallback})"

    # -- version bookkeeping --------------------------------------------------------
    def _new_version(
        self, state: KeyState, fact: Fact, relation: str, ctx: FactContext, plan: Plan
    ) -> VersionState:
        valid_from = ctx.stated_at or ctx.observed_at
        v = VersionState(
            uid=stable_id("v", self.namespace, ctx.record_uid, ctx.fact_index),
            key=state.key,
            subject=fact.subject,
            relation=relation,
            value=fact.value,
            status=Status.SUPERSEDED,
            pos=ctx.pos,
            order=(ctx.stated_at or "", ctx.pos),
            authority=ctx.authority,
            source=ctx.source,
            valid_from=valid_from,
            tx_from=ctx.observed_at,
            evidence=[ctx.record_uid],
        )
        state.versions[v.uid] = v
        plan.new_versions[v.uid] = v
        plan.supports.append((v.uid, ctx.record_uid))
        return v

    def _slot_into_history(
        self, state: KeyState, head: VersionState, new: VersionState, plan: Plan
    ) -> None:
        succ, cur = head, self._predecessor(state, head)
        while cur is not None and before(new.order, cur.order):
            succ, cur = cur, self._predecessor(state, cur)
        new.status = Status.SUPERSEDED
        new.valid_to = succ.valid_from
        succ.supersedes.append(new.uid)
        plan.supersedes.append((succ.uid, new.uid))
        plan.touch(succ)
        if cur is not None:
            new.supersedes.append(cur.uid)
            plan.supersedes.append((new.uid, cur.uid))

    def _predecessor(self, state: KeyState, v: VersionState) -> VersionState | None:
        """The newest version ``v`` replaced that still exists."""
        preds = [state.versions[u] for u in v.supersedes if u in state.versions]
        return max(preds, key=lambda p: p.order, default=None)

    def _revoke(
        self, state: KeyState, head: VersionState, ctx: FactContext, plan: Plan
    ) -> list[str]:
        alternatives = state.alternatives()
        head.is_head = False
        head.status = Status.REVOKED
        head.valid_to = ctx.observed_at
        head.tx_to = ctx.observed_at
        plan.touch(head)
        plan.tombstones.append(
            {
                "uid": stable_id("t", self.namespace, ctx.record_uid, ctx.fact_index),
                "version": head.uid,
                "at": ctx.observed_at,
                "reason": "revoked",
                "pos": ctx.pos,
            }
        )
        restored = self._restore_head(state, head, alternatives, plan)
        return [head.uid] + ([restored.uid] if restored is not None else [])

    def _restore_head(
        self, state: KeyState, gone: VersionState, alternatives: list[VersionState], plan: Plan
    ) -> VersionState | None:
        """The head after ``gone`` stops being it: the newest open alternative (still
        contested if others remain), else the newest predecessor that was not revoked."""
        restored: VersionState | None
        if alternatives:
            restored = max(alternatives, key=lambda a: a.order)
            others = [a for a in alternatives if a is not restored]
            restored.status = Status.CONTESTED if others else Status.ACTIVE
            restored.alternative_of = None
            for a in others:
                a.alternative_of = restored.uid
                plan.touch(a)
        else:
            restored = self._predecessor(state, gone)
            while restored is not None and restored.status is Status.REVOKED:
                restored = self._predecessor(state, restored)
            if restored is not None:
                restored.status = Status.ACTIVE
        if restored is not None:
            restored.is_head = True
            restored.valid_to = None
            restored.tx_to = None
            plan.touch(restored)
        return restored

    def _resolve(
        self,
        state: KeyState,
        head: VersionState,
        fact: Fact,
        relation: str,
        ctx: FactContext,
        plan: Plan,
    ) -> list[str]:
        candidates = [head, *state.alternatives()]
        chosen = self._same_value(state, fact.value)
        if chosen is None:
            chosen = self._new_version(state, fact, relation, ctx, plan)
        elif ctx.record_uid not in chosen.evidence:
            chosen.evidence.append(ctx.record_uid)
            plan.supports.append((chosen.uid, ctx.record_uid))
        for v in candidates:
            if v is chosen:
                continue
            v.is_head = False
            v.status = Status.CONTRADICTED
            v.valid_to = ctx.observed_at
            v.tx_to = ctx.observed_at
            plan.touch(v)
        if chosen is not head and head.uid not in chosen.supersedes:
            # The confirmed value replaces the old head: why() shows what it contradicted,
            # and revoking the resolution walks back to it.
            chosen.supersedes.append(head.uid)
            plan.supersedes.append((chosen.uid, head.uid))
        chosen.is_head = True
        chosen.status = Status.ACTIVE
        chosen.alternative_of = None
        chosen.valid_to = None
        chosen.tx_to = None
        plan.touch(chosen)
        return [v.uid for v in candidates] + ([chosen.uid] if chosen not in candidates else [])

    def _discard(self, state: KeyState, v: VersionState, plan: Plan) -> None:
        """Ablation: forget a displaced value (CRUD overwrite). Breaks append-only on purpose."""
        state.versions.pop(v.uid, None)
        plan.new_versions.pop(v.uid, None)
        plan.changed_versions.pop(v.uid, None)
        plan.discarded.append(v.uid)
        for s in state.versions.values():
            if v.uid in s.supersedes:
                s.supersedes.remove(v.uid)
        plan.supersedes = [(a, b) for a, b in plan.supersedes if v.uid not in (a, b)]
        plan.supports = [(a, b) for a, b in plan.supports if a != v.uid]

    # -- erase ---------------------------------------------------------------------------
    def erase_versions(self, state: KeyState, doomed: set[str], plan: Plan) -> None:
        """Remove versions (their only evidence was erased) and re-materialize the head."""
        if not doomed & state.versions.keys():
            return
        old_head = state.head()
        for uid in doomed & state.versions.keys():
            v = state.versions.pop(uid)
            preds = list(v.supersedes)
            for s in state.versions.values():
                if uid in s.supersedes:
                    # Keep the chain connected around the erased version.
                    s.supersedes.remove(uid)
                    for p in preds:
                        if p not in s.supersedes and p in state.versions:
                            s.supersedes.append(p)
                            plan.supersedes.append((s.uid, p))
                    plan.touch(s)
                if s.alternative_of == uid:
                    s.alternative_of = None
                    plan.touch(s)
        if old_head is not None and old_head.uid in doomed:
            alts = [
                v for v in state.versions.values() if v.status is Status.CONTESTED and not v.is_head
            ]
            self._restore_head(state, old_head, alts, plan)
        elif (
            old_head is not None
            and old_head.status is Status.CONTESTED
            and not state.alternatives()
        ):
            old_head.status = Status.ACTIVE
            plan.touch(old_head)


def check_invariants(state: KeyState) -> list[str]:
    """Violations of the per-key invariants (empty when all hold)."""
    problems = []
    heads = [v for v in state.versions.values() if v.is_head]
    if len(heads) > 1:
        problems.append(f"{state.key}: {len(heads)} heads")
    for h in heads:
        if h.status not in (Status.ACTIVE, Status.CONTESTED):
            problems.append(f"{state.key}: head {h.uid} has status {h.status}")
    for v in state.versions.values():
        if not v.evidence:
            problems.append(f"{v.uid}: no evidence")
    # SUPERSEDES acyclic and pointing backwards (in supersession order).
    for v in state.versions.values():
        for u in v.supersedes:
            p = state.versions.get(u)
            if p is not None and not (p.order < v.order or p.pos < v.pos):
                problems.append(f"{v.uid} supersedes newer {u}")
    return problems
