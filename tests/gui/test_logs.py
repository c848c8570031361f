"""The Logs screen: validation as you type, the lazy table at 100,000 rows, scans on the devnet."""

from __future__ import annotations

import csv
import itertools
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import qasync
from PySide6.QtCore import QModelIndex, Qt, QTimer
from PySide6.QtWidgets import QApplication, QTableView
from pytestqt.qtbot import QtBot

from explorer.chain.records import Log
from explorer.presentation.format import duration_text
from explorer.presentation.log_form import Field, check_fields
from explorer.rpc.endpoint import Endpoint
from explorer.rpc.retry import RetryPolicy
from explorer.services.logexport import ExportFormat, csv_fields, log_data
from explorer.services.networks import DEVNET
from explorer.services.routes import Route
from explorer.services.session import Session
from explorer.viewmodels.log_export import ExportProgress, ExportState
from explorer.viewmodels.log_table import (
    BATCH,
    SORT_AT_ONCE,
    Column,
    LogTableModel,
    short_hash,
)
from explorer.viewmodels.logs import LogsViewModel, ScanState
from explorer.viewmodels.navigator import tab_title
from explorer.viewmodels.roles import ROUTE_ROLE
from explorer.views.logs_view import LogsView
from explorer.views.widgets.sortable import make_sortable
from tests.helpers.devnet import PROFILES, Devnet
from tests.helpers.gui import typed_transfer_query
from tests.helpers.logs_node import TRANSFER, answer_logs
from tests.helpers.qt import run_in_qloop
from tests.helpers.schemas import assert_follows
from tests.helpers.scripted_server import Recorded, Reply, ScriptedServer, html
from tests.helpers.testnet_node import serve_testnet
from tests.helpers.timing import WAIT

ADDRESS = "0x" + "ab" * 20
ROWS = 100_000


@pytest.fixture
def offline_model(qapp: QApplication) -> LogsViewModel:
    """Return a view model on a session that is never used for a request."""
    session = Session(DEVNET, Endpoint.parse("http://127.0.0.1:9/unusedkey0000"))
    return LogsViewModel(session)


def test_messages_per_field_as_you_type(offline_model: LogsViewModel) -> None:
    """Each rule of the spec gives a message on its own field; fixing it clears it."""
    model = offline_model
    seen: list[int] = []
    model.errors_changed.connect(lambda errors: seen.append(1))
    model.set_field("addresses", f"{ADDRESS}, 0x12")
    assert "20-byte" in model.errors[Field.ADDRESSES]
    assert "0x12" in model.errors[Field.ADDRESSES]
    assert not model.can_start
    assert seen
    model.set_field("addresses", f"{ADDRESS} {ADDRESS.upper().replace('0X', '0x')}")
    assert "addresses" not in model.errors
    assert model.can_start
    model.set_field("topic2", f"{TRANSFER},0x1234")
    assert "32-byte" in model.errors["topic2"]
    assert set(model.errors) == {"topic2"}
    model.set_field("topic2", "")
    model.set_field("from_block", "10")
    model.set_field("to_block", "5")
    assert "before" in model.errors["to_block"]
    model.set_field("to_block", "latest")
    assert not model.errors
    model.set_field("block_hash", "0x" + "11" * 32)
    assert "excludes" in model.errors["block_hash"]
    model.set_field("from_block", "")
    model.set_field("to_block", "")
    assert not model.errors
    assert model.can_start
    model.set_field("from_block", "yesterday")
    assert "latest" in model.errors["from_block"]


def test_check_fields_accepts_hex_numbers_and_tags() -> None:
    """0x numbers, decimals and the tags are block bounds; an empty form is valid."""
    texts = dict.fromkeys(("addresses", "topic0", "topic1", "topic2", "topic3", "block_hash"), "")
    assert check_fields({**texts, "from_block": "0x10", "to_block": "pending"}) == {}
    assert check_fields({**texts, "from_block": "earliest", "to_block": "16"}) == {}
    assert check_fields({**texts, "from_block": "0x11", "to_block": "16"}) != {}


def synthetic(row: int) -> bytes:
    """Return the node's JSON of a synthetic Transfer log (compact bytes)."""
    topics = [TRANSFER, "0x" + f"{row:064x}", "0x" + f"{row + 1:064x}"]
    return json.dumps(
        {
            "address": ADDRESS,
            "topics": topics,
            "data": "0x" + f"{row:064x}",
            "blockNumber": hex(row // 10),
            "blockHash": "0x" + f"{row // 10:064x}",
            "transactionHash": "0x" + f"{row:064x}",
            "transactionIndex": "0x0",
            "logIndex": hex(row % 10),
        },
        separators=(",", ":"),
    ).encode()


def test_table_of_100000_rows_fetches_lazily_and_formats_on_demand(qtbot: QtBot) -> None:
    """Rows arrive in batches; only BATCH are shown until fetched; cells format lazily."""
    table = LogTableModel(31)
    table.sort(Column.BLOCK, Qt.SortOrder.AscendingOrder)  # oldest first: rows go at the end
    view = QTableView()
    qtbot.addWidget(view)
    view.setModel(table)
    view.resize(900, 500)
    view.show()
    started = time.perf_counter()
    for first in range(0, ROWS, 5000):
        rows = range(first, first + 5000)
        table.add_compact([synthetic(r) for r in rows], [r // 10 for r in rows])
    print(f"100,000 rows appended in {time.perf_counter() - started:.2f} s")
    assert table.total == ROWS
    assert table.rowCount() == BATCH
    assert table.canFetchMore(QModelIndex())
    view.scrollToBottom()
    QApplication.processEvents()
    assert table.rowCount() > BATCH
    while table.canFetchMore(QModelIndex()):
        table.fetchMore(QModelIndex())
    assert table.rowCount() == ROWS
    view.scrollToBottom()
    QApplication.processEvents()
    last = table.index(ROWS - 1, Column.BLOCK)
    assert table.data(last) == f"{(ROWS - 1) // 10:,}"
    assert str(table.data(last, ROUTE_ROLE)) == f"block/{(ROWS - 1) // 10}"
    assert table.data(table.index(5, Column.EVENT)) == "Transfer"
    assert "value: 5" in table.data(table.index(5, Column.ARGS))
    assert str(table.data(table.index(5, Column.TX), ROUTE_ROLE)) == "tx/0x" + f"{5:064x}"
    assert str(table.data(table.index(5, Column.ADDRESS), ROUTE_ROLE)) == f"address/{ADDRESS}"
    assert table.data(table.index(5, Column.TOPIC3)) == ""
    for row in range(ROWS - 60, ROWS):
        for column in Column:
            assert table.data(table.index(row, column)) is not None


def test_late_rows_are_inserted_in_block_order(qapp: QApplication) -> None:
    """A retried range lands between the rows around it, newest first."""
    table = LogTableModel(31)
    table.add_compact([synthetic(r) for r in range(0, 100)], [r // 10 for r in range(0, 100)])
    table.add_compact([synthetic(r) for r in range(200, 300)], [r // 10 for r in range(200, 300)])
    table.add_compact([synthetic(r) for r in range(100, 200)], [r // 10 for r in range(100, 200)])
    blocks = [int(table.data(table.index(row, Column.BLOCK))) for row in range(table.rowCount())]
    assert blocks == sorted(blocks, reverse=True)
    assert table.rowCount() == 300
    indexes = [int(table.data(table.index(row, Column.LOG_INDEX))) for row in range(10)]
    assert indexes == list(range(9, -1, -1))  # within a block, the last log first


def test_newest_rows_stream_in_on_top_and_the_rest_waits_to_be_fetched(
    qapp: QApplication,
) -> None:
    """Newest first: each batch lands on top, and the table still shows a BATCH, not all."""
    table = LogTableModel(31)
    for first in range(0, 5 * BATCH, BATCH // 2):
        rows = range(first, first + BATCH // 2)
        table.add_compact([synthetic(r) for r in rows], [r // 10 for r in rows])
    assert table.total == 5 * BATCH
    assert table.rowCount() == BATCH
    assert table.data(table.index(0, Column.BLOCK)) == f"{(5 * BATCH - 1) // 10:,}"
    assert table.canFetchMore(QModelIndex())


@pytest.mark.parametrize("rows", [300, SORT_AT_ONCE + 700])
def test_a_header_click_sorts_every_row_by_that_column(
    qloop: qasync.QEventLoop, qtbot: QtBot, rows: int
) -> None:
    """Any column sorts every row (a big table a slice per loop turn); new rows go in order."""
    table = LogTableModel(31)
    view = QTableView()
    qtbot.addWidget(view)
    view.setModel(table)
    make_sortable(view)
    table.add_compact([synthetic(r) for r in range(rows)], [r // 10 for r in range(rows)])
    header = view.horizontalHeader()
    header.setSortIndicator(Column.LOG_INDEX, Qt.SortOrder.AscendingOrder)  # a click does this
    qtbot.waitUntil(lambda: table.data(table.index(0, Column.LOG_INDEX)) == "0", timeout=10_000)
    while table.canFetchMore(QModelIndex()):
        table.fetchMore(QModelIndex())
    shown = [int(table.data(table.index(row, Column.LOG_INDEX))) for row in range(rows)]
    assert shown == sorted(shown)
    header.setSortIndicator(Column.TOPIC1, Qt.SortOrder.DescendingOrder)
    top = "0x" + f"{rows - 1:064x}"
    qtbot.waitUntil(
        lambda: table.data(table.index(0, Column.TOPIC1), Qt.ItemDataRole.ToolTipRole) == top,
        timeout=10_000,
    )
    table.add_compact([synthetic(rows + 5)], [(rows + 5) // 10])  # lands in its place: on top
    assert table.data(table.index(0, Column.TOPIC1), Qt.ItemDataRole.ToolTipRole) == (
        "0x" + f"{rows + 5:064x}"
    )


@pytest.fixture
def session(qloop: qasync.QEventLoop, qtbot: QtBot, devnet: Devnet) -> Iterator[Session]:
    """Yield a session on the devnet's test network."""
    session = Session(DEVNET, Endpoint.parse(devnet.url("testnet")))
    yield session
    run_in_qloop(qtbot, session.aclose())


def node_logs(session: Session, qtbot: QtBot, flt: dict[str, Any]) -> list[Any]:
    """Ask the node for logs with one request."""
    result = run_in_qloop(qtbot, session.client.call("eth_getLogs", [flt]))
    assert isinstance(result, list)
    return result


@pytest.mark.parametrize("devnet", PROFILES, indirect=True)
def test_scan_on_the_devnet_fills_the_table_and_exports(
    session: Session,
    qtbot: QtBot,
    devnet: Devnet,
    tmp_path: Path,
) -> None:
    """Type a query, Start: rows, progress and links; CSV and JSON exports match the node."""
    token = devnet.manifest()["token"]
    view = typed_transfer_query(qtbot, session, token)
    assert view.start_button.isEnabled()
    assert not view.cancel_button.isEnabled()
    qtbot.mouseClick(view.start_button, Qt.MouseButton.LeftButton)
    model = view.model
    qtbot.waitUntil(lambda: model.state is ScanState.DONE, timeout=30_000)
    expected = node_logs(
        session,
        qtbot,
        {"fromBlock": hex(1800), "toBlock": hex(2400), "address": token, "topics": [TRANSFER]},
    )
    assert model.table.total == len(expected) > 20
    arguments = model.table.index(0, Column.ARGS)
    qtbot.waitUntil(lambda: str(arguments.data()).endswith(" DVT"), timeout=10_000)  # amounts
    assert ", value: " in str(arguments.data())  # in the token's units, its decimals read once
    assert session.client.stats.by_method["eth_call"] <= 2
    assert view.progress.value() == 1000
    assert "logs" in view.progress_label.text()
    assert view.export_json_button.isEnabled()
    routes: list[tuple[Route, bool]] = []
    view.link_activated.connect(lambda route, new_tab: routes.append((route, new_tab)))
    table = view.table
    cell = model.table.index(0, Column.TX)
    qtbot.mouseClick(
        table.viewport(), Qt.MouseButton.LeftButton, pos=table.visualRect(cell).center()
    )
    newest_first = expected[::-1]  # the table's order, which the exports keep
    assert routes == [(Route.parse(f"tx/{newest_first[0]['transactionHash']}"), False)]
    assert exported(qtbot, model, tmp_path / "logs.json", ExportFormat.JSON) == len(expected)
    written = json.loads((tmp_path / "logs.json").read_text())
    assert_follows(written, "logs", chain_id=session.network.chain_id)  # as `explorer logs`
    assert written == [
        log_data(Log.from_json(log), session.network.chain_id) for log in newest_first
    ]
    assert all(model.table.csv_lines())  # made as the rows came: the export only writes them
    exported(qtbot, model, tmp_path / "logs.csv", ExportFormat.CSV)
    rows = list(csv.reader((tmp_path / "logs.csv").read_text().splitlines()))
    assert len(rows) == len(expected) + 1
    assert rows[1][1] == newest_first[0]["transactionHash"]
    assert rows[1:] == [csv_fields(Log.from_json(log)) for log in newest_first]


def exported(qtbot: QtBot, model: LogsViewModel, path: Path, fmt: ExportFormat) -> int | None:
    """Export the model's table and wait for the rows written."""
    task = model.export.start(path, fmt)
    assert task is not None
    qtbot.waitUntil(task.done, timeout=30_000)
    return task.result()


def test_cancel_stops_the_scan(session: Session, qtbot: QtBot) -> None:
    """Cancel during a whole-history scan of every log: state cancelled, buttons reset."""
    model = LogsViewModel(session)
    view = LogsView(model)
    qtbot.addWidget(view)
    assert model.start()
    qtbot.waitUntil(lambda: model.scanner is not None and model.scanner.requests > 0, timeout=WAIT)
    qtbot.mouseClick(view.cancel_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: model.state is ScanState.CANCELLED, timeout=10_000)
    sent = session.client.stats.by_method["eth_getLogs"]
    qtbot.wait(300)
    assert session.client.stats.by_method["eth_getLogs"] == sent
    assert view.start_button.isEnabled()
    assert not view.cancel_button.isEnabled()
    assert model.progress is None or model.progress.fraction < 1.0


def test_failed_range_is_retried_into_place(qloop: qasync.QEventLoop, qtbot: QtBot) -> None:
    """A range that fails leaves Retry enabled; retrying puts its rows between the others."""
    node = ScriptedServer(answer_logs)
    endpoint = Endpoint.parse(node.url)
    session = Session(DEVNET, endpoint)
    session.client.retry = RetryPolicy(attempts=1)
    node.fallback = serve_testnet  # the chain check first (a scan waits for it)
    assert run_in_qloop(qtbot, session.settled_check()).verified
    ranges_asked = itertools.count()

    def second_range_fails(request: Recorded) -> Reply:
        """Answer logs, but the second eth_getLogs with a gateway's error page."""
        if request.rpc_method == "eth_getLogs" and next(ranges_asked) == 1:
            return html(502)(request)
        reply: Reply = answer_logs(request)
        return reply

    node.fallback = second_range_fails  # other calls (a token's units) go by as they come
    model = LogsViewModel(session, concurrency=1)
    view = LogsView(model)
    qtbot.addWidget(view)
    try:
        model.set_field("from_block", "0")
        model.set_field("to_block", "300")
        assert model.start()
        qtbot.waitUntil(lambda: model.state is not ScanState.RUNNING, timeout=20_000)
        assert model.state is ScanState.DONE, model.message
        assert model.can_retry
        assert view.retry_button.isEnabled()
        assert "Retry" in model.message
        assert "failed" in model.progress_text
        missing = 301 - model.table.total
        assert missing > 0
        qtbot.mouseClick(view.retry_button, Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda: model.state is ScanState.DONE, timeout=20_000)
        assert model.table.total == 301
        assert not model.can_retry
        while model.table.canFetchMore(QModelIndex()):
            model.table.fetchMore(QModelIndex())
        blocks = [model.table.log(row).block_number for row in range(301)]
        assert blocks == list(range(300, -1, -1))  # newest first
    finally:
        run_in_qloop(qtbot, session.aclose())
        node.close()


def test_cells_stay_right_when_rows_are_appended_or_put_before(qapp: QApplication) -> None:
    """Formatted rows are reused after appends; rows put before them move them down."""
    table = LogTableModel(31)
    table.sort(Column.BLOCK, Qt.SortOrder.AscendingOrder)
    table.add_compact([synthetic(r) for r in range(100, 200)], [r // 10 for r in range(100, 200)])
    first = table.index(0, Column.TX)
    assert table.data(first, Qt.ItemDataRole.ToolTipRole) == "0x" + f"{100:064x}"
    assert table.data(first) == short_hash("0x" + f"{100:064x}")
    table.add_compact([synthetic(r) for r in range(200, 300)], [r // 10 for r in range(200, 300)])
    assert table.data(table.index(0, Column.BLOCK)) == "10"
    assert table.data(table.index(150, Column.BLOCK)) == "25"
    table.add_compact([synthetic(r) for r in range(0, 100)], [r // 10 for r in range(0, 100)])
    assert table.data(table.index(0, Column.BLOCK)) == "0"
    assert (
        table.data(table.index(100, Column.TX), Qt.ItemDataRole.ToolTipRole) == "0x" + f"{100:064x}"
    )
    topic = table.index(3, Column.TOPIC1)
    assert table.data(topic, Qt.ItemDataRole.ToolTipRole) == "0x" + f"{3:064x}"
    assert table.data(table.index(3, Column.BLOCK), Qt.ItemDataRole.TextAlignmentRole) is not None
    assert table.data(table.index(3, Column.TX), Qt.ItemDataRole.TextAlignmentRole) is None
    assert table.data(table.index(3, Column.TX), Qt.ItemDataRole.FontRole) is None


@pytest.fixture
def big_table_view(
    qloop: qasync.QEventLoop, qtbot: QtBot, offline_model: LogsViewModel
) -> Iterator[LogsView]:
    """Yield the Logs screen holding ROWS synthetic logs (as if a scan had found them)."""
    for first in range(0, ROWS, 5000):
        rows = range(first, first + 5000)
        offline_model.table.add_compact([synthetic(r) for r in rows], [r // 10 for r in rows])
    offline_model._set(ScanState.DONE)
    view = LogsView(offline_model)
    qtbot.addWidget(view)
    view.show()
    yield view
    offline_model.dispose()


def test_export_of_100000_rows_runs_off_the_gui_thread_with_progress(
    qtbot: QtBot, big_table_view: LogsView, tmp_path: Path
) -> None:
    """Export CSV: the GUI keeps ticking, rows written of total show, the file appears whole."""
    view, model = big_table_view, big_table_view.model
    path = tmp_path / "logs.csv"
    view.ask_export_path = lambda parent, fmt: path
    assert view.export_csv_button.isEnabled()
    assert not view.cancel_export_button.isVisible()
    written: list[int] = []
    shown: list[str] = []
    files_half_way: list[list[str]] = []

    def on_progress(progress: ExportProgress) -> None:
        written.append(progress.written)
        shown.append(view.export_label.text())
        if 0 < progress.written < ROWS // 2:  # seconds before the end: the file is partial
            files_half_way.append([file.suffix for file in tmp_path.iterdir()])

    model.export.progress_changed.connect(on_progress)
    ticks: list[float] = [time.perf_counter()]
    timer = QTimer()
    timer.timeout.connect(lambda: ticks.append(time.perf_counter()))
    timer.start(5)

    def export_state() -> ExportState:  # read anew after each step (no narrowing kept)
        return model.export.state

    qtbot.mouseClick(view.export_csv_button, Qt.MouseButton.LeftButton)
    assert export_state() is ExportState.WRITING
    assert view.cancel_export_button.isVisible()
    assert not view.export_csv_button.isEnabled()
    qtbot.waitUntil(lambda: export_state() is not ExportState.WRITING, timeout=120_000)
    timer.stop()
    assert export_state() is ExportState.DONE, model.export.message
    assert written[0] == 0
    assert written[-1] == ROWS
    assert written == sorted(written)
    assert len(written) > 10
    assert any(f"of {ROWS:,} logs" in text for text in shown[1:])
    rows = list(csv.reader(path.read_text().splitlines()))
    assert len(rows) == ROWS + 1
    assert rows[1][1] == "0x" + f"{ROWS - 1:064x}"  # newest first, as the table shows them
    assert files_half_way
    assert all(files == [".part"] for files in files_half_way)
    assert list(tmp_path.iterdir()) == [path]  # no partial file left beside it
    assert view.export_result.text() == f"Exported {ROWS:,} logs to {path}"
    assert view.export_result.isVisible()
    assert not view.export_label.isVisible()
    assert view.export_csv_button.isEnabled()
    assert not view.cancel_export_button.isVisible()
    stalls = [later - earlier for earlier, later in itertools.pairwise(ticks)]
    print(f"export of {ROWS:,} rows: longest GUI stall {max(stalls) * 1000:.0f} ms")
    assert len(ticks) > 20  # the event loop kept turning (a blocking export gives one tick)


def test_a_cancelled_export_leaves_the_old_file_and_no_partial_one(
    qtbot: QtBot, big_table_view: LogsView, tmp_path: Path
) -> None:
    """Cancel export mid-way: the file at the path is the one from before, nothing beside it."""
    view, model = big_table_view, big_table_view.model
    path = tmp_path / "logs.json"
    path.write_text("the previous export")
    view.ask_export_path = lambda parent, fmt: path

    def cancel_once_written(progress: ExportProgress) -> None:
        if progress.written:
            view.cancel_export_button.click()

    model.export.progress_changed.connect(cancel_once_written)
    qtbot.mouseClick(view.export_json_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: model.export.state is not ExportState.WRITING, timeout=60_000)
    assert model.export.state is ExportState.CANCELLED
    assert model.export.progress is not None
    assert model.export.progress.written < ROWS
    assert path.read_text() == "the previous export"
    assert list(tmp_path.iterdir()) == [path]
    assert "cancelled" in view.export_result.text()
    assert view.export_json_button.isEnabled()


def test_the_export_worker_waits_while_the_gui_thread_is_busy(
    qtbot: QtBot, big_table_view: LogsView, tmp_path: Path
) -> None:
    """While the GUI thread is busy (a long paint, say), the worker writes nothing more.

    It goes on only when the event loop turns, so it never keeps the GUI thread from the GIL.
    """
    model = big_table_view.model
    grown: list[int] = []

    def busy_gui(progress: ExportProgress) -> None:
        if progress.written and not grown:
            (partial,) = tmp_path.iterdir()
            assert partial.suffix == ".part"
            before = partial.stat().st_size
            time.sleep(0.3)  # many export slices' time
            grown.append(partial.stat().st_size - before)
            model.export.cancel()

    model.export.progress_changed.connect(busy_gui)
    task = model.export.start(tmp_path / "logs.csv", ExportFormat.CSV)
    assert task is not None
    qtbot.waitUntil(task.done, timeout=60_000)
    assert grown == [0]
    assert model.export.state is ExportState.CANCELLED


def test_an_export_that_cannot_be_written_says_why(
    qtbot: QtBot, big_table_view: LogsView, tmp_path: Path
) -> None:
    """A folder that is not there: the export fails with the system's reason, writes nothing."""
    model = big_table_view.model
    task = model.export.start(tmp_path / "missing" / "logs.csv", ExportFormat.CSV)
    assert task is not None
    qtbot.waitUntil(task.done, timeout=30_000)
    assert task.result() is None
    assert model.export.state is ExportState.FAILED
    assert model.export.message == "Export failed: No such file or directory"
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    ("seconds", "text"),
    [
        (0.04, "0.0 s"),
        (0.34, "0.3 s"),
        (9.94, "9.9 s"),
        (9.96, "10 s"),
        (42.4, "42 s"),
        (185, "3 min 5 s"),
        (300, "5 min"),  # not "5 min 0 s"
        (7_800, "2 h 10 min"),
        (7_200, "2 h"),
        (2 * 86_400 + 4 * 3_600 + 59, "2 d 4 h"),
        (3_000_000_000, "95 years"),
    ],
)
def test_durations_read_naturally(seconds: float, text: str) -> None:
    """A fast scan says how long it took in tenths, a long wait in two units at most."""
    assert duration_text(seconds) == text


def test_block_numbers_read_as_on_every_page(qapp: QApplication) -> None:
    """Logs showed "12006" while pages said "12,006" and tabs "Block 11950": one format now."""
    table = LogTableModel(31)
    table.add_compact([synthetic(120_061)], [12_006])
    assert table.data(table.index(0, Column.BLOCK)) == "12,006"
    assert str(table.data(table.index(0, Column.BLOCK), ROUTE_ROLE)) == "block/12006"
    assert tab_title(Route.parse("block/11950")) == "Block 11,950"
    assert tab_title(Route.parse("block/latest")) == "Block latest"
