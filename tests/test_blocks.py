"""Read path B: blocks are current, the right person's, or empty — and never raise."""

from __future__ import annotations

import time

import pytest

from graphmem import Fact, InvalidInputError, Record

pytestmark = pytest.mark.integration


def _store(memory):
    memory.ingest(
        [
            Record(
                "The standup with Minjun Kim is at 9:30.",
                participants=("Minjun Kim",),
                observed_at="2026-05-01",
                facts=(Fact("Minjun Kim", "meeting time", "9:30"),),
            ),
            Record(
                "Moved: the standup with Minjun Kim is now at 10:15.",
                participants=("Minjun Kim",),
                observed_at="2026-05-03",
                facts=(Fact("Minjun Kim", "meeting time", "10:15", "update"),),
            ),
            Record(
                "Minjun Lee's sync is at 14:00.",
                participants=("Minjun Lee",),
                observed_at="2026-05-02",
                facts=(Fact("Minjun Lee", "meeting time", "14:00"),),
            ),
            Record(
                "김민준님 회의실은 B회의실이에요.",
                participants=("김민준",),
                observed_at="2026-05-02",
                facts=(Fact("김민준", "meeting room", "B회의실"),),
            ),
            Record(
                "Lunch was great today.", participants=("Jiyoung Park",), observed_at="2026-05-02"
            ),
        ]
    )


def test_block_serves_the_current_value_only(memory):
    _store(memory)
    b = memory.block("the standup with Minjun is at", "Minjun Kim", now="2026-05-05")
    assert not b.abstained
    assert b.text.startswith("[Relevant memory]\n- (2026-05-03, to Minjun Kim)")
    assert "10:15" in b.text and "9:30" not in b.text  # the superseded record never serves
    assert len(b.text) <= 800 and len(b.lines) <= 6


def test_identity_posterior_picks_the_partners_minjun(memory):
    _store(memory)
    b = memory.block("the sync with Minjun is at", "Minjun Lee", now="2026-05-05")
    assert "14:00" in b.text and "10:15" not in b.text
    assert max(b.posterior, key=b.posterior.get) == "Minjun Lee"


def test_hard_filter_and_participant_filter(memory):
    _store(memory)
    b = memory.block(
        "the sync with Minjun is at", "Jiyoung Park", now="2026-05-05", identity="hard", gate="none"
    )
    assert "14:00" not in b.text and "10:15" not in b.text  # third parties are lost
    b = memory.block(
        "the sync with Minjun is at",
        "Minjun Lee",
        now="2026-05-05",
        identity="participant",
        gate="none",
    )
    assert "14:00" in b.text and "10:15" not in b.text


def test_slot_gate_abstains_when_no_line_states_the_slot(memory):
    _store(memory)
    b = memory.block("the deadline for Minjun is", "Minjun Kim", now="2026-05-05", gate="slot")
    assert b.abstained and b.text == "" and b.slot == "deadline"


def test_korean_request(memory):
    _store(memory)
    b = memory.block("민준님이랑 회의는 어디에서", "김민준", now="2026-05-05")
    assert "B회의실" in b.text, b.reason


@pytest.mark.parametrize(
    ("request_text", "partner"),
    [
        ("", "Minjun Kim"),
        ("Привет, когда встреча?", "Minjun Kim"),
        ("the standup with Minjun is at", ""),
        ("the standup is at", "Somebody New"),
        ("x" * 19_000, "Minjun Kim"),
    ],
)
def test_odd_requests_never_raise(memory, request_text, partner):
    _store(memory)
    b = memory.block(request_text, partner, now="2026-05-05")
    assert isinstance(b.text, str)
    assert b.abstained == (b.text == "")


@pytest.mark.parametrize(
    ("request_text", "partner", "options"),
    [
        (None, "Minjun Kim", {}),
        ("x" * 50_000, "Minjun Kim", {}),
        ("hi", 7, {}),
        ("the standup is at", "Minjun Kim", {"identity": "posterir"}),
        ("the standup is at", "Minjun Kim", {"gate": "slots"}),
        ("the standup is at", "Minjun Kim", {"k": 0}),
        ("the standup is at", "Minjun Kim", {"k": True}),
        ("the standup is at", "Minjun Kim", {"deadline_ms": -1}),
        ("the standup is at", "Minjun Kim", {"max_chars": 10**9}),
        ("the standup is at", "Minjun Kim", {"tau": float("nan")}),
        ("the standup is at", "Minjun Kim", {"tokenizer": "bigrams"}),
        ("the standup is at", "Minjun Kim", {"now": "yesterday-ish"}),
    ],
)
def test_bad_block_input_is_a_typed_error(memory, request_text, partner, options):
    """A typo in an option must not silently turn a filter off."""
    _store(memory)
    now = options.pop("now", "2026-05-05")
    with pytest.raises(InvalidInputError):
        memory.block(request_text, partner, now=now, **options)


def test_deadline_zero_falls_back_to_the_snapshot(memory):
    _store(memory)
    b = memory.block(
        "the standup with Minjun is at", "Minjun Kim", now="2026-05-05", fresh=True, deadline_ms=0
    )
    assert b.fell_back and "10:15" in b.text


def test_fresh_mode_reads_neo4j_now(memory):
    _store(memory)
    b = memory.block(
        "the standup with Minjun is at",
        "Minjun Kim",
        now="2026-05-05",
        fresh=True,
        deadline_ms=5000,
    )
    assert not b.fell_back and "10:15" in b.text


def test_snapshot_follows_new_writes(memory):
    _store(memory)
    memory.block("warm up", "Minjun Kim")
    memory.ingest(
        [
            Record(
                "Standup with Minjun Kim moved to 11:45.",
                participants=("Minjun Kim",),
                observed_at="2026-05-04",
                facts=(Fact("Minjun Kim", "meeting time", "11:45", "update"),),
            )
        ]
    )
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        b = memory.block("the standup with Minjun is at", "Minjun Kim", now="2026-05-05")
        if "11:45" in b.text:
            break
        time.sleep(0.05)
    assert "11:45" in b.text and "10:15" not in b.text


def test_concurrent_first_calls_start_one_block_server(memory):
    import threading

    _store(memory)
    started = []
    from graphmem.reads import blocks as module

    original = module.BlockServer.start

    def counting_start(self):
        started.append(self)
        return original(self)

    module.BlockServer.start = counting_start
    try:
        threads = [
            threading.Thread(
                target=memory.block, args=("the standup is at", "x"), kwargs={"now": "2026-05-05"}
            )
            for _ in range(12)
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        module.BlockServer.start = original
    assert len(started) == 1


def test_a_released_memory_serves_no_more_blocks(memory):
    from graphmem import ConflictError

    _store(memory)
    memory.block("the standup is at", "Minjun Kim", now="2026-05-05")
    memory.release()
    with pytest.raises(ConflictError):
        memory.block("the standup is at", "Minjun Kim", now="2026-05-05")


@pytest.mark.integration
def test_a_fresh_block_is_not_crowded_out_by_other_namespaces(connect):
    """Lucene's top hits are taken inside the namespace, whatever other tenants hold."""
    import uuid

    crowd = connect(f"crowd-{uuid.uuid4().hex[:8]}")
    crowd.ingest(
        [
            Record(f"Minjun says the meeting is at {i % 12 + 1}:00, when is it?", id=f"c{i}")
            for i in range(400)
        ]
    )
    mine = connect(f"mine-{uuid.uuid4().hex[:8]}")
    mine.remember(
        "Minjun", "meeting time", "9:30", text="Minjun: the meeting moved to 9:30", speaker="Minjun"
    )
    blk = mine.block("Minjun, when is the meeting?", "Minjun", fresh=True, deadline_ms=5000)
    assert blk.served == "fresh" and "moved to 9:30" in blk.text, blk


# -- the reading gate (the default): answer type and topic from the request ---------------
def _caller_named(memory):
    """Facts under relation names a developer chose, none of them a built-in slot."""
    memory.ingest(
        [
            Record(
                "Hana: let's keep our catch-up on Thursdays at 16:00",
                speaker="Hana Yoon",
                participants=("Hana Yoon", "Omar Reyes"),
                observed_at="2026-05-01",
                facts=(Fact("Hana Yoon", "catch-up slot", "Thursdays 16:00"),),
            ),
            Record(
                "Omar: my design fee is $900 per screen",
                speaker="Omar Reyes",
                participants=("Omar Reyes", "Hana Yoon"),
                observed_at="2026-05-02",
                facts=(Fact("Omar Reyes", "fee", "$900 per screen"),),
            ),
            Record(
                "Tom Baker from the print shop: pickup is at the loading dock",
                speaker="Tom Baker",
                participants=("Tom Baker", "Hana Yoon"),
                observed_at="2026-05-02",
                facts=(Fact("Tom Baker", "pickup spot", "the loading dock"),),
            ),
            Record(
                "Tom Ito from the band: rehearsal moved to 19:30",
                speaker="Tom Ito",
                participants=("Tom Ito", "Omar Reyes"),
                observed_at="2026-05-03",
                facts=(Fact("Tom Ito", "rehearsal time", "19:30"),),
            ),
            Record(
                "Hana: rainy again, ugh",
                speaker="Hana Yoon",
                participants=("Hana Yoon", "Omar Reyes"),
                observed_at="2026-05-03",
            ),
        ]
    )


def test_reading_gate_serves_the_line_of_the_asked_type(memory):
    _caller_named(memory)
    b = memory.block("what time do I see Hana on thursday?", "Omar Reyes", now="2026-05-05")
    assert [ln.record.facts[0][1] for ln in b.lines] == ["catch_up_slot"], b
    b = memory.block("how much does Omar charge?", "Hana Yoon", now="2026-05-05")
    assert "$900" in b.text, b


def test_reading_gate_is_empty_when_nothing_stated_answers(memory):
    _caller_named(memory)
    # Hana's catch-up has a time, not a place; Omar has a fee, not a birthday.
    for request, partner in (
        ("where is my catch-up with Hana?", "Omar Reyes"),
        ("when is Omar's birthday?", "Hana Yoon"),
        ("what's Priya's fee?", "Hana Yoon"),
        ("write a poem about the rain", "Hana Yoon"),
    ):
        b = memory.block(request, partner, now="2026-05-05")
        assert b.abstained and b.text == "" and b.reason, (request, b)


def test_reading_gate_reads_a_cue_and_refuses_to_guess_a_namesake(memory):
    _caller_named(memory)
    b = memory.block(
        "where do I pick up the posters from Tom at the print shop?", "Hana Yoon", now="2026-05-05"
    )
    assert "loading dock" in b.text, b
    b = memory.block("when is Tom's rehearsal?", "Omar Reyes", now="2026-05-05")
    assert "19:30" in b.text and "loading dock" not in b.text, b
    # A partner who knows both Toms, and a request with no cue: no guess.
    memory.ingest(
        [
            Record(
                "Omar: Tom and Tom both said hi",
                speaker="Omar Reyes",
                participants=("Omar Reyes", "Tom Baker", "Tom Ito"),
                observed_at="2026-05-04",
            )
        ]
    )
    b = memory.block("what did Tom say about pickup?", "Lee", now="2026-05-05")
    assert not b.lines or all(ln.record.facts[0][0] == "Tom Baker" for ln in b.lines), b


def _two_toms(memory):
    """Omar talks with Tom Ito one to one, and with Tom Baker only in a group of eight."""
    group = ("Omar Reyes", "Tom Baker", "Ana", "Ben", "Cy", "Dee", "Eli", "Fay")
    records = [
        Record(
            "Tom: rehearsal is at 19:30",
            speaker="Tom Ito",
            participants=("Omar Reyes", "Tom Ito"),
            observed_at="2026-05-01",
            facts=(Fact("Tom Ito", "rehearsal time", "19:30"),),
        ),
        Record(
            "Tom Baker: our rehearsal is at 18:00",
            speaker="Tom Baker",
            participants=group,
            observed_at="2026-05-01",
            facts=(Fact("Tom Baker", "rehearsal time", "18:00"),),
        ),
    ]
    for day in ("02", "03"):
        records.append(
            Record(
                "see you there",
                speaker="Tom Ito",
                participants=("Omar Reyes", "Tom Ito"),
                observed_at=f"2026-05-{day}",
            )
        )
        records.append(
            Record("see you all", speaker="Ana", participants=group, observed_at=f"2026-05-{day}")
        )
    memory.ingest(records)


def test_a_one_to_one_talk_ties_more_than_a_group(memory):
    _two_toms(memory)
    b = memory.block("when's Tom's rehearsal?", "Omar Reyes", now="2026-05-05")
    assert "19:30" in b.text and "18:00" not in b.text, b


def test_a_first_person_request_asks_about_the_partner_too(memory):
    memory.ingest(
        [
            Record(
                "Karim: see you Thursday at 5:15pm for the knee",
                speaker="Karim Aziz",
                participants=("Luis Navarro", "Karim Aziz"),
                observed_at="2026-05-01",
                facts=(Fact("Luis Navarro", "physio appointment", "Thursday 5:15pm"),),
            ),
            Record(
                "Karim: the clinic is at 12 Elm St",
                speaker="Karim Aziz",
                participants=("Luis Navarro", "Karim Aziz"),
                observed_at="2026-05-01",
                facts=(Fact("Karim Aziz", "clinic address", "12 Elm St"),),
            ),
        ]
    )
    b = memory.block("when's my physio appt w Karim", "Luis Navarro", now="2026-05-05")
    assert "5:15pm" in b.text, b


def _two_noors(memory):
    memory.ingest(
        [
            Record(
                "Noor H: I'm back in the office on May 11",
                speaker="Noor Hassan",
                participants=("Noor Hassan", "Greta Lind"),
                observed_at="2026-04-01",
                facts=(Fact("Noor Hassan", "back in office", "May 11"),),
            ),
            Record(
                "Noor V: Cellar 9 is closed while I'm away, back May 25",
                speaker="Noor Vasquez",
                participants=("Noor Vasquez", "Paulo Mendes"),
                observed_at="2026-04-01",
                facts=(Fact("Noor Vasquez", "back in office", "May 25"),),
            ),
            Record(
                "Noor V: my birthday is June 2",
                speaker="Noor Vasquez",
                participants=("Noor Vasquez", "Paulo Mendes"),
                observed_at="2026-04-02",
                facts=(Fact("Noor Vasquez", "birthday", "June 2"),),
            ),
            Record(
                "Greta: thanks Noor!",
                speaker="Greta Lind",
                participants=("Noor Hassan", "Greta Lind"),
                observed_at="2026-04-03",
            ),
            Record(
                "Eve: hi both Noors",
                speaker="Eve Stone",
                participants=("Eve Stone", "Noor Hassan", "Noor Vasquez"),
                observed_at="2026-04-03",
            ),
        ]
    )


def test_a_cue_beside_the_name_beats_the_partners_ties(memory):
    _two_noors(memory)
    # Greta works with Noor Hassan, but asks about the Noor of Cellar 9.
    b = memory.block("Noor from Cellar 9 - when is she back?", "Greta Lind", now="2026-04-05")
    assert "May 25" in b.text and "May 11" not in b.text, b
    b = memory.block("when is Noor back?", "Greta Lind", now="2026-04-05")
    assert "May 11" in b.text and "May 25" not in b.text, b


def test_a_partner_naming_their_own_name_means_the_namesake_they_know(memory):
    _two_noors(memory)
    # People speak of themselves as "I": Noor Hassan asking about "Noor" means the other
    # Noor, whom she has talked with (Eve's message to both).
    b = memory.block("when is Noor back?", "Noor Hassan", now="2026-04-05")
    assert "May 25" in b.text and "May 11" not in b.text, b
    assert max(b.posterior, key=b.posterior.get) == "Noor Vasquez", b.posterior


def test_what_is_asked_is_no_cue_to_who_is_meant(memory):
    _two_noors(memory)
    # Only Noor Vasquez has a birthday stored, but "birthday" says what is asked, not
    # which Noor: Eve knows both alike, so no guess.
    b = memory.block("when's Noor's birthday?", "Eve Stone", now="2026-04-05")
    assert not b.lines, b


def test_a_family_name_initial_tells_namesakes_apart(memory):
    _two_noors(memory)
    # Greta's ties are to Noor Hassan; "Noor V" names the other one.
    b = memory.block("when's Noor V's back?", "Greta Lind", now="2026-04-05")
    assert "May 25" in b.text and "May 11" not in b.text, b
    b = memory.block("is noor h back on the 11th?", "Eve Stone", now="2026-04-05")
    assert "May 11" in b.text and "May 25" not in b.text, b


def test_an_apposition_after_the_name_is_a_cue(memory):
    _two_noors(memory)
    # "Noor the Cellar 9 manager": the words after "the" say who, as "from" does.
    b = memory.block("when's Noor the Cellar 9 manager back?", "Greta Lind", now="2026-04-05")
    assert "May 25" in b.text and "May 11" not in b.text, b


def test_a_word_of_what_both_namesakes_have_stored_is_no_cue(memory):
    # Both Yusufs have a shift start; only Demir's message happens to say "starting".
    # "start" is what is asked, "lumber" is who: Karimi.
    both = ("Beverly Tran", "Yusuf Demir", "Yusuf Karimi")
    memory.ingest(
        [
            Record(
                "Yusuf D: I'm starting at 8:00am this week at the paint counter",
                speaker="Yusuf Demir",
                participants=("Yusuf Demir", "Beverly Tran"),
                observed_at="2026-03-02",
                facts=(Fact("Yusuf Demir", "shift start", "8:00am"),),
            ),
            Record(
                "Yusuf K: I'm in at 6:30am for the lumber deliveries",
                speaker="Yusuf Karimi",
                participants=("Yusuf Karimi", "Beverly Tran"),
                observed_at="2026-03-02",
                facts=(Fact("Yusuf Karimi", "shift start", "6:30am"),),
            ),
            Record("Beverly: thanks both", speaker="Beverly Tran", participants=both),
        ]
    )
    b = memory.block(
        "When does Yusuf from lumber start in the mornings?", "Beverly Tran", now="2026-03-05"
    )
    assert "6:30am" in b.text and "8:00am" not in b.text, b


def test_a_name_no_record_says_is_unknown_but_a_word_they_say_is_not(memory):
    memory.ingest(
        [
            Record(
                "Colm: down to 6 Shingrix vials",
                speaker="Colm Byrne",
                participants=("Colm Byrne", "Fiona Ade"),
                observed_at="2026-03-10",
                facts=(Fact("Colm Byrne", "Shingrix on hand", "6 vials"),),
            ),
            Record(
                "Colm: the flight lands 3:15pm",
                speaker="Colm Byrne",
                participants=("Colm Byrne", "Fiona Ade"),
                observed_at="2026-03-10",
                facts=(Fact("Colm Byrne", "flight arrival", "3:15pm"),),
            ),
        ]
    )
    b = memory.block("when does Marco land?", "Fiona Ade", now="2026-03-12")
    assert not b.lines and "Marco" in b.reason, b
    b = memory.block("how many vials is Shingrix down to?", "Colm Byrne", now="2026-03-12")
    assert "6 Shingrix vials" in b.text, b


def _cards_and_cameras(memory):
    memory.ingest(
        [
            Record(
                "Dana: good news, the fuel card goes up to $200 a week",
                speaker="Dana Cole",
                participants=("Dana Cole", "Ravi Shah"),
                observed_at="2026-05-01",
                facts=(Fact("Ravi Shah", "fuel card limit", "$200 per week"),),
            ),
            Record(
                "Ravi: my backup body is in locker 14",
                speaker="Ravi Shah",
                participants=("Ravi Shah", "Dana Cole"),
                observed_at="2026-05-02",
                facts=(Fact("Ravi Shah", "backup camera location", "locker 14"),),
            ),
            Record(
                "Dana: 다음 월간회의는 3시예요",
                speaker="Dana Cole",
                participants=("Dana Cole", "Ravi Shah"),
                observed_at="2026-05-02",
                facts=(Fact("Dana Cole", "월간회의 시간", "오후 3시"),),
            ),
        ]
    )


def test_what_a_korean_request_sets_aside_is_not_served(memory):
    """ "주차 말고 관광버스 대수" asks for the coaches, not the parking: the parking's
    line is no answer, however close in meaning; asked plainly, it is."""
    memory.ingest(
        [
            Record(
                "한정호: 주차는 건물 뒤편에 20대까지 가능합니다.",
                speaker="한정호",
                participants=("한정호", "윤상훈"),
                observed_at="2026-02-24",
                facts=(Fact("한정호", "주차 가능 대수", "20대"),),
            )
        ]
    )
    b = memory.block("주차 말고 관광버스 대수는 정해졌어요?", "윤상훈", now="2026-03-01")
    assert b.abstained and b.text == "", b
    b = memory.block("주차는 몇 대까지 돼요?", "윤상훈", now="2026-03-01")
    assert "20대" in b.text, b


def test_another_month_of_a_thing_stored_by_its_month_gets_nothing(memory):
    memory.ingest(
        [
            Record(
                "구연주: 단장님, 3월 후원 모금액 340만원 모였어요!",
                speaker="구연주",
                participants=("구연주", "엄태길"),
                observed_at="2026-03-11",
                facts=(Fact("구연주", "3월 후원 모금액", "340만원"),),
            )
        ]
    )
    b = memory.block("4월 후원 모금액은 얼마나 모였어?", "엄태길", now="2026-04-20")
    assert b.abstained and b.text == "", b
    b = memory.block("3월 후원 모금액은 얼마나 모였어?", "엄태길", now="2026-04-20")
    assert "340만원" in b.text, b


def test_another_kind_of_the_same_thing_gets_nothing_but_a_synonym_does(memory):
    """Two kinds of one thing are not one answer: the petty cash card is not the fuel
    card; a synonym of the kind still is (e5 puts "주간회의" as near "월간회의" as a
    synonym, so Korean compounds are told apart only where meaning says so)."""
    _cards_and_cameras(memory)
    b = memory.block("what's Ravi's petty cash card limit?", "Dana Cole", now="2026-05-05")
    assert b.abstained and b.text == "" and "another kind" in b.reason, b
    for request, value in (
        ("what's Ravi's fuel card limit?", "$200"),
        ("where's Ravi's spare camera?", "locker 14"),
        ("Dana 월간회의 몇 시예요?", "3시"),
    ):
        b = memory.block(request, "Dana Cole", now="2026-05-05")
        assert value in b.text, (request, b)


def test_another_korean_kind_of_the_same_thing_gets_nothing(memory):
    """ "필라테스 수업" is not the yoga class stored as "요가 수업 시간": in Korean the two
    kinds are told apart by words (the record never says 필라테스)."""
    memory.ingest(
        [
            Record(
                "도하린: 다음 주부터 요가 수업은 화목 저녁 7시에 해요",
                speaker="도하린",
                participants=("도하린", "변수아"),
                observed_at="2026-05-04",
                facts=(Fact("도하린", "요가 수업 시간", "화목 저녁 7시"),),
            )
        ]
    )
    b = memory.block("하린쌤 필라테스 수업은 몇 시예요?", "변수아", now="2026-05-06")
    assert b.abstained and b.text == "" and "another kind" in b.reason, b
    b = memory.block("하린쌤 요가 수업 몇 시예요?", "변수아", now="2026-05-06")
    assert "화목 저녁 7시" in b.text, b


def test_a_price_is_not_a_count_nor_a_count_a_price(memory):
    """ "How much" asks an amount, money or a count; a word that says it is paid (비용,
    price) asks money, and "how many" a count."""
    memory.ingest(
        [
            Record(
                "석지안: 거실 도배 면적은 약 6평이에요",
                speaker="석지안",
                participants=("석지안", "피윤재"),
                observed_at="2026-05-04",
                facts=(Fact("석지안", "거실 도배 면적", "약 6평"),),
            ),
            Record(
                "Orla: we've got $300 for the flyer print run",
                speaker="Orla",
                participants=("Orla", "Dev Shah"),
                observed_at="2026-05-04",
                facts=(Fact("Orla", "flyer print budget", "$300"),),
            ),
        ]
    )
    b = memory.block("지안님 거실 도배 비용은 얼마래요?", "피윤재", now="2026-05-06")
    assert b.abstained and b.text == "", b
    b = memory.block("지안님 거실 도배 얼마나 해요?", "피윤재", now="2026-05-06")
    assert "약 6평" in b.text, b
    b = memory.block("how many flyers is Orla printing?", "Dev Shah", now="2026-05-06")
    assert b.abstained and b.text == "", b
    b = memory.block("how much has Orla got for the flyer print?", "Dev Shah", now="2026-05-06")
    assert "$300" in b.text, b


def test_a_fact_is_found_by_the_name_it_is_kept_under(memory):
    """The message behind a fact need not say what the fact is about ("원비는 월 48만원",
    kept as 수학 원비): the block's ranking reads the relation's name too, so a partner who
    never took part in that talk is still served it."""
    memory.ingest(
        [
            Record(
                "길승재: 원비는 월 48만원입니다.",
                speaker="길승재",
                participants=("길승재", "탁현준"),
                observed_at="2026-03-02",
                facts=(Fact("탁서아", "수학 원비", "월 48만원"),),
            ),
            Record(
                "오승재: 어머님, 3월 원비는 36만원입니다.",
                speaker="오승재",
                participants=("오승재", "노미연"),
                observed_at="2026-03-03",
                facts=(Fact("탁서아", "영어 원비", "월 36만원"),),
            ),
            Record(
                "Coach Dana: it's £60 a term, payable by the 1st",
                speaker="Dana Ruiz",
                participants=("Dana Ruiz", "Rosa Lopez"),
                observed_at="2026-03-02",
                facts=(Fact("Mia Lopez", "swim club fee", "£60 a term"),),
            ),
            Record(
                "Ben: sessions are £30 each, pay on the day",
                speaker="Ben Hart",
                participants=("Ben Hart", "Carl Lopez"),
                observed_at="2026-03-03",
                facts=(Fact("Mia Lopez", "maths tutor fee", "£30 per session"),),
            ),
        ]
    )
    b = memory.block("수학은 한 달에 얼마 내?", "노미연", now="2026-03-05")
    assert "48만원" in b.text and "36만원" not in b.text, b
    b = memory.block("how much is the swim club?", "Carl Lopez", now="2026-03-05")
    assert "£60" in b.text and "£30" not in b.text, b


def test_how_a_korean_name_is_called_tells_namesakes_apart(memory):
    # Two 소연s: the older one everyone calls 소연 언니, and Dahae's friend she calls
    # 소연아. Dahae talks with both alike, so her ties decide nothing; the form does.
    memory.ingest(
        [
            Record(
                "우소연: 저는 매주 월요일에 쉬어요",
                speaker="우소연",
                participants=("우소연", "국다해"),
                observed_at="2026-04-01",
                facts=(Fact("우소연", "휴무일", "매주 월요일"),),
            ),
            Record(
                "제소연: 나 회원권 5월 31일에 끝나",
                speaker="제소연",
                participants=("제소연", "국다해"),
                observed_at="2026-04-01",
                facts=(Fact("제소연", "회원권 만료일", "5월 31일"),),
            ),
            Record(
                "우소연: 제 회원권은 12월 31일까지예요",
                speaker="우소연",
                participants=("우소연", "국다해"),
                observed_at="2026-04-02",
                facts=(Fact("우소연", "회원권 만료일", "12월 31일"),),
            ),
            Record(
                "소연아 내일 아침 수업 같이 가자",
                speaker="국다해",
                participants=("국다해", "제소연"),
                observed_at="2026-04-03",
            ),
            Record(
                "소연 언니 오늘 수업 좋았어요",
                speaker="설나윤",
                participants=("설나윤", "우소연"),
                observed_at="2026-04-03",
            ),
            Record(
                "소연 언니 다음 주 시간표 보냈어요",
                speaker="국다해",
                participants=("국다해", "우소연"),
                observed_at="2026-04-03",
            ),
        ]
    )
    b = memory.block("소연이 회원권 언제 끝나?", "국다해", now="2026-04-05")
    assert "5월 31일" in b.text and "12월 31일" not in b.text, b
    b = memory.block("소연 언니 회원권 언제까지예요?", "국다해", now="2026-04-05")
    assert "12월 31일" in b.text and "5월 31일" not in b.text, b
    # 씨 is said to anyone, and neither is called by rank: no guess.
    for request in ("소연씨 회원권 언제까지예요?", "소연 팀장님 회원권 언제 끝나?"):
        b = memory.block(request, "국다해", now="2026-04-05")
        assert not b.lines, b


def test_a_title_said_where_both_namesakes_are_tells_neither_apart(memory):
    # Two 은혜s sing in 예솔's choir, and 예솔 talks with each alike. "지휘자" is said
    # where both are (the conductor's notice to the choir) and, to 권은혜 alone, where only
    # she is: read there, it says which 은혜 the conductor is.
    memory.ingest(
        [
            Record(
                "권은혜 지휘자: 연습은 교육관 3층에서 해요",
                speaker="권은혜",
                participants=("권은혜", "마은혜", "심예솔"),
                observed_at="2026-03-01",
                facts=(Fact("권은혜", "연습 장소", "교육관 3층"),),
            ),
            Record(
                "권은혜: 저는 21일 토요일에 세미나라 못 와요",
                speaker="권은혜",
                participants=("권은혜", "심예솔"),
                observed_at="2026-03-02",
                facts=(Fact("권은혜", "불참 날짜", "3월 21일"),),
            ),
            Record(
                "마은혜: 언니 나 28일 토요일은 시험이라 연습 못 가",
                speaker="마은혜",
                participants=("마은혜", "심예솔"),
                observed_at="2026-03-02",
                facts=(Fact("마은혜", "불참 날짜", "3월 28일"),),
            ),
            Record(
                "지휘자님, 지난주 녹음 파일 올렸어요",
                speaker="심예솔",
                participants=("심예솔", "권은혜"),
                observed_at="2026-03-03",
            ),
            Record(
                "은혜야 시험 잘 보고 와",
                speaker="심예솔",
                participants=("심예솔", "마은혜"),
                observed_at="2026-03-03",
            ),
        ]
    )
    b = memory.block("은혜 지휘자님 못 오시는 날 언제였지?", "심예솔", now="2026-03-05")
    assert "21일" in b.text and "28일" not in b.text, b
    # No cue, and both have a day off stored: no guess.
    b = memory.block("은혜 빠지는 날 며칠이더라?", "심예솔", now="2026-03-05")
    assert not b.lines and "unclear" in b.reason, b


def _two_mabels(memory):
    """Roz brings her bike to Mabel Dunne and rides with Mabel Sørensen, alike; only
    Dunne builds wheels, and both have a shift start stored."""
    memory.ingest(
        [
            Record(
                "Mabel D: a hand-built wheel takes me about 3 hours",
                speaker="Mabel Dunne",
                participants=("Mabel Dunne", "Roz Agbaje"),
                observed_at="2026-04-01",
                facts=(Fact("Mabel Dunne", "wheel build time", "about 3 hours"),),
            ),
            Record(
                "Mabel D: I start at 8 on weekdays",
                speaker="Mabel Dunne",
                participants=("Mabel Dunne", "Roz Agbaje"),
                observed_at="2026-04-01",
                facts=(Fact("Mabel Dunne", "shift start", "8:00"),),
            ),
            Record(
                "Mabel S: my shift starts at 9:30 now",
                speaker="Mabel Sørensen",
                participants=("Mabel Sørensen", "Roz Agbaje"),
                observed_at="2026-04-01",
                facts=(Fact("Mabel Sørensen", "shift start", "9:30"),),
            ),
            Record(
                "Mabel S: the Surly is back by the door",
                speaker="Mabel Sørensen",
                participants=("Mabel Sørensen", "Roz Agbaje"),
                observed_at="2026-04-02",
                facts=(Fact("Mabel Sørensen", "bike", "Surly Long Haul Trucker"),),
            ),
        ]
    )


def test_the_namesake_whose_memory_answers_is_the_one_meant(memory):
    # Nothing tells the Mabels apart but what is asked: only one builds wheels.
    _two_mabels(memory)
    b = memory.block("how long does Mabel need to build a wheel?", "Roz Agbaje", now="2026-04-05")
    assert "about 3 hours" in b.text, b
    # Both have a shift start: no guess.
    b = memory.block("when does Mabel start?", "Roz Agbaje", now="2026-04-05")
    assert not b.lines and "unclear" in b.reason, b


def _two_dohyeons(memory, *more):
    memory.ingest(
        [
            Record(
                "한도현: 나 환전 800달러 해놨어",
                speaker="한도현",
                participants=("한도현", "마준영"),
                observed_at="2026-03-20",
                facts=(Fact("한도현", "환전 금액", "800달러"),),
            ),
            Record(
                "황보도현: 난 여권 31년까지임",
                speaker="황보도현",
                participants=("황보도현", "마준영"),
                observed_at="2026-03-20",
                facts=(Fact("황보도현", "여권 만료일", "2031년 2월 17일"),),
            ),
            Record(
                "도현이들 둘 다 빠지지 마라",
                speaker="마준영",
                participants=("마준영", "한도현", "황보도현"),
                observed_at="2026-03-21",
            ),
            *more,
        ]
    )


def test_what_a_korean_request_asks_after_the_name_is_no_cue(memory, connect, namespace):
    # "환전" after "도현이" is what is asked, not which 도현 ("대학생 도현" would be a
    # cue), and 준영 knows both alike. Only 한도현 has an exchange stored, so his answers;
    # where both have one, no guess.
    _two_dohyeons(memory)
    b = memory.block("도현이 환전 얼마 했냐 ㅋㅋ", "마준영", now="2026-03-25")
    assert "800달러" in b.text, b
    both = connect(f"{namespace}-both")
    _two_dohyeons(
        both,
        Record(
            "황보도현: 나도 300달러 바꿈",
            speaker="황보도현",
            participants=("황보도현", "마준영"),
            observed_at="2026-03-22",
            facts=(Fact("황보도현", "환전 금액", "300달러"),),
        ),
    )
    b = both.block("도현이 환전 얼마 했냐 ㅋㅋ", "마준영", now="2026-03-25")
    assert not b.lines and "unclear" in b.reason, b


def test_a_person_whose_name_reads_like_a_day_is_a_person(memory):
    """ "Sunday Adeyemi" begins like a day of the week; a value that is someone memory
    knows is a person, and answers "who"."""
    memory.ingest(
        [
            Record(
                "Sunday: hi Ola, I'm Sunday, I'll be covering your deliveries next week",
                speaker="Sunday Adeyemi",
                participants=("Sunday Adeyemi", "Ola Berg"),
                observed_at="2026-04-01",
            ),
            Record(
                "Ola: while I'm away Sunday Adeyemi has the spare van key",
                speaker="Ola Berg",
                participants=("Ola Berg", "Kim Lund"),
                observed_at="2026-04-02",
                facts=(Fact("Ola Berg", "spare van key with", "Sunday Adeyemi"),),
            ),
        ]
    )
    b = memory.block("who's got the spare van key?", "Kim Lund", now="2026-04-05")
    assert "Sunday Adeyemi" in b.text, b
    b = memory.block("what day is the van key handed back?", "Kim Lund", now="2026-04-05")
    assert b.abstained, b


def _noahs_house(memory):
    said = [
        (
            "2026-04-01",
            "boiler service",
            "Thursday 9am",
            "the boiler service is booked for Thursday at 9am",
        ),
        ("2026-04-02", "cabinet delivery", "12 May", "the cabinets arrive on 12 May"),
        ("2026-04-03", "tiler rate", "$45/hour", "the tiler charges $45 an hour"),
        ("2026-04-03", "주차 위치", "지하 2층 B구역", "주차는 지하 2층 B구역이에요"),
        ("2026-04-04", "diet", "no dairy", "I can't do dairy at all"),
        ("2026-04-04", "guest count", "45", "we're expecting 45 at the party"),
    ]
    memory.ingest(
        [
            Record(
                f"Noah: {text}",
                participants=("Noah Berg", "Ines Alvarez"),
                speaker="Noah Berg",
                observed_at=day,
                facts=(Fact("Noah Berg", relation, value),),
            )
            for day, relation, value, text in said
        ]
    )


def test_the_answer_head_drops_lines_that_do_not_answer_and_fills_ones_that_do(
    memory, connect, namespace, monkeypatch
):
    """Partial words ("the cabinets") and closeness chose these lines; the learned head
    reads that they do not answer, and reads answers the gate's floor left empty."""
    _noahs_house(memory)
    dropped = ("what colour are the cabinets?", "what does the tiler think of the bathroom?")
    # 주차비 names a fee: the reading asks for money, and no money is stored about parking.
    fee = memory.block("주차비는 얼마예요?", "Ines Alvarez", now="2026-04-10")
    assert fee.abstained and "asks for a money" in fee.reason, fee
    kept = {
        "when do the cabinets come?": "12 May",
        "how much is the tiler per hour?": "$45",
        "Noah 차 어디에 대면 돼요?": "B구역",
    }
    filled = {"can Noah eat cheese?": "dairy", "how many people are we feeding?": "45"}
    for request in dropped:
        b = memory.block(request, "Ines Alvarez", now="2026-04-10")
        assert b.abstained and "answer head" in b.reason, (request, b)
    for request, value in {**kept, **filled}.items():
        b = memory.block(request, "Ines Alvarez", now="2026-04-10")
        assert value in b.text, (request, b)
    # The gate alone (another embedder, or no head shipped) serves and leaves these.
    from graphmem.reads.blocks import gates

    monkeypatch.setattr(gates, "bundled_head", lambda: None)
    alone = connect(f"{namespace}-alone")
    _noahs_house(alone)
    assert all(not alone.block(r, "Ines Alvarez", now="2026-04-10").abstained for r in dropped)
    assert all(alone.block(r, "Ines Alvarez", now="2026-04-10").abstained for r in filled)


def _noahs_messages(memory):
    """The same house, as plain text: nothing keyed."""
    said = [
        ("2026-04-01", "Noah: the boiler service is booked for Thursday at 9am"),
        ("2026-04-02", "Noah: the cabinets arrive on 12 May"),
        ("2026-04-03", "Noah: the tiler charges $45 an hour"),
        ("2026-04-04", "Noah: I can't do dairy at all, just so you know"),
        ("2026-04-04", "Noah: we're expecting 45 at the party"),
        ("2026-04-05", "Noah: the painter starts on Monday the 20th"),
    ]
    memory.ingest(
        [
            Record(
                text,
                speaker="Noah Berg",
                participants=("Noah Berg", "Ines Alvarez"),
                observed_at=day,
            )
            for day, text in said
        ]
    )


def test_the_plain_text_head_picks_the_record_that_answers_or_none(
    memory, connect, namespace, monkeypatch
):
    """Nothing keyed: closeness chose records that do not answer ("the tiler's name" is
    not his rate); the plain-text head reads that, and reads the answer in records the
    gate's floor left out."""
    _noahs_messages(memory)
    dropped = ("what's the tiler's name?", "who's doing the tiles?")
    kept = {
        "how much is the tiler per hour?": "$45",
        "can Noah eat cheese?": "dairy",
        "when's the painter coming?": "Monday the 20th",
    }
    filled = {"how many people are we feeding?": "45"}
    for request in dropped:
        b = memory.block(request, "Ines Alvarez", now="2026-04-10")
        assert b.abstained and "answer head" in b.reason, (request, b)
    for request, value in {**kept, **filled}.items():
        b = memory.block(request, "Ines Alvarez", now="2026-04-10")
        assert value in b.text, (request, b)
    # The gate alone serves and leaves these.
    from graphmem.reads.blocks import gates

    monkeypatch.setattr(gates, "bundled_plain_head", lambda: None)
    alone = connect(f"{namespace}-alone")
    _noahs_messages(alone)
    assert all(not alone.block(r, "Ines Alvarez", now="2026-04-10").abstained for r in dropped)
    assert all(alone.block(r, "Ines Alvarez", now="2026-04-10").abstained for r in filled)


def test_a_plain_record_of_the_asked_type_is_found_by_its_words(connect, namespace):
    """Nothing keyed and no embedder: words choose the record, which states a date."""
    mem = connect(namespace, embedder="none")
    mem.ingest(
        [
            Record(
                "Delia: the wedding is Saturday September 12!",
                speaker="Delia Fontaine",
                participants=("Delia Fontaine", "Celeste Varga"),
                observed_at="2026-03-14",
            ),
            Record(
                "Delia: my first fitting is Saturday May 16 at 11",
                speaker="Delia Fontaine",
                participants=("Delia Fontaine", "Celeste Varga"),
                observed_at="2026-03-20",
            ),
        ]
    )
    b = mem.block("when's Delia's wedding?", "Celeste Varga", now="2026-04-01")
    assert "September 12" in b.text and "May 16" not in b.text, b


@pytest.mark.xfail(
    strict=True,
    reason="the heads refitted in round 16 decide these wrongly: the keyed one gives the "
    "cabinets' delivery date 0.38 for their colour (English keeps from 0.3), the plain-text "
    "one reads an answer in the party's guest count and none in the boiler's record",
)
@pytest.mark.parametrize(
    ("write", "request_text", "answer"),
    [
        ("keyed", "what colour are the cabinets going to be?", None),
        ("plain", "is there parking for the party?", None),
        ("plain", "보일러 점검 몇 시예요?", "9am"),
    ],
)
def test_what_the_refitted_heads_get_wrong(memory, write, request_text, answer):
    (_noahs_house if write == "keyed" else _noahs_messages)(memory)
    b = memory.block(request_text, "Ines Alvarez", now="2026-04-10")
    assert b.abstained if answer is None else answer in b.text, b


def test_a_hangul_rendering_of_the_persons_name_reaches_their_facts(memory):
    # '노아' does not resolve to Noah Berg, so the request names no one: his parking
    # fact is among the namespace's facts nearest to it in meaning.
    _noahs_house(memory)
    b = memory.block("노아 차 어디에 대면 돼요?", "Ines Alvarez", now="2026-04-10")
    assert "B구역" in b.text, b


def _two_rosalinds(memory):
    memory.ingest(
        [
            Record(
                "Ros A: I'm hiking on Flores with no signal until Sunday 10 May",
                speaker="Rosalind Achebe",
                participants=("Rosalind Achebe", "Constance Webb"),
                observed_at="2026-04-20",
                facts=(Fact("Rosalind Achebe", "away until", "Sunday 10 May"),),
            ),
            Record(
                "Ros K: I'm on leave from 4 May, back Monday 18 May",
                speaker="Rosalind Kerr",
                participants=("Rosalind Kerr", "Constance Webb"),
                observed_at="2026-04-21",
                facts=(Fact("Rosalind Kerr", "away until", "Monday 18 May"),),
            ),
            Record(
                "Ros, so glad you could join the press trip!",
                speaker="Jules Carvalho",
                participants=("Jules Carvalho", "Rosalind Achebe"),
                observed_at="2026-04-22",
            ),
        ]
    )


def test_a_short_form_someone_is_called_by_names_them(memory):
    _two_rosalinds(memory)
    # Nobody stored a "Ros", but both Rosalinds are called so: Jules talks with one.
    b = memory.block("any idea when Ros is back online?", "Jules Carvalho", now="2026-04-25")
    assert "10 May" in b.text and "18 May" not in b.text, b
    b = memory.block("when's Ros Kerr back?", "Constance Webb", now="2026-04-25")
    assert "18 May" in b.text and "10 May" not in b.text, b
    # Constance works with both alike: no guess.
    b = memory.block("when's Ros back?", "Constance Webb", now="2026-04-25")
    assert not b.lines, b


def test_a_latin_name_written_in_hangul_names_them(memory):
    memory.ingest(
        [
            Record(
                "Sophie: 사전 브리핑은 5월 12일 오후 5시 30분에 해요",
                speaker="Sophie Lin",
                participants=("Sophie Lin", "왕소담"),
                observed_at="2026-05-01",
                facts=(Fact("Sophie Lin", "브리핑 시간", "5월 12일 오후 5시 30분"),),
            ),
            Record(
                "왕소담: 제 사전 브리핑은 오후 2시예요",
                speaker="왕소담",
                participants=("왕소담", "구민재"),
                observed_at="2026-05-02",
                facts=(Fact("왕소담", "브리핑 시간", "오후 2시"),),
            ),
        ]
    )
    b = memory.block("소피랑 하는 사전 브리핑 몇 시였죠?", "왕소담", now="2026-05-05")
    assert "5시 30분" in b.text and "오후 2시" not in b.text, b


def test_a_word_the_records_call_one_namesake_by_tells_them_apart(memory):
    def said(text, speaker, *others, facts=()):
        return Record(
            text,
            speaker=speaker,
            participants=(speaker, *others),
            observed_at="2026-04-28",
            facts=facts,
        )

    memory.ingest(
        [
            said(
                "윤민채: 저 5월엔 야간조로 오후 2시부터 밤 11시까지 할게요",
                "윤민채",
                "국혜솔",
                facts=(Fact("윤민채", "근무 시간", "오후 2시~밤 11시"),),
            ),
            said(
                "국혜솔: 신입 민채 씨는 교육 기간이라 9시부터 6시까지만 해요",
                "국혜솔",
                "탁민채",
                facts=(Fact("탁민채", "근무 시간", "오전 9시~오후 6시"),),
            ),
            said("신입 민채 씨 첫 주 어땠어요?", "국혜솔", "탁민채"),
            # "신입" is said where the other 민채 takes part too, but not before her name.
            said("민채 씨, 이번에 이름 같은 신입 들어온 거 알죠?", "국혜솔", "윤민채"),
            said("민채 씨 평가 콜 만점이에요", "남윤채", "윤민채"),
        ]
    )
    b = memory.block("신입 민채 씨 몇 시에 퇴근해요?", "국혜솔", now="2026-05-01")
    assert "9시부터 6시" in b.text and "밤 11시" not in b.text, b


def test_a_namesake_who_bears_the_partners_family_name_is_the_one_meant(memory):
    _two_noors(memory)
    # Sami is tied to neither Noor, but shares a household's family name with one.
    b = memory.block("when is Noor back?", "Sami Vasquez", now="2026-04-05")
    assert "May 25" in b.text and "May 11" not in b.text, b
    # A stranger with no family name in common gets no guess.
    b = memory.block("when is Noor back?", "Sami Okafor", now="2026-04-05")
    assert not b.lines, b


def test_a_korean_family_name_tells_no_kin(memory):
    memory.ingest(
        [
            Record(
                f"{name}: 저는 {day}에 복귀해요",
                speaker=name,
                participants=(name, "최영주"),
                observed_at="2026-04-01",
                facts=(Fact(name, "복귀일", day),),
            )
            for name, day in (("김민수", "5월 11일"), ("박민수", "5월 25일"))
        ]
    )
    # 김지영 shares 김민수's family name, as millions do: no guess.
    b = memory.block("민수 언제 복귀해?", "김지영", now="2026-04-05")
    assert not b.lines, b


def test_a_request_naming_no_one_is_about_the_partners_own_line(memory):
    memory.ingest(
        [
            Record(
                "Jaeho A: put my vacation down for Aug 3-7 please",
                speaker="Jaeho Ahn",
                participants=("Jaeho Ahn", "Kiseok Um"),
                observed_at="2026-06-01",
                facts=(Fact("Jaeho Ahn", "vacation", "Aug 3-7"),),
            ),
            Record(
                "Jaeho C: my vacation is Jul 27-31",
                speaker="Jaeho Choi",
                participants=("Jaeho Choi", "Kiseok Um"),
                observed_at="2026-06-02",
                facts=(Fact("Jaeho Choi", "vacation", "Jul 27-31"),),
            ),
        ]
    )
    b = memory.block("which dates did I put my vacation down for?", "Jaeho Ahn", now="2026-06-05")
    assert "Aug 3" in b.text and "Jul 27" not in b.text, b


def test_a_korean_title_said_with_a_family_name_tells_namesakes_apart(memory):
    """ "지훈 실장님" is 권지훈 where the partner's messages say "권 실장님"; a title said
    in one namesake's own message to someone else ("실장님 오시면") tells nothing."""
    memory.ingest(
        [
            Record(
                "우다인: 권 실장님이랑 남 기사님 둘 다 지훈이셔서 단톡에서 헷갈려요",
                speaker="우다인",
                participants=("우다인", "백소율"),
                observed_at="2026-05-01",
            ),
            Record(
                "권지훈: 다인씨, 저는 오후 2시 이후에만 통화돼요",
                speaker="권지훈",
                participants=("권지훈", "우다인"),
                observed_at="2026-05-02",
                facts=(Fact("권지훈", "통화 가능 시간", "오후 2시 이후"),),
            ),
            Record(
                "남지훈: 운행 중엔 못 받아요. 밤 9시 넘어서 주세요. 실장님 오시면 말씀드릴게요",
                speaker="남지훈",
                participants=("남지훈", "우다인"),
                observed_at="2026-05-02",
                facts=(Fact("남지훈", "통화 가능 시간", "밤 9시 이후"),),
            ),
        ]
    )
    b = memory.block("지훈 실장님한테 전화 몇 시쯤 하면 돼?", "우다인", now="2026-05-06")
    assert "오후 2시" in b.text and "밤 9시" not in b.text, b
    b = memory.block("지훈 기사님 통화 몇 시부터 돼?", "우다인", now="2026-05-06")
    assert "밤 9시" in b.text and "오후 2시" not in b.text, b


def _two_adas(memory) -> None:
    memory.ingest(
        [
            Record(
                "Raj: little Ada Moss got her first rating, 412, not bad for a second grader",
                speaker="Raj Iyer",
                participants=("Raj Iyer", "Alicia Moreno"),
                observed_at="2026-03-02",
                facts=(Fact("Ada Moss", "rating", "412"),),
            ),
            Record(
                "Kim: Ada's new rating came through, 1140!!",
                speaker="Kim Pryce",
                participants=("Kim Pryce", "Alicia Moreno"),
                observed_at="2026-03-03",
                facts=(Fact("Ada Pryce", "rating", "1140"),),
            ),
            Record(
                "Ada M: I'll practise the jazz combo charts in room B2 after school",
                speaker="Ada Moss",
                participants=("Ada Moss", "Alicia Moreno"),
                observed_at="2026-03-04",
                facts=(Fact("Ada Moss", "practice room", "room B2"),),
            ),
            Record(
                "Ada P: I'm in the library annex for practice on Tuesdays",
                speaker="Ada Pryce",
                participants=("Ada Pryce", "Alicia Moreno"),
                observed_at="2026-03-04",
                facts=(Fact("Ada Pryce", "practice room", "the library annex"),),
            ),
            Record(
                "Alicia: both Adas played great today",
                speaker="Alicia Moreno",
                participants=("Alicia Moreno", "Raj Iyer", "Kim Pryce"),
                observed_at="2026-03-05",
            ),
        ]
    )


def test_a_cue_before_a_possessive_name_tells_namesakes_apart(memory):
    _two_adas(memory)
    # "little Ada's": the word before the possessive says who, as before the bare name.
    b = memory.block("what's little Ada's rating?", "Alicia Moreno", now="2026-03-06")
    assert "412" in b.text and "1140" not in b.text, b
    b = memory.block("what's Ada's rating?", "Alicia Moreno", now="2026-03-06")
    assert not b.lines, b


def test_the_namesake_whose_fact_the_words_name_is_the_one_meant(memory):
    _two_adas(memory)
    # Both Adas have a practice room; only one was said with "jazz combo".
    b = memory.block("where does Ada run the jazz combo?", "Alicia Moreno", now="2026-03-06")
    assert "room B2" in b.text and "annex" not in b.text, b
    b = memory.block("where does Ada practise?", "Alicia Moreno", now="2026-03-06")
    assert not b.lines, b


def test_a_fact_no_word_of_the_request_finds_is_found_by_meaning(memory):
    """A request that names no one is answered by the namespace's facts nearest to it in
    meaning besides those its words find; type still decides what answers."""
    memory.ingest(
        [
            Record(
                "Ruth: regionals are at the Lakeside Sports Dome again",
                speaker="Ruth Ames",
                participants=("Ruth Ames", "Joe Park"),
                observed_at="2026-03-02",
                facts=(Fact("Ruth Ames", "championship venue", "the Lakeside Sports Dome"),),
            ),
            Record(
                "Ruth: dues are $30 per player this season",
                speaker="Ruth Ames",
                participants=("Ruth Ames", "Joe Park"),
                observed_at="2026-03-02",
                facts=(Fact("Ruth Ames", "dues", "$30 per player"),),
            ),
        ]
    )
    b = memory.block("Where's the big tournament this year?", "Kim Pryce", now="2026-03-06")
    assert "Lakeside Sports Dome" in b.text, b
    b = memory.block("what time does the big tournament start?", "Kim Pryce", now="2026-03-06")
    assert not b.lines, b


def test_candidates_by_meaning_wait_for_the_kept_vectors(memory, monkeypatch):
    """A request never embeds a namespace's worth of facts: while more of their vectors
    are missing than a request may embed, the words' candidates stand alone."""
    from graphmem.reads.blocks import gates

    monkeypatch.setattr(gates, "NEAREST_EMBED", -1)
    memory.ingest(
        [
            Record(
                "Ruth: regionals are at the Lakeside Sports Dome again",
                speaker="Ruth Ames",
                participants=("Ruth Ames", "Joe Park"),
                observed_at="2026-03-02",
                facts=(Fact("Ruth Ames", "championship venue", "the Lakeside Sports Dome"),),
            )
        ]
    )
    b = memory.block("Where's the big tournament this year?", "Kim Pryce", now="2026-03-06")
    assert not b.lines, b


@pytest.mark.parametrize(
    ("said", "asked", "now", "old"),
    [
        (
            (
                ("2026-03-09", "서하은: 올해 동아리 발표회는 6월 12일(금)로 잡았어요. 다들 저장!"),
                (
                    "2026-04-10",
                    "서하은: 공지) 6월 12일이 기말고사랑 겹쳐서 발표회 6월 19일(금)로 미룹니다 🙏",
                ),
            ),
            "동아리 행사 며칠이죠? 강당 예약해야 해서요",
            "6월 19일",
            "잡았어요",
        ),
        (
            (
                ("2026-08-04", "옥인수: MV Nordic Aurora ETA는 8월 11일 화요일 05:00입니다"),
                ("2026-08-09", "옥인수: 서해상 기상 때문에 ETA 늦어집니다. 11일 14:00 예상이에요"),
            ),
            "노르딕 배 언제 들어와? 시간까지",
            "14:00",
            "05:00",
        ),
        (
            (
                ("2026-03-02", "Lola: we'll say our vows again at the gazebo by the lake, anak"),
                (
                    "2026-04-28",
                    "Lola: Father Ben said yes! We will renew our vows at the old chapel "
                    "instead of the gazebo",
                ),
            ),
            "remind me where Lola is renewing her vows",
            "chapel",
            "by the lake",
        ),
    ],
)
def test_a_later_message_that_takes_up_an_earlier_one_replaces_it(memory, said, asked, now, old):
    """Plain text: a later message by the same person that says it changes something and
    quotes a value of the earlier one, or shares two of its words, replaces it however
    differently it is worded."""
    speaker = said[0][1].split(":")[0]
    speaker = "Lola Reyes" if speaker == "Lola" else speaker
    memory.ingest(
        [
            Record(text, speaker=speaker, participants=(speaker, "Tae Kim"), observed_at=day)
            for day, text in said
        ]
    )
    b = memory.block(asked, "Tae Kim", now="2026-05-01")
    assert now in b.text and old not in b.text, b


def test_a_later_message_the_requests_words_miss_still_replaces(memory):
    """Plain text: the partner took part in neither message, and the later one shares no
    word with the request; it is read as a later message of the same speaker."""
    memory.ingest(
        [
            Record(text, speaker="이세정", participants=("이세정", "문태은"), observed_at=day)
            for day, text in (
                ("2026-03-10", "이세정: 현재 치료 경과 기준으로 합의금 130만원 제시드립니다."),
                ("2026-03-24", "이세정: 내부 검토해 보니 160만원까지 조정 가능하다고 합니다."),
            )
        ]
    )
    b = memory.block("합의금 얼마로 올려준대? 처음엔 130이었잖아", "류건호", now="2026-04-01")
    assert "160만원" in b.text and "130만원" not in b.text, b


def test_a_namesake_told_apart_brings_no_record_of_the_other(memory):
    """Plain text: "with me" asks about the partner too, but the other Ezra's later
    meeting with the partner is not the one meant by "Ezra from the night desk"."""
    memory.ingest(
        [
            Record(
                "Ezra W: I'm on the night desk from Monday, so can we talk Thursday at 4?",
                speaker="Ezra Whitfield",
                participants=("Ezra Whitfield", "Dana Holt"),
                observed_at="2026-04-08",
            ),
            Record(
                "Ezra K: Dana, can we meet Tuesday 4/21 at 11am about the crew rooms?",
                speaker="Ezra Kaplan",
                participants=("Ezra Kaplan", "Dana Holt"),
                observed_at="2026-04-09",
            ),
        ]
    )
    b = memory.block(
        "when did Ezra from the night desk want to meet with me?", "Dana Holt", now="2026-04-10"
    )
    assert "Thursday" in b.text and "4/21" not in b.text, b


def test_a_record_the_namesake_meant_shares_with_the_other_stays_theirs(memory):
    """Plain text: Eldon knows only Theo Boucher, so his "Theo" is that one, and what
    Theo Boucher said to the other Theo is still his."""
    memory.ingest(
        [
            Record(
                "Theo G: my mileage for this week is 212 km, form goes in tonight.",
                speaker="Theo Gagnon",
                participants=("Theo Gagnon", "Colette Menard"),
                observed_at="2026-05-19",
            ),
            Record(
                "Eldon: ring me after half eight, I'm in the fields till dark.",
                speaker="Eldon Petrie",
                participants=("Eldon Petrie", "Theo Boucher"),
                observed_at="2026-05-20",
            ),
            Record(
                "Theo B: I put 486 km on the truck this week, all those back roads.",
                speaker="Theo Boucher",
                participants=("Theo Boucher", "Theo Gagnon"),
                observed_at="2026-05-21",
            ),
        ]
    )
    b = memory.block("how many km has Theo put on this week?", "Eldon Petrie", now="2026-05-22")
    assert "486" in b.text and "212" not in b.text, b


def test_words_and_form_outweigh_a_plain_head_that_reads_no_answer(memory):
    """Plain text: the request's words find half its topic ("licence") in a record that
    states a date; the plain-text head alone reads no answer there, and is overruled."""
    said = [
        ("2026-08-20", "My forklift licence runs out on 2 October, hope I'm on this course!"),
        ("2026-08-20", "Also I'm vegetarian, if there's lunch on the course."),
        ("2026-08-21", "Cheers Greta!"),
    ]
    memory.ingest(
        [
            Record(
                text,
                speaker="Owain Price",
                participants=("Owain Price", "Greta Holm"),
                observed_at=day,
            )
            for day, text in said
        ]
    )
    b = memory.block("when does Owain's licence lapse?", "Ibrahim Sayed", now="2026-09-01")
    assert "2 October" in b.text, b


def test_a_partner_who_knows_both_namesakes_does_not_choose_by_counting(memory):
    """Ruth has talked with both Jonahs, six times more with one: that says little of
    which Jonah "when can I ring Jonah?" means, and both have a time to call."""
    said = [
        ("Jonah Adler", "Jonah A: ring me after 6pm, I'm on site all day", "after 6pm"),
        ("Jonah Bell", "Jonah B: mornings are best for calls, before 10", "before 10am"),
    ]
    memory.ingest(
        [
            Record(
                text,
                speaker=who,
                participants=(who, "Ruth Okafor"),
                observed_at="2026-03-02",
                facts=(Fact(who, "call window", value),),
            )
            for who, text, value in said
        ]
        + [
            Record(
                f"Ruth: thanks Jonah, see you at the site meeting #{i}",
                speaker="Ruth Okafor",
                participants=("Ruth Okafor", "Jonah Adler"),
                observed_at=f"2026-03-0{i + 3}",
            )
            for i in range(5)
        ]
    )
    b = memory.block("when can I ring Jonah?", "Ruth Okafor", now="2026-03-10")
    assert b.abstained and "unclear" in b.reason, b
