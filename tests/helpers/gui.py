"""GUI helpers: waiting for pages, reading their fields, a Logs query typed in."""

from __future__ import annotations

import asyncio

from pytestqt.qtbot import QtBot

from explorer.app.application import wire_view_models
from explorer.services.session import Session
from explorer.viewmodels.logs import LogsViewModel
from explorer.viewmodels.navigator import Navigator
from explorer.viewmodels.search import SearchViewModel
from explorer.viewmodels.shell import ShellViewModel
from explorer.views.logs_view import LogsView
from explorer.views.main_window import MainWindow
from explorer.views.page_view import PageView
from tests.helpers.logs_node import TRANSFER


def wired_window(qtbot: QtBot, shell: ShellViewModel) -> MainWindow:
    """Return a main window over shell with its navigator and search, wired as the app does."""
    navigator, search = Navigator(), SearchViewModel()
    wire_view_models(shell, navigator, search)
    window = MainWindow(shell, navigator, search)
    qtbot.addWidget(window)
    return window


def wait_loaded(qtbot: QtBot, window: MainWindow, timeout: int = 20_000) -> PageView:
    """Wait until the current page has left the loading state; return its view."""

    def settled() -> bool:
        page = window.current_page()
        return (
            page is not None
            and not page.model.waiting
            and not page.model.busy
            and page.document_view.is_complete
        )

    qtbot.waitUntil(settled, timeout=timeout)
    page = window.current_page()
    assert page is not None
    return page


def field_text(page: PageView, label: str) -> str:
    """Return the shown text of a field by label."""
    return str(page.document_view.value_labels[label].text())


async def settle() -> None:
    """Yield to the loop once."""
    await asyncio.sleep(0)


def typed_transfer_query(qtbot: QtBot, session: Session, token: str) -> LogsView:
    """Return a shown Logs view with a token's Transfer logs in blocks 1800–2400 typed in."""
    view = LogsView(LogsViewModel(session))
    qtbot.addWidget(view)
    view.show()
    qtbot.keyClicks(view.inputs["addresses"], token)
    qtbot.keyClicks(view.inputs["topic0"], TRANSFER)
    qtbot.keyClicks(view.inputs["from_block"], "1800")
    qtbot.keyClicks(view.inputs["to_block"], "2400")
    return view
