"""Renders a page document: headline, titled sections of label/value rows, raw JSON."""

from __future__ import annotations

import json

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import (
    QFormLayout,
    QGroupBox,
    QLabel,
    QPlainTextEdit,
    QVBoxLayout,
    QWidget,
)

from explorer.presentation.btc_fields import btc_network_kind
from explorer.presentation.document import Document, Field, Kind, Tone
from explorer.services.routes import Route
from explorer.viewmodels.observable import TypedSignal
from explorer.views.theme import monospace, plain_label, tone_palette
from explorer.views.widgets import AddressLabel, ExactValueLabel, HashLabel, HexViewer, LinkLabel
from explorer.views.widgets.bitcoin import BitcoinValue
from explorer.views.widgets.hashlabel import HashKind
from explorer.views.widgets.value import LinkedValue

MONO_KINDS = {Kind.ADDRESS, Kind.TX_HASH, Kind.BLOCK, Kind.HASH, Kind.HEX}
BITCOIN_KINDS = {Kind.BTC_TX: "tx", Kind.BTC_ADDRESS: "address", Kind.BTC_BLOCK: "block"}
MAX_INLINE_HEX = 200
HASH_KINDS: dict[Kind, HashKind] = {Kind.TX_HASH: "tx", Kind.BLOCK: "block", Kind.HASH: "hash"}


def same_shape(first: Document, second: Document) -> bool:
    """Tell whether two documents have the same sections and field labels (values may differ)."""
    return len(first.sections) == len(second.sections) and all(
        a.title == b.title
        and a.note == b.note
        and [f.label for f in a.fields] == [f.label for f in b.fields]
        for a, b in zip(first.sections, second.sections, strict=True)
    )


class DocumentView(QWidget):
    """Shows a Document; links bubble up through `link_activated`.

    Signals:
        link_activated(Route, bool): the route, whether to open it in a new tab.
        completed(): every section of the document given last is shown.
    """

    link_activated = TypedSignal[Route, bool]()
    completed = TypedSignal[()]()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._document: Document | None = None
        self._built: list[tuple[QFormLayout, list[QWidget]]] = []  # per built section
        self._staged: list[QGroupBox] = []  # built, not yet in the layout
        self._next_section = QTimer(self)  # a child: it dies with the view, unlike singleShot
        self._next_section.setSingleShot(True)
        self._next_section.setInterval(0)
        self._next_section.timeout.connect(self._add_next_section)
        self._layout = QVBoxLayout(self)
        self._layout.setAlignment(Qt.AlignmentFlag.AlignTop)
        self.headline = plain_label("")
        self.headline.setWordWrap(True)  # a diagnosis can say more than a line holds
        font = self.headline.font()
        font.setPointSizeF(font.pointSizeF() * 1.5)
        font.setBold(True)
        self.headline.setFont(font)
        self.title = plain_label("")
        self.value_labels: dict[str, QLabel] = {}
        self.chain_id: int | None = None

    def show_document(self, document: Document) -> None:
        """Show a document: in place when only values changed, else rebuilt."""
        self.chain_id = document.chain_id
        self.title.setText(document.title)
        self.headline.setText(document.headline.text)
        tone_palette(self.headline, document.headline.tone)
        previous, self._document = self._document, document
        if previous is not None and same_shape(previous, document):
            self._update_values(previous)
            if self.is_complete:  # else its last section, still to come, says so
                self.completed.emit()
            return
        self._clear()
        self.value_labels = {}
        self._layout.addWidget(self.title)
        self._layout.addWidget(self.headline)
        # One section per event-loop turn, so no single step blocks the GUI thread for long.
        # The first (status, overview) shows at once; the others join the layout together,
        # so the page is laid out and painted twice, not once per section.
        self._add_next_section()

    @property
    def is_complete(self) -> bool:
        """Tell whether every section of the current document is shown."""
        return self._document is None or (
            len(self._built) == len(self._document.sections) and not self._staged
        )

    def _add_next_section(self) -> None:
        """Build one waiting section; show the first at once, the others with the last."""
        if self._document is None:
            return
        sections = self._document.sections
        if len(self._built) < len(sections):
            section = sections[len(self._built)]
            self._staged.append(self._section_box(section.title, section.note, section.fields))
        if len(self._built) == 1 or len(self._built) == len(sections):
            for box in self._staged:
                self._layout.addWidget(box)
            self._staged = []
        if len(self._built) < len(sections):
            self._next_section.start()
        else:
            self.completed.emit()

    def _update_values(self, previous: Document) -> None:
        """Replace the value widgets of the shown fields whose values changed."""
        assert self._document is not None
        pairs = zip(previous.sections, self._document.sections, self._built, strict=False)
        for old_section, new_section, (form, widgets) in pairs:
            fields = zip(old_section.fields, new_section.fields, strict=True)
            for row, (old, new) in enumerate(fields):
                if old != new:
                    self._forget_labels_in(widgets[row])
                    replacement = self._value_widget(new)
                    form.replaceWidget(widgets[row], replacement)
                    widgets[row].deleteLater()
                    widgets[row] = replacement

    def _forget_labels_in(self, widget: QWidget) -> None:
        """Drop the value_labels entries that point into a widget about to be replaced."""
        for label, shown in list(self.value_labels.items()):
            if shown is widget or widget.isAncestorOf(shown):
                del self.value_labels[label]

    def _clear(self) -> None:
        """Remove every widget but the reusable title and headline."""
        self._built = []
        for box in self._staged:
            box.deleteLater()
        self._staged = []
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
            note_label = plain_label(note)
            note_label.setWordWrap(True)  # an explanation may be longer than the page is wide
            form.addRow(note_label)

        widgets = []
        for item in fields:
            widgets.append(self._value_widget(item))
            form.addRow(plain_label(item.label, selectable=False), widgets[-1])
        self._built.append((form, widgets))
        return box

    def _value_widget(self, item: Field) -> QWidget:
        """Return the widget showing one field's value: shared display widgets where they fit."""
        if item.kind is Kind.HEX and isinstance(item.value, bytes) and len(item.value) > 64:
            return HexViewer(item.value, selector=item.label == "Raw input")
        linked = self._linked_value(item)
        if linked is not None:
            linked.link_activated.connect(self.link_activated)
            self.value_labels.setdefault(item.label, linked.link)
            return linked
        if item.exact and item.exact != item.text:  # a rounded amount: exact on hover, Copy
            rounded = ExactValueLabel(item.text, item.exact, item.tooltip, str(item.value))
            rounded.setWordWrap(True)
            tone_palette(rounded, item.tone)
            self.value_labels.setdefault(item.label, rounded)
            return rounded
        if item.link:
            label: QLabel = LinkLabel(item.text, item.link)
            label.link_activated.connect(self.link_activated)  # type: ignore[attr-defined]
        else:
            label = plain_label(item.text)
        # a value alone is monospace; words (a missing value's reason, a sentence) are not
        mono = item.kind in MONO_KINDS and item.value is not None and " " not in item.text
        label.setWordWrap(not mono)
        if mono:
            monospace(label)
        if item.tooltip:
            label.setToolTip(item.tooltip)
        if item.tone is not Tone.NORMAL:  # a new label has the theme's colour already
            tone_palette(label, item.tone)
        self.value_labels.setdefault(item.label, label)
        return label

    def _linked_value(self, item: Field) -> LinkedValue | None:
        """Return an address or hash widget (checksum, label, elision, copy, menu) for a field."""
        if item.kind is Kind.ADDRESS and isinstance(item.value, str):
            return AddressLabel(item.value, self.chain_id)
        if item.kind in HASH_KINDS and isinstance(item.value, str):
            return HashLabel(item.value, HASH_KINDS[item.kind])
        if item.kind in BITCOIN_KINDS and isinstance(item.value, str):
            network = btc_network_kind(self.chain_id)
            return BitcoinValue(item.value, BITCOIN_KINDS[item.kind], network, item.link)
        return None


def raw_json_box() -> QPlainTextEdit:
    """Return an empty read-only box for a page's raw JSON."""
    box = QPlainTextEdit()
    box.setReadOnly(True)
    monospace(box)
    box.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
    return box


def raw_json_text(document: Document) -> str:
    """Return exactly what the node returned for the page, pretty-printed."""
    return json.dumps(document.raw, indent=2)
