"""`explorer --devnet --screenshot DIR`: render every screen to PNG, light and dark."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QTimer
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication, QWidget

from explorer.rpc.endpoint import Endpoint
from explorer.services.routes import Route, block_route, tx_route
from explorer.services.session import Session
from explorer.viewmodels.page import PageState
from explorer.views.main_window import MainWindow
from explorer.views.page_view import PageView

MISSING_HASH = "0x" + "ab" * 32


def dark_palette() -> QPalette:
    """Return a dark palette (Fusion-style colours)."""
    palette = QPalette()
    colours = {
        QPalette.ColorRole.Window: "#202124",
        QPalette.ColorRole.WindowText: "#e8eaed",
        QPalette.ColorRole.Base: "#171717",
        QPalette.ColorRole.AlternateBase: "#2a2b2e",
        QPalette.ColorRole.Text: "#e8eaed",
        QPalette.ColorRole.Button: "#2d2e31",
        QPalette.ColorRole.ButtonText: "#e8eaed",
        QPalette.ColorRole.Highlight: "#3d6fb4",
        QPalette.ColorRole.HighlightedText: "#ffffff",
        QPalette.ColorRole.ToolTipBase: "#2d2e31",
        QPalette.ColorRole.ToolTipText: "#e8eaed",
        QPalette.ColorRole.PlaceholderText: "#9aa0a6",
        QPalette.ColorRole.Link: "#8ab4f8",
        QPalette.ColorRole.Mid: "#3c4043",
        QPalette.ColorRole.Midlight: "#3c4043",
    }
    for role, colour in colours.items():
        palette.setColor(role, QColor(colour))
    return palette


def interesting_block(manifest: dict[str, Any]) -> int:
    """Return a block with uncles and transactions when the seed has one, else the last."""
    uncles = manifest.get("uncle_blocks") or []
    return int(uncles[-1]) if uncles else max(int(manifest.get("head_at_build", 1)) - 1, 1)


def screens(manifest: dict[str, Any]) -> list[tuple[str, Route]]:
    """Return (file stem, route) for every screen worth looking at."""
    pending = manifest.get("pending_txs") or []
    candidates = [
        ("block", block_route(interesting_block(manifest))),
        ("block-1000-txs", block_route(int(manifest.get("big_block", 0)))),
        ("tx-success", tx_route(str(manifest.get("token_transfer", "")))),
        ("tx-failed", tx_route(str(manifest.get("failed_tx", "")))),
        ("tx-pending", tx_route(str(pending[0]) if pending else "")),
        ("tx-contract-creation", tx_route(str(manifest.get("contract_creation", "")))),
        ("not-found", tx_route(MISSING_HASH)),
    ]
    return [(stem, route) for stem, route in candidates if route.target]


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
                page.model.state is not PageState.LOADING
                and not page.model.busy
                and page.document_view.is_complete
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


async def shoot_error(window: MainWindow, session: Session, path: Path) -> None:
    """Show the error state: the same devnet asked with a key it does not accept."""
    bad = Endpoint(
        session.endpoint.base_url, "wrong-key-for-screenshots", session.endpoint.url_form
    )
    broken = Session(session.network, bad)
    page = PageView(window.shell.create_page_for(broken, tx_route(MISSING_HASH)))
    index = window.tabs.addTab(page, "Error")
    window.tabs.setCurrentIndex(index)
    await wait_for(lambda: page.model.state is not PageState.LOADING)
    await settle(window)
    window.grab().save(str(path))
    window.tabs.removeTab(index)
    page.model.dispose()
    await broken.aclose()


async def take_screenshots(
    window: MainWindow,
    manifest: dict[str, Any],
    directory: Path,
    settings_dialog: Callable[[], QWidget] | None = None,
) -> list[Path]:
    """Render every screen in light and dark palettes; return the files written."""
    directory.mkdir(parents=True, exist_ok=True)
    window.resize(1280, 900)
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    light = app.palette()
    session = window.shell.session
    assert session is not None
    written: list[Path] = []
    for mode, palette in (("light", light), ("dark", dark_palette())):
        app.setPalette(palette)
        window.navigator.go(Route.parse("home"))
        await settle(window)
        home = directory / f"home-{mode}.png"
        window.grab().save(str(home))
        written.append(home)
        for stem, route in screens(manifest):
            path = directory / f"{stem}-{mode}.png"
            await shoot_page(window, route, path)
            written.append(path)
        error = directory / f"error-{mode}.png"
        await shoot_error(window, session, error)
        written.append(error)
        if settings_dialog is not None:
            dialog = settings_dialog()
            dialog.show()
            await settle(dialog)
            path = directory / f"settings-{mode}.png"
            dialog.grab().save(str(path))
            dialog.close()
            written.append(path)
    app.setPalette(light)
    QTimer.singleShot(0, window.close)
    return written
