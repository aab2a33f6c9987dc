"""The footer: the keys that work where the focus is, drawn as one line by one widget.

Textual's footer is a widget per key, made again at every change of focus or screen: a quarter of
the app tests' CPU time went to making, styling and drawing those widgets. This one keeps the
same look (Textual's footer styles, the command palette's key at the right end behind a bar), left
out whole the keys that do not fit, and answers the mouse as Textual's keys do: a click presses
the key, the key under the mouse is lit and says its tooltip.

The game's footer (`GameFooter`) also pins the two keys a new player needs most, Help and Quit,
beside the palette's key (at 80 columns they came last and were never seen), each the first of
its keys that works where the focus is (`q` on the board, `ctrl+q` in the move entry, where `q`
is a letter of a move), and goes compact below 120 columns to show more keys.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import groupby
from typing import ClassVar

from rich.style import Style
from rich.text import Text
from textual import events
from textual.reactive import reactive
from textual.screen import Screen
from textual.widget import Widget

ALL_KEYS_IN_FULL = 120  # narrower than this, the game's footer is compact: more keys in view
BAR = {False: "▏", True: "|"}  # before the palette's key; --ascii (`App.-ascii`) draws the second


@dataclass(frozen=True)
class FooterKey:
    """A key as the footer shows it: the key to press, as shown, and what it does."""

    key: str
    shown: str
    description: str
    tooltip: str
    enabled: bool
    pinned: bool = False  # drawn at the right end
    palette: bool = False  # the command palette's key: the last pinned, behind a bar, compact


@dataclass(frozen=True)
class Drawn:
    """Where a key is drawn: from column `x`, `width` columns (its margin included)."""

    key: FooterKey
    x: int
    width: int


class KeysFooter(Widget):
    """The keys of the screen's active bindings that are shown, one per action, in their order;
    the palette's key at the right end."""

    PINNED: ClassVar[tuple[str, ...]] = ()  # actions drawn at the right end, before the palette

    ALLOW_SELECT = False
    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "keys-footer--key",
        "keys-footer--description",
        "keys-footer--hover",
        "keys-footer--bar",
    }
    DEFAULT_CSS = """
    KeysFooter {
        dock: bottom;
        height: 1;
        color: $footer-foreground;
        background: $footer-background;
        & > .keys-footer--key {
            color: $footer-key-foreground;
            background: $footer-key-background;
            text-style: bold;
        }
        & > .keys-footer--description {
            color: $footer-description-foreground;
            background: $footer-description-background;
        }
        & > .keys-footer--hover {
            color: $footer-key-foreground;
            background: $block-hover-background;
        }
        & > .keys-footer--bar {
            color: $foreground 20%;
        }
    }
    """

    compact: reactive[bool] = reactive(False)
    keys: reactive[tuple[FooterKey, ...]] = reactive(())
    hovered: reactive[FooterKey | None] = reactive(None)

    def on_mount(self) -> None:
        self.screen.bindings_updated_signal.subscribe(self, self.bindings_changed)
        self.keys = self.keys_of(self.screen)

    def on_unmount(self) -> None:
        self.screen.bindings_updated_signal.unsubscribe(self)

    def bindings_changed(self, screen: Screen[object]) -> None:
        """As Textual's footer: the keys follow the focus, not while the app is in the
        background (its focus is given back when it returns)."""
        if screen.app.app_focus and self.is_attached and screen is self.screen:
            self.keys = self.keys_of(screen)

    def keys_of(self, screen: Screen[object]) -> tuple[FooterKey, ...]:
        """The keys to show: the first binding of each action shown, the pinned ones (if any
        binding of theirs works here), then the palette's key."""
        active = screen.active_bindings
        first: dict[str, FooterKey] = {}
        for _, binding, enabled, tooltip in active.values():
            if binding.show and binding.action not in first:
                shown = self.app.get_key_display(binding)
                first[binding.action] = FooterKey(
                    binding.key, shown, binding.description, tooltip, enabled
                )
        keys = list(first.values())
        by_priority = sorted(active.values(), key=lambda bound: bound.binding.priority)
        for action in self.PINNED:  # a key of its own (q) before one that works everywhere
            for _, binding, enabled, tooltip in by_priority:
                if binding.action == action:
                    shown = self.app.get_key_display(binding)
                    key = FooterKey(binding.key, shown, binding.description, tooltip, enabled, True)
                    keys.append(key)
                    break
        palette = active.get(self.app.COMMAND_PALETTE_BINDING)
        if self.app.ENABLE_COMMAND_PALETTE and palette is not None:
            _, binding, enabled, _ = palette
            tooltip = binding.tooltip or binding.description
            shown = self.app.get_key_display(binding)
            key = FooterKey(binding.key, shown, binding.description, tooltip, enabled, True, True)
            keys.append(key)
        return tuple(keys)

    # -- drawing ---------------------------------------------------------------------------------

    def drawn(self) -> list[Drawn]:
        """The keys drawn, left to right: from the left those that fit whole before the pinned
        ones and the palette's, which stand at the right end."""
        width = {key: len(self.text(key)) for key in self.keys}
        pinned = [key for key in self.keys if key.pinned]
        right = self.size.width - sum(width[key] for key in pinned)
        drawn: list[Drawn] = []
        x = 0
        for key in self.keys:
            if not key.pinned and x + width[key] <= right:
                drawn.append(Drawn(key, x, width[key]))
                x += width[key]
            elif not key.pinned:
                break  # the rest are left out whole
        for key in pinned:
            drawn.append(Drawn(key, right, width[key]))
            right += width[key]
        return drawn

    def text(self, key: FooterKey) -> str:
        """What the footer draws for `key`, its margin included."""
        return "".join(text for text, _ in self._parts(key, Style()))

    def _parts(self, key: FooterKey, item: Style) -> list[tuple[str, Style]]:
        """A key's text in its styles, as Textual's footer key draws it: the key padded and
        the description after it, or in compact form with a column between keys; the
        palette's key compact, behind its bar."""
        key_style = item + self.get_component_rich_style("keys-footer--key", partial=True)
        about = item + self.get_component_rich_style("keys-footer--description", partial=True)
        compact = self.compact or key.palette
        if not key.description:
            parts = [(key.shown, key_style)]
        elif compact:
            parts = [(key.shown, key_style), (f" {key.description}", about)]
        else:
            parts = [(f" {key.shown} ", key_style), (f"{key.description} ", about)]
        if key.palette:
            bar = item + Style(color=self.get_component_rich_style("keys-footer--bar").color)
            parts.insert(0, (BAR[self.app.has_class("-ascii")], bar))
            if not self.compact:
                parts.append((" ", Style(bgcolor=item.bgcolor)))  # its padding
        if self.compact:
            parts.append((" ", self._blank()))  # the margin after each key
        return parts

    def _item_style(self, key: FooterKey) -> Style:
        """A key's own style: lit under the mouse, dim when it does nothing here."""
        style = (
            self.get_component_rich_style("keys-footer--hover")
            if key == self.hovered
            else self.rich_style
        )
        return style if key.enabled else style + Style(dim=True)

    def _blank(self) -> Style:
        """Between keys: the footer's background alone, as Textual draws an empty space."""
        return Style(bgcolor=self.rich_style.bgcolor)

    def render(self) -> Text:
        parts: list[tuple[str, Style]] = []
        x = 0
        for drawn in self.drawn():
            parts.append((" " * (drawn.x - x), self._blank()))
            parts += self._parts(drawn.key, self._item_style(drawn.key))
            x = drawn.x + drawn.width
        parts.append((" " * (self.size.width - x), self._blank()))
        line = Text(no_wrap=True, overflow="crop", end="")
        for style, same in groupby(parts, key=lambda part: part[1]):
            line.append("".join(text for text, _ in same), style)  # one run per style
        return line

    # -- the mouse ------------------------------------------------------------------------------

    def key_at(self, x: int) -> FooterKey | None:
        for drawn in self.drawn():
            margin = 1 if self.compact else 0
            if drawn.x <= x < drawn.x + drawn.width - margin:
                return drawn.key
        return None

    def on_mouse_move(self, event: events.MouseMove) -> None:
        self.hovered = self.key_at(event.x)

    def on_leave(self) -> None:
        self.hovered = None

    def watch_hovered(self, key: FooterKey | None) -> None:
        self.tooltip = key.tooltip if key is not None and key.tooltip else None
        self.styles.pointer = "default" if key is None else "pointer"

    def on_mouse_down(self, event: events.MouseDown) -> None:
        key = self.key_at(event.x)
        if key is None:
            return
        if key.enabled:
            self.app.simulate_key(key.key)
        else:
            self.app.bell()


class GameFooter(KeysFooter):
    PINNED = ("help", "quit")

    def on_resize(self) -> None:
        self.compact = self.size.width < ALL_KEYS_IN_FULL  # more keys in view
