"""P-Mem controlled benchmark, state level (MoM / P-Mem, ALFWorld-Revision style).

Object-location facts as template sentences, in English and Korean:
- revision chains: a target object and 4 distractor objects, each moved L times,
  interleaved; success = the target's head is its last location;
- revocation: v1, a wrong move to v2, d distractor events, "the move to v2 was a
  mistake"; success = v1 is the head again (with preservation, and with preservation
  switched off: the same ops on a store that overwrites);
- conflict: two speakers name different places with no precedence; success = CONTEST
  recorded, the key surfaced as contested before confirmation, RESOLVE to the confirmed
  place after 8 distractor events.
No reader is involved: the state is read from Neo4j with ``why``.
"""

from __future__ import annotations

import random
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from graphmem.domain.model import Intent, Record
from graphmem.memory import Memory
from graphmem_bench.extract.patterns import PatternExtractor, Template

OBJECTS = {
    "en": [
        "key",
        "mug",
        "book",
        "phone",
        "wallet",
        "remote",
        "lamp",
        "scarf",
        "pen",
        "watch",
        "cup",
        "plate",
        "towel",
        "knife",
        "spoon",
        "candle",
        "vase",
        "apple",
        "bowl",
        "box",
    ],
    "ko": [
        "열쇠",
        "머그잔",
        "책",
        "휴대폰",
        "지갑",
        "리모컨",
        "램프",
        "목도리",
        "펜",
        "시계",
        "컵",
        "접시",
        "수건",
        "칼",
        "숟가락",
        "양초",
        "꽃병",
        "사과",
        "그릇",
        "상자",
    ],
}
PLACES = {
    "en": [
        "drawer",
        "shelf",
        "desk",
        "sofa",
        "cabinet",
        "fridge",
        "sink",
        "table",
        "dresser",
        "counter",
        "safe",
        "bathtub",
        "closet",
        "armchair",
        "bookcase",
        "stove",
        "microwave",
        "garbage can",
        "coffee table",
        "side table",
    ],
    "ko": [
        "서랍",
        "선반",
        "책상",
        "소파",
        "캐비닛",
        "냉장고",
        "싱크대",
        "식탁",
        "화장대",
        "조리대",
        "금고",
        "욕조",
        "옷장",
        "안락의자",
        "책장",
        "가스레인지",
        "전자레인지",
        "쓰레기통",
        "탁자",
        "협탁",
    ],
}
SPEAKERS = {"en": ("Minsu", "Jiyoung"), "ko": ("민수", "지영")}


def _josa(word: str, with_final: str, without_final: str) -> str:
    """Korean particle after a word: 은/는, 을/를, 이/가 depend on a final consonant."""
    last = word[-1]
    if "가" <= last <= "힣":
        return with_final if (ord(last) - 0xAC00) % 28 else without_final
    return without_final


def _ro(word: str) -> str:
    last = word[-1]
    if "가" <= last <= "힣":
        final = (ord(last) - 0xAC00) % 28
        return "로" if final in (0, 8) else "으로"  # no final consonant, or ㄹ
    return "로"


class Sentences:
    """The benchmark's sentence templates, and the extractor that reads them back."""

    def __init__(self, lang: str) -> None:
        self.lang = lang

    def state(self, obj: str, place: str) -> str:
        if self.lang == "ko":
            return f"{obj}{_josa(obj, '은', '는')} {place}에 있다."
        return f"The {obj} is in the {place}."

    def move(self, obj: str, a: str, b: str) -> str:
        if self.lang == "ko":
            return f"업데이트: {obj}{_josa(obj, '을', '를')} {a}에서 {b}{_ro(b)} 옮겼다."
        return f"Update: moved the {obj} from the {a} to the {b}."

    def revoke(self, obj: str, b: str) -> str:
        if self.lang == "ko":
            return f"{obj}{_josa(obj, '이', '가')} {b}에 있다는 앞의 업데이트는 착오였다."
        return f"The earlier update that the {obj} is in the {b} was a mistake."

    def report(self, speaker: str, obj: str, place: str) -> str:
        if self.lang == "ko":
            return f"{speaker}의 말: {obj}{_josa(obj, '은', '는')} {place}에 있어요."
        return f"{speaker} says: the {obj} is in the {place}."

    def confirm(self, obj: str, place: str) -> str:
        if self.lang == "ko":
            return f"직접 확인한 결과: {obj}{_josa(obj, '은', '는')} {place}에 있었다."
        return f"Checked in person: the {obj} is in the {place}."

    def extractor(self) -> PatternExtractor:
        o, p = r"(?P<subject>[^\s].*?)", r"(?P<value>[^\s].*?)"
        if self.lang == "ko":
            rows = [
                (rf"업데이트: {o}(?:을|를) \S+?에서 {p}(?:으로|로) 옮겼다\.", Intent.UPDATE),
                (rf"{o}(?:이|가) {p}에 있다는 앞의 업데이트는 착오였다\.", Intent.REVOKE),
                (rf"직접 확인한 결과: {o}(?:은|는) {p}에 있었다\.", Intent.CONFIRM),
                (rf"\S+의 말: {o}(?:은|는) {p}에 있어요\.", Intent.ASSERT),
                (rf"{o}(?:은|는) {p}에 있다\.", Intent.ASSERT),
            ]
        else:
            rows = [
                (rf"Update: moved the {o} from the .+? to the {p}\.", Intent.UPDATE),
                (rf"The earlier update that the {o} is in the {p} was a mistake\.", Intent.REVOKE),
                (rf"Checked in person: the {o} is in the {p}\.", Intent.CONFIRM),
                (rf"\S+ says: the {o} is in the {p}\.", Intent.ASSERT),
                (rf"The {o} is in the {p}\.", Intent.ASSERT),
            ]
        return PatternExtractor(
            (Template.compile(rx, "location", intent) for rx, intent in rows),
            name=f"pmem-{self.lang}",
        )


@dataclass
class Row:
    lang: str
    task: str
    setting: str
    cases: int
    success: int
    extra: str = ""

    @property
    def rate(self) -> float:
        return 100.0 * self.success / self.cases if self.cases else 0.0


class _Case:
    """One isolated case: its own namespace, one ingest of its whole stream."""

    def __init__(self, connect: Callable[..., Memory], lang: str, preserve: bool = True):
        self.s = Sentences(lang)
        self.mem = connect(
            f"pmem-{uuid.uuid4().hex[:12]}", preserve_history=preserve, extractor=self.s.extractor()
        )
        self.records: list[Record] = []
        self.said = 0  # positions run on across flushes: they are the store's order

    def say(self, text: str, speaker: str | None = None) -> None:
        self.records.append(Record(text, pos=self.said, speaker=speaker, source="pmem-bench"))
        self.said += 1

    def flush(self):
        report = self.mem.ingest(self.records)
        self.records = []
        return report

    def head(self, obj: str):
        return self.mem.why(obj, "location")


def _distractor_events(
    rng: random.Random,
    s: Sentences,
    objs: list[str],
    places: list[str],
    where: dict[str, str],
    n: int,
) -> Iterator[str]:
    for _ in range(n):
        o = rng.choice(objs)
        b = rng.choice([p for p in places if p != where[o]])
        yield s.move(o, where[o], b)
        where[o] = b


def revision_chains(connect, lang: str, L: int, cases: int, seed: int) -> Row:
    rng = random.Random(seed * 1000 + L)
    ok = 0
    for _ in range(cases):
        case = _Case(connect, lang)
        objs = rng.sample(OBJECTS[lang], 5)  # objs[0] is the target
        where = {o: rng.choice(PLACES[lang]) for o in objs}
        for o in objs:
            case.say(case.s.state(o, where[o]))
        moves = [o for o in objs for _ in range(L)]
        rng.shuffle(moves)  # interleaved; each object's own moves stay in order
        for o in moves:
            b = rng.choice([p for p in PLACES[lang] if p != where[o]])
            case.say(case.s.move(o, where[o], b))
            where[o] = b
        case.flush()
        ok += case.head(objs[0]).value == where[objs[0]]
        case.mem.close()
    return Row(lang, "revision chain", f"L={L}", cases, ok)


def revocation(connect, lang: str, d: int, cases: int, seed: int, preserve: bool) -> Row:
    rng = random.Random(seed * 1000 + d + (0 if preserve else 500))
    ok = before_ok = 0
    for _ in range(cases):
        case = _Case(connect, lang, preserve=preserve)
        objs = rng.sample(OBJECTS[lang], 5)
        target, others = objs[0], objs[1:]
        where = {o: rng.choice(PLACES[lang]) for o in objs}
        v1 = where[target]
        v2 = rng.choice([p for p in PLACES[lang] if p != v1])
        for o in objs:
            case.say(case.s.state(o, where[o]))
        case.say(case.s.move(target, v1, v2))
        for text in _distractor_events(rng, case.s, others, PLACES[lang], where, d):
            case.say(text)
        case.flush()
        before_ok += case.head(target).value == v2
        case.say(case.s.revoke(target, v2))
        case.flush()
        ok += case.head(target).value == v1
        case.mem.close()
    setting = f"d={d}, " + ("with preservation" if preserve else "preservation off")
    return Row(lang, "revocation", setting, cases, ok, f"v2 before revoke {before_ok}/{cases}")


def conflict(connect, lang: str, cases: int, seed: int) -> list[Row]:
    rng = random.Random(seed * 1000 + 77)
    contest = surfaced = resolved = 0
    a_name, b_name = SPEAKERS[lang]
    for i in range(cases):
        case = _Case(connect, lang)
        objs = rng.sample(OBJECTS[lang], 5)
        target, others = objs[0], objs[1:]
        where = {o: rng.choice(PLACES[lang]) for o in objs}
        pa, pb = rng.sample(PLACES[lang], 2)
        for o in others:
            case.say(case.s.state(o, where[o]))
        case.say(case.s.report(a_name, target, pa), speaker=a_name)
        case.say(case.s.report(b_name, target, pb), speaker=b_name)
        report = case.flush()
        contest += report.ops.get("CONTEST", 0) == 1
        surfaced += case.head(target).status == "contested"
        for text in _distractor_events(rng, case.s, others, PLACES[lang], where, 8):
            case.say(text)
        truth = pa if i % 2 == 0 else pb  # order-balanced
        case.say(case.s.confirm(target, truth))
        report = case.flush()
        h = case.head(target)
        resolved += report.ops.get("RESOLVE", 0) == 1 and h.value == truth and h.status == "active"
        case.mem.close()
    return [
        Row(lang, "conflict", "CONTEST recorded", cases, contest),
        Row(lang, "conflict", "contested before confirmation", cases, surfaced),
        Row(lang, "conflict", "RESOLVE to confirmed value", cases, resolved),
    ]


def run(
    connect: Callable[..., Memory],
    cases: int = 40,
    seed: int = 0,
    langs: tuple[str, ...] = ("en", "ko"),
    progress: Callable[[str], None] = print,
) -> list[Row]:
    rows: list[Row] = []
    for lang in langs:
        for L in (1, 2, 4, 8):
            rows.append(revision_chains(connect, lang, L, cases, seed))
            progress(f"{lang} chain L={L}: {rows[-1].success}/{cases}")
        for preserve in (True, False):
            for d in (0, 8, 32):
                rows.append(revocation(connect, lang, d, cases, seed, preserve))
                progress(f"{lang} {rows[-1].setting}: {rows[-1].success}/{cases}")
        rows.extend(conflict(connect, lang, cases, seed))
        progress(f"{lang} conflict: {[r.success for r in rows[-3:]]}")
    return rows


def table(rows: list[Row]) -> str:
    out = ["| language | task | setting | success | rate | note |", "|---|---|---|---:|---:|---|"]
    for r in rows:
        out.append(
            f"| {r.lang} | {r.task} | {r.setting} | {r.success}/{r.cases} | "
            f"{r.rate:.1f}% | {r.extra} |"
        )
    return "\n".join(out)
