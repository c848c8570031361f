"""`explorer --devnet --screenshot DIR`: render every screen to PNG, light and dark."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, Protocol

from PySide6.QtCore import QSize, QTimer
from PySide6.QtWidgets import QApplication, QDockWidget, QWidget

from explorer.diagnostics.crash import describe
from explorer.diagnostics.log import Diagnostics
from explorer.rpc.endpoint import Endpoint
from explorer.saved.files import PRIVATE_FILE
from explorer.services.activity import TRANSFER_TOPIC
from explorer.services.live import KEEP
from explorer.services.routes import (
    HOME,
    LOGS,
    NODE,
    Route,
    address_route,
    tx_route,
)
from explorer.services.session import Session
from explorer.tour.contracts import take_contract_screenshots
from explorer.tour.history import take_history_screenshots
from explorer.tour.inside import take_inside_screenshots
from explorer.tour.passes import Helpers, ScreenPass
from explorer.tour.routes import MISSING_HASH, TOOL_SCREENS, screens
from explorer.tour.saved import take_saved_data_screenshots
from explorer.tour.support import take_support_screenshots
from explorer.viewmodels.devnet_start import DevnetStartViewModel
from explorer.viewmodels.home import HomeState
from explorer.viewmodels.keyring_option import KeyringState
from explorer.viewmodels.logs import ScanState
from explorer.viewmodels.page import PageViewModel
from explorer.views.address import AddressView
from explorer.views.crash_dialog import CrashDialog
from explorer.views.devnet_progress import DevnetProgressView
from explorer.views.home_view import HomeView
from explorer.views.logs_view import LogsView
from explorer.views.main_window import MainWindow
from explorer.views.node_view import NodeView
from explorer.views.page_view import PageView
from explorer.views.settings_dialog import SettingsDialog
from explorer.views.theme import dark_palette, retone
from explorer.views.tools_view import ToolView

SIZE = QSize(1200, 800)  # the window's default size
#: The passes of one shape, after the support desk's (it is handed the main network too).
PASSES: tuple[ScreenPass, ...] = (
    take_history_screenshots,
    take_saved_data_screenshots,
    take_contract_screenshots,
    take_inside_screenshots,
)


async def wait_for(condition: Callable[[], bool], timeout: float = 30.0) -> bool:
    """Wait on the running loop until condition holds or timeout passes."""
    deadline = asyncio.get_running_loop().time() + timeout
    while not condition():
        if asyncio.get_running_loop().time() > deadline:
            return False
        await asyncio.sleep(0.05)
    return True


async def settle(window: QWidget) -> None:
    """Let layouts and paints finish."""
    for _ in range(5):
        await asyncio.sleep(0.02)  # the qasync loop processes Qt events meanwhile
    window.repaint()


async def shoot_page(window: MainWindow, route: Route, path: Path) -> None:
    """Open a route in the current tab, wait until it is loaded, and save a PNG."""
    window.navigator.go(route)
    await settle(window)
    page = window.current_page()
    if page is not None:
        await wait_for(
            lambda: (
                not page.model.waiting and not page.model.busy and page.document_view.is_complete
            )
        )
        await settle(window)
        if page.model.transactions.total > 100:
            page.content.setCurrentIndex(1)
            await wait_for(
                lambda: (
                    "…"
                    not in str(page.model.transactions.data(page.model.transactions.index(0, 5)))
                ),
                timeout=10,
            )
            await settle(window)
    window.grab().save(str(path))


#: The home page is shot at the seeded history's head plus this many live blocks (40 s of
#: mining: the window has loaded Home by then, even on a busy machine), so that every run shows
#: the same blocks: the README's picture is compared with it.
LIVE_BLOCKS_SHOWN = 8
#: Seconds to wait for them: the devnet mines only once its whole history is built.
HOME_TIMEOUT = 180


async def shoot_home(window: MainWindow, path: Path, seeded_head: int) -> Path:
    """Shoot the home page once it has followed a few new blocks of the living devnet."""
    window.navigator.go(HOME)
    await settle(window)
    view = window.tabs.currentWidget()
    if isinstance(view, HomeView):
        model = view.model
        await wait_for(
            lambda: (
                model.state is HomeState.LIVE
                and (model.chain.newest or 0) > (model.chain.loaded_head or 0)  # it follows
                and (model.chain.newest or 0) >= seeded_head + LIVE_BLOCKS_SHOWN
                and len(model.chain.blocks) >= KEEP
            ),
            timeout=HOME_TIMEOUT,
        )
        await settle(window)
    window.grab().save(str(path))
    return path


def page_settled(view: object) -> bool:
    """Tell whether the node page has its answers, or a tool its node's answer."""
    if isinstance(view, NodeView):
        return not view.model.waiting and not view.model.busy
    if isinstance(view, ToolView):
        return not view.model.result or "asking" not in view.model.result[-1].text
    return True


async def shoot_node_and_tools(window: MainWindow, directory: Path, mode: str) -> list[Path]:
    """Shoot the node page and the tools (the keccak one compared with the node)."""
    written = []
    for stem, route in (("node", NODE), *TOOL_SCREENS):
        window.navigator.go(route)
        await settle(window)
        await wait_for(lambda: page_settled(window.tabs.currentWidget()))
        await settle(window)
        path = directory / f"{stem}-{mode}.png"
        window.grab().save(str(path))
        written.append(path)
    return written


async def shoot_tab(window: MainWindow, view: AddressView, title: str, path: Path) -> Path:
    """Show the address page's tab of that title and save a PNG."""
    titles = [view.content.tabText(i) for i in range(view.content.count())]
    view.content.setCurrentIndex(titles.index(title))
    await settle(window)
    window.grab().save(str(path))
    return path


async def shoot_account(window: MainWindow, account: str, directory: Path, mode: str) -> list[Path]:
    """Shoot an account's overview, its tokens, a whole-history transfer scan and its charts."""
    written = [directory / f"address-account-{mode}.png"]
    await shoot_page(window, address_route(account), written[0])
    view = window.current_page()
    if not isinstance(view, AddressView):
        return written
    model = view.address_model
    await wait_for(lambda: not model.tokens.running)
    written.append(
        await shoot_tab(window, view, "Tokens", directory / f"address-tokens-{mode}.png")
    )
    view.activity_tab.scan_from.setText("0")
    view.activity_tab.on_scan()
    model.charts.sample_balance()
    await wait_for(lambda: not (model.activity.running or model.charts.running), 120)
    for title, stem in (("Activity", "address-activity"), ("Charts", "address-charts")):
        written.append(await shoot_tab(window, view, title, directory / f"{stem}-{mode}.png"))
    return written


async def shoot_contract(window: MainWindow, token: str, directory: Path, mode: str) -> list[Path]:
    """Shoot a token contract's overview and its contract tools (ERC-20 functions listed)."""
    written = [directory / f"address-contract-{mode}.png"]
    await shoot_page(window, address_route(token), written[0])
    view = window.current_page()
    if isinstance(view, AddressView) and view.address_model.overview.is_contract:
        path = directory / f"address-contract-tools-{mode}.png"
        written.append(await shoot_tab(window, view, "Contract", path))
    return written


async def shoot_logs(window: MainWindow, path: Path) -> Path:
    """Shoot the Logs explorer after a whole-history scan for Transfer events."""
    window.navigator.go(LOGS)
    await settle(window)
    view = window.tabs.currentWidget()
    if isinstance(view, LogsView):
        view.inputs["topic0"].setText(TRANSFER_TOPIC)
        view.inputs["from_block"].setText("0")
        view.on_start()
        await wait_for(lambda: view.model.state is not ScanState.RUNNING, 120)
        await settle(window)
    window.grab().save(str(path))
    return path


async def shoot_error(window: MainWindow, session: Session, path: Path) -> None:
    """Show the error state: the same devnet asked with a key it does not accept."""
    bad = Endpoint(
        session.endpoint.base_url, "wrong-key-for-screenshots", session.endpoint.url_form
    )
    broken = Session(session.network, bad)
    model = window.shell.pages.create(broken, tx_route(MISSING_HASH))
    assert isinstance(model, PageViewModel)
    page = PageView(model)
    index = window.tabs.addTab(page, "Error")
    window.tabs.setCurrentIndex(index)
    await wait_for(lambda: not page.model.waiting)
    await settle(window)
    window.grab().save(str(path))
    window.tabs.removeTab(index)
    page.model.dispose()
    await broken.aclose()


async def shoot_waiting(window: MainWindow, session: Session, path: Path) -> None:
    """Show a page waiting on a node that accepts connections and never answers.

    The page says what it waits for, for how long, which attempt, and offers Cancel.
    """

    async def silent(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.read()  # until the client hangs up, answering nothing
        writer.close()

    server = await asyncio.start_server(silent, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    quiet = Session(session.network, Endpoint.parse(f"http://127.0.0.1:{port}"))
    model = window.shell.pages.create(quiet, tx_route(MISSING_HASH))
    assert isinstance(model, PageViewModel)
    page = PageView(model)
    index = window.tabs.addTab(page, "Waiting")
    window.tabs.setCurrentIndex(index)
    await wait_for(lambda: model.slow, timeout=quiet.budget.slow_after + 5)
    await asyncio.sleep(1.2)  # the wait is counted in seconds
    await settle(window)
    window.grab().save(str(path))
    window.tabs.removeTab(index)
    model.dispose()
    await quiet.aclose()
    server.close()


def keyring_known(dialog: SettingsDialog) -> bool:
    """Tell whether the Settings dialog knows if a system keyring is available."""
    return dialog.model.keyring.state is not KeyringState.CHECKING


async def take_screenshots(
    window: MainWindow,
    manifest: dict[str, Any],
    directory: Path,
    dialogs: Mapping[str, Callable[[], QWidget]] | None = None,
    main: tuple[Endpoint, dict[str, Any]] | None = None,
) -> list[Path]:
    """Render every screen in light and dark palettes, with and without the bookmarks panel.

    At the window's default size, 1200×800; the files of the panel's pictures end in
    `-bookmarks`. Return the files written.
    """
    directory.mkdir(parents=True, exist_ok=True)
    window.resize(SIZE)
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    light = app.palette()
    session = window.shell.session
    assert session is not None
    written: list[Path] = []
    panel = next(iter(window.findChildren(QDockWidget)), None)
    passes = [(theme, False) for theme in ("light", "dark")]
    passes += [(theme, True) for theme in ("light", "dark") if panel is not None]
    for theme, with_panel in passes:
        app.setPalette(light if theme == "light" else dark_palette())
        retone(app.allWidgets())
        if panel is not None:
            panel.setVisible(with_panel)
        mode = f"{theme}-bookmarks" if with_panel else theme
        seeded_head = int(manifest.get("head_at_build", 0))
        written.append(await shoot_home(window, directory / f"home-{mode}.png", seeded_head))
        written += await shoot_node_and_tools(window, directory, mode)
        for stem, route in screens(manifest):
            path = directory / f"{stem}-{mode}.png"
            await shoot_page(window, route, path)
            written.append(path)
        helpers = Helpers(shoot_page, settle, wait_for)
        written += await take_support_screenshots(window, manifest, directory, mode, helpers, main)
        for take in PASSES:
            written += await take(window, manifest, directory, mode, helpers)
        accounts = manifest.get("accounts") or []
        if accounts:
            written += await shoot_account(window, str(accounts[0]), directory, mode)
        if manifest.get("token"):
            written += await shoot_contract(window, str(manifest["token"]), directory, mode)
        written.append(await shoot_logs(window, directory / f"logs-{mode}.png"))
        error = directory / f"error-{mode}.png"
        await shoot_error(window, session, error)
        written.append(error)
        waiting = directory / f"waiting-{mode}.png"
        await shoot_waiting(window, session, waiting)
        written.append(waiting)
        for name, make_dialog in (dialogs or {} if not with_panel else {}).items():  # views
            dialog = make_dialog()
            dialog.show()
            if isinstance(dialog, SettingsDialog):  # the keyring is looked for in a thread
                await wait_for(functools.partial(keyring_known, dialog), timeout=10)
            await settle(dialog)
            path = directory / f"{name}-{mode}.png"
            dialog.grab().save(str(path))
            dialog.close()
            written.append(path)
    app.setPalette(light)
    if panel is not None:
        panel.hide()
    QTimer.singleShot(0, window.close)
    for picture in written:  # every file the app writes is its owner's only
        with contextlib.suppress(OSError):
            os.chmod(picture, PRIVATE_FILE)
    return written


def sample_progress_view() -> QWidget:
    """Return the first-start progress view in a typical state (for screenshots)."""
    model = DevnetStartViewModel("~/.cache/explorer/devnet", clock=iter((0.0, 20.0)).__next__)
    view = DevnetProgressView(model)
    view.resize(SIZE)
    model.start()
    model.on_progress("testnet", "building block 100 of 12,000", 0.02)
    model.on_progress("testnet", "building block 4,200 of 12,000", 0.62)
    return view


def sample_crash_dialog(found: Diagnostics, parent: QWidget) -> QWidget:
    """Return the crash dialog showing the report of a sample error (for screenshots)."""
    try:
        int("twelve")
    except ValueError as error:
        report = found.report("A sample error: ValueError", describe(error))
    return CrashDialog("An unexpected error occurred (a sample)", report, None, parent)


class StartedWindow(Protocol):
    """What the start-up benchmark needs of the app: its window, and whether Home shows blocks."""

    @property
    def window(self) -> QWidget:
        """Return the main window."""
        ...

    def home_shows_blocks(self) -> bool:
        """Return whether the home page lists blocks."""
        ...


async def until_home(app: StartedWindow, started: float, timeout: float) -> None:
    """Wait until the home page lists blocks, say after how long, and close (for benchmarks)."""
    ready = await wait_for(app.home_shows_blocks, timeout=timeout)
    loop = asyncio.get_running_loop()
    print(
        f"home page {'shows blocks' if ready else 'timed out'} after {loop.time() - started:.1f} s"
    )
    app.window.close()
