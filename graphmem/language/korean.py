"""Korean analysis with kiwipiepy: where a name ends and its particles begin.

Korean writes case particles, the copula and honorifics onto the word they follow
("김민준님에게", "Christian Abbiati가", "\"Sketches by Boz\"의"), so whole-string
matching misses most mentions (most questions, in the CMC benchmark; see BENCHMARKS.md)
and naive prefix matching finds names inside other names. A registered name counts
only where it starts a word and is followed by nothing but particles, endings, the
copula or a title/honorific — which the morphological analysis decides, not a list.

Kiwi takes over a second to load, so one instance is created per process on first use
and shared; analyzers are plain objects that are cheap to construct. User words go into
that shared instance (registering a name helps every analyzer), and a lock serializes
registration and analysis because Kiwi rebuilds its dictionary when words are added.
"""

from __future__ import annotations

import contextlib
import re
import threading
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from graphmem.language.base import (
    NameSpan,
    Token,
    clean_names,
    maximal_spans,
    may_occur,
    merge_name_tokens,
    name_regex,
)
from graphmem.language.text import HANGUL_SYLLABLE, KOREAN_TITLES

if TYPE_CHECKING:
    from kiwipiepy import Kiwi

__all__ = [
    "HONORIFIC_FORMS",
    "KoreanAnalyzer",
    "genitive_runs",
    "name_runs",
    "name_spans",
    "proper_noun_spans",
    "shared_kiwi",
    "strip_particles_and_honorifics",
]

# Title and honorific morphemes as Kiwi emits them: "팀장님" is 팀장/NNG + 님/XSN.
HONORIFIC_FORMS = frozenset(
    {t.removesuffix("님") for t in KOREAN_TITLES if t.removesuffix("님")} | {"님"}
)
# Suffixes (XSN) that may follow a name: honorific 님, the affectionate 이 ("민준이가"), plural.
_NAME_SUFFIXES = frozenset({"님", "씨", "이", "들"})
_CLOSING_PUNCT = frozenset({"SSC", "SF", "SP", "SE", "SO", "SW"})
_QUOTES = "\"'“”‘’「」『』《》〈〉"

_lock = threading.RLock()
_kiwi: Kiwi | None = None
_registered: set[str] = set()


def shared_kiwi() -> Kiwi:
    """The process-wide Kiwi instance, created on first use.

    Kiwi initializes lazily at the first analysis (about 1.5 s); adding user words makes
    the next analysis rebuild (about 1 s), so names are registered in batches.
    """
    global _kiwi
    if _kiwi is None:
        with _lock:
            if _kiwi is None:
                from kiwipiepy import Kiwi

                # The built-in multi-word WikiData dictionary quadruples load time and every
                # rebuild after add_user_word; the names that matter are registered by us.
                _kiwi = Kiwi(load_multi_dict=False)
    return _kiwi


def _register(names: Iterable[str]) -> None:
    kiwi = shared_kiwi()
    with _lock:
        for name in names:
            if name in _registered:
                continue
            # Kiwi refuses some strings; their spans are still found by text match.
            with contextlib.suppress(ValueError, RuntimeError):
                kiwi.add_user_word(name, "NNP")
            _registered.add(name)


def _is_word(ch: str) -> bool:
    return ch.isalnum() or ch == "_"


def _is_affix(form: str, tag: str) -> bool:
    """May follow a name inside the same word without changing who is named."""
    if tag.startswith(("J", "E")) or tag == "VCP":
        return True
    if tag == "XSN":
        return form in _NAME_SUFFIXES or form in HONORIFIC_FORMS
    return tag in ("NNG", "NNB", "NNP") and form in HONORIFIC_FORMS


class KoreanAnalyzer:
    """Kiwi tokens, sentences and particle-aware name spans; cheap to construct."""

    lang = "ko"

    def __init__(self, user_words: Iterable[str] = ()) -> None:
        self._names: set[str] = set()
        self._pending: set[str] = set()
        self.add_user_words(user_words)

    @property
    def user_words(self) -> frozenset[str]:
        return frozenset(self._names)

    def add_user_words(self, names: Iterable[str]) -> None:
        """Register names as NNP user words (sent to Kiwi on first use, not now)."""
        new = set(clean_names(names)) - self._names
        self._names |= new
        self._pending |= new

    def _flush(self) -> None:
        if self._pending:
            pending, self._pending = self._pending, set()
            _register(pending)

    def _raw(self, text: str) -> list[Any]:
        self._flush()
        kiwi = shared_kiwi()
        with _lock:
            return list(kiwi.tokenize(text))

    def tokens(self, text: str) -> list[Token]:
        """Kiwi morphemes with offsets; predicates carry their lemma ("옮기다") as ``norm``.

        A morpheme without surface of its own (the zero-length copula in "3시야") has
        ``start == end`` and its morpheme as ``text``.
        """
        raw = self._raw(text)
        out = []
        for t in raw:
            tag = str(t.tag)
            norm = getattr(t, "lemma", t.form) if tag.startswith("V") else t.form
            out.append(
                Token(
                    text[t.start : t.start + t.len] or t.form,
                    norm,
                    t.start,
                    t.start + t.len,
                    tag,
                    tag.startswith("J"),
                )
            )
        if self._names:
            spans = self._spans(text, clean_names(self._names), raw)
            out = merge_name_tokens(text, out, spans, "NNP")
        return out

    def sentences(self, text: str) -> list[str]:
        self._flush()
        kiwi = shared_kiwi()
        with _lock:
            sents = kiwi.split_into_sents(text)
        return [s.text.strip() for s in sents if s.text.strip()]

    def name_spans(self, text: str, names: Iterable[str] | None = None) -> list[NameSpan]:
        """Registered names that start a word and are followed only by particles/titles.

        "김민준님에게" → (0, 3, "김민준"); "김민준호" has no span: 호 is not a particle.
        Names passed here are registered as user words first.
        """
        wanted = clean_names(self._names if names is None else names)
        if not wanted:
            return []
        self.add_user_words(wanted)
        return self._spans(text, wanted, None)

    def _spans(self, text: str, wanted: list[str], raw: list[Any] | None) -> list[NameSpan]:
        spans: list[NameSpan] = []
        folded = text.casefold()
        for name in wanted:
            if not may_occur(name, folded):
                continue
            for m in name_regex(name).finditer(text):
                s, e = m.span()
                if s > 0 and _is_word(text[s - 1]):
                    continue  # inside another word: "이민준" in "김이민준"
                tail_end = e
                while tail_end < len(text) and _is_word(text[tail_end]):
                    tail_end += 1
                if tail_end > e:
                    if raw is None:
                        raw = self._raw(text)
                    if not _tail_is_affixes(raw, e, tail_end):
                        continue
                spans.append(NameSpan(s, e, name))
        return maximal_spans(spans)

    def strip_particles_and_honorifics(self, text: str) -> str:
        """A mention without trailing particles, copula, titles and honorifics.

        "김민준님에게" → "김민준", "이민준 팀장님은" → "이민준",
        "\"Sketches by Boz\"의" → "Sketches by Boz". A title alone ("팀장님") is what the
        person is called and is kept.
        """
        s = text.strip()
        if not s:
            return s
        raw = self._raw(s)
        first = s[: _cut_trailing(raw, len(s), _is_grammatical)].rstrip()
        second = first[: _cut_trailing(raw, len(first), _is_title)].rstrip()
        result = second if second.strip(_QUOTES + " ") else first
        return result.strip().strip(_QUOTES).strip() or s


def _is_grammatical(form: str, tag: str) -> bool:
    """Particles, endings, the copula and closing punctuation: never part of a name."""
    return tag.startswith(("J", "E")) or tag == "VCP" or tag in _CLOSING_PUNCT


def _is_title(form: str, tag: str) -> bool:
    """Titles and honorific suffixes: not part of a name unless nothing else is left."""
    return _is_affix(form, tag) and not _is_grammatical(form, tag)


def _tail_is_affixes(raw: list[Any], start: int, end: int) -> bool:
    """Tokens of text[start:end] are all affixes, and no token crosses ``start``."""
    covered = start
    found = False
    for t in raw:
        t_end = t.start + t.len
        if t.start < start < t_end:
            return False  # the analyzer reads the name's end as part of a longer word
        if start <= t.start < end:
            if not _is_affix(t.form, str(t.tag)):
                return False
            found = True
            covered = max(covered, t_end)
    return found and covered >= end


def _cut_trailing(raw: list[Any], limit: int, removable: Callable[[str, str], bool]) -> int:
    """Where the trailing run of removable tokens (ending at or before ``limit``) starts."""
    cut = limit
    for t in reversed(raw):
        t_end: int = t.start + t.len
        if t.start >= limit:
            continue
        if removable(t.form, str(t.tag)) and t_end <= limit:
            cut = min(cut, t.start)
            continue
        # never cut into a kept token (Kiwi may report overlapping offsets: "했어")
        return max(cut, min(t_end, limit))
    return cut


_default: KoreanAnalyzer | None = None


def _default_analyzer() -> KoreanAnalyzer:
    global _default
    if _default is None:
        _default = KoreanAnalyzer()
    return _default


def strip_particles_and_honorifics(text: str) -> str:
    """Module-level shortcut for ``KoreanAnalyzer().strip_particles_and_honorifics``."""
    return _default_analyzer().strip_particles_and_honorifics(text)


def name_spans(text: str, names: Iterable[str]) -> list[NameSpan]:
    """Module-level shortcut: particle-aware spans of ``names`` in ``text``."""
    return _default_analyzer().name_spans(text, names)


def noun_compounds(text: str) -> list[str]:
    """The nouns of a Korean text, adjacent nouns of one word kept together as one
    compound ("영어학원에" -> 영어학원; "몇 시에 데리러 가면 돼요" -> 시): what a request is
    about, without its predicates and endings."""
    out: list[str] = []
    run: list[str] = []
    end = -1
    for t in _default_analyzer().tokens(text):
        if t.pos in ("NNG", "NNP", "SL", "SN", "XR") and t.end > t.start:
            if run and t.start != end:
                out.append("".join(run))
                run = []
            run.append(text[t.start : t.end])
            end = t.end
        elif run:
            out.append("".join(run))
            run = []
    if run:
        out.append("".join(run))
    return out


# Verbs that say little of what is asked about ("했지", "된다고", "가야 돼요").
_LIGHT_VERBS = frozenset(
    re.findall(
        r"\S+",
        "하 해 했 한 할 되 돼 된 됐 될 있 없 보 봐 주 줘 가 오 와 말 알 "
        "모르 같 그렇 그러 그랬 어떻 이렇 받 들 나 내 놓 두 싶 않 좋",
    )
)


def predicate_stems(text: str) -> list[str]:
    """The stems of a Korean text's verbs and adjectives as written ("못 먹는 거" -> 먹),
    without the light verbs that say nothing of a topic (하다, 되다, 있다)."""
    out: list[str] = []
    for t in _default_analyzer().tokens(text):
        if t.pos.split("-")[0] in ("VV", "VA") and t.end > t.start:
            stem = text[t.start : t.end]
            if stem not in _LIGHT_VERBS and t.norm not in _LIGHT_VERBS:
                out.append(stem)
    return out


def proper_noun_spans(text: str) -> set[tuple[int, int]]:
    """Where Kiwi reads a proper noun (NNP) in ``text``: a name it knows or guesses
    ("지민", "마르코"), as opposed to a common noun ("요가", "트레이너")."""
    return {(t.start, t.end) for t in _default_analyzer().tokens(text) if t.pos == "NNP"}


_NOUN_TAGS = frozenset({"NNP", "NNG", "SL", "SN", "SH", "NR"})
_PROPER_TAGS = frozenset({"NNP", "SL", "SH"})
MAX_NAME_TOKENS = 4
_JOINERS = frozenset("-./&'")
# Kiwi's score for a noun it barely knows (a transliterated name it has no entry for,
# "헤르미온느" -24.6) is far below a common word's ("음악" -8.8, "배우자" -10.9).
UNFAMILIAR_SCORE = -15.0


def _after_noun(tag: str) -> bool:
    """Particles, the copula, endings and punctuation may follow a name in its word."""
    return tag.startswith(("J", "E", "S")) or tag == "VCP"


def name_runs(text: str) -> list[tuple[str, int, int, bool]]:
    """Spans of whitespace tokens that may name something: ``(text, first token, end
    token, proper)`` for every run of at most four tokens whose words are nouns, a
    particle after the last one dropped ("베컴의" → "베컴"). ``proper``: Kiwi read a
    proper noun, Latin letters or a noun it barely knows in it (a transliterated name it
    has no entry for: "헤르미온느 그레인저"); a run of familiar common nouns only ("배우자",
    "테니스", "음악 스타일") is marked so that a linker can ask more of it."""
    words = [(m.start(), m.end()) for m in re.finditer(r"\S+", text)]
    if not words or not HANGUL_SYLLABLE.search(text):
        return []
    with _lock:
        raw = list(shared_kiwi().tokenize(text))
    morphs: list[list[Any]] = [[] for _ in words]
    w = 0
    for t in raw:
        while w < len(words) and t.start >= words[w][1]:
            w += 1
        if w < len(words) and t.start >= words[w][0]:
            morphs[w].append(t)
    info: list[tuple[str, bool, int] | None] = []  # (name part, proper, where it starts)
    for ms in morphs:
        while ms and ms[0].tag in ("SSO", "SSC"):
            ms = ms[1:]  # an opening quote or bracket: '"씬 시티"의'
        head: list[Any] = []
        for i, m in enumerate(ms):
            # "F-22", "AT&T", "O'Brien", "AC/DC": one name (Kiwi tags the joiner SO, SW,
            # SS or SP)
            joins = (
                m.form in _JOINERS
                and m.tag in ("SO", "SW", "SS", "SP")
                and head
                and i + 1 < len(ms)
                and ms[i + 1].tag in ("SL", "SN")
            )
            # a noun prefix or suffix inside one word ("대/XPN 성당", "선수 권/XSN"); not an
            # honorific or the affectionate 이 after a given name ("민준님", "민준이")
            affix = (m.tag == "XPN" and i + 1 < len(ms) and ms[i + 1].tag in _NOUN_TAGS) or (
                m.tag == "XSN" and head and m.form not in _NAME_SUFFIXES
            )
            if m.tag not in _NOUN_TAGS and not joins and not affix:
                break
            head.append(m)
        rest = ms[len(head) :]
        if not head or not all(_after_noun(m.tag) for m in rest):
            info.append(None)
            continue
        info.append(
            (
                text[head[0].start : head[-1].start + head[-1].len],
                any(m.tag in _PROPER_TAGS or m.score < UNFAMILIAR_SCORE for m in head),
                head[0].start,
            )
        )
    out = []
    for i in range(len(words)):
        for j in range(i, min(len(words), i + MAX_NAME_TOKENS)):
            last = info[j]
            if last is None:
                break
            inner = [text[x[2] : words[k][1]] for k in range(i, j) if (x := info[k])]
            out.append(
                (
                    " ".join([*inner, last[0]]),
                    i,
                    j + 1,
                    any(x is not None and x[1] for x in info[i : j + 1]),
                )
            )
            if text[last[2] : words[j][1]] != last[0]:
                break  # a particle or a closing quote ends the name
    return out


_GENITIVE_WORD = re.compile(r"^[\"'“‘(]*([\uac00-\ud7a3A-Za-z0-9]{1,20})의$")
_TRAILING = re.compile(r"[\"'”’)?!.,:;~]+$")


def genitive_runs(
    text: str, runs: Iterable[tuple[str, int, int, bool]] = ()
) -> list[tuple[str, int, int]]:
    """Titles joined by a genitive 의 ("폭풍의 언덕", "반지의 제왕", "카라마조프가의 형제들"):
    ``(text, first token, end token)`` for a word ending in 의 and the noun run after it
    (``runs``, from ``name_runs``), or the next word with its particle dropped. Names
    that Korean translates are often built so; a linker reads them by meaning."""
    words = text.split()
    after: dict[int, list[tuple[str, int]]] = {}
    for run_text, s, e, _ in runs:
        after.setdefault(s, []).append((run_text, e))
    out: list[tuple[str, int, int]] = []
    for i, word in enumerate(words[:-1]):
        m = _GENITIVE_WORD.match(word)
        if not m or not HANGUL_SYLLABLE.search(word):
            continue
        following = after.get(i + 1) or []
        if not following:
            nxt = _TRAILING.sub("", words[i + 1])
            if HANGUL_SYLLABLE.search(nxt):
                following = [(strip_particles_and_honorifics(nxt) or nxt, i + 2)]
        for run_text, e in following:
            out.append((f"{m.group(1)}의 {run_text}", i, e))
    return out
