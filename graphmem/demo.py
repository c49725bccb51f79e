"""The README's first command: a short story told to a real Neo4j, with ``why`` at each step."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

from graphmem.memory import Memory
from graphmem.results import WriteResult


def run_demo(mem: Memory, echo: Callable[[str], None] = print) -> None:
    subject, relation = "Minjun", "5k personal best"

    def step(title: str, result: WriteResult) -> None:
        why = mem.why(subject, relation)
        echo(f"\n== {title}")
        echo(f"   op: {result.op}   now: {why.value!r} ({why.status})")
        echo(f"   why: {why.text()}")

    echo(f"graphmem demo — namespace {mem.namespace!r}")
    step(
        "Minjun tells us his 5k time (first person)",
        mem.remember(
            subject,
            relation,
            "27:12",
            text="내 5k 기록은 27:12야",
            speaker="Minjun",
            stated_at="2026-03-12",
        ),
    )
    step(
        "He beats it: the value changes (ACCEPT supersedes the old one)",
        mem.remember(
            subject,
            relation,
            "25:50",
            text="PB 깼다 25:50!",
            speaker="Minjun",
            stated_at="2026-07-03",
            intent="update",
        ),
    )
    step(
        "That update was a mistake: REVOKE walks back to the previous value",
        mem.revoke(subject, relation, text="아 25:50은 잘못 잰 거였어", speaker="Minjun"),
    )
    step(
        "A friend says otherwise (hearsay cannot overwrite first-person: CONTEST)",
        mem.remember(
            subject,
            relation,
            "26:40",
            text="Jiyoung: Minjun ran 26:40 last week",
            speaker="Jiyoung",
            authority="hearsay",
        ),
    )
    step(
        "The race results settle it (RESOLVE)",
        mem.resolve(
            subject, relation, "26:40", text="Official results: M. Kim 26:40", authority="official"
        ),
    )
    echo("\n== A moved meeting, in Korean and English")
    from graphmem.domain.model import Fact, Intent, Record

    mem.ingest(
        [
            Record(
                "주간 회의는 A회의실에서 해요.",
                id="demo-1",
                speaker="지영",
                participants=("김민준",),
                facts=(Fact("주간 회의", "회의실", "A회의실"),),
            ),
            Record("A회의실 is on floor 2.", id="demo-2", facts=(Fact("A회의실", "floor", "2"),)),
            Record("B회의실 is on floor 5.", id="demo-3", facts=(Fact("B회의실", "floor", "5"),)),
            Record(
                "주간 회의 moved to B회의실 (room A is being renovated).",
                id="demo-4",
                speaker="지영",
                participants=("김민준",),
                facts=(Fact("주간 회의", "회의실", "B회의실", Intent.UPDATE),),
            ),
        ]
    )
    question = "주간 회의는 몇 층이에요?"
    ev = mem.evidence(question)
    echo(f"   question: {question}")
    echo(f"   anchors: {ev.anchors}; selected keys: {ev.keys}")
    for r in ev.records:
        echo(f"   [{r.pos}] {r.text}")
    echo("   (the floor record never mentions the meeting; the update made it relevant,")
    echo("    and room A's floor is no longer handed over)")

    echo("\n== History (the op log, as stored in Neo4j)")
    for op in mem.history(subject, relation):
        echo(
            f"   {op['pos']:>2} {op['kind']:<8} {op['fact']['value'] or '-':<6} from {op['text']!r}"
        )
    audit = mem.audit("two_heads")
    echo(f"\nAudit 'keys with two heads': {len(audit)} (must be 0)")
    link = mem.why(subject, relation).browser_url
    if link:
        echo(f"Open the evidence in Neo4j Browser:\n   {link}")


def demo_namespace() -> str:
    return "demo-" + datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
