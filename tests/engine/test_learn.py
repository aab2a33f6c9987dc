"""The lessons as data: every rule of every game taught once, in order; each lesson's accepted
moves are exactly the legal moves that do what its task says (judged here by the rules core,
not by the file); the file format's errors name their file and line; the player's progress."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from game_samples import SAMPLES

from dipole_tui.cli import main
from dipole_tui.games import bipod, death_stacks, dipole
from dipole_tui.games.base import IllegalMoveError, Termination
from dipole_tui.learn import Item, LearnError, Progress, item_named, items, parse
from dipole_tui.registry import REGISTRY

# Each game's lessons in teaching order (one per rule of issue 14's list), each with what its
# task asks, and the lessons about the end of the game with the winner of their accepted move:
# its samples in tests/support/game_samples.py.
LESSONS = {key: list(SAMPLES[key].lessons) for key in SAMPLES}
FULFILS = {id: judge for key in SAMPLES for id, judge in SAMPLES[key].lessons.items()}
ENDS = {id: winner for key in SAMPLES for id, winner in SAMPLES[key].lesson_ends.items()}
ALL = items(kind="lesson")


def _game(item: Item) -> Any:
    return REGISTRY[item.game].game


def _legal(item: Item) -> list[str]:
    state = item.start()
    return [_game(item).format_move(move) for move in state.legal_moves()]


def test_each_game_has_its_lessons_in_teaching_order() -> None:
    for game in REGISTRY:
        found = [item.id for item in items(game, "lesson")]
        assert found == LESSONS[game]
        assert len(found) >= SAMPLES[game].least_lessons
    assert {item.game for item in ALL} == set(REGISTRY)


@pytest.mark.parametrize("item", ALL, ids=lambda item: item.id)
def test_a_lesson_is_complete_and_brief(item: Item) -> None:
    """Shown beside the board in a panel some 28 columns wide: a newcomer reads it at a glance."""
    assert item.text and item.hint and item.summary and item.task
    assert len(item.text.split()) <= 55, item.text
    assert item.task.endswith((".", "!")) and ". " not in item.task  # one sentence
    assert "\n" not in item.summary and len(item.summary) <= 80
    assert len(item.title) <= 40


def test_a_dipole_lesson_that_forbids_moving_back_says_captures_may() -> None:
    """Steere's sheet: basic, merging and removing moves go forward or diagonally forward only,
    but "capturing moves can be made in any of eight directions"."""
    said = [item for item in items("dipole", "lesson") if "back or sideways" in item.text]
    assert said
    for item in said:
        assert "except a capture" in item.text and "eight directions" in item.text, item.id
    diagonal = next(item for item in said if item.id == "dipole-diagonal")
    assert "captures: any way" in diagonal.summary


@pytest.mark.parametrize("item", ALL, ids=lambda item: item.id)
def test_accept_is_legal_and_a_wrong_try_exists(item: Item) -> None:
    legal = _legal(item)
    assert set(item.accept) <= set(legal)
    assert len(set(item.accept)) == len(item.accept)
    if len(legal) > 1:
        assert set(item.accept) != set(legal), "every move fulfils the task: nothing to learn"
    assert item.solution[0] in item.accept


@pytest.mark.parametrize("item", ALL, ids=lambda item: item.id)
def test_accept_is_exactly_the_moves_that_do_the_task(item: Item) -> None:
    game = _game(item)
    before = item.start()
    work = before.copy()
    doing = []
    for move in before.legal_moves():
        work.play(move)
        if FULFILS[item.id](before, move, work):
            doing.append(game.format_move(move))
        work.undo()
    assert sorted(item.accept) == sorted(doing)


@pytest.mark.parametrize("item", ALL, ids=lambda item: item.id)
def test_the_end_lessons_end_the_game_and_the_others_do_not(item: Item) -> None:
    game = _game(item)
    for text in item.accept:
        state = item.start()
        state.play(game.parse_move(text, state))
        if item.id in ENDS:
            outcome = state.outcome()
            assert outcome is not None and outcome.winner == ENDS[item.id]
    state = item.start()
    assert state.outcome() is None
    for text in item.solution:
        state.play(game.parse_move(text, state))
    assert (state.outcome() is not None) == (item.id in ENDS)


def test_taking_your_own_last_checkers_off_loses() -> None:
    """The trap beside dipole-winning's answer: the wrong try the hint warns of."""
    state = item_named("dipole-winning").start()
    assert isinstance(state, dipole.DipoleState)
    state.play(dipole.DIPOLE.parse_move("g7-off:2", state))
    outcome = state.outcome()
    assert outcome is not None and outcome.winner == 1


def test_the_passing_lesson_has_nothing_but_a_pass() -> None:
    state = item_named("dipole-passing").start()
    assert [dipole.DIPOLE.is_pass(move) for move in state.legal_moves()] == [True]


def test_the_ten_lesson_is_on_the_big_board() -> None:
    state = item_named("dipole-ten").start()
    assert isinstance(state, dipole.DipoleState) and state.size == 10


def test_the_too_tall_lesson_is_too_tall_and_other_stacks_are_refused() -> None:
    state = item_named("death-stacks-too-tall").start()
    assert isinstance(state, death_stacks.DeathStacksState)
    assert state.too_tall() == [death_stacks.parse_square("c3")]
    with pytest.raises(IllegalMoveError, match="too tall"):
        death_stacks.DEATH_STACKS.parse_move("f1-1-e1", state)


def test_the_repetition_lesson_repeats_for_the_third_time() -> None:
    item = item_named("death-stacks-repetition")
    assert len(item.before) >= 8
    state = item.start()
    assert isinstance(state, death_stacks.DeathStacksState)
    state.play(death_stacks.DEATH_STACKS.parse_move(item.solution[0], state))
    outcome = state.outcome()
    assert outcome is not None and outcome.winner is None
    assert outcome.termination is Termination.REPETITION


def test_the_bipod_roles() -> None:
    adopting = item_named("bipod-adopting").start()
    assert isinstance(adopting, bipod.BipodState)
    assert adopting.runner is None
    adopting.play(bipod.ADOPT)
    assert adopting.blocker == 1 and adopting.to_move == adopting.runner == 0
    for id in ("bipod-runner", "bipod-short-sides", "bipod-blocker-wins"):
        state = item_named(id).start()
        assert isinstance(state, bipod.BipodState) and state.runner == 0


def test_the_multi_lesson_is_multi_and_four_stones_are_refused() -> None:
    state = item_named("bipod-multi").start()
    assert isinstance(state, bipod.BipodState) and state.multi
    with pytest.raises(IllegalMoveError, match="one to three"):
        bipod.BIPOD.parse_move("gik3c1", state)


# -- the format ------------------------------------------------------------------------------

LESSON = """\
id: a-lesson
game: dipole
kind: lesson
title: A lesson
position: 8:W:We1=3:Bd8=1
task: Move all three.
accept: e1-b4 e1-h4
solution: e1-b4
summary: Done.
"""
PUZZLE = """\
id: a-puzzle
game: dipole
kind: puzzle
title: Win in 1
position: 8:W:Wc3=2:Be5=1
solution: c3xe5
difficulty: 1
"""


def _with(text: str, old: str, new: str) -> str:
    assert old in text
    return text.replace(old, new)


BAD = [
    ("missing field", _with(LESSON, "task: Move all three.\n", ""), 1, "lacks task"),
    ("unknown field", LESSON + "colour: red\n", 10, "expected a field"),
    ("field twice", LESSON + "title: Again\n", 10, "a second 'title'.*line 4"),
    ("bad id", _with(LESSON, "a-lesson", "A_Lesson"), 1, "the id 'A_Lesson'"),
    ("unknown game", _with(LESSON, "game: dipole", "game: chess"), 2, "no game called 'chess'"),
    ("unknown kind", _with(LESSON, "kind: lesson", "kind: quiz"), 3, "kind is 'quiz'"),
    ("bad position", _with(LESSON, "We1=3", "We2=3"), 5, "the position"),
    ("illegal accept", _with(LESSON, "e1-h4", "e1-e4"), 7, "accept: e1-e4"),
    ("illegal solution", _with(LESSON, "solution: e1-b4", "solution: e1-b4 e1-h4"), 8, "e1-h4"),
    ("illegal before", LESSON + "before: e1-e4\n", 10, "before: e1-e4"),
    ("solution not accepted", _with(LESSON, "accept: e1-b4 ", "accept: "), 8, "not accepted"),
    ("duplicate id", LESSON + "---\n" + LESSON, 11, r"a-lesson is taken \(f.txt:1\)"),
    ("difficulty too high", _with(PUZZLE, "difficulty: 1", "difficulty: 6"), 7, "1 to 5"),
    ("difficulty zero", _with(PUZZLE, "difficulty: 1", "difficulty: 0"), 7, "1 to 5"),
    ("difficulty a word", _with(PUZZLE, "difficulty: 1", "difficulty: easy"), 7, "1 to 5"),
    ("a lesson's difficulty", LESSON + "difficulty: 2\n", 10, "a lesson has no difficulty"),
    ("a puzzle's accept", PUZZLE + "accept: c3xe5\n", 8, "a puzzle has no accept"),
    ("continuation first", "  stray\n" + LESSON, 1, "expected a field"),
]


@pytest.mark.parametrize(("text", "line", "says"), [b[1:] for b in BAD], ids=[b[0] for b in BAD])
def test_a_bad_entry_is_one_line_naming_its_file_and_line(text: str, line: int, says: str) -> None:
    with pytest.raises(LearnError, match=f"^f.txt:{line}: .*{says}") as caught:
        parse(text, "f.txt")
    assert "\n" not in str(caught.value)


def test_good_entries_with_comments_and_continued_lines() -> None:
    text = (
        "# a comment before\n"
        + _with(
            LESSON,
            "task:",
            "text: A first line\n  goes on.\n\n  A new paragraph.\n# a comment inside\ntask:",
        )
        + "---\n"
        + _with(PUZZLE, "solution: c3xe5", "solution:\n  C3-E5")
    )
    lesson, puzzle = parse(text, "f.txt")
    assert lesson.text == "A first line goes on.\nA new paragraph."
    assert lesson.task == "Move all three."
    assert lesson.accept == ("e1-b4", "e1-h4")
    assert lesson.where == "f.txt:2"
    assert puzzle.solution == ("c3xe5",)  # as the game writes it, not as typed
    assert puzzle.difficulty == 1 and puzzle.plies == 1
    assert puzzle.where == "f.txt:17"


def test_moves_are_kept_as_the_game_writes_them() -> None:
    """The app looks up the player's move, formatted by the game, in `accept`."""
    (lesson,) = parse(_with(LESSON, "accept: e1-b4 e1-h4", "accept: E1-B4 e1-h4"), "f.txt")
    assert lesson.accept == ("e1-b4", "e1-h4")
    (bipod_lesson,) = parse(
        _with(
            _with(LESSON, "game: dipole", "game: bipod"),
            "position: 8:W:We1=3:Bd8=1",
            f"position: {bipod.BIPOD.new().position()}",
        )
        .replace("accept: e1-b4 e1-h4", "accept: j2 adopt")
        .replace("solution: e1-b4", "solution: ADOPT j2o"),
        "f.txt",
    )
    assert bipod_lesson.accept == ("j2", "adopt")
    assert bipod_lesson.solution == ("adopt", "j2 o")


def test_before_is_played_to_give_the_start() -> None:
    (lesson,) = parse(
        _with(LESSON, "accept: e1-b4 e1-h4\nsolution: e1-b4", "accept: e1-c3\nsolution: e1-c3")
        + "before: e1-f2 d8-c7\n",
        "f.txt",
    )
    assert lesson.before == ("e1-f2", "d8-c7")
    assert lesson.start().position() == "8:W:We1=2,f2=1:Bc7=1"


# -- progress --------------------------------------------------------------------------------


def _puzzle(id: str) -> Item:
    return Item(id=id, game="dipole", kind="puzzle", title=id, position="8:W:We1=12:Bd8=12")


def test_progress_round_trip(tmp_path: Path) -> None:
    progress = Progress(tmp_path)
    assert (progress.done, progress.streak, progress.best_streak, progress.problem) == (
        set(),
        0,
        0,
        "",
    )
    progress.finished(item_named("dipole-moving"))
    for id, first_try in (("p1", True), ("p2", True), ("p3", False), ("p4", True)):
        progress.finished(_puzzle(id), first_try)
    again = Progress(tmp_path)
    assert again.done == {"dipole-moving", "p1", "p2", "p3", "p4"}
    assert (again.streak, again.best_streak, again.problem) == (1, 2, "")


@pytest.mark.parametrize(
    "content",
    [
        "{not json",
        "[]",
        '{"done": "abc"}',  # a string is iterable: it must not become {"a", "b", "c"}
        '{"done": [1]}',
        '{"done": [], "streak": -1}',
        '{"done": [], "best_streak": "2"}',
        "[" * 100_000,
        "\xff",
    ],
)
def test_a_bad_progress_file_is_set_aside_with_one_line(tmp_path: Path, content: str) -> None:
    path = tmp_path / Progress.FILE
    path.write_text(content, encoding="utf-8" if content != "\xff" else "latin-1")
    progress = Progress(tmp_path)
    assert progress.done == set() and progress.streak == 0
    [kept] = tmp_path.glob(f"{Progress.FILE}.damaged-*")
    assert progress.problem.startswith(f"{path} ")
    assert str(kept) in progress.problem and "\n" not in progress.problem
    assert kept.read_bytes() == content.encode("utf-8" if content != "\xff" else "latin-1")
    assert not path.exists()
    progress.finished(item_named("dipole-moving"))
    assert json.loads(path.read_text(encoding="utf-8"))["done"] == ["dipole-moving"]


def test_a_second_bad_progress_file_keeps_the_first(tmp_path: Path) -> None:
    path = tmp_path / Progress.FILE
    path.write_text("first", encoding="utf-8")
    Progress(tmp_path)
    path.write_text("second", encoding="utf-8")
    problem = Progress(tmp_path).problem
    first, second = sorted(
        tmp_path.glob(f"{Progress.FILE}.damaged-*"), key=lambda p: (len(p.name), p.name)
    )
    assert first.read_text(encoding="utf-8") == "first"
    assert second.read_text(encoding="utf-8") == "second" and str(second) in problem


def test_progress_is_written_whole_or_not_at_all(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    progress = Progress(tmp_path)
    progress.finished(item_named("dipole-moving"))
    path = tmp_path / Progress.FILE
    before = path.read_text(encoding="utf-8")

    def failing(source: object, target: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", failing)  # write_atomically's rename
    with pytest.raises(OSError):
        progress.finished(item_named("dipole-diagonal"))
    assert path.read_text(encoding="utf-8") == before
    assert [entry.name for entry in tmp_path.iterdir()] == [Progress.FILE]


# -- the command line ------------------------------------------------------------------------


def test_learn_list_prints_every_item_tab_separated(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["learn", "--list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    expected = items()
    assert len(lines) == len(expected)
    for line, item in zip(lines, expected, strict=True):
        assert line.split("\t") == [
            item.id,
            item.game,
            item.kind,
            item.start().position(),
            " ".join(item.solution),
            item.title,
        ]
    assert [line.split("\t")[0] for line in lines[: len(LESSONS["dipole"])]] == LESSONS["dipole"]


def test_learn_list_gives_the_position_each_solution_plays_from(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A lesson with `before` moves (the repetition lesson) is listed after them: its solution
    is legal from the position listed, to the end."""
    assert main(["learn", "--list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert any(item.before for item in items())  # the case this test is about is there
    for line in lines:
        _, key, _, position, solution, _ = line.split("\t")
        game = REGISTRY[key].game
        state = game.parse_position(position)
        for text in game.split_moves(solution):
            state.play(game.parse_move(text, state))


def test_learn_list_of_one_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["learn", "--list", "--game", "bipod"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split("\t")[0] for line in lines if "\tlesson\t" in line] == LESSONS["bipod"]
    assert {line.split("\t")[1] for line in lines} == {"bipod"}
