"""Chat-message paraphrase templates for the assert/update slot benchmark.

Hand-written frozen data. ``PARAPHRASES[lang][slot]`` is a pair
``(assert_templates, update_templates)``. Placeholders: ``{e}`` entity name,
``{p}`` Korean person name + 님, ``{n}`` meeting noun, ``{v}`` value; Korean
particles after a placeholder are written ``{x:은/는}`` and resolved at render time.

Generation brief (verbatim, re-wrapped to the line-length limit):

You are writing frozen benchmark data for a memory system's evaluation. Do NOT open, list or
search anything under /work/main/graphmem, /work/main/graphmem_bench (except writing your
one output file), /work/main/tests, or /work/shared: the templates must be written
independently of the code they will test. Write from your own knowledge of how people write
in chat.

Context: a benchmark generates chat messages in which a user tells an AI assistant a fact
about a person or a project, and later revises it. Six "slots": for a PERSON — "meeting
time" (the time of the user's recurring meeting with that person), "meeting room" (where
that meeting is held), "day rate" (the person's daily fee); for a PROJECT — "deadline",
"launch date", "budget cap". Each message states exactly one slot value of exactly one
entity. The first message of a chain ASSERTS the value; later messages UPDATE it (a change
to a new value).

Write the file /work/main/graphmem_bench/paraphrases.py: a Python module whose docstring
contains this whole brief (verbatim, as the generation brief) and which defines

    PARAPHRASES: dict[str, dict[str, tuple[tuple[str, ...], tuple[str, ...]]]]
    # PARAPHRASES[lang][slot] = (assert_templates, update_templates), lang in {"en", "ko"}

with at least 12 assert templates and 12 update templates for every slot in both languages
(6 slots x 2 langs).

Placeholders (Python-style braces; nothing else in braces):
- {e}: the entity's stored name. For a person this is a full name ("Minjun Kim" in English,
  "김민준" in Korean); for a project a code name ("Orion" / "오리온"-style or Latin "Orion"
  in Korean text too).
- {p}: Korean person templates only: the person's full name followed by 님 (e.g.
  "김민준님"). Korean person templates use {p} (not {e}); English and project templates use
  {e}.
- {n}: the meeting noun, only for the two meeting slots (English one of "standup", "weekly
  sync", "planning meeting"; Korean one of "스탠드업", "주간 회의", "기획 미팅"). Meeting
  templates must contain {n}.
- {v}: the value, exactly once. English values look like "9:37", "14:05" (time), "27E", "3C"
  (room codes), "Mar 14" (dates), "$1,250" (day rate), "$245,500" (budget cap). Korean
  values look like "9시 37분", "27E호", "3월 14일", "85만 원", "4,530만 원".
- Korean particles after a placeholder: write {x:은/는}, {x:이/가}, {x:을/를}, {x:과/와},
  {x:으로/로}, {x:이에요/예요}, {x:이랑/랑} and the right form is chosen automatically for
  the word (e.g. {v:으로/로}, {p:이/가}). Use this whenever a particle directly follows a
  placeholder.
- Every template contains the entity placeholder exactly once and {v} exactly once.

Requirements:
- Natural chat, many registers: terse, casual, formal, emoji, abbreviations (mtg, rm, w/,
  tmrw-style but NO relative dates), Korean 반말 and 존댓말, 카톡 style (ㅇㅋ, ㅎㅎ), mixed
  Korean-English words (미팅, 데드라인, 런칭, 버짓), typos are fine in the filler words (not
  in placeholders).
- UPDATE templates: a human must read each as a change of the value (not a first statement).
  Vary HOW people say it: moved, pushed, bumped, shifted, switched, now, from now on, going
  forward, instead, rescheduled, new X is, heads up X changed, 바뀌었어요, 변경, 조정,
  옮겼어요, 미뤄졌어요, 당겨졌어요, 이제부터, 앞으로는, 으로 하기로 했어요, 대신, etc. Do
  not write "from X to Y" (only one value is available). Do not make most of them start with
  "Update:".
- ASSERT templates: a plain statement of the current value, varied phrasing (booked, set,
  agreed, confirmed, is, will be, 잡혔어요, 정해졌어요, 확정, etc.).
- No other value of any kind in the text (no other times, dates, numbers, money, room
  codes), no other person or project name, no pronouns standing for the entity, no
  questions, no proposals ("how about"), no negation. Each message must unambiguously state
  the value of that slot for that entity.
- Do not reuse one skeleton with different verbs: each template should read like a different
  person wrote it.

Then check the file: `cd /work/main && .venv/bin/python -c "import ast,sys; import
graphmem_bench.paraphrases as p; ..."` — verify every template's placeholders and counts,
that it is valid Python, and run `.venv/bin/ruff check graphmem_bench/paraphrases.py` (line
length 100; Korean characters are fine). Do not edit any other file, never run git commands.
Reply with the file path and the template counts.
"""

from __future__ import annotations

__all__ = ["PARAPHRASES"]

Templates = tuple[tuple[str, ...], tuple[str, ...]]

_EN: dict[str, Templates] = {
    "meeting time": (
        (
            "My {n} with {e} is at {v}.",
            "fyi {n} w/ {e} @ {v}",
            "Booked a recurring {n} with {e} at {v}.",
            "{e} and I do the {n} at {v}.",
            "Just so you know, the {n} with {e} starts at {v} sharp.",
            "{n} with {e} is set for {v} 👍",
            "Confirmed: {e} {n}, {v}.",
            "Please note that my {n} with {e} is scheduled for {v}.",
            "we agreed on {v} for the {n} with {e}",
            "{v} is when I meet {e} for the {n}.",
            "Quick note — the {n} with {e} kicks off at {v}.",
            "mtg time for {n} w/ {e}: {v}",
            "Noting down the {n} with {e}: start time {v}.",
            "the {n} w/ {e} happens at {v} fyi, pls rember that",
        ),
        (
            "{e} moved the {n} to {v}.",
            "Heads up, the {n} with {e} got pushed to {v}.",
            "The {n} with {e} is now at {v}.",
            "From now on my {n} with {e} starts at {v}.",
            "Rescheduled the {n} with {e} — new time is {v}.",
            "change of plans: {n} w/ {e} shifted to {v}",
            "Going forward the {n} with {e} will be at {v} instead.",
            "{e} asked to bump the {n} to {v}, so that's the new slot.",
            "New time for the {n} with {e}: {v}.",
            "ugh, {n} w/ {e} moved again, now {v} 🙄",
            "Please be advised that my {n} with {e} has been rescheduled to {v}.",
            "switched the {n} with {e} over to {v}",
            "{n} time w/ {e} changed → {v}",
            "fyi the {n} with {e} got pulled earlier, {v} now",
        ),
    ),
    "meeting room": (
        (
            "My {n} with {e} is in room {v}.",
            "{n} w/ {e} is held in {v}.",
            "Booked {v} for the {n} with {e}.",
            "fyi the {n} with {e} happens in rm {v}",
            "{e} and I meet in {v} for the {n}.",
            "Room for the {n} with {e}: {v}.",
            "Please note the {n} with {e} takes place in conference room {v}.",
            "we use {v} for the {n} with {e} 🙂",
            "The {n} with {e} is always in {v}.",
            "Reserved room {v} for my {n} with {e}.",
            "{e} {n} → rm {v}",
            "Just so you know, the {n} with {e} is set up in {v}.",
            "{v} is where the {n} with {e} meets.",
            "for the {n} with {e} head to room {v}",
        ),
        (
            "The {n} with {e} moved to room {v}.",
            "Heads up: the {n} with {e} is now in {v}.",
            "From now on the {n} with {e} will be in {v}.",
            "Switched rooms for the {n} with {e} — {v} going forward.",
            "{e} rebooked the {n} into {v}.",
            "new room for {n} w/ {e}: {v}",
            "Please note the {n} with {e} has been relocated to conference room {v}.",
            "we're doing the {n} with {e} in {v} instead now",
            "rm change!! {n} w/ {e} → {v}",
            "FYI facilities shifted the {n} with {e} over to {v}.",
            "Going forward, meet {e} in {v} for the {n}.",
            "Changed the booking: {n} with {e} is in {v} now.",
            "got bumped out of the usual room, so the {n} with {e} lives in rm {v} now",
            "The {n} with {e} has a new home: room {v}.",
        ),
    ),
    "day rate": (
        (
            "{e}'s day rate is {v}.",
            "{e} charges {v} a day.",
            "We agreed on {v}/day with {e}.",
            "fyi {e} bills at {v} per day",
            "Day rate for {e}: {v}.",
            "Confirmed the daily fee for {e} at {v}.",
            "Please note that {e} works at a rate of {v} per day.",
            "{e} → {v}/day 💰",
            "signed {e} on at {v} a day",
            "The contract with {e} sets the day rate at {v}.",
            "{e} costs us {v} per day of work.",
            "just fyi, the rate for {e} is {v} for each day",
            "Locked in {e} at {v} daily.",
        ),
        (
            "{e}'s day rate changed to {v}.",
            "Heads up, {e} is charging {v} a day now.",
            "Renegotiated with {e}: new day rate is {v}.",
            "From now on {e} bills {v} per day.",
            "{e} bumped the day rate to {v}.",
            "going forward we pay {e} {v}/day",
            "Please update the daily fee for {e} to {v}.",
            "rate change for {e} → {v}/day",
            "{e} sent over a new rate card, {v} per day.",
            "Effective immediately, {e}'s day rate has been adjusted to {v}.",
            "we settled on {v} a day for {e} instead",
            "ok so {e} is {v} a day now 😬",
            "the day rate for {e} got revised, {v} from here on",
        ),
    ),
    "deadline": (
        (
            "The {e} deadline is {v}.",
            "{e} is due {v}.",
            "Deadline for {e}: {v}.",
            "We need to wrap up {e} by {v}.",
            "fyi {e} due date = {v}",
            "Confirmed that the deadline for project {e} is {v}.",
            "{e} has to be done by {v} 📅",
            "Please note: all {e} deliverables are due on {v}.",
            "set the {e} deadline for {v}",
            "hard deadline on {e} is {v}",
            "{v} is the cutoff for {e}.",
            "{e} wraps on {v}, that's the deadline",
            "Everything for {e} must be submitted by {v}.",
        ),
        (
            "The {e} deadline got pushed to {v}.",
            "Heads up: {e} is now due {v}.",
            "New deadline for {e} is {v}.",
            "{e}'s deadline moved to {v}.",
            "From now on we're working toward {v} for the {e} deadline.",
            "The {e} deadline was pulled in to {v}.",
            "ugh {e} due date shifted, {v} now",
            "Please be advised the deadline for {e} has been changed to {v}.",
            "deadline change on {e} → {v}",
            "we extended {e} — due {v} instead",
            "Going forward, treat {v} as the {e} deadline.",
            "{e} got rescheduled; deliverables are due {v}.",
            "good news, {e} deadline slipped to {v} 😅",
        ),
    ),
    "launch date": (
        (
            "{e} launches on {v}.",
            "Launch date for {e}: {v}.",
            "We're going live with {e} on {v}.",
            "fyi {e} ships {v} 🚀",
            "The {e} launch is set for {v}.",
            "Please note that {e} is scheduled to launch on {v}.",
            "{e} go-live = {v}",
            "Confirmed the public release of {e} on {v}.",
            "{v} is launch day for {e}.",
            "we're releasing {e} {v}",
            "{e} hits the market on {v}.",
            "target launch for {e} is {v}, locked",
            "{e} rolls out to customers on {v}.",
        ),
        (
            "The {e} launch moved to {v}.",
            "Heads up, {e} now launches {v}.",
            "{e} launch got pushed to {v}.",
            "New launch date for {e}: {v}.",
            "We're shipping {e} on {v} instead.",
            "Please note the {e} release has been rescheduled to {v}.",
            "launch for {e} pulled forward to {v} 🚀",
            "going forward, {e} go-live is {v}",
            "change of plan: {e} launches {v} now",
            "{e} release date shifted → {v}",
            "we bumped the {e} launch to {v}",
            "Revised timeline: {e} goes live on {v}.",
            "fyi {e} launch slid to {v}, pls update the calender",
        ),
    ),
    "budget cap": (
        (
            "The budget cap for {e} is {v}.",
            "{e} is capped at {v}.",
            "We can spend up to {v} on {e}.",
            "fyi {e} budget max = {v}",
            "Approved budget ceiling for {e}: {v}.",
            "Please note that total spend on {e} is limited to {v}.",
            "{e} has a hard cap of {v} 💸",
            "set the {e} budget cap at {v}",
            "Finance signed off on a {v} cap for {e}.",
            "{v} is the most we'll put into {e}.",
            "max budget for project {e} is {v}, fyi",
            "Confirmed: {e} spending tops out at {v}.",
            "the ceiling on {e} costs is {v}",
        ),
        (
            "The {e} budget cap changed to {v}.",
            "Heads up: {e} is now capped at {v}.",
            "New budget ceiling for {e} is {v}.",
            "Finance bumped the {e} cap to {v}.",
            "From now on, the max spend on {e} is {v}.",
            "Please be advised that the budget cap for {e} has been revised to {v}.",
            "{e} budget got cut to {v} 😬",
            "cap on {e} adjusted → {v}",
            "going forward we're working with {v} as the {e} cap",
            "we renegotiated the {e} budget, cap is {v} now",
            "{e} cap moved to {v} instead",
            "Revised: the {e} spending limit is {v} going forward.",
            "fyi the {e} budget cap got reset to {v}",
        ),
    ),
}

_KO: dict[str, Templates] = {
    "meeting time": (
        (
            "{p:과/와} 하는 {n:은/는} {v}에 있어요.",
            "{p:이랑/랑} {n} {v}에 잡혔어요.",
            "{p} {n} 시간은 {v}입니다.",
            "{p:과/와}의 {n:은/는} {v}에 시작합니다.",
            "ㅇㅋ {p:이랑/랑} {n} {v}에 하기로 함ㅎㅎ",
            "{p:과/와} 정기 {n} 시간 {v:으로/로} 확정됐어요.",
            "참고로 {p:이랑/랑} 하는 {n} {v} 시작이야.",
            "{v}에 {p:과/와} {n} 있습니다.",
            "{p} {n} → {v} 👍",
            "{p:과/와} {n}, {v}에 하는 걸로 정해졌습니다.",
            "{p:과/와} 진행하는 {n:은/는} {v}부터예요.",
            "{p:이랑/랑} {n} 시간 {v}, 기억해둬~",
            "{p:과/와}의 {n} 시간이 {v:으로/로} 정해졌어요 🙂",
            "{p:과/와} {n} {v}에 셋팅해뒀음",
        ),
        (
            "{p:과/와} {n} 시간이 {v:으로/로} 바뀌었어요.",
            "{p:이랑/랑} {n} {v:으로/로} 옮겼어.",
            "이제부터 {p:과/와}의 {n:은/는} {v}에 해요.",
            "앞으로는 {p:이랑/랑} {n} {v}에 하기로 했어요.",
            "{p} {n} 시간 변경: {v}",
            "{p:과/와} {n:이/가} {v:으로/로} 미뤄졌습니다.",
            "{p:이랑/랑} {n} {v:으로/로} 당겨졌어 ㅠㅠ",
            "공지) {p:과/와} 진행하는 {n} 시간이 {v:으로/로} 조정되었습니다.",
            "{p:이/가} {n} 시간을 {v:으로/로} 변경하셨어요.",
            "ㅇㅋ {p:이랑/랑} {n} {v:으로/로} 바꿔서 진행함ㅎㅎ",
            "{p:과/와} {n}, 시간 재조정돼서 {v}에 합니다.",
            "{p:과/와}의 {n:은/는} 기존 시간 대신 {v}에 하게 됐어요.",
            "일정 바뀜!! {p} {n} {v} 시작",
            "{p:과/와}의 {n} 새 시간은 {v}입니다.",
        ),
    ),
    "meeting room": (
        (
            "{p:과/와} 하는 {n:은/는} {v}에서 해요.",
            "{p:이랑/랑} {n} 회의실 {v:으로/로} 잡았어요.",
            "{p:과/와}의 {n} 장소는 {v}입니다.",
            "{p} {n} → {v} 회의실",
            "{v}에서 {p:과/와} {n} 진행합니다.",
            "ㅇㅋ {p:이랑/랑} {n} {v}에서 하기로 함",
            "{p:과/와} {n:은/는} 항상 {v}에서 모여요.",
            "참고로 {p:이랑/랑} {n} 하는 방 {v}임ㅎㅎ",
            "{p:과/와}의 {n} 회의실이 {v:으로/로} 확정됐습니다.",
            "{p:과/와} {n} 예약해둔 곳: {v}",
            "{p:과/와} {n} 때는 {v:으로/로} 가시면 됩니다.",
            "{p:과/와} 정기 {n}, 장소 {v} 📍",
            "{p:이랑/랑} {n:은/는} {v}에서 하는 거 기억해줘~",
            "{p:과/와} {n} 룸은 {v:이에요/예요}.",
        ),
        (
            "{p:과/와} {n} 장소가 {v:으로/로} 바뀌었어요.",
            "{p:이랑/랑} {n} 회의실 {v:으로/로} 옮겼어.",
            "이제부터 {p:과/와}의 {n:은/는} {v}에서 합니다.",
            "앞으로는 {p:이랑/랑} {n} {v}에서 하기로 했어요.",
            "회의실 변경) {p} {n} → {v}",
            "{p:과/와} {n} 방 바뀜ㅋㅋ {v:으로/로} 오세요",
            "{p:과/와} 진행하는 {n} 회의실이 {v:으로/로} 변경되었습니다.",
            "원래 방 대신 {p:이랑/랑} {n:은/는} {v}에서 해요.",
            "{p:이/가} {n} 장소를 {v:으로/로} 다시 잡으셨어요.",
            "ㅇㅋ {p:이랑/랑} {n} {v:으로/로} 이동 완료",
            "{p:과/와}의 {n:은/는} 이제 {v}에서 진행됩니다.",
            "공지: {p:과/와} {n} 새 회의실은 {v:이에요/예요}.",
            "{p:이랑/랑} {n} 룸 재예약했어, 이제 {v}",
            "{p:과/와} {n}, 방 조정돼서 {v}에서 봬요.",
        ),
    ),
    "day rate": (
        (
            "{p} 일당은 {v:이에요/예요}.",
            "{p:은/는} 하루에 {v} 받으세요.",
            "{p} 데이 레이트 {v:으로/로} 합의했어요.",
            "{p:과/와} 일일 단가 {v:으로/로} 계약했습니다.",
            "{p} 하루 단가: {v}",
            "참고로 {p} 일당 {v}임",
            "{p:은/는} 하루 {v} 청구하십니다.",
            "{p:과/와} 일당 {v:으로/로} 확정했어요 💰",
            "{p} day rate는 {v}입니다.",
            "ㅇㅋ {p} 단가 하루 {v:으로/로} 정해짐",
            "{p}께 드리는 일당은 {v}입니다.",
            "{v:이/가} {p} 하루 비용이에요.",
            "{p} 섭외했어요, 일당 {v}.",
        ),
        (
            "{p} 일당이 {v:으로/로} 바뀌었어요.",
            "{p} 데이 레이트 {v:으로/로} 올랐어.",
            "이제부터 {p}께 하루 {v}씩 드려요.",
            "앞으로는 {p} 일일 단가 {v:으로/로} 적용합니다.",
            "{p:과/와} 재협상해서 일당 {v:으로/로} 조정했어요.",
            "{p} 단가 변경 → 하루 {v}",
            "{p:이/가} 일당을 {v:으로/로} 올리셨어요.",
            "공지) {p}의 일일 단가가 {v:으로/로} 변경되었습니다.",
            "{p} 하루 비용 {v:으로/로} 새로 계약함ㅎㅎ",
            "{p} 일당 {v:으로/로} 하기로 했어요, 기존 금액 대신.",
            "ㅇㅋ {p} day rate 이제 {v}",
            "{p} 새 일당은 {v}입니다.",
            "{p} 단가 조정됨, 하루에 {v}요",
        ),
    ),
    "deadline": (
        (
            "{e} 마감은 {v:이에요/예요}.",
            "{e} 데드라인 {v}입니다.",
            "{e} 프로젝트는 {v}까지 끝내야 해요.",
            "{e:은/는} {v}까지 마감이에요.",
            "참고로 {e} 마감일 {v}임",
            "{e} 제출 기한이 {v:으로/로} 정해졌어요.",
            "{e} 데드라인 {v:으로/로} 확정됐습니다 📅",
            "ㅇㅋ {e} 마감 {v}ㅎㅎ",
            "{v}까지 {e} 마무리해야 돼.",
            "{e} 산출물은 {v}까지 제출하시면 됩니다.",
            "{e}의 최종 기한: {v}",
            "{e} 납기 {v:으로/로} 잡혔어요.",
            "{e} 프로젝트 마감일은 {v}입니다.",
        ),
        (
            "{e} 마감이 {v:으로/로} 미뤄졌어요.",
            "{e} 데드라인 {v:으로/로} 당겨졌대 ㅠㅠ",
            "이제부터 {e} 마감은 {v} 기준이에요.",
            "앞으로는 {e:을/를} {v}까지 끝내기로 했어요.",
            "{e} 마감일 변경: {v}",
            "{e} 데드라인 {v:으로/로} 바뀜",
            "공지) {e} 프로젝트 마감이 {v:으로/로} 조정되었습니다.",
            "{e} 기한 연장됐어요, 새 마감은 {v}입니다.",
            "{e:은/는} 원래 일정 대신 {v}까지 하기로 했어요.",
            "ㅇㅋ {e} 마감 {v:으로/로} 옮김ㅎㅎ",
            "{e} 제출일이 {v:으로/로} 변경됐습니다.",
            "{e} 데드라인 재조정 → {v}",
            "{e} 납기 {v:으로/로} 다시 잡혔어요.",
        ),
    ),
    "launch date": (
        (
            "{e} 런칭은 {v:이에요/예요}.",
            "{e} 출시일 {v}입니다.",
            "{e} 프로젝트 {v}에 오픈해요 🚀",
            "{e} 론칭 {v:으로/로} 확정됐어요.",
            "{v}에 {e} 출시합니다.",
            "ㅇㅋ {e} 런칭 {v}ㅎㅎ",
            "참고로 {e} 정식 오픈 {v}임",
            "{e} 출시 일정이 {v:으로/로} 잡혔습니다.",
            "{e:은/는} {v}에 공개될 예정입니다.",
            "{e} 런칭일: {v}",
            "{e} 서비스 {v}부터 시작해요.",
            "{e} 릴리즈 {v:으로/로} 정해졌어.",
            "{e} 고객 대상 출시일은 {v}입니다.",
        ),
        (
            "{e} 런칭이 {v:으로/로} 미뤄졌어요.",
            "{e} 출시일 {v:으로/로} 당겨졌어!",
            "이제부터 {e} 런칭 목표는 {v}입니다.",
            "앞으로 {e:은/는} {v}에 오픈하는 걸로 바뀌었어요.",
            "{e} 출시 일정 변경: {v}",
            "{e} 론칭 {v:으로/로} 옮김",
            "공지) {e} 출시일이 {v:으로/로} 조정되었습니다.",
            "{e} 런칭 {v:으로/로} 하기로 했어요, 기존 날짜 대신.",
            "ㅠㅠ {e} 오픈 {v:으로/로} 밀림",
            "{e} 릴리즈 날짜 바뀌었어요 → {v}",
            "{e} 출시가 {v:으로/로} 변경됐습니다.",
            "{e} 런칭 재조정돼서 {v}에 나가요.",
            "{e} 새 출시일은 {v}입니다.",
        ),
    ),
    "budget cap": (
        (
            "{e} 예산 상한은 {v:이에요/예요}.",
            "{e} 버짓 캡 {v}입니다.",
            "{e} 프로젝트는 최대 {v}까지 쓸 수 있어요.",
            "{e} 예산 한도 {v:으로/로} 잡혔어요.",
            "{e:은/는} {v} 이내로 집행해야 합니다.",
            "참고로 {e} 예산 최대치 {v}임",
            "{e} 총예산 상한선: {v}",
            "{e} 버짓 {v:으로/로} 확정됐어요 💸",
            "ㅇㅋ {e} 예산 캡 {v}ㅎㅎ",
            "{v:이/가} {e}에 쓸 수 있는 최대 금액이에요.",
            "{e} 예산은 {v} 한도로 승인됐습니다.",
            "{e} 지출 상한 {v:으로/로} 정해졌어.",
            "{e}에 배정된 예산 한도는 {v}입니다.",
        ),
        (
            "{e} 예산 상한이 {v:으로/로} 바뀌었어요.",
            "{e} 버짓 캡 {v:으로/로} 올라갔어!",
            "이제부터 {e} 예산 한도는 {v}입니다.",
            "앞으로는 {e}에 {v}까지만 쓰기로 했어요.",
            "{e} 예산 상한 변경: {v}",
            "{e} 버짓 {v:으로/로} 깎였어 ㅠㅠ",
            "공지) {e} 프로젝트 예산 한도가 {v:으로/로} 조정되었습니다.",
            "{e} 예산 재승인 받았어요, 새 상한은 {v}입니다.",
            "ㅇㅋ {e} 캡 {v:으로/로} 바뀜ㅎㅎ",
            "{e} 지출 한도 {v:으로/로} 변경됐습니다.",
            "기존 한도 대신 {e:은/는} {v} 상한으로 갑니다.",
            "{e} 예산 캡 재조정 → {v}",
            "{e} 총예산 상한선이 {v:으로/로} 새로 정해졌어요.",
        ),
    ),
}

PARAPHRASES: dict[str, dict[str, Templates]] = {"en": _EN, "ko": _KO}
