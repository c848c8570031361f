"""Long operations say what they cost before they start, and ask before crossing the quota."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QMessageBox
from pytestqt.qtbot import QtBot

from explorer.services.budget import log_scan
from explorer.services.session import Session
from explorer.viewmodels.logs import ScanState
from explorer.views.logs_view import LogsView
from tests.helpers.devnet import Devnet
from tests.helpers.gui import typed_transfer_query


def question_box(view: LogsView) -> QMessageBox | None:
    """Return the open cost question, if any."""
    boxes = [b for b in view.findChildren(QMessageBox) if b.isVisible()]
    return boxes[0] if boxes else None


def test_the_estimate_shows_before_the_scan_and_a_scan_under_the_quota_just_starts(
    qtbot: QtBot, session: Session, devnet: Devnet
) -> None:
    """The cost is shown as the fields are typed; under the quota Start asks nothing."""
    view = typed_transfer_query(qtbot, session, devnet.manifest()["token"])
    expected = log_scan(601, first_blocks=100, growth=4.0)
    assert view.estimate.text() == f"Costs {expected.text()} (saved ranges cost none)."
    session.daily_quota = 0  # none: never asks
    qtbot.mouseClick(view.start_button, Qt.MouseButton.LeftButton)
    assert question_box(view) is None
    qtbot.waitUntil(lambda: view.model.state is ScanState.DONE, timeout=30_000)


def test_a_scan_past_the_quota_asks_and_starts_only_when_told(
    qtbot: QtBot, session: Session, devnet: Devnet, qapp: QApplication
) -> None:
    """No: nothing is sent and the page says why; Yes: the scan runs."""
    view = typed_transfer_query(qtbot, session, devnet.manifest()["token"])
    session.daily_quota = session.requests_today + 1  # one request left today
    sent = session.client.stats.total
    qtbot.mouseClick(view.start_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: question_box(view) is not None, timeout=5_000)
    box = question_box(view)
    assert box is not None
    assert "1 of its" in box.text()
    assert "Start it anyway?" in box.text()
    box.button(QMessageBox.StandardButton.No).click()
    qtbot.waitUntil(lambda: view.model.message.startswith("Not started"), timeout=5_000)
    assert session.client.stats.total == sent
    assert view.model.state is not ScanState.RUNNING
    qtbot.mouseClick(view.start_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: question_box(view) is not None, timeout=5_000)
    box = question_box(view)
    assert box is not None
    box.button(QMessageBox.StandardButton.Yes).click()
    qtbot.waitUntil(lambda: view.model.state is ScanState.DONE, timeout=30_000)
    assert view.model.table.total > 0
