"""The Online dialog's name and lobby, and the Open dialog's list of every game on every server,
against real servers on loopback: a seek of the lobby taken from the dialog starts the game for
both, a seek posted from it is taken by another player, a game going on is watched; the games
listed your turn first, a server that does not answer in one line."""

from __future__ import annotations

import socket
from pathlib import Path

from app_steps import AppFactory, screen_text, until
from online_steps import Peer, seated_pair
from textual.pilot import Pilot
from textual.widgets import Button, Input, OptionList, Select, Static

from dipole_tui.app.app import GameApp
from dipole_tui.app.dialogs.lobby_list import LobbyList
from dipole_tui.app.dialogs.new_game import NewGameScreen
from dipole_tui.app.dialogs.online import OnlineScreen
from dipole_tui.app.dialogs.online_games import OnlineGames
from dipole_tui.app.dialogs.open import OpenScreen
from dipole_tui.control.choice import GameChoice
from dipole_tui.online.names import NameBook
from dipole_tui.online.protocol import GameOn, Lobby, OpenSeek, Player
from dipole_tui.online.seat import RoomSeat, SeatBook
from dipole_tui.online.server import running_server
from dipole_tui.session import HUMAN, REMOTE


async def named(port: int, name: str) -> tuple[Peer, str]:
    """A connection playing under a new name, and the name's token."""
    peer = await Peer.open(port)
    await peer.send("claim", name=name)
    answer = await peer.read()
    assert answer["type"] == "named", answer
    return peer, answer["token"]


async def the_online_dialog(pilot: Pilot[None], url: str, clock: str = "") -> OnlineScreen:
    """n, then the clock and Online, the server typed and entered: the dialog, asking its
    lobby."""
    app = pilot.app
    await pilot.press("n")
    await until(lambda: isinstance(app.screen, NewGameScreen))
    await pilot.pause()
    app.screen.query_one("#clock", Select).value = clock
    await pilot.click("#online")
    await until(lambda: isinstance(app.screen, OnlineScreen))
    dialog = app.screen
    assert isinstance(dialog, OnlineScreen)
    server = dialog.query_one("#server", Input)
    server.value = url
    server.post_message(Input.Submitted(server, url))
    return dialog


def rows(dialog: OnlineScreen) -> list[str]:
    option_list = dialog.query_one("#lobby-rows", OptionList)
    return [str(option_list.get_option_at_index(i).prompt) for i in range(option_list.option_count)]


def listed(dialog: OnlineScreen, text: str) -> bool:
    return any(text in row for row in rows(dialog))


async def test_the_lobby_lists_seeks_and_games_and_a_seek_taken_starts_for_both(
    make_app: AppFactory, tmp_path: Path
) -> None:
    """The name kept for the server is filled in (and claimed to ask the lobby: a seek that
    invites this player is listed); the seek chosen is a rated game between both names."""
    async with running_server("127.0.0.1", 0, tmp_path / "server") as server:
        url = f"ws://127.0.0.1:{server.port}"
        me, token = await named(server.port, "Zed")
        await me.close()
        NameBook(tmp_path / "me").keep(url, "Zed", token)
        alice, _ = await named(server.port, "Alice")
        await alice.send("seek", game="dipole", clock="5+3", rated=True, side="black", invite="zed")
        seek = (await alice.read_a("sought"))["seek"]
        white, _ = await named(server.port, "Wanda")
        await white.sit("create", game="death-stacks", side="white", clock="3+2")
        black = await Peer.open(server.port)
        await black.sit("join", room=white.room, invite=white.invite)
        app = make_app("dipole", folder=tmp_path / "me")
        async with app.run_test(size=(80, 24)) as pilot:
            dialog = await the_online_dialog(pilot, url)
            await until(lambda: dialog.query_one("#name", Input).value == "Zed")
            await until(lambda: listed(dialog, "Alice 1500?"))
            seek_row = next(row for row in rows(dialog) if "Alice" in row)
            for said in ("Dipole 8x8", "5+3", "rated", "plays black"):
                assert said in seek_row, (said, seek_row)
            await until(lambda: listed(dialog, "Wanda 1500? v ?"))  # the other has no name
            assert listed(dialog, "Death Stacks")
            await until(lambda: "Wanda 1500? v ?" in screen_text(app))  # it fits in 80x24
            text = screen_text(app)
            assert "Alice 1500?" in text, text
            assert "New room" in text and "Refresh" in text
            option_list = dialog.query_one("#lobby-rows", OptionList)
            option_list.focus()
            option_list.highlighted = next(
                i for i, row in enumerate(dialog.query_one(LobbyList).rows)
                if isinstance(row, OpenSeek)
            )  # fmt: skip
            option_list.action_select()
            await until(lambda: app.game_screen.keeper.online is not None)
            await until(lambda: app.session.players == (HUMAN, REMOTE))
            seated = await alice.read_a("seated")
            assert seated["side"] == 1 and seated["rated"]
            online = app.game_screen.keeper.online
            assert online is not None and online.code == seated["room"] and online.rated
            assert online.name == "Zed" and seek not in online.code
        for peer in (alice, white, black):
            await peer.close()


def title(app: GameApp) -> str:
    """The side panel's title: the game and who plays, on one line."""
    return " ".join(str(app.game_screen.query_one("#title", Static).render()).split())


async def test_a_seek_posted_from_the_dialog_is_taken_by_another_player(
    make_app: AppFactory, tmp_path: Path
) -> None:
    """No name, no seek (said in the dialog); with one typed, the seek waits in the lobby with
    the side and kind chosen, and the game starts when another player takes it."""
    async with running_server("127.0.0.1", 0, tmp_path / "server") as server:
        url = f"ws://127.0.0.1:{server.port}"
        app = make_app("bipod", folder=tmp_path / "me")
        async with app.run_test(size=(80, 24)) as pilot:
            dialog = await the_online_dialog(pilot, url, clock="5+3")
            await until(lambda: "The lobby of" in screen_text(app))
            dialog.query_one("#seek", Button).press()
            await until(lambda: "The lobby is for named players: type" in screen_text(app))
            dialog.query_one("#name", Input).value = "Yann"
            dialog.query_one("#side", Select).value = "white"
            dialog.query_one("#rated", Select).value = "rated"
            dialog.query_one("#seek", Button).press()
            await until(lambda: app.game_screen.keeper.online is not None)
            online = app.game_screen.keeper.online
            assert online is not None
            await until(lambda: bool(online.seeking))
            await until(lambda: "Seeking a game" in screen_text(app))  # the panel's next frame
            assert "Yann, seeking" in title(app) and "hot-seat" not in title(app)
            bob, _ = await named(server.port, "Bob")
            await bob.send("lobby")
            seeks = (await bob.read_a("lobby"))["seeks"]
            assert [(s["name"], s["game"], s["clock"], s["rated"], s["side"]) for s in seeks] == [
                ("Yann", "bipod", "5+3", True, "white")
            ]
            await bob.send("accept", seek=seeks[0]["seek"])
            seated = await bob.read_a("seated")
            assert seated["side"] == 1
            await until(lambda: app.session.players == (HUMAN, REMOTE))
            await until(lambda: online.named[1] is not None and online.named[1].name == "Bob")
            assert online.rated and online.side == 0 and online.name == "Yann"
            await until(lambda: "Yann v Bob" in title(app))
            assert NameBook(tmp_path / "me").find(url) is not None  # the new name kept
            await bob.close()


async def test_a_rated_game_needs_a_clock_and_a_game_going_on_is_watched(
    make_app: AppFactory, tmp_path: Path
) -> None:
    async with running_server("127.0.0.1", 0, tmp_path / "server") as server:
        url = f"ws://127.0.0.1:{server.port}"
        white = await Peer.open(server.port)
        await white.sit("create", game="dipole", side="white")
        black = await Peer.open(server.port)
        await black.sit("join", room=white.room, invite=white.invite)
        await white.send("move", room=white.room, ply=0, move="e1-e3")
        await black.read_a("moved")
        app = make_app("dipole", folder=tmp_path / "me")
        async with app.run_test(size=(80, 24)) as pilot:
            dialog = await the_online_dialog(pilot, url)
            dialog.query_one("#name", Input).value = "Quinn"
            dialog.query_one("#rated", Select).value = "rated"
            dialog.query_one("#create", Button).press()
            await until(lambda: "A rated game needs a clock" in screen_text(app))
            assert app.screen is dialog
            await until(lambda: listed(dialog, "ply 1"))
            lobby = dialog.query_one(LobbyList)
            game = next(i for i, row in enumerate(lobby.rows) if isinstance(row, GameOn))
            option_list = dialog.query_one("#lobby-rows", OptionList)
            option_list.highlighted = game
            option_list.action_select()
            await until(lambda: app.session.state.plies == 1)
            online = app.game_screen.keeper.online
            assert online is not None and online.code == white.room and online.side is None
        for peer in (white, black):
            await peer.close()


async def test_a_kept_name_the_server_refuses_still_shows_the_lobby_anyone_sees(
    make_app: AppFactory, tmp_path: Path
) -> None:
    async with running_server("127.0.0.1", 0, tmp_path / "server") as server:
        url = f"ws://127.0.0.1:{server.port}"
        zed, _ = await named(server.port, "Zed")
        NameBook(tmp_path / "me").keep(url, "Zed", "x" * 32)  # not the name's token
        alice, _ = await named(server.port, "Alice")
        await alice.send("seek", game="dipole")
        await alice.read_a("sought")
        app = make_app("dipole", folder=tmp_path / "me")
        async with app.run_test(size=(80, 24)) as pilot:
            dialog = await the_online_dialog(pilot, url)
            await until(lambda: listed(dialog, "Alice"))
        for peer in (zed, alice):
            await peer.close()


async def test_the_lobby_shows_the_servers_words_as_text_never_markup(
    make_app: AppFactory, tmp_path: Path
) -> None:
    """A variant or a game the program does not know is shown as the server wrote it (the
    codec has escaped what a terminal would act on): brackets stay brackets."""
    app = make_app("dipole", folder=tmp_path / "me")
    async with app.run_test(size=(80, 24)):
        app.push_screen(OnlineScreen(GameChoice("dipole", "8x8", (HUMAN, HUMAN)), "no server"))
        await until(lambda: bool(app.screen.query(LobbyList)))
        dialog = app.screen
        seek = OpenSeek("ABCDEF", "Mal", None, None, "zz", "[b]v[/b]", None, False, None)
        players = (Player("Ann", 1612, False), None)
        game = GameOn("GHJKLM", "dipole", "8x8", "[link=x]1+0", True, players, 3, 2)
        dialog.query_one(LobbyList).show(Lobby((seek,), (game,)))
        await until(lambda: "zz [b]v[/b]" in screen_text(app))
        assert "Ann 1612 v ?" in screen_text(app) and "[link=x]1" in screen_text(app)


def a_dead_port() -> int:
    """A loopback port nothing listens on."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


async def test_o_lists_every_game_on_every_server_your_turn_first(
    make_app: AppFactory, tmp_path: Path
) -> None:
    """Three games on a server (finished, your turn, theirs, kept in that order) and one on a
    server that is down: your turn, theirs, the finished one, then the silent server's line;
    Enter goes back to the first."""
    async with running_server("127.0.0.1", 0, tmp_path / "server") as server:
        url = f"ws://127.0.0.1:{server.port}"
        book = SeatBook(tmp_path / "me")
        peers = []
        for mine, moves, resign in ((0, 0, True), (0, 2, False), (1, 0, False)):
            white, black = await seated_pair(server.port, clock="5+3")
            for ply, move in enumerate(("e1-e3", "d8-d6")[:moves]):
                await (white, black)[ply].send("move", room=white.room, ply=ply, move=move)
                await black.read_a("moved")
            if resign:
                await black.send("resign", room=white.room)
                await black.read_a("ended")
            seat = (white, black)[mine]
            assert seat.secret is not None
            book.keep(RoomSeat(url, white.room, seat.secret, mine, "dipole"))
            peers += [white, black]
        dead = f"ws://127.0.0.1:{a_dead_port()}"
        book.keep(RoomSeat(dead, "QQQQQQ", "s" * 32, 0, "death-stacks"))
        book.keep(RoomSeat(dead, "RRRRRR", "t" * 32, 1, "death-stacks"))
        finished, yours, theirs = (seat.room for seat in book.seats()[:3])
        app = make_app("dipole", folder=tmp_path / "me")
        async with app.run_test(size=(100, 34)) as pilot:
            await pilot.press("o")
            await until(lambda: isinstance(app.screen, OpenScreen))
            games = app.screen.query_one(OnlineGames)

            def prompts() -> list[str]:
                return [str(games.get_option_at_index(i).prompt) for i in range(games.option_count)]

            await until(lambda: "asking" not in " ".join(prompts()))
            said = prompts()
            assert len(said) == 4, said
            assert said[0].startswith(yours) and "your turn, ply 2, 4:5" in said[0]  # of 5:00
            assert said[0].endswith(" left")
            assert said[1].startswith(theirs) and "their turn, ply 0" in said[1]
            assert said[2].startswith(finished) and "you won" in said[2]
            assert said[3] == f"{dead} is not answering (2 games)"
            assert games.get_option_at_index(3).disabled
            await pilot.press("enter")
            await until(lambda: app.game_screen.keeper.online is not None)
            online = app.game_screen.keeper.online
            assert online is not None and online.code == yours
            await until(lambda: online.seated and online.side == 0)
        for peer in peers:
            await peer.close()
