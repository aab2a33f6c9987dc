"""The footer, with the two keys a new player needs most pinned to its right end.

Textual's footer lists the focused widget's keys, then the app's, and cuts what does not fit: at 80
columns Help and Quit came last and were never seen. Here they stand beside the command palette's
key, whatever the board adds on the left; each shows the first of its keys that works where the
focus is (`q` on the board, `ctrl+c` in the move entry, where `q` is a letter of a move).
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import HorizontalGroup
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Footer
from textual.widgets._footer import FooterKey

PINNED = ("help", "quit")  # actions, in the order shown, left of the palette's key
ALL_KEYS_IN_FULL = 120  # narrower than this, the keys are compact: more of them in view


class KeysFooter(Footer):
    """Textual's footer, each key made in the style it ends in. Textual makes a key compact,
    then sets it to the footer's style (`FooterKey.compact`), each change restyling the key at
    once; the keys are made again whenever the focus or a screen changes (a typed move, a
    dialog), and those restyles took up to a tenth of the app tests' CPU time."""

    drawn: list[tuple[str, Binding, bool, str, bool]] | None = None  # the keys made last

    def bindings_changed(self, screen: Screen[object]) -> None:
        """Textual makes the keys again at every change of focus or screen; most of those
        changes leave the same keys (a typed move, a hint: 164 of 247 in a puzzle test), and
        then nothing is made again."""
        if not (screen.app.app_focus and self.is_attached and screen is self.screen):
            super().bindings_changed(screen)  # Textual's own: it makes nothing then
            return
        shown = [
            (key, active.binding, active.enabled, active.tooltip, self.compact)
            for key, active in screen.active_bindings.items()
        ]
        if self._bindings_ready and shown == self.drawn:
            return
        self.drawn = shown
        super().bindings_changed(screen)

    def compose(self) -> ComposeResult:
        for widget in super().compose():
            if isinstance(widget, FooterKey):
                # The palette's key is not bound to the footer's style: it stays compact.
                styled_as(widget, widget.has_class("-command-palette") or self.compact)
            yield widget


def styled_as(key: FooterKey, compact: bool) -> FooterKey:
    """`key` set to the footer's style before it is mounted: what its watcher would set."""
    key.set_reactive(FooterKey.compact, compact)
    key.set_class(compact, "-compact", update=False)
    return key


class GameFooter(KeysFooter):
    DEFAULT_CSS = """
    GameFooter .pinned {
        dock: right;
        width: auto;
    }
    """

    def compose(self) -> ComposeResult:
        pinned: list[Widget] = []
        for widget in super().compose():
            if widget.has_class("-command-palette"):
                widget.styles.dock = "none"  # it stands in the pinned group instead
                pinned.append(widget)
            else:
                yield widget
        if not self._bindings_ready:
            return
        # A key of its own (q) before a priority one that works everywhere (ctrl+c).
        active = sorted(self.screen.active_bindings.values(), key=lambda a: a.binding.priority)
        for action in reversed(PINNED):
            for _, binding, enabled, tooltip in active:
                if binding.action == action:
                    key = FooterKey(
                        binding.key,
                        self.app.get_key_display(binding),
                        binding.description,
                        binding.action,
                        disabled=not enabled,
                        tooltip=tooltip,
                    )
                    pinned.insert(0, styled_as(key, self.compact).data_bind(compact=Footer.compact))
                    break
        # A class, not an id: a compose that overlaps the one before (the first, at mount, with
        # a recompose of the bindings) must not fail on two groups; the next one removes both.
        yield HorizontalGroup(*pinned, classes="pinned")

    async def recompose(self) -> None:
        await super().recompose()
        self.call_after_refresh(self._fit_keys)

    def on_resize(self) -> None:
        self.compact = self.size.width < ALL_KEYS_IN_FULL  # more keys in view
        for key in self.query_children(FooterKey):
            key.display = True
        self.call_after_refresh(self._fit_keys)

    def _fit_keys(self) -> None:
        """Keys that would run under the pinned ones are left out whole, not cut in half.
        Widths are worked out from what each key draws, not from a layout still to come."""
        pinned = self.query_children(".pinned")
        if not pinned:
            return
        room = self.size.width - sum(map(_width, pinned.first().query_children(FooterKey)))
        for key in self.query_children(FooterKey):
            room -= _width(key)
            key.display = room >= 0


def _width(key: FooterKey) -> int:
    """The columns a key takes: its text, its padding and border, its margins."""
    styles = key.styles
    return key.render().cell_len + styles.gutter.width + styles.margin.width
