"""The app against a real game server: the app under Pilot in one seat, a plain protocol client
(online_steps.Peer) in the other or watching; a game relayed both ways in every game, the end
filed in the player's folder, a server stopped and started again while the app waits, and a
watcher who can move for nobody."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from app_steps import AppFactory, StandIn, message, noticed, screen_text, type_move, until
from online_steps import Peer, named, seated_pair
from textual.widgets import Button, Input, Select

from dipole_tui.app.app import GameApp
from dipole_tui.app.dialogs.choice import ChoiceScreen
from dipole_tui.app.dialogs.new_game import NewGameScreen
from dipole_tui.app.dialogs.online import OnlineScreen
from dipole_tui.app.dialogs.online_games import OnlineGames
from dipole_tui.app.dialogs.open import OpenScreen
from dipole_tui.app.screens.editor import EditorScreen
from dipole_tui.app.screens.review import ReviewScreen
from dipole_tui.clock import TimeControl
from dipole_tui.control.choice import GameChoice, OnlineChoice
from dipole_tui.control.server_referee import NO_HELP
from dipole_tui.games.base import GameError
from dipole_tui.online import client
from dipole_tui.online.names import NameBook
from dipole_tui.online.protocol import VERSION, ClientMessage, Move, Watch
from dipole_tui.online.ratings import Standing, rate
from dipole_tui.online.seat import SeatBook
from dipole_tui.online.server import running_server
from dipole_tui.registry import REGISTRY
from dipole_tui.session import HUMAN, REMOTE, Session
from dipole_tui.workers.protocol import Request


def room_of(app: GameApp) -> str:
    room = app.game_screen.keeper.online
    return room.code if room is not None else ""


def invite_of(app: GameApp) -> str | None:
    """The key to the free seat of the room the app created."""
    room = app.game_screen.keeper.online
    return room.invite if room is not None else None


def plies(app: GameApp) -> int:
    return app.session.state.plies


def past(app: GameApp, ply: int) -> Callable[[], bool]:
    """The app's game has gone past `ply` plies."""
    return lambda: plies(app) > ply


async def a_new_room(
    make_app: AppFactory,
    port: int,
    game: str,
    folder: Path,
    control: TimeControl | None = None,
    **more: Any,
) -> GameApp:
    choice = GameChoice(game, REGISTRY[game].game.variants[0], (HUMAN, HUMAN), control)
    online = OnlineChoice(f"ws://127.0.0.1:{port}", "create", game=choice, side="white")
    return make_app(game, online=online, folder=folder, **more)


class Asked(StandIn):
    """Stands in for the analysis's or the review's process: what it was asked, unanswered."""

    def __init__(self) -> None:
        self.asked: list[Request] = []

    def send(self, number: int, request: Request) -> None:
        self.asked.append(request)


class Lossy(client.Link):
    """A link whose moves are lost on their way while `losing` (as when the server goes down
    with a move sent): the app's own link otherwise."""

    losing = True

    def send(self, message: ClientMessage) -> bool:
        if isinstance(message, Move) and Lossy.losing:
            return self.connected
        return super().send(message)


def run_command(app: GameApp, title: str) -> None:
    """The command palette's command of that title, run as the palette runs it."""
    commands = {command.title: command for command in app.get_system_commands(app.game_screen)}
    commands[title].callback()


def a_move(session: Session[Any], rng: random.Random) -> str:
    moves = session.state.legal_moves()
    return str(session.game.format_move(rng.choice(moves)))


@pytest.mark.parametrize("game", sorted(REGISTRY))
async def test_a_game_is_relayed_both_ways_and_filed_at_its_end(
    make_app: AppFactory, tmp_path: Path, game: str
) -> None:
    rng = random.Random(game)
    async with running_server("127.0.0.1", 0, tmp_path / "server") as server:
        app = await a_new_room(make_app, server.port, game, tmp_path / "white")
        async with app.run_test(size=(100, 34)) as pilot:
            await until(lambda: bool(room_of(app)))
            friend = await Peer.open(server.port)
            await friend.sit("join", room=room_of(app), invite=invite_of(app))
            await until(lambda: app.session.players == (HUMAN, REMOTE))
            await pilot.press("i")  # no hint between people
            assert NO_HELP in message(app)
            for _ in range(3):
                if app.session.outcome is not None:
                    break
                before = plies(app)
                await type_move(pilot, a_move(app.session, rng))
                await until(past(app, before))
                moved = await friend.read_a("moved")
                assert moved["side"] == 0 and moved["ply"] == before, (moved, before)
                if app.session.outcome is not None:
                    break
                state = app.session.state
                answer = a_move(Session(app.session.game, state.copy()), rng)
                before = plies(app)
                await friend.send("move", room=friend.room, ply=before, move=answer)
                assert (await friend.read_a("moved"))["move"] == answer  # its acknowledgement
                await until(past(app, before))
                assert app.session.game.format_move(app.session.state.moves_played[before]) == (
                    answer
                )
            if app.session.outcome is None:
                await friend.send("resign", room=friend.room)
                await until(lambda: app.session.outcome is not None)
            await until(lambda: (tmp_path / "white" / "finished").exists())
            filed = list((tmp_path / "white" / "finished").iterdir())
            assert len(filed) == 1
            kept = Session.from_text(filed[0].read_text())
            assert kept.state.moves_played == app.session.state.moves_played
            assert kept.outcome == app.session.outcome
            seat = SeatBook(tmp_path / "white").find(f"ws://127.0.0.1:{server.port}", room_of(app))
            assert seat is not None and seat.filed and seat.side == 0
            await friend.close()


async def test_the_app_comes_back_after_the_server_restarts(
    make_app: AppFactory, tmp_path: Path
) -> None:
    """The server goes away (every connection closed, the port shut) and comes back on the
    same folder: the app reconnects by itself, and the game goes on where it was."""
    folder = tmp_path / "server"
    first = running_server("127.0.0.1", 0, folder)
    server = await first.__aenter__()
    port = server.port
    app = await a_new_room(make_app, port, "dipole", tmp_path / "white")
    async with app.run_test(size=(100, 34)) as pilot:
        await until(lambda: bool(room_of(app)))
        friend = await Peer.open(port)
        await friend.sit("join", room=room_of(app), invite=invite_of(app))
        await type_move(pilot, "e1-e3")
        await friend.read_a("moved")
        await first.__aexit__(None, None, None)
        await until(lambda: "not connected" in str(app.panel.room))
        async with running_server("127.0.0.1", port, folder):
            await until(lambda: "not connected" not in str(app.panel.room), seconds=20)
            back = await Peer.open(port)
            await back.sit("join", room=room_of(app), secret=friend.secret)
            await back.send("move", room=back.room, ply=1, move="d8-d6")
            await until(lambda: plies(app) == 2)
            assert "Black played d8-d6." in message(app)
            await back.close()


async def test_a_watcher_sees_every_move_and_moves_for_nobody(
    make_app: AppFactory, tmp_path: Path
) -> None:
    async with running_server("127.0.0.1", 0, tmp_path / "server") as server:
        white, black = await seated_pair(server.port)
        await white.send("move", room=white.room, ply=0, move="e1-e3")
        await black.read_a("moved")
        online = OnlineChoice(f"ws://127.0.0.1:{server.port}", "watch", room=white.room.lower())
        analyst = Asked()
        app = make_app("dipole", online=online, analyst=analyst, reviewer=Asked())
        async with app.run_test(size=(100, 34)) as pilot:
            await until(lambda: plies(app) == 1)  # the game so far, joining late
            assert app.session.players == (REMOTE, REMOTE)
            await black.send("move", room=white.room, ply=1, move="d8-d6")
            await until(lambda: plies(app) == 2)
            await type_move(pilot, "e3-e5")
            assert plies(app) == 2
            assert "you are watching" in message(app)
            assert "watching" in str(app.panel.room)
            await pilot.press("a")  # a watcher may study the game
            assert app.analysis.on and analyst.asked
            await pilot.press("r")
            await until(lambda: isinstance(app.screen, ReviewScreen))
        for peer in (white, black):
            await peer.close()


async def test_the_new_game_dialog_opens_a_room_and_the_open_dialog_goes_back_to_it(
    make_app: AppFactory, tmp_path: Path
) -> None:
    """n, Online, the server, New room: a room for the game chosen; later, o lists the game
    with whose turn it is, and Enter takes the seat again."""
    async with running_server("127.0.0.1", 0, tmp_path / "server") as server:
        url = f"ws://127.0.0.1:{server.port}"
        app = make_app("death-stacks", folder=tmp_path / "me")
        async with app.run_test(size=(100, 34)) as pilot:
            await pilot.press("n")
            await until(lambda: isinstance(app.screen, NewGameScreen))
            await pilot.click("#online")
            await until(lambda: isinstance(app.screen, OnlineScreen))
            app.screen.query_one("#server", Input).value = url
            app.screen.query_one("#side", Select).value = "black"
            app.screen.query_one("#create", Button).press()  # the lobby's list may move it
            await until(lambda: bool(room_of(app)))
            code = room_of(app)
            assert app.session.game.key == "death-stacks" and app.session.players == (REMOTE, HUMAN)
            invitation = f"{code}-{invite_of(app)}"
            await until(lambda: noticed(app, f"invite: dipole-tui play --server {url} --join"))
            assert noticed(app, f"--join {invitation}") and noticed(app, f"--watch {code}")
            assert invitation in str(app.panel.room)  # while the seat is free
            friend = await Peer.open(server.port)
            await friend.sit("join", room=code)  # the code alone: watching
            assert friend.side is None and friend.invite is None
            await friend.close()
            friend = await Peer.open(server.port)
            await friend.sit("join", room=code, invite=invite_of(app))
            await friend.send("move", room=code, ply=0, move="a1-1-b1")
            await until(lambda: plies(app) == 1)
            await pilot.press("n")  # a game here instead: the room goes on without us
            await until(lambda: isinstance(app.screen, NewGameScreen))
            await pilot.click("#start")
            await until(lambda: app.game_screen.keeper.online is None)
            await pilot.press("o")
            await until(lambda: isinstance(app.screen, OpenScreen))
            games = app.screen.query_one(OnlineGames)
            await until(lambda: "your turn, ply 1" in str(games.get_option_at_index(0).prompt))
            await pilot.press("enter")
            await until(lambda: room_of(app) == code and plies(app) == 1)
            assert app.session.players == (REMOTE, HUMAN)
            await friend.close()


async def test_a_mistyped_code_is_said_and_the_game_here_stays(
    make_app: AppFactory, tmp_path: Path
) -> None:
    async with running_server("127.0.0.1", 0, tmp_path / "server") as server:
        online = OnlineChoice(f"ws://127.0.0.1:{server.port}", "join", room="NOSUCH")
        app = make_app("dipole", online=online)
        async with app.run_test(size=(100, 34)):
            await until(lambda: noticed(app, "there is no room NOSUCH"))
            assert app.game_screen.keeper.online is None
            assert str(app.panel.room) == ""


async def test_a_seek_under_a_name_taken_is_said_and_the_game_here_stays(
    make_app: AppFactory, tmp_path: Path
) -> None:
    """Refused before any seat: no room left on screen half made (no "watching", no moves
    refused as "not connected yet"), the refusal said, the game here playable again."""
    async with running_server("127.0.0.1", 0, tmp_path / "server") as server:
        dave = await named(server.port, "Dave", {})
        url = f"ws://127.0.0.1:{server.port}"
        game = GameChoice("dipole", "8x8", (HUMAN, HUMAN))
        online = OnlineChoice(url, "seek", game=game, name="dave")
        app = make_app("dipole", online=online)
        async with app.run_test(size=(100, 34)) as pilot:
            await until(lambda: noticed(app, "the name dave is taken"))
            assert app.game_screen.keeper.online is None
            assert str(app.panel.room) == ""
            await type_move(pilot, "e1-e3")
            await until(lambda: plies(app) == 1)
        await dave.close()


async def test_a_client_of_another_version_is_told_to_upgrade_and_gives_up(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No retrying for ever against a server that will never take it: the server's sentence
    is what the player reads."""
    monkeypatch.setattr(client, "VERSION", VERSION + 1)
    said: list[str] = []
    async with running_server("127.0.0.1", 0, tmp_path / "server") as server:
        url = f"ws://127.0.0.1:{server.port}"
        link = client.Link(url, Watch("ABCD"), lambda m: None, said.append)
        async with asyncio.timeout(10):
            await link.run()  # returns: it gave up
    assert "upgrade" in link.fatal and said[-1] == link.fatal
    assert not link.connected


def test_play_join_takes_an_invitation_and_watch_a_code() -> None:
    from dipole_tui.cli import build_parser
    from dipole_tui.cli.arguments import UsageError
    from dipole_tui.cli.play import online_choice

    game = GameChoice("dipole", "8x8", (HUMAN, HUMAN))
    key = "Ab_c-0123456789abcdefgh"
    url = "ws://127.0.0.1:8765"
    args = build_parser().parse_args(["play", "--server", url, "--join", f"k7qmwd-{key}"])
    assert online_choice(args, game) == OnlineChoice(url, "join", room=f"K7QMWD-{key}")
    args = build_parser().parse_args(["play", "--server", url, "--watch", "k7qmwd"])
    assert online_choice(args, game) == OnlineChoice(url, "watch", room="K7QMWD")
    with pytest.raises(UsageError, match="not a room code or an invitation"):
        build_parser().parse_args(["play", "--server", url, "--join", "K7QMWD-\x1b]52;c;x"])


def test_play_name_is_checked_and_goes_with_the_room() -> None:
    from dipole_tui.cli import build_parser
    from dipole_tui.cli.arguments import UsageError
    from dipole_tui.cli.play import online_choice

    game = GameChoice("dipole", "8x8", (HUMAN, HUMAN))
    url = "ws://127.0.0.1:8765"
    args = build_parser().parse_args(["play", "--server", url, "--watch", "ABCD", "--name", "Zoe"])
    assert online_choice(args, game) == OnlineChoice(url, "watch", room="ABCD", name="Zoe")
    with pytest.raises(UsageError, match="is not a name: 3 to 20 letters"):
        build_parser().parse_args(["play", "--server", url, "--name", "Zo\x1b[2Je"])


async def test_a_named_player_sees_both_names_and_keeps_the_token(
    make_app: AppFactory, tmp_path: Path
) -> None:
    async with running_server("127.0.0.1", 0, tmp_path / "server") as server:
        url = f"ws://127.0.0.1:{server.port}"
        choice = GameChoice("dipole", "8x8", (HUMAN, HUMAN))
        online = OnlineChoice(url, "create", game=choice, side="white", name="Yuki")
        app = make_app("dipole", online=online, folder=tmp_path / "white")
        async with app.run_test(size=(100, 34)):
            await until(lambda: bool(room_of(app)))
            friend = await Peer.open(server.port)
            await friend.send("claim", name="Xavier")
            assert (await friend.read())["type"] == "named"
            await friend.sit("join", room=room_of(app), invite=invite_of(app))
            await until(lambda: "Black Xavier online" in screen_text(app))
            await until(lambda: "Yuki v Xavier" in screen_text(app))  # the title names them too
            assert "you: White Yuki" in screen_text(app)
            kept = NameBook(tmp_path / "white").find(url)
            assert kept is not None and kept.name == "Yuki" and kept.token
            assert noticed(app, "You play as Yuki on this server now.")
            await friend.close()
        assert (app.session.player_name(0), app.session.player_name(1)) == ("Yuki", "Xavier")


async def test_a_rated_game_shows_both_ratings_and_their_changes_at_the_end(
    make_app: AppFactory, tmp_path: Path
) -> None:
    async with running_server("127.0.0.1", 0, tmp_path / "server") as server:
        url = f"ws://127.0.0.1:{server.port}"
        choice = GameChoice("dipole", "8x8", (HUMAN, HUMAN), TimeControl(5, 3))
        online = OnlineChoice(url, "create", game=choice, side="white", name="Uma", rated=True)
        app = make_app("dipole", online=online, folder=tmp_path / "white")
        async with app.run_test(size=(100, 34)):
            await until(lambda: bool(room_of(app)))
            await until(lambda: "Uma 1500?" in screen_text(app))  # the panel wraps at 100x34
            assert "rated  you: White" in screen_text(app)
            friend = await Peer.open(server.port)
            await friend.send("claim", name="Viktor")
            assert (await friend.read())["type"] == "named"
            await friend.sit("join", room=room_of(app), invite=invite_of(app))
            await until(lambda: "Black Viktor 1500? online" in screen_text(app))
            await friend.send("resign", room=friend.room)
            await until(lambda: app.session.outcome is not None)
            won, lost = rate(Standing(), Standing(), "1-0")
            said = f"Ratings: Uma {won.points} (+{won.points - 1500}), Viktor {lost.points} "
            said += f"({lost.points - 1500:+d})."
            await until(lambda: said in " ".join(message(app).split()))
            assert isinstance(app.screen, ChoiceScreen)  # the end's dialog says them too
            assert said in " ".join(app.screen.text.split())
            await friend.close()


@pytest.mark.parametrize(
    "given", ["4001", "9" * 5000, "²", "-1", "1e3"], ids=["4001", "5000-digits", "²", "-1", "1e3"]
)
def test_a_range_is_0_to_4000_points_said_in_one_short_line(
    given: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from dipole_tui.cli import main

    assert main(["play", "--server", "ws://127.0.0.1:1", "--seek", "--range", given]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "is not a range: 0 to 4000 points" in error
    assert len(error) < 200


def test_rated_needs_a_new_room_and_a_clock() -> None:
    from dipole_tui.cli import build_parser
    from dipole_tui.cli.play import online_choice

    url = "ws://127.0.0.1:8765"
    untimed = GameChoice("dipole", "8x8", (HUMAN, HUMAN))
    timed = GameChoice("dipole", "8x8", (HUMAN, HUMAN), TimeControl(5, 3))
    args = build_parser().parse_args(["play", "--server", url, "--new-room", "--rated"])
    with pytest.raises(GameError, match="a rated game needs a clock"):
        online_choice(args, untimed)
    assert online_choice(args, timed) == OnlineChoice(url, "create", game=timed, rated=True)
    args = build_parser().parse_args(["play", "--server", url, "--join", "ABCD", "--rated"])
    with pytest.raises(GameError, match="--rated goes with --new-room"):
        online_choice(args, timed)


async def test_the_online_dialog_joins_with_the_invitation_and_watches_with_the_code(
    make_app: AppFactory, tmp_path: Path
) -> None:
    async with running_server("127.0.0.1", 0, tmp_path / "server") as server:
        url = f"ws://127.0.0.1:{server.port}"
        white = await Peer.open(server.port)
        await white.sit("create", game="dipole", side="white")
        app = make_app("dipole", folder=tmp_path / "me")
        async with app.run_test(size=(100, 34)) as pilot:
            for typed, button, side in (
                (white.room.lower(), "#join", None),  # the code alone: watching
                (f"{white.room}-{white.invite}", "#join", 1),
            ):
                await pilot.press("n")
                await until(lambda: isinstance(app.screen, NewGameScreen))
                await pilot.click("#online")
                await until(lambda: isinstance(app.screen, OnlineScreen))
                app.screen.query_one("#server", Input).value = url
                app.screen.query_one("#room", Input).value = typed
                before = app.game_screen.keeper.online
                # Pressed, not clicked: the lobby's list below the form grows when the default
                # server's answer (none) comes, and a click aimed before it can land beside.
                app.screen.query_one(button, Button).press()
                await until(lambda: isinstance(app.screen, type(app.game_screen)))
                # The dialog's answer is taken on the screen's next turn: the room comes then.
                await until(lambda b=before: app.game_screen.keeper.online not in (None, b))  # type: ignore[misc]
                online = app.game_screen.keeper.online
                assert online is not None
                await until(lambda room=online: room.seated)  # type: ignore[misc]
                assert online.code == white.room and online.side == side
        await white.close()


async def test_no_analysis_review_or_hint_for_a_player_until_the_game_ends(
    make_app: AppFactory, tmp_path: Path
) -> None:
    """Not by a key, not by the palette: one line says why; the game over, they come back."""
    analyst, reviewer = Asked(), Asked()
    async with running_server("127.0.0.1", 0, tmp_path / "server") as server:
        app = await a_new_room(
            make_app, server.port, "dipole", tmp_path / "white", analyst=analyst, reviewer=reviewer
        )
        async with app.run_test(size=(100, 34)) as pilot:
            await until(lambda: bool(room_of(app)))
            friend = await Peer.open(server.port)
            await friend.sit("join", room=room_of(app), invite=invite_of(app))
            await until(lambda: app.session.players == (HUMAN, REMOTE))
            await type_move(pilot, "e1-e3")
            await friend.read_a("moved")
            for key in ("r", "a", "i", "m"):
                app.panel.say("")
                await pilot.press(key)
                assert app.screen is app.game_screen, key
                assert not app.analysis.on and not app.eval_bar.display, key
                if key != "m":  # m is no key without the analysis
                    assert message(app) == NO_HELP, key
            run_command(app, "Analysis")
            await pilot.pause()
            assert not app.analysis.on and message(app) == NO_HELP
            assert analyst.asked == [] and reviewer.asked == []
            await friend.send("resign", room=friend.room)
            await until(lambda: app.session.outcome is not None)
            await until(lambda: app.screen is not app.game_screen)  # the game-over question
            await pilot.press("escape")
            await pilot.press("a")
            assert app.analysis.on and app.eval_bar.display  # over: nothing left to search
            await pilot.press("r")
            await until(lambda: isinstance(app.screen, ReviewScreen))
            await friend.close()


async def test_the_editor_is_refused_in_a_room_and_never_leaves_it(
    make_app: AppFactory, tmp_path: Path
) -> None:
    """`e` then ctrl+s once left the room without a word: the editor does not open in a
    room (its Play would start a game here), by its key or the palette."""
    async with running_server("127.0.0.1", 0, tmp_path / "server") as server:
        app = await a_new_room(make_app, server.port, "dipole", tmp_path / "white")
        async with app.run_test(size=(100, 34)) as pilot:
            await until(lambda: bool(room_of(app)))
            code = room_of(app)
            await pilot.press("e")
            assert message(app).startswith(f"No editor in online room {code}")
            await pilot.press("ctrl+s")
            assert not isinstance(app.screen, EditorScreen)
            run_command(app, "Edit the position")
            await pilot.pause()
            assert not isinstance(app.screen, EditorScreen)
            assert room_of(app) == code and app.game_screen.keeper.referee.link is not None


async def test_a_move_lost_on_its_way_is_sending_then_said_after_the_restart(
    make_app: AppFactory, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The move shows as sending until the server has it; the server goes down before it
    does: the clocks shown stop meanwhile, and back, the app says the move never arrived and
    shows the server's game; played again, it is acknowledged."""
    monkeypatch.setattr(Lossy, "losing", True)
    folder = tmp_path / "server"
    first = running_server("127.0.0.1", 0, folder)
    port = (await first.__aenter__()).port
    control = TimeControl(5, 3)
    app = await a_new_room(make_app, port, "dipole", tmp_path / "white", control)
    app.game_screen.link_class = Lossy
    async with app.run_test(size=(100, 34)) as pilot:
        await until(lambda: bool(room_of(app)))
        friend = await Peer.open(port)
        await friend.sit("join", room=room_of(app), invite=invite_of(app))
        await until(lambda: app.session.clock is not None and app.session.clock.running)
        await type_move(pilot, "e1-e3")
        assert plies(app) == 1 and message(app) == "e1-e3: sending..."
        assert "sending e1-e3..." in str(app.panel.room)
        await first.__aexit__(None, None, None)
        await until(lambda: "not connected" in str(app.panel.room))
        clock = app.session.clock
        assert clock is not None and not clock.running
        shown = (clock.remaining(0), clock.remaining(1))
        await pilot.pause(0.05)
        assert (clock.remaining(0), clock.remaining(1)) == shown
        Lossy.losing = False
        async with running_server("127.0.0.1", port, folder):
            said = "e1-e3 was not received by the server; play it again."
            await until(lambda: message(app) == said, seconds=20)
            assert plies(app) == 0 and "sending" not in str(app.panel.room)
            await type_move(pilot, "e1-e3")
            await until(lambda: message(app) == "White played e1-e3.")
            assert plies(app) == 1 and "sending" not in str(app.panel.room)


async def test_a_seat_taken_on_localhost_is_taken_again_on_127_0_0_1(
    make_app: AppFactory, tmp_path: Path
) -> None:
    """One server by two names: the player rejoins in their own seat, never as a watcher."""
    async with running_server("127.0.0.1", 0, tmp_path / "server") as server:
        choice = GameChoice("dipole", "8x8", (HUMAN, HUMAN))
        url = f"ws://localhost:{server.port}/"
        app = make_app("dipole", online=OnlineChoice(url, "create", game=choice, side="white"))
        async with app.run_test(size=(100, 34)):
            await until(lambda: bool(room_of(app)))
            code = room_of(app)
            friend = await Peer.open(server.port)
            await friend.sit("join", room=code)  # both seats taken: a stranger only watches
            screen = app.game_screen
            screen.leave_online()
            screen.go_online(OnlineChoice(f"ws://127.0.0.1:{server.port}", "join", room=code))
            await until(lambda: screen.keeper.online is not None and screen.keeper.online.seated)
            assert screen.keeper.online is not None and screen.keeper.online.side == 0
            await until(lambda: app.session.players == (HUMAN, REMOTE))
            await friend.close()
