"""Cross-script name linking: a Hangul name to the Latin-script entity it renders.

Korean writes foreign names by sound ("빅토리아 베컴" for Victoria Beckham) and often
translates the head noun of an institution's name ("미네소타 대학교" for University of
Minnesota). Both sides are turned into one coarse phoneme alphabet: Hangul through its
jamo, Latin through English orthography with the correspondences Korean uses (f→ㅍ,
v→ㅂ, l and r→ㄹ, th→ㅅ/ㄷ, z→ㅈ, silent letters dropped, the epenthetic ㅡ of
"스트" ignored). Names are compared by a weighted edit distance in which vowels and a
silent h cost little and consonants of one class (p/b/f/v, t/d, k/g/c) cost nothing.
Candidates come from an index of consonant skeletons with their one-deletion
neighbourhood, so a lookup stays fast with 100k+ names. A link is made only when one
candidate is clearly best: a wrong anchor is worse than none.
"""

from __future__ import annotations

import functools
import itertools
import re
import threading
import unicodedata
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace

from rapidfuzz.distance import Levenshtein

from graphmem.language.lexicon import compact, english_names, korean_names
from graphmem.language.name_meaning import (
    MEANING_CANDIDATES,
    MEANING_LINK_P,
    NameMeaning,
    link_probability,
    nearest,
    span_words,
)
from graphmem.language.pronouncing import english_pronunciations
from graphmem.language.text import HANGUL_SYLLABLE

__all__ = [
    "HEAD_WORDS",
    "RULES",
    "CrossScriptLinker",
    "Link",
    "hangul_phonemes",
    "latin_forms",
    "latin_name_runs",
    "latin_phonemes",
    "similarity",
]

# -- Hangul -> phonemes ---------------------------------------------------------------
# Consonants: P T K S J L M N G(=ng) H; vowels: a e i o u. 'ㅡ' (the vowel Korean adds
# to write a bare consonant: "스트" for "st") is dropped.
_INITIAL = [
    "K",
    "K",
    "N",
    "T",
    "T",
    "L",
    "M",
    "P",
    "P",
    "S",
    "S",
    "",
    "J",
    "J",
    "J",
    "K",
    "T",
    "P",
    "H",
]
_MEDIAL = [
    "a",
    "e",
    "ia",
    "ie",
    "o",
    "e",
    "io",
    "ie",
    "o",
    "ua",
    "ue",
    "ue",
    "io",
    "u",
    "uo",
    "ue",
    "ui",
    "iu",
    "",
    "ui",
    "i",
]
_FINAL = [
    "",
    "K",
    "K",
    "KS",
    "N",
    "NJ",
    "N",
    "T",
    "L",
    "LK",
    "LM",
    "LP",
    "LS",
    "LT",
    "LP",
    "L",
    "M",
    "P",
    "PS",
    "T",
    "T",
    "G",
    "J",
    "J",
    "K",
    "T",
    "P",
    "",
]


_REGNAL_SE = re.compile(r"([0-9])\s*세(?![\uac00-\ud7a3])")


_FINAL_S = frozenset({19, 20})  # ㅅ, ㅆ
_SIBILANTS = frozenset({9, 10, 12, 13, 14})  # ㅅ ㅆ ㅈ ㅉ ㅊ


def hangul_phonemes(text: str) -> str:
    """Hangul (and any Latin parts, through ``latin_phonemes``) as coarse phonemes."""
    out: list[str] = []
    text = _REGNAL_SE.sub(r"\1", text)  # "16세": the count of a name, as "XVI" is
    for part in re.findall(r"[\uac00-\ud7a3]+|[A-Za-z\u00C0-\u024F0-9]+", text):
        if HANGUL_SYLLABLE.match(part):
            codes = [divmod(ord(ch) - 0xAC00, 21 * 28) for ch in part]
            for i, (initial, rest) in enumerate(codes):
                medial, final = divmod(rest, 28)
                coda = _FINAL[final]
                # a final ㅅ writes a t ("크리켓", "핫메일"), or doubles the s or j after it
                # ("닛산" for Nissan)
                if final in _FINAL_S and i + 1 < len(codes) and codes[i + 1][0] in _SIBILANTS:
                    coda = "S"
                out.append(_INITIAL[initial] + _MEDIAL[medial] + coda)
        else:
            out.append(latin_phonemes(part))
    return _collapse("".join(out))


# -- Latin -> phonemes ----------------------------------------------------------------
_LATIN_RULES: list[tuple[str, str]] = [
    # a final s is often a plural Korean leaves out, or a z it writes 즈 ("윈도우")
    (r"(?<=[^aeiou])es$", "Z"),
    (r"(?<=[a-z])(?<!s)s$", "Z"),
    (r"r(?![aeiouy])", "R"),  # English r after a vowel is not written in Korean (커쇼)
    (r"gu(?=[aeiy])", "g"),
    (r"^kn", "n"),
    (r"^wr", "l"),
    (r"^ps", "s"),
    (r"mb$", "m"),
    (r"gh", ""),
    (r"tch", "J"),
    (r"sch", "S"),
    (r"chr", "Kl"),
    (r"^ch(?=[lr])", "K"),
    (r"ch", "J"),
    (r"sh", "S"),
    (r"ph", "P"),
    (r"th", "T"),
    (r"ck", "K"),
    (r"qu", "Ku"),
    (r"q", "K"),
    (r"x", "KS"),
    (r"ts|tz|z", "J"),
    (r"c(?=[eiy])", "S"),
    (r"c", "K"),
    (r"g(?=[eiy])", "G2"),
    (r"ng(?![aeiou])", "G"),
    (r"g", "K"),
    (r"G2", "K"),
    (r"j", "J"),
    (r"[bfpv]", "P"),
    (r"[dt]", "T"),
    (r"k", "K"),
    (r"s", "S"),
    (r"l", "L"),
    (r"r", "L"),
    (r"m", "M"),
    (r"n", "N"),
    (r"h", "H"),
    (r"w", "u"),
    (r"y", "i"),
    (r"e$", ""),
]
_LATIN_COMPILED = [(re.compile(p), r) for p, r in _LATIN_RULES]


def latin_phonemes(text: str) -> str:
    """A Latin-script name read the way Korean renders English orthography."""
    words = re.findall(r"[a-z]+|[0-9]+", _fold(text))
    out = []
    for w in words:
        if w.isdigit():  # numbers are written as numbers in both scripts
            out.append(w)
            continue
        w = re.sub(r"([bcdfgklmnprstvz])\1", r"\1", w)  # double letters sound once
        for pattern, repl in _LATIN_COMPILED:
            w = pattern.sub(repl, w)
        out.append(w)
    return _collapse("".join(out))


MAX_FORMS = 4  # spellings of one name compared (spelled and dictionary-pronounced words)


# Abbreviations said in full ("닥터 수스" for Dr. Seuss).
_ABBREVIATIONS = {
    "dr": "doctor",
    "st": "saint",
    "mr": "mister",
    "mrs": "missus",
    "mt": "mount",
    "jr": "junior",
    "sr": "senior",
    "ft": "fort",
}


def latin_forms(text: str, limit: int = MAX_FORMS) -> list[str]:
    """Ways ``text`` may sound: as spelled (``latin_phonemes``) first, then with the words
    the English pronouncing dictionary knows said its way (letters by their names: "케이팝"
    for K-pop, "엔비시" for NBC)."""
    options = [o for o in (_word_options(w) for w in text.split()) if o]
    # all spelled, all said (where known), then the mixtures
    spelled = [o[0] for o in options]
    said = [o[1] if len(o) > 1 else o[0] for o in options]
    combos = itertools.chain(
        [spelled, said], itertools.islice(itertools.product(*options), limit * 2)
    )
    forms: list[str] = []
    for combo in combos:
        p = _collapse("".join(combo))
        if p and p not in forms:
            forms.append(p)
        if len(forms) == limit:
            break
    return forms


@functools.lru_cache(maxsize=1 << 16)  # names share words: first names, "of", "FC"
def _word_options(token: str) -> tuple[str, ...]:
    """One whitespace token as spelled, then as said (part by part: "K-pop", "Grey's")."""
    token = re.sub(r"['’]s$", "", token)  # a possessive s is not said in Korean
    spelled = latin_phonemes(token)
    if not spelled:
        return ()
    parts = re.findall(r"[a-z]+|[0-9]+", _fold(token))
    abbreviated = token.endswith(".") and len(parts) == 1
    said: list[list[str]] = []
    for part in parts:
        word = _ABBREVIATIONS.get(part, part) if abbreviated else part
        known = () if part.isdigit() else english_pronunciations(word)
        said.append(list(known) or [latin_phonemes(part)])
    options = [spelled]
    for variant in range(2 if len(said) == 1 else 1):
        p = "".join(s[min(variant, len(s) - 1)] for s in said)
        if p not in options:
            options.append(p)
    return tuple(options)


def _collapse(p: str) -> str:
    p = re.sub(r"([PTKSJLMNGHR])\1+", r"\1", p)  # Korean doubles l between vowels
    p = re.sub(r"RL|LR", "L", p)
    p = re.sub(r"([aeiou])\1+", r"\1", p)  # Korean writes no long vowels
    return p


_HANGUL_WORD = re.compile(r"[\uac00-\ud7a3]+")


# -- comparison -----------------------------------------------------------------------
_VOWELS = frozenset("aeiou")
_CLOSE = {
    frozenset("RL"): 0.0,
    frozenset("ZS"): 0.0,
    frozenset("ZJ"): 0.1,
    frozenset("TS"): 0.5,
    frozenset("SJ"): 0.3,
    frozenset("KJ"): 0.5,
    frozenset("NG"): 0.5,
    frozenset("JH"): 0.6,
    frozenset("KH"): 0.7,
}


_NEAR_VOWELS = frozenset({frozenset("ei"), frozenset("ou"), frozenset("ae"), frozenset("ao")})
# Vowels weigh less than consonants (Korean renders English vowels loosely), but not
# nothing: with dictionary pronunciations the vowels of a name are usually right.
VOWEL_WEIGHT = 0.6


def _sub(a: str, b: str) -> float:
    if a == b:
        return 0.0
    if a in _VOWELS and b in _VOWELS:
        return 0.25 if frozenset((a, b)) in _NEAR_VOWELS else 0.6
    if a in _VOWELS or b in _VOWELS:
        return 1.0
    return _CLOSE.get(frozenset((a, b)), 1.0)


def _indel(c: str) -> float:
    # vowels, a silent h, an r after a vowel (never written in Korean) and an English
    # plural s Korean often leaves out cost little
    return 0.1 if c == "R" else 0.4 if c in _VOWELS or c in "HZ" else 1.0


@functools.lru_cache(maxsize=64)
def _sub_row(a: str) -> dict[str, float]:
    """Substitution costs from ``a`` to every phoneme (any other symbol costs 1)."""
    return {b: _sub(a, b) for b in "PTKSJLMNGHRZaeiou0123456789"}


def _weight(p: str) -> float:
    return sum(VOWEL_WEIGHT if c in _VOWELS else 1.0 for c in p)


def similarity(a: str, b: str, floor: float = 0.0) -> float:
    """1 - weighted edit distance / the heavier string's weight (1.0: same sound).

    Below ``floor`` the exact value does not matter: the search stops and returns 0.
    """
    if not a or not b:
        return 0.0
    weight = max(_weight(a), _weight(b))
    budget = (1.0 - floor) * weight
    indel_b = [_indel(c) for c in b]
    prev = [0.0]
    for cost in indel_b:
        prev.append(prev[-1] + cost)
    for ca in a:
        indel_a = _indel(ca)
        row = _sub_row(ca)
        left = prev[0] + indel_a
        cur = [left]
        for j, cb in enumerate(b):
            # the cheapest of: delete ca, insert cb, substitute (inlined: the hot loop)
            up = prev[j + 1] + indel_a
            ins = left + indel_b[j]
            diag = prev[j] + row.get(cb, 0.0 if cb == ca else 1.0)
            left = up if up < ins and up < diag else ins if ins < diag else diag
            cur.append(left)
        if floor and min(cur) > budget:
            return 0.0
        prev = cur
    return 1.0 - prev[-1] / weight


def _skeleton(p: str) -> str:
    """The consonants that Korean writes: a silent h or r dropped, a final z as s (스, or
    left out: the index's one-deletion keys cover that)."""
    return "".join("S" if c == "Z" else c for c in p if c not in _VOWELS and c not in "HR")


def _skeletons(p: str) -> tuple[str, ...]:
    """The skeletons a Latin form is filed under: an r after a vowel is left out in English
    names (커쇼 for Kershaw) and written 르 in most others (페르디난드, 메르켈)."""
    spoken = "".join("L" if c == "R" else c for c in p)
    return tuple(dict.fromkeys((_skeleton(p), _skeleton(spoken))))


def _keys(skeleton: str) -> set[str]:
    """Index keys: the skeleton, and for longer ones its one-deletion neighbourhood."""
    return _neighbourhood(skeleton) if len(skeleton) >= 3 else {skeleton}


def _candidates(index: dict[str, set[str]], skeleton: str) -> set[str]:
    """The names filed under any key of ``skeleton``."""
    found: set[str] = set()
    for key in _keys(skeleton):
        found |= index.get(key, set())
    return found


# -- translated head words ------------------------------------------------------------
# Nouns that are translated, not transliterated, inside names ("미네소타 대학교"): the
# English words each may stand for, "+" joining words that must all be there.
HEAD_WORDS: dict[str, tuple[str, ...]] = {
    "대학교": ("university",),
    "대학": ("university", "college"),
    "교회": ("church",),
    "성당": ("cathedral", "church"),
    "제국": ("empire",),
    "왕국": ("kingdom",),
    "왕조": ("dynasty",),
    "국가대표팀": ("national+team",),
    "대표팀": ("national+team",),
    "시리즈": ("series",),
    "운동": ("movement",),
    "공화국": ("republic",),
    "연방": ("federation", "federal"),
    "협회": ("association",),
    "재단": ("foundation",),
    "박물관": ("museum",),
    "미술관": ("museum", "gallery"),
    "도서관": ("library",),
    "공항": ("airport",),
    "강": ("river",),
    "산": ("mountain", "mount"),
    "섬": ("island",),
    "제도": ("islands",),
    "호수": ("lake",),
    "주": ("state",),
    "시": ("city",),
    "당": ("party",),
    "은행": ("bank",),
    "항공": ("airlines", "air"),
    "영화사": ("pictures", "studios"),
    "전쟁": ("war",),
    "혁명": ("revolution",),
    "조약": ("treaty",),
    "연합": ("union", "united"),
    "동맹": ("alliance", "league"),
    "리그": ("league",),
    "클럽": ("club",),
    "축구": ("football", "soccer"),
    "대학원": ("graduate+school", "school"),
    "공과대학교": ("institute+technology",),
    "공과대학": ("institute+technology",),
    "주립대학교": ("state+university",),
    "국립대학교": ("national+university", "state+university"),
    "학교": ("school",),
    "고등학교": ("high+school",),
    "병원": ("hospital",),
    "방송": ("broadcasting",),
    "신문": ("newspaper",),
    "그룹": ("group",),
    "회사": ("company",),
    "기업": ("company", "corporation"),
    "사": ("company",),
    "연구소": ("institute",),
    "기구": ("organization",),
    "위원회": ("committee", "commission"),
    "의회": ("parliament", "congress"),
    "국립": ("national",),
    "왕립": ("royal",),
    "국제": ("international",),
    "세계": ("world",),
    "올림픽": ("olympic", "olympics"),
    "섬들": ("islands",),
    # offices, bodies and buildings
    "대통령": ("president",),
    "총리": ("prime+minister",),
    "장관": ("minister", "secretary"),
    "법무장관": ("attorney+general",),
    "주지사": ("governor",),
    "국왕": ("king",),
    "내각": ("cabinet", "ministry"),
    "상원": ("senate",),
    "하원": ("house+representatives",),
    "법원": ("court",),
    "대법원": ("supreme+court",),
    "경찰": ("police",),
    "육군": ("army",),
    "해군": ("navy",),
    "공군": ("air+force",),
    "함대": ("fleet",),
    "가문": ("house", "family"),
    "노동당": ("labour+party", "labor+party"),
    "해방기구": ("liberation+organization",),
    "연맹": ("federation", "league", "union"),
    "전선": ("front",),
    "선수권": ("championship", "championships"),
    "대성당": ("cathedral",),
    "사원": ("temple",),
    "궁전": ("palace",),
    "공원": ("park",),
    "광장": ("square",),
    "다리": ("bridge",),
    "경기장": ("stadium",),
    "출판사": ("publishing", "press", "books"),
    # works and events
    "성경": ("bible",),
    "교향곡": ("symphony",),
    "협주곡": ("concerto",),
    "선언": ("declaration",),
    "전투": ("battle",),
    "작전": ("operation",),
    "위기": ("crisis",),
    # titles, when the name holds them ("젤다 공주" for Princess Zelda)
    "공주": ("princess",),
    "왕자": ("prince",),
    "여왕": ("queen",),
    "왕": ("king",),
    "황제": ("emperor",),
    "황후": ("empress",),
    "교황": ("pope",),
    "추기경": ("cardinal",),
    "장군": ("general",),
    "선장": ("captain",),
    "박사": ("doctor", "dr"),
    "성": ("saint", "st"),
    "부인": ("madame", "lady", "mrs"),
    "선수": ("player",),
}
# Titles after a person's name that the name itself may not hold ("고요제이 천황" for
# Go-Yōzei, "엘리자베스 2세 여왕" for Elizabeth II): tried without them.
PERSON_TITLES = frozenset(
    [
        "천황",
        "황제",
        "교황",
        "국왕",
        "왕",
        "여왕",
        "대왕",
        "황후",
        "왕비",
        "공주",
        "왕자",
        "추기경",
        "주교",
        "대주교",
        "신부",
        "수녀",
        "목사",
        "경",
        "박사",
        "교수",
        "선장",
        "장군",
        "제독",
        "대통령",
        "총리",
        "수상",
    ]
)
# Head words that only say what kind of thing a name is ("NBC 방송", "Apple 사"); the
# others make another entity of it ("Minnesota 대학교" is not Minnesota).
CLASS_NOUNS = frozenset({"방송", "그룹", "회사", "기업", "사", "신문", "시리즈"})
_STOP_LATIN = frozenset(
    {
        "of",
        "the",
        "and",
        "de",
        "la",
        "le",
        "del",
        "di",
        "da",
        "von",
        "van",
        "der",
        "fc",
        "f",
        "c",
        "&",
    }
)


# What linked a span (``Link.rule``).
RULES = (
    "sound",  # the whole name, or a name holding a translated head word, by sound
    "word by word",  # each word rendered in order, no rival (``_aligned_best``)
    "head word",  # the one name holding the head word, no rival (``_headed_best``)
    "translation",  # the CLDR table ("독일어")
    "doctrine",  # a root and 교 or 주의 ("루터교")
    "title dropped",  # a person's title after the name ("고요제이 천황")
    "class noun",  # a Latin name before a kind noun ("HBO 채널")
    "meaning",  # the e5 model with sound (``name_meaning``)
)


@dataclass(frozen=True)
class Link:
    """A Hangul span's entity: ``name`` as the index holds it, with its score, and the rule
    that linked it (``RULES``: what an auditor or a benchmark counts a link by)."""

    name: str
    score: float
    margin: float
    rule: str = "sound"


class CrossScriptLinker:
    """Names indexed by sound: Latin-script names for Hangul spans (``link``), and
    Hangul names for Latin spans (``link_latin``)."""

    def __init__(
        self,
        names: Iterable[str],
        *,
        threshold: float = 0.74,
        margin: float = 0.05,
        min_consonants: int = 2,
        key: Callable[[str], str] | None = None,
        meaning: NameMeaning | None = None,
    ) -> None:
        # ``key``: names with the same key are one entity ("Victoria Beckham" and
        # "victoria beckham"); only the first spelling is indexed, or two spellings of one
        # name would tie and cancel its link.
        self._key = key or (lambda name: name)
        # Names by meaning (translated titles): asked only where sound finds no link.
        self.meaning = meaning
        self._seen: set[str] = set()
        self.threshold = threshold
        self.margin = margin
        self.min_consonants = min_consonants
        # name -> its forms: (phonemes, penalty, consonant skeleton)
        self._phon: dict[str, list[tuple[str, float, str]]] = {}
        self._cache: dict[tuple[str, bool | str], Link | None] = {}
        self._words: dict[str, list[str]] = {}
        # names holding numbers: the numbers a rendering of them must hold
        self._digits: dict[str, frozenset[str]] = {}
        self._by_skeleton: dict[str, set[str]] = defaultdict(set)
        self._by_word: dict[str, set[str]] = defaultdict(set)
        self._by_spelling: dict[str, set[str]] = defaultdict(set)  # case and accents folded
        self._ko_phon: dict[str, str] = {}  # Hangul names, for Latin spans (link_latin)
        self._by_skeleton_ko: dict[str, set[str]] = defaultdict(set)
        # names Korean translates (``lexicon``): Latin names by their Korean name, and
        # Hangul names by their English one
        self._by_translation: dict[str, set[str]] = defaultdict(set)
        self._by_translation_ko: dict[str, set[str]] = defaultdict(set)
        self._isms: list[str] = []  # names of doctrines ("Lutheranism"): "루터교"
        # add() may run on a writer's thread while a reader links: one at a time.
        self._lock = threading.RLock()
        self.add(names)

    def add(self, names: Iterable[str]) -> None:
        """Index more names (those already indexed are skipped)."""
        with self._lock:
            self._add(names)

    def _add(self, names: Iterable[str]) -> None:
        added = False
        for name in names:
            k = self._key(name)
            if k in self._seen:
                continue
            self._seen.add(k)
            if (numbers := _name_numbers(name)) != _NO_NUMBERS:
                self._digits[name] = numbers
            if HANGUL_SYLLABLE.search(name):
                p = hangul_phonemes(name)
                for english in english_names(name):
                    self._by_translation_ko[english.lower()].add(name)
                    added = True
                if p:
                    self._ko_phon[name] = p
                    for key in _keys(_skeleton(p)):
                        self._by_skeleton_ko[key].add(name)
                    added = True
                continue
            for korean in korean_names(name):
                self._by_translation[compact(korean)].add(name)
            if _fold(name).endswith("ism"):
                self._isms.append(name)
            forms = _spoken_forms(name)
            if not forms:
                continue
            self._phon[name] = [(p, pen, sk) for p, pen in forms for sk in _skeletons(p)]
            for _, _, skeleton in self._phon[name]:
                for key in _keys(skeleton):
                    self._by_skeleton[key].add(name)
            words = [w for w in re.findall(r"[a-z0-9]+", _fold(name)) if w not in _STOP_LATIN]
            self._words[name] = words
            self._by_spelling[_fold(name)].add(name)
            for w in words:
                self._by_word[w].add(name)
            added = True
        if added:
            self._cache.clear()  # a new name may change an earlier answer

    def __len__(self) -> int:
        return len(self._phon)

    @property
    def hangul_names(self) -> int:
        return len(self._ko_phon)

    def link_latin(self, span: str) -> Link | None:
        """The other direction: the Hangul-script name a Latin span renders."""
        if HANGUL_SYLLABLE.search(span) or not self._ko_phon:
            return None
        with self._lock:
            return self._cached((span, "latin"), lambda: self._link_latin(span))

    def _link_latin(self, span: str) -> Link | None:
        if found := _only(self._by_translation_ko.get(" ".join(span.split()).lower())):
            return found
        forms = latin_forms(span)
        if not forms:
            return None
        skeleton = _skeleton(forms[0])
        if len(skeleton) < self.min_consonants:
            return None
        floor = self._floor(self.threshold)
        numbers = _span_numbers(span)
        candidates = {
            n
            for p in forms
            for n in _candidates(self._by_skeleton_ko, _skeleton(p))
            if self._numbers_agree(n, numbers)
        }
        ranked = sorted(
            ((max(similarity(p, self._ko_phon[n], floor) for p in forms), n) for n in candidates),
            reverse=True,
        )
        return self._clear_best(ranked, self._needed(skeleton))

    def link(self, span: str, *, exact: bool = False, by_meaning: bool = True) -> Link | None:
        """The entity ``span`` renders, or None when none is clearly best.

        ``exact``: only a name that sounds the same (score ≥ EXACT_SCORE, same consonant
        skeleton) may be linked; cheap, for common nouns that are rarely names.
        ``by_meaning``: where sound links nothing, a name the span translates may be
        linked (``meaning``; one embedding of the span).
        """
        if not HANGUL_SYLLABLE.search(span):
            return None
        with self._lock:
            found = self._cached(
                (span, exact), lambda: self._exact(span) if exact else self._link(span)
            )
        if found is None and by_meaning and self.meaning is not None:
            # outside the lock: embedding the span may take tens of milliseconds
            found = self.link_by_meaning(span)
        return found

    def link_by_meaning(self, span: str) -> Link | None:
        """The name ``span`` translates, when meaning and sound agree that one is clearly
        best (``name_meaning``); None without ``meaning``."""
        meaning = self.meaning
        if meaning is None:
            return None
        key = (span, f"meaning {len(meaning.vectors)}")  # more names embedded: ask again
        with self._lock:
            if key in self._cache:
                return self._cache[key]
        ranked = self.meaning_candidates(span)
        found = None
        if ranked:
            best, name = ranked[0]
            second = ranked[1][0] if len(ranked) > 1 else 0.0
            if best >= MEANING_LINK_P and best - second >= MEANING_LINK_P / 2:
                found = Link(name, best, best - second, "meaning")
        with self._lock:
            if len(self._cache) >= CACHE_SIZE:
                self._cache.clear()
            self._cache[key] = found
        return found

    def meaning_candidates(
        self, span: str, features: dict[str, list[float]] | None = None
    ) -> list[tuple[float, str]]:
        """Candidates by meaning and by sound with the fitted model's probability, best
        first; ``features`` (when given) receives each candidate's features."""
        meaning = self.meaning
        if meaning is None or not HANGUL_SYLLABLE.search(span):
            return []
        query = meaning.query(span)
        if query is None:
            return []
        names, sims = meaning.vectors.similarities(query)
        if not names:
            return []
        # Latin-script names only (a Hangul name is matched as written, not rendered)
        cosine = {
            names[i]: float(sims[i])
            for i in nearest(names, sims, MEANING_CANDIDATES)
            if names[i] in self._phon
        }
        with self._lock:
            sound = self._scores(span, hangul_phonemes(span), 0.0)
        vectors = meaning.vectors
        by_sound = sorted(
            (n for n in sound if n in vectors and n in self._phon), key=lambda n: -sound[n]
        )
        missing = [n for n in by_sound[:MEANING_CANDIDATES] if n not in cosine]
        if missing:
            index = {n: i for i, n in enumerate(names)}
            for n in missing:
                if n in index:
                    cosine[n] = float(sims[index[n]])
        words = span_words(span)
        hangul = [hangul_phonemes(w) for w in words if HANGUL_SYLLABLE.search(w)]
        latin = [_fold(w) for w in words if not HANGUL_SYLLABLE.search(w)]
        heads = {h for w in words for o in HEAD_WORDS.get(w, ()) for h in o.split("+")}
        if latin:  # Latin is written as it is: the name holds the span's Latin words
            cosine = {
                n: c for n, c in cosine.items() if all(w in self._words.get(n, ()) for w in latin)
            }
        out = []
        for name, cos in cosine.items():
            others = max((c for n, c in cosine.items() if n != name), default=cos)
            x = [
                cos - 0.85,
                cos - others,
                sound.get(name, 0.0),
                *self._word_agreement(name, hangul, latin, heads),
                1.0 if name in sound else 0.0,
            ]
            if features is not None:
                features[name] = x
            out.append((link_probability(x), name))
        out.sort(key=lambda pn: (-pn[0], pn[1]))
        return out

    def _word_agreement(
        self, name: str, hangul: list[str], latin: list[str], heads: set[str]
    ) -> tuple[float, float, float]:
        """How far the name's words and the span's agree word by word, by sound, spelling
        or a translated head word: (share of the name's words, of the span's, product)."""
        words = self._words.get(name) or [_fold(name)]

        def renders(w: str) -> float:
            if w in latin or w in heads:
                return 1.0
            return max((similarity(h, f) for h in hangul for f in _forms(w)), default=0.0)

        name_share = sum(renders(w) >= WORD_MATCH for w in words) / len(words)
        matched = sum(
            max((similarity(h, f) for w in words for f in _forms(w)), default=0.0) >= WORD_MATCH
            for h in hangul
        ) + sum(w in words for w in latin)
        span_share = matched / max(1, len(hangul) + len(latin))
        return name_share, span_share, name_share * span_share

    def _cached(self, key: tuple[str, bool | str], find: Callable[[], Link | None]) -> Link | None:
        if key in self._cache:
            return self._cache[key]
        found = find()
        if len(self._cache) >= CACHE_SIZE:
            self._cache.clear()
        self._cache[key] = found
        return found

    def _core_is_a_name(self, name: str) -> bool:
        """Whether another indexed name is ``name`` without its designators ("Sydney" for
        Sydney FC)."""
        core = _fold(" ".join(_without_designators(name.split())))
        return any(n != name for n in self._by_spelling.get(core, ()))

    def _numbers_agree(self, name: str, numbers: tuple[str, bool]) -> bool:
        """Numbers are written as numbers: "윈도우 8" is not Windows 7 (``_span_numbers``)."""
        digits, glued = numbers
        if glued:
            return digits == _digits(name)
        return digits in self._digits.get(name, _NO_NUMBERS)

    def _needed(self, skeleton: str) -> float:
        """The score a link needs: nearly exact for two consonants or fewer ("교토"),
        unless a number narrows the names down ("비오 9세" for Pius IX)."""
        counted = any(c.isdigit() for c in skeleton) and any(c.isalpha() for c in skeleton)
        return SHORT_THRESHOLD if len(skeleton) < 3 and not counted else self.threshold

    def _clear_best(self, ranked: list[tuple[float, str]], needed: float) -> Link | None:
        """The best of ``ranked`` (score, name), best first, when it scores ``needed`` and
        is clearly best: the runner-up is at least twice as far from a perfect match, plus
        ``margin``. A near-perfect match may lead by a little ("톰 브래디": Tom Brady 0.96,
        Adam Brody 0.87); a loose one must lead by much. ``Link.margin`` is the lead over
        the runner-up's score (0 when it fell under the search floor)."""
        if not ranked:
            return None
        best, name = ranked[0]
        second = ranked[1][0] if len(ranked) > 1 else 0.0
        if best < needed or (1.0 - second) < 2 * (1.0 - best) + self.margin:
            return None
        return Link(name, best, best - second)

    def _floor(self, needed: float) -> float:
        """Scores below this decide nothing: with a best of at least ``needed``, a
        runner-up under it cannot stop a link."""
        return max(0.0, 2 * needed - 1.0 - self.margin)

    def _exact(self, span: str) -> Link | None:
        if english_names(span):
            return self._translation(span)
        p = hangul_phonemes(span)
        skeleton = _skeleton(p)
        if len(skeleton) < self.min_consonants:
            return None
        numbers = _span_numbers(span)
        ranked = sorted(
            (
                (max(similarity(p, f) for f, pen, _ in self._phon[n] if pen <= _WHOLE), n)
                for n in self._by_skeleton.get(skeleton, ())
                if any(pen <= _WHOLE for _, pen, _ in self._phon[n])
                and self._numbers_agree(n, numbers)
            ),
            reverse=True,
        )
        found = self._clear_best(ranked, EXACT_SCORE)
        if found is None and len(span.split()) > 1:
            # common nouns before a translated head word ("메스 대성당"): the head word
            # says a name is meant; the rest must render it nearly exactly
            found = self._headed_best(self._head_scores(span), HEADED_EXACT)
        return found

    def _translation(self, span: str) -> Link | None:
        """The name a Korean country, region or language name translates ("독일어" for
        German), if the index holds it; the table knows what the span means, so no name
        that merely sounds like it is linked instead (not Serbia for "세르비아어")."""
        return _only(self._by_translation.get(compact(span)))

    def _link(self, span: str) -> Link | None:
        if english_names(span):
            return self._translation(span)
        found = self._ranked_link(span)
        tokens = span.split()
        if found is None and len(tokens) == 1:
            found = self._doctrine(span)
        if found is None and len(tokens) > 1 and tokens[-1] in PERSON_TITLES:
            found = self._ranked_link(" ".join(tokens[:-1]))
            found = replace(found, rule="title dropped") if found is not None else None
        last = tokens[-1] if len(tokens) > 1 else ""
        if (
            found is None
            and _HANGUL_WORD.fullmatch(last)
            and (last not in HEAD_WORDS or last in CLASS_NOUNS)
            and not any(HANGUL_SYLLABLE.search(t) for t in tokens[:-1])
        ):
            # A class noun after a Latin name ("NBC 방송", "AK-47 소총", "ESPN 채널") is
            # not part of it: the name links when it is spelled as one entity's (Latin is
            # matched as written). A head that makes another entity ("Minnesota 대학교")
            # is not dropped.
            rest = " ".join(tokens[:-1])
            spelled = self._by_spelling.get(_fold(rest), ())
            if (
                len(spelled) == 1
                and len(re.findall(r"[A-Za-z0-9]", rest)) >= 2
                and (last in CLASS_NOUNS or not self._continues(rest))
            ):
                found = Link(next(iter(spelled)), 1.0, 1.0, "class noun")
        return found

    def _continues(self, latin: str) -> bool:
        """Whether a longer name starts with ``latin`` ("WWE Raw" after "WWE"): then a word
        after it may render the rest of that name, not a class noun."""
        prefix = _fold(latin) + " "
        words = [w for w in re.findall(r"[a-z0-9]+", _fold(latin)) if w not in _STOP_LATIN]
        pools = [self._by_word.get(w, set()) for w in words]
        return bool(pools) and any(
            _fold(n).startswith(prefix) for n in set.intersection(*pools) if n
        )

    def _ranked_link(self, span: str) -> Link | None:
        p = hangul_phonemes(span)
        needed = self._needed(_skeleton(p))
        # never above the threshold: _scores compares whole names with it
        headed = self._head_scores(span)  # computed once: three rules below read it
        scored = self._scores(span, p, min(self._floor(needed), self.threshold), headed)
        ranked = sorted(((score, name) for name, score in scored.items()), key=lambda sn: -sn[0])
        found = self._clear_best(ranked, needed)
        if found is None and ranked and ranked[0][0] >= needed and len(span.split()) > 1:
            found = self._aligned_best(span, p, headed)
        if found is None:
            # the head word counts towards what a short name needs ("아이오와 대학교")
            found = self._headed_best(headed, min(needed, self.threshold))
        return found

    def _doctrine(self, span: str) -> Link | None:
        """A doctrine named by its founder or root and 교 or 주의 ("루터교": Lutheranism,
        "시크교": Sikhism): the root rendered as the name's, its -ism, -anism or -ianism
        left out."""
        suffix = next((k for k in DOCTRINE_SUFFIXES if span.endswith(k)), None)
        if suffix is None or len(span) - len(suffix) < 2:
            return None
        root = hangul_phonemes(span[: -len(suffix)])
        ranked = sorted(
            (
                (max(similarity(root, f) for r in _roots(n) for f in _forms(r)), n)
                for n in self._isms
                if len(n.split()) == 1
            ),
            key=lambda sn: (-sn[0], sn[1]),
        )
        found = self._clear_best(ranked, self.threshold)
        return replace(found, rule="doctrine") if found is not None else None

    def _headed_best(self, headed: dict[str, float], needed: float) -> Link | None:
        """The one name holding the span's translated head word ("루터 성경": the Luther
        Bible) whose other words the span renders (``headed``: ``_head_scores``), when no
        other such name comes close: the head word has already said what kind of name it
        is, so a name without it that merely sounds near is no rival."""
        ranked = sorted(headed.items(), key=lambda ns: (-ns[1], ns[0]))
        if not ranked or ranked[0][1] < needed:
            return None
        if len(ranked) > 1 and ranked[1][1] >= ALIGNED_RIVAL:
            return None
        name, score = ranked[0]
        second = ranked[1][1] if len(ranked) > 1 else 0.0
        return Link(name, score, score - second, "head word")

    def _aligned_best(self, span: str, p: str, headed: dict[str, float]) -> Link | None:
        """A name of several words that the span renders word by word, in order ("마더
        테레사": Mother, Teresa), when no close rival does: a whole-name score blurs word
        boundaries ("Theresa May" sounds almost as near), the words do not."""
        scored = self._scores(span, p, 0.0, headed)
        ranked = sorted(scored.items(), key=lambda ns: (-ns[1], ns[0]))[:ALIGNED_RIVALS]
        aligned = [_word_by_word(span, name) for name, _ in ranked]
        if aligned[0] < ALIGNED_SURE or any(a >= ALIGNED_RIVAL for a in aligned[1:]):
            return None
        name, score = ranked[0]
        second = ranked[1][1] if len(ranked) > 1 else 0.0
        return Link(name, score, score - second, "word by word")

    def _head_scores(self, span: str) -> dict[str, float]:
        """The names holding the span's translated head nouns, the rest aligned by sound
        word by word (``_translated``); empty when the span has no head noun."""
        tokens = span.split()
        heads = [HEAD_WORDS.get(t) for t in tokens]
        return self._translated(tokens, heads) if any(heads) else {}

    def _scores(
        self, span: str, p: str, floor: float = 0.0, headed: dict[str, float] | None = None
    ) -> dict[str, float]:
        """Every candidate's score for ``span`` (``p``: its phonemes; ``headed``: its
        ``_head_scores`` where already known); scores under ``floor`` may be given as 0."""
        scores = dict(self._head_scores(span) if headed is None else headed)
        skeleton = _skeleton(p)
        if len(skeleton) >= self.min_consonants:
            candidates = _candidates(self._by_skeleton, skeleton)
            whole: dict[str, float] = {}
            part: dict[str, float] = {}
            # Consonant skeletons first (C speed): only near ones get the weighted search.
            cutoff = max(1, len(skeleton) // 2)
            near = []
            numbers = _span_numbers(span)
            for name in candidates:
                if not self._numbers_agree(name, numbers):
                    continue  # numbers are written as numbers: "윈도우 8" is not Windows 7
                # only the forms whose consonants are near get the weighted comparison
                nearest: dict[str, tuple[int, float]] = {}  # a form may have two skeletons
                for f, pen, form_skeleton in self._phon[name]:
                    d = Levenshtein.distance(skeleton, form_skeleton, score_cutoff=cutoff)
                    if d <= cutoff and (f not in nearest or d < nearest[f][0]):
                        nearest[f] = (d, pen)
                if nearest:
                    forms = [(d, f, pen) for f, (d, pen) in nearest.items()]
                    near.append((min(d for d, _, _ in forms), name, forms))
            # nearest first; names break ties so that a run does not depend on set order
            near.sort(key=lambda item: (item[0], item[1]))
            for _, name, forms in near[:MAX_CANDIDATES]:
                for _, form, penalty in forms:
                    target = part if penalty >= SURNAME_PENALTY else whole
                    sim = similarity(p, form, floor) - penalty
                    if penalty == WITHOUT_DESIGNATOR and self._core_is_a_name(name):
                        sim -= DESIGNATOR_PENALTY
                    if sim > target.get(name, 0.0):
                        target[name] = sim
            # A surname alone counts only when no whole name is good enough.
            use = (
                whole
                if max(whole.values(), default=0.0) >= self.threshold
                else {**part, **{n: v for n, v in whole.items() if v >= part.get(n, 0.0)}}
            )
            for name, sim in use.items():
                if sim > scores.get(name, 0.0):
                    scores[name] = sim
        return scores

    def _translated(
        self, tokens: list[str], heads: list[tuple[str, ...] | None]
    ) -> dict[str, float]:
        """Names holding every translated head word, the other tokens matched by sound."""
        wanted = [h for h in heads if h]
        pool: set[str] | None = None
        for options in wanted:
            found: set[str] = set()
            for option in options:  # "state+university": a name holding both words
                parts = [self._by_word.get(w, set()) for w in option.split("+")]
                found |= set.intersection(*parts)
            pool = found if pool is None else pool & found
        out: dict[str, float] = {}
        rest = [t for t, h in zip(tokens, heads, strict=True) if not h]
        if not pool or not rest:
            return out
        rest_p = [hangul_phonemes(t) for t in rest]
        # a rest word Korean translates ("독일 축구 국가대표팀": Germany), or its language
        # as an adjective ("스웨덴 공군": Swedish Air Force)
        rest_en = [{_fold(e) for e in english_names(t) + english_names(t + "어")} for t in rest]
        head_words = {w for options in wanted for option in options for w in option.split("+")}
        for name in pool:
            words = [w for w in self._words[name] if w not in head_words]
            if len(words) != len(rest_p):
                if len(rest_p) == 1 and len(words) > 1:  # "세인트루이스": one Korean word
                    out[name] = max(similarity(rest_p[0], f) for f in _forms(" ".join(words)))
                continue
            sims = [
                1.0
                if en & set(words)
                else max(similarity(rp, f) for w in words for f in latin_forms(w))
                for rp, en in zip(rest_p, rest_en, strict=True)
            ]
            out[name] = min(sims)
        return out


@functools.lru_cache(maxsize=1 << 16)
def _forms(word: str) -> tuple[str, ...]:
    return tuple(latin_forms(word))


# Korean suffixes of doctrines, and the English ones they stand for (``_doctrine``)
DOCTRINE_SUFFIXES = ("주의", "교")


def _roots(name: str) -> list[str]:
    """ "Lutheranism": Lutheran and Luther; "Sikhism": Sikh."""
    word = _fold(name)
    return [word[: -len(s)] for s in ("ianism", "anism", "ism") if word.endswith(s)]


def _word_by_word(span: str, name: str) -> float:
    """How well each token of ``span`` renders the name's word in the same place (the
    weakest pair), or 0 when the counts differ; articles, "of" and designators are not
    counted, Latin tokens must be spelled as the word."""
    tokens = _REGNAL_SE.sub(r"\1", span).split()  # "하랄 5세": Harald V (of Norway)
    words = [
        w
        for w in (_regnal_form(name) or name).split()
        if _fold(w) not in _STOP_LATIN and _fold(w).replace(".", "") not in DESIGNATORS
    ]
    if len(tokens) != len(words) or len(tokens) < 2:
        return 0.0
    weakest = 1.0
    for token, word in zip(tokens, words, strict=True):
        if HANGUL_SYLLABLE.search(token):
            p = hangul_phonemes(token)
            sim = max((similarity(p, f) for f in _forms(_fold(word))), default=0.0)
        else:
            sim = 1.0 if _fold(token) == _fold(word) else 0.0
        weakest = min(weakest, sim)
    return weakest


# A word of a span renders a word of a name (meaning's word-by-word agreement).
WORD_MATCH = 0.75
# Word by word (``_aligned_best``): the best name's every word rendered at least this well,
# and none of the next ALIGNED_RIVALS names' words at ALIGNED_RIVAL.
ALIGNED_SURE = 0.8
ALIGNED_RIVAL = 0.65
ALIGNED_RIVALS = 6
HEADED_EXACT = 0.85
# A surname alone ("베컴" for David Beckham) links only when no other name shares it.
SURNAME_PENALTY = 0.04
CACHE_SIZE = 50_000  # spans already linked (questions repeat names)
MAX_CANDIDATES = 200  # nearest skeletons that get the weighted comparison
SHORT_THRESHOLD = 0.95  # two consonants or fewer ("교토"): nearly exact, or no link
# "Sounds the same": what a common noun needs to be linked (``exact``).
EXACT_SCORE = 0.95
REORDER_PENALTY = 0.02  # family name first: common for East Asian names only
# A club's or company's name said without its designator ("번리" for Burnley F.C.) marks
# its form; where another name is spelled so ("Sydney" beside Sydney FC), that form is
# DESIGNATOR_PENALTY behind it.
WITHOUT_DESIGNATOR = 1e-9
DESIGNATOR_PENALTY = 0.05
_WHOLE = WITHOUT_DESIGNATOR  # forms that say the whole name (``_exact`` compares only them)


# Club and company designators Korean usually leaves out ("레알 마드리드" for Real Madrid
# CF, "삼프도리아" for U.C. Sampdoria).
DESIGNATORS = frozenset(
    {
        "fc",
        "cf",
        "afc",
        "sc",
        "ac",
        "uc",
        "ss",
        "cd",
        "rc",
        "sk",
        "fk",
        "nk",
        "bk",
        "inc",
        "ltd",
        "co",
        "corp",
        "plc",
        "ag",
        "sa",
        "gmbh",
        "llc",
    }
)


def _without_designators(words: list[str]) -> list[str]:
    """A name's words without a club or company designator at either end."""
    return [
        w
        for i, w in enumerate(words)
        if i not in (0, len(words) - 1) or _fold(w).replace(".", "") not in DESIGNATORS
    ]


def _spoken_forms(name: str) -> list[tuple[str, float]]:
    """How a name may be said: whole (spelled, or pronounced as English), without a
    leading article or a club designator, in East Asian order (family name first: "고지마
    히데오" for Hideo Kojima), without middle names, or by its last word."""
    words = name.split()
    forms: list[tuple[str, float]] = []
    if words and words[0].lower() == "the" and len(words) > 1:
        words = words[1:]
        forms += [(p, 0.0) for p in latin_forms(name, 1)]  # "더 심슨스": the article said
    forms += [(p, 0.0) for p in latin_forms(" ".join(words))]
    if regnal := _regnal_form(" ".join(words)):
        forms += [(p, 0.0) for p in latin_forms(regnal, 2)]
    core = _without_designators(words)
    if core and core != words:
        forms += [(p, WITHOUT_DESIGNATOR) for p in latin_forms(" ".join(core), 2)]
        words = core
    if len(words) == 2:
        forms += [(p, REORDER_PENALTY) for p in latin_forms(f"{words[1]} {words[0]}", 2)]
    elif len(words) > 2 and all(w[:1].isupper() and w.lower() not in _STOP_LATIN for w in words):
        # middle names left out: "프랭클린 루스벨트" for Franklin Delano Roosevelt
        forms += [(p, REORDER_PENALTY) for p in latin_forms(f"{words[0]} {words[-1]}", 2)]
    if 2 <= len(words) <= 3:
        forms += [(p, SURNAME_PENALTY) for p in latin_forms(words[-1], 2) if len(_skeleton(p)) >= 3]
    best: dict[str, float] = {}  # forms come cheapest first: keep a form's first penalty
    for p, pen in forms:
        best.setdefault(p, pen)
    return list(best.items())


def _only(names: set[str] | None) -> Link | None:
    """The one name of ``names`` as a sure link; None when there are none or several."""
    return Link(next(iter(names)), 1.0, 1.0, "translation") if names and len(names) == 1 else None


def _digits(text: str) -> str:
    return " ".join(re.findall(r"[0-9]+", text))


def _span_numbers(span: str) -> tuple[str, bool]:
    """The numbers a span holds (Roman numerals read as numbers), and whether one is
    written onto a Latin letter ("S3", "A7"): a model's number, which must be spelled as
    the name spells it (Samsung Galaxy S III is not "S3"'s Callixtus III)."""
    return _digits(_arabic(span)), bool(re.search(r"[A-Za-z][0-9]", span))


_ROMAN = re.compile(r"(?=[IVXL])(?:XL|L?X{0,3})(?:IX|IV|V?I{0,3})")
_ROMAN_VALUES = {"I": 1, "V": 5, "X": 10, "L": 50}
_NO_NUMBERS = frozenset({""})


def _roman_value(token: str) -> int | None:
    if not _ROMAN.fullmatch(token):
        return None
    total = previous = 0
    for ch in reversed(token):
        value = _ROMAN_VALUES[ch]
        total, previous = (total - value, previous) if value < previous else (total + value, value)
    return total


def _arabic(text: str) -> str:
    """Roman numerals that count a name ("Louis XVI of France", "Final Fantasy VII") as
    Korean writes them ("루이 16세"): in Arabic digits. Never the first word, and a lone
    "I" only at the end or before "of" ("Alexander I of Russia", not "And I Love Her")."""
    words = text.split()
    out = list(words)
    for i, w in enumerate(words):
        value = _roman_value(w.rstrip(","))
        if i == 0 or value is None or words[i - 1][:1].islower():
            continue
        if w.rstrip(",") == "I" and not (i == len(words) - 1 or words[i + 1] == "of"):
            continue
        out[i] = str(value)
    return " ".join(out)


def _name_numbers(name: str) -> frozenset[str]:
    """The numbers a rendering of ``name`` must hold: its digits, with Roman numerals read
    as numbers; a lone "X" or "V" may also be a letter ("Malcolm X")."""
    arabic = _arabic(name)
    options = {_digits(arabic)}
    if any(w in ("X", "V") for w in name.split()[1:]):
        options.add(_digits(name))
    return frozenset(options)


def _regnal_form(name: str) -> str | None:
    """A counted name as Korean says it: the numeral in digits and a following "of ..."
    left out ("Louis XVI of France": 루이 16세)."""
    arabic = _arabic(name)
    if arabic == name:
        return None
    words = arabic.split()
    counted = next(i for i, (w, v) in enumerate(zip(name.split(), words, strict=True)) if w != v)
    if "of" in words[counted:]:
        return " ".join(words[: words.index("of", counted)])
    return arabic


def _fold(text: str) -> str:
    plain = unicodedata.normalize("NFKD", text)
    return "".join(c for c in plain if not unicodedata.combining(c)).lower()


def _neighbourhood(skeleton: str) -> set[str]:
    """The skeleton and every one-deletion variant (a SymSpell-style index key set)."""
    keys = {skeleton}
    if len(skeleton) <= 24:
        keys.update(skeleton[:i] + skeleton[i + 1 :] for i in range(len(skeleton)))
    return keys


# A capitalized token, its possessive or a Korean particle ("Beckham의") and punctuation
# dropped.
_CAPITALIZED = re.compile(
    r"^[\"'“‘(]*([A-Z](?:(?![\uac00-\ud7a3])[\w.\-'’])*?)(?:['’]s)?[\"'”’)]*"
    r"[\uac00-\ud7a3]*[\"'”’),.?!:;]*$"
)


def latin_name_runs(text: str, max_tokens: int = 4) -> list[tuple[str, int, int]]:
    """Runs of capitalized whitespace tokens (a possessive 's and punctuation dropped):
    ``(text, first token, end token)``, the names a Latin question may hold."""
    words = text.split()
    cleaned = []
    for w in words:
        m = _CAPITALIZED.match(w)
        cleaned.append(m.group(1) if m else None)
    out = []
    for i in range(len(words)):
        for j in range(i, min(len(words), i + max_tokens)):
            if cleaned[j] is None:
                break
            out.append((" ".join(c for c in cleaned[i : j + 1] if c), i, j + 1))
            if cleaned[j] != words[j]:
                break  # punctuation or 's ends the name
    return out
