"""Word lists the chat extractor reads messages by: what a clause does (asks, proposes,
changes, corrects, cancels) and which attribute a value belongs to.

These are the language's general ways of saying things, not phrasings of any one
dataset. Each pattern is compiled once; English is matched case-insensitively on word
boundaries, Korean on substrings (particles and endings glue onto words).
"""

from __future__ import annotations

import re

__all__ = [
    "ACCEPT",
    "CORRECT",
    "EVENT_NOUNS_EN",
    "EVENT_NOUNS_KO",
    "FIRST_PERSON",
    "HYPOTHETICAL",
    "NEGATION",
    "PAST",
    "PROPOSAL",
    "QUESTION",
    "RELATION_NOUNS",
    "REVOKE",
    "SECOND_PERSON",
    "THIRD_PERSON",
    "UPDATE",
]


def _en(words: str) -> str:
    return r"(?<![\w'])(?:" + words + r")(?![\w'])"


# -- what a clause does --------------------------------------------------------------
QUESTION = re.compile(
    r"\?\s*$|\?\s*[\W\d]*$|"
    + _en(
        r"is it still|are we still|is that still|do you know|does anyone know|any idea|"
        r"what time|what's the|whats the|when is|when's|where is|where's|which room|"
        r"how much|how many|how long|can you confirm|could you confirm|right\?"
    )
    + r"|(?:까요|나요|는지|인지|을까|ㄹ까|할까|될까|인가요|건가요|던가요|죠\?|맞죠|맞나요|맞아요\?|"
    r"어디예요|언제예요|몇\s*시예요|얼마예요|얼마에요|어때요\?|있나요|없나요|되나요|가능한가요|"
    r"알려\s*주세요|알려주실|주실\s*수|되세요\?|\?)\s*[ㅠㅜ.~!]*\s*$",
    re.I,
)
PROPOSAL = re.compile(
    _en(
        r"how about|what about|can we|could we|shall we|should we|let's try|maybe we could|"
        r"would .{1,20} work|does .{1,20} work|works for you|work for you|wdyt|thoughts|"
        r"i propose|i suggest|suggest we|prefer|instead\?|or maybe|i could do|i can do|"
        r"would you be ok|how's|hows|up for|if that works|fine by me|works for me|"
        r"i'd like to|i would like to|could you do|can you do|would you do"
    )
    + r"|어때|어떠세요|어떨까|할까요|하면\s*좋겠|하면\s*어때|가능할까|괜찮을까|괜찮으세요|될까요|"
    r"하실\s*수|해\s*주실\s*수|주시면|해주시면|맞춰\s*주시면|이면\s*할게|면\s*할게요|이면\s*돼요|면\s*돼요|"
    r"는\s*어때|는\s*좀|로\s*해도\s*될|으로\s*해도\s*될|도\s*괜찮아요|저는\s*좋아요|저도\s*좋아요",
    re.I,
)
HYPOTHETICAL = re.compile(
    _en(
        r"if|what if|in case|suppose|supposing|imagine|would be|might|maybe|probably|"
        r"possibly|could be|unless|hopefully|i think|i guess|not sure|tbd|tentative(?:ly)?"
    )
    + r"|만약|혹시\s*모르|(?<!으)면\s*(?:좋|어|할|될|하|돼)|일지도|것\s*같|듯|아마|어쩌면|"
    r"미정|가능성|예정일\s*수도|수도\s*있",
    re.I,
)
PAST = re.compile(
    _en(
        r"used to|back in|last year|last time|last month|previously|in the past|"
        r"years ago|we once|remember when|back when|originally"
    )
    + r"|했었|였었|이었었|예전에|옛날에|작년에|지난번에|원래는|그때는",
    re.I,
)
NEGATION = re.compile(
    _en(
        r"not|no|never|isn't|isnt|aren't|arent|wasn't|wasnt|don't|dont|doesn't|doesnt|"
        r"won't|wont|can't|cant|cannot|nope|nah"
    )
    + r"|아니|안\s|못\s|않|없어|없습니다|없어요|말고",
    re.I,
)
REVOKE = re.compile(
    _en(
        r"cancel+ed|cancel+ing|cancel|called off|call(?:ing)? it off|scrapped|scrap|"
        r"no longer|off for|is off|are off|not happening|won't happen|postponed indefinitely|"
        r"dropped|drop it|nixed|axed|bail(?:ed)?"
    )
    + r"|취소|없던\s*일|안\s*하기로|안\s*해요|무산|보류|엎어|파토|펑크|드랍|캔슬",
    re.I,
)
CORRECT = re.compile(
    _en(
        r"correction|typo|mistyped|misspoke|i meant|meant to say|my bad|my mistake|"
        r"sorry,? (?:it'?s|its)|not .{1,25}, (?:it'?s|its|but)|wrong|got it wrong|"
        r"actually it'?s|actually its|swapped|should (?:have )?(?:been|be|read)|scratch that"
    )
    + r"|정정|오타|잘못|아니고|아니라|착각|헷갈|수정합니다|정확히는|다시\s*말씀",
    re.I,
)
UPDATE = re.compile(
    _en(
        r"moved?|moving|moves|pushed|push(?:ing)?|bumped|bump|shifted|shift|switched|"
        r"switch(?:ing)?|changed?|changing|changes|updated?|rescheduled?|reschedul\w+|"
        r"postponed|delayed|brought forward|pulled (?:in|forward)|slid|slipped|relocated|"
        r"now|from now on|going forward|instead|new|raised|raising|lowered|increased|"
        r"decreased|extended|reduced|cut|went up|goes up|went down|goes down|revised|"
        r"replaced|replaces|no more|anymore|any more|from .{1,20} to|it is|it's now|"
        r"its now|is now|are now|will now|effective|starting|from next"
    )
    + r"|바뀌|바꿨|바꿔|바꾸|변경|옮겼|옮겨|옮기|이전|미뤄|미뤘|미루|연기|당겨|당겼|앞당|조정|"
    r"이제|앞으로|부터는|부터\s|대신|으로\s*하기로|로\s*하기로|로\s*확정|으로\s*확정|수정|"
    r"올랐|올려|인상|내렸|인하|깎|줄었|늘었|늘려|줄여|새로|새\s|갱신|업데이트|바뀐|달라졌|"
    r"에서\s*.{1,15}(?:으로|로)",
    re.I,
)
ACCEPT = re.compile(
    _en(
        r"it is|it's a deal|deal|confirmed|locked in|lock it in|let's do|lets do|"
        r"let's go with|go with|we'll do|we will do|agreed|settled|final|it'?s settled"
    )
    + r"|로\s*가시죠|으로\s*가시죠|로\s*가죠|으로\s*가죠|로\s*하죠|으로\s*하죠|"
    r"로\s*할게|으로\s*할게|"
    r"로\s*확정|으로\s*확정|로\s*하겠|으로\s*하겠|ㅇㅋ|오케이|좋아요|좋습니다|콜|확정|그렇게\s*해요|"
    r"그걸로|그렇게\s*하죠|알겠습니다|네\s*그럼|그럼\s*그걸로",
    re.I,
)

FIRST_PERSON = re.compile(
    _en(r"i|i'm|im|i've|ive|i'll|ill|me|my|mine|myself")
    + r"|(?<![가-힣])(?:제|저|저는|저도|제가|나|내|나는|내가|난|저희|우리)(?![가-힣])|"
    r"(?<![가-힣])(?:제|내)\s",
    re.I,
)
SECOND_PERSON = re.compile(
    _en(r"you|your|yours|you're|youre|u|ur|yourself")
    + r"|(?<![가-힣])(?:너|니|네가|너의|당신|님|님이|님은|님의|선생님|고객님)(?![가-힣])",
    re.I,
)
THIRD_PERSON = re.compile(
    _en(r"he|she|him|her|his|hers|they|them|their|theirs")
    + r"|(?<![가-힣])(?:그|그녀|걔|그분|그쪽|그 사람)(?:이|가|은|는|의|도|한테|께)?(?![가-힣])",
    re.I,
)

# -- what attribute a value belongs to --------------------------------------------------
# canonical relation -> (nouns that name it, value kinds it takes)
RELATION_NOUNS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "day rate": (
        (
            "day rate",
            "daily rate",
            "per day",
            "a day",
            "/day",
            "일당",
            "일급",
            "하루",
            "일 단가",
            "일일 단가",
            "데이 레이트",
            "데이레이트",
            "데일리 레이트",
        ),
        ("rate", "money"),
    ),
    "hourly rate": (
        ("hourly rate", "hourly", "per hour", "an hour", "/hr", "/hour", "시급", "시간당"),
        ("rate", "money"),
    ),
    "rate": (
        (
            "rate",
            "fee",
            "charge",
            "charges",
            "pricing",
            "quote",
            "단가",
            "비용",
            "견적",
            "요금",
            "수수료",
            "페이",
            "보수",
        ),
        ("rate", "money"),
    ),
    "rent": (("rent", "월세", "임대료", "관리비"), ("rate", "money")),
    "deposit": (("deposit", "보증금", "계약금", "예약금"), ("money",)),
    "budget": (
        (
            "budget",
            "budget cap",
            "spending cap",
            "spending limit",
            "cap",
            "capped",
            "ceiling",
            "spend",
            "spending",
            "max spend",
            "tops out",
            "예산",
            "버짓",
            "한도",
            "상한",
        ),
        ("money",),
    ),
    "price": (
        (
            "price",
            "cost",
            "costs",
            "total",
            "bill",
            "invoice",
            "quote",
            "가격",
            "금액",
            "비용",
            "총액",
            "견적",
            "값",
        ),
        ("money",),
    ),
    "salary": (("salary", "pay", "wage", "연봉", "월급", "급여"), ("money", "rate")),
    "deadline": (
        (
            "deadline",
            "due",
            "due date",
            "due by",
            "done by",
            "finished by",
            "completed by",
            "submitted by",
            "delivered by",
            "마감",
            "마감일",
            "데드라인",
            "까지",
            "기한",
            "납기",
            "제출일",
            "끝내",
            "마무리",
            "완료",
        ),
        ("date", "time"),
    ),
    "launch date": (
        (
            "launch",
            "launching",
            "release",
            "releasing",
            "go-live",
            "go live",
            "goes live",
            "going live",
            "ship date",
            "ships",
            "shipping",
            "rollout",
            "roll out",
            "rolls out",
            "hits the market",
            "출시",
            "런칭",
            "론칭",
            "오픈",
            "배포일",
            "릴리즈",
            "공개",
        ),
        ("date",),
    ),
    "delivery date": (
        (
            "delivery",
            "eta",
            "arrival",
            "arrives",
            "ships",
            "shipping",
            "배송",
            "도착",
            "납품",
            "입고",
        ),
        ("date", "time"),
    ),
    "date": (("date", "day", "날짜", "일정", "날"), ("date",)),
    "time": (("time", "start", "starts", "kickoff", "시간", "시작"), ("time",)),
    "room": (
        (
            "room",
            "rm",
            "conference room",
            "meeting room",
            "회의실",
            "미팅룸",
            "룸",
            "강의실",
            "세미나실",
        ),
        ("room",),
    ),
    "place": (("venue", "location", "place", "address", "장소", "위치", "주소"), ("room",)),
    "duration": (
        ("duration", "length", "long", "takes", "기간", "동안", "소요", "걸려", "걸립"),
        ("duration",),
    ),
    "headcount": (
        ("people", "guests", "headcount", "attendees", "of us", "인원", "명"),
        ("count",),
    ),
    "quantity": (
        (
            "cartons",
            "boxes",
            "units",
            "pieces",
            "copies",
            "qty",
            "quantity",
            "수량",
            "개수",
            "박스",
        ),
        ("count",),
    ),
    "phone": (
        (
            "phone",
            "number",
            "cell",
            "mobile",
            "tel",
            "call",
            "text",
            "reach",
            "번호",
            "연락처",
            "전화",
            "핸드폰",
            "휴대폰",
        ),
        ("phone",),
    ),
    "email": (("email", "e-mail", "mail", "address", "이메일", "메일"), ("email",)),
    "link": (("link", "url", "zoom", "meet", "site", "website", "링크", "주소"), ("url",)),
}

# Nouns that make a thing people schedule: the subject of times, dates and rooms.
EVENT_NOUNS_EN: tuple[str, ...] = (
    "meeting",
    "mtg",
    "sync",
    "standup",
    "stand-up",
    "review",
    "dinner",
    "lunch",
    "brunch",
    "breakfast",
    "party",
    "appointment",
    "appt",
    "session",
    "class",
    "lesson",
    "interview",
    "demo",
    "workshop",
    "offsite",
    "trip",
    "flight",
    "visit",
    "viewing",
    "book club",
    "practice",
    "game",
    "match",
    "rehearsal",
    "concert",
    "show",
    "wedding",
    "shower",
    "checkup",
    "check-up",
    "cleaning",
    "1:1",
    "one-on-one",
    "retro",
    "kickoff",
    "kick-off",
    "onboarding",
    "training",
    "delivery",
    "shipment",
    "order",
    "booking",
    "reservation",
    "inspection",
    "maintenance",
    "webinar",
    "conference",
    "meetup",
    "hangout",
    "drinks",
    "coffee",
    "catch-up",
    "catchup",
    "presentation",
    "pitch",
    "hearing",
    "exam",
    "test",
    "recital",
    "tournament",
    "run",
    "ride",
    "hike",
    "tour",
    "screening",
    "premiere",
    "tasting",
    "move",
    "pickup",
    "pick-up",
    "drop-off",
    "dropoff",
    "install",
    "installation",
    "repair",
    "fitting",
    "photoshoot",
    "shoot",
    "event",
    "gathering",
    "reunion",
    "recording",
)
EVENT_NOUNS_KO: tuple[str, ...] = (
    "회의",
    "미팅",
    "스탠드업",
    "싱크",
    "회식",
    "저녁",
    "점심",
    "약속",
    "예약",
    "모임",
    "수업",
    "레슨",
    "면접",
    "발표",
    "데모",
    "워크숍",
    "워크샵",
    "여행",
    "비행기",
    "항공편",
    "방문",
    "상담",
    "진료",
    "검진",
    "연습",
    "경기",
    "공연",
    "결혼식",
    "세미나",
    "행사",
    "스터디",
    "과외",
    "배송",
    "납품",
    "이사",
    "점검",
    "교육",
    "리뷰",
    "킥오프",
    "회고",
    "통화",
    "콜",
    "촬영",
    "시사회",
    "투어",
    "답사",
    "워크샵",
    "집들이",
    "생일파티",
    "파티",
    "번개",
    "정모",
    "송년회",
    "신년회",
    "동창회",
    "세션",
    "클래스",
    "레슨",
    "강의",
    "시험",
    "면담",
    "1on1",
    "원온원",
    "리허설",
    "공사",
    "수리",
    "설치",
    "픽업",
    "체크인",
    "체크아웃",
    "브런치",
    "커피챗",
)
