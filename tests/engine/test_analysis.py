"""Games judged move by move (`dipole_tui.analysis`) and `dipole-tui analyse`."""

from __future__ import annotations

import math
import re
import threading
from pathlib import Path
from typing import Any

import pytest
from planted import game_with_planted_blunder

from dipole_tui.analysis import (
    Analysis,
    Evaluator,
    Judgement,
    accuracy,
    analyse,
    annotated_record,
    judge,
    move_accuracy,
    summary,
    to_learn,
    words,
)
from dipole_tui.bots.score import PovScore, Score, ScoreUnit
from dipole_tui.cli import main
from dipole_tui.games.base import GameError
from dipole_tui.games.dipole import DIPOLE
from dipole_tui.records import format_record, parse_record
from dipole_tui.registry import REGISTRY

UNIT = ScoreUnit("checkers", 10)


# Black to move wins in 6 plies with e7-e5; e7-d6 lets White take it, f6xd6, and win in 3.
def evaluated(side: int, score: Score, line: tuple[str, ...], depth: int) -> Analysis:
    """A position's evaluation: `score` for `side`, to move."""
    return Analysis(depth, PovScore(score, side), line)


def evaluation(side: int, score: float, best: str | None = "e1-d2") -> Analysis:
    line = () if best is None else (best,)
    return evaluated(side, Score(round(score * UNIT.size)), line, 5)


def marked(best: float, left: float) -> str:
    """The mark of a move of White that leaves `left` (units) where `best` was best."""
    return judge(UNIT, "e1-f2", evaluation(0, best), evaluation(1, -left)).mark


@pytest.mark.parametrize(
    ("best", "left", "mark"),
    [
        (0.0, 0.0, ""),
        (0.0, -0.4, ""),
        (0.0, -0.6, "?!"),
        (0.0, -1.1, "?"),
        (0.0, -1.6, "??"),
        (4.6, 4.1, ""),  # the game stays as good as won
        (6.0, 3.0, "?"),
        (9.0, 8.0, ""),
        (-8.0, -12.0, ""),  # lost either way
    ],
)
def test_the_mark_follows_the_winning_chances_lost(best: float, left: float, mark: str) -> None:
    assert marked(best, left) == mark


def test_the_best_move_is_never_marked() -> None:
    best = "e1-d2"
    judged = judge(
        UNIT, best, evaluation(0, 3.0), evaluation(1, 3.0)
    )  # the search changed its mind
    assert (judged.mark, judged.loss) == ("", 0.0)


def test_a_proved_win_kept_costs_nothing_and_a_win_thrown_away_is_a_blunder() -> None:
    played = "e1-f2"
    line = evaluation(0, 0).line
    in_5 = evaluated(0, Score.win(5), line, 0)
    assert judge(UNIT, played, in_5, evaluated(1, Score.loss(9), line, 0)).mark == ""  # slower
    loses_in_4 = evaluated(1, Score.win(4), (), 0)  # the opponent now wins in 4
    assert judge(UNIT, played, in_5, loses_in_4).mark == "??"
    assert judge(UNIT, played, in_5, evaluation(1, -3.0)).mark == "??"  # to merely +3


@pytest.mark.parametrize(
    ("loss", "expected"),
    [
        # 103.1668 * exp(-0.04354 * 50 * loss) - 3.1669, by hand
        (0.0, 99.9999),  # the best move: 103.1668 - 3.1669
        (0.1, 79.817),  # 5 Win% lost, the inaccuracy's threshold: 103.1668 * 0.80437 - 3.1669
        (0.2, 63.583),  # 10 Win%, a mistake: 103.1668 * 0.64700 - 3.1669
        (0.3, 50.524),  # 15 Win%, a blunder: 103.1668 * 0.52042 - 3.1669
        (1.0, 8.530),  # 50 Win%, won to drawn: 103.1668 * 0.11337 - 3.1669
        (2.0, 0.0),  # a won game lost: 103.1668 * 0.01286 - 3.1669 < 0, clamped
        (-0.5, 99.9999),  # nothing lost (the search found more after the move)
    ],
)
def test_a_moves_accuracy_is_lichesss(loss: float, expected: float) -> None:
    assert move_accuracy(loss) == pytest.approx(expected, abs=0.001)


def judged_move(side: int, before: Analysis, after: Analysis) -> Judgement:
    """A move of `side` (never the best's notation) judged between two evaluations."""
    assert before.side == side
    return judge(UNIT, "a1-b2", before, after)


def test_a_sides_accuracy_is_the_mean_of_its_moves() -> None:
    best = judged_move(0, evaluation(0, 0.0), evaluation(1, 0.0))  # nothing lost
    mistake = judged_move(0, evaluation(0, 0.0), evaluation(1, 1.0))  # an even game to -1.0
    reply = judged_move(1, evaluation(1, -1.0), evaluation(0, 1.0))
    assert mistake.loss == pytest.approx(math.tanh(0.2))  # chances 0 to -tanh(1 / 5)
    game = [best, reply, mistake]
    expected = (99.9999 + move_accuracy(math.tanh(0.2))) / 2
    assert accuracy(game, 0) == pytest.approx(expected)
    assert accuracy(game, 1) == pytest.approx(99.9999)
    assert accuracy([best], 1) is None  # a game of one ply: the second side played nothing
    assert accuracy([], 0) is None
    assert summary(DIPOLE, [best]) == [
        "White: accuracy 100%, 0 inaccuracies, 0 mistakes, 0 blunders",
        "Black: no moves",
    ]


def test_proved_wins_count_as_certain() -> None:
    line = ("e1-d2",)
    in_5 = evaluated(0, Score.win(5), line, 0)
    slower = judged_move(0, in_5, evaluated(1, Score.loss(9), line, 0))  # still a win, slower
    thrown = judged_move(0, in_5, evaluated(1, Score.win(4), line, 0))  # now lost: all 100 Win%
    drawn = judged_move(0, in_5, evaluated(1, Score(), line, 0))  # half of it
    assert accuracy([slower], 0) == pytest.approx(99.9999)
    assert accuracy([thrown], 0) == 0.0
    assert accuracy([drawn], 0) == pytest.approx(8.530, abs=0.001)
    assert summary(DIPOLE, [slower, judged_move(1, evaluation(1, 0), evaluation(0, 0))]) == [
        "White: accuracy 100%, 0 inaccuracies, 0 mistakes, 0 blunders",
        "Black: accuracy 100%, 0 inaccuracies, 0 mistakes, 0 blunders",
    ]
    assert summary(DIPOLE, [thrown, drawn])[0] == (
        "White: accuracy 4%, 0 inaccuracies, 0 mistakes, 2 blunders"  # (0 + 8.530) / 2
    )


def test_the_moves_to_learn_from_are_the_mistakes_or_the_inaccuracies_too_when_few() -> None:
    even = evaluation(0, 0.0)

    def move(side: int, left: float) -> Judgement:
        return judged_move(
            side, evaluated(side, Score(), ("e1-d2",), 5), evaluation(1 - side, -left)
        )

    inaccuracy, mistake, blunder, good = move(0, -0.6), move(0, -1.1), move(0, -1.6), move(0, 0)
    assert [j.word for j in (inaccuracy, mistake, blunder, good)] == [
        "inaccuracy",
        "mistake",
        "blunder",
        "",
    ]
    few = [inaccuracy, move(1, -1.6), mistake, good]
    assert to_learn(few, [0]) == [0, 2]  # one mistake: the inaccuracy too
    assert to_learn(few, [1]) == [1]
    assert to_learn(few, [0, 1]) == [0, 1, 2]  # two serious ones are still few: all marked
    many = [inaccuracy, mistake, blunder, good, mistake]
    assert to_learn(many, [0]) == [1, 2, 4]  # three: the inaccuracy is left out
    assert to_learn(many, [1]) == []
    ended = Judgement("e1-d2", evaluated(0, Score(), (), 0), even, 0.5, "??")  # no best known
    assert to_learn([ended], [0]) == []


def test_words_are_from_the_first_sides_view() -> None:
    game = DIPOLE
    assert words(game, UNIT, evaluation(0, 1.2)) == "+1.2"
    assert words(game, UNIT, evaluation(1, 1.2)) == "-1.2"
    assert words(game, UNIT, evaluation(1, 0.0)) == "0.0"
    assert words(game, UNIT, evaluated(1, Score.win(7), evaluation(1, 0).line, 0)) == (
        "Black wins in 7 plies"
    )
    assert words(game, UNIT, evaluated(0, Score.loss(1), evaluation(0, 0).line, 0)) == (
        "Black wins in 1 ply"
    )
    assert words(game, UNIT, evaluated(1, Score.loss(0), (), 0)) == "White has won"
    assert words(game, UNIT, evaluated(1, Score.win(7), ("d8-c7",), 0), short=True) == "#-7"
    assert words(game, UNIT, evaluated(0, Score.win(3), ("e1-d2",), 0), short=True) == "#3"
    assert words(game, UNIT, evaluated(1, Score.loss(0), (), 0), short=True) == "1-0"
    assert words(game, UNIT, evaluation(1, 1.2), short=True) == "-1.2"


def test_a_position_with_one_move_is_worth_what_that_move_leaves() -> None:
    # White's only checker cannot move forward (it stands on the far row): White must pass
    # or move off; whichever, Black's single checker then decides.
    state = DIPOLE.parse_position("8:W:Wb8=1:Bg1=1")
    moves = state.legal_moves()
    evaluator: Evaluator[Any] = Evaluator("dipole", 0.05)
    said = evaluator.evaluate(state)
    assert said.best in [DIPOLE.format_move(move) for move in moves] and said.side == 0
    if len(moves) == 1:
        after = state.copy()
        after.play(moves[0])
        then = evaluator.evaluate(after)
        assert said.score.pov(0) == then.score.pov(0) or said.proved


def test_the_planted_blunder_is_marked_with_the_best_move() -> None:
    state = game_with_planted_blunder()
    judged = analyse("dipole", state, 0.05)
    assert len(judged) == len(state.moves_played)
    first = judged[0]
    assert first.mark == "??" and first.word == "blunder"
    assert first.before.best == "e7-e5"
    assert first.before.proved and first.after.proved
    text = annotated_record("dipole", state, judged, movetime=0.05)
    assert re.search(r"1\.\.\. e7-d6\?\? \{White wins in \d+ plies?; blunder, best e7-e5 \(", text)
    assert "Black wins in 6 plies" in text
    assert [j.mark for j in judged[1:]] == [""] * (len(judged) - 1)  # best play after it


def test_the_annotated_record_replays_to_the_same_end(tmp_path: Path) -> None:
    state = game_with_planted_blunder()
    path = tmp_path / "game.txt"
    path.write_text(format_record(DIPOLE, state, {"White": "Ann", "Black": "Bo"}))
    out = tmp_path / "annotated.txt"
    assert main(["analyse", "--movetime", "0.05", str(path), "-o", str(out)]) == 0
    text = out.read_text()
    assert '[White "Ann"]' in text and '[Annotator "dipole-tui hard, 0.05 s a position"]' in text
    assert text.count("{") == len(state.moves_played)
    again = parse_record(text)
    assert again.state.position() == state.position()
    assert again.state.moves_played == state.moves_played


def test_analyse_writes_to_stdout_and_progress_to_stderr(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    state = DIPOLE.new("8x8")
    for text in ("e1-d2", "d8-c7", "d2-e3"):
        state.play(DIPOLE.parse_move(text, state))
    path = tmp_path / "game.txt"
    path.write_text(format_record(DIPOLE, state))
    assert main(["analyse", "--movetime", "0.05", str(path)]) == 0
    out, err = capsys.readouterr()
    assert parse_record(out).state.position() == state.position()
    assert re.search(r"1\. e1-d2\S* \{[^}]*\} d8-c7\S* \{[^}]*\}", out)
    said = err.strip().splitlines()[-2:]  # after the progress bar (none: not a terminal)
    assert re.fullmatch(
        r"White: accuracy \d+%, \d inaccurac(y|ies), \d mistakes?, \d blunders?", said[0]
    )
    assert said[1].startswith("Black: accuracy ")


@pytest.mark.parametrize("key", list(REGISTRY))
def test_every_game_can_be_analysed(key: str) -> None:
    game = REGISTRY[key].game
    state = game.new()
    for _ in range(3):
        state.play(state.legal_moves()[0])
    judged = analyse(key, state, 0.02)
    text = annotated_record(key, state, judged)
    again = parse_record(text)
    assert again.state.position() == state.position()
    assert text.count("{") == 3


def test_a_stop_ends_the_analysis_with_a_one_line_reason() -> None:
    stop = threading.Event()
    calls: list[int] = []

    def progress(done: int, total: int) -> None:
        calls.append(done)
        stop.set()

    state = game_with_planted_blunder()
    with pytest.raises(GameError, match=r"stopped after 1 of \d+ positions"):
        analyse("dipole", state, 0.05, stop=stop, progress=progress)
    assert calls == [1]


def test_marks_and_comments_are_read_past_in_every_game() -> None:
    assert (
        parse_record(
            '[Game "Dipole"]\n\n1. e1-d2?! {+0.4; inaccuracy, best e1-f2 (0.0)} d8-c7!? {0.0}\n'
        ).state.plies
        == 2
    )
    bipod = REGISTRY["bipod"].game
    state = bipod.new()
    move = state.legal_moves()[0]
    text = bipod.format_move(move)
    record = f'[Game "Bi-Pod"]\n\n1. {text}?? {{-3.0}}\n'
    assert parse_record(record).state.moves_played == [move]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["missing.txt"], "missing.txt"),
        (["--movetime", "0", "x.txt"], "seconds greater than 0"),
    ],
)
def test_bad_input_is_refused_in_one_line(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    assert main(["analyse", *args]) == 2
    _, err = capsys.readouterr()
    assert len(err.strip().splitlines()) == 1 and message in err and "Traceback" not in err


def test_an_output_that_cannot_be_written_is_said_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    state = DIPOLE.new("8x8")
    state.play(state.legal_moves()[0])
    path = tmp_path / "game.txt"
    path.write_text(format_record(DIPOLE, state))
    blocked = tmp_path / "file"
    blocked.write_text("")
    assert main(["analyse", "--movetime", "0.02", str(path), "-o", str(blocked / "out")]) == 2
    _, err = capsys.readouterr()
    assert err.startswith("dipole-tui: cannot write") and len(err.strip().splitlines()) == 1


def test_analysing_a_record_into_itself_keeps_its_own_tags_and_comments(tmp_path: Path) -> None:
    path = tmp_path / "game.txt"
    path.write_text(
        '; from the club night\n[Game "Death Stacks"]\n[Event "Club night"]\n\n'
        "{Ann's favourite opening} 1. a1-1-b1 {quiet} a6-1-a5 ; a {brace} in a line comment\n"
        "2. a1-1-b1 {+9.9} {was this good?}\n"
    )
    for _ in range(2):
        assert main(["analyse", "--movetime", "0.02", str(path), "-o", str(path)]) == 0
        record = parse_record(path.read_text())
        assert record.tags["Event"] == "Club night" and "Annotator" in record.tags
        assert [len(said) for said in record.comments] == [2, 2, 2, 2]
        assert record.comments[0] == [" from the club night", "Ann's favourite opening"]
        assert record.comments[1][1] == "quiet"
        assert record.comments[2][1] == " a {brace} in a line comment"
        assert record.comments[3][1] == "was this good?"  # {+9.9}, of an analysis, replaced
        assert record.state.plies == 3
