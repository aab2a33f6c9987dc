"""The online protocol: every message, either way, a frozen dataclass, read strictly and written
one way.

On the wire a message is a JSON object in a WebSocket text frame: its class's `TYPE` as `type`,
and its fields. `read_message` reads what a client sends, `read_reply` what a server sends;
both through `codec.py`, which reads a field by its annotation, so a frame that is not JSON, not
an object, of an unknown type, or with a field missing, of the wrong kind or out of bounds is
refused with one `ProtocolError`, whose `code` and text the server sends back as an `Error`;
nothing of it reaches a room.
docs/protocol.md is the reference for people (a test holds it to these classes, field by field).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Annotated, ClassVar, Final, get_args

from .codec import (
    BAD_JSON,
    BAD_MESSAGE,
    UNKNOWN_TYPE,
    ProtocolError,
    Shape,
    read,
    unanswered,
    write_message,
)

# Raised whenever a message changes meaning; `hello` carries it. 2: `join` without a secret or
# an invitation watches (in 1 it took the free seat); `rooms` asks after 50 rooms at most.
# 3: a room's events carry its `version`, and `join` and `watch` ask for those `since` one.
# 4: `claim` plays under a name; `seats` and `game` say the seats' players; rated games and
# `players`, the leaderboard; the lobby: `seek`, `accept`, `lobby`. 5: rematches, take-backs,
# chat, correspondence (`days`), a player's finished games (`games`); a client of 4 is sent none
# of the messages new in 5 (`Client.version`).
VERSION: Final = 5
# A client of 2 is answered still: it sends no `since` (so it gets the whole game, as from a
# server of 2) and passes over the `version` fields, as a reader passes over fields it lacks.
OLDEST_CLIENT: Final = 2
MOST_BYTES: Final = 16_000  # a longer client frame is closed: a client never sends a record
ROOM_LETTERS: Final = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no I, O, 0, 1: read aloud, typed right
ROOM_CODE: Final = re.compile(r"[A-Za-z0-9]{4,12}")
SIDES: Final = ("white", "black", "random")
MOST_ROOMS_ASKED: Final = 50  # a client with more seats asks in several messages
MOST_PLAYERS_LISTED: Final = 50  # the leaderboard's length
MOST_LISTED: Final = 100  # seeks, and games going on, a lobby lists at most
MOST_ARCHIVED: Final = 50  # finished games a page of `games` holds at most
ARCHIVE_TEXT: Final = 500_000  # characters of records a page holds at most (but its first one)

# Error codes, the `code` of an `Error`, beside the codec's: stable words a program may match on.
UPGRADE: Final = "upgrade"  # the client's protocol version is not the server's
HELLO_FIRST: Final = "hello-first"
NO_ROOM: Final = "no-room"
TOO_MANY_ROOMS: Final = "too-many-rooms"
TOO_FAST: Final = "too-fast"
REFUSED: Final = "refused"  # a move or act the rules or the seats refuse: the text says why
NAME_TAKEN: Final = "name-taken"  # claimed by another player (names are told apart in any case)

_TEXT = 200  # longest text a client sends (a move, a game key) in characters
SECRET: Final = re.compile(r"[A-Za-z0-9_-]{16,64}")  # a seat's secret, an invitation's key, a token
# A player's name: ASCII letters, digits, _ and -, so no two look alike; unique in any case.
PLAYER_NAME: Final = re.compile(r"[A-Za-z0-9_-]{3,20}")
# An invitation as people pass it on: the room's code, a dash, the key of its free seat.
INVITATION: Final = re.compile(r"([A-Za-z0-9]{4,12})-([A-Za-z0-9_-]{16,64})")


# The kinds of fields, with their bounds (a `range` bounds a number, or a list's length).
RoomCode = Annotated[str, Shape(ROOM_CODE, "a room code is 4 to 12 letters and digits")]
Secret = Annotated[str, Shape(SECRET, "that is not a seat's secret")]
InviteKey = Annotated[str, Shape(SECRET, "that is not an invitation's key")]
GameKey = Annotated[str, Shape(re.compile(r"[a-z0-9-]{1,40}"), "that is not a game's key")]
Token = Annotated[str, Shape(SECRET, "that is not a name's token")]
PlayerName = Annotated[
    str, Shape(PLAYER_NAME, "a name is 3 to 20 letters (a-z, A-Z), digits, _ or -")
]
Side = Annotated[int, range(2)]  # 0 moves first
RatingChange = Annotated[int, range(-4000, 4001)]  # ratings are 0 to 4000 (learn/rating.py)
RatingRange = Annotated[int, range(4001)]
SideAsked = Annotated[str, Shape(re.compile("|".join(SIDES)), "'side' is white, black or random")]
Clocks = tuple[float, float]  # white's and black's time left, in seconds
# What a player may ask of the other (a draw is `draw`/`offer`, from protocol 1).
Asking = Annotated[str, Shape(re.compile("takeback|rematch"), "'what' is takeback or rematch")]
Declining = Annotated[
    str, Shape(re.compile("draw|takeback|rematch"), "'what' is draw, takeback or rematch")
]
CHAT_LENGTH: Final = 140  # characters of a chat line
ChatText = Annotated[
    str,
    Shape(
        re.compile(rf"(?=.*\S).{{1,{CHAT_LENGTH}}}"),
        f"a chat line is 1 to {CHAT_LENGTH} characters",
    ),
]
MOST_CHAT: Final = 50  # chat lines a room sends a client that comes in
Speed = Annotated[
    str,
    Shape(
        re.compile("bullet|blitz|rapid|classical|correspondence"),
        "a speed is bullet, blitz, rapid, classical or correspondence",
    ),
]


# -- client to server ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Hello:
    """The first words: the client's protocol version (another one is told to upgrade)."""

    TYPE: ClassVar[str] = "hello"
    version: int
    client: str | None = None


@dataclass(frozen=True)
class Create:
    """A new room of that game, the creator seated on the side asked (random by default)."""

    TYPE: ClassVar[str] = "create"
    game: GameKey
    variant: str | None = None
    side: SideAsked | None = None
    clock: str | None = None  # "5+3": minutes, and seconds added a move; "3d": days a move
    rated: bool | None = None  # a rated game: the creator has a name, the game a clock


@dataclass(frozen=True)
class Join:
    """The seat `secret` keeps, the free seat `invite` opens, or (neither) a place to watch;
    with `since`, the room's events after that version rather than its whole game (when the
    server still has them all)."""

    TYPE: ClassVar[str] = "join"
    room: RoomCode
    secret: Secret | None = None
    invite: InviteKey | None = None
    since: int | None = None


@dataclass(frozen=True)
class Watch:
    TYPE: ClassVar[str] = "watch"
    room: RoomCode
    since: int | None = None


@dataclass(frozen=True)
class Move:
    """A move in the game's notation, played after `ply` plies (a stale one is refused)."""

    TYPE: ClassVar[str] = "move"
    room: RoomCode
    ply: int
    move: str


@dataclass(frozen=True)
class Resign:
    TYPE: ClassVar[str] = "resign"
    room: RoomCode


@dataclass(frozen=True)
class Draw:
    """A draw offered, or the opponent's standing offer accepted."""

    TYPE: ClassVar[str] = "draw"
    room: RoomCode


@dataclass(frozen=True)
class TakeBack:
    """Ask to take back the sender's last move (casual games), or accept the opponent's ask."""

    TYPE: ClassVar[str] = "takeback"
    room: RoomCode


@dataclass(frozen=True)
class Rematch:
    """Once the game is over: offer the same game again, colours swapped, or accept the offer."""

    TYPE: ClassVar[str] = "rematch"
    room: RoomCode


@dataclass(frozen=True)
class Decline:
    """Say no to the opponent's standing draw offer, take-back or rematch."""

    TYPE: ClassVar[str] = "decline"
    room: RoomCode
    what: Declining


@dataclass(frozen=True)
class Say:
    """A chat line: to everyone in the room from a player, to the watchers from a watcher."""

    TYPE: ClassVar[str] = "say"
    room: RoomCode
    text: ChatText


@dataclass(frozen=True)
class SeatKey:
    """A seat a player holds, as `AskRooms` names it."""

    room: RoomCode
    secret: Secret


@dataclass(frozen=True)
class AskRooms:
    """How the player's own games stand: answered by a `RoomList` of those the secrets hold."""

    TYPE: ClassVar[str] = "rooms"
    rooms: Annotated[tuple[SeatKey, ...], range(MOST_ROOMS_ASKED + 1)]


@dataclass(frozen=True)
class Claim:
    """Play under a name on this server: a new one (no token: the server keeps the name for
    this player and answers with its token), or one claimed before, with its token."""

    TYPE: ClassVar[str] = "claim"
    name: PlayerName
    token: Token | None = None


@dataclass(frozen=True)
class Seek:
    """A game wanted, posted in the lobby until someone accepts it or a seek that fits comes
    (quick pairing); it leaves with its connection. `range`: the most the other's rating may
    differ; `invite`: only that player sees it."""

    TYPE: ClassVar[str] = "seek"
    game: GameKey
    variant: str | None = None
    clock: str | None = None
    rated: bool | None = None
    side: SideAsked | None = None
    range: RatingRange | None = None
    invite: PlayerName | None = None


@dataclass(frozen=True)
class Accept:
    """Play the lobby's seek `seek`: a room for both, each told `seated` and `game`."""

    TYPE: ClassVar[str] = "accept"
    seek: RoomCode


@dataclass(frozen=True)
class AskLobby:
    """The open seeks this player may accept, and the games going on to watch: a `Lobby`."""

    TYPE: ClassVar[str] = "lobby"
    game: GameKey | None = None


@dataclass(frozen=True)
class AskPlayers:
    """The leaderboard of a game (at one speed, or all): answered by a `PlayerList`."""

    TYPE: ClassVar[str] = "players"
    game: GameKey
    speed: Speed | None = None


@dataclass(frozen=True)
class AskGames:
    """A player's finished games, newest first (of one game, or all), each with its record: a
    page, after the game of room `before` (the last one of the page before): an `Archive`."""

    TYPE: ClassVar[str] = "games"
    name: PlayerName
    game: GameKey | None = None
    before: RoomCode | None = None


@dataclass(frozen=True)
class Ping:
    TYPE: ClassVar[str] = "ping"


ClientMessage = (
    Hello
    | Create
    | Join
    | Watch
    | Move
    | Resign
    | Draw
    | AskRooms
    | Claim
    | AskPlayers
    | Seek
    | Accept
    | AskLobby
    | TakeBack
    | Rematch
    | Decline
    | Say
    | AskGames
    | Ping
)


# -- server to client ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Welcome:
    TYPE: ClassVar[str] = "welcome"
    version: int
    server: str


@dataclass(frozen=True)
class Player:
    """A seat's player as a room shows them: the name, and its rating in the room's game at the
    room's speed (none without a clock), `provisional` before its tenth rated game."""

    name: PlayerName
    rating: int | None = None
    provisional: bool | None = None


Players = tuple[Player | None, Player | None]  # white's and black's (None: no name)


@dataclass(frozen=True)
class Named:
    """The connection plays as `name` (as it was first written); `token` only when the name is
    new: the one key to it, kept by the player and by the server as a digest only."""

    TYPE: ClassVar[str] = "named"
    name: PlayerName
    token: Token | None = None


@dataclass(frozen=True)
class Error:
    """A refusal: `code` for programs, `text` for people; `room` when it is about a room."""

    TYPE: ClassVar[str] = "error"
    code: str
    text: str
    room: RoomCode | None = None


@dataclass(frozen=True)
class Seated:
    """A seat (or a place to watch: side and secret None) given: `WholeGame` follows, or the
    events after the `since` asked and then `Seats`; either brings the client to `version`."""

    TYPE: ClassVar[str] = "seated"
    room: RoomCode
    side: Side | None
    secret: Secret | None  # the seat: kept by the player, to come back with
    invite: InviteKey | None  # the key to the free seat: to its creator only, while it is free
    game: GameKey
    variant: str
    clock: str | None
    version: int  # the room's now
    rated: bool | None = None  # (protocol 4)


@dataclass(frozen=True)
class WholeGame:
    """The room's whole game as the server has it: its record, seats and clocks."""

    TYPE: ClassVar[str] = "game"
    room: RoomCode
    record: str
    plies: int
    clocks: Clocks | None
    running: Side | None  # the side whose clock runs
    seats: tuple[bool, bool]  # taken
    online: tuple[bool, bool]  # with a connection now
    watchers: int
    offer: Side | None  # the side whose draw offer stands
    version: int  # the room's last event's
    players: Players | None = None  # the seats' named players (protocol 4)


@dataclass(frozen=True)
class Moved:
    """A move played and stored (the mover's acknowledgement)."""

    TYPE: ClassVar[str] = "moved"
    room: RoomCode
    ply: int
    move: str
    side: Side
    clocks: Clocks | None
    running: Side | None
    version: int  # this event's: the room's count of events, with it


@dataclass(frozen=True)
class Ended:
    TYPE: ClassVar[str] = "ended"
    room: RoomCode
    result: str  # 1-0, 0-1, 1/2-1/2
    reason: str
    record: str
    version: int
    changes: tuple[RatingChange, RatingChange] | None = None  # a rated game: each side's


@dataclass(frozen=True)
class Offer:
    """A draw offered by `side`: it stands until the next move."""

    TYPE: ClassVar[str] = "offer"
    room: RoomCode
    side: Side
    version: int


@dataclass(frozen=True)
class Asked:
    """A take-back or a rematch asked by `side`: it stands until the next move (a rematch,
    until its asker leaves)."""

    TYPE: ClassVar[str] = "asked"
    room: RoomCode
    side: Side
    what: Asking
    version: int


@dataclass(frozen=True)
class Declined:
    """`side` said no to the other's draw offer, take-back or rematch."""

    TYPE: ClassVar[str] = "declined"
    room: RoomCode
    side: Side
    what: Declining
    version: int


@dataclass(frozen=True)
class TakenBack:
    """A take-back agreed: the game goes back to `plies` plies, the clocks to their times
    then."""

    TYPE: ClassVar[str] = "takenback"
    room: RoomCode
    plies: int
    clocks: Clocks | None
    running: Side | None
    version: int


@dataclass(frozen=True)
class Rematched:
    """A rematch agreed: its room's code (the players are seated there next)."""

    TYPE: ClassVar[str] = "rematched"
    room: RoomCode
    next: RoomCode
    version: int


@dataclass(frozen=True)
class ChatLine:
    name: str | None  # the speaker's name, if it has one
    side: Side | None  # None: a watcher
    text: str


@dataclass(frozen=True)
class Chat:
    """Chat lines: the room's last ones to a client coming in, then each new one."""

    TYPE: ClassVar[str] = "chat"
    room: RoomCode
    lines: Annotated[tuple[ChatLine, ...], range(MOST_CHAT + 1)]
    before: bool | None = None  # true: the lines said before the client came in


@dataclass(frozen=True)
class Seats:
    """Someone came, went or came back; the clocks with it (they start with the second seat)."""

    TYPE: ClassVar[str] = "seats"
    room: RoomCode
    seats: tuple[bool, bool]
    online: tuple[bool, bool]
    watchers: int
    clocks: Clocks | None
    running: Side | None
    players: Players | None = None  # the seats' named players (protocol 4)


@dataclass(frozen=True)
class RoomSummary:
    """A player's room as the list of their games shows it."""

    room: RoomCode
    game: GameKey
    variant: str
    side: Side
    to_move: Side
    plies: int
    result: str | None
    clock: str | None
    # The side to move's time left, in seconds, when the answer was written (a game going on
    # whose clock runs: in a game of days, how long until its flag falls) (protocol 5).
    left: float | None = None
    waiting: bool | None = None  # true: its other seat is free yet (protocol 5)


@dataclass(frozen=True)
class RoomList:
    TYPE: ClassVar[str] = "rooms"
    rooms: tuple[RoomSummary, ...]


@dataclass(frozen=True)
class Ranked:
    """A player on the leaderboard: the rating at one speed of the game, and its rated games."""

    name: PlayerName
    speed: Speed
    rating: int
    provisional: bool
    games: int


@dataclass(frozen=True)
class PlayerList:
    TYPE: ClassVar[str] = "players"
    game: GameKey
    players: Annotated[tuple[Ranked, ...], range(MOST_PLAYERS_LISTED + 1)]


@dataclass(frozen=True)
class Sought:
    """The seek is in the lobby under `seek` (a code, as a room's), until it is accepted."""

    TYPE: ClassVar[str] = "sought"
    seek: RoomCode


@dataclass(frozen=True)
class OpenSeek:
    """A seek as the lobby lists it: who, at what rating (at the seek's speed), and what game."""

    seek: RoomCode
    name: PlayerName
    rating: int | None
    provisional: bool | None
    game: GameKey
    variant: str
    clock: str | None
    rated: bool
    side: SideAsked | None


@dataclass(frozen=True)
class GameOn:
    """A game going on, to watch."""

    room: RoomCode
    game: GameKey
    variant: str
    clock: str | None
    rated: bool
    players: Players | None
    plies: int
    watchers: int


@dataclass(frozen=True)
class Lobby:
    TYPE: ClassVar[str] = "lobby"
    seeks: Annotated[tuple[OpenSeek, ...], range(MOST_LISTED + 1)]
    games: Annotated[tuple[GameOn, ...], range(MOST_LISTED + 1)]


@dataclass(frozen=True)
class ArchivedGame:
    """A finished game as the archive keeps it: its players' names (None: a seat without one)
    and its record, as the app writes its files."""

    room: RoomCode
    game: GameKey
    variant: str
    clock: str | None
    rated: bool
    white: PlayerName | None
    black: PlayerName | None
    result: str  # 1-0, 0-1, 1/2-1/2
    reason: str
    date: str  # the record's Date tag: when the room was made
    record: str


@dataclass(frozen=True)
class Archive:
    """A page of a player's finished games, newest first; `more` when older ones are left (ask
    again with the last one's room as `before`); `total` how many there are in all."""

    TYPE: ClassVar[str] = "games"
    name: PlayerName
    games: Annotated[tuple[ArchivedGame, ...], range(MOST_ARCHIVED + 1)]
    more: bool
    total: int


@dataclass(frozen=True)
class Pong:
    TYPE: ClassVar[str] = "pong"


ServerMessage = (
    Welcome
    | Named
    | Error
    | Seated
    | WholeGame
    | Moved
    | Ended
    | Offer
    | Seats
    | RoomList
    | PlayerList
    | Sought
    | Lobby
    | Asked
    | Declined
    | TakenBack
    | Rematched
    | Chat
    | Archive
    | Pong
)
# What a room tells its seats and watchers, in order, each numbered by the room (a `Seats` is
# not one: it says how the room stands now, whole, so the last one is all a client needs).
Event = Moved | Offer | Ended | Asked | Declined | TakenBack | Rematched
# The messages a client of protocol 4 or older is never sent.
NEW_IN_5: Final = frozenset({"asked", "declined", "takenback", "rematched", "chat"})
Message = ClientMessage | ServerMessage

CLIENT_TYPES: Final[dict[str, type[ClientMessage]]] = {
    kind.TYPE: kind for kind in get_args(ClientMessage)
}
SERVER_TYPES: Final[dict[str, type[ServerMessage]]] = {
    kind.TYPE: kind for kind in get_args(ServerMessage)
}


def read_message(frame: str | bytes) -> ClientMessage:
    """A client's frame as its message; ProtocolError for anything else. Texts are one line of
    at most 200 characters."""
    message: ClientMessage = read(frame, CLIENT_TYPES, _TEXT)
    return message


def read_reply(frame: str | bytes) -> ServerMessage:
    """A server's frame, as a client reads it; ProtocolError for anything else. Texts may be
    long and span lines (a record), and are `displayable`, so that nothing a server says
    reaches the screen raw."""
    message: ServerMessage = read(frame, SERVER_TYPES, None)
    return message


def room_code(text: str) -> str:
    """A room code as typed (any case) in the form the server keeps: upper case."""
    return text.upper()


def room_or_invitation(text: str) -> tuple[str, str | None] | None:
    """What `--join` and the Online dialog take: a room's code (to watch it, or to come back
    to a seat kept) or an invitation `CODE-KEY` (to take its free seat): the code in upper
    case and the key as given (None for a bare code); None for anything else."""
    if ROOM_CODE.fullmatch(text):
        return room_code(text), None
    invited = INVITATION.fullmatch(text)
    return None if invited is None else (room_code(invited[1]), invited[2])


def invitation_text(room: str, key: str) -> str:
    """An invitation as a friend types it after `--join`."""
    return f"{room}-{key}"


__all__ = [
    "ARCHIVE_TEXT",
    "BAD_JSON",
    "BAD_MESSAGE",
    "CHAT_LENGTH",
    "CLIENT_TYPES",
    "HELLO_FIRST",
    "INVITATION",
    "MOST_ARCHIVED",
    "MOST_BYTES",
    "MOST_CHAT",
    "MOST_LISTED",
    "MOST_PLAYERS_LISTED",
    "MOST_ROOMS_ASKED",
    "NAME_TAKEN",
    "NEW_IN_5",
    "NO_ROOM",
    "OLDEST_CLIENT",
    "PLAYER_NAME",
    "REFUSED",
    "ROOM_CODE",
    "ROOM_LETTERS",
    "SECRET",
    "SERVER_TYPES",
    "SIDES",
    "TOO_FAST",
    "TOO_MANY_ROOMS",
    "UNKNOWN_TYPE",
    "UPGRADE",
    "VERSION",
    "Accept",
    "Archive",
    "ArchivedGame",
    "AskGames",
    "AskLobby",
    "AskPlayers",
    "AskRooms",
    "Asked",
    "Chat",
    "ChatLine",
    "Claim",
    "ClientMessage",
    "Clocks",
    "Create",
    "Decline",
    "Declined",
    "Draw",
    "Ended",
    "Error",
    "Event",
    "GameOn",
    "Hello",
    "Join",
    "Lobby",
    "Message",
    "Move",
    "Moved",
    "Named",
    "Offer",
    "OpenSeek",
    "Ping",
    "Player",
    "PlayerList",
    "PlayerName",
    "Players",
    "Pong",
    "ProtocolError",
    "Ranked",
    "Rematch",
    "Rematched",
    "Resign",
    "RoomList",
    "RoomSummary",
    "Say",
    "SeatKey",
    "Seated",
    "Seats",
    "Seek",
    "ServerMessage",
    "Sought",
    "Speed",
    "TakeBack",
    "TakenBack",
    "Token",
    "Watch",
    "Welcome",
    "WholeGame",
    "invitation_text",
    "read_message",
    "read_reply",
    "room_code",
    "room_or_invitation",
    "unanswered",
    "write_message",
]
