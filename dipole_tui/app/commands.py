"""The keys of a screen, declared once: each binding carries its footer label (`description`),
and a key that is also a command of the palette (`command`) its title and line of help there.
The palette is built from the bindings active on the screen (`GameApp.get_system_commands`), run
through `check_action` as the key is; the help page's key table (help/keys.md) is checked
against the game screen's (tests/app/test_command_table.py).
"""

from __future__ import annotations

from textual.binding import Binding, BindingType


def command(
    keys: str,
    action: str,
    label: str,
    about: str,
    title: str = "",
    *,
    show: bool = True,
) -> Binding:
    """A key that is also a command of the palette: `label` in the footer, `title` (else the
    label) and `about` in the palette. The tooltip holds both, a line each: a Binding has no
    field of its own for them (Textual copies each into a plain Binding per key)."""
    return Binding(keys, action, label, show=show, tooltip=f"{title or label}\n{about}")


def palette_words(binding: Binding) -> tuple[str, str] | None:
    """The palette's title and help of a binding made by `command` (None: a key alone)."""
    title, newline, about = binding.tooltip.partition("\n")
    return (title, about) if newline else None


# The game screen's, in the footer's order: at 80 columns it shows up to Review; all are in the
# help (keys.md). The screen hands most on to its parts (ply walking to `move_walk.py`, the
# endings to `game_endings.py`). `:` and the walk are keys only: the entry is refused over any
# other screen (the palette's too), and a step is a key's work.
GAME_KEYS: list[BindingType] = [
    command("u", "undo", "Undo", "Take back the last move"),
    command("U,ctrl+r", "redo", "Redo", "Replay a move taken back", show=False),
    command("f", "flip", "Flip", "See the board from the other side", "Flip the board", show=False),
    command(
        "F", "auto_flip", "Auto-flip", "Hot-seat: the board turns to the side to move", show=False
    ),
    command("i", "hint", "Hint", "What hard, the strongest bot, would play here"),
    command(
        "a,A",  # A: Bi-Pod's board takes a (adopt)
        "analyse",
        "Analyse",
        "Turn the analysis on or off: the evaluation bar and the best line",
        "Analysis",
    ),
    command("m", "lines", "Lines", "While the analysis is on: one best line, or three"),
    command("t", "threats", "Threats", "Mark what each side can take next move"),
    command("r", "review", "Review", "Every position of the game evaluated, mistakes marked"),
    command("p", "pause", "Pause", "Bots playing each other: stop, or go on", show=False),
    command(
        "full_stop", "step", "Step", "While paused: the bot to move plays one move", show=False
    ),
    # A priority binding runs in the app's own queue, so the keys typed right after it already
    # go to the entry instead of racing to the board.
    Binding("colon", "type_move", "Type", priority=True),
    command("s", "save", "Save", "Write the game to a record file", "Save game"),
    command(
        "o", "load", "Open", "A kept game, a record file or one of your online games", "Load game"
    ),
    command(
        "n", "new_game", "New", "Choose a board and players, or a game server (Online)", "New game"
    ),
    command(
        "e", "edit", "Edit", "Put stacks on squares, then play", "Edit the position", show=False
    ),
    command(
        "y",
        "copy_position",
        "Copy",
        "Its position string, to paste",
        "Copy the position",
        show=False,
    ),
    command(
        "Y", "copy_record", "Copy record", "The whole game, to paste", "Copy the record", show=False
    ),
    Binding("left_square_bracket", "walk_back", "Back", show=False),
    Binding("right_square_bracket", "walk_forward", "Forward", show=False),
    Binding("home", "walk_first", "Start", show=False),
    Binding("end", "walk_end", "Game", show=False),
    command(
        "S",
        "stats",
        "Stats",
        "Your rating, your record against each level, the rating over time",
        "Your statistics",
        show=False,
    ),
    command("R", "resign", "Resign", "End the game: the opponent wins", show=False),
    command("D", "offer_draw", "Offer a draw", "Where the game has draws", show=False),
    command("C", "chat", "Chat", "Online: the room's chat, and a line to say", show=False),
]

__all__ = ["GAME_KEYS", "command", "palette_words"]
