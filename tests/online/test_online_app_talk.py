"""The app's side of take-backs, rematches and chat (issue 43): the app under Pilot in one seat
of a real server on loopback, a plain protocol client (Peer) in the other."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from app_steps import AppFactory, message, noticed, type_move, until
from online_steps import Peer
from test_online_app import a_new_room, invite_of, plies, room_of
from textual.widgets import Input, Log

from dipole_tui.app.dialogs.chat import ChatScreen
from dipole_tui.app.dialogs.choice import ChoiceScreen
from dipole_tui.online.server import running_server
from dipole_tui.session import HUMAN, REMOTE


async def next_of(peer: Peer, kind: str) -> dict[str, Any]:
    """The next message of that kind; whatever comes before it is passed over."""
    while (message := await peer.read())["type"] != kind:
        pass
    return message


async def test_take_back_chat_and_rematch_through_the_apps_dialogs(
    make_app: AppFactory, tmp_path: Path
) -> None:
    async with running_server("127.0.0.1", 0, tmp_path / "server") as server:
        app = await a_new_room(make_app, server.port, "death-stacks", tmp_path / "white")
        async with app.run_test(size=(100, 34)) as pilot:
            await until(lambda: bool(room_of(app)))
            friend = await Peer.open(server.port)
            await friend.sit("join", room=room_of(app), invite=invite_of(app))
            await until(lambda: app.session.players == (HUMAN, REMOTE))
            await type_move(pilot, "a1-1-a2")
            await next_of(friend, "moved")
            # u asks the other player, who accepts: the move goes
            await pilot.press("u")
            assert (await next_of(friend, "asked"))["what"] == "takeback"
            await until(lambda: "Take-back asked" in message(app))
            await friend.send("takeback", room=friend.room)
            await until(lambda: plies(app) == 0)
            assert "taken back, as both players agreed" in message(app)
            assert not app.session.redo_moves  # nothing to replay here alone
            # the other's take-back is put as a question: declined
            await type_move(pilot, "a1-1-a2")
            await next_of(friend, "moved")
            await friend.send("move", room=friend.room, ply=1, move="f6-1-f5")
            await until(lambda: plies(app) == 2)
            await friend.send("takeback", room=friend.room)
            await until(lambda: isinstance(app.screen, ChoiceScreen))
            await pilot.press("escape")  # Decline is the harmless answer
            declined = await next_of(friend, "declined")
            assert (declined["what"], declined["side"]) == ("takeback", 0)
            assert plies(app) == 2
            # chat: a line from the other arrives as a toast; C opens the chat; a line is said
            await friend.send("say", room=friend.room, text="well played \x1b]0;pwned\x07")
            await next_of(friend, "chat")  # its own line, heard back
            await until(lambda: noticed(app, "Black: well played"))
            assert not any("\x1b" in str(n.message) for n in app._notifications)
            await pilot.press("C")
            await until(lambda: isinstance(app.screen, ChatScreen))
            log = app.screen.query_one(Log)
            assert "Black: well played \\x1b]0;pwned\\x07" in "\n".join(log.lines)
            app.screen.query_one(Input).value = "thanks"
            await pilot.press("enter")
            assert (await next_of(friend, "chat"))["lines"][0]["text"] == "thanks"
            await until(lambda: "Red: thanks" in "\n".join(log.lines))
            app.screen.query_one(Input).value = "/mute"
            await pilot.press("enter")
            await until(lambda: "hidden" in log.lines[-1])
            await pilot.press("escape")
            # the end, and a rematch from the game-over dialog: the other accepts
            await friend.send("resign", room=friend.room)
            await until(lambda: isinstance(app.screen, ChoiceScreen))
            old = room_of(app)
            await pilot.press("enter")  # Rematch is the first answer
            assert (await next_of(friend, "asked"))["what"] == "rematch"
            await friend.send("rematch", room=old)
            seated = await next_of(friend, "seated")
            await until(lambda: room_of(app) == seated["room"] != old)
            assert seated["side"] == 0  # the friend plays first now
            await until(lambda: app.keeper.online is not None and app.keeper.online.side == 1)
            assert app.session.outcome is None and plies(app) == 0
            await friend.close()
