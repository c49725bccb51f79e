"""How a Korean text calls someone by a given name."""

from __future__ import annotations

import pytest

from graphmem.language.text import korean_address_forms


@pytest.mark.parametrize(
    ("text", "given", "forms"),
    [
        ("소연아 내일 같이 가자", "소연", {"intimate"}),
        ("소연이 회원권 언제 끝나?", "소연", {"intimate"}),
        ("도윤이랑 놀았어", "도윤", {"intimate"}),
        # A bare name says nothing of how its person is called.
        ("소연한테 물어봐", "소연", set()),
        ("도윤 만나는 데 어디야?", "도윤", set()),
        ("소연쌤 오늘 수업 좋았어요", "소연", {"선생"}),
        ("소연 선생님 무릎 괜찮으세요?", "소연", {"선생"}),
        ("보라 언니 라켓 몇 그램?", "보라", {"elder"}),
        ("경호형이랑 양조하는 날", "경호", {"elder"}),
        ("하준 팀장 세팅 몇 시?", "하준", {"rank"}),
        ("민재님 오시나요", "민재", {"님"}),
        ("소연쌤이랑 소연이 이름 같아서 웃겨", "소연", {"선생", "intimate"}),
        # Inside a full name or another word, the given name is not called.
        ("제소연 회원님 매트 몇 번?", "소연", set()),
        ("Minjun is late", "Minjun", set()),
    ],
)
def test_the_ways_a_text_calls_someone(text: str, given: str, forms: set[str]) -> None:
    assert korean_address_forms(text, given) == forms
