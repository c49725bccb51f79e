"""Reading a block request: the asked answer type, the topic, and stored value types.
(These are unit tests of behaviour on sentences written here; the measurement is the
blind set in tests/fixtures/block_requests, see graphmem-bench block-requests.)"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from graphmem.extract.chat.values import states_a_length
from graphmem.reads.request_reading import (
    another_kind,
    another_korean_kind,
    another_numbered,
    another_period,
    kind_words,
    korean_kind_nouns,
    match_fact,
    name_word_set,
    names_topic,
    read_request,
    relation_types,
    restates,
    sets_aside,
    settle_types,
    states_a_change,
    text_types,
    the_other_end,
    value_type,
)


@pytest.mark.parametrize(
    ("request_text", "asked"),
    [
        ("what time is the review?", {"time", "datetime"}),
        ("when's the offsite", {"time", "date", "datetime"}),
        ("which day do the movers come", {"date", "datetime"}),
        ("where do we meet Jo", {"place"}),
        ("how much is the deposit", {"money"}),  # a word says it is paid
        ("how much flour is left", {"money", "quantity"}),
        ("who is covering for me", {"person"}),
        ("how many chairs did we order", {"quantity"}),
        ("how long is the drive", {"duration"}),
        ("is the cafe open on monday?", set()),
        ("회의 몇 시야?", {"time", "datetime"}),
        ("어디서 만나?", {"place"}),
        ("월세 얼마야", {"money"}),
        # A when-clause after the question word does not ask when.
        ("where do we park the trailer when we get there?", {"place"}),
        ("who covers Eamon on the run when he's off?", {"person"}),
        ("who knows when the van comes?", {"time", "date", "datetime"}),
        ("발표 몇 분 주시는 거예요?", {"duration", "quantity"}),
        ("50화 끝나고 얼마 동안 쉬기로 했지", {"duration"}),
        ("락업 몇 개월이었죠?", {"duration", "quantity"}),
        ("수요예측 기간에 매일 몇 시까지 보내야 해?", {"time", "datetime"}),
        ("토요일 단체 몇 분이세요?", {"duration", "quantity"}),
        # "몇 분이나" counts minutes or people (said politely); "몇 분 걸려" minutes.
        ("점심에 손님 몇 분이나 오세요?", {"duration", "quantity"}),
        ("상차 몇 분 걸려요?", {"duration"}),
        ("연습 몇 시간이나 해?", {"duration"}),
        ("보안교육 어느 강의실에서 해요?", {"place"}),
        ("what's the address of the café again", {"place"}),
        ("what's her email address?", {"contact"}),
        # A way to reach someone: a phone number, an extension or an email answers.
        ("can u give me Aiko's number pls", {"contact"}),
        ("what's the vet's phone number?", {"contact"}),
        ("Graham's extension number?", {"contact"}),
        ("총무님 연락처 좀", {"contact"}),
        ("만식이 번호 뭐였지?", {"contact"}),
        ("동하 차 번호 뭐였지?", set()),
        ("what number is Luca wearing", set()),
        ("did Kenji get his extension? what's the new date", set()),
        # A task stays a task ("email" asks for no address there).
        ("draft a polite email declining the invite", set()),
        ("How much time does the crew need to set up?", {"duration"}),
        ("텐트 최종 몇 동이야?", {"quantity", "place"}),
        ("결과 상담은 어느 교수님이 해주세요?", {"person"}),
        ("누가 사회 봐?", {"person"}),
        ("몇 명 와?", {"quantity"}),
        ("공사 얼마나 걸려?", {"duration"}),
        ("Jake랑 lunch 어디서?", {"place"}),
        ("how many weeks is the course", {"duration", "quantity"}),
        ("바게트 2차 얼마나 둬요?", {"money", "quantity", "duration"}),
        # "which" with a place noun, perhaps after words that say which kind of it.
        ("which ward is she on?", {"place"}),
        ("which clinic room is the review in?", {"place"}),
        ("what gate do we board from", {"place"}),
        ("which day is room 4 free?", {"date", "datetime"}),
    ],
)
def test_the_asked_answer_type(request_text: str, asked: set[str]) -> None:
    assert set(read_request(request_text).asked) == asked


def test_the_topic_leaves_out_question_words_names_verbs_and_the_type_cue() -> None:
    r = read_request("what time can I catch Hana for the budget review?", ["hana"])
    assert r.topic == ("budget", "review")
    r = read_request("하린이 영어학원 몇 시야?", ["하린"])
    assert r.topic == ("영어학원",)
    assert read_request("is launch still on the 14th?").change
    assert read_request("write a haiku about rain").task
    assert not read_request("where did we write the plan down?").task
    assert read_request("what's Priya's fee?").unknown_people == ("Priya",)
    assert read_request("what's Priya's fee?", ["priya"]).unknown_people == ()


@pytest.mark.parametrize(
    ("value", "vtype"),
    [
        ("Tuesdays 10:30", "datetime"),
        ("4pm", "time"),
        ("April 28", "date"),
        ("$1,200", "money"),
        ("일당 15만원", "money"),
        ("3 hours", "duration"),
        ("12", "quantity"),
        ("the loading dock", "text"),
        ("오후 3시 반", "time"),
        ("3월 27일", "date"),
        ("10 business days", "duration"),
        ("수령 후 7일", "duration"),
        ("심사 후 2주", "duration"),
        ("매월 10일", "date"),
        ("2024년 3월", "date"),
        ("lobby mailbox, 220 Fenner St", "place"),
        ("900 words", "quantity"),
        # An amount in 만 before a counter counts things; without one it is won.
        ("초동 30만 장", "quantity"),
        ("1만 2천 보", "quantity"),
        ("30만 보내줘", "money"),
        ("3만 보증금", "money"),
        ("1인 하루 2만 5천원", "money"),
        ("7:30am at loading dock C", "time"),
        ("Thurs & Sat", "date"),
        ("weds", "date"),
        # Words that begin like a day, and ordinals that number no day, are no date.
        ("Sunita Rao", "text"),
        ("Monica's spare room", "text"),
        ("monthly", "text"),
        ("Rua da Rosa 112, 2nd floor", "text"),
        ("the 3rd row", "text"),
        ("on the 2nd", "date"),
        # A way to reach someone, however it is written; a date with dashes is none.
        ("07700 900562", "contact"),
        ("+34 612 448 903", "contact"),
        ("010-2345-6789", "contact"),
        ("내선 2214", "contact"),
        ("ext. 4471", "contact"),
        ("jo.lee@example.com", "contact"),
        ("2026-05-03", "date"),
        # A count paced by time is a count; a hedged span of time leads its value.
        ("7 calls an hour", "quantity"),
        ("3 sessions a week", "quantity"),
        ("30 min per session", "duration"),
        ("about 10 weeks after choosing the photos", "duration"),
        ("1박 2일", "duration"),
        ("입고 후 최소 7일", "duration"),
    ],
)
def test_value_types(value: str, vtype: str) -> None:
    assert value_type(value) == vtype


def test_a_number_for_someone_asks_how_to_reach_them_not_a_code() -> None:
    assert read_request("number for joel the site manager?", ["joel"]).asked == {"contact"}
    assert read_request("whats the number for mums key box?", ["joel"]).asked == frozenset()
    ticket = read_request("the INC number for Prof Stannard's migration", ["prof", "stannard"])
    assert ticket.asked == frozenset()


def test_a_cue_word_that_is_someones_name_asks_nothing() -> None:
    # "Price" is the vet's name here, not a question about a price.
    reading = read_request("drop it with Dr Price, where's her surgery?", ["anwen", "price"])
    assert reading.asked == {"place"}
    assert read_request("what's the price for Dr Price?", ["price"]).asked == {"money"}


def test_a_declared_value_type_wins() -> None:
    assert value_type("B-12", "room") == "place"
    assert value_type("12", "money") == "money"


def test_a_fact_answers_only_its_type_and_topic() -> None:
    when = read_request("when is the standup?")
    assert match_fact(when, "time", "standup time Standup moved to 9:45").ok
    assert not match_fact(when, "place", "standup room Standup is in room 4").ok
    other = read_request("when is the piano lesson?")
    assert not match_fact(other, "datetime", "swim practice Swim practice on Mon 5pm").ok
    phase = read_request("what's the cap for phase two?")
    assert not match_fact(phase, "money", "budget cap we can't go over $18k for phase one").ok
    # A digit in the request may be written as a word in the fact: "rd 1" is the first.
    rd1 = read_request("when exactly does rd 1 kick off?")
    assert match_fact(rd1, "datetime", "first round kicks off March 7, 9:30am").ok
    assert not match_fact(rd1, "datetime", "second round kicks off March 28, 9:30am").ok


@given(st.text(max_size=200))
def test_reading_never_raises(text: str) -> None:
    r = read_request(text, ["minjun"])
    assert isinstance(r.topic, tuple)


def test_a_relation_name_says_what_its_values_are():
    assert relation_types("rehearsal spot") == {"place"}
    assert relation_types("guest_count") == {"quantity"}
    assert relation_types("회의 장소") == {"place"}
    assert relation_types("수강료") == {"money"}
    assert relation_types("컷 수") == {"quantity"}
    # Not heads: a name, an e-mail, a professor; nothing at all.
    assert relation_types("dog's name") == set()
    assert relation_types("이메일") == set()
    assert relation_types("담당 교수") == set()
    assert relation_types("") == set()


def test_a_place_named_by_its_relation_answers_where():
    """ "Hughes 302" has no form of a place, but its relation, a meeting room, says so."""
    reading = read_request("which room is the lab meeting in?")
    value = "Hughes 302"
    plain = match_fact(reading, value_type(value), "lab meeting room", value)
    named = match_fact(
        reading, value_type(value), "lab meeting room", value, relation_types("lab meeting room")
    )
    assert not plain.ok and named.ok


@pytest.mark.parametrize(
    ("text", "changes"),
    [
        ("parts delayed, looking like Friday noon now, sorry", True),
        ("neighbors complained, we're moving rehearsal to Kofi's basement", True),
        ("changed my mind, japchae instead", True),
        ("회의 3시로 바뀌었어요", True),
        ("떡 말고 과일로 할게", True),
        ("다음 주부터 연습 30분 늦춰서 목요일 8시에 시작합니다!", True),
        ("상세컷이 늦게 나와서 신상 오픈 3월 24일 화요일로 밀렸어요", True),
        ("원자재가 올라서 다음 달부터 포대당 3만 5천원입니다", True),
        ("the rate's been bumped to $40 an hour", True),
        ("the hall's taken, so from Wednesday 6 May you're on Wednesdays", True),
        ("장비 셋업이 늦어져서 일주일 연장할게요. 총 35일로 해주세요", True),
        ("네 명 추가돼서 최종 42명으로 확정됐어요", True),
        ("Gusts forecast Monday, so I'm bumping the lift to Tuesday", True),
        ("we're shifting the feed dive to 2pm", True),
        ("two more lads in, 8 on the hull from tomorrow", True),
        ("can we make it 14 rooms?", True),
        ("Airline cancelled our flight. New plan: Tuesday May 12", True),
        ("기상 때문에 ETA 늦어집니다. 11일 14:00 예상이에요", True),
        ("8월부터 간식 단가를 2,500원으로 올리게 됐습니다", True),
        ("the night shift starts at 10", False),
        ("rehearsal Wednesdays 8pm at my garage", False),
        ("I read it in Monday's paper, from Monday's list", False),
        ("회의는 2시예요", False),
    ],
)
def test_a_message_that_replaces_what_was_said(text, changes):
    assert states_a_change(text) is changes


def test_what_time_is_never_answered_by_a_date_alone() -> None:
    reading = read_request("what time does the comp start?")
    assert not match_fact(reading, "date", "comp date", "March 14, 2026").ok
    assert match_fact(reading, "datetime", "comp", "March 14, 9am").ok
    when = read_request("when does the comp start?")
    assert match_fact(when, "date", "comp date", "March 14, 2026").ok


def test_a_korean_name_with_a_title_that_no_one_has_is_unknown() -> None:
    names = name_word_set(["임보라", "김지훈", "황보다은"])
    assert read_request("지민 과장님 택배 몇 시에 오신대요?", names).unknown_people == ("지민",)
    assert read_request("영희 할머니는 몇 박스 하신대요?", names).unknown_people == ("영희",)
    # Known people by given name, family name or with the affectionate 이; roles.
    for known in ("보라쌤 연차 언제?", "지훈이 형 어디야?", "황보 사장님 몇 시 오픈?"):
        assert read_request(known, names).unknown_people == (), known
    for role in ("요가 선생님 한 달에 얼마야", "트레이너님 10회에 얼마였지", "원장님 언제 오세요?"):
        assert read_request(role, names).unknown_people == (), role
    # A name stored in Latin letters may be written in Hangul: nothing is called unknown.
    latin = name_word_set(["Daniel Kang", "임보라"])
    assert read_request("마르코 교수님 도착 시간 알아?", latin).unknown_people == ()


def test_a_number_in_the_request_must_be_the_facts_unless_it_is_a_value() -> None:
    q2 = read_request("how much should Declan send in for the second quarter?", ["declan"])
    assert match_fact(q2, "money", "q2 estimated payment your Q2 payment is $2,350").typed
    confirm = read_request("공사 16일 시작 맞지?")
    assert confirm.numbers == ()
    which = read_request("which one's tamsin's ride?", ["tamsin"])
    assert which.numbers == ()
    phase = read_request("what's the budget for phase two?")
    assert not match_fact(phase, "money", "budget cap we can't go over $18k for phase one").ok
    # A digit in the request may be written as a word in the fact: "rd 1" is the first.
    rd1 = read_request("when exactly does rd 1 kick off?")
    assert match_fact(rd1, "datetime", "first round kicks off March 7, 9:30am").ok
    assert not match_fact(rd1, "datetime", "second round kicks off March 28, 9:30am").ok


def test_a_person_is_read_in_a_value_with_a_title_or_a_role() -> None:
    who = read_request("who's giving the opening talk")
    assert match_fact(who, "text", "keynote Dr. Amal Farouk", "Dr. Amal Farouk").typed
    assert match_fact(who, "text", "pickup person Milo", "Milo (Pia's barista)").typed
    mentor = read_request("우리 멘토님 누구셨지?")
    assert match_fact(mentor, "text", "담당 멘토 류재석 멘토님", "류재석 멘토님").typed
    assert relation_types("propane supplier") == {"person"}
    assert not match_fact(who, "text", "keynote topic soil health", "soil health").typed
    billed = read_request("who should I bill at Northlight?")
    assert match_fact(billed, "text", "invoices go to", "Odile Grant in accounts payable").typed


@pytest.mark.parametrize(
    ("value", "vtype"),
    [
        ("her brother Raf Ibarra", "text"),
        ("his daughter, Ada Holloway (a realtor)", "text"),
        ("Élodie Carré", "text"),
        # A note in parentheses made the value look like a time or a date.
        ("Millie Hart (2nd cornet)", "date"),
        ("연다올 (12시 반부터)", "time"),
    ],
)
def test_a_person_is_read_by_their_tie_accents_or_beside_a_note(value: str, vtype: str) -> None:
    assert value_type(value) == vtype
    who = read_request("who's covering the Saturday?")
    assert match_fact(who, vtype, "cover " + value, value).typed
    # A type declared with the relation is not read over.
    assert not match_fact(who, "place", "cover " + value, value).typed


@pytest.mark.parametrize("value", ["her sister", "Sat 3pm (with Jo)", "my friend at work"])
def test_a_tie_or_a_time_with_no_name_is_no_person(value: str) -> None:
    who = read_request("who's covering the Saturday?")
    assert not match_fact(who, value_type(value), "cover " + value, value).typed


@pytest.mark.parametrize(
    "value",
    [
        "아들 이준표",
        "피아니스트 여하윤",
        "한정숙 동장님",
        "남편 Jason",
        "이태호(작은아들)",
        "구청 홍보팀 오상렬 주무관",
        "제갈라온 수셰프",
        "남편 구태형, 친정엄마",
    ],
)
def test_a_korean_name_with_who_they_are_is_a_person(value: str) -> None:
    who = read_request("협연 누가 해요?")
    assert match_fact(who, "text", "협연자 " + value, value).typed


@pytest.mark.parametrize("value", ["강남역 근처", "정기 모임", "홍보팀 회의", "서울역 앞 카페"])
def test_a_korean_place_or_plan_is_no_person(value: str) -> None:
    who = read_request("협연 누가 해요?")
    assert not match_fact(who, "text", "협연 " + value, value).typed


def test_a_korean_request_with_no_noun_is_about_its_verb() -> None:
    # No noun and no type: the verb says what is asked about; light verbs say nothing.
    assert read_request("지호 뭐 먹으면 안 된다고 했지?", ["지호"]).topic == ("먹",)
    assert read_request("남상진 님 뭐 잃어버리셨다 했죠", ["남상진"]).topic
    # A type, or a noun, says it already.
    assert read_request("지호 어디서 기다린대요", ["지호"]).topic == ()
    assert "먹" not in read_request("지호 못 먹는 음식 뭐야?", ["지호"]).topic


def test_a_stretch_between_two_dates_answers_how_long() -> None:
    long = read_request("how long is Emily staying with me", ["emily"])
    value = "arriving Feb 20, staying until Feb 24"
    assert match_fact(long, value_type(value), "visit " + value, value).typed
    assert not match_fact(long, "date", "visit Feb 20", "Feb 20").typed


@pytest.mark.parametrize(
    ("request_text", "unknown"),
    [
        ("when does Marco land?", ("Marco",)),
        ("what shelf is Gwendolyn on?", ("Gwendolyn",)),
        ("when is Mrs. Patterson picking up her order?", ("Patterson",)),
        ("what's Harold in unit 3's parking space?", ("Harold",)),
        ("what time does Hana start?", ()),
        ("when is Saturday's shift?", ()),
        ("임채원 고객님 상담 몇 시였죠?", ("임채원",)),
        ("윤슬기 기자 마감 몇 시야?", ("윤슬기",)),
        ("요가 선생님 몇 시에 와?", ()),
        ("김민수 고객님 예약 몇 시?", ()),
    ],
)
def test_a_person_no_one_stored_is_read_in_a_persons_place(
    request_text: str, unknown: tuple[str, ...]
) -> None:
    # Korean names with a title are read only where every stored name is in Hangul.
    korean = any("가" <= ch <= "힣" for ch in request_text)
    names = name_word_set(["김민수"] if korean else ["Hana Yoon"])
    assert read_request(request_text, names).unknown_people == unknown


@pytest.mark.parametrize(
    ("request_text", "relation", "about", "kinds"),
    [
        (
            "what's the limit on the petty cash card?",
            "fuel card limit",
            "the fuel card: $200",
            ("petty cash card", "fuel card"),
        ),
        (
            "when's my CPR recertification?",
            "EMD recertification deadline",
            "EMD due April 30",
            ("cpr recertification", "emd recertification"),
        ),
        # no kind named, the relation's own kind, a kind the record says, a determiner,
        # a state rather than a kind, a verb, a name; Korean is left to meaning alone
        ("what's the card limit?", "fuel card limit", "the fuel card: $200", None),
        ("what's the fuel card limit?", "fuel card limit", "the fuel card: $200", None),
        ("the weekly standup?", "standup time", "weekly standup at 9", None),
        ("did Celine change her order?", "standing order", "bump our order to 80", None),
        ("how many eyepieces can we borrow", "lending kit eyepieces", "9 eyepieces", None),
        ("what's the current card limit?", "fuel card limit", "the fuel card: $200", None),
        ("did Ravi raise card limit?", "fuel card limit", "the fuel card: $200", None),
        ("Ravi card limit?", "fuel card limit", "the fuel card: $200", None),
        ("주간회의 언제야", "월간회의 시간", "월간회의는 3시", None),
    ],
)
def test_another_kind_names_the_two_kinds_or_none(request_text, relation, about, kinds):
    asked = kind_words(request_text, frozenset({"ravi", "celine"}))
    assert another_kind(asked, relation, f"{relation} {about}") == kinds


@pytest.mark.parametrize(
    ("request_text", "relation", "about", "kinds"),
    [
        ("필라테스 수업은 몇 시야?", "요가 수업 시간", "요가 7시", ("필라테스 수업", "요가 수업")),
        ("점심 코스 얼마예요?", "저녁 코스 가격", "저녁 코스는 9만원", ("점심 코스", "저녁 코스")),
        ("QA 서버 비용 나왔어?", "운영_서버_비용", "월 80만원", ("qa 서버", "운영 서버")),
        # The request's kind said about the fact, or the relation's said in the request.
        ("요가 수업 몇 시?", "요가 수업 시간", "저녁 7시", None),
        ("필라테스 수업은 몇 시야?", "그룹 수업 시간", "필라테스 그룹 수업은 7시", None),
        ("저녁 요가 수업 몇 시?", "요가 수업 시간", "7시", None),
        # Who or when before the noun is not a kind; nor a word apart from it.
        ("팀장님 출장 며칠이야?", "해외 출장 기간", "5박 6일", None),
        ("토욜 현장 누가 와?", "당일 현장 담당", "반장님이 와요", None),
        ("지훈 수업 몇 시야?", "코딩 수업 시간", "4시", None),
        ("필라테스는 수업 몇 시야?", "요가 수업 시간", "저녁 7시", None),
        ("필라테스 수업은 몇 시야?", "수업 시간", "7시", None),
        ("what time is the pilates class", "yoga class", "7pm", None),
    ],
)
def test_another_korean_kind_by_words(request_text, relation, about, kinds):
    nouns = korean_kind_nouns(request_text, frozenset({"지훈"}))
    assert another_korean_kind(nouns, request_text, relation, f"{relation} {about}") == kinds


@pytest.mark.parametrize(
    ("request_text", "aside", "about", "refused"),
    [
        ("주차 말고 관광버스 대수는 정해졌어요?", ("주차",), "주차 가능 대수", True),
        ("주차 말고 관광버스 대수는 정해졌어요?", ("주차",), "관광버스 대수", False),
        ("수료식말고 종강 회식은 언제예요?", ("수료식",), "수료식 일시", True),
        # At the end, 말고 asks "just not that" and sets nothing aside.
        ("민아 빈소 언제 지키니? 너무 늦게는 말고", (), "빈소 당번", False),
        ("주차는 몇 대까지 돼요?", (), "주차 가능 대수", False),
    ],
)
def test_a_thing_set_aside_is_no_answer(request_text, aside, about, refused):
    reading = read_request(request_text)
    assert reading.set_aside == aside
    assert not set(aside) & set(reading.topic)
    assert sets_aside(reading, about) is refused


@pytest.mark.parametrize(
    ("request_text", "relation", "other"),
    [
        ("what's the summer OT budget looking like?", "spring OT budget", True),
        ("6월 정캠 날짜도 나왔어요?", "5월 정캠 날짜", True),
        ("겨울휴가는 언제로 잡혔어요?", "여름휴가", True),
        ("12월 회식 어디서 해요?", "2월 회식 장소", True),
        ("3월 후원 모금액 얼마야?", "3월 후원 모금액", False),
        ("sept meetup?", "September meetup", False),
        # A relation that names no period is any period's; 돌봄 names no spring.
        ("what's the book for June?", "current book", False),
        ("4월 3일 진료해요?", "휴진일", False),
        ("돌봄 시간 언제예요?", "여름 돌봄", False),
    ],
)
def test_another_month_or_season_is_another_thing(request_text, relation, other):
    assert another_period(request_text, relation) is other


@pytest.mark.parametrize(
    ("request_text", "relation", "other"),
    [
        ("what time does the gym close on fridays?", "gym opening time", True),
        ("when does the late shift end?", "late shift start", True),
        ("when is drop-off for the kids?", "school pickup", True),
        ("is the flight home still at 6?", "outbound_flight", True),
        ("회의 끝나는 시간 나왔어?", "회의 시작 시간", True),
        ("내일 몇 시 퇴근해?", "출근 시간", True),
        ("도착은 몇 시쯤이에요?", "출발_시간", True),
        ("옥인수 캡틴 출항은 언제래?", "입항 일시", True),
        ("몇 시에 하원해요?", "등원 시간", True),
        # The same end, both ends, or neither: nothing is decided.
        ("what time does the gym open?", "gym opening time", False),
        ("what are the gym's hours, open to close?", "gym closing time", False),
        ("when's the dentist?", "dentist appointment", False),
        ("다가오는 금요일 가는 비행기 몇 시야?", "가는 비행기", False),
        ("체크인 몇 시부터야?", "체크인_시간", False),
    ],
)
def test_one_end_of_a_thing_is_not_the_other(request_text, relation, other):
    assert the_other_end(request_text, relation) is other


@pytest.mark.parametrize(
    ("request_text", "asked"),
    [
        ("what's Gordon's fee for the survey?", {"money"}),
        ("what's Jamal charging for the brakes?", {"money"}),
        ("견적 나왔어?", {"money"}),
        # "얼마" with a noun that names a fee or a sum paid asks for money, not a count.
        ("마켓 부스비는 얼마래?", {"money"}),
        ("렌트카 보험료는 얼마 나왔어요?", {"money"}),
        ("계약금 얼마 보냈지?", {"money"}),
        ("자료 얼마나 남았어?", {"money", "quantity", "duration"}),
        # A question word still decides first.
        ("who's paying for lunch?", {"person"}),
        ("when is the rent due?", {"time", "date", "datetime"}),
    ],
)
def test_what_is_paid_asks_for_money(request_text, asked):
    assert set(read_request(request_text).asked) == asked


@pytest.mark.parametrize(
    ("value", "vtype"),
    [
        ("£15 a weekend", "money"),
        ("$18 per pallet per month", "money"),
        ("£92 per 30L keg", "money"),
        ("회당 35만원", "money"),
        ("Friday 6pm", "datetime"),
    ],
)
def test_a_price_that_leads_a_value_makes_it_money(value, vtype):
    assert value_type(value) == vtype


@pytest.mark.parametrize(
    "request_text",
    [
        "can u translate 'see you soon' into Spanish",
        "help me write a toast for the wedding",
        "quick tips for a first 10k?",
        "김치전 바삭하게 굽는 법 알려줘",
        "제주도 맛집 추천 좀",
        "캠핑 요리 레시피 ㄱㄱ",
        "회식 공지 좀 공손하게 다듬어줘",
        "가게 이름 좀 지어줘",
        "엑셀 VLOOKUP 예시 하나만",
    ],
)
def test_a_task_for_the_assistant_is_no_question_to_memory(request_text: str) -> None:
    assert read_request(request_text).task


@pytest.mark.parametrize(
    "request_text",
    [
        "민수가 추천한 식당 어디였지?",
        "지은이 추천해준 책 뭐였지",
        "회의 시간 알려줘",
        "what tips did Dana give about the route?",
        "호텔 예약해둔 거 언제야?",
    ],
)
def test_a_question_about_what_was_said_is_no_task(request_text: str) -> None:
    assert not read_request(request_text).task


@pytest.mark.parametrize(
    ("request_text", "about", "other"),
    [
        ("how long are the halves at U14?", "U16 half length: U16 halves are", True),
        ("when was Oliver's first viewing?", "second viewing: booked for a second look", True),
        ("2차 면접 언제야", "1차 면접 일정: 면접은", True),
        ("세 번째 수업 어디서 해?", "2회차 수업 장소", True),
        # The same number said another way, or a number the fact does not number by.
        ("what time's he back for the 2nd look?", "second viewing: a second look", False),
        ("what time do we meet? first week here", "team huddle time: huddle at", False),
        ("is the U14 fee still £18?", "match fee: for the U14s", False),
        ("the first-time buyer, when's he back?", "second viewing: a second look", False),
    ],
)
def test_another_numbered_one_of_a_thing(request_text: str, about: str, other: bool) -> None:
    assert another_numbered(request_text, about) is other


@pytest.mark.parametrize(
    ("value", "relation", "settled"),
    [
        # A building's number under a place is no count.
        ("103동 뒤 조경 자재 야적장", "미팅 장소", ("place", {"place"})),
        # A length under a name that says "time" is no clock time.
        ("2시간 30분", "리허설 시간", ("duration", set())),
        # "5일" under a duration is five days, not the 5th.
        ("5일", "설치 소요 기간", ("duration", {"duration"})),
        # A value of no form is what its relation's name says: a place, a person.
        ("the back room", "meeting place", ("place", {"place"})),
        ("1층 무인민원발급기 옆 안내데스크", "배치 위치", ("place", {"place"})),
        ("조교 임채령", "일정 연락 담당", ("person", {"person"})),
        # Where the two agree, or the name says nothing sure, nothing changes.
        ("오후 3시", "리허설 시간", ("time", {"time"})),
        ("5월 5일", "설치 소요 기간", ("date", {"duration"})),
        ("vegan", "dietary", ("text", set())),
    ],
)
def test_a_value_and_its_relations_name_settle_its_type(value, relation, settled):
    vtype, named = settle_types(value_type(value), relation_types(relation), value)
    assert (vtype, set(named)) == settled


@pytest.mark.parametrize(
    ("request_text", "asked"),
    [
        # A change question that quotes a value asks for a value of its type.
        ("Lucille B.'s recall, still Monday?", {"date", "datetime"}),
        ("was it $45 to enter or did Arnold change that?", {"money"}),
        ("Vitale group — still 12 rooms or did that go up?", {"quantity"}),
        ("아직 3시야?", {"time", "datetime"}),
        # A bare number is a label, not a value: nothing is asked.
        ("is phase 2 still on track?", set()),
        ("did the standup move?", set()),
        # "몇 층", like "몇 호", names a place or counts.
        ("작가님 강의실 몇 층이었지?", {"place", "quantity"}),
        # Points, garments, pairs, boxes and sets are counted.
        ("다예 누나 기능시험 몇 점 나왔대?", {"quantity"}),
        ("화이트룸에서 옷 몇 벌 빌렸지?", {"quantity"}),
    ],
)
def test_what_a_change_question_quotes_is_what_it_asks(request_text, asked):
    assert set(read_request(request_text).asked) == asked


def test_a_title_said_to_someone_is_who_not_what() -> None:
    reading = read_request("태곤 기사님 몇 번 도크에 대요?")
    assert "기사" not in reading.topic and reading.titles == ("기사",)
    assert "도크" in reading.topic
    # A title not said to anyone stays a word of the topic ("기사 식당").
    assert "기사" in read_request("기사 식당 어디야?").topic


@pytest.mark.parametrize(
    ("request_text", "about", "found"),
    [
        # A Korean clipped form: its syllables in order from the start of a longer word.
        ("특활비 한 달에 얼마 빠져나가?", "특별활동비 월 4만 5천원", True),
        ("학폭위 언제 열려?", "학교폭력위원회 날짜", True),
        ("특활비 한 달에 얼마 빠져나가?", "특수 장비 활용 비용", False),
    ],
)
def test_a_korean_clipped_form_names_its_word(request_text, about, found):
    assert names_topic(read_request(request_text), about) is found


@pytest.mark.parametrize(
    ("old", "new", "restated"),
    [
        (
            "석다경: 정기공연은 5월 29일(금)로 잡았어요",
            "석다경: 5월 29일이 대동제랑 겹쳐서 정기공연 6월 5일(금)로 미룹니다",
            True,
        ),
        (
            "Lola: we'll say our vows again at the gazebo by the lake",
            "Lola: we will renew our vows at the chapel instead of the gazebo",
            True,
        ),
        ("Lunch with Sam is at noon", "Dinner moved to 7pm", False),
    ],
)
def test_a_later_message_restates_an_earlier_one(old, new, restated):
    assert restates(old, new, frozenset({"석다경", "lola", "sam"})) is restated


@pytest.mark.parametrize(
    ("request_text", "relation", "value"),
    [
        # A value of no form under a relation named a person answers no "where".
        ("하교수님 인터뷰 끝나고 식사는 어디서 하기로 했지?", "일정 연락 담당", "조교 임채령"),
        # ... and one named a place, with a floor's number in it, no "how much".
        ("장영자 어르신 활동비는 얼마로 돼 있어?", "배치 위치", "1층 무인민원발급기 옆 안내데스크"),
    ],
)
def test_a_value_of_no_form_answers_only_as_what_its_relation_names(request_text, relation, value):
    reading = read_request(request_text)
    vtype, named = settle_types(value_type(value), relation_types(relation), value)
    match = match_fact(reading, vtype, f"{relation} {value}", value, named)
    assert not match.ok and not match.typed, match


def test_the_best_time_to_reach_someone_asks_a_time_of_no_other_kind() -> None:
    request = "what's the best time to try Eldon Petrie these days?"
    assert "time" in read_request(request).asked
    # "best" is no kind of time: the callback time is not another kind of it.
    words = kind_words(request, frozenset({"eldon", "petrie"}))
    assert another_kind(words, "callback_time", "callback time before 7:00am") is None


@pytest.mark.parametrize(
    ("request_text", "relation", "other"),
    [
        ("when's load-out at the Foundry?", "load-in slot", True),
        ("what time is load in?", "load_in_slot", False),
        ("when do we strike the set?", "set-up time", True),
        ("what time do I clock out on Friday?", "clock in time", True),
    ],
)
def test_more_ends_of_a_thing(request_text: str, relation: str, other: bool) -> None:
    assert the_other_end(request_text, relation) is other


@pytest.mark.parametrize(
    ("request_text", "relation", "value", "typed"),
    [
        # "몇 번 승차장": the number of the place asked about answers it.
        (
            "선재형 오늘 몇 번 승차장에 서 있어?",
            "pickup_spot",
            "렌터카하우스 3구역 12번 승차장",
            True,
        ),
        # A building's number in a meeting place counts no workers.
        ("봉 팀장님 식재 인부 몇 명 데려온대?", "미팅 장소", "103동 뒤 조경 자재 야적장", False),
    ],
)
def test_a_places_number_answers_a_count_only_of_that_place(request_text, relation, value, typed):
    reading = read_request(request_text)
    vtype, named = settle_types(value_type(value), relation_types(relation), value)
    assert match_fact(reading, vtype, f"{relation} {value}", value, named).typed is typed


@pytest.mark.parametrize(
    ("text", "states"),
    [
        ("board-level jobs take me 3 to 5 working days", True),
        ("a full detail is 2 and a half hours", True),
        ("we're at three to four business days a car right now", True),
        ("the loan runs for 2 months", True),
        ("길놀이에 판굿까지 하면 한 40분 잡으시면 돼요.", True),
        ("목공은 날씨 좋으면 3주면 끝납니다.", True),
        ("기간은 5년이고요, 1년 거치하고", True),
        ("번역에 식자까지 한 화에 3영업일 잡아주세요", True),
        ("시범 외박 1박 2일 한번 해보시죠", True),
        ("판금은 3일은 잡아야 돼요", True),
        # A clock's minutes, people counted politely, a year, how often or how much.
        ("오후 2시 40분에 봬요", False),
        ("세 분 오세요", False),
        ("2026년 3월에 입주", False),
        ("2주에 한 번 와요", False),
        ("한 달에 30만원이에요", False),
        ("3주차 수업은 쉬어요", False),
        ("see you at 3 pm on the 12th", False),
    ],
)
def test_a_record_states_a_length_of_time_as_people_write_one(text: str, states: bool) -> None:
    assert states_a_length(text) is states
    assert ("duration" in text_types(text)) is states


@pytest.mark.parametrize(
    ("request_text", "person"),
    [
        ("태은이 봐주시는 한의사 선생님 성함이 뭐였지?", True),
        ("담당자 이름 다시 알려줘", True),
        ("강아지 이름 뭐였지", False),
    ],
)
def test_a_persons_name_asks_a_person(request_text: str, person: bool) -> None:
    assert ("person" in read_request(request_text).asked) is person


@given(st.integers(1, 12), st.integers(0, 59), st.sampled_from(["오전 ", "오후 ", ""]))
def test_a_clock_time_is_no_length_of_time(hour: int, minute: int, half: str) -> None:
    assert not states_a_length(f"{half}{hour}시 {minute}분에 봬요")
    assert states_a_length(f"{minute + 1}분 정도 걸려요")
