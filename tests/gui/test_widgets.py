"""The shared display widgets: checksums, elision, clipboard, links, plain text, hex, age."""

from __future__ import annotations

import json
import os
import time

import pytest
import shiboken6
from PySide6.QtCore import QPoint, Qt, QTimer
from PySide6.QtGui import QColor, QFontMetrics, QGuiApplication, QPalette
from PySide6.QtWidgets import QLabel, QWidget
from pytestqt.qtbot import QtBot

from explorer.chain.units import format_rbtc
from explorer.services.routes import Route
from explorer.views.widgets import (
    AddressLabel,
    AgeLabel,
    AgeTicker,
    AmountLabel,
    HashLabel,
    HexViewer,
    age_text,
)
from explorer.views.widgets.hexview import hex_lines
from explorer.views.widgets.links import CopyButton
from explorer.views.widgets.menus import COPY, COPY_JSON, OPEN_NEW_TAB, menu_action

ADDRESS = "0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed"
BRIDGE = "0x0000000000000000000000000000000001000006"
TX_HASH = "0x359f6010957a25b885387e3201c9262c71f91e47ff487c49e5168a54fc8ea110"


def clipboard() -> str:
    """Return the clipboard's text."""
    return QGuiApplication.clipboard().text()


def trigger(widget: AddressLabel | HashLabel | AmountLabel | AgeLabel, text: str) -> None:
    """Trigger one action of a widget's context menu."""
    action = menu_action(widget.context_menu(), text)
    assert action is not None, f"no {text!r} in the menu"
    action.trigger()


@pytest.mark.parametrize(
    ("chain_id", "shown"),
    [
        (30, "0x5aaEB6053f3e94c9b9a09f33669435E7ef1bEAeD"),
        (31, "0x5aAeb6053F3e94c9b9A09F33669435E7EF1BEaEd"),
        (None, "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"),
    ],
)
def test_address_checksum_per_chain(qtbot: QtBot, chain_id: int | None, shown: str) -> None:
    """The address is shown with the EIP-1191 checksum of its chain (EIP-55 without)."""
    label = AddressLabel(ADDRESS.upper().replace("0X", "0x"), chain_id)
    qtbot.addWidget(label)
    assert label.link.text() == shown
    assert label.address == ADDRESS
    assert label.route() == Route.parse(f"address/{ADDRESS}")


def test_address_known_label_and_override(qtbot: QtBot) -> None:
    """Precompiles get their label beside the address; an explicit label wins; others none."""
    bridge = AddressLabel(BRIDGE, 31)
    custom = AddressLabel(BRIDGE, 31, "My bridge")
    plain = AddressLabel(ADDRESS, 31)
    for widget in (bridge, custom, plain):
        qtbot.addWidget(widget)
    assert bridge.tag.text() == "Bridge"
    assert bridge.tag.isVisibleTo(bridge)
    assert custom.tag.text() == "My bridge"
    assert not plain.tag.isVisibleTo(plain)
    assert "Bridge" in bridge.link.toolTip()


def test_chain_data_is_plain_text(qtbot: QtBot) -> None:
    """Every label of every widget is plain text: a `<b>x</b>` label shows its tags."""
    tagged = "<b>x</b>"
    widgets: list[QWidget] = [
        AddressLabel(ADDRESS, 30, tagged),
        AddressLabel(tagged, 30),
        HashLabel(TX_HASH, "tx"),
        AmountLabel(1, tagged),
        AgeLabel(0),
        HexViewer(b"<b>x</b>", mode="rows"),
    ]
    for widget in widgets:
        qtbot.addWidget(widget)
        labels = [widget] if isinstance(widget, QLabel) else []
        for label in labels + widget.findChildren(QLabel):
            assert label.textFormat() == Qt.TextFormat.PlainText, type(label).__name__
    tag = widgets[0].tag  # type: ignore[attr-defined]
    literal = QFontMetrics(tag.font()).horizontalAdvance(tagged)
    assert tag.text() == tagged
    assert tag.sizeHint().width() >= literal  # rich text would render a narrow bold "x"
    assert tagged in widgets[3].text()  # type: ignore[attr-defined]
    assert "|<b>x</b>|" in widgets[5].text()  # type: ignore[attr-defined]
    for widget in widgets[:3]:
        tip = widget.link.toolTip()  # type: ignore[attr-defined]
        assert "<b>" not in tip
    assert "&lt;b&gt;x&lt;/b&gt;" in widgets[0].link.toolTip()  # type: ignore[attr-defined]


def test_copy_button_and_context_menu_copy(qtbot: QtBot) -> None:
    """The copy button copies the checksummed address; the menu copies it as JSON too."""
    label = AddressLabel(BRIDGE, 30)
    qtbot.addWidget(label)
    QGuiApplication.clipboard().setText("before")
    qtbot.mouseClick(label.copy_button, Qt.MouseButton.LeftButton)
    assert clipboard() == "0x0000000000000000000000000000000001000006"
    trigger(label, COPY_JSON)
    assert json.loads(clipboard()) == {
        "address": "0x0000000000000000000000000000000001000006",
        "chainId": 30,
        "label": "Bridge",
    }
    other = AddressLabel(ADDRESS, 31)
    qtbot.addWidget(other)
    trigger(other, COPY)
    assert clipboard() == "0x5aAeb6053F3e94c9b9A09F33669435E7EF1BEaEd"


@pytest.mark.parametrize(
    ("button", "modifier", "new_tab"),
    [
        (Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, False),
        (Qt.MouseButton.LeftButton, Qt.KeyboardModifier.ControlModifier, True),
        (Qt.MouseButton.MiddleButton, Qt.KeyboardModifier.NoModifier, True),
    ],
)
def test_link_signals(
    qtbot: QtBot, button: Qt.MouseButton, modifier: Qt.KeyboardModifier, new_tab: bool
) -> None:
    """Left click opens in place; Ctrl+click and middle click ask for a new tab."""
    address = AddressLabel(ADDRESS, 31)
    tx = HashLabel(TX_HASH.upper().replace("0X", "0x"), "tx")
    block = HashLabel(TX_HASH, "block")
    for widget, route in (
        (address, f"address/{ADDRESS}"),
        (tx, f"tx/{TX_HASH}"),
        (block, f"block/{TX_HASH}"),
    ):
        qtbot.addWidget(widget)
        with qtbot.waitSignal(widget.link_activated, timeout=1000) as blocker:
            qtbot.mouseClick(widget.link, button, modifier)
        assert blocker.args == [Route.parse(route), new_tab]


def test_right_click_and_non_address_do_not_navigate(qtbot: QtBot) -> None:
    """A right click is not a link click; text that is not an address has no link."""
    label = AddressLabel(ADDRESS, 31)
    broken = AddressLabel("0x1234", 31)
    for widget in (label, broken):
        qtbot.addWidget(widget)
    with qtbot.assertNotEmitted(label.link_activated, wait=50):
        qtbot.mouseClick(label.link, Qt.MouseButton.RightButton)
    assert broken.route() is None
    assert broken.link.text() == "0x1234"
    with qtbot.assertNotEmitted(broken.link_activated, wait=50):
        qtbot.mouseClick(broken.link, Qt.MouseButton.LeftButton)


def test_open_in_new_tab_from_menu(qtbot: QtBot) -> None:
    """The "Open in new tab" entry emits the route with new_tab True; amounts have no such entry."""
    label = HashLabel(TX_HASH, "block")
    amount = AmountLabel(5)
    qtbot.addWidget(label)
    qtbot.addWidget(amount)
    with qtbot.waitSignal(label.link_activated, timeout=1000) as blocker:
        trigger(label, OPEN_NEW_TAB)
    assert blocker.args == [Route.parse(f"block/{TX_HASH}"), True]
    assert menu_action(amount.context_menu(), OPEN_NEW_TAB) is None


def test_hash_elides_in_the_middle(qtbot: QtBot) -> None:
    """A narrow hash keeps both ends around an ellipsis; the tooltip and copy are full."""
    label = HashLabel(TX_HASH, "tx")
    qtbot.addWidget(label)
    label.show()
    label.resize(label.sizeHint())
    qtbot.waitUntil(lambda: label.link.text() == TX_HASH, timeout=1000)
    label.resize(220, label.height())
    qtbot.waitUntil(lambda: "…" in label.link.text(), timeout=1000)
    shown = label.link.text()
    assert shown.startswith("0x359f")
    assert shown.endswith("a110")
    assert len(shown) < len(TX_HASH)
    assert TX_HASH in label.link.toolTip()
    qtbot.mouseClick(label.copy_button, Qt.MouseButton.LeftButton)
    assert clipboard() == TX_HASH


def test_amount_reads_rounded_with_the_exact_one_on_hover_and_copy(qtbot: QtBot) -> None:
    """Four decimals shown; the tooltip gives the exact RBTC and the wei; Copy the exact."""
    wei = 1_234_567_890_123_456_789_012
    label = AmountLabel(wei, "tRBTC")
    qtbot.addWidget(label)
    assert label.text() == "1,234.5679 tRBTC"
    assert label.toolTip() == f"{format_rbtc(wei, 'tRBTC')}\n1,234,567,890,123,456,789,012 wei"
    trigger(label, COPY)
    assert clipboard() == "1,234.567890123456789012 tRBTC"
    trigger(label, COPY_JSON)
    assert json.loads(clipboard()) == {"wei": str(wei), "symbol": "tRBTC"}


@pytest.mark.parametrize(
    ("ago", "text"),
    [
        (0, "just now"),
        (45, "45 s ago"),
        (180, "3 min ago"),
        (3_723, "1 h 2 min ago"),
        (7_200, "2 h ago"),
        (86_400 + 60, "1 day ago"),
        (2 * 86_400 + 4 * 3_600, "2 days 4 h ago"),
        (400 * 86_400, "400 days ago"),
        (-30, "just now"),
        (-600, "in 10 min"),
    ],
)
def test_age_text(ago: int, text: str) -> None:
    """Ages read naturally, with at most two units; small clock skew is "just now"."""
    assert age_text(1_700_000_000 - ago, 1_700_000_000) == text


def test_age_tooltip_has_local_and_utc() -> None:
    """The tooltip gives the UTC time (and the local one)."""
    label = AgeLabel(1_700_000_000)
    tip = label.toolTip().splitlines()
    assert "2023-11-14 22:13:20 UTC" in tip
    assert any("(local" in line for line in tip)
    assert "out of range" in AgeLabel(10**20).toolTip()


def test_age_labels_share_one_timer(qtbot: QtBot) -> None:
    """All AgeLabels refresh from one shared QTimer, not one each."""
    now = [1_700_000_000.0]
    labels = [AgeLabel(1_700_000_000 - 59, clock=lambda: now[0]) for _ in range(3)]
    for label in labels:
        qtbot.addWidget(label)
        assert label.findChildren(QTimer) == []
    ticker = AgeTicker.shared()
    assert ticker is AgeTicker.shared()
    assert len(ticker.findChildren(QTimer)) == 1
    assert [label.text() for label in labels] == ["59 s ago"] * 3
    now[0] += 61
    qtbot.waitUntil(lambda: all(label.text() == "2 min ago" for label in labels), timeout=3000)


def test_hex_rows_layout() -> None:
    """16-byte rows: offset, two groups of eight, and the printable ASCII column."""
    lines = hex_lines(bytes(range(0x20, 0x40)) + b"\x00", "rows")
    assert lines == [
        "0000  20 21 22 23 24 25 26 27  28 29 2a 2b 2c 2d 2e 2f  | !\"#$%&'()*+,-./|",
        "0010  30 31 32 33 34 35 36 37  38 39 3a 3b 3c 3d 3e 3f  |0123456789:;<=>?|",
        "0020  00" + " " * 46 + "  |.|",
    ]


def test_hex_words_with_selector(qtbot: QtBot) -> None:
    """Words mode splits off the selector; offsets count from the arguments."""
    data = bytes.fromhex("a9059cbb") + b"\x11" * 32 + b"\x22" * 32
    viewer = HexViewer(data, selector=True)
    qtbot.addWidget(viewer)
    assert viewer.text().splitlines() == [
        "selector  a9059cbb",
        "00000000  " + "11" * 32,
        "00000020  " + "22" * 32,
    ]
    qtbot.mouseClick(viewer.rows_button, Qt.MouseButton.LeftButton)
    assert viewer.mode() == "rows"
    assert viewer.text().splitlines()[0].startswith("0000  a9 05 9c bb 11 11 11 11  11")
    assert viewer.size_label.text() == "68 bytes"
    qtbot.mouseClick(viewer.copy_button, Qt.MouseButton.LeftButton)
    assert clipboard() == "0x" + data.hex()


def test_hex_viewer_is_fast_for_100_kb(qtbot: QtBot) -> None:
    """100 KB renders in both layouts (its time is printed; bench/ measures speed)."""
    data = os.urandom(100_000)
    viewer = HexViewer()
    qtbot.addWidget(viewer)
    started = time.perf_counter()
    viewer.set_data(data)
    viewer.set_mode("rows")
    elapsed = time.perf_counter() - started
    assert viewer.view.blockCount() == 6_250
    print(f"hex viewer, 100 KB in rows: {elapsed * 1000:.0f} ms")


def test_copy_icon_follows_the_palette(qtbot: QtBot) -> None:
    """The drawn copy icon takes the palette's button text color (dark palettes)."""
    button = CopyButton("value")
    qtbot.addWidget(button)
    palette = button.palette()
    palette.setColor(QPalette.ColorRole.ButtonText, QColor("#ff0000"))
    button.setPalette(palette)
    image = button.icon().pixmap(32, 32).toImage()
    colors = {
        image.pixelColor(QPoint(x, y)).name()
        for x in range(image.width())
        for y in range(image.height())
        if image.pixelColor(QPoint(x, y)).alpha() == 255
    }
    assert colors == {"#ff0000"}


def test_deleted_age_label_leaves_the_ticker_clean(qtbot: QtBot) -> None:
    """A destroyed AgeLabel is no longer refreshed (no call into a deleted object)."""
    parent = QWidget()
    qtbot.addWidget(parent)
    AgeLabel(0, parent)
    survivor = AgeLabel(0, clock=lambda: 1_700_000_000.0)
    qtbot.addWidget(survivor)
    parent.deleteLater()
    qtbot.waitUntil(lambda: not shiboken6.isValid(parent), timeout=1000)
    with qtbot.captureExceptions() as exceptions:
        AgeTicker.shared().tick.emit()
    assert exceptions == []
    assert survivor.text().endswith("days ago")


class DictLabels:
    """A LabelLookup over a plain dict that the test edits."""

    def __init__(self, labels: dict[str, str]) -> None:
        self.labels = labels

    def get(self, address: str, default: str | None = None) -> str | None:
        """Return the label of an address, or default."""
        return self.labels.get(address, default)


def test_user_label_wins_and_follows_changes(qtbot: QtBot) -> None:
    """A user label replaces the known one (kept in the tooltip) and redraws live."""
    from explorer.views.widgets.address import USER_LABELS, set_label_lookup

    labels = {BRIDGE: "<i>my bridge</i>"}
    set_label_lookup(DictLabels(labels))
    try:
        bridge = AddressLabel(BRIDGE, 31)
        gone = AddressLabel(BRIDGE, 31)
        qtbot.addWidget(bridge)
        assert bridge.tag.text() == "<i>my bridge</i>"
        assert bridge.label == "<i>my bridge</i>"
        assert "Known as: Bridge" in bridge.link.toolTip()
        assert "&lt;i&gt;" in bridge.link.toolTip()
        shiboken6.delete(gone)
        labels[BRIDGE] = "renamed"
        USER_LABELS.changed.emit()
        assert bridge.tag.text() == "renamed"
        del labels[BRIDGE]
        USER_LABELS.changed.emit()
        assert bridge.tag.text() == "Bridge"
        assert "Known as" not in bridge.link.toolTip()
    finally:
        set_label_lookup(None)


def test_installed_entity_actions_join_linked_menus(qtbot: QtBot) -> None:
    """Installed extra entries appear on values with a route only, and receive that route."""
    from PySide6.QtWidgets import QMenu

    from explorer.views.widgets.menus import set_entity_actions

    seen: list[Route] = []

    class Extras:
        def add_actions(self, menu: QMenu, route: Route, parent: QWidget) -> None:
            menu.addAction("Extra").triggered.connect(lambda: seen.append(route))

    set_entity_actions(Extras())
    try:
        label = HashLabel(TX_HASH, "tx")
        amount = AmountLabel(5)
        qtbot.addWidget(label)
        qtbot.addWidget(amount)
        trigger(label, "Extra")
        assert seen == [Route.parse(f"tx/{TX_HASH}")]
        assert menu_action(amount.context_menu(), "Extra") is None
    finally:
        set_entity_actions(None)
    assert menu_action(label.context_menu(), "Extra") is None
