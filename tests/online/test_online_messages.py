"""The online messages as classes (issue 42): docs/protocol.md says each one with exactly its
fields, every one reads back as it was written, a server's message is read as strictly as a
client's, and a message no case answers is refused, never taken for another."""

from __future__ import annotations

import dataclasses
import json
import re
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from types import UnionType
from typing import Any, ClassVar, Union, get_args, get_origin, get_type_hints

import pytest
from online_steps import seated_pair
from paths import ROOT

from dipole_tui.online import protocol
from dipole_tui.online.protocol import (
    CLIENT_TYPES,
    SERVER_TYPES,
    Accept,
    Archive,
    ArchivedGame,
    Asked,
    AskGames,
    AskLobby,
    AskPlayers,
    AskRooms,
    Chat,
    ChatLine,
    Claim,
    Create,
    Decline,
    Declined,
    Draw,
    Ended,
    Error,
    GameOn,
    Hello,
    Join,
    Lobby,
    Message,
    Move,
    Moved,
    Named,
    Offer,
    OpenSeek,
    Ping,
    Player,
    PlayerList,
    Pong,
    ProtocolError,
    Ranked,
    Rematch,
    Rematched,
    Resign,
    RoomCode,
    RoomList,
    RoomSummary,
    Say,
    Seated,
    SeatKey,
    Seats,
    Seek,
    Sought,
    TakeBack,
    TakenBack,
    Watch,
    Welcome,
    WholeGame,
    read_message,
    read_reply,
    write_message,
)
from dipole_tui.online.server import GameServer, running_server

DOCS = ROOT / "docs" / "protocol.md"
SECRET = "s" * 32
BOTH = (True, True)

# One of each message, either way, with every field given.
SAMPLES: list[Message] = [
    Hello(3, "dipole-tui 1.0"),
    Create("dipole", "8x8", "white", "5+3", True),
    Join("K7QMWD", SECRET, "i" * 24, 17),
    Watch("K7QMWD", 17),
    Move("K7QMWD", 0, "e1-e3"),
    Resign("K7QMWD"),
    Draw("K7QMWD"),
    AskRooms((SeatKey("K7QMWD", SECRET),)),
    Claim("Alice_2-b", SECRET),
    AskPlayers("dipole", "blitz"),
    Seek("dipole", "8x8", "5+3", True, "white", 200, "bob"),
    Accept("Q2W3E4"),
    AskLobby("dipole"),
    TakeBack("K7QMWD"),
    Rematch("K7QMWD"),
    Decline("K7QMWD", "draw"),
    Say("K7QMWD", "good game"),
    AskGames("Alice", "dipole", "K7QMWD"),
    Ping(),
    Welcome(3, "dipole-tui"),
    Named("Alice_2-b", SECRET),
    Error("refused", "the game is over", "K7QMWD"),
    Seated("K7QMWD", 1, SECRET, None, "dipole", "8x8", None, 0, True),
    WholeGame(
        "K7QMWD",
        "[Game]\n\n*\n",
        0,
        (300.0, 299.5),
        0,
        BOTH,
        (True, False),
        2,
        None,
        0,
        (Player("Alice", 1500, True), None),
    ),
    Moved("K7QMWD", 0, "e1-e3", 0, None, None, 1),
    Ended("K7QMWD", "1-0", "Black resigned", "[Game]\n\n1-0\n", 3, (12, -12)),
    Offer("K7QMWD", 1, 2),
    Seats("K7QMWD", BOTH, BOTH, 0, None, None, (None, Player("bob", 1712, False))),
    RoomList((RoomSummary("K7QMWD", "dipole", "8x8", 0, 1, 3, None, "3d", 200_000.5, False),)),
    PlayerList("dipole", (Ranked("Alice", "blitz", 1620, False, 12),)),
    Sought("Q2W3E4"),
    Lobby(
        (OpenSeek("Q2W3E4", "Alice", 1500, True, "dipole", "8x8", "5+3", True, "white"),),
        (GameOn("K7QMWD", "bipod", "standard", None, False, (Player("bob"), None), 12, 3),),
    ),
    Asked("K7QMWD", 0, "takeback", 4),
    Declined("K7QMWD", 1, "takeback", 5),
    TakenBack("K7QMWD", 2, (280.0, 290.5), 0, 6),
    Rematched("K7QMWD", "Q2W3E4", 7),
    Chat("K7QMWD", (ChatLine("Alice", 0, "good game"), ChatLine(None, None, "well played")), True),
    Archive(
        "Alice",
        (
            ArchivedGame(
                "K7QMWD",
                "dipole",
                "8x8",
                "5+3",
                True,
                "Alice",
                None,
                "1-0",
                "Black resigned",
                "2025.06.01",
                "[Game]\n\n1-0\n",
            ),
        ),
        True,
        120,
    ),
    Pong(),
]


def documented(section: str) -> dict[str, list[str]]:
    """The fields of each message of a table of docs/protocol.md (`name?`: it may be left out;
    `{a, b}`: the fields of the objects a list holds), as written there."""
    text = DOCS.read_text(encoding="utf-8")
    table = text.split(f"## {section}\n", 1)[1].split("\n## ", 1)[0]
    found: dict[str, list[str]] = {}
    for row in re.findall(r"^\| `(\w+)` \|([^|]*)\|", table, re.MULTILINE):
        kind, cell = row
        objects = [f"{{{inner}}}" for inner in re.findall(r"\{([^}]*)\}", cell)]
        while re.search(r"\([^()]*\)", cell):  # what a field holds, said in brackets
            cell = re.sub(r"\([^()]*\)", "", cell)
        found[kind] = [f"{name}{optional}" for name, optional in re.findall(r"`(\w+)`(\??)", cell)]
        found[kind] += objects
    return found


def fields_of(cls: type[Any]) -> list[str]:
    """A message class's fields as docs/protocol.md writes them, then those of the objects its
    lists hold."""
    said = [
        field.name + ("?" if field.default is None else "") for field in dataclasses.fields(cls)
    ]
    for hint in get_type_hints(cls).values():  # Annotated stripped
        tuple_of = present(hint)
        inner = present(get_args(tuple_of)[0]) if get_origin(tuple_of) is tuple else None
        if inner is not None and dataclasses.is_dataclass(inner):
            fields = dataclasses.fields(inner)
            said.append(
                "{" + ", ".join(f.name + ("?" if f.default is None else "") for f in fields) + "}"
            )
    return said


def present(hint: Any) -> Any:
    """`X` of `X | None`, else the hint itself."""
    if get_origin(hint) in (Union, UnionType):
        return next(arg for arg in get_args(hint) if arg is not type(None))
    return hint


@pytest.mark.parametrize(
    ("section", "kinds"),
    [("Client to server", CLIENT_TYPES), ("Server to client", SERVER_TYPES)],
)
def test_the_docs_say_every_message_with_exactly_its_fields(
    section: str, kinds: dict[str, type[Any]]
) -> None:
    said = documented(section)
    assert list(said) == list(kinds), f"{section}: the docs' messages are not the protocol's"
    for kind, cls in kinds.items():
        assert said[kind] == fields_of(cls), f"{section}: '{kind}'"


def test_the_docs_check_would_see_a_field_missing() -> None:
    """The check reads the table as a person does: brackets say what a field holds."""
    assert documented("Client to server")["create"] == [
        "game",
        "variant?",
        "side?",
        "clock?",
        "rated?",
    ]
    assert documented("Server to client")["rooms"] == [
        "rooms",
        "{room, game, variant, side, to_move, plies, result, clock, left?, waiting?}",
    ]
    assert fields_of(Error) == ["code", "text", "room?"]


def test_every_message_reads_back_as_it_was_written() -> None:
    assert {type(message) for message in SAMPLES} == {
        *CLIENT_TYPES.values(),
        *SERVER_TYPES.values(),
    }
    for message in SAMPLES:
        frame = write_message(message)
        assert json.loads(frame)["type"] == message.TYPE
        read = read_message(frame) if type(message) in CLIENT_TYPES.values() else read_reply(frame)
        assert read == message, frame


@pytest.mark.parametrize(
    ("frame", "says"),
    [
        ('{"type": "moved", "room": "K7QMWD", "ply": "one", "move": "e1-e3", "side": 0}', "ply"),
        ('{"type": "offer", "room": "K7QMWD", "side": 2, "version": 1}', "'side' from 0 to 1"),
        ('{"type": "offer", "room": "K7QMWD", "side": 1}', "'offer' needs 'version'"),
        ('{"type": "welcome", "version": 2}', "needs 'server'"),
        ('{"type": "seats", "room": "K7QMWD", "seats": [true], "online": [true, true]}', "seats"),
        ('{"type": "rooms", "rooms": [{"room": "K7QMWD"}]}', "needs 'game'"),
        ('{"type": "flash", "text": "hi"}', "unknown message type 'flash'"),
        (  # a game's key the seat book could not read back: it would set the book aside
            '{"type": "seated", "room": "K7QMWD", "side": 0, "secret": null, "invite": null, '
            f'"game": "{"x" * 3000}", "variant": "8x8", "clock": null, "version": 0}}',
            "not a game's key",
        ),
    ],
)
def test_a_server_message_of_the_wrong_shape_is_refused(frame: str, says: str) -> None:
    """The client reads what a server sends by the same classes: a field missing or of the
    wrong kind is no message (the link then connects again), never half of one."""
    with pytest.raises(ProtocolError, match=re.escape(says)):
        read_reply(frame)


def test_a_servers_text_arrives_displayable_and_may_span_lines() -> None:
    """issue 40's sanitizing holds for every string of every class: none reaches the screen raw."""
    sent = Ended("K7QMWD", "1-0", "\x1b]52;c;aGk=\x07 resigned", "[Game]\n\n1-0\n", 1)
    ended = read_reply(write_message(sent))
    assert ended == Ended("K7QMWD", "1-0", "\\x1b]52;c;aGk=\\x07 resigned", "[Game]\n\n1-0\n", 1)
    with pytest.raises(ProtocolError, match="too long or not text"):
        read_message(write_message(Move("K7QMWD", 0, "e1\ne3")))


@dataclasses.dataclass(frozen=True)
class Takeback:
    """A message the codec would read but no case of the server answers."""

    TYPE: ClassVar[str] = "takeback"
    room: RoomCode


@pytest.fixture
async def server(tmp_path: Path) -> AsyncIterator[GameServer]:
    async with running_server("127.0.0.1", 0, tmp_path) as running:
        yield running


async def test_a_message_no_case_answers_is_refused_not_taken_for_a_draw(
    server: GameServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A type added to the codec and forgotten in the server's dispatch (mypy says so first)
    is refused with its name, and the game is as it was: no draw offered, none accepted."""
    monkeypatch.setitem(protocol.CLIENT_TYPES, "takeback", Takeback)
    white, black = await seated_pair(server.port, "bipod")
    said = await white.refused("takeback", room=white.room)
    assert said["code"] == "unknown-type" and said["room"] == white.room
    assert said["text"] == "'takeback' is not answered here"
    await black.send("draw", room=white.room)
    offer = await white.read_a("offer")  # Black's offer stands: White offered nothing
    assert offer["side"] == 1
    await white.close()
    await black.close()


DISPATCH = """
from dipole_tui.online import protocol
from dipole_tui.online.protocol import ServerMessage, RoomList, Welcome, unanswered

def answer(message: ServerMessage) -> str:
    match message:
        case RoomList() | Welcome(){more}:
            return "answered"
        case _:
            raise unanswered(message)
"""


def test_a_message_type_a_dispatch_misses_fails_the_type_check(tmp_path: Path) -> None:
    """What makes every dispatch whole: mypy names the type a `match` misses."""
    root = ROOT

    def mypy(more: str) -> str:
        path = tmp_path / "dispatch.py"
        path.write_text(DISPATCH.format(more=more), encoding="utf-8")
        command = [sys.executable, "-m", "mypy", "--strict", "--no-error-summary"]
        command += ["--cache-dir", str(tmp_path / "cache"), str(path)]
        return subprocess.run(command, cwd=root, capture_output=True, text=True).stdout

    def cases(but: tuple[str, ...] = ()) -> str:
        kinds = [cls.__name__ for cls in SERVER_TYPES.values() if cls.__name__ not in but]
        return "".join(f" | protocol.{kind}()" for kind in kinds)

    # mypy names a few types missed in full (a long union it cuts short: "<7 more items>")
    missed = mypy(cases(but=("Ended", "Offer", "Pong")))
    assert 'Argument 1 to "unanswered" has incompatible type "Ended | Offer | Pong"' in missed
    assert 'expected "Never"' in mypy("")
    assert mypy(cases()).replace(str(tmp_path), "") == ""
