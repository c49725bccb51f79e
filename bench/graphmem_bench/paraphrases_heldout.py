"""Held-out paraphrase templates for slot assert/update chat messages (en, ko).

Written independently from the generation brief below.

Generation brief (verbatim):

You are writing frozen benchmark data for a memory system's evaluation. Do NOT open, list or
search anything under /work/main/graphmem, /work/main/graphmem_bench (except writing your one
output file), /work/main/tests, /work/main/docs, /work/main/*.md, or /work/shared: the templates
must be written independently of the code they will test and of any other template set. Write
from your own knowledge of how people write in chat, in your own words.

Context: a benchmark generates chat messages in which a user tells an AI assistant a fact about
a person or a project, and later revises it. Six "slots": for a PERSON — "meeting time" (the
time of the user's recurring meeting with that person), "meeting room" (where that meeting is
held), "day rate" (the person's daily fee); for a PROJECT — "deadline", "launch date", "budget
cap". Each message states exactly one slot value of exactly one entity. The first message of a
chain ASSERTS the value; later messages UPDATE it (a change to a new value).

Write the file /work/main/graphmem_bench/paraphrases_heldout.py: a Python module whose docstring
contains this whole brief (verbatim, as the generation brief; re-wrap lines to fit 100
characters) and which defines

    PARAPHRASES: dict[str, dict[str, tuple[tuple[str, ...], tuple[str, ...]]]]
    # PARAPHRASES[lang][slot] = (assert_templates, update_templates), lang in {"en", "ko"}

with at least 10 assert templates and 10 update templates for every slot in both languages (6
slots x 2 langs).

Placeholders (Python-style braces; nothing else in braces):
- {e}: the entity's stored name. For a person this is a full name ("Minjun Kim" in English,
  "김민준" in Korean); for a project a code name (e.g. "Orion"; in Korean text a Hangul code
  name such as "가람" or "누리").
- {p}: Korean person templates only: the person's full name followed by 님 (e.g. "김민준님").
  Korean person templates use {p} (not {e}); English and project templates use {e}.
- {n}: the meeting noun, only for the two meeting slots (English one of "standup", "weekly
  sync", "planning meeting"; Korean one of "스탠드업", "주간 회의", "기획 미팅"). Meeting
  templates must contain {n}.
- {v}: the value, exactly once. English values look like "9:37", "14:05" (time), "27E", "3C"
  (room codes), "Mar 14" (dates), "$1,250" (day rate), "$245,500" (budget cap). Korean values
  look like "9시 37분", "27E호", "3월 14일", "85만 원", "4,530만 원".
- Korean particles after a placeholder: write {x:은/는}, {x:이/가}, {x:을/를}, {x:과/와},
  {x:으로/로}, {x:이에요/예요}, {x:이랑/랑} and the right form is chosen automatically for the
  word (e.g. {v:으로/로}, {p:이/가}). Use this whenever a particle directly follows a
  placeholder.
- Every template contains the entity placeholder exactly once and {v} exactly once.

Requirements:
- Natural chat, many registers: terse, casual, formal, emoji, abbreviations (no relative dates),
  Korean 반말 and 존댓말, 카톡 style, mixed Korean-English words; typos are fine in the filler
  words (not in placeholders). Vary sentence order: value first, entity last, entity in the
  middle, etc.
- UPDATE templates: a human must read each as a change of the value (not a first statement).
  Vary HOW people say it (moved, pushed back, pulled in, swapped, now, from now on, going
  forward, instead, rescheduled, new X, changed, 바뀌었어요, 변경, 조정, 옮겼어요, 미뤄졌어요,
  당겨졌어요, 이제부터, 앞으로는, 하기로 했어요, 대신, …). Do not write "from X to Y" (only one
  value is available).
- ASSERT templates: a plain statement of the current value, varied phrasing.
- No other value of any kind in the text (no other times, dates, numbers, money, room codes), no
  other person or project name, no pronouns standing for the entity, no questions, no proposals,
  no negation. Each message must unambiguously state the value of that slot for that entity.
- Each template should read like a different person wrote it.

Then check the file: valid Python, every template's placeholders and counts as specified, and
`.venv/bin/ruff check graphmem_bench/paraphrases_heldout.py` passes (run from /work/main; line
length 100, Korean characters are fine). Do not edit any other file; never run git commands.
Reply with the file path and the template counts only.
"""

_EN_MEETING_TIME = (
    (
        "My {n} with {e} is at {v}.",
        "{e} and I do the {n} at {v}.",
        "fyi the {n} w/ {e} is at {v}",
        "{v} is when I have the {n} with {e}.",
        "Just so you know, I meet {e} for the {n} at {v}.",
        "{n} with {e} @ {v} 👍",
        "For the record: {e}'s {n} with me starts at {v}.",
        "I've got a recurring {n} with {e}, it starts at {v}.",
        "Kindly note that my {n} with {e} is scheduled for {v}.",
        "{v} — that's the {n} slot with {e}.",
        "the {n} i have with {e} kicks off at {v} btw",
        "Reminder to self: {n}, {e}, {v}.",
        "{e} {n} is at {v} sharp.",
    ),
    (
        "My {n} with {e} moved to {v}.",
        "Heads up: the {n} with {e} is now at {v}.",
        "{e} pushed the {n} back to {v}.",
        "Rescheduled the {n} with {e} to {v}.",
        "new time for the {n} w/ {e}: {v}",
        "From now on the {n} with {e} starts at {v}.",
        "Change of plans — {n} with {e} is at {v} going forward.",
        "Please update your notes: my {n} with {e} has been rescheduled to {v}.",
        "{v} is the new slot for my {n} with {e} 🔄",
        "ugh, {e} moved the {n} again. its at {v} now",
        "{e} and I swapped the {n} to {v} instead.",
        "Pulled the {n} with {e} in to {v}.",
        "{e} asked for a diffrent slot, so the {n} is at {v} now.",
    ),
)

_EN_MEETING_ROOM = (
    (
        "My {n} with {e} is in room {v}.",
        "{e} and I hold the {n} in {v}.",
        "fyi {n} w/ {e} is in rm {v}",
        "Room {v} is where I have the {n} with {e}.",
        "The {n} with {e} takes place in conference room {v}.",
        "{n} w/ {e} → room {v} 📍",
        "I book room {v} for the {n} with {e}.",
        "I meet {e} in room {v} for the {n}.",
        "Please note: the {n} with {e} is held in meeting room {v}.",
        "{e}'s {n} with me is always in {v}.",
        "the {n} room with {e} is {v} btw",
        "Location for my {n} with {e}: room {v}.",
    ),
    (
        "The {n} with {e} moved to room {v}.",
        "Heads up, my {n} with {e} is in {v} now.",
        "{e} switched the {n} over to room {v}.",
        "new room for {n} w/ {e}: {v}",
        "Going forward the {n} with {e} will be held in room {v}.",
        "Room change! {n} with {e} → {v} 🚪",
        "Please note the {n} with {e} has been relocated to room {v}.",
        "{e} and I are doing the {n} in {v} from now on.",
        "{v} is the new room for my {n} with {e}.",
        "ok so facilities reassigned the {n} with {e} to rm {v} instead",
        "Updated location for the {n} with {e}: room {v}.",
        "Swapped rooms for the {n} with {e}, its in {v} now",
    ),
)

_EN_DAY_RATE = (
    (
        "{e}'s day rate is {v}.",
        "{e} charges {v} a day.",
        "fyi {e} bills {v}/day",
        "{v} per day — that's what {e} charges.",
        "The daily fee for {e} is {v}.",
        "{e} works for {v} a day 💸",
        "Just noting that {e} invoices at a daily rate of {v}.",
        "day rate for {e}: {v}",
        "Per the contract, {e} is paid {v} per day.",
        "{e} costs {v} per day, for reference.",
        "Please record {e}'s daily rate as {v}.",
        "{e} = {v}/day",
    ),
    (
        "{e} raised the day rate to {v}.",
        "{e}'s new day rate is {v}.",
        "Heads up: {e} now charges {v} a day.",
        "{e} renegotiated — daily fee is {v} going forward.",
        "From now on {e} bills {v}/day.",
        "update: {e} day rate changed to {v}",
        "We agreed on a revised rate with {e}: {v} per day.",
        "{v} per day is {e}'s rate starting now.",
        "Please update the records; {e}'s daily rate has been adjusted to {v}.",
        "{e} bumped the rate, its {v}/day now 😬",
        "Adjusted {e}'s fee to {v} a day.",
        "{e} is charging {v} a day instead.",
    ),
)

_EN_DEADLINE = (
    (
        "The deadline for {e} is {v}.",
        "{e} is due {v}.",
        "{e} has to be done by {v}.",
        "fyi {e} deadline = {v}",
        "{v} is the due date for {e}.",
        "We need to wrap up {e} by {v}.",
        "Project {e} must be completed by {v}.",
        "{e} — deadline {v} ⏳",
        "Just so you know, the {e} deliverables are due on {v}.",
        "Hard deadline on {e}: {v}.",
        "Everything for {e} needs to be finished by {v}, thats the deadline.",
        "Noting for the record that {e} is due on {v}.",
    ),
    (
        "The {e} deadline moved to {v}.",
        "{e} deadline got pushed back to {v}.",
        "Heads up: {e} is now due {v}.",
        "They pulled the {e} deadline in to {v}.",
        "New deadline for {e}: {v}.",
        "Please note the deadline for {e} has been changed to {v}.",
        "{v} is the revised due date for {e}.",
        "update — {e} due date shifted to {v}",
        "Client extended the {e} deadline to {v} 🙏",
        "Going forward, treat {v} as the {e} deadline.",
        "{e} has to be done by {v} instead.",
        "ugh the deadline on {e} got moved up to {v}",
    ),
)

_EN_LAUNCH_DATE = (
    (
        "{e} launches on {v}.",
        "The launch date for {e} is {v}.",
        "We're launching {e} on {v}.",
        "{e} goes live {v} 🚀",
        "fyi {e} launch = {v}",
        "{v} is launch day for {e}.",
        "Project {e} is set to launch on {v}.",
        "{e} ships on {v}, that's the launch.",
        "The go-live date for {e} is {v}.",
        "Please note that {e} will be released to the public on {v}.",
        "launch for {e}: {v}",
        "Marketing has {e} launching {v}.",
    ),
    (
        "The {e} launch moved to {v}.",
        "{e} launch got pushed back to {v}.",
        "{e} now launches on {v}.",
        "New launch date for {e}: {v}.",
        "Heads up — {e} go-live has been rescheduled to {v}.",
        "They pulled the {e} launch in to {v}.",
        "update: launching {e} on {v} instead",
        "{v} is the revised launch date for {e} 🚀",
        "Please note that the launch of {e} has been changed to {v}.",
        "We bumped the {e} release to {v}.",
        "Going forward, the {e} launch is {v}.",
        "launch for {e} got reshuffled, its {v} now",
    ),
)

_EN_BUDGET_CAP = (
    (
        "The budget cap for {e} is {v}.",
        "{e} is capped at {v}.",
        "fyi {e} budget max = {v}",
        "{v} is the most we can spend on {e}.",
        "Project {e} has a spending ceiling of {v}.",
        "{e} budget tops out at {v} 💰",
        "Please note the maximum budget for {e} is {v}.",
        "We have up to {v} for {e}, that's the cap.",
        "Budget cap on {e}: {v}.",
        "Finance has {e}'s budget limit set at {v}.",
        "{e} gets a hard cap of {v}.",
        "total budget ceiling for {e} is {v}",
    ),
    (
        "The {e} budget cap was raised to {v}.",
        "{e} budget cap is now {v}.",
        "Finance cut the cap on {e} to {v}.",
        "New budget cap for {e}: {v}.",
        "Heads up: the spending ceiling for {e} has been revised to {v}.",
        "update — {e} cap changed to {v}",
        "Going forward {e} is capped at {v}.",
        "{v} is the new max for {e} 💸",
        "They adjusted the budget limit on {e} to {v}.",
        "From now on the {e} budget tops out at {v}.",
        "Please update your records: {e}'s budget cap has been changed to {v}.",
        "{e} gets {v} as the cap instead",
    ),
)

_KO_MEETING_TIME = (
    (
        "{p:과/와}의 {n:은/는} {v}에 해요.",
        "{p:이랑/랑} 하는 {n:은/는} {v}에 시작해",
        "{n} {p:이랑/랑} {v}에 있어요 ㅎㅎ",
        "{v}에 {p:과/와} {n} 합니다.",
        "{p:과/와} 정기적으로 하는 {n} 시간은 {v:이에요/예요}.",
        "참고로 {p} {n:은/는} {v}에 시작합니다.",
        "{p:과/와}의 {n} 시간: {v}",
        "{n}, {p}, {v} 👍",
        "{p:과/와} {n:은/는} 항상 {v}에 해~",
        "{v} 고정으로 {p:이랑/랑} {n} 있음",
        "{p:과/와} 진행하는 {n:은/는} {v}에 잡혀 있습니다.",
        "{p:이랑/랑} 하는 {n} 시작 시간은 {v}.",
    ),
    (
        "{p:과/와}의 {n} 시간이 {v:으로/로} 바뀌었어요.",
        "{p:이랑/랑} 하는 {n} {v:으로/로} 옮겼어요.",
        "이제부터 {p:과/와} {n:은/는} {v}에 해요.",
        "앞으로는 {p:과/와}의 {n:을/를} {v}에 진행하기로 했습니다.",
        "{p:이/가} {n} 시간 {v:으로/로} 미뤘어",
        "{p:과/와} {n} 시간 변경 → {v}",
        "{p:과/와}의 {n:이/가} {v:으로/로} 당겨졌어요!",
        "{p} 요청으로 {n:을/를} {v:으로/로} 조정했습니다.",
        "ㅇㅇ {p:이랑/랑} {n} 대신 {v}에 하기로 함",
        "{v:으로/로} {p:과/와}의 {n} 시간 새로 잡았어요 🔄",
        "{p:과/와} {n} 시간 바뀜 ㅠ {v:이에요/예요}",
        "공지: {p:과/와}의 {n:은/는} 앞으로 {v}에 시작합니다.",
    ),
)

_KO_MEETING_ROOM = (
    (
        "{p:과/와}의 {n:은/는} {v}에서 해요.",
        "{p:이랑/랑} {n} 장소는 {v:이에요/예요}.",
        "{n:은/는} {p:이랑/랑} {v}에서 함",
        "{v}에서 {p:과/와} {n:을/를} 진행합니다.",
        "{p:이랑/랑} {n} 룸은 {v}!",
        "{p:과/와}의 {n} 장소: {v} 📍",
        "{p:과/와} {n} 할 때는 항상 {v}에 모여요.",
        "{p} {n} → {v}",
        "{p:과/와} 정기 {n:은/는} {v}에서 열립니다.",
        "{v} 잡아놨어, {p:이랑/랑} {n} 하는 방",
        "{p:과/와} 함께하는 {n:은/는} {v}에서 진행되고 있습니다.",
        "{n} 장소 알려드려요~ {p:과/와} {v}에서 해요",
    ),
    (
        "{p:과/와}의 {n} 장소가 {v:으로/로} 바뀌었어요.",
        "{p:이랑/랑} 하는 {n} {v:으로/로} 옮겼어.",
        "이제부터 {p:과/와} {n:은/는} {v}에서 해요.",
        "앞으로 {p:과/와}의 {n:은/는} {v}에서 진행하기로 했습니다.",
        "회의실 변경! {p:과/와} {n} → {v} 🚪",
        "{p:과/와} {n} 대신 {v}에서 하기로 함",
        "{p} 쪽 요청으로 {n} 장소를 {v:으로/로} 변경했습니다.",
        "{n} 방 바뀜ㅋㅋ {p:이랑/랑} 이제 {v}에서 해",
        "{v:으로/로} {p:과/와}의 {n} 회의실이 새로 배정됐어요.",
        "공지드립니다. {p:과/와}의 {n} 장소가 {v:으로/로} 조정되었습니다.",
        "{p:과/와} {n} 룸 체인지 → {v}",
        "{p:과/와} {n}, 앞으로는 {v}에서 모여요.",
    ),
)

_KO_DAY_RATE = (
    (
        "{p} 일당은 {v:이에요/예요}.",
        "{p:은/는} 하루에 {v} 받으십니다.",
        "{p} 하루 단가 {v}",
        "{v:이/가} {p}의 일일 단가입니다.",
        "{p} 데이레이트 {v:이에요/예요} 💸",
        "{p:은/는} 하루 {v}에 일해요.",
        "참고로 {p} 일당 {v}임",
        "{p}의 일일 비용은 {v:으로/로} 책정되어 있습니다.",
        "계약상 {p} 하루 보수는 {v:이에요/예요}.",
        "{p} = 하루 {v}",
        "{p:은/는} 일당 {v} 받고 일하셔",
        "{p} 단가는 하루 기준 {v}입니다.",
    ),
    (
        "{p} 일당이 {v:으로/로} 올랐어요.",
        "{p} 하루 단가 {v:으로/로} 바뀌었어요.",
        "이제부터 {p} 일당은 {v:이에요/예요}.",
        "앞으로 {p}께는 하루 {v}씩 드리기로 했습니다.",
        "{p} 데이레이트 {v:으로/로} 조정됨",
        "{p}의 일일 단가가 {v:으로/로} 변경되었습니다.",
        "{p} 단가 새로 협의했어요. 하루 {v}!",
        "{p} 일당 {v:으로/로} 올려드렸어",
        "{p:이/가} 단가를 하루 {v:으로/로} 내리셨어요.",
        "{v:으로/로} {p} 일당 재조정했습니다 👍",
        "{p} 하루 비용, 앞으로는 {v:으로/로} 계산해요.",
        "{p} 일당 다시 정했어, {v}",
    ),
)

_KO_DEADLINE = (
    (
        "{e} 마감은 {v:이에요/예요}.",
        "{e} 프로젝트 데드라인 {v}",
        "{v}까지 {e:을/를} 끝내야 해요.",
        "{e:은/는} {v}까지 마무리해야 합니다.",
        "참고로 {e} 마감일이 {v:이에요/예요} ⏳",
        "{e} 기한: {v}",
        "{e} 납기일은 {v}입니다.",
        "{v:이/가} {e} 마감이야",
        "{e} 프로젝트는 {v}까지 반드시 완료되어야 합니다.",
        "{e} 데드라인 {v}임 ㅋㅋ",
        "{e} 산출물 제출 기한은 {v}까지예요.",
        "ㅇㅇ {e} 마감 {v:이에요/예요}",
    ),
    (
        "{e} 마감이 {v:으로/로} 바뀌었어요.",
        "{e} 데드라인 {v:으로/로} 미뤄졌어요.",
        "{e} 마감일 {v:으로/로} 당겨졌어 ㅠㅠ",
        "이제부터 {e} 마감은 {v:이에요/예요}.",
        "{e} 기한이 {v:으로/로} 변경되었습니다.",
        "{e} 마감 {v:으로/로} 조정됨",
        "앞으로 {e:은/는} {v}까지 끝내기로 했어요.",
        "{e} 데드라인 연장! {v}까지 🙏",
        "고객사 요청으로 {e} 납기를 {v:으로/로} 옮겼습니다.",
        "{v:으로/로} {e} 마감일 새로 잡혔어요.",
        "{e:은/는} 대신 {v}까지 마감하기로 함",
        "공지: {e} 프로젝트 마감일이 {v:으로/로} 재조정되었습니다.",
    ),
)

_KO_LAUNCH_DATE = (
    (
        "{e} 출시일은 {v:이에요/예요}.",
        "{e:은/는} {v}에 런칭해요 🚀",
        "{v}에 {e} 오픈합니다.",
        "{e} 런칭 {v}",
        "{e} 프로젝트는 {v}에 정식 출시됩니다.",
        "참고로 {e} 출시 {v}임",
        "{v:이/가} {e} 런칭 데이야",
        "{e} 서비스 오픈일: {v}",
        "{e:은/는} {v}에 라이브 나가요",
        "{e} 론칭 일정은 {v:으로/로} 잡혀 있습니다.",
        "{e} 릴리즈 날짜 {v:이에요/예요}~",
        "{e:을/를} {v}에 출시할 예정입니다.",
    ),
    (
        "{e} 출시일이 {v:으로/로} 바뀌었어요.",
        "{e} 런칭 {v:으로/로} 미뤄졌어요 ㅠ",
        "{e} 오픈 {v:으로/로} 당겨졌어!",
        "이제부터 {e} 출시일은 {v:이에요/예요}.",
        "{e} 출시 일정이 {v:으로/로} 변경되었습니다.",
        "{e} 런칭 날짜 {v:으로/로} 조정됨",
        "{e:은/는} 대신 {v}에 출시하기로 했어요.",
        "{e} 릴리즈 {v:으로/로} 옮겼습니다 🚀",
        "앞으로 {e} 런칭은 {v} 기준으로 갑니다.",
        "{v:으로/로} {e} 오픈일 새로 잡았어",
        "공지: {e} 정식 출시일이 {v:으로/로} 재조정되었습니다.",
        "{e} 출시 연기 ㅠㅠ {v}에 나가요",
    ),
)

_KO_BUDGET_CAP = (
    (
        "{e} 예산 상한은 {v:이에요/예요}.",
        "{e} 프로젝트 예산은 최대 {v}까지야.",
        "{e} 버짓 캡 {v}",
        "{v:이/가} {e}에 쓸 수 있는 최대 예산입니다.",
        "{e} 예산 한도: {v} 💰",
        "참고로 {e:은/는} 예산 {v} 한도 내에서 진행해요.",
        "{e} 총예산 상한선은 {v:으로/로} 잡혀 있습니다.",
        "{e} 최대 예산 {v}임",
        "재무팀 기준 {e} 예산 한도는 {v:이에요/예요}.",
        "{e} 프로젝트 예산 캡은 {v}입니다.",
        "{e}에 쓸 수 있는 돈은 {v}까지예요.",
        "{e} 예산 최대치 = {v}",
    ),
    (
        "{e} 예산 상한이 {v:으로/로} 바뀌었어요.",
        "{e} 예산 한도 {v:으로/로} 올라갔어요!",
        "{e} 버짓 캡 {v:으로/로} 깎였어 ㅠ",
        "이제부터 {e} 예산 상한은 {v:이에요/예요}.",
        "{e} 예산 한도가 {v:으로/로} 변경되었습니다.",
        "{e} 최대 예산 {v:으로/로} 조정됨",
        "앞으로 {e:은/는} {v} 한도 안에서 쓰기로 했어요.",
        "재무팀이 {e} 예산 상한을 {v:으로/로} 새로 정했습니다.",
        "{v:으로/로} {e} 예산 캡 재설정했어요 💸",
        "{e:은/는} 예산 상한을 대신 {v:으로/로} 잡기로 함",
        "공지: {e} 프로젝트 예산 상한선이 {v:으로/로} 재조정되었습니다.",
        "{e} 예산 캡 업데이트 → {v}",
    ),
)

PARAPHRASES: dict[str, dict[str, tuple[tuple[str, ...], tuple[str, ...]]]] = {
    "en": {
        "meeting time": _EN_MEETING_TIME,
        "meeting room": _EN_MEETING_ROOM,
        "day rate": _EN_DAY_RATE,
        "deadline": _EN_DEADLINE,
        "launch date": _EN_LAUNCH_DATE,
        "budget cap": _EN_BUDGET_CAP,
    },
    "ko": {
        "meeting time": _KO_MEETING_TIME,
        "meeting room": _KO_MEETING_ROOM,
        "day rate": _KO_DAY_RATE,
        "deadline": _KO_DEADLINE,
        "launch date": _KO_LAUNCH_DATE,
        "budget cap": _KO_BUDGET_CAP,
    },
}
