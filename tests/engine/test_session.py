"""The session the app drives: play, forced passes, undo and redo, the tally, records, autosave."""

from __future__ import annotations

import os
import random
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from seats import seated

from dipole_tui.games.base import GameError, Outcome, S, Termination
from dipole_tui.games.bipod import BIPOD
from dipole_tui.games.death_stacks import DEATH_STACKS, DeathStacksState
from dipole_tui.games.dipole import DIPOLE, OFF, PASS, Dipole, DipoleState, Move
from dipole_tui.records import RecordError, parse_record
from dipole_tui.registry import REGISTRY, games
from dipole_tui.session import HUMAN, Session, game_named

START_8 = "8:W:We1=12:Bd8=12"


def dipole_state(session: Session[Any]) -> DipoleState:
    """The session's position as Dipole's own state, to read what only Dipole has."""
    state = session.state
    assert isinstance(state, DipoleState)
    return state


def tally(session: Session[Any]) -> tuple[tuple[int, int, int], tuple[int, int, int]]:
    """Each side's checkers on the board, lost to captures and removed (Dipole's panel)."""
    return dipole_state(session).tallies()


# White's c3=1 can neither capture the 2-stacks diagonally ahead on b4 and d4 nor leave the board
# (a 1-stack on c3 needs 3 checkers to get off), and straight moves of 1 land on light squares:
# White must pass. Black then captures with b4xc3 (or d4xc3), which takes White's last checker.
WHITE_MUST_PASS = "8:W:Wc3=1:Bb4=2,d4=2"

# Found by a seeded random search. White plays e1xc1 (2 checkers sideways, capturing Black's
# 1-stack on c1), which leaves c1=2 and e1=2. Black's d2=1 can then only move 1 checker: the
# squares diagonally ahead, c1 and e1, hold White 2-stacks it cannot capture; c3 and e3 behind it
# are empty (backward moves must capture); it needs 2 checkers to leave the board. So Black must
# pass, and White moves again.
BEFORE_MIDGAME_PASS = "8:W:We1=4,e5=2,e7=5,f8=1:Bc1=1,d2=1"
AFTER_MIDGAME_PASS = "8:W:Wc1=2,e1=2,e5=2,e7=5,f8=1:Bd2=1"

# More positions (from the same search) where one move leaves the opponent with only a pass.
PASS_RICH_STARTS = (
    BEFORE_MIDGAME_PASS,
    "8:W:We1=2,e5=4,e7=6:Bc7=1,d8=1",
    "8:B:We1=1,f2=1:Bd2=6,h4=4,d8=2",
    "8:B:Wf4=1,e5=1:Bh2=2,h4=1,d6=2,f6=2,d8=1",
)


def at(position: str) -> Session[Move]:
    """A session on a position, with its forced passes played as Session.new plays them."""
    session = Session(DIPOLE, DIPOLE.parse_position(position))
    session.pass_if_forced()
    return session


def play(session: Session[Any], *texts: str) -> list[Any]:
    """Play moves given in notation; returns the forced passes that followed them, in order."""
    passes: list[Any] = []
    for text in texts:
        passes += session.play(session.game.parse_move(text, session.state))
    return passes


def names(moves: list[Any]) -> list[str]:
    return [DIPOLE.format_move(move) for move in moves]


def start_of(state: S) -> S:
    """The state a game started from, before any of its moves."""
    start = state.copy()
    for _ in start.moves_played:
        start.undo()
    return start


class StartsAt(Dipole):
    """Dipole whose `new()` sets up a given position: to see what Session.new does with it.

    Not for records: they leave out the Position tag when the game starts where `new()` does."""

    def __init__(self, position: str) -> None:
        self.position = position

    def start(self, variant: str) -> DipoleState:
        return DIPOLE.parse_position(self.position)


def random_move(session: Session[Any], rng: random.Random) -> Any:
    """A random legal move, half the time one that leaves the opponent only a pass, if any."""
    legal = session.state.legal_moves()
    if rng.random() < 0.5:
        forcing = []
        for move in legal:
            session.state.play(move)
            if session.state.legal_moves() == [PASS]:
                forcing.append(move)
            session.state.undo()
        if forcing:
            return rng.choice(forcing)
    return rng.choice(legal)


# -- new, play, undo, redo -----------------------------------------------------------------------


def test_new_session_starts_at_the_start_with_nothing_to_undo() -> None:
    session = Session.new(DIPOLE, "10x10", (HUMAN, HUMAN))
    assert session.state.position() == "10:W:We1=20:Bf10=20"
    assert session.state.moves_played == []
    assert session.players == (HUMAN, HUMAN)
    assert session.last_move is None and session.outcome is None
    assert not session.can_undo()
    assert session.undo() == []
    assert session.redo() == []
    assert session.state.position() == "10:W:We1=20:Bf10=20"
    assert session.tags["Date"] == datetime.now().strftime("%Y.%m.%d")


def test_undo_restores_each_position_and_redo_replays_it() -> None:
    session = Session.new(DIPOLE)
    texts = ["e1-e5", "d8-c7", "e5xc7", "d8-d4"]
    positions = [session.state.position()]
    for text in texts:
        assert play(session, text) == []
        assert names([session.last_move]) == [text]
        positions.append(session.state.position())
    assert len(set(positions)) == len(positions)
    for back in range(len(texts), 0, -1):
        assert session.can_undo()
        assert names(session.undo()) == [texts[back - 1]]
        assert session.state.position() == positions[back - 1]
    assert not session.can_undo()
    assert session.undo() == []
    assert session.state.position() == START_8
    for forward in range(1, len(texts) + 1):
        assert names(session.redo()) == [texts[forward - 1]]
        assert session.state.position() == positions[forward]
    assert session.redo() == []
    assert session.state.position() == positions[-1]


def test_a_new_move_after_undo_clears_the_redo_list() -> None:
    session = Session.new(DIPOLE)
    play(session, "e1-e5", "d8-c7")
    session.undo()
    session.undo()
    assert session.state.position() == START_8
    play(session, "e1-f2")
    assert session.redo() == []
    assert names(session.state.moves_played) == ["e1-f2"]
    # Playing the very move that was undone clears the rest of the redo list too.
    play(session, "d8-c7")
    session.undo()
    play(session, "d8-c7")
    assert session.redo() == []
    assert names(session.state.moves_played) == ["e1-f2", "d8-c7"]


def test_against_a_bot_undo_and_redo_go_from_a_persons_turn_to_the_next() -> None:
    session = Session.new(DIPOLE, players=seated(HUMAN, "easy"))
    moves = ["e1-e5", "d8-c7", "e5xc7", "d8-d4"]
    play(session, *moves)
    assert names(session.undo_to_human()) == moves[2:]  # the person's move and the reply
    assert names(session.state.moves_played) == moves[:2] and session.state.to_move == 0
    assert names(session.undo_to_human()) == moves[:2]
    assert session.state.position() == START_8
    assert session.undo_to_human() == []
    assert names(session.redo_to_human()) == moves[:2]
    assert names(session.redo_to_human()) == moves[2:]
    assert session.redo_to_human() == []
    assert names(session.state.moves_played) == moves


def test_undo_to_a_persons_turn_stops_at_the_start_where_the_bot_moves_first() -> None:
    session = Session.new(DIPOLE, players=seated("easy", HUMAN))
    play(session, "e1-e5", "d8-c7", "e5xc7")
    assert names(session.undo_to_human()) == ["d8-c7", "e5xc7"]
    assert session.state.to_move == 1
    assert names(session.undo_to_human()) == ["e1-e5"]  # no person's turn before it
    assert session.state.position() == START_8 and not session.can_undo()
    assert names(session.redo_to_human()) == ["e1-e5"]
    assert names(session.redo_to_human()) == ["d8-c7", "e5xc7"]


@pytest.mark.parametrize("players", [(HUMAN, HUMAN), ("easy", "hard")])
def test_with_no_bot_to_answer_or_no_person_undo_to_human_takes_one_move(
    players: tuple[str, str],
) -> None:
    session = Session.new(DIPOLE, players=seated(*players))
    play(session, "e1-e5", "d8-c7", "e5xc7")
    assert names(session.undo_to_human()) == ["e5xc7"]
    assert names(session.undo_to_human()) == ["d8-c7"]
    assert names(session.redo_to_human()) == ["d8-c7"]


def test_is_pass_tells_a_pass_from_a_move() -> None:
    session = Session.new(DIPOLE)
    assert session.is_pass(PASS)
    assert not any(session.is_pass(move) for move in session.state.legal_moves())


# -- forced passes -------------------------------------------------------------------------------


def test_new_session_whose_first_mover_cannot_move_passes_at_once() -> None:
    session = Session.new(StartsAt(WHITE_MUST_PASS))
    assert names(session.state.moves_played) == ["pass"]
    assert session.state.position() == "8:B:Wc3=1:Bb4=2,d4=2"
    assert session.last_move is not None and session.is_pass(session.last_move)
    # The opening pass was not a choice: there is nothing to undo, and undo leaves it played.
    assert not session.can_undo()
    assert session.undo() == []
    assert names(session.state.moves_played) == ["pass"]


def test_play_returns_the_forced_pass_and_undo_redo_take_it_with_the_move() -> None:
    session = at(BEFORE_MIDGAME_PASS)
    assert session.state.moves_played == []
    passes = play(session, "e1xc1")
    assert names(passes) == ["pass"]
    assert session.state.position() == AFTER_MIDGAME_PASS
    assert names(session.state.moves_played) == ["e1xc1", "pass"]
    assert session.state.legal_moves() != [PASS]

    assert names(session.undo()) == ["e1xc1", "pass"]  # oldest first
    assert session.state.position() == BEFORE_MIDGAME_PASS
    assert session.state.moves_played == []
    assert not session.can_undo()

    assert names(session.redo()) == ["e1xc1", "pass"]
    assert session.state.position() == AFTER_MIDGAME_PASS
    assert session.redo() == []


def test_undo_of_the_move_after_a_pass_stops_where_the_player_chose() -> None:
    session = at(BEFORE_MIDGAME_PASS)
    play(session, "e1xc1")
    assert play(session, "e1-e3") == []  # e1 is empty now: Black's d2 can move there
    assert names(session.undo()) == ["e1-e3"]
    # Back to the position after the pass, White to choose: not the one where Black must pass.
    assert session.state.position() == AFTER_MIDGAME_PASS
    assert session.state.legal_moves() != [PASS]
    assert names(session.undo()) == ["e1xc1", "pass"]
    assert session.state.position() == BEFORE_MIDGAME_PASS
    # Redo goes forward one choice at a time, each with its passes.
    assert names(session.redo()) == ["e1xc1", "pass"]
    assert session.state.position() == AFTER_MIDGAME_PASS
    assert names(session.redo()) == ["e1-e3"]
    assert names(session.state.moves_played) == ["e1xc1", "pass", "e1-e3"]


def test_a_game_that_opens_with_a_pass_ends_and_undoes_to_after_the_pass() -> None:
    session = Session.new(StartsAt(WHITE_MUST_PASS))
    assert play(session, "b4xc3") == []  # the game is over: nobody passes after it
    outcome = session.outcome
    assert outcome is not None and outcome.winner == 1
    assert session.state.legal_moves() == []
    assert session.can_undo()
    assert names(session.undo()) == ["b4xc3"]
    assert session.outcome is None
    assert session.state.position() == "8:B:Wc3=1:Bb4=2,d4=2"
    assert not session.can_undo()
    assert names(session.redo()) == ["b4xc3"]
    assert session.outcome == outcome


def test_pass_if_forced_does_nothing_when_the_mover_has_a_choice_or_the_game_is_over() -> None:
    session = Session.new(DIPOLE)
    assert session.pass_if_forced() == []
    assert session.state.moves_played == []
    session = Session(DIPOLE, DIPOLE.parse_position("8:W:We1=1:B"))  # Black has no checkers
    assert session.outcome is not None
    assert session.pass_if_forced() == []
    assert session.state.moves_played == []


@settings(max_examples=40, deadline=None)
@given(rng=st.randoms(use_true_random=False), first=st.sampled_from((START_8, *PASS_RICH_STARTS)))
def test_undo_and_redo_walk_the_choices_like_a_stack_of_positions(
    rng: random.Random, first: str
) -> None:
    session = at(first)
    past = [session.state.position()]  # the position after each choice and its passes
    future: list[str] = []  # undone positions, the next to redo last
    for _ in range(40):
        action = rng.choice(("play", "play", "undo", "redo"))
        if action == "play" and session.outcome is None:
            before = len(session.state.moves_played)
            passes = session.play(random_move(session, rng))
            assert all(session.is_pass(move) for move in passes)
            assert session.state.moves_played[before + 1 :] == passes
            past.append(session.state.position())
            future.clear()
        elif action == "undo":
            undone = session.undo()
            if len(past) == 1:
                assert undone == []
            else:
                assert not session.is_pass(undone[0])
                assert all(session.is_pass(move) for move in undone[1:])
                future.append(past.pop())
        elif action == "redo":
            redone = session.redo()
            if not future:
                assert redone == []
            else:
                assert not session.is_pass(redone[0])
                assert all(session.is_pass(move) for move in redone[1:])
                past.append(future.pop())
        assert session.state.position() == past[-1]
        assert session.can_undo() == (len(past) > 1)
        # Passes are played at once, so a player is never left facing a forced pass.
        assert session.state.legal_moves() != [PASS]


# -- the tally -----------------------------------------------------------------------------------


def test_tally_of_a_scripted_game_with_captures_and_removals() -> None:
    session = Session.new(DIPOLE)
    assert tally(session) == ((12, 0, 0), (12, 0, 0))
    play(session, "e1-e5", "d8-c7")  # W e1=8 e5=4; B d8=11 c7=1
    play(session, "e5xc7")  # W e5=2 c7=2: Black's 1-stack on c7 is captured
    assert tally(session) == ((12, 0, 0), (11, 1, 0))
    play(session, "d8-d4")  # B d8=7 d4=4
    play(session, "e1-f2")  # W e1=7 f2=1
    play(session, "d4xf2")  # B d4=2 f2=2: White's 1-stack on f2 is captured
    play(session, "c7-off:2")  # White removes its 2 on c7
    play(session, "d8-off:4")  # Black removes 4 of d8's 7
    assert session.state.position() == "8:W:We1=7,e5=2:Bf2=2,d4=2,d8=3"
    # White: e1=7 + e5=2 on the board, 1 lost on f2, 2 removed from c7.
    # Black: f2=2 + d4=2 + d8=3 on the board, 1 lost on c7, 4 removed from d8.
    assert tally(session) == ((9, 1, 2), (7, 1, 4))
    session.undo()  # the tally follows undo: Black's removal is taken back
    assert tally(session) == ((9, 1, 2), (11, 1, 0))
    assert session.state.position() == "8:B:We1=7,e5=2:Bf2=2,d4=2,d8=7"


def test_tally_counts_nothing_for_passes() -> None:
    session = Session.new(StartsAt(WHITE_MUST_PASS))
    assert tally(session) == ((1, 0, 0), (4, 0, 0))
    play(session, "b4xc3")  # Black's b4=2 sends 1 checker to take White's last
    assert tally(session) == ((0, 1, 0), (4, 0, 0))

    session = at(BEFORE_MIDGAME_PASS)  # White 12, Black c1=1 and d2=1
    play(session, "e1xc1")
    assert tally(session) == ((12, 0, 0), (1, 1, 0))


@settings(max_examples=30, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    first=st.sampled_from((START_8, "10:W:We1=20:Bf10=20", *PASS_RICH_STARTS)),
    plies=st.integers(0, 200),
)
def test_tally_accounts_for_every_checker(seed: int, first: str, plies: int) -> None:
    rng = random.Random(seed)
    session = at(first)
    while session.outcome is None and len(session.state.moves_played) < plies:
        session.play(random_move(session, rng))
    start = start_of(dipole_state(session))
    starting = list(start.checkers)
    # What each side removed and lost, worked out from the moves and the board, not the totals.
    removed, lost = [0, 0], [0, 0]
    for move in session.state.moves_played:
        mover = start.to_move
        if move.target == OFF and not session.is_pass(move):
            removed[mover] += move.count
        elif move.capture:
            lost[1 - mover] += abs(start.height(move.target))
        start.play(move)
    tallies = tally(session)
    for side in (0, 1):
        on_board, captured, removed_by_side = tallies[side]
        assert on_board == dipole_state(session).checkers[side]
        assert on_board + captured + removed_by_side == starting[side]
        assert removed_by_side == removed[side]
        assert captured == lost[side]
    assert session.state.moves_played == start.moves_played  # tally left the game as it was


def test_figures_show_dipole_tally_under_its_headings() -> None:
    session = Session.new(DIPOLE)
    session.play(session.game.parse_move("e1-g3", session.state))
    figures = session.figures()
    assert figures.headings == ("on", "lost", "off")
    assert "lost to" in figures.note and "captures" in figures.note
    assert figures.rows == tally(session)


def test_death_stacks_figures_count_stacks_pieces_and_prisoners() -> None:
    # Red controls a1 (r) and c3 (b r r: one Black prisoner); Black controls f6 (r r b: two Red
    # prisoners) and d4 (b).
    position = ",,,,,rrb/,,,,,/,,,b,,/,,brr,,,/,,,,,/r,,,,, r"
    session = Session(DEATH_STACKS, DEATH_STACKS.parse_position(position))
    figures = session.figures()
    assert figures.headings == ("stacks", "pcs", "held")
    assert figures.rows == ((2, 4, 2), (2, 4, 1))
    assert "stacks controlled" in figures.note and "prisoners held" in figures.note  # a legend


def test_bipod_figures_say_what_adopting_does_and_what_each_chain_needs() -> None:
    session = Session.new(BIPOD, "adopter-runs")
    for text in ("q1", "u1", "r2", "t2"):  # the O start stone on s1 is walled in
        session.play(session.game.parse_move(text, session.state))
    figures = session.figures()
    assert figures.headings == ("placed",) and figures.rows == ((2,), (2,))
    assert figures.note.splitlines() == [
        "No roles yet. Adopting",
        "makes you the Runner,",  # this variant: the adopter runs
        "the other the Blocker.",
        "i1 chain: 5 more stones",
        "s1 chain: cut off",
    ]
    # Each line fits the narrow side panel (26 columns, 23 inside).
    assert max(len(line) for line in figures.note.splitlines()) <= 23
    session.play(session.game.parse_move("adopt", session.state))  # First adopts, and runs
    figures = session.figures()
    assert figures.headings == ("role", "placed")
    assert figures.rows == (("Runner", 2), ("Blocker", 2))
    assert figures.note.splitlines() == ["i1 chain: 5 more stones", "s1 chain: cut off"]


@given(seed=st.integers(0, 2**32 - 1), plies=st.integers(0, 120))
def test_death_stacks_figures_account_for_every_piece(seed: int, plies: int) -> None:
    rng = random.Random(seed)
    session = Session.new(DEATH_STACKS)
    while session.outcome is None and len(session.state.moves_played) < plies:
        session.play(rng.choice(session.state.legal_moves()))
    state = session.state
    assert isinstance(state, DeathStacksState)
    shown = session.figures().rows
    rows = [[count for count in row if isinstance(count, int)] for row in shown]
    assert rows == [list(row) for row in shown]  # Death Stacks' figures are all counts
    assert sum(row[1] for row in rows) == sum(map(len, state.cells))  # every piece in one stack
    for side in (0, 1):
        assert rows[side][0] == len(state.stacks_of(side))
        # Prisoners sit below the opponent's top pieces, one per stack it controls at least.
        assert 0 <= rows[side][2] <= rows[1 - side][1] - rows[1 - side][0]
        if rows[1 - side][0] == 0:
            assert rows[side][2] == 0


# -- records -------------------------------------------------------------------------------------


def test_record_text_round_trips_through_from_text() -> None:
    session = Session.new(DIPOLE, "8x8")
    play(session, "e1-e5", "d8-c7", "e5xc7", "d8-off:4")
    session.tags["Event"] = "Club night"
    text = session.record_text()
    again = Session.from_text(text)
    assert again.game is DIPOLE
    assert again.state.position() == session.state.position()
    assert again.state.moves_played == session.state.moves_played
    assert again.players == session.players == (HUMAN, HUMAN)
    assert again.tags["Event"] == "Club night"
    assert again.tags["Date"] == session.tags["Date"]
    assert "Result" not in again.tags  # worked out again from the position when written
    assert again.record_text() == text


def test_record_of_a_game_from_a_set_position_with_passes_round_trips() -> None:
    session = at(BEFORE_MIDGAME_PASS)
    play(session, "e1xc1", "e1-e3")
    text = session.record_text()
    assert f'[Position "{BEFORE_MIDGAME_PASS}"]' in text
    again = Session.from_text(text)
    assert start_of(again.state).position() == BEFORE_MIDGAME_PASS
    assert names(again.state.moves_played) == ["e1xc1", "pass", "e1-e3"]
    assert again.state.position() == session.state.position()
    # Undo in the loaded game takes back the same choices.
    assert names(again.undo()) == ["e1-e3"]
    assert names(again.undo()) == ["e1xc1", "pass"]


def test_finished_game_round_trips_with_its_result() -> None:
    session = at(WHITE_MUST_PASS)
    play(session, "d4xc3")
    text = session.record_text()
    assert parse_record(text).result == "0-1"
    again = Session.from_text(text)
    assert again.outcome == session.outcome
    assert again.state.position() == session.state.position()


def test_unknown_player_kinds_fall_back_to_human_and_keep_their_names() -> None:
    text = '[Game "Dipole"]\n[White "Ann"]\n[Black "grandmaster"]\n\n1. e1-g3 d8-c7\n*\n'
    session = Session.from_text(text)
    assert session.players == (HUMAN, HUMAN)
    assert names(session.state.moves_played) == ["e1-g3", "d8-c7"]
    # A person's name is kept when the game is saved again; a seat is written as its seat.
    record = session.record_text()
    assert '[White "Ann"]' in record and '[Black "grandmaster"]' in record
    assert Session.from_text(record).players == (HUMAN, HUMAN)
    remote = Session.from_text(text.replace('"Ann"', '"remote"').replace('"grandmaster"', '"hard"'))
    assert remote.players == (HUMAN, "hard")
    assert '[White "human"]' in remote.record_text() and '[Black "hard"]' in remote.record_text()
    # No player tags at all: both human.
    assert Session.from_text('[Game "Dipole"]\n1. e1-g3\n').players == (HUMAN, HUMAN)


def test_from_text_reports_a_bad_record_as_record_error() -> None:
    with pytest.raises(RecordError, match="move 2"):
        Session.from_text('[Game "Dipole"]\n1. e1-g3 d8-c7\n2. e1-a8\n')


def test_save_writes_the_record_atomically(tmp_path: Path) -> None:
    session = Session.new(DIPOLE)
    play(session, "e1-e5")
    target = tmp_path / "games" / "mine.txt"
    target.parent.mkdir()  # a missing one is an error (test_output_files.py)
    session.save(target)
    assert target.read_text(encoding="utf-8") == session.record_text()
    play(session, "d8-c7")
    session.save(str(target))  # overwrites, and takes a string path too
    assert Session.from_text(target.read_text(encoding="utf-8")).state == session.state
    assert sorted(p.name for p in target.parent.iterdir()) == ["mine.txt"]  # no temporary left


def test_save_that_fails_keeps_the_old_file_and_leaves_no_temporary(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    session = Session.new(DIPOLE)
    target = tmp_path / "mine.txt"
    session.save(target)
    old = target.read_text(encoding="utf-8")
    play(session, "e1-e5")

    def broken_replace(source: Any, destination: Any) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", broken_replace)
    with pytest.raises(OSError):
        session.save(target)
    assert target.read_text(encoding="utf-8") == old
    assert [p.name for p in tmp_path.iterdir()] == ["mine.txt"]


# -- autosave ------------------------------------------------------------------------------------


def test_game_named_finds_dipole_and_lists_the_games_otherwise() -> None:
    assert game_named("dipole") is DIPOLE
    with pytest.raises(
        GameError, match=r"no game called 'chess'; expected one of bipod, death-stacks, dipole$"
    ):
        game_named("chess")
    with pytest.raises(GameError):
        game_named("Dipole")  # the key, not the display name


def test_each_game_says_which_moves_are_passes() -> None:
    """A generic layer asks the game (it once compared the notation with "pass")."""
    for game in games():
        state = game.new()
        assert not any(game.is_pass(move) for move in state.legal_moves()), game.key
    forced = REGISTRY["dipole"].game.parse_position("8:W:Wd4=1:Bc5=2,e5=2")
    assert forced.legal_moves() == [PASS] and REGISTRY["dipole"].game.is_pass(PASS)


def test_an_outcome_says_its_result_as_records_write_it() -> None:
    assert [Outcome(w, Termination.OTHER, "").result() for w in (0, 1, None)] == [
        "1-0",
        "0-1",
        "1/2-1/2",
    ]
