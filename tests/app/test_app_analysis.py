"""The analysis mode: `a` shows an evaluation bar, the score in words and the best line, updated
as depths arrive and restarted after every move; a won ending shows its proved result; turning
it off stops the search. The hint says its best line."""

from __future__ import annotations

from app_steps import AppFactory, HandAnalyst, board_of, hinted, message, type_move, until
from textual.widgets import Static

from dipole_tui.analysis import Analysis, BestLine
from dipole_tui.app.app import GameApp
from dipole_tui.app.boards.dipole import DipoleBoard
from dipole_tui.bots.score import PovScore, Score
from dipole_tui.games.dipole import DIPOLE, parse_square
from dipole_tui.records import parse_record
from dipole_tui.session import HUMAN
from dipole_tui.workers.protocol import AnalysisRequest, Request

SIZE = (80, 24)


def analysis_text(app: GameApp) -> str:
    """The panel's analysis part, its lines joined."""
    return " ".join(str(app.query_one("#analysis", Static).render()).split())


def plies(record: str) -> int:
    return parse_record(record).state.plies


def bar_text(app: GameApp) -> str:
    """The evaluation bar's glyph in each row, top row first."""
    bar = app.eval_bar
    return "".join(bar.render_line(y).text[0] for y in range(bar.size.height))


async def test_analysis_shows_each_depth_in_words_with_the_bar(make_app: AppFactory) -> None:
    analyst = HandAnalyst()
    app = make_app(analyst=analyst)
    async with app.run_test(size=SIZE) as pilot:
        assert not app.eval_bar.display and not app.query_one("#analysis").display
        await pilot.press("a")
        await pilot.pause()
        assert app.analysis.on and app.eval_bar.display
        assert plies(analyst.records[-1]) == 0  # the start
        assert "thinking" in analysis_text(app)
        half = app.eval_bar.size.height / 2
        # Dipole's unit is 12 to a checker: 25 for White to move is +2.1.
        analyst.tell(Analysis(3, PovScore(Score(25), 0), ("e1-g3", "d8-c7", "g3-e5"), 900))
        await until(lambda: "depth 3" in analysis_text(app))
        assert "White is better, +2.1" in analysis_text(app)
        assert "best e1-g3 d8-c7 g3-e5" in analysis_text(app)
        assert app.eval_bar.first_rows > half
        assert bar_text(app).endswith("█" * app.eval_bar.first_rows)  # White's, from the bottom
        analyst.tell(Analysis(4, PovScore(Score(-60), 0), ("e1-d2", "d8-c7"), 3000))
        await until(lambda: "depth 4" in analysis_text(app))
        assert "Black is winning, -5.0" in analysis_text(app)
        assert app.eval_bar.first_rows < half
        await pilot.press("f")  # flipped: White's end of the bar is at the top
        await pilot.pause()
        assert bar_text(app).startswith("█" * app.eval_bar.first_rows + "░")


async def test_a_move_restarts_the_analysis_and_late_updates_are_dropped(
    make_app: AppFactory,
) -> None:
    analyst = HandAnalyst()
    app = make_app(analyst=analyst, ascii_glyphs=True)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("a")
        analyst.tell(Analysis(2, PovScore(Score(0), 0), ("e1-d2",), 100))
        await until(lambda: "Even, 0.0" in analysis_text(app))
        assert set(bar_text(app)) == {"#", "."}  # ASCII: White's share and Black's
        await type_move(pilot, "e1-g3")
        assert len(analyst.records) == 2 and plies(analyst.records[-1]) == 1
        assert "thinking" in analysis_text(app)
        # The first position's analysis, still on its way: dropped when it comes.
        analyst.tell(Analysis(5, PovScore(Score(100), 0), ("e1-d2",), 5000), number=1)
        analyst.tell(None, number=1)
        await until(lambda: app.analysis.unfinished == 1)
        assert "thinking" in analysis_text(app)
        # Black to move: the side to move's -13 is White's +1.1.
        analyst.tell(Analysis(1, PovScore(Score(-13), 1), ("d8-c7",), 40))
        await until(lambda: "depth 1" in analysis_text(app))
        assert "White is slightly better, +1.1" in analysis_text(app)
        await pilot.press("u")
        assert len(analyst.records) == 3 and plies(analyst.records[-1]) == 0


async def test_a_finished_game_shows_its_result_and_is_not_searched(make_app: AppFactory) -> None:
    analyst = HandAnalyst()
    app = make_app(position="8:B:Wh4=1:Bb2=1", analyst=analyst)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("a")
        for move in ("b2-a1", "h4-g5", "a1-off:1"):
            await type_move(pilot, move)
        await until(lambda: app.session.outcome is not None)
        await pilot.pause()
        assert len(analyst.records) == 3  # the three positions before the end, not the end
        assert "game over" in analysis_text(app) and "White won" in analysis_text(app)
        assert not app.analysis.searching
        assert app.eval_bar.first_rows == app.eval_bar.size.height


async def test_a_won_ending_shows_the_proved_result(make_app: AppFactory) -> None:
    """The real analysis process: the solver proves Black, to move, lost in 3 plies."""
    app = make_app(position="8:B:Wh4=1:Bb2=1")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("a")
        await until(lambda: "wins in" in analysis_text(app), seconds=30)
        assert "solved" in analysis_text(app)
        assert "White wins in 3 plies" in analysis_text(app)
        # the proved line may follow the result in a later update (seen on a loaded machine)
        await until(lambda: "best b2-a1 h4-g5 a1-off:1" in analysis_text(app), seconds=30)
        assert app.eval_bar.first_rows == app.eval_bar.size.height


async def test_turning_analysis_off_stops_the_search(make_app: AppFactory) -> None:
    """The real analysis process, on the start, which it would search for half a minute."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("a")
        await until(
            lambda: app.analysis.latest is not None and app.analysis.latest.depth >= 3, seconds=30
        )
        assert app.analysis.searching and app.analysis.unfinished == 1
        await pilot.press("a")
        await pilot.pause()
        assert not app.eval_bar.display and not app.query_one("#analysis").display
        await until(lambda: app.analysis.unfinished == 0, seconds=5)  # the process stopped


async def test_a_bots_game_is_analysed_while_the_bot_thinks(make_app: AppFactory) -> None:
    analyst = HandAnalyst()
    app = make_app(players=(HUMAN, "hard"), think_time=30.0, analyst=analyst)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("a")
        await type_move(pilot, "e1-g3")
        await until(lambda: app.bots.thinking)
        analyst.tell(Analysis(6, PovScore(Score(5), 1), ("d8-c7", "e1-f2"), 20000))
        await until(lambda: "depth 6" in analysis_text(app))
        assert app.bots.thinking and "best d8-c7 e1-f2" in analysis_text(app)


async def test_bipod_opens_the_analysis_with_capital_a(make_app: AppFactory) -> None:
    """Bi-Pod's board takes `a` (adopt)."""
    analyst = HandAnalyst()
    app = make_app(game="bipod", analyst=analyst)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("A")
        await pilot.pause()
        assert app.analysis.on and analyst.records


async def test_a_hint_says_its_best_line(make_app: AppFactory) -> None:
    app = make_app(think_time=0.5)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("i")
        await until(lambda: "Best line:" in message(app))
        line = message(app).split("Best line: ")[1].rstrip(".").split()
        assert len(line) >= 2
        state = DIPOLE.new()
        for text in line:  # one legal move after another
            state.play(DIPOLE.parse_move(text, state))
        assert message(app).startswith(f"Hint: hard would play {line[0]}.")


async def test_the_analysis_marks_its_best_move_on_the_board(make_app: AppFactory) -> None:
    """Issue 28 point 16: the best move's from and to squares, marked as a hint's are."""
    analyst = HandAnalyst()
    app = make_app(analyst=analyst)
    async with app.run_test(size=SIZE) as pilot:
        board = board_of(app, DipoleBoard)
        await pilot.press("a")
        await pilot.pause()
        analyst.tell(Analysis(3, PovScore(Score(25), 0), ("e1-g3", "d8-c7"), 900))
        await until(lambda: "depth 3" in analysis_text(app))
        await pilot.pause()
        assert hinted(board, "square", parse_square("e1", 8))
        assert hinted(board, "square", parse_square("g3", 8))
        assert not hinted(board, "square", parse_square("c3", 8))
        await pilot.press("a")  # off: the mark goes with it
        await pilot.pause()
        assert not hinted(board, "square", parse_square("g3", 8))


class LinesAnalyst(HandAnalyst):
    """A stand-in analyst that also keeps how many lines each request asked for."""

    def __init__(self) -> None:
        super().__init__()
        self.lines: list[int] = []

    def send(self, number: int, request: Request) -> None:
        super().send(number, request)
        assert isinstance(request, AnalysisRequest)
        self.lines.append(request.lines)


async def test_m_shows_the_best_three_lines_and_m_again_one(make_app: AppFactory) -> None:
    """Issue 28 point 16: each line with its score (White's view, as the words) and as much of
    it as fits the narrow panel, cut with `…`."""
    analyst = LinesAnalyst()
    app = make_app(analyst=analyst)
    async with app.run_test(size=SIZE) as pilot:
        assert not app.screen.check_action("lines", ())  # not offered with the analysis off
        await pilot.press("a")
        await pilot.pause()
        assert app.screen.check_action("lines", ())
        analyst.tell(Analysis(3, PovScore(Score(25), 0), ("e1-g3", "d8-c7", "g3-e5"), 900))
        await until(lambda: "depth 3" in analysis_text(app))
        await pilot.press("m")
        await pilot.pause()
        assert analyst.lines == [1, 3] and plies(analyst.records[-1]) == 0
        assert "depth 3" in analysis_text(app)  # what was found stays until the new answers
        lines = (
            BestLine(Score(25), ("e1-g3", "d8-c7", "g3-e5", "c7-b6", "e5-d6")),
            BestLine(Score(18), ("e1-d2", "d8-c7")),
            BestLine(Score(-5), ("c1-d2",)),
        )
        analyst.tell(Analysis(4, PovScore(Score(25), 0), ("e1-g3", "d8-c7"), 3000, lines))
        await until(lambda: "depth 4" in analysis_text(app))
        rows = str(app.query_one("#analysis", Static).render()).splitlines()
        assert rows[2:] == ["1 e1-g3 +2.1 d8-c7 …", "2 e1-d2 +1.5 d8-c7", "3 c1-d2 -0.4"]
        assert "best" not in analysis_text(app)
        await pilot.press("m")
        await pilot.pause()
        assert analyst.lines == [1, 3, 1]
        assert "best e1-g3 d8-c7" in analysis_text(app) and "2 e1-d2" not in analysis_text(app)
