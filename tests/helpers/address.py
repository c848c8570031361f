"""Helpers for the address page's tests: the seed manifest, raw RPC, opening a page."""

from __future__ import annotations

from typing import Any

import httpx
from pytestqt.qtbot import QtBot

from explorer.services.routes import address_route
from explorer.services.session import Session
from explorer.viewmodels.address.page import AddressPageViewModel
from explorer.views.address.page import AddressView
from tests.helpers.devnet import Devnet


def raw_rpc(devnet: Devnet, method: str, *params: Any) -> Any:
    """Ask the devnet directly with a plain HTTP POST (an independent path)."""
    body = {"jsonrpc": "2.0", "id": 1, "method": method, "params": list(params)}
    return httpx.post(devnet.url("testnet"), json=body, timeout=10).json()["result"]


def holder_of(manifest: dict[str, Any]) -> str:
    """Return an account that received tokens in the seeded history."""
    return str(manifest["accounts"][1])


def open_address(qtbot: QtBot, session: Session, address: str, **options: Any) -> AddressView:
    """Build the address page for address and wait until its summary has loaded."""
    model = AddressPageViewModel(session, address_route(address), **options)
    view = AddressView(model)
    qtbot.addWidget(view)
    view.resize(1000, 700)
    view.show()
    model.load()
    qtbot.waitUntil(
        lambda: not model.waiting and view.document_view.is_complete,
        timeout=30_000,
    )
    return view


def tab_titles(view: AddressView) -> list[str]:
    """Return the titles of the page's tabs."""
    return [view.content.tabText(i) for i in range(view.content.count())]


def token_rows(view: AddressView) -> int:
    """Return how many rows the tokens table shows."""
    return int(view.tokens_tab.table.model().rowCount())


def token_cell(view: AddressView, row: int, column: int) -> str:
    """Return the shown text of a cell of the tokens table."""
    model = view.tokens_tab.table.model()
    return str(model.index(row, column).data())


def select_token_row(view: AddressView, row: int) -> None:
    """Make a row of the tokens table the current one, as a click would."""
    table = view.tokens_tab.table
    table.setCurrentIndex(table.model().index(row, 0))
