"""Extraction from chat, scored on the frozen held-out corpus (tests/fixtures/extraction).

The corpus was written by helpers that never saw the extractor: threads of chat
messages, each message with its gold facts (subject, relation meaning, canonical value,
intent, the value it closes) or none. Scoring is relation-name-agnostic:

- a predicted fact is **right** when its subject names the gold subject (the name or one
  of its forms, or a contiguous part of one), its value is the gold value (canonical, or
  as written), and its intent is of the gold's kind (a statement or change; a
  correction; a cancellation);
- **precision** = right predictions / predictions; **recall** = gold facts predicted;
- **closes the right value**: the predictions of each thread are applied, in order, by
  graphmem's own controller; for every gold change that names the value it replaces,
  the key the prediction landed on must have held exactly that value.

Threads are split: every third thread (index 0, 3, 6, …) is the *dev* split a developer
may read; the others are *held out*. Both are reported; targets are judged on all.
"""

from __future__ import annotations

import json
import re
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, fields
from datetime import datetime
from pathlib import Path
from typing import Any

from graphmem.domain.controller import Controller, FactContext, KeyState, Plan
from graphmem.domain.keys import normalize_name
from graphmem.domain.model import Fact, Intent, Record
from graphmem.extract.chat.extractor import ChatExtractor

__all__ = ["Score", "load", "markdown", "score_extractor"]

_INTENT_KIND = {"set": "state", "update": "state", "correct": "correct", "revoke": "revoke"}
_PRED_KIND = {
    Intent.ASSERT: "state",
    Intent.UPDATE: "state",
    Intent.CONFIRM: "state",
    Intent.CORRECT: "correct",
    Intent.REVOKE: "revoke",
}


def load(lang: str, fixtures: Path) -> list[dict[str, Any]]:
    """The threads of one language from the frozen corpus folder (``tests/fixtures/
    extraction`` in graphmem's source tree)."""
    path = fixtures / f"chat_{lang}.jsonl"
    if not path.is_file():
        raise FileNotFoundError(
            f"{path} is missing: the extraction corpus ships with graphmem's source tree "
            "(tests/fixtures/extraction); pass its folder"
        )
    return [
        json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()
    ]


def split_of(index: int) -> str:
    return "dev" if index % 3 == 0 else "held-out"


def _canon(value: str) -> str:
    v = value.casefold().strip()
    v = re.sub(r"^(?:room|rm\.?)\s*", "", v)
    return re.sub(r"[\s\-_.,'’/]", "", v)


def _tokens(name: str) -> list[str]:
    return normalize_name(name).split()


def _contiguous(part: list[str], whole: list[str]) -> bool:
    n = len(part)
    return n > 0 and any(whole[i : i + n] == part for i in range(len(whole) - n + 1))


def subject_matches(pred: str, gold: dict[str, Any]) -> bool:
    names = [gold["subject"], *gold.get("subject_forms", [])]
    p = _tokens(pred)
    for name in names:
        g = _tokens(name)
        if p == g or _contiguous(p, g) or _contiguous(g, p):
            return True
    return False


def value_matches(pred: Fact, gold: dict[str, Any]) -> bool:
    if gold["intent"] == "revoke":
        return pred.intent is Intent.REVOKE and (
            not pred.value
            or gold.get("previous") is None
            or _canon(pred.value) == _canon(str(gold["previous"]))
        )
    targets = {_canon(gold["value"]), *(_canon(f) for f in gold.get("value_forms", []))}
    return _canon(pred.value) in targets


def fact_matches(pred: Fact, gold: dict[str, Any]) -> bool:
    return (
        subject_matches(pred.subject, gold)
        and value_matches(pred, gold)
        and _PRED_KIND[pred.intent] == _INTENT_KIND[gold["intent"]]
    )


@dataclass
class Score:
    lang: str
    split: str
    messages: int = 0
    gold: int = 0
    predicted: int = 0
    right: int = 0
    exact_intent: int = 0
    changes_with_previous: int = 0
    changes_predicted: int = 0
    closes_right: int = 0
    no_fact_messages: int = 0
    no_fact_with_prediction: int = 0
    seconds: float = 0.0
    by_type: dict[str, list[int]] = field(default_factory=lambda: defaultdict(lambda: [0, 0]))
    by_intent: dict[str, list[int]] = field(default_factory=lambda: defaultdict(lambda: [0, 0]))
    by_tag: dict[str, list[int]] = field(default_factory=lambda: defaultdict(lambda: [0, 0]))
    false_by_reason: Counter[str] = field(default_factory=Counter)
    misses: list[dict[str, Any]] = field(default_factory=list)
    wrong: list[dict[str, Any]] = field(default_factory=list)

    @property
    def precision(self) -> float:
        return self.right / self.predicted if self.predicted else 1.0

    @property
    def recall(self) -> float:
        return self.right / self.gold if self.gold else 1.0

    @property
    def closes(self) -> float:
        return self.closes_right / self.changes_predicted if self.changes_predicted else 1.0

    def add(self, other: Score) -> None:
        for f in fields(self):  # every count and the time add up
            mine = getattr(self, f.name)
            if isinstance(mine, int | float):
                setattr(self, f.name, mine + getattr(other, f.name))
        for mine, theirs in (
            (self.by_type, other.by_type),
            (self.by_intent, other.by_intent),
            (self.by_tag, other.by_tag),
        ):
            for k, (a, b) in theirs.items():
                mine[k][0] += a
                mine[k][1] += b
        self.false_by_reason.update(other.false_by_reason)
        self.misses += other.misses
        self.wrong += other.wrong


def _offset_tz(iso: str) -> Any:
    return datetime.fromisoformat(iso).tzinfo


Factory = Callable[[dict[str, Any]], Any]


def chat_factory(thread: dict[str, Any]) -> ChatExtractor:
    """A chat extractor reading the thread in its own time zone (its messages' offset)."""
    return ChatExtractor(timezone=_offset_tz(thread["messages"][0]["time"]))


def thread_records(thread: dict[str, Any]) -> list[Record]:
    """The thread's messages as the records an agent would write, in order."""
    return [
        Record(
            m["text"],
            speaker=m["speaker"],
            participants=tuple(thread["participants"]),
            observed_at=m["time"],
            source=thread["id"],
            pos=pos,
        )
        for pos, m in enumerate(thread["messages"])
    ]


def score_thread(thread: dict[str, Any], index: int, factory: Factory = chat_factory) -> Score:
    sc = Score(thread["lang"], split_of(index))
    extractor = factory(thread)
    controller = Controller()
    states: dict[str, KeyState] = {}
    plan = Plan()
    for pos, (msg, record) in enumerate(
        zip(thread["messages"], thread_records(thread), strict=True)
    ):
        t0 = time.perf_counter()
        got = extractor.extract(record)
        sc.seconds += time.perf_counter() - t0
        preds = list(got.facts)
        golds = msg["facts"]
        sc.messages += 1
        sc.gold += len(golds)
        sc.predicted += len(preds)
        if not golds:
            sc.no_fact_messages += 1
            if preds:
                sc.no_fact_with_prediction += 1
                sc.false_by_reason[msg.get("no_fact_reason") or "other"] += 1
        used: set[int] = set()
        for g in golds:
            sc.by_type[g["value_type"]][1] += 1
            sc.by_intent[g["intent"]][1] += 1
            for tag in msg.get("tags", []):
                sc.by_tag[tag][1] += 1
            hit = next(
                (i for i, p in enumerate(preds) if i not in used and fact_matches(p, g)), None
            )
            if g["intent"] in ("update", "correct", "revoke") and g.get("previous"):
                sc.changes_with_previous += 1
            if hit is None:
                sc.misses.append(
                    {
                        "thread": thread["id"],
                        "split": sc.split,
                        "text": msg["text"],
                        "gold": f"{g['subject']} | {g['relation']} | {g['value']} | {g['intent']}",
                        "type": g["value_type"],
                        "intent": g["intent"],
                        "predicted": [_show(p) for p in preds],
                    }
                )
                continue
            used.add(hit)
            sc.right += 1
            sc.by_type[g["value_type"]][0] += 1
            sc.by_intent[g["intent"]][0] += 1
            for tag in msg.get("tags", []):
                sc.by_tag[tag][0] += 1
            pred = preds[hit]
            if (g["intent"], pred.intent) in (
                ("set", Intent.ASSERT),
                ("update", Intent.UPDATE),
                ("correct", Intent.CORRECT),
                ("revoke", Intent.REVOKE),
            ):
                sc.exact_intent += 1
            if g["intent"] in ("update", "correct", "revoke") and g.get("previous"):
                sc.changes_predicted += 1
                key, _ = controller.key_for(pred)
                head = states.get(key, KeyState(key)).head()
                if head is not None and _canon(head.value) == _canon(str(g["previous"])):
                    sc.closes_right += 1
        for i, p in enumerate(preds):
            if i not in used:
                sc.wrong.append(
                    {
                        "thread": thread["id"],
                        "split": sc.split,
                        "text": msg["text"],
                        "predicted": _show(p),
                        "gold": [f"{g['subject']} | {g['value']} | {g['intent']}" for g in golds]
                        or msg.get("no_fact_reason"),
                    }
                )
        for j, p in enumerate(preds):
            key, _ = controller.key_for(p)
            state = states.setdefault(key, KeyState(key))
            ctx = FactContext(
                record_uid=f"{thread['id']}/{pos}",
                pos=pos,
                fact_index=j,
                observed_at=record.observed_at,
                authority=1,
                source=msg["speaker"],
            )
            try:
                controller.apply(state, p, ctx, plan)
            except Exception:
                continue
    return sc


def _show(f: Fact) -> str:
    return f"{f.subject} | {f.relation} | {f.value} | {f.intent}"


def score_extractor(
    fixtures: Path, langs: Iterable[str] = ("en", "ko"), factory: Factory = chat_factory
) -> dict[tuple[str, str], Score]:
    """Scores per (language, split) and per (language, "all")."""
    out: dict[tuple[str, str], Score] = {}
    for lang in langs:
        total = Score(lang, "all")
        for i, thread in enumerate(load(lang, fixtures)):
            s = score_thread(thread, i, factory)
            out.setdefault((lang, s.split), Score(lang, s.split)).add(s)
            total.add(s)
        out[(lang, "all")] = total
    return out


def throughput(fixtures: Path, langs: Iterable[str] = ("en", "ko"), repeats: int = 3) -> float:
    """Messages per second through ChatExtractor.extract, records built beforehand."""
    threads = [(t, thread_records(t)) for lang in langs for t in load(lang, fixtures)]
    n, t = 0, 0.0
    for _ in range(repeats):
        for thread, recs in threads:
            ex = chat_factory(thread)
            t0 = time.perf_counter()
            for r in recs:
                ex.extract(r)
            t += time.perf_counter() - t0
            n += len(recs)
    return n / t if t else 0.0


def _pct(a: int, b: int) -> str:
    return f"{a / b:.3f}" if b else "–"


def markdown(
    scores: dict[tuple[str, str], Score],
    command: str,
    rate: float,
    baseline: dict[tuple[str, str], Score] | None = None,
    misses_per_lang: int = 12,
) -> str:
    out = [
        f"Command: `{command}`",
        "",
        "| language | split | messages | gold facts | predicted | precision | recall | "
        "closes the right value | exact intent | no-fact messages with a fact |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for (lang, split), s in sorted(scores.items()):
        out.append(
            f"| {lang} | {split} | {s.messages} | {s.gold} | {s.predicted} | "
            f"{_pct(s.right, s.predicted)} | {s.recall:.3f} | "
            f"{s.closes_right}/{s.changes_predicted} ({s.closes:.3f}) | "
            f"{_pct(s.exact_intent, s.right)} | "
            f"{s.no_fact_with_prediction}/{s.no_fact_messages} |"
        )
    if baseline:
        out += [
            "",
            "Baseline, the slot-rule extractor (the block study's rules) given every "
            "participant's name:",
            "",
            "| language | predicted | precision | recall | closes the right value |",
            "|---|---:|---:|---:|---:|",
        ]
        for (lang, split), s in sorted(baseline.items()):
            if split == "all":
                out.append(
                    f"| {lang} | {s.predicted} | {_pct(s.right, s.predicted)} | "
                    f"{s.recall:.3f} | {s.closes_right}/{s.changes_predicted} |"
                )
    out += [
        "",
        f"Extraction speed: {rate:,.0f} messages/s (one core, both languages, records "
        "built beforehand).",
        "",
    ]
    for lang in sorted({k[0] for k in scores}):
        s = scores[(lang, "all")]
        out += [
            f"#### {lang}: recall by value type, intent and phenomenon",
            "",
            "| value type | recall | | intent | recall | | tag | recall |",
            "|---|---:|---|---|---:|---|---|---:|",
        ]
        types = sorted(s.by_type.items(), key=lambda kv: -kv[1][1])
        intents = sorted(s.by_intent.items(), key=lambda kv: -kv[1][1])
        tags = sorted(s.by_tag.items(), key=lambda kv: -kv[1][1])
        for i in range(max(len(types), len(intents), len(tags))):
            cells = []
            for rows in (types, intents, tags):
                if i < len(rows):
                    k, (a, b) = rows[i]
                    cells += [k, f"{a}/{b}"]
                else:
                    cells += ["", ""]
            out.append(
                f"| {cells[0]} | {cells[1]} | | {cells[2]} | {cells[3]} | | "
                f"{cells[4]} | {cells[5]} |"
            )
        reasons = ", ".join(f"{k} {v}" for k, v in s.false_by_reason.most_common()) or "none"
        out += [
            "",
            f"Facts predicted on messages with no gold fact, by why they have none: {reasons}.",
            "",
            f"Wrong predictions ({len(s.wrong)}), first {misses_per_lang} held-out:",
            "",
        ]
        for w in [w for w in s.wrong if w["split"] == "held-out"][:misses_per_lang]:
            out.append(f"- `{w['text'][:90]}` → predicted {w['predicted']}; gold {w['gold']}")
        out += ["", f"Missed gold facts ({len(s.misses)}), first {misses_per_lang} held-out:", ""]
        for m in [m for m in s.misses if m["split"] == "held-out"][:misses_per_lang]:
            out.append(f"- `{m['text'][:90]}` → gold {m['gold']}")
        out.append("")
    return "\n".join(out)


def write_misses(scores: dict[tuple[str, str], Score], folder: Path) -> list[Path]:
    """Every miss and wrong prediction, per language, for reading."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for lang in sorted({k[0] for k in scores}):
        s = scores[(lang, "all")]
        path = folder / f"extraction_misses_{lang}.md"
        lines = [
            f"# Extraction misses, {lang} (generated by `graphmem-bench extraction`)",
            "",
            "## Wrong predictions",
            "",
        ]
        lines += [
            f"- [{w['split']}] {w['thread']}: `{w['text']}` → {w['predicted']}; gold {w['gold']}"
            for w in s.wrong
        ]
        lines += ["", "## Missed gold facts", ""]
        lines += [
            f"- [{m['split']}] {m['thread']}: `{m['text']}` → gold {m['gold']}; "
            f"predicted {m['predicted']}"
            for m in s.misses
        ]
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        paths.append(path)
    return paths
