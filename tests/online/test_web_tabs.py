"""`dipole-tui web`'s doors, without a browser: the server (cli/web_tabs.py) run in the test's
process on a loopback port, each tab's app a stand-in that notes how it was started; then the
app's side of a tab: Save and Open stay in the tab's folder, Ctrl+C asks."""

from __future__ import annotations

import os
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import NamedTuple

import pytest
from aiohttp import ClientWebSocketResponse, WSServerHandshakeError
from aiohttp.test_utils import TestClient, TestServer
from app_steps import AppFactory, type_move, until
from browser import free_port
from textual.widgets import Input, Static

from dipole_tui.app.dialogs.choice import ChoiceScreen
from dipole_tui.app.dialogs.open import OpenScreen
from dipole_tui.cli.web_tabs import VISITOR_ID, TabServer
from dipole_tui.saves import CONFINED_VARIABLE, DATA_DIR_VARIABLE, refused

# A tab's app, standing in for `dipole-tui play`: it writes down its folder and whether it is
# confined, in a file named by its pid under $STARTS, and ends when told to quit.
STAND_IN = """
import os, sys
from pathlib import Path
said = os.environ.get("DIPOLE_TUI_DATA_DIR", "") + "\\n" + os.environ.get("DIPOLE_TUI_CONFINED", "")
Path(os.environ["STARTS"], str(os.getpid())).write_text(said)
heard = b""
while b'"quit"' not in heard:
    chunk = sys.stdin.buffer.read1(4096)
    if not chunk:
        break
    heard += chunk
"""


class Tabs(NamedTuple):
    server: TabServer
    client: TestClient  # type: ignore[type-arg]
    starts: Path  # a file per app started

    def started(self) -> list[list[str]]:
        """Each app's folder and confinement, as it was started."""
        return [path.read_text().split("\n") for path in sorted(self.starts.iterdir())]

    @property
    def own(self) -> str:
        return f"http://127.0.0.1:{self.server.port}"

    def cookies(self, visitor: str = "v" * 22, token: str | None = None) -> str:
        token = self.server.token if token is None else token
        return f"{self.server.token_cookie}={token}; {self.server.visitor_cookie}={visitor}"

    async def tab(
        self, origin: str | None = "", cookie: str | None = None
    ) -> ClientWebSocketResponse:
        """A WebSocket opened as a page would (its Origin, its cookies)."""
        headers = {"Cookie": self.cookies() if cookie is None else cookie}
        if origin is not None:
            headers["Origin"] = origin or self.own
        return await self.client.ws_connect("/ws?width=80&height=24", headers=headers)


@pytest.fixture
async def tabs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Tabs]:
    """The server, at most one tab at once."""
    starts = tmp_path / "starts"
    starts.mkdir()
    script = tmp_path / "stand_in.py"
    script.write_text(STAND_IN)
    monkeypatch.setenv("STARTS", str(starts))
    port = free_port()
    server = TabServer(
        [sys.executable, str(script)],
        host="127.0.0.1",
        port=port,
        data=tmp_path / "data",
        max_tabs=1,
    )
    app = await server._make_app()
    async with TestClient(TestServer(app, host="127.0.0.1", port=port)) as client:
        client.session.cookie_jar.clear()
        yield Tabs(server, client, starts)


async def refused_with(tabs: Tabs, status: int, **page: str | None) -> None:
    with pytest.raises(WSServerHandshakeError) as refusal:
        await tabs.tab(**page)
    assert refusal.value.status == status


async def test_the_page_without_its_token_is_a_short_refusal(tabs: Tabs) -> None:
    for query in ("", "?token=", "?token=wrong", f"?token={tabs.server.token[:-1]}", "?token=é"):
        response = await tabs.client.get(f"/{query}")
        text = await response.text()
        assert response.status == 403, query
        assert "token" in text and "textual" not in text.lower()
        assert "Set-Cookie" not in response.headers
    assert tabs.started() == []


async def test_the_page_with_its_token_keeps_it_and_a_visitor_id_in_cookies(tabs: Tabs) -> None:
    response = await tabs.client.get(f"/?token={tabs.server.token}")
    assert response.status == 200
    assert "data-session-websocket-url" in await response.text()  # textual-serve's page
    cookies = response.cookies
    token, visitor = cookies[tabs.server.token_cookie], cookies[tabs.server.visitor_cookie]
    assert token.value == tabs.server.token
    assert token["httponly"] and token["samesite"] == "Strict"
    assert VISITOR_ID.fullmatch(visitor.value)
    assert visitor["httponly"] and visitor["samesite"] == "Lax"
    # The same browser again, by its cookies alone: the same visitor.
    again = await tabs.client.get("/", headers={"Cookie": tabs.cookies(visitor.value)})
    assert again.status == 200
    assert again.cookies[tabs.server.visitor_cookie].value == visitor.value


async def test_a_tab_from_another_origin_is_refused(tabs: Tabs) -> None:
    """Even with the cookies (a page of another port of this machine is 'same-site')."""
    other = f"http://127.0.0.1:{tabs.server.port + 1}"
    for origin in (other, f"http://localhost:{tabs.server.port}", "null", f"{tabs.own}.evil"):
        await refused_with(tabs, 403, origin=origin)
    await refused_with(tabs, 403, origin=None)  # no Origin: not a browser's page of ours
    assert tabs.started() == []


async def test_a_tab_without_the_token_or_a_visitor_is_refused(tabs: Tabs) -> None:
    await refused_with(tabs, 403, cookie="")
    await refused_with(tabs, 403, cookie=tabs.cookies(token="wrong"))
    await refused_with(tabs, 403, cookie=f"{tabs.server.token_cookie}={tabs.server.token}")
    await refused_with(tabs, 403, cookie=tabs.cookies(visitor="../../../etc"))
    assert tabs.started() == []


async def test_each_visitor_has_a_folder_of_its_own(tabs: Tabs) -> None:
    data = tabs.server.data
    for number, visitor in enumerate(("a" * 22, "b" * 22), 1):
        tab = await tabs.tab(cookie=tabs.cookies(visitor))
        await until(lambda number=number: len(tabs.started()) == number)  # type: ignore[misc]
        await tab.close()
        await until(lambda: not tabs.server.tabs)
    folders = sorted(folder for folder, _ in tabs.started())
    assert folders == [str(data / "web" / ("a" * 22)), str(data / "web" / ("b" * 22))]
    assert {confined for _, confined in tabs.started()} == {"1"}
    assert (data / "web" / ("a" * 22)).stat().st_mode & 0o777 == 0o700


async def test_a_tab_beyond_the_most_is_refused_and_starts_nothing(tabs: Tabs) -> None:
    first = await tabs.tab()
    await until(lambda: len(tabs.started()) == 1)
    await refused_with(tabs, 503)
    page = await tabs.client.get(f"/?token={tabs.server.token}")
    assert page.status == 503
    assert "The server is full: 1 tab is open, the most it runs at once." in await page.text()
    assert len(tabs.started()) == 1
    await first.close()
    await until(lambda: not tabs.server.tabs)
    second = await tabs.tab()  # room again
    await until(lambda: len(tabs.started()) == 2)
    await second.close()
    await until(lambda: not tabs.server.tabs)


# -- the app's side of a tab ---------------------------------------------------------------


@pytest.fixture
def confined(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A web tab's environment: its folder, and confined to it."""
    folder = tmp_path / "web" / "tab"
    folder.mkdir(parents=True)
    monkeypatch.setenv(DATA_DIR_VARIABLE, str(folder))
    monkeypatch.setenv(CONFINED_VARIABLE, "1")
    return folder


def test_a_tab_names_files_only_in_its_folder(confined: Path, tmp_path: Path) -> None:
    (tmp_path / "elsewhere").mkdir()
    (confined / "link").symlink_to(tmp_path / "elsewhere")
    for inside in ("saved/dipole-1.txt", "game.txt", "saved/../x.txt"):
        assert refused(confined / inside) == ""
    outside = [
        tmp_path / "elsewhere" / "x.txt",
        confined / ".." / "other" / "x.txt",
        confined / "link" / "x.txt",  # a link out of it
        Path("/etc/passwd"),
    ]
    for path in outside:
        assert refused(path).startswith(f"{path} is outside this tab's folder; "), path
        assert "\n" not in refused(path)


def test_a_terminal_names_any_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(CONFINED_VARIABLE, raising=False)
    assert refused(Path("/etc/passwd")) == ""


async def test_save_and_open_outside_a_tabs_folder_are_refused(
    make_app: AppFactory, confined: Path, tmp_path: Path
) -> None:
    record = tmp_path / "theirs.txt"
    app = make_app(folder=confined)
    async with app.run_test(size=(100, 30)) as pilot:
        await type_move(pilot, "e1-g3")
        saved = app.keeper.save_as(record)
        assert not record.exists()
        assert saved.severity == "error"
        assert saved.text.startswith(f"{record} is outside this tab's folder; ")
        inside = app.keeper.save_as(confined / "saved" / "mine.txt")
        assert inside.severity != "error" and (confined / "saved" / "mine.txt").exists()
        os.replace(confined / "saved" / "mine.txt", record)
        session, notice = app.keeper.open(record, ["dipole"])
        assert session is None
        assert notice.text.startswith(f"{record} is outside this tab's folder; ")


async def test_ctrl_c_in_a_web_tab_asks_first(make_app: AppFactory) -> None:
    app = make_app()
    app.web_tab = True
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("ctrl+c")
        await pilot.pause()
        assert app.is_running and isinstance(app.screen, ChoiceScreen)
        await pilot.press("ctrl+c")  # again: still the one question
        await pilot.pause()
        assert sum(isinstance(screen, ChoiceScreen) for screen in app.screen_stack) == 1
        await pilot.press("enter")  # Stay
        await pilot.pause()
        assert app.is_running and len(app.screen_stack) == 1
        await pilot.press("ctrl+c", "tab", "enter")  # Quit
        await until(lambda: not app.is_running)


async def test_a_question_put_out_of_focus_is_answered_by_enter(make_app: AppFactory) -> None:
    """A web tab's page not in focus when the resume question came (its first screen): the
    first key typed into it answers."""
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        app.app_focus = False  # as textual-serve's page says when it is blurred
        answers: list[str | None] = []
        app.push_screen(
            ChoiceScreen("Go?", "", [("Yes", "yes"), ("No", "no")], "no"), answers.append
        )
        await pilot.pause()
        assert app.screen.focused is None  # Textual's: no focus given out of focus
        await pilot.press("enter")
        await until(lambda: answers == ["yes"])


async def test_ctrl_c_in_a_terminal_quits_at_once(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("ctrl+c")
        await until(lambda: not app.is_running)


async def test_the_open_dialog_refuses_a_file_outside_the_tab_and_stays(
    make_app: AppFactory, confined: Path, tmp_path: Path
) -> None:
    """Refused where it was typed, to be mended there (a toast could pass unread)."""
    record = tmp_path / "theirs.txt"
    record.write_text('[Game "Dipole"]\n\n1. e1-e3 *\n', encoding="utf-8")
    app = make_app(folder=confined)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("o")
        await until(lambda: isinstance(app.screen, OpenScreen))
        dialog = app.screen
        assert not dialog.query_one("#about", Static).display  # no empty line to begin with
        entry = dialog.query_one("#path", Input)
        entry.focus()
        entry.value = str(record)
        await pilot.press("enter")
        await pilot.pause()
        about = str(dialog.query_one("#about", Static).render())
        assert about.splitlines()[-1].startswith(f"{record} is outside this tab's folder; ")
        assert app.screen is dialog and entry.value == str(record)
        assert app.keeper.session.state.moves_played == []
