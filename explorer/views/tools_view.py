"""A tool page: its inputs in a form, its result as labelled lines of plain, selectable text."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QGridLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from explorer.presentation.tool_results import ToolInput
from explorer.services.routes import Route
from explorer.viewmodels.observable import TypedSignal
from explorer.viewmodels.tools import ToolViewModel
from explorer.views.theme import monospace, plain_label, tone_palette

InputWidget = QLineEdit | QPlainTextEdit | QComboBox


class ToolView(QWidget):
    """Binds a ToolViewModel: typing recomputes; Compare asks the node (Keccak).

    Signals:
        link_activated(Route, bool): unused by tools; the window connects every page's.
    """

    link_activated = TypedSignal[Route, bool]()

    def __init__(self, model: ToolViewModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = model
        layout = QVBoxLayout(self)
        title = plain_label(model.title, selectable=False)
        font = title.font()
        font.setPointSizeF(font.pointSizeF() * 1.3)
        font.setBold(True)
        title.setFont(font)
        layout.addWidget(title)
        if model.spec.note:
            layout.addWidget(plain_label(model.spec.note, wrap=True))
        form = QFormLayout()
        self.inputs: dict[str, InputWidget] = {}
        for spec in model.spec.inputs:
            widget = self._input(spec)
            self.inputs[spec.key] = widget
            form.addRow(spec.label, widget)
        layout.addLayout(form)
        self.compare = QPushButton("Compare with the node (web3_sha3)")
        self.compare.setVisible(model.can_ask_node)
        self.compare.clicked.connect(model.ask_node)
        layout.addWidget(self.compare, alignment=Qt.AlignmentFlag.AlignLeft)
        self.result = QGridLayout()
        self.result.setColumnStretch(1, 1)
        layout.addLayout(self.result)
        layout.addStretch(1)
        self.result_labels: dict[str, QLabel] = {}
        model.result_changed.connect(self._show_result)
        self._show_result()

    def _input(self, spec: ToolInput) -> InputWidget:
        """Return the widget of one input, showing the model's value and reporting edits."""
        value = self.model.values.get(spec.key, "")
        widget: InputWidget
        if spec.choices:
            widget = QComboBox()
            widget.addItems(list(spec.choices))
            widget.setCurrentText(value)
            widget.currentTextChanged.connect(lambda text: self.model.set_value(spec.key, text))
        elif spec.multiline:
            widget = monospace(QPlainTextEdit(value))
            widget.setPlaceholderText(spec.placeholder)
            widget.setMaximumHeight(90)
            widget.textChanged.connect(lambda: self.model.set_value(spec.key, self._text(spec.key)))
        else:
            widget = monospace(QLineEdit(value))
            widget.setPlaceholderText(spec.placeholder)
            widget.setClearButtonEnabled(True)
            widget.textChanged.connect(lambda text: self.model.set_value(spec.key, text))
            widget.returnPressed.connect(self.model.ask_node)
        return widget

    def _text(self, key: str) -> str:
        """Return the text of a multi-line input."""
        widget = self.inputs[key]
        return widget.toPlainText() if isinstance(widget, QPlainTextEdit) else ""

    def _show_result(self) -> None:
        """Show the result lines (label, then the value in its tone)."""
        while self.result.count():
            item = self.result.takeAt(0)
            if item is not None and (widget := item.widget()) is not None:
                widget.deleteLater()
        self.result_labels = {}
        for row, line in enumerate(self.model.result):
            label = plain_label(line.label, selectable=False)
            value = monospace(plain_label(line.text, wrap=True))
            tone_palette(value, line.tone)
            self.result.addWidget(label, row, 0, Qt.AlignmentFlag.AlignTop)
            self.result.addWidget(value, row, 1)
            self.result_labels[line.label] = value
