"""Amounts read as people read them on every screen; the exact one on hover and on Copy."""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication, QKeySequence
from pytestqt.qtbot import QtBot

from explorer.chain.units import format_rbtc
from explorer.services.history_store import MemoryHistoryStore
from explorer.services.session import Session
from explorer.viewmodels.address.history_table import Column
from explorer.views.widgets import ExactValueLabel
from tests.helpers.address import open_address, raw_rpc
from tests.helpers.devnet import Devnet

#: four decimals at or above one; below it four significant digits (`0.00002104`)
READABLE = re.compile(r"^[−+-]?[\d,]+(\.\d{1,4}|\.0*[1-9]\d{0,3})? tRBTC$")


def number(text: str) -> Decimal:
    """Return an amount's number (`−1,234.5 tRBTC` -> -1234.5)."""
    return Decimal(text.split()[0].replace("−", "-").replace(",", ""))


def rounds_to(exact: str, shown: str) -> bool:
    """Tell whether shown is exact rounded to shown's last digit."""
    places = len(shown.split()[0].partition(".")[2])
    return abs(number(exact) - number(shown)) <= Decimal(5).scaleb(-places - 1)


def test_the_balance_reads_rounded_with_the_exact_one_on_hover_and_copy(
    qtbot: QtBot, session: Session, devnet: Devnet, devnet_manifest: dict[str, Any]
) -> None:
    address = devnet_manifest["busy_account"]
    view = open_address(qtbot, session, address, history_store=MemoryHistoryStore())
    document = view.address_model.document
    assert document is not None
    wei = int(raw_rpc(devnet, "eth_getBalance", address, "latest"), 16)
    exact = format_rbtc(wei, "tRBTC")
    assert len(exact.partition(".")[2].split()[0]) > 4  # a balance worth rounding
    assert READABLE.match(document.headline.text), document.headline.text
    label = view.document_view.value_labels["Balance"]
    assert isinstance(label, ExactValueLabel)
    assert READABLE.match(label.text())
    assert label.toolTip().startswith(exact)
    assert label.copy_text() == exact


def test_history_cells_read_rounded_and_copy_exact(
    qtbot: QtBot, session: Session, devnet_manifest: dict[str, Any]
) -> None:
    address = devnet_manifest["accounts"][1]
    view = open_address(qtbot, session, address, history_store=MemoryHistoryStore())
    history = view.address_model.history
    view.content.setCurrentWidget(view.history_tab)
    qtbot.waitUntil(lambda: bool(history.estimate_text) or not history.running, timeout=120_000)
    if history.estimate_text:
        history.on_action()
    qtbot.waitUntil(lambda: history.result.startswith("Complete"), timeout=300_000)
    table = view.history_tab.table
    rows = table.model()
    rounded = 0
    for row in range(rows.rowCount()):
        for column in (Column.AMOUNT, Column.FEE, Column.BALANCE):
            index = rows.index(row, column)
            shown = str(index.data())
            if not shown or "tRBTC" not in shown:
                continue
            assert READABLE.match(shown), shown
            exact = str(index.data(Qt.ItemDataRole.ToolTipRole)).partition("\n")[0]
            assert rounds_to(exact, shown), (exact, shown)
            rounded += exact != shown
    assert rounded > 0  # some cells were rounded, and their tooltips hold the exact amounts
    balances = (rows.index(row, Column.BALANCE) for row in range(rows.rowCount()))
    index = next(cell for cell in balances if str(cell.data()))  # a token row has no balance
    table.setCurrentIndex(index)
    table.setFocus()
    qtbot.keySequence(table, QKeySequence.StandardKey.Copy)
    copied = QGuiApplication.clipboard().text()
    assert copied == str(index.data(Qt.ItemDataRole.ToolTipRole)).partition("\n")[0]
    assert copied.endswith("tRBTC")
