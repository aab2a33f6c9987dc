"""Your turn elsewhere: the watcher of the player's other online games (control/game_news.py)
against a real server on loopback, alone and in the app: a move by the opponent is news (a
notice, the bell, the window's title counting the games waiting), opening the game clears it,
leaving it watches it again; a server that is down is no error."""

from __future__ import annotations

import socket
from pathlib import Path
from typing import Any

import pytest
from app_steps import AppFactory, noticed, type_move, until
from online_steps import Peer, seated_pair

from dipole_tui.control import game_news
from dipole_tui.control.choice import OnlineChoice
from dipole_tui.control.game_news import GameNews, Room, room_of
from dipole_tui.online.my_games import Turn
from dipole_tui.online.seat import RoomSeat, SeatBook
from dipole_tui.online.server import running_server


def a_dead_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


async def a_game(port: int, me: int, book: SeatBook) -> tuple[Peer, Peer]:
    """A room of two, its seat of side `me` kept in the book (the player's connection closed:
    only the book holds it); (the player's peer, the opponent's)."""
    white, black = await seated_pair(port)
    mine = (white, black)[me]
    assert mine.secret is not None
    book.keep(RoomSeat(f"ws://localhost:{port}", white.room, mine.secret, me, "dipole"))
    return mine, (white, black)[1 - me]


async def test_a_move_by_the_opponent_is_news_once_and_a_game_over_is_not_asked_again(
    tmp_path: Path,
) -> None:
    async with running_server("127.0.0.1", 0, tmp_path / "server") as server:
        book = SeatBook(tmp_path / "me")
        waiting, opponent = await a_game(server.port, 0, book)  # white to move: the player's
        mine, theirs = await a_game(server.port, 1, book)  # the opponent's
        book.keep(RoomSeat(f"ws://127.0.0.1:{a_dead_port()}", "ZZZZZZ", "s" * 32, 0, "dipole"))
        screen: list[Room | None] = [None]  # the room on screen
        news = GameNews(book, lambda: screen[0])
        first = await news.look()
        assert first.first and first.moved == () and first.waiting == 1
        again = await news.look()  # nothing moved
        assert not again.first and again.moved == () and again.waiting == 1
        await theirs.send("move", room=theirs.room, ply=0, move="e1-e3")
        await mine.read_a("moved")
        moved = await news.look()
        assert [game.seat.room for game in moved.moved] == [theirs.room]
        assert moved.waiting == 2 and sorted(r for _, r in news.waiting()) == sorted(
            [theirs.room, waiting.room]
        )
        assert (await news.look()).moved == ()  # told once
        await theirs.send("resign", room=theirs.room)
        await mine.read_a("ended")
        ended = await news.look()
        assert ended.moved == () and ended.waiting == 1
        assert room_of(f"ws://localhost:{server.port}", theirs.room) in news.over
        opened = room_of(f"ws://127.0.0.1:{server.port}", waiting.room)
        screen[0] = opened
        news.seen()
        assert news.waiting() == [] and (await news.look()).waiting == 0
        await waiting.send("move", room=waiting.room, ply=0, move="e1-e3")
        await opponent.read_a("moved")
        news.left(opened, Turn.THEIRS, 1)  # left after the player's move
        screen[0] = None
        await opponent.send("move", room=waiting.room, ply=1, move="d8-d6")
        await waiting.read_a("moved")
        assert [game.seat.room for game in (await news.look()).moved] == [waiting.room]
        for peer in (waiting, opponent, mine, theirs):
            await peer.close()


async def test_the_app_says_it_rings_and_counts_in_the_title_until_the_game_is_opened(
    make_app: AppFactory, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A game waiting at the start is said once, without the bell, and counted; the opponent
    moves in another game not on screen: a notice, the bell, "(2) dipole-tui"; opened, that one
    is not counted; played and left, the opponent's next move is news again."""
    monkeypatch.setattr(game_news, "EVERY", 0.1)
    async with running_server("127.0.0.1", 0, tmp_path / "server") as server:
        url = f"ws://127.0.0.1:{server.port}"
        book = SeatBook(tmp_path / "me")
        first, other = await a_game(server.port, 0, book)  # the player's turn from the start
        mine, theirs = await a_game(server.port, 1, book)
        await mine.close()
        book.keep(RoomSeat(f"ws://127.0.0.1:{a_dead_port()}", "ZZZZZZ", "s" * 32, 0, "dipole"))
        app = make_app("dipole", folder=tmp_path / "me")
        rang: list[bool] = []

        def bell(*_: Any) -> None:
            rang.append(True)

        app.bell = bell  # type: ignore[method-assign]
        async with app.run_test(size=(100, 34)) as pilot:
            await until(lambda: app.title == "(1) dipole-tui")
            assert noticed(app, "1 of your online games waits for your move (o lists them).")
            assert rang == []
            await theirs.send("move", room=theirs.room, ply=0, move="e1-e3")
            await until(lambda: app.title == "(2) dipole-tui")
            await until(lambda: noticed(app, f"Your turn in Dipole {theirs.room}"))
            assert rang == [True]
            app.game_screen.go_online(OnlineChoice(url, "join", room=theirs.room))
            await until(lambda: app.title == "(1) dipole-tui")
            await until(lambda: app.session.state.plies == 1)
            await type_move(pilot, "d8-d6")
            await theirs.read_a("moved")
            monkeypatch.setattr(game_news, "EVERY", 3600.0)
            await pilot.pause(1.0)  # the last short wait over: no look until this test's own
            app.game_screen.leave_online()
            await pilot.pause()
            await theirs.send("move", room=theirs.room, ply=2, move="e3-e5")
            await theirs.read_a("moved")  # stored
            app.online_news._told(await app.online_news.news.look())
            assert app.title == "(2) dipole-tui" and rang == [True, True]
        for peer in (first, other, theirs):
            await peer.close()


def test_a_game_is_said_from_the_players_side_with_its_time_left() -> None:
    from dipole_tui.online.my_games import MyGame
    from dipole_tui.online.protocol import RoomSummary

    seat = RoomSeat("ws://localhost:1", "K7QMWD", "s" * 32, 0, "dipole")

    def said(**fields: Any) -> tuple[Turn, str]:
        summary = RoomSummary(**{"room": "K7QMWD", "game": "dipole", "variant": "8x8",
                                 "side": 0, "to_move": 0, "plies": 4, "result": None,
                                 "clock": "3d", **fields})  # fmt: skip
        game = MyGame(seat, summary)
        return game.turn, game.state()

    assert said(left=2 * 86_400 + 7 * 3600 + 5) == (Turn.YOURS, "your turn, ply 4, 2d 7h left")
    assert said(to_move=1, left=None) == (Turn.THEIRS, "their turn, ply 4, clock 3d")
    assert said(waiting=True) == (Turn.THEIRS, "waiting for an opponent")  # nobody to play yet
    assert said(result="0-1") == (Turn.OVER, "you lost")


async def test_the_rooms_answer_says_a_room_waits_for_its_second_player(tmp_path: Path) -> None:
    async with running_server("127.0.0.1", 0, tmp_path) as server:
        white = await Peer.open(server.port)
        await white.sit("create", game="dipole", side="white")
        asked = {"rooms": [{"room": white.room, "secret": white.secret}]}
        await white.send("rooms", **asked)
        assert (await white.read_a("rooms"))["rooms"][0]["waiting"] is True
        black = await Peer.open(server.port)
        await black.sit("join", room=white.room, invite=white.invite)
        await white.send("rooms", **asked)
        assert (await white.read_a("rooms"))["rooms"][0]["waiting"] is False
