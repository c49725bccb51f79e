"""Pure parts of read path B: the requested slot, names, the identity posterior, rendering."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from graphmem.domain.block import (
    ActiveRecord,
    BlockLine,
    among,
    called_by_short_form,
    identity_posterior,
    mention_candidates,
    render_block,
    requested_slot,
)
from graphmem.extract.slots import DEFAULT_SLOTS

SLOTS = [(s.name, (*s.nouns_en, *s.nouns_ko), s.value_type) for s in DEFAULT_SLOTS]


def test_requested_slot_from_noun_and_ending():
    assert requested_slot("the standup with Minjun is at", SLOTS) == "meeting time"
    assert requested_slot("the planning meeting with Jonah is in", SLOTS) == "meeting room"
    assert requested_slot("민준님이랑 하는 스탠드업은 몇 시에", SLOTS) == "meeting time"
    assert requested_slot("민준님 회의는 어디서", SLOTS) == "meeting room"
    assert requested_slot("the Mosaic budget cap is", SLOTS) == "budget cap"
    assert requested_slot("the deadline for the launch is", SLOTS) == "deadline"
    assert requested_slot("the standup with Minjun", SLOTS) is None  # time or room: unclear
    assert requested_slot("how are you", SLOTS) is None


def test_a_given_name_means_every_entity_that_has_it():
    ents = ["Minjun Kim", "Minjun Lee", "김민준", "이민준", "Orion"]
    assert mention_candidates("the sync with Minjun is at", ents) == {
        "minjun": ["Minjun Kim", "Minjun Lee"]
    }
    assert mention_candidates("the sync with Minjun Kim is at", ents) == {
        "minjun kim": ["Minjun Kim"]
    }
    assert mention_candidates("민준님이랑 회의", ents) == {"민준": ["김민준", "이민준"]}
    # "민준네", "민준님네": Minjun's (family's)
    assert mention_candidates("민준네 강아지 몇 살?", ents) == {"민준": ["김민준", "이민준"]}
    assert mention_candidates("민준님네 집 어디?", ents) == {"민준": ["김민준", "이민준"]}


def test_a_korean_name_with_a_title_and_a_particle_is_a_mention():
    ents = ["김지호", "차지호", "남보람", "황보우진", "김우진"]
    assert mention_candidates("지호쌤 이번주 언제 쉬세요?", ents) == {"지호": ["김지호", "차지호"]}
    assert mention_candidates("보람씨는 언제 온다니?", ents) == {"보람": ["남보람"]}
    assert mention_candidates("보람 언니한테 물어볼게", ents) == {"보람": ["남보람"]}


def test_a_korean_family_name_with_a_title_means_the_people_of_that_family():
    ents = ["김지호", "차지호", "황보우진", "김우진", "Minjun Kim"]
    assert mention_candidates("황보쌤 보강 몇 시?", ents) == {"황보": ["황보우진"]}
    assert mention_candidates("김 대리님이 언제 와?", ents) == {"김": ["김우진", "김지호"]}
    # Without a title a lone syllable is no one: 김 is also seaweed.
    assert mention_candidates("김 사러 가자", ents) == {}
    assert mention_candidates("차 막히네", ents) == {}


def test_any_office_said_with_nim_after_a_family_name_is_a_title():
    ents = ["방태율", "국태율", "하재겸", "변재겸"]
    # No list of titles holds every trade: an office or trade with 님 is one.
    assert mention_candidates("방 상무님 차 번호 뭐였죠?", ents) == {"방": ["방태율"]}
    assert mention_candidates("하 변리사님이랑 통화 언제 돼?", ents) == {"하": ["하재겸"]}
    # A word without 님 is no title: "방 청소" is cleaning a room.
    assert mention_candidates("방 청소 언제 해?", ents) == {}
    assert mention_candidates("하 사람 뭐래", ents) == {}


def test_posterior_prefers_the_partner_then_who_the_partner_talks_about():
    post = identity_posterior(["Minjun Kim", "Minjun Lee"], "Minjun Lee", {}, {}, "2026-05-05")
    assert max(post, key=post.get) == "Minjun Lee" and abs(sum(post.values()) - 1) < 1e-9
    comention = {"jiyoung park": {"minjun kim": 9.0, "minjun lee": 1.0}}
    post = identity_posterior(
        ["Minjun Kim", "Minjun Lee"], "Jiyoung Park", comention, {}, "2026-05-05"
    )
    assert post["Minjun Kim"] > post["Minjun Lee"]


def test_the_partners_ties_to_other_people_do_not_blur_which_namesake_they_know():
    # Jiyoung talks with many people and once about Minjun Lee, never about Minjun Kim.
    ties = {"jiyoung park": {"minjun lee": 1.0, **{f"friend {i}": 3.0 for i in range(10)}}}
    post = identity_posterior(["Minjun Kim", "Minjun Lee"], "Jiyoung Park", ties, {}, "2026-05-05")
    assert post["Minjun Lee"] >= 0.8


def test_render_block_respects_lines_and_characters():
    recs = [
        ActiveRecord(i, f"r{i}", "x" * 150, "2026-05-01T00:00:00", ("Ann",), None)
        for i in range(10)
    ]
    text, kept = render_block([BlockLine(r, 1.0) for r in recs])
    assert text.startswith("[Relevant memory]\n- (2026-05-01, to Ann) ")
    assert len(text) <= 800 and len(kept) <= 6
    assert render_block([]) == ("", [])


_NAMES = st.text(alphabet="abcAB 민준김이", max_size=6)


@given(st.lists(_NAMES, max_size=40), _NAMES)
def test_a_name_is_found_among_sorted_namesakes_as_by_a_scan(names: list[str], name: str) -> None:
    # Bisection over the name index's sorted lists must agree with looking at each one.
    ordered = sorted(set(names))
    assert among(name, ordered) == (name in ordered)
    assert all(among(n, ordered) for n in ordered)


def test_a_given_names_list_is_returned_as_the_index_keeps_it() -> None:
    index = {"minjun": ("Minjun Kim", "Minjun Lee")}
    assert mention_candidates("when is the sync with Minjun?", index)["minjun"] is index["minjun"]


def test_a_short_form_names_those_called_by_it_where_they_take_part():
    records = [
        ("Ros A: heads up, I'm hiking until Sunday", ["Rosalind Achebe"]),
        ("thanks Ros, great work", ["Rosalind Kerr", "Howard Lee"]),
        # Said where no Rosalind takes part: nobody is called so there.
        ("Ros will hate this", ["Rosalind Park", "Howard Lee"]),
    ]
    people = ["Rosalind Achebe", "Rosalind Kerr", "Rosalind Park"]
    assert called_by_short_form("ros", records, people) == ["Rosalind Achebe", "Rosalind Kerr"]
    # A possessive is the name too; a longer word ("Rosa") is not the short form.
    said = [("Marjorie: Clem's shirt size is XL", ["Marjorie Dubois", "Clement Dubois"])]
    assert called_by_short_form("clem", said, ["Clement Dubois"]) == ["Clement Dubois"]
    assert called_by_short_form("ros", [("Rosa came", ["Rosalind Park"])], people) == []


def test_a_sentences_first_word_or_a_month_is_no_short_form():
    records = [("How's it going? Jan 5 works for me", ["Howard Lee", "Janet Fox"])]
    assert called_by_short_form("how", records, ["Howard Lee"]) == []
    assert called_by_short_form("jan", records, ["Janet Fox"]) == []
    # ... but a vocative is: "How, can you?" calls Howard.
    assert called_by_short_form("how", [("How, can you?", ["Howard Lee"])], ["Howard Lee"]) == [
        "Howard Lee"
    ]


def test_a_hangul_word_that_sounds_like_a_latin_name_is_a_mention():
    sounds = {"소피": ["Sophie Lin"], "조나단": ["Jonathan Reyes"]}
    found = mention_candidates(
        "소피랑 조나단네 회사 미팅 몇 시야?",
        ["Sophie Lin", "Jonathan Reyes"],
        called=lambda w: sounds.get(w, []),
    )
    assert found == {"소피": ["Sophie Lin"], "조나단": ["Jonathan Reyes"]}
