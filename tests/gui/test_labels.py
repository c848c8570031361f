"""Labels and bookmarks in the window: lookup, widgets, menus, the dock, import/export."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import qasync
from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QToolButton, QWidget
from pytestqt.qtbot import QtBot

from explorer.chain.checksum import to_checksum_address
from explorer.services.labels_file import EXPORT_FORMAT
from explorer.services.routes import Route
from explorer.viewmodels.labels import LabelsViewModel, Overwrite
from explorer.viewmodels.shell import ShellViewModel
from explorer.views.bookmarks_view import (
    BOOKMARK,
    EDIT_LABEL,
    REMOVE_BOOKMARK,
    BookmarksView,
    LabelMenuActions,
    install_labels,
)
from explorer.views.main_window import MainWindow
from explorer.views.widgets import AddressLabel, HashLabel
from explorer.views.widgets.address import set_label_lookup
from explorer.views.widgets.menus import menu_action, set_entity_actions
from tests.helpers.qt import run_in_qloop

ALICE = "0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed"
BRIDGE = "0x0000000000000000000000000000000001000006"
TX = "0x359f6010957a25b885387e3201c9262c71f91e47ff487c49e5168a54fc8ea110"


def wait(qtbot: QtBot, task: Any) -> Any:
    """Wait for a model task on the qasync loop and return its result."""
    qtbot.waitUntil(task.done, timeout=10_000)
    return task.result()


@pytest.fixture
def model(qloop: qasync.QEventLoop, qtbot: QtBot, tmp_path: Path) -> Iterator[LabelsViewModel]:
    """Yield a labels model on the testnet database in a temporary directory, wired to widgets."""
    labels = LabelsViewModel(tmp_path / "data")
    wait(qtbot, labels.open_network("testnet", 31))
    yield labels
    set_label_lookup(None)
    set_entity_actions(None)
    run_in_qloop(qtbot, labels.aclose())


def trigger(menu: Any, text: str) -> None:
    """Trigger a menu entry by its text."""
    action = menu_action(menu, text)
    assert action is not None, f"no {text!r} in the menu"
    action.trigger()


def test_lookup_persists_and_follows_the_network(
    qtbot: QtBot, model: LabelsViewModel, tmp_path: Path
) -> None:
    with qtbot.waitSignal(model.labels_changed, timeout=5000):
        wait(qtbot, model.set_label(ALICE.upper().replace("0X", "0x"), "Alice"))
    assert model.get(ALICE) == "Alice"
    assert model[ALICE.upper()[2:].join(("0x", ""))] == "Alice"
    assert ALICE in model
    assert len(model) == 1
    assert list(model) == [ALICE]
    assert model.get(BRIDGE) is None
    assert BRIDGE not in model
    wait(qtbot, model.open_network("mainnet", 30))
    assert len(model) == 0
    wait(qtbot, model.open_network("testnet", 31))
    assert model.get(ALICE) == "Alice"
    other = LabelsViewModel(tmp_path / "data")
    wait(qtbot, other.open_network("testnet", 31))
    assert other.get(ALICE) == "Alice"
    run_in_qloop(qtbot, other.aclose())


def test_errors_become_messages(qtbot: QtBot, tmp_path: Path, qloop: qasync.QEventLoop) -> None:
    closed = LabelsViewModel(tmp_path)
    with qtbot.waitSignal(closed.message_changed, timeout=5000) as blocker:
        assert wait(qtbot, closed.set_label(ALICE, "x")) is None
    assert "not available until a network is open" in blocker.args[0]
    (tmp_path / "testnet.sqlite3").mkdir()  # a directory where the file should be
    with qtbot.waitSignal(closed.message_changed, timeout=5000) as blocker:
        wait(qtbot, closed.open_network("testnet", 31))
    assert "label database" in blocker.args[0]
    assert not closed.is_open
    wait(qtbot, closed.open_network("devnet", 31))
    with qtbot.waitSignal(closed.message_changed, timeout=5000) as blocker:
        wait(qtbot, closed.set_label("0x1234", "short"))
    assert "Cannot label '0x1234'" in blocker.args[0]
    assert len(closed) == 0
    run_in_qloop(qtbot, closed.aclose())


def test_address_widgets_show_user_labels_live(qtbot: QtBot, model: LabelsViewModel) -> None:
    window = MainWindow(ShellViewModel())
    qtbot.addWidget(window)
    install_labels(window, model)
    bridge = AddressLabel(BRIDGE, 31)
    qtbot.addWidget(bridge)
    assert bridge.tag.text() == "Bridge"
    wait(qtbot, model.set_label(BRIDGE, "Peg"))
    assert bridge.tag.text() == "Peg"
    assert "Known as: Bridge" in bridge.link.toolTip()
    wait(qtbot, model.set_label(BRIDGE, ""))
    assert bridge.tag.text() == "Bridge"


def test_menus_edit_labels_and_bookmarks(qtbot: QtBot, model: LabelsViewModel) -> None:
    asked: list[str] = []

    def ask(parent: QWidget, title: str, prompt: str, text: str) -> str | None:
        asked.append(text)
        return "Alice"

    set_label_lookup(model)
    model.labels_changed.connect(lambda: None)
    set_entity_actions(LabelMenuActions(model, ask))
    alice = AddressLabel(ALICE, 31)
    tx = HashLabel(TX, "tx")
    qtbot.addWidget(alice)
    qtbot.addWidget(tx)
    assert menu_action(tx.context_menu(), EDIT_LABEL) is None
    with qtbot.waitSignal(model.labels_changed, timeout=5000):
        trigger(alice.context_menu(), EDIT_LABEL)
    qtbot.waitUntil(lambda: model.get(ALICE) == "Alice", timeout=5000)
    assert asked == [""]
    with qtbot.waitSignal(model.bookmarks.modelReset, timeout=5000):
        trigger(tx.context_menu(), BOOKMARK)
    assert model.bookmarks.bookmark(0).route == Route.parse(f"tx/{TX}")
    assert model.bookmarks.bookmark(0).title == "Transaction 0x359f6010…8ea110"
    assert menu_action(tx.context_menu(), BOOKMARK) is None
    with qtbot.waitSignal(model.bookmarks.modelReset, timeout=5000):
        trigger(tx.context_menu(), REMOVE_BOOKMARK)
    assert model.bookmarks.rowCount() == 0


def test_dock_opens_renames_and_removes(qtbot: QtBot, model: LabelsViewModel) -> None:
    wait(qtbot, model.add_bookmark(Route.parse("block/7")))
    wait(qtbot, model.add_bookmark(Route.parse(f"address/{ALICE}"), "Alice's wallet"))
    dock = BookmarksView(model)
    qtbot.addWidget(dock)
    dock.show()
    assert not dock.empty_label.isVisible()
    titles = [model.bookmarks.bookmark(row).title for row in range(2)]
    assert titles == ["Alice's wallet", "Block 7"]  # newest first
    first = model.bookmarks.index(0)
    rect = dock.list.visualRect(first)
    with qtbot.waitSignal(dock.link_activated, timeout=2000) as blocker:
        qtbot.mouseClick(dock.list.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
        qtbot.mouseDClick(dock.list.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert blocker.args == [Route.parse(f"address/{ALICE}"), False]
    dock.list.setCurrentIndex(model.bookmarks.index(1))
    dock.activateWindow()
    dock.list.setFocus()
    qtbot.waitUntil(dock.list.hasFocus, timeout=2000)
    with qtbot.waitSignal(dock.link_activated, timeout=2000) as blocker:
        qtbot.keyClick(dock.list, Qt.Key.Key_Return)
    assert blocker.args == [Route.parse("block/7"), False]
    with qtbot.waitSignal(dock.link_activated, timeout=2000) as blocker:
        trigger(dock.list_menu(model.bookmarks.index(1)), "Open in new tab")
    assert blocker.args == [Route.parse("block/7"), True]
    dock.ask_text = lambda parent, title, prompt, text: "Seven"
    with qtbot.waitSignal(model.bookmarks.modelReset, timeout=5000):
        dock.rename(model.bookmarks.index(1))
    assert model.bookmarks.bookmark(1).title == "Seven"
    dock.list.setCurrentIndex(model.bookmarks.index(0))
    with qtbot.waitSignal(model.bookmarks.modelReset, timeout=5000):
        qtbot.mouseClick(dock.remove_button, Qt.MouseButton.LeftButton)
    assert [b.route for b in model.bookmarks.bookmarks()] == [Route.parse("block/7")]


def write_file(path: Path, **overrides: Any) -> Path:
    """Write an import file and return its path."""
    data: dict[str, Any] = {"format": EXPORT_FORMAT, "version": 1, "network": "mainnet"}
    data.update(overrides)
    path.write_text(json.dumps(data))
    return path


@pytest.mark.parametrize(
    ("answer", "expected_label", "summary"),
    [
        (Overwrite.KEEP, "Mine", "Imported: 1 added, 0 updated, 2 skipped"),
        (Overwrite.REPLACE, "Theirs", "Imported: 1 added, 1 updated, 1 skipped"),
        (Overwrite.CANCEL, "Mine", "Import cancelled; nothing was changed."),
    ],
)
def test_import_asks_before_replacing(
    qtbot: QtBot,
    model: LabelsViewModel,
    tmp_path: Path,
    answer: Overwrite,
    expected_label: str,
    summary: str,
) -> None:
    wait(qtbot, model.set_label(ALICE, "Mine"))
    labels = [
        {"address": to_checksum_address(ALICE, 31), "label": "Theirs"},
        {"address": BRIDGE, "label": "Peg"},
        {"address": "0xnothex", "label": "bad"},
    ]
    path = write_file(tmp_path / "in.json", labels=labels)
    dock = BookmarksView(model)
    qtbot.addWidget(dock)
    conflicts: list[int] = []

    def ask_overwrite(parent: QWidget, count: int) -> Overwrite:
        conflicts.append(count)
        return answer

    dock.ask_open_path = lambda parent, title: path
    dock.ask_overwrite = ask_overwrite
    task = dock.on_import()
    wait(qtbot, task)
    assert conflicts == [1]
    assert model.get(ALICE) == expected_label
    assert dock.message_label.text().startswith(summary)
    if answer is not Overwrite.CANCEL:
        assert model.get(BRIDGE) == "Peg"
        assert "labels[2]: not an address" in dock.message_label.text()
        assert "exported from network 'mainnet'" in dock.message_label.text()


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{oops", "Bad file: not JSON"),
        (json.dumps({"format": EXPORT_FORMAT, "version": 9}), "Wrong version"),
        (json.dumps({"labels": []}), "Not an explorer labels file"),
    ],
)
def test_bad_import_files_change_nothing(
    qtbot: QtBot, model: LabelsViewModel, tmp_path: Path, content: str, message: str
) -> None:
    wait(qtbot, model.set_label(ALICE, "Mine"))
    path = tmp_path / "bad.json"
    path.write_text(content)
    dock = BookmarksView(model)
    qtbot.addWidget(dock)
    dock.ask_open_path = lambda parent, title: path
    assert wait(qtbot, dock.on_import()) is None
    assert message in dock.message_label.text()
    assert dict(zip(model, [model[a] for a in model], strict=True)) == {ALICE: "Mine"}


def test_export_then_import_elsewhere(qtbot: QtBot, model: LabelsViewModel, tmp_path: Path) -> None:
    wait(qtbot, model.set_label(ALICE, "Alice"))
    wait(qtbot, model.add_bookmark(Route.parse(f"tx/{TX}"), "payment"))
    dock = BookmarksView(model)
    qtbot.addWidget(dock)
    target = tmp_path / "out" / "labels.json"
    target.parent.mkdir()
    dock.ask_save_path = lambda parent, title: target
    assert wait(qtbot, dock.on_export()) == "Exported 1 labels and 1 bookmarks to labels.json."
    exported = json.loads(target.read_text())
    assert exported["labels"] == [{"address": to_checksum_address(ALICE, 31), "label": "Alice"}]
    assert list(target.parent.iterdir()) == [target]  # no temporary file left behind
    wait(qtbot, model.open_network("devnet", 31))
    dock.ask_open_path = lambda parent, title: target
    report = wait(qtbot, dock.on_import())
    assert (report.added, report.updated, report.skipped) == (2, 0, 0)
    assert model.get(ALICE) == "Alice"
    assert model.is_bookmarked(Route.parse(f"tx/{TX}"))


def test_install_labels_wires_the_window(qtbot: QtBot, model: LabelsViewModel) -> None:
    window = MainWindow(ShellViewModel())
    qtbot.addWidget(window)
    dock = install_labels(window, model)
    window.show()
    assert dock.isHidden()
    toggle = menu_action(window.toolbar, "Bookmarks")
    assert toggle is not None
    toggle.trigger()
    assert dock.isVisible()
    window.navigator.go(Route.parse("block/12"))
    action = dock.bookmark_page_action
    assert action is not None
    assert action.shortcut().toString() == "Ctrl+D"
    with qtbot.waitSignal(model.bookmarks.modelReset, timeout=5000):
        action.trigger()
    assert model.is_bookmarked(Route.parse("block/12"))
    assert action.isChecked()  # the star shows the page is bookmarked
    wait(qtbot, model.add_bookmark(Route.parse("block/3")))
    dock.link_activated.emit(Route.parse("block/3"), True)
    assert str(window.navigator.route(1)) == "block/3"
    assert window.navigator.count == 2


def test_importing_many_labels_keeps_the_gui_responsive(
    qtbot: QtBot, model: LabelsViewModel, tmp_path: Path
) -> None:
    """10,000 labels with 50 address widgets live: the import runs while the GUI keeps ticking.

    The longest stalls (wall and the GUI thread's own CPU) are printed, not asserted.
    """
    window = MainWindow(ShellViewModel())
    qtbot.addWidget(window)
    install_labels(window, model)
    widgets = [AddressLabel("0x" + format(n, "040x"), 31) for n in range(50)]
    for widget in widgets:
        qtbot.addWidget(widget)
    labels = [{"address": "0x" + format(n, "040x"), "label": f"n{n}"} for n in range(10_000)]
    path = write_file(tmp_path / "many.json", labels=labels)
    stalls: list[float] = []
    busy: list[float] = []
    last = [time.perf_counter(), time.thread_time()]

    def tick() -> None:
        """Record the wall time and the GUI thread's own CPU time since the last tick."""
        now, cpu = time.perf_counter(), time.thread_time()
        stalls.append(now - last[0])
        busy.append(cpu - last[1])
        last[:] = [now, cpu]

    timer = QTimer()
    timer.timeout.connect(tick)
    timer.start(5)
    started = time.perf_counter()
    data = wait(qtbot, model.read_import(path))
    report = wait(qtbot, model.apply_import(data, overwrite=False))
    elapsed = time.perf_counter() - started
    timer.stop()
    assert report.added == 10_000
    assert widgets[7].tag.text() == "n7"
    print(
        f"import 10,000 labels: {elapsed * 1000:.0f} ms; longest GUI-thread stall "
        f"{max(stalls) * 1000:.0f} ms wall, {max(busy) * 1000:.0f} ms of its own CPU"
    )
    # Speed is a benchmark's business; here: the event loop kept turning during the import
    # (a blocking import would give at most one tick).
    assert len(stalls) >= 3


def test_a_command_cancelled_before_it_starts_leaves_no_warning(
    qtbot: QtBot, model: LabelsViewModel
) -> None:
    """Cancelling a queued command (as loop teardown does) neither writes nor warns."""
    import gc

    task = model.set_label(ALICE, "never")
    task.cancel()
    qtbot.waitUntil(task.done, timeout=5000)
    gc.collect()
    assert task.cancelled()
    assert model.get(ALICE) is None


def test_block_page_on_the_devnet_shows_user_labels_and_neighbour_links(
    qtbot: QtBot, window: MainWindow, tmp_path: Path
) -> None:
    """A real block page: the miner carries the user's label; Previous/Next navigate."""
    from tests.helpers.gui import wait_loaded

    labels = LabelsViewModel(tmp_path / "labels")
    install_labels(window, labels)
    qtbot.waitUntil(lambda: labels.network_id == "devnet" and labels.is_open, timeout=5000)
    head = window.shell.head
    assert head is not None
    assert head > 2
    window.navigator.go(Route.parse(f"block/{head - 1}"))
    page = wait_loaded(qtbot, window)
    miner = next(w for w in page.findChildren(AddressLabel) if w.link.route() and w.link.text())
    wait(qtbot, labels.set_label(miner.address, "Our miner"))
    assert miner.tag.text() == "Our miner"
    previous = page.document_view.value_labels["Previous block"]
    assert previous.text() == f"{head - 2:,}"
    with qtbot.waitSignal(page.document_view.link_activated, timeout=2000) as blocker:
        qtbot.mouseClick(page.document_view.value_labels["Next block"], Qt.MouseButton.LeftButton)
    assert blocker.args == [Route.parse(f"block/{head}"), False]
    set_label_lookup(None)
    set_entity_actions(None)
    run_in_qloop(qtbot, labels.aclose())


def test_labels_tab_lists_edits_and_removes(qtbot: QtBot, model: LabelsViewModel) -> None:
    wait(qtbot, model.set_label(BRIDGE, "zeta peg"))
    wait(qtbot, model.set_label(ALICE, "Alice"))
    dock = BookmarksView(model)
    qtbot.addWidget(dock)
    dock.show()
    assert not dock.rename_button.isEnabled()  # no bookmarks on the first tab
    dock.tabs.setCurrentWidget(dock.table)
    assert dock.rename_button.text() == "Edit…"
    assert dock.rename_button.isEnabled()
    table = model.table
    rows = [(table.index(r, 0).data(), table.index(r, 1).data()) for r in range(2)]
    assert rows == [("Alice", to_checksum_address(ALICE, 31)), ("zeta peg", BRIDGE)]
    rect = dock.table.visualRect(table.index(0, 1))
    with qtbot.waitSignal(dock.link_activated, timeout=2000) as blocker:
        qtbot.mouseClick(dock.table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
        qtbot.mouseDClick(dock.table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert blocker.args == [Route.parse(f"address/{ALICE}"), False]
    dock.ask_text = lambda parent, title, prompt, text: text + " (old)"
    with qtbot.waitSignal(model.labels_changed, timeout=5000):
        qtbot.mouseClick(dock.rename_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: model.get(ALICE) == "Alice (old)", timeout=5000)
    dock.table.setCurrentIndex(table.index(1, 0))
    with qtbot.waitSignal(model.labels_changed, timeout=5000):
        qtbot.mouseClick(dock.remove_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: BRIDGE not in model, timeout=5000)
    assert table.rowCount() == 1


def test_the_import_flow_needs_no_widgets(
    qtbot: QtBot, model: LabelsViewModel, tmp_path: Path
) -> None:
    """The view model asks (through plain callables), reads, merges and reports by itself."""
    wait(qtbot, model.set_label(ALICE, "Mine"))
    path = write_file(tmp_path / "in.json", labels=[{"address": ALICE, "label": "Theirs"}])
    asked: list[int] = []

    def ask_overwrite(count: int) -> Overwrite:
        asked.append(count)
        return Overwrite.REPLACE

    assert model.import_asking(lambda: None, ask_overwrite) is None  # no file chosen
    task = model.import_asking(lambda: path, ask_overwrite)
    assert task is not None
    report = wait(qtbot, task)
    assert asked == [1]
    assert report.updated == 1
    assert model.get(ALICE) == "Theirs"
    assert model.message.startswith("Imported: 0 added, 1 updated")


def test_the_star_bookmarks_the_page_and_the_watchlist_has_its_own_button(
    qtbot: QtBot, model: LabelsViewModel
) -> None:
    """The toolbar's star opened the Watchlist: now it stars the page, and shows that it did."""
    window = MainWindow(ShellViewModel())
    qtbot.addWidget(window)
    install_labels(window, model)
    window.show()
    watchlist = menu_action(window.toolbar, "Watchlist")
    assert watchlist is not None
    assert button_text(window, watchlist) == "Watchlist"  # named, not a bare star
    star = menu_action(window.toolbar, "Bookmark this page")
    assert star is not None
    assert not star.isEnabled()  # Home cannot be bookmarked
    route = Route.parse(f"tx/{TX}")
    window.navigator.go(route)
    assert star.isEnabled()
    assert not star.isChecked()
    tabs_before = window.navigator.count
    with qtbot.waitSignal(model.bookmarks.modelReset, timeout=5000):
        star.trigger()
    assert model.is_bookmarked(route)
    assert star.isChecked()
    assert "Remove" in star.toolTip()
    assert window.navigator.count == tabs_before  # no Watchlist tab opened
    window.navigator.go(Route.parse("block/7"))
    assert not star.isChecked()  # another page: not bookmarked
    window.navigator.back()
    assert star.isChecked()
    with qtbot.waitSignal(model.bookmarks.modelReset, timeout=5000):
        star.trigger()
    assert not model.is_bookmarked(route)
    assert not star.isChecked()


def button_text(window: MainWindow, action: QAction) -> str:
    """Return the text the toolbar's button of an action shows (empty when icon only)."""
    button = window.toolbar.widgetForAction(action)
    assert isinstance(button, QToolButton)
    shown = button.toolButtonStyle() != Qt.ToolButtonStyle.ToolButtonIconOnly
    return button.text() if shown else ""
