"""Renders a page document: headline, titled sections of label/value rows, raw JSON."""

from __future__ import annotations

import json

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QColor, QFontDatabase, QPalette
from PySide6.QtWidgets import (
    QFormLayout,
    QGroupBox,
    QLabel,
    QPlainTextEdit,
    QVBoxLayout,
    QWidget,
)

from explorer.viewmodels.document import Document, Field, Kind, Tone

TONE_COLOURS = {Tone.GOOD: "#1a7f37", Tone.BAD: "#cf222e", Tone.WAITING: "#9a6700"}
MONO_KINDS = {Kind.ADDRESS, Kind.TX_HASH, Kind.BLOCK, Kind.HASH, Kind.HEX}
MAX_INLINE_HEX = 200


def plain_label(text: str, *, selectable: bool = True) -> QLabel:
    """Return a label that shows text literally (never rich text)."""
    label = QLabel(text)
    label.setTextFormat(Qt.TextFormat.PlainText)
    if selectable:
        label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    return label


def tone_palette(label: QLabel, tone: Tone) -> None:
    """Colour a label by its tone through the palette (works in light and dark)."""
    colour = TONE_COLOURS.get(tone)
    palette = label.palette()
    if colour is not None:
        palette.setColor(QPalette.ColorRole.WindowText, QColor(colour))
    elif tone is Tone.MUTED:
        palette.setColor(
            QPalette.ColorRole.WindowText, palette.color(QPalette.ColorRole.PlaceholderText)
        )
    label.setPalette(palette)


class LinkLabel(QLabel):
    """A plain-text value that opens a route when clicked (middle or Ctrl+click: new tab).

    Signals:
        link_activated(str, bool): route, whether to open it in a new tab.
    """

    link_activated = Signal(str, bool)

    def __init__(self, text: str, route: str) -> None:
        super().__init__(text)
        self.route = route
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        palette = self.palette()
        palette.setColor(QPalette.ColorRole.WindowText, palette.color(QPalette.ColorRole.Link))
        self.setPalette(palette)
        self.setToolTip(route)

    def mouseReleaseEvent(self, event: object) -> None:
        """Open the route; a middle click or Ctrl+click opens it in a new tab."""
        button = event.button()  # type: ignore[attr-defined]
        modifiers = event.modifiers()  # type: ignore[attr-defined]
        if button == Qt.MouseButton.MiddleButton:
            self.link_activated.emit(self.route, True)
        elif button == Qt.MouseButton.LeftButton:
            ctrl = bool(modifiers & Qt.KeyboardModifier.ControlModifier)
            self.link_activated.emit(self.route, ctrl)


class DocumentView(QWidget):
    """Shows a Document; links bubble up through `link_activated`.

    Signals:
        link_activated(str, bool): route, whether to open it in a new tab.
    """

    link_activated = Signal(str, bool)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._layout = QVBoxLayout(self)
        self._layout.setAlignment(Qt.AlignmentFlag.AlignTop)
        self.headline = plain_label("")
        font = self.headline.font()
        font.setPointSizeF(font.pointSizeF() * 1.5)
        font.setBold(True)
        self.headline.setFont(font)
        self.title = plain_label("")
        self.value_labels: dict[str, QLabel] = {}

    def show_document(self, document: Document) -> None:
        """Replace what is shown with a document."""
        self._clear()
        self.value_labels = {}
        self.title.setText(document.title)
        self.headline.setText(f"{document.headline.text}")
        tone_palette(self.headline, document.headline.tone)
        self._layout.addWidget(self.title)
        self._layout.addWidget(self.headline)
        for section in document.sections:
            self._layout.addWidget(self._section_box(section.title, section.note, section.fields))

    def _clear(self) -> None:
        """Remove every widget but the reusable title and headline."""
        while self._layout.count():
            item = self._layout.takeAt(0)
            widget = item.widget() if item is not None else None
            if widget is not None and widget not in (self.title, self.headline):
                widget.deleteLater()

    def _section_box(self, title: str, note: str, fields: tuple[Field, ...]) -> QGroupBox:
        """Return one titled section."""
        box = QGroupBox(title)
        form = QFormLayout(box)
        form.setLabelAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignTop)
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        if note:
            form.addRow(plain_label(note))
        for item in fields:
            form.addRow(plain_label(item.label, selectable=False), self._value_widget(item))
        return box

    def _value_widget(self, item: Field) -> QWidget:
        """Return the widget showing one field's value."""
        if item.kind is Kind.HEX and len(item.text) > MAX_INLINE_HEX:
            return hex_box(item.text)
        if item.link:
            label: QLabel = LinkLabel(item.text, item.link)
            label.link_activated.connect(self.link_activated)  # type: ignore[attr-defined]
        else:
            label = plain_label(item.text)
        label.setWordWrap(item.kind not in MONO_KINDS)
        if item.kind in MONO_KINDS:
            label.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        if item.tooltip:
            label.setToolTip(item.tooltip)
        tone_palette(label, item.tone)
        self.value_labels.setdefault(item.label, label)
        return label


def hex_box(text: str) -> QPlainTextEdit:
    """Return a read-only monospace box for long hex data."""
    box = QPlainTextEdit(text)
    box.setReadOnly(True)
    box.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
    box.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
    box.setMaximumHeight(120)
    return box


def raw_json_box(document: Document) -> QPlainTextEdit:
    """Return the node's raw JSON of the page, pretty-printed."""
    box = QPlainTextEdit(json.dumps(document.raw, indent=2))
    box.setReadOnly(True)
    box.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
    box.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
    return box
