"""Reading a block request: what kind of answer it asks for, and about what.

No list of slots: the asked *answer type* comes from question words, endings and
structure in both languages ("what time", "몇 시" → a time; "where", "어디" → a place;
"how much", "얼마" → money; "who", "누구" → a person; "did it move", "바뀌었어" → the
current value and its change), and the asked *topic* is the request's content words.
A stored fact answers when its value is of an asked type and the topic is found in
what the memory itself says about the fact: its relation's name, the names declared as
its synonyms, and the words of the record that stated it. Values are typed by the same
recognizers the chat extractor uses (or by ``registry.declare(value_type=...)``).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from graphmem.domain.block import titled_name
from graphmem.extract.chat.values import WEEKDAY_WORDS, find_values, month_number, states_a_length
from graphmem.language.korean import noun_compounds, predicate_stems, proper_noun_spans
from graphmem.language.text import (
    KOREAN_FULL_NAME,
    KOREAN_RANK_TITLES,
    KOREAN_TITLES,
    has_hangul,
    particle_stems,
)
from graphmem.reads.ranking import stemmed_tokens

__all__ = [
    "FORMLESS_TYPES",
    "AnswerType",
    "FactMatch",
    "RequestReading",
    "accepts",
    "another_kind",
    "another_korean_kind",
    "another_numbered",
    "another_period",
    "kind_words",
    "korean_kind_nouns",
    "match_fact",
    "name_word_set",
    "read_request",
    "relation_types",
    "restates",
    "sets_aside",
    "settle_types",
    "states_a_change",
    "text_types",
    "the_other_end",
    "value_type",
]

# time, date, datetime, place, money, person, quantity, duration, contact (a phone number,
# an extension or an email address), text
AnswerType = str

# "which (clinic) room", "which gate": up to two words that say which kind of it, then a
# noun for a place. The words may not be verbs or articles ("which day is room 4 free?"
# asks a day).
_MODIFIERS = (
    r"(?:(?!(?:is|are|was|were|do|does|did|will|can|the|a|an|of|to|for|on|in|at)\b)"
    r"[a-z]+\s+){0,2}"
)
_PLACE_NOUN = (
    _MODIFIERS + r"(?:room|place|venue|address|floor|building|spot|restaurant|cafe|hotel|"
    r"office|location|ward|gate|platform|station|terminal|exit|entrance|hall|court|pitch|"
    r"gym|studio|branch|site|bay|dock|berth|pier|car\s+park|campsite|clinic|hospital|"
    r"church|pub|bar|shop|store|centre|center|warehouse|depot|airport)\b"
)

# Words that ask what is paid, with no question word ("Gordon's fee", "견적 나왔어?").
_PAID_ASKED = (
    r"\b(?:fees?|charg(?:e|es|ed|ing)|paying|quoted?|budget|rent|wages?|salary)\b|"
    r"요금|단가|견적|예산|회비|월세|시급|일당|수당|급여"
)
_CONTACT_ASKED = (
    r"\b(?:phone|mobile|cell|telephone|landline|callback|pager|contact)\s*"
    r"(?:number|no\b\.?|#|line|details|info)|"
    r"['’]s\s+(?:(?:direct|work|home|personal|internal|office|desk)\s+)?"
    r"(?:phone|mobile|cell|number|e-?mail|extension|line)\b|"
    r"\b(?:a|best|her|his|their|your|my)\s+(?:phone\s+|mobile\s+|contact\s+)?number\b(?!\s+of)|"
    r"\be-?mail\s+(?:address|for)\b|\bextension\s+(?:number|no\b)|"
    r"연락처|전화\s*번호|폰\s*번호|핸드폰|휴대폰|휴대\s*전화|내선|메일\s*(?:주소|뭐|알려)|"
    r"(?:님|씨|쌤|샘|언니|오빠|누나|형|이)\s*번호(?!판)"
)
_NUMBER_FOR = re.compile(r"\bnumber\s+for\s+([\w'’]+)", re.I)
_TITLES = frozenset({"dr", "prof", "mr", "mrs", "ms", "miss", "sir"})  # "the INC number for Prof X"
# Question cues -> the value types that answer them. Checked in order; the first family
# that matches decides (a "how long" is a duration, not a "how").
_CUES: tuple[tuple[re.Pattern[str], frozenset[str]], ...] = tuple(
    (re.compile(p, re.I), frozenset(t))
    for p, t in (
        (
            r"\bhow\s+long\b|\bhow\s+much\s+time\b|얼마나\s*(?:걸|오래|있|계시|머물|머무|지내)|며칠\s*(?:동안|걸)|몇\s*(?:시간|주|달|개월|년)\s*"
            # "기간에", "기간 동안" say when the question is about, not what it asks.
            # "몇 분이나" may count people said politely ("몇 분이나 오신대?").
            r"(?:동안|걸|짜리|이나)|몇\s*분\s*(?:동안|걸|짜리)|얼마\s*동안|기간(?!\s*(?:에|동안|중))",
            {"duration"},
        ),
        # "how many days/weeks" counts time: a duration or a count of days.
        (
            r"\bhow\s+many\s+(?:days|nights|hours|hrs|weeks|wks|months|minutes|mins|years)\b|"
            r"몇\s*(?:개월|달|주|년)(?!\s*(?:도|생|차))",
            {"duration", "quantity"},
        ),
        (
            r"\bwhat\s+time\b|\bwhat\s+hour\b|\bwhich\s+time\b|"
            r"\b(?:best|good|right|usual)\s+time\s+to\b|몇\s*시(?!간)|몇시(?!간)|"
            r"시간이?\s*(?:언제|몇(?!\s*분))",
            {"time", "datetime"},
        ),
        (r"며칠", {"date", "datetime", "duration"}),
        (
            r"\b(?:what|which)\s+(?:day|date)\b|\bwhat\s+day\b|몇\s*(?:월|일)(?!\s*동안)|무슨\s*요일|"
            r"날짜|\bwhat\s+weekday\b",
            {"date", "datetime"},
        ),
        (
            r"\bwhen\b|\bwhen'?s\b|언제|\bby\s+when\b|\bwhat'?s\s+the\s+(?:date|day)\b",
            {"time", "date", "datetime"},
        ),
        # 얼마나 asks a degree: how much, how many or how long ("얼마나 둬요?").
        (r"얼마나", {"money", "quantity", "duration"}),
        (
            r"\bhow\s+much\b|\bcost\b|\bprice\b|\bhow\s+expensive\b|얼마|가격|비용|금액",
            {"money", "quantity"},
        ),
        # "몇 호", "몇 층": a number that names a place, or a count.
        (r"몇\s*(?:호|층)|몇\s*동(?!\s*안)", {"quantity", "place"}),
        (
            r"\bhow\s+many\b|몇\s*(?:명|개(?!월)|번|장|병|권|마리|잔|살|대|박|군데|곳|점|벌|켤레|상자|박스|세트|바퀴)|몇\s*(?:인분)",
            {"quantity"},
        ),
        # "몇 분": minutes, or people said politely ("몇 분 오세요?").
        (r"몇\s*분", {"duration", "quantity"}),
        # A way to reach someone ("Jamal's mobile", "a number for Joel", "연락처", "만식이
        # 번호"): a phone number, an extension or an email address answers, nothing else.
        (_CONTACT_ASKED, {"contact"}),
        (r"\bwho\b|\bwhom\b|\bwho'?s\b|\bwith\s+who\b|누구|누가|누굴|누군", {"person"}),
        # "선생님 성함", "담당자 이름": a person's name ("강아지 이름" is a thing's).
        (r"성함|(?:님|쌤|담당자?)\s*이름", {"person"}),
        # "어느 교수님": which person.
        (r"어느\s*(?:교수|선생|분|사람|기사|강사|코치|쌤|의사|담당)", {"person"}),
        (
            r"\bwhere\b|\bwhere'?s\b|\bwhich\s+" + _PLACE_NOUN + r"|"
            r"\bwhat\s+(?:address|place|venue|location)\b|"
            r"\bwhat\s+" + _MODIFIERS + r"(?:room|ward|platform|gate|floor)\b|"
            r"(?<!email )(?<!e-mail )(?<!ip )(?<!web )\baddress\b|\bpostcode\b|"
            r"\bzip\s*code\b|어디|장소|주소|위치|"
            # "어느 강의실", "어느 역에서": which place.
            r"어느\s*(?:방|곳|장소|건물|층|식당|카페|지점|강의실|회의실|교실|호실|전시실|관|동네|"
            r"절|성당|교회|병원|병동|역|출구|구역|대피소|홀|코트|구장|경기장|체육관|집|호텔|숙소|"
            r"매장|가게|학교|사무실|센터|공원|주차장|터미널|공항|게이트|도크|창고|캠핑장|사이트)",
            {"place"},
        ),
        # An unfinished statement the reply will complete: "the sync is in" → a place,
        # "the standup is at" → a time.
        (r"\b(?:is|are|was|were)\s+(?:in|on\s+floor)\s*[.…]*\s*$", {"place"}),
        (r"\b(?:is|are|was|were)\s+at\s*[.…]*\s*$", {"time", "datetime"}),
        # What is paid, asked with no question word: "what's Gordon's fee for the survey?"
        (_PAID_ASKED, {"money"}),
    )
)
# A request that opens with a question word other than "when" ("who covers Eamon when
# he's off?"), and the when-clause that may follow it.
_LEADING_WH = re.compile(
    r"^\W*(?:(?:hey|hi|so|and|ok|okay|um|btw|also|sorry|pls|please)\W+)*"
    r"(?:where|who(?!\s+knows)|whom|whose|which|how\s+(?:much|many))\b",
    re.I,
)
_WHEN_CLAUSE = re.compile(r"\bwhen(?:ever)?\b.*$", re.I | re.S)
# "How much" asks an amount: money or a quantity ("how much flour"), until a word says
# it is paid.
_AMOUNT = frozenset({"money", "quantity"})
# Korean fees and sums paid, by the nouns that name them: 참가비, 보험료, 계약금, 밥값.
_FEES_KO = (
    r"(?:참가|관리|교통|숙박|수강|수업|레슨|강습|심사|부스|대여|렌트|렌탈|진료|치료|수리|공사|인건|"
    r"재료|출장|택시|주차|대관|이용|배송|택배|설치|시공|작업|출연|촬영|통역|번역|강사|강연|자문|중개|"
    r"용역|청소|세탁|보관|회식|간식|식|탐지|검사|상담|등록|입학|가입|체험|투어|여행|항공|수선|정비|"
    r"견인|철거|폐기|이사|운반|인쇄|제작|디자인|편집)비|"
    r"(?:보험|수강|입장|대관|사용|이용|임대|연체|위약|보관|통행|주차|배송|중개|진료|관람|대여|수업|"
    r"강습|교습|가입|연회)료|"
    r"(?:계약|착수|등록|잔|선|중도|위약|축의|부조|조의|보상|상|벌|지원|장학|후원|예치|격려|사례|성과|"
    r"입학|가입)금|"
    r"(?:밥|집|기름|술|약|책|옷|방|자릿|찻|커피)값|인세|세금|전세|팁"
)
_PAID = re.compile(
    rf"{_PAID_ASKED}|\b(?:paid|prices?|costs?|deposit|fare)\b|가격|비용|금액|수수료|보증금|월급|연봉|"
    rf"{_FEES_KO}",
    re.I,
)
# Asking whether a value changed, or still holds: the answer is the current value.
_CHANGE = re.compile(
    r"\bstill\b|\bchang(?:e|ed|ing)\b|\bmov(?:e|ed)\b|\bpush(?:ed)?\b|\bresched|\bswitch|"
    r"\bupdat|\bany\s+news\b|\bnow\b|바뀌|바꼈|바꿨|변경|옮|미뤄|미뤘|연기|그대로|아직|여전히|이제",
    re.I,
)

# A message that replaces what was said before: "moved to", "instead", "looking like
# Friday now", "바뀌었어요", "대신".
_REPLACES = re.compile(
    r"\bmov(?:e|ed|es|ing)\b|\bchang(?:e|ed|ing)\b|\binstead\b|\bnow\b|\bdelay|"
    r"\bpush(?:ed)?\b|\bresched|\bswitch|\bnot\b.*\banymore\b|\bactually\b|"
    r"\bbump(?:ed|ing)?\b|\braised?\b|\bincreas|\breduc|\bbrought\s+forward\b|\bextend|"
    r"\bshift(?:ed|ing)\b|\bmake\s+it\b|\bnew\s+plan\b|\bcancel(?:l?ed|ling)?\b|"
    r"\bfrom\s+(?:now\s+on|tomorrow|next\s+\w+|(?:mon|tues|wednes|thurs|fri|satur|sun)day)\b(?!['’])|"
    # from August, from next week on
    r"\d+\s*월\s*부터|(?:다음|이번)\s*(?:주|달)\s*부터|"
    # extended, final, confirmed, added
    r"연장|최종|확정|추가\s*(?:돼|됐|되|했|해)|"
    r"바뀌|바꼈|바꿨|바꾸|바꿉|바꿔|바꿀|변경|옮|미뤄|미뤘|미루|미룰|미룹|연기|대신|이제|말고|"
    # pushed back, brought forward, delayed, raised, increased, cut, adjusted
    r"밀렸|밀려|밀어야|밀게|밀릴|밀립|당겨|당길|당깁|당겼|당기|늦춰|늦춥|늦췄|늦추|"
    r"늦어지|늦어집|늦어져|늦어졌|올리게|올리기로|올려|올렸|올립|올릴|올랐|올라요|올라서|늘려|늘렸|늘었|늘립|늘릴|줄여|줄였|줄일|줄입|줄었|조정|수정",
    re.I,
)


def states_a_change(text: str) -> bool:
    """Whether a message says something replaces what was said before."""
    return bool(_REPLACES.search(text))


def restates(old: str, new: str, names: frozenset[str] = frozenset()) -> bool:
    """Whether a later message takes up what an earlier one said: it quotes one of its
    values ("5월 29일이 대동제랑 겹쳐서 … 6월 5일로 미룹니다") or shares two of its words
    ("renew our vows at the chapel instead of the gazebo"); people's names are not
    counted."""
    if _quoted_values(old) & _quoted_values(new):
        return True
    return len(_said_words(old, names) & _said_words(new, names)) >= 2


@lru_cache(maxsize=8192)
def _quoted_values(text: str) -> frozenset[str]:
    """The values a message states that a later one may quote, spaces and case aside."""
    return frozenset(
        re.sub(r"\s+", "", v.text.casefold()) for v in find_values(text) if v.kind in _QUOTED
    )


@lru_cache(maxsize=8192)
def _said_words(text: str, names: frozenset[str]) -> frozenset[str]:
    """The content words of a message: Korean nouns (compounds whole), English words
    stemmed; no stop word, number or name."""
    if has_hangul(text):
        words = [w.casefold() for w in noun_compounds(text) if len(w) >= 2]
        return frozenset(
            w for w in words if w not in _KO_STOP and not any(n in w for n in names if len(n) > 1)
        )
    return frozenset(
        _normal(w)
        for w in _words(text)
        if len(w) >= 3 and not w.isdigit() and w not in _EN_STOP and w not in names
    )


_EN_WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")
_KO_WORD = re.compile(r"[가-힣0-9a-z]+")


# Words that ask rather than say what about: question words, auxiliaries, generic verbs,
# pronouns, fillers and chat abbreviations.
def _wordlist(text: str) -> frozenset[str]:
    return frozenset(text.split())


_EN_STOP = _wordlist("""
a an the is are was were be been being am do does did doing done have has had having
what what's whats which who who's whom whose when when's where where's why how how's
i i'm me my mine we our us you your yours he him his she her they them their it it's its
this that these those there here again still now then just also anyway actually really
to of in on at for with from by about as into over after before up down out off than
and or but if so not no yes ok okay pls please plz thx thanks hey hi hello yo um uh lol
can could would should will shall may might must gonna wanna gotta going go goes went
get gets got getting need needs know tell remind remember recall forget check say said
show let's let make thing things stuff what'd whats exactly
tmrw tmr tomorrow today tonight yesterday next this these week month year
much many long often anything something won won't come put each every per
""")
_KO_STOP = _wordlist("""
뭐 뭐야 뭐였지 뭐였더라 뭐지 뭐예요 뭔가 무엇 무슨 어떤 어디 어디야 어디서 어디로 어디에
언제 언제야 언제였지 몇 얼마 얼마야 얼마나 누구 누가 누구야 누구랑 어느 혹시 그 이 저 거 것
건 게 좀 다시 아직 그대로 여전히 이제 지금 오늘 내일 모레 어제 이번 다음 지난 저번 주 요즘
제 내 나 우리 너 니 네 당신 알려줘 알려주세요 알려 줘 주세요 해줘 해요 했어 했지 했나 한다고
하대 한대 하는 하기로 기로 만나기로 맞아 맞지 맞나 있어 있나 있지 없어 였지 였나 이었지 예요
이에요 인가 인가요 이야 야 요 지 죠 나요 ㅎㅎ ㅋㅋ ㅠㅠ ㅇㅇ ㄱㄱ
""")
# "Now" said at length names no kind of a thing ("the best time to try Eldon these days").
_NOWADAYS = re.compile(r"\b(?:these\s+days|nowadays|at\s+the\s+moment|right\s+now)\b", re.I)
# Words that label one of several ("phase two", "2차"). "one" and "last" are left out:
# in chat they are mostly pronouns ("which one's hers") and "the last day".
_NUMBER_WORDS = _wordlist(
    "two three four five six seven eight nine ten first second third fourth fifth "
    "1st 2nd 3rd 4th 5th 일 이 삼 사 오 첫 첫째 둘째 셋째 1차 2차 3차"
)
# The digit a number word stands for, so that "the second quarter" finds "Q2".
_DIGIT_OF = {
    w: str(i)
    for words, i in (
        ("first 1st 첫 첫째 일", 1),
        ("two second 2nd 둘째 이", 2),
        ("three third 3rd 셋째 삼", 3),
        ("four fourth 4th 사", 4),
        ("five fifth 5th 오", 5),
        ("six", 6),
        ("seven", 7),
        ("eight", 8),
        ("nine", 9),
        ("ten", 10),
    )
    for w in words.split()
}
# The other way: the English words a fact may write a request's digit as ("rd 1" is the
# "first round"). Korean readings (일, 이, 사) are everyday syllables, left out.
_WORDS_OF_DIGIT: dict[str, tuple[str, ...]] = {
    d: tuple(w for w, wd in _DIGIT_OF.items() if wd == d and w.isascii() and w.isalpha())
    + (("one",) if d == "1" else ())
    for d in dict.fromkeys(_DIGIT_OF.values())
}


@dataclass(frozen=True)
class RequestReading:
    """What a request asks: ``asked`` value types (empty: any), whether it asks about a
    change, its topic words, the number-like words a fact must share ("phase two"), and
    whether it is a task for the assistant rather than a question to memory."""

    asked: frozenset[str]
    change: bool
    topic: tuple[str, ...]
    numbers: tuple[str, ...]
    task: bool = False
    unknown_people: tuple[str, ...] = ()  # "Priya's fee": someone memory never heard of
    # What the request sets aside to ask about something else: "주차 말고 관광버스 대수"
    # asks for the coaches, not the parking. A fact about it is no answer.
    set_aside: tuple[str, ...] = ()
    # Titles said to someone ("봉 팀장님", "작가님"): who is asked about, not what.
    titles: tuple[str, ...] = ()


# A request that opens with a task for the assistant ("write a haiku", "추천해줘") and asks
# no question of memory. Relaying ("tell Minjun…", "remind me…") is not such a task.
_TASK = re.compile(
    r"^\W*(?:(?:hey|hi|ok|okay|pls|please|can you|could you|can u|could u|help me|quick)"
    r"\W+)*(?:write|draft|compose|recommend|suggest|give me|translate|summari[sz]e|"
    r"brainstorm|explain|generate|plan|make me|list|tips)\b|"
    r"(?:추천|써|작성|번역|요약|만들어|짜|다듬어|고쳐|지어|뽑아|예약해)\s*(?:해)?\s*"
    r"(?:줘|주세요|줄래|줄 수|다오)|"
    # "추천 코스 알려줘", "추천 ㄱㄱ"; "빚는 법 알려줘", "팁 좀 알려줘", "예시 하나만"
    r"추천\s*(?:[가-힣]+\s*)?(?:좀|ㄱㄱ|부탁|알려)|"
    r"(?:법|방법|팁|요령|예시|레시피)\s*(?:좀\s*|하나만\s*)?(?:알려|가르쳐|ㄱㄱ|$|[ㅎㅋ]|하나)",
    re.I,
)
MIN_COVERAGE = 0.0


# A number that is part of a time or a date the request states, not a label.
_A_VALUES_NUMBER = re.compile(
    r"(\d+)\s*(?:일|시|분|월|주|시간|개월|년|am\b|pm\b|:\d)|\bat\s+(?=\d)(\d{1,2})\b", re.I
)


def _words(text: str) -> list[str]:
    text = text.casefold().replace("’", "'")
    return _KO_WORD.findall(text) if has_hangul(text) else _EN_WORD.findall(text)


def _stem_en(word: str) -> str:
    return stemmed_tokens(word.removesuffix("'s"))[0] if word.strip("'") else word


@lru_cache(maxsize=65536)
def _normal(word: str) -> str:
    if has_hangul(word):
        stems = particle_stems(word, first_only=True)
        return stems[0] if stems else word
    return _stem_en(word)


# A capitalized word used as a person: a possessive ("Priya's fee") or after a word that
# takes a person ("with Priya", "ask Priya").
_PERSONISH = re.compile(
    r"\b([A-Z][a-z]{1,20})(?='s\b|’s\b)|"
    r"\b(?:with|ask|tell|call|text|ping)\s+([A-Z][a-z]{1,20})\b|"
    # the subject of a question: "when does Marco land", "what shelf is Gwendolyn on"
    r"\b(?:does|did|is|was|has|will|can|should)\s+([A-Z][a-z]{2,20})(?:\s+[A-Z][a-z]+)?\s+"
    r"(?=[a-z])|"
    r"\b(?:Mr|Mrs|Ms|Dr|Prof)\.?\s+([A-Z][a-z]{1,20})\b|"
    r"\b([A-Z][a-z]{1,20})\s+(?:in|from)\s+(?:unit|apt|room|team)\b"
)
_AUX = _wordlist(
    "do does did can could will would should shall may might must is are am "
    "was were to gonna wanna i'm we're you're they're he's she's"
)
_SUBJECTS = _wordlist("i we you he she they it u")
_BE = _wordlist("is are am was were i'm we're you're they're he's she's")


def _verb_positions(words: list[str], name_words: frozenset[str]) -> set[int]:
    """English words in verb position: after an auxiliary, with or without a subject
    between ("can I catch", "does Lena charge", "is marco checking", "to pay")."""
    out: set[int] = set()
    for i, w in enumerate(words):
        if w not in _AUX:
            continue
        j = i + 1
        subject = j < len(words) and (words[j] in _SUBJECTS or words[j] in name_words)
        j += subject
        if j >= len(words) or words[j] in _EN_STOP or words[j] in name_words:
            continue
        if w in _BE:  # "is launch still on" names a thing; "is marco checking" does
            if words[j].endswith("ing"):
                out.add(j)
        elif subject or w == "to":
            out.add(j)
    return out


def name_word_set(names: Iterable[str]) -> frozenset[str]:
    """The words people's names are made of, as ``read_request`` looks them up (build it
    once per snapshot and pass it as the frozenset)."""
    words = {w for n in names for w in _words(n)}
    return frozenset(words | {_normal(w) for w in words})


# "A 말고 B": not A but B. Only with something after it: "너무 늦게는 말고" ends a
# request ("just not too late") and sets nothing aside.
_NOT_THIS_BUT = re.compile(r"([가-힣A-Za-z0-9]+)\s*말고\s+(?=[가-힣A-Za-z0-9])")


def sets_aside(reading: RequestReading, about: str) -> bool:
    """Whether ``about`` (a fact's relation, or a plain record's text) is about what the
    request set aside."""
    return _finds_any(reading.set_aside, about)


# Periods that make one instance of a thing another: "the summer OT budget" is not the
# spring one, "6월 정캠" is not "5월 정캠". ("may" is left out: "may I ask".)
_SEASONS = {"spring": "봄", "summer": "여름", "autumn": "가을", "fall": "가을", "winter": "겨울"}
_KO_MONTH = re.compile(r"(?<!\d)(1[0-2]|[1-9])\s*월(?![가-힣])|(?<!\d)(1[0-2]|[1-9])월")
_KO_SEASON = re.compile(r"(?<![가-힣])(봄|여름|가을|겨울)")


def _periods(text: str) -> tuple[set[str], set[str]]:
    """The months (as numbers) and seasons (in Korean) a text names."""
    months: set[str] = set()
    seasons: set[str] = set()
    for w in _EN_WORD.findall(text.casefold()):
        w = w.removesuffix("'s")
        month = month_number(w) if w != "may" else None
        if month is not None:
            months.add(str(month))
        elif w in _SEASONS:
            seasons.add(_SEASONS[w])
    for m in _KO_MONTH.finditer(text):
        months.add(str(int(m.group(1) or m.group(2))))
    seasons |= {m.group(1) for m in _KO_SEASON.finditer(text)}
    return months, seasons


def another_period(request: str, relation: str) -> bool:
    """Whether the request asks about another month or season of the thing a relation
    names by its period ("summer OT budget" / ``spring OT budget``; "6월 정캠" /
    ``5월 정캠 날짜``). A relation that names no period is any period's."""
    rel_months, rel_seasons = _periods(relation.replace("_", " "))
    if not rel_months and not rel_seasons:
        return False
    months, seasons = _periods(request)
    return bool(
        (rel_months and months and not rel_months & months)
        or (rel_seasons and seasons and not rel_seasons & seasons)
    )


# The two ends of one thing: "when does the café close" is not answered by its opening
# time, "퇴근" not by "출근 시간", the flight home not by the outbound one.
_OPPOSITE_ENDS: tuple[tuple[str, str], ...] = (
    ("morning", "evening|afternoon|night|tonight"),
    ("open|opens|opening", "close|closes|closing"),
    ("start|starts|starting|begin|begins", "end|ends|finish|finishes|wrap"),
    ("arrive|arrives|arriving|arrival|eta", "leave|leaves|leaving|depart|departs|departure"),
    (
        "pick up|pick-up|pickup|collect|collecting|collection",
        "drop off|drop-off|dropoff|return|go back|bring back",
    ),
    ("check-in|check in|checkin", "check-out|check out|checkout"),
    ("load-in|load in|loadin", "load-out|load out|loadout"),
    ("set-up|set up|setup", "teardown|tear down|tear-down|strike|pack-down|pack down"),
    ("clock in|clock-in|sign in|sign-in", "clock out|clock-out|sign out|sign-out"),
    ("outbound", "return|inbound|home"),
    ("weekday|weekdays", "weekend|weekends|saturday|saturdays|sunday|sundays"),
    ("first", "last|final"),
    ("deposit", "balance|remainder"),
    ("minimum|min", "maximum|max"),
    ("breakfast", "lunch|dinner"),
    ("lunch", "dinner"),
    ("entry|entrance", "exit"),
    ("오전", "오후"),
    ("아침", "점심|저녁|밤"),
    ("점심", "저녁"),
    ("출발", "도착"),
    ("입실|체크인", "퇴실|체크아웃"),
    ("시작", "종료|마감|끝"),
    ("개점|오픈", "마감|폐점"),
    ("출근", "퇴근"),
    ("픽업|수령", "반납"),
    ("입고", "출고"),
    ("평일", "주말|토요일|일요일"),
    ("계약금", "잔금"),
    ("출국", "입국"),
    ("입항", "출항"),
    ("이륙", "착륙"),
    ("입원", "퇴원"),
    ("등원|등교", "하원|하교"),
    ("입사", "퇴사"),
    ("상차", "하차"),
    ("최소", "최대"),
    ("입장", "퇴장"),
    ("첫", "마지막"),
    ("가는", "오는"),
)
# One pattern per end; an English word is found whole, a Korean one anywhere in a word.
_END_PATTERNS: tuple[tuple[re.Pattern[str], re.Pattern[str]], ...] = tuple(
    (
        re.compile(rf"(?<![a-z])(?:{'|'.join(map(re.escape, a.split('|')))})(?![a-z])"),
        re.compile(rf"(?<![a-z])(?:{'|'.join(map(re.escape, b.split('|')))})(?![a-z])"),
    )
    for a, b in _OPPOSITE_ENDS
)


@lru_cache(maxsize=8192)
def _ends(text: str) -> tuple[tuple[bool, bool], ...]:
    """For each pair of ends, whether the (case-folded) text names one, the other."""
    return tuple((bool(a.search(text)), bool(b.search(text))) for a, b in _END_PATTERNS)


def the_other_end(request: str, relation: str) -> bool:
    """Whether the request asks about one end of a thing ("when does the café close",
    "퇴근", "the flight home") and the relation names the other (``café opening time``,
    ``출근 시간``, ``outbound flight``). Either naming both ends decides nothing."""
    asked = _ends(request.casefold().replace("다가오는", ""))  # "the coming …"
    stored = _ends(relation.casefold().replace("_", " "))
    return any(
        (qa and not qb and rb and not ra) or (qb and not qa and ra and not rb)
        for (qa, qb), (ra, rb) in zip(asked, stored, strict=True)
    )


# Things told apart by a number in their name: an age group or a year ("U14", "Y5"), a
# quarter ("Q2"), an ordinal ("the second viewing", "2차 면접", "세 번째 수업").
_CODE = re.compile(r"(?<![\w-])([a-z]{1,2})-?(\d{1,3})s?(?![\w-])")
_ORDINALS = {  # the ordinals of _DIGIT_OF ("first", "2nd"), and the sixth
    **{w: d for w, d in _DIGIT_OF.items() if w.isascii() and w.endswith(("st", "nd", "rd", "th"))},
    "sixth": "6",
    "6th": "6",
}
_ORDINAL_WORD = re.compile(r"\b(" + "|".join(_ORDINALS) + r")\b(?![-‐])")  # not "first-time"
_KO_ORDINAL = re.compile(r"(\d{1,2})\s*(?:차|회차|번째)(?![가-힣])|(두|세|네|다섯)\s*번째")
_KO_COUNT = {"두": "2", "세": "3", "네": "4", "다섯": "5"}


@lru_cache(maxsize=65536)
def _numbered(text: str) -> dict[str, frozenset[str]]:
    """The numbers a text tells things apart by, by what they number: {"u": {"14"}}
    for "U14", {"ordinal": {"2"}} for "second" or "2차" (kept for many requests: not
    to be changed)."""
    low = text.casefold()
    out: dict[str, set[str]] = {}
    for m in _CODE.finditer(low):
        out.setdefault(m.group(1), set()).add(str(int(m.group(2))))
    for m in _ORDINAL_WORD.finditer(low):
        out.setdefault("ordinal", set()).add(_ORDINALS[m.group(1)])
    for m in _KO_ORDINAL.finditer(low):
        n = m.group(1) or _KO_COUNT[m.group(2)]
        out.setdefault("ordinal", set()).add(str(int(n)))
    return {k: frozenset(v) for k, v in out.items()}


def another_numbered(request: str, about: str) -> bool:
    """Whether the request asks about another numbered one of a thing ("U14 halves" of
    ``U16 half length``; "the first viewing" of ``second viewing``; "1차" of "2차 면접").
    ``about`` is what memory says of the fact, less its value: a number the value states
    ("room B3") is the answer, not the kind."""
    asked = _numbered(request)
    if not asked:
        return False
    stored = _numbered(about)
    return any(k in stored and not ns & stored[k] for k, ns in asked.items())


def read_request(request: str, names: Iterable[str] = ()) -> RequestReading:
    """The reading of one request; ``names`` are the words that name people (dropped
    from the topic: who is asked about is the identity step's business)."""
    asked: frozenset[str] = frozenset()
    cue_words: set[str] = set()
    # "where do we park when we get there?": a when-clause after the question word says
    # when, it does not ask it.
    main = _WHEN_CLAUSE.sub("", request) if _LEADING_WH.match(request) else request
    name_words = name_word_set(names) if not isinstance(names, frozenset) else names
    for pattern, types in _CUES:
        # A cue word that is someone's name asks nothing ("drop it with Dr Price").
        found = [m for m in pattern.finditer(main) if not _names_someone(m.group(), name_words)]
        if found:
            asked = types
            # "what time", "which room", "how much": the type says it; not a topic word.
            cue_words = {w for m in found for w in _words(m.group())}
            break
    if not asked and any(
        (w := m.group(1).casefold()) in name_words and w not in _TITLES
        for m in _NUMBER_FOR.finditer(request)
    ):
        asked = frozenset({"contact"})  # "number for Kevin at the garage", not for a key box
    values = find_values(request)
    change = bool(_CHANGE.search(request))
    if not asked and change:
        # "still Monday?", "was it $45 or did Arnold change that?": the value a change
        # question quotes is of the type it asks.
        quoted = {_KIND[v.kind] for v in values if v.kind in _QUOTED}
        if _WEEKDAY.search(request):
            quoted.add("date")
        if quoted:
            asked = frozenset(quoted | ({"datetime"} if quoted & {"date", "time"} else set()))
    if asked == _AMOUNT and _PAID.search(request):
        asked = frozenset({"money"})  # "엔드밀 단가 얼마": how much is paid, not how many
    spans = [v for v in values if v.kind in ("time", "date", "money", "duration")]
    inside = {w for v in spans for w in _words(v.text)}
    inside |= {d for v in spans for d in re.findall(r"\d+", v.text)}  # Kiwi reads 16 in 16일
    # "16일 맞지?", "at 9": the number of a value, not a label
    inside |= {g for m in _A_VALUES_NUMBER.findall(request) for g in m if g}
    topic: list[str] = []
    numbers: list[str] = []
    titles: list[str] = []
    if has_hangul(request):
        # Korean: the nouns (compounds kept whole), not the predicates and endings.
        words = [w.casefold() for w in noun_compounds(request)]
        words = [w for w in words if not (has_hangul(w) and len(w) < 2)]
    else:
        words = _words(request)
        verbs = _verb_positions(words, name_words)
        words = [w for i, w in enumerate(words) if i not in verbs]
    korean = has_hangul(request)
    for w in words:
        n = w if korean else _normal(w)  # Kiwi already took the particles off
        if w in name_words or n in name_words or w in inside or w in cue_words:
            continue
        called = korean and (w.endswith("이") and w[:-1] in name_words)
        if called or (korean and titled_name(w)[0] in name_words):
            continue  # 지은이, 유진쌤: a given name called so is who is asked, not what
        if korean and w in KOREAN_RANK_TITLES and re.search(rf"{w}\s?님", request):
            titles.append(w)  # "태곤 기사님 몇 번 도크": the driver is asked about
            continue
        if w in _NUMBER_WORDS or w.isdigit():
            numbers.append(w)
            continue
        stop = w in _EN_STOP or w.removesuffix("'s") in _EN_STOP or w in _KO_STOP
        if stop or n in _KO_STOP or (len(n) < 2 and not has_hangul(n)):
            continue
        topic.append(n)
    if korean and not topic and not asked:
        # "지호 뭐 먹으면 안 된다고 했지?": no noun and no type say what about; the verb
        # does.
        topic = [w for w in predicate_stems(request) if w not in name_words]
    aside = [_normal(m.group(1).casefold()) for m in _NOT_THIS_BUT.finditer(request)]
    topic = [w for w in topic if not any(w == a or (has_hangul(a) and a in w) for a in aside)]
    task = bool(_TASK.search(request)) and not asked
    unknown = tuple(
        name
        for m in _PERSONISH.finditer(request)
        for name in (next(g for g in m.groups() if g),)
        if name.casefold() not in name_words
        and name.casefold() not in _NOT_PEOPLE
        and request.find(name) > 0
    ) + _unknown_korean_people(request, name_words)
    return RequestReading(
        asked,
        change,
        tuple(dict.fromkeys(topic)),
        tuple(dict.fromkeys(numbers)),
        task,
        unknown,
        tuple(dict.fromkeys(aside)),
        tuple(dict.fromkeys(titles)),
    )


def _names_someone(cue: str, name_words: frozenset[str]) -> bool:
    """Whether a question cue found in a request is someone's name ("Dr Price")."""
    return cue[:1].isupper() and {w.casefold() for w in _words(cue)} <= name_words


# Capitalized words in a person's place that name no one: days, months, "I".
_NOT_PEOPLE = _wordlist(
    "i monday tuesday wednesday thursday friday saturday sunday january february march "
    "april may june july august september october november december today tomorrow "
    "tonight the this that it there he she they we you"
)
# A Hangul proper noun followed by a person's title ("지민 과장님", "영희 할머니") is
# someone's name; a common noun before a title is a role ("요가 선생님", "트레이너님").
_KOREAN_PERSON_TITLES = sorted(
    {
        *KOREAN_TITLES,
        *("할머니", "할아버지", "이모", "삼촌", "형"),
        *("고객님", "고객", "회원님", "회원", "손님", "환자분", "기자님", "기자", "학생"),
        *("교감선생님", "교장선생님", "관장님"),
    },
    key=len,
    reverse=True,
)
# Korean family names: a three-syllable word that starts with one and has a title after
# it is a full name ("임채원 고객님") even where Kiwi does not read a proper noun.
_FAMILY_NAMES = frozenset(
    "김이박최정강조윤장임한오서신권황안송류전홍고문양손배백허유남심노하곽성차주우구민진"
    "지엄채원천방공현함변염여추도소석선설마길연위표명기반라왕금옥육인맹제모탁국어은편용예"
    "경봉사부가복태목형피두감음빈동온호범좌팽승간상갈시견당화창옹순"
)
_KOREAN_TITLED = re.compile(
    r"(?<![가-힣])([가-힣]{2,4})\s?(?:" + "|".join(_KOREAN_PERSON_TITLES) + r")"
    r"(?=[은는이가을를에의도께한랑]|[^가-힣]|$)"
)
_NOT_A_NAME = _wordlist(
    "우리 저희 너희 그분 이분 저분 회원 고객 기사 작가 손님 담당 담당자 신규 막내 총무 "
    "모임장 반장 점장 코치 감독 엄마 아빠 어머니 아버지 동생 친구 옆집 앞집 윗집 아랫집"
)


def _unknown_korean_people(request: str, name_words: frozenset[str]) -> tuple[str, ...]:
    """Hangul names with a title that name no one stored. Only where every stored name
    is written in Hangul: "다니엘님" may be a Daniel stored in Latin letters."""
    if not has_hangul(request) or any(not has_hangul(w) for w in name_words):
        return ()
    # A Korean full name is also called by its given name (김지훈: 지훈, 남궁민수: 민수).
    known = set(name_words)
    known |= {w[1:] for w in name_words if len(w) == 3 and has_hangul(w)}
    known |= {w[2:] for w in name_words if len(w) == 4 and has_hangul(w)}
    # ... and by the family name with a title (황보 사장님, 김 과장님).
    known |= {w[:1] for w in name_words if len(w) == 3 and has_hangul(w)}
    known |= {w[:2] for w in name_words if len(w) == 4 and has_hangul(w)}
    matches = list(_KOREAN_TITLED.finditer(request))
    if not matches:
        return ()
    proper = proper_noun_spans(request)
    out = []
    for m in matches:
        word = m.group(1)
        full_name = len(word) == 3 and word[0] in _FAMILY_NAMES
        if m.span(1) not in proper and not full_name:
            continue
        if word in _NOT_A_NAME or word in KOREAN_TITLES:
            continue
        readings = {word, word.removesuffix("이"), word[1:] if len(word) == 3 else word}
        if not readings & known:
            out.append(word)
    return tuple(out)


# -- stored values ------------------------------------------------------------------------
_DECLARED = {
    "time": "time",
    "date": "date",
    "room": "place",
    "money": "money",
    "rate": "money",
    "duration": "duration",
    "count": "quantity",
    "phone": "contact",
    "email": "contact",
    "url": "text",
}
_KIND = {
    "time": "time",
    "bare_time": "time",
    "date": "date",
    "room": "place",
    "money": "money",
    "rate": "money",
    "duration": "duration",
    "count": "quantity",
    "number": "quantity",
}


# Days of the week as written ("Tue", "Thurs", "Sundays"), not words that begin like one
# ("Sunita", "monthly", "Friedman").
_WEEKDAY = re.compile(
    rf"\b(?:{WEEKDAY_WORDS})s?\b|[월화수목금토일]요일|매주|weekdays?|weekends?|주말|평일",
    re.I,
)
# An ordinal that numbers a floor, a row or a year of school is no day of a month.
_ORDINAL_NOT_A_DAY = re.compile(
    r"\b\d{1,2}(?:st|nd|rd|th)\s+(?:floor|fl|storey|story|level|row|place|grade|year|"
    r"round|gen|generation|edition|century|anniversary|birthday|door|gate|platform)\b",
    re.I,
)


# Forms the chat recognizers leave to context, read here in a stored value: spans of
# time with a qualifier ("10 business days", "수령 후 7일", "2주 이내"), Korean dates
# with no day ("2024년 3월", "매월 10일") and street addresses ("220 Fenner St").
_MORE_VALUES: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        "duration",
        re.compile(
            r"\b\d+(?:\.\d+)?\s*(?:business|working|calendar|school|full)\s+"
            r"(?:days?|weeks?|months?|hours?)\b|"
            r"(?:후|뒤|안에|내)\s*(?:최소|최대|약)?\s*\d+\s*(?:일|주|개월|달|시간|분)|"
            r"\d+\s*박\s*\d+\s*일|"
            r"\d+\s*(?:일|주|개월|달|시간|분)\s*(?:이내|안에|내|동안|간|짜리|걸려)|\d+\s*주(?![가-힣])",
            re.I,
        ),
    ),
    ("date", re.compile(r"\d{4}\s*년(?:\s*\d{1,2}\s*월)?|(?:매월|매달)\s*\d{1,2}\s*일")),
    (
        "place",
        re.compile(
            r"\b\d{1,5}\s+(?:[A-Z][a-z]+\s+){1,3}(?:St|Street|Ave|Avenue|Rd|Road|Dr|Drive|"
            r"Blvd|Lane|Ln|Way|Ct|Court|Pl|Place|Terrace|Hwy|Pkwy)\b\.?|"
            r"[가-힣]+(?:로|길)\s*\d+(?:-\d+)?(?:번길)?|\d+\s*번지"
        ),
    ),
)


# A count paced by time ("7 calls an hour", "3 sessions a week", "주 3회" is no duration).
_COUNT_PER_TIME = re.compile(
    r"^\s*(?:about\s+|around\s+|up\s+to\s+|~\s*)?\d+(?:\.\d+)?\s+"
    r"(?!(?:min|mins|minutes?|hours?|hrs?|days?|weeks?|months?|years?|secs?|seconds?|"
    r"dollars?|bucks|pounds?|quid|euros?|won|miles?|km|kilometres?|kilometers?)\b)[a-z]+\s+"
    r"(?:an?|per|each)\s+(?:hour|day|week|month|shift|session|night)\b",
    re.I,
)
_ABOUT = re.compile(r"^\s*(?:about|around|roughly|approx\.?|approximately|~|약|대략|한)\s*", re.I)


def _about(value: str) -> int:
    """Where a value's amount starts, after a word that hedges it ("about 10 weeks")."""
    m = _ABOUT.match(value)
    return m.end() if m else len(value) - len(value.lstrip())


@lru_cache(maxsize=65536)
def value_type(value: str, declared: str | None = None) -> AnswerType:
    """The type of a stored value: declared with its relation, else recognized. A time or
    a date anywhere in it makes it one ("Tuesdays 10:30", "7:30am at dock C"); an amount,
    a duration or a count only when it is most of the value, or a count that leads it
    ("900 words"; not the number of a street address)."""
    if declared:
        return _DECLARED.get(declared, "text")
    size = max(len(value.strip()), 1)
    covered: dict[str, int] = {}
    spans: list[tuple[str, int, int]] = []
    for kind, pattern in _MORE_VALUES:
        for m in pattern.finditer(value):
            spans.append((kind, m.start(), m.end()))
    for sp in find_values(value):
        if sp.kind in _KIND and not any(a <= sp.start and sp.end <= b for _, a, b in spans):
            spans.append((_KIND[sp.kind], sp.start, sp.end))
    ordinals = [(m.start(), m.end()) for m in _ORDINAL_NOT_A_DAY.finditer(value)]
    spans = [
        (k, a, b)
        for k, a, b in spans
        if not (k == "date" and any(a < y and x < b for x, y in ordinals))
    ]
    for kind, a, b in spans:
        covered[kind] = covered.get(kind, 0) + b - a
    weekday = sum(len(m.group()) for m in _WEEKDAY.finditer(value))
    if weekday:
        covered["date"] = covered.get("date", 0) + weekday
    if not covered.keys() & {"time", "date", "money"} and _reaches(value):
        return "contact"
    lead = len(value) - len(value.lstrip())
    if _COUNT_PER_TIME.match(value):
        return "quantity"  # "7 calls an hour": a count, however it is paced
    if (
        "time" not in covered
        and not covered.keys() & {"date", "money"}
        and any(k == "duration" and a == _about(value) for k, a, _ in spans)
    ):
        return "duration"  # "about 10 weeks after choosing the photos"
    if "time" not in covered and any(k == "money" and a == lead for k, a, _ in spans):
        # "£15 a weekend", "$18 per pallet per month": a price leads the value, and what
        # follows is its unit, not a date.
        return "money"
    if "time" in covered and "date" in covered:
        return "datetime"
    if not covered:
        return "text"
    for kind in ("time", "date"):
        if kind in covered and "duration" not in covered:
            return kind
    kind, length = max(covered.items(), key=lambda kv: kv[1])
    if kind == "quantity" and len(covered) == 1:
        # "2 checked bags", "12 engineers by Q3": a count leads the value.
        leads = min(a for k, a, _ in spans if k == "quantity") == len(value) - len(value.lstrip())
        return "quantity" if leads or length >= 0.3 * size else "text"
    return kind if length >= 0.3 * size else "text"


# The head word of a relation name a developer chose says what its values are: a
# "rehearsal spot" holds a place even when its value ("Kofi's basement") has no form to
# recognise, a "guest count" a quantity. English heads are the last word; Korean ones the
# name's ending (마감일, 수강료, 컷 수).
_HEAD_WORDS: tuple[tuple[AnswerType, str], ...] = (
    ("place", "address location place spot venue room office site where hall building city"),
    (
        "person",
        "person owner contact supplier vendor host lead manager mentor coach teacher "
        "instructor tutor driver sitter substitute backup buddy captain speaker presenter "
        "keynote organizer organiser who",
    ),
    ("time", "time hours"),
    ("date", "date day deadline due birthday until"),
    ("money", "price cost fee rate budget wage salary deposit quote pay charge fare rent"),
    ("quantity", "count number size amount headcount total capacity height"),
    ("duration", "length duration period"),
)
_HEAD_TYPES: dict[str, AnswerType] = {w: t for t, ws in _HEAD_WORDS for w in ws.split()}
_KOREAN_HEAD_ENDINGS: tuple[tuple[AnswerType, str], ...] = (
    ("place", "장소 위치 주소 곳 호실"),
    ("person", "담당 담당자 멘토 강사 코치 연락처 대타"),
    ("time", "시간 시각"),
    ("date", "날짜 일 마감 요일 일정 예정"),
    ("money", "비 료 금 가격 비용 페이 한도 단가 시급 일당 월세"),
    ("quantity", "수 인원 높이 양 개수"),
    ("duration", "기간 길이"),
)
_KOREAN_HEAD_TYPES = tuple((h, t) for t, hs in _KOREAN_HEAD_ENDINGS for h in hs.split())
# Words that end like a head but are not one: 이메일 is no date, 교수 no count.
_KOREAN_NOT_HEADS = ("메일", "교수", "선수", "가수")


def relation_types(relation: str) -> frozenset[AnswerType]:
    """The value types a relation's name says its values have (empty: it says none)."""
    words = [w for w in re.split(r"[\s_]+", relation.strip().lower()) if w]
    if not words:
        return frozenset()
    last = words[-1]
    if not has_hangul(last):
        return frozenset({_HEAD_TYPES[last]}) if last in _HEAD_TYPES else frozenset()
    if last.endswith(_KOREAN_NOT_HEADS):
        return frozenset()
    return frozenset(t for h, t in _KOREAN_HEAD_TYPES if last.endswith(h))


# A number of days or weeks alone ("5일", "3주"): the 5th of a month or five days.
_BARE_DAYS = re.compile(r"\s*\d+\s*(?:일|주)\s*")


def settle_types(
    vtype: AnswerType, named: frozenset[AnswerType], value: str
) -> tuple[AnswerType, frozenset[AnswerType]]:
    """A value's recognized type and its relation's named types, where they disagree and
    one of them is surely wrong: a building's number under a place ("103동 뒤 야적장"
    under 미팅 장소) is no count; a length under a name that says "time" ("2시간 30분"
    under 리허설 시간) is no clock time; "5일" under 설치 소요 기간 is five days. A
    value of no form is what its relation names a place or a person to be ("1층 무인민원
    발급기 옆" under 배치 위치 is no count; "조교 임채령" under 연락 담당 no place)."""
    if vtype == "text" and len(named) == 1 and named <= {"place", "person"}:
        return next(iter(named)), named
    if not named or vtype in named or vtype == "text":
        return vtype, named
    if vtype == "quantity" and "place" in named:
        return "place", named
    if vtype == "duration" and named == {"time"}:
        return vtype, frozenset()
    if vtype == "date" and "duration" in named and _BARE_DAYS.fullmatch(value):
        return "duration", named
    return vtype, named


# The values a change question may quote: not a bare number ("is phase 2 still on?").
_QUOTED = frozenset({"time", "bare_time", "date", "money", "rate", "duration", "count"})
# What any text may state: a place, a person or a thing have no form to recognise.
FORMLESS_TYPES: frozenset[AnswerType] = frozenset({"text", "place", "person"})


def text_types(text: str) -> frozenset[AnswerType]:
    """The value types a plain-text record states somewhere in it: a time, a date, an
    amount... A place, a person or a thing has no form to recognise, so every record may
    state one."""
    spans = find_values(text)
    kinds = {_KIND[sp.kind] for sp in spans if sp.kind in _KIND}
    if _WEEKDAY.search(text):
        kinds.add("date")
    if "time" in kinds and "date" in kinds:
        kinds.add("datetime")
    if "duration" not in kinds and states_a_length(text, spans):
        kinds.add("duration")
    if _reaches(text):
        kinds.add("contact")
    return frozenset(kinds | FORMLESS_TYPES)


# A phone number as written ("07700 900562", "+34 612 448 903", "010-2345-6789"): seven
# digits or more in one run of digits and separators, more forms than the chat
# recognizer's phone numbers; an extension ("ext. 4471", "x4410", "내선 2214").
_PHONE_RUN = re.compile(r"\+?\(?\d[\d ().-]{5,}\d")
_EXTENSION = re.compile(r"\b(?:ext|x)\.?\s*\d{2,5}\b|내선\s*\d{2,5}", re.I)


@lru_cache(maxsize=65536)
def _reaches(text: str) -> bool:
    """Whether a text gives a way to reach someone: a phone number, an extension or an
    email address, as the chat recognizer reads one (a date written with dashes is
    none)."""
    spans = find_values(text)
    if _EXTENSION.search(text) or any(sp.kind == "email" for sp in spans):
        return True
    dates = [(sp.start, sp.end) for sp in spans if sp.kind in ("date", "time")]
    return any(
        sum(c.isdigit() for c in m.group()) >= 7
        and not any(a < m.end() and m.start() < b for a, b in dates)
        for m in _PHONE_RUN.finditer(text)
    )


def accepts(reading: RequestReading, types: frozenset[AnswerType]) -> bool:
    """Whether a value of one of ``types`` answers what the request asks (any, when it
    asks for no type)."""
    if not reading.asked:
        return True
    accepted = set().union(*(_ACCEPTS.get(t, {t}) for t in reading.asked))
    return bool(accepted & types) and not (
        types <= {"text", "place", "person"} and not (accepted & {"place", "person", "text"})
    )


# What each asked type accepts: an unrecognized value ("Blue Bottle on 5th", "Jieun")
# may be a place, a person or a thing, never a time or an amount.
_ACCEPTS = {
    "time": {"time", "datetime"},
    "date": {"date", "datetime", "time"},
    "datetime": {"date", "datetime", "time"},
    "place": {"place", "text", "contact"},  # "회비 어디로 보내요?": an account
    "money": {"money"},
    "quantity": {"quantity"},
    "person": {"person"},
    "duration": {"duration"},
    "contact": {"contact"},
}


@dataclass(frozen=True)
class FactMatch:
    ok: bool
    coverage: float  # share of the topic found in what memory says about the fact
    reason: str = ""
    # The fact's value is of an asked type (and names any number asked): only its topic
    # is left to decide, by words (``ok``) or by meaning.
    typed: bool = False


def _found(word: str, text: str, words: frozenset[str]) -> bool:
    if word in words:
        return True
    if not has_hangul(word):
        # Abbreviations and clipped forms: "eng" for engineers, "bday" is not caught.
        return len(word) >= 3 and any(w.startswith(word) for w in words if len(w) > len(word))
    if has_hangul(word):
        if word in text or _abbreviates(word, text):
            return True
        grams = {word[i : i + 2] for i in range(len(word) - 1)}
        return bool(grams) and len(grams & _bigrams(text)) / len(grams) >= 0.6
    return False


_HANGUL_RUN = re.compile(r"[가-힣]+")


@lru_cache(maxsize=65536)
def _abbreviates(short: str, text: str) -> bool:
    """Whether a Korean word is a clipped form of a word of the text: its syllables, in
    order, from the start of a longer word, each standing for a part of a syllable or
    two (특활비 for 특별활동비, 학폭 for 학교폭력)."""
    if not 2 <= len(short) <= 4:
        return False
    for long in _HANGUL_RUN.findall(text):
        if long[0] != short[0] or not len(short) < len(long) <= 2 * len(short) + 1:
            continue
        at = 1
        for syllable in short[1:]:
            at = long.find(syllable, at) + 1
            if at == 0:
                break
        else:
            return True
    return False


@lru_cache(maxsize=65536)
def _bigrams(text: str) -> frozenset[str]:
    text = re.sub(r"\s+", "", text)  # "촬영 비용" holds 촬영비 too
    return frozenset(text[i : i + 2] for i in range(len(text) - 1))


@lru_cache(maxsize=65536)
def _description(about: str) -> tuple[str, frozenset[str]]:
    words = _words(about)
    return about.casefold(), frozenset([*words, *map(_normal, words)])


def names_topic(reading: RequestReading, about: str) -> bool:
    """Whether any topic word of the request is found in ``about`` (what memory says
    about a fact): a cheap first look before typing the fact's value."""
    return _finds_any(reading.topic, about)


def _finds_any(words: tuple[str, ...], about: str) -> bool:
    if not words:
        return False
    text, said = _description(about)
    return any(_found(w, text, said) for w in words)


# Words before a noun that say which state or instance of it, not what kind: "the
# current card limit", "the usual pickup time".
_NOT_KINDS = _wordlist(
    "current new old latest usual actual exact updated final same next last previous "
    "whole full total best good right"
)


def kind_words(request: str, names: frozenset[str]) -> tuple[tuple[str, str], ...]:
    """The request's words as (as written, stemmed) for ``another_kind``, once per
    request: English only, without people's names and words in verb position ("did
    Ravi raise card limit"). Korean compounds ("주간회의" / "월간회의") are left out: e5
    puts them as close as synonyms, so meaning could not tell them apart."""
    if has_hangul(request):
        return ()
    words = _words(_NOWADAYS.sub(" ", request))
    verbs = _verb_positions(words, names)
    return tuple(
        (w, _normal(w))
        for i, w in enumerate(words)
        if i not in verbs and w not in names and _normal(w) not in names
    )


def _content(*forms: str) -> bool:
    """Whether a word, in each of its forms (as written, normalized), may name a kind."""
    return all(
        len(w) >= 2
        and w not in _EN_STOP
        and w not in _AUX
        and w not in _NOT_KINDS
        and not w.isdigit()
        and not w.endswith("'s")
        for w in forms
    )


def another_kind(
    asked_words: tuple[tuple[str, str], ...], relation: str, about: str
) -> tuple[str, str] | None:
    """Whether a request (its ``kind_words``) may ask about another kind of the thing a
    relation names: the two share a head noun, each puts its own kind before it, and
    neither kind is said on the other side ("the petty cash card" / "fuel card limit",
    "forklift training" / "ladder safety training"). Returns the two phrases (asked,
    stored), for meaning to tell a synonym ("spare" / "backup camera") from another
    kind; None when the request names no kind ("the card limit") or the relation's own."""
    if not asked_words or has_hangul(relation):
        return None
    asked = [w for _a, w in asked_words]
    rel_words = [(w, _normal(w)) for w in _words(relation)]
    _text, said = _description(about)
    said_text = about.casefold()
    for i, w in enumerate(asked):
        if i == 0 or not _content(*asked_words[i]):
            continue
        for j, (_r_written, r) in enumerate(rel_words):
            if j == 0 or w != r:
                continue
            mine = _kind_before(asked_words, i)
            theirs = [t for a, t in rel_words[:j] if _content(a, t)]
            if not mine or not theirs:
                continue
            if any(_found(m, said_text, said) for m in mine) or any(t in asked for t in theirs):
                continue
            return (
                " ".join(a for a, _w in asked_words[i - len(mine) : i + 1]),
                " ".join(a for a, _w in rel_words[: j + 1]),
            )
    return None


# Korean words before a noun that say when or who, not which kind: "토욜 현장" is the
# Saturday's site, "사장님 자리" the owner's stall.
_KO_NOT_KINDS = _wordlist(
    "기존 원래 평소 보통 최근 처음 마지막 당일 전날 다음날 월욜 화욜 수욜 목욜 금욜 토욜 "
    "일욜 매주 매일 매달 주말 평일 오전 오후 사장 매니저 실장 팀장 과장 부장 차장 대리 이사 "
    "대표 선생 선생님 원장 소장 계장 주무관 교수 기사 작가 손님 고객 회원 학생 누나 언니 "
    "오빠 형 형님 선배 후배 동생 친구 엄마 아빠 어머니 아버지 할머니 할아버지 이모 삼촌 "
    "고모 고모부 형수 반장 회장 총무 담당 담당자 관세사 세무사 변호사 노무사 회계사"
)
# A Latin word in a Korean request names a kind when it is a name or a code ("GCP 예산",
# "SUS304"), or a word of three letters or more ("dinner place"); not a unit ("kg").
_LATIN_KIND = re.compile(r"^(?:[a-z]{3,}|[A-Za-z]*[A-Z0-9][A-Za-z0-9]*)$")


# A day of the week as a whole word ("토요일", "Sat"): when, not which kind.
_A_WEEKDAY = re.compile(rf"[월화수목금토일]요일|(?:{WEEKDAY_WORDS})s?", re.I)


def korean_kind_nouns(request: str, names: frozenset[str]) -> tuple[str, ...]:
    """A Korean request's nouns that may name a kind, casefolded, in order, for
    ``another_korean_kind``: read once per request (Kiwi), not once per fact. Empty for
    a request in another language. ``names``: the words of people's names (not kinds)."""
    if not has_hangul(request):
        return ()
    return tuple(
        n.casefold()
        for n in noun_compounds(request)
        if (len(n) >= 2 if has_hangul(n) else _LATIN_KIND.match(n) is not None)
        and n.casefold() not in _KO_STOP
        and n.casefold() not in _EN_STOP
        and n not in _KO_NOT_KINDS
        and not titled_name(n)[1]
        and n.casefold() not in names
        and not _A_WEEKDAY.fullmatch(n)
    )


def another_korean_kind(
    nouns: tuple[str, ...], request: str, relation: str, about: str
) -> tuple[str, str] | None:
    """Whether a Korean request (its ``korean_kind_nouns``) asks about another kind of the
    thing a relation names: a noun of the request is a word of the relation after its
    own kind, the request puts a kind of its own just before it ("인요가 수업" / "빈야사
    수업 시간", "런치 코스" / "디너 코스 가격"), memory says the request's kind nowhere about
    the fact, and the request says the relation's kind nowhere. By words alone: e5 and
    Kiwi's morpheme vectors put two kinds ("치과" / "동물병원") as close as two names of
    one ("락커" / "사물함"), so a synonym the fact does not say is taken for another
    kind. Returns the two phrases (asked, stored)."""
    rel_words = [w for w in re.split(r"[\s_]+", relation.casefold()) if w]  # as stored: a_b
    if len(nouns) < 2 or len(rel_words) < 2:
        return None
    text, said = _description(about)
    written = request.casefold()
    for mine, head in itertools.pairwise(nouns):
        at = written.find(mine)
        after = at + len(mine)
        if at < 0 or not written[after:].lstrip().startswith(head):
            continue  # "기태 매니저랑 미팅": only a kind written right before its noun
        for j in range(1, len(rel_words)):
            if rel_words[j] != head:
                continue
            theirs = rel_words[:j]
            if _found(mine, text, said) or any(t in written for t in theirs):
                continue
            return f"{mine} {head}", " ".join(rel_words[: j + 1])
    return None


def _kind_before(words: tuple[tuple[str, str], ...], i: int) -> list[str]:
    """The words just before ``words[i]`` that name its kind ("petty cash card"), up to
    two: a determiner or a possessive ("her order", "our flight") starts the phrase."""
    out: list[str] = []
    for written, w in reversed(words[max(i - 2, 0) : i]):
        if not _content(written, w):
            break
        out.insert(0, w)
    return out


_DIGIT = re.compile(r"\d")
# A person as a value: a title before a name, a name with their role or firm after it,
# a Korean name with a title.
_PERSON_VALUE = re.compile(
    r"^(?:Dr|Mr|Mrs|Ms|Prof)\.?\s+[A-Z]|^[A-Z][a-z]+(?:\s+[A-Z][a-z]+)?\s*(?:\(|,|\b(?:at|from|in)\b)|"
    r"^[가-힣]{2,4}\s*(?:님|씨|선생님|멘토님|세무사|변호사|기사님|코치|강사|대표|팀장|과장|부장|실장)"
)
# A Korean full name, perhaps with 님 or 씨.
_KO_FULL_NAME = re.compile(rf"^(?:{KOREAN_FULL_NAME})(?:님|씨)?$")
# Where a word that looks like a name is a place or a body: 강남역, 서초구, 홍보팀.
_PLACE_ENDINGS = frozenset("역구시군읍로길점층관장실청팀반과")
_LATIN_GIVEN = re.compile(r"^[A-Z][a-z'’-]{1,20}$")
_PARENTHESES = re.compile(r"\([^)]*\)")


def _korean_person_value(value: str) -> bool:
    """A person said the Korean way, with who they are around the name: "아들 이준표",
    "피아니스트 여하윤", "한정숙 동장님", "남편 Jason", "이태호(작은아들)". One name
    among at most four words, the others Hangul words, or a note in parentheses."""
    if not has_hangul(value):
        return False
    bare = _PARENTHESES.sub(" ", value).replace(",", " ")  # "남편 구태형, 친정엄마"
    words = bare.split()
    if not words or len(words) > 4 or (len(words) == 1 and bare.strip() == value.strip()):
        return False
    # The first word that may be a name is the name: "동장님" after it is a title.
    name = next(
        (
            w
            for w in words
            if (_KO_FULL_NAME.match(w) or _LATIN_GIVEN.match(w))
            and w.rstrip("님씨")[-1] not in _PLACE_ENDINGS
        ),
        None,
    )
    if name is None:
        return False
    rest = [w for w in words if w != name]
    return all(re.fullmatch(r"[가-힣]{1,8}", w) for w in rest)


# Two dates that bound a stretch of time.
_RANGE = re.compile(r"[~–—]|\d\s*-\s*\d|\buntil\b|\bthrough\b|\bto\b|부터|까지", re.I)
# A person's name: one to three capitalized words (Latin letters with their accents:
# "Élodie Carré"), or two to four Hangul syllables.
_UPPER, _LOWER = "A-ZÀ-ÖØ-Þ", "a-zß-öø-ÿ'’.-"
_LATIN_NAME = rf"[{_UPPER}][{_LOWER}]+(?:\s+[{_UPPER}][{_LOWER}]+){{0,2}}"
_NAMEISH = re.compile(rf"^(?:{_LATIN_NAME}|[가-힣]{{2,4}})$")
_LATIN_NAMEISH = re.compile(_LATIN_NAME)
# A person said by their tie to someone, then their name: "her brother Raf Ibarra",
# "his daughter, Ada Holloway (a realtor)".
_KIN_PERSON = re.compile(
    r"^(?:(?:her|his|my|their|our|your)\s+)?(?:sister|brother|mother|mum|mom|father|dad|"
    r"daughter|son|wife|husband|partner|fiancée?|cousin|aunt|uncle|niece|nephew|"
    r"grandmother|grandfather|grandma|grandpa|gran|granddaughter|grandson|friend|"
    rf"neighbou?r|colleague|boss|flatmate|roommate)\s*,?\s+[{_UPPER}][{_LOWER}]+"
)


def _a_person(value: str) -> bool:
    """Whether a value says a person, whatever a note in parentheses after it says
    ("연다올 (12시 반부터)" is who covers, not a time; "Millie Hart (2nd cornet)" no
    date). A Hangul word before a note is no name by its length alone ("카톡 (전화는 잘
    안 받음)")."""
    bare = _PARENTHESES.sub("", value).strip()
    if not bare or value_type(bare) != "text":
        return False
    return bool(
        _NAMEISH.match(value.strip())
        or _LATIN_NAMEISH.fullmatch(bare)
        or _PERSON_VALUE.search(value.strip())
        or _KIN_PERSON.match(bare)
        or _korean_person_value(value)
    )


def match_fact(
    reading: RequestReading,
    vtype: AnswerType,
    about: str,
    value: str = "",
    named: frozenset[AnswerType] = frozenset(),
) -> FactMatch:
    """Whether a fact of type ``vtype`` answers the reading; ``about`` is what memory says
    about the fact (relation name, its synonyms, the record's text); ``named``, the types
    its relation's name says (``relation_types``)."""
    if reading.task:
        return FactMatch(False, 0.0, "a task for the assistant, not a question to memory")
    accepted = set().union(*(_ACCEPTS.get(t, {t}) for t in reading.asked))
    if "time" in reading.asked and "date" not in reading.asked:
        accepted.discard("date")  # "what time does the comp start?" is no date alone
    if vtype in ("text", "contact") and "quantity" in reading.asked and _DIGIT.search(value):
        accepted.add(vtype)  # "하루 두 번 40g씩", "내선 몇 번이었지"
    if (
        vtype == "place"
        and reading.asked == {"quantity"}
        and _DIGIT.search(value)
        and any(w in value.casefold() for w in reading.topic)
    ):
        accepted.add(vtype)  # "몇 번 승차장" and "12번 승차장": the number of a place
    if (
        "person" in reading.asked
        and (vtype == "text" or vtype == value_type(value))  # a type declared stands
        and _a_person(value)
    ):
        # "Jake Morrison", "권준영", "Dr. Amal Farouk", "Milo (Pia's barista)", "류재석
        # 멘토님", "아들 이준표", "피아니스트 여하윤", "her brother Chidi"
        accepted.add(vtype)
    if vtype in ("date", "datetime") and "duration" in reading.asked and _RANGE.search(value):
        accepted.add(vtype)  # "4월 13일~17일", "arriving Feb 20, staying until Feb 24"
    if reading.asked and vtype not in accepted and not (named & accepted):
        return FactMatch(False, 0.0, f"asks for a {'/'.join(sorted(reading.asked))}")
    text, words = _description(about)
    if not reading.change:
        missing = [
            n
            for n in reading.numbers
            if n not in words
            and n not in text
            and _DIGIT_OF.get(n, n) not in text
            and not any(w in words for w in _WORDS_OF_DIGIT.get(n, ()))
        ]
        if missing:
            return FactMatch(False, 0.0, f"says nothing of {missing[0]!r}")
    if not reading.topic:
        return FactMatch(
            bool(reading.asked),
            0.0,
            "" if reading.asked else "asks nothing memory states",
            typed=bool(reading.asked),
        )
    hits = sum(_found(w, text, words) for w in reading.topic)
    coverage = hits / len(reading.topic)
    if hits == 0 or coverage < MIN_COVERAGE:
        return FactMatch(False, coverage, "about something else", typed=True)
    return FactMatch(True, coverage, typed=True)
