"""The Settings dialog's right side: the shown network's fields, where requests go, its test."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QPainter, QPaintEvent, QPalette
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSizePolicy,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from explorer.presentation.document import Tone
from explorer.services.network_forms import FormErrors, FormField, NetworkForm
from explorer.services.probe import ConnectionReport
from explorer.viewmodels.network_settings import (
    DraftLayout,
    NetworkSettingsViewModel,
    PreviewState,
    ProbeState,
)
from explorer.views.theme import plain_label, plain_tooltip, tone_palette

TEXT_FIELDS = (FormField.NAME, FormField.URL, FormField.API_KEY, FormField.CHAIN_ID)


class ErrorLine(QLabel):
    """A field's error: one line whose space is kept while it is hidden.

    The fields below never move as messages come and go. A message longer than the line shows
    elided (its tooltip holds all of it); text() is always the whole message.
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        """Reserve one line of text, as wide as the field, never wider."""
        super().__init__(parent)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setFixedHeight(self.fontMetrics().lineSpacing())
        policy = QSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        policy.setRetainSizeWhenHidden(True)
        self.setSizePolicy(policy)
        tone_palette(self, Tone.BAD)
        self.setVisible(False)

    def show_message(self, message: str) -> None:
        """Show a message, or hide the line for '' (its space stays)."""
        self.setText(message)
        self.setToolTip(message)
        self.setVisible(bool(message))

    def paintEvent(self, event: QPaintEvent) -> None:
        """Draw the message elided to the line's width."""
        painter = QPainter(self)
        painter.setPen(self.palette().color(QPalette.ColorRole.WindowText))
        shown = self.fontMetrics().elidedText(
            self.text(), Qt.TextElideMode.ElideRight, self.width()
        )
        painter.drawText(self.rect(), int(Qt.AlignmentFlag.AlignVCenter), shown)


class NetworkFormPanel(QWidget):
    """One network's settings bound to the Settings view model; every edit goes to its draft."""

    def __init__(self, model: NetworkSettingsViewModel, parent: QWidget | None = None) -> None:
        """Build the fields and show the model's shown draft."""
        super().__init__(parent)
        self.model = model
        self._build()
        self._bind()
        self._show_draft(model.draft)
        self._show_layout(model.layout)
        self._show_errors(model.errors)
        self._show_key_revealed(model.key_revealed)
        self._show_probe_state(model.probe_state)

    def _build(self) -> None:
        """Lay out the title, the fields with their error lines and the test row."""
        column = QVBoxLayout(self)
        column.setContentsMargins(12, 0, 0, 0)
        self.title = plain_label(selectable=False)
        font = self.title.font()
        font.setBold(True)
        font.setPointSizeF(font.pointSizeF() * 1.25)
        self.title.setFont(font)
        self.about = plain_label(wrap=True, selectable=False)
        tone_palette(self.about, Tone.MUTED)
        self.form = QFormLayout()
        self.form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.ExpandingFieldsGrow)
        self.test_button = QPushButton("Test connection")
        self.test_result = plain_label(wrap=True, selectable=True)
        self._build_fields()
        for widget in (self.title, self.about):
            column.addWidget(widget)
        column.addSpacing(6)
        column.addLayout(self.form)
        column.addStretch(1)

    def _build_fields(self) -> None:
        """Add a row per field, then where requests go and the key hint."""
        self.name_edit = QLineEdit(placeholderText="e.g. My rskj node")
        self.url_edit = QLineEdit(placeholderText="https://host:port/path")
        self.key_edit = QLineEdit(placeholderText="no key")
        self.key_edit.setEchoMode(QLineEdit.EchoMode.Password)
        self.reveal_button = QToolButton()
        self.reveal_button.setText("Show")
        self.reveal_button.setCheckable(True)
        self.reveal_button.setToolTip("Show or hide the API key")
        key_widget = QWidget()
        key_row = QHBoxLayout(key_widget)
        key_row.setContentsMargins(0, 0, 0, 0)
        key_row.addWidget(self.key_edit, 1)
        key_row.addWidget(self.reveal_button)
        self.url_form_combo = QComboBox()
        self.url_form_combo.addItems(["", ""])
        self.url_form_combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.public_check = QCheckBox("Use the public node without a key (rate-limited by IP)")
        self.chain_edit = QLineEdit(placeholderText="e.g. 31 (Testnet) or 30 (Mainnet)")
        self.insecure_check = QCheckBox(
            "Allow http:// to another machine (requests and key travel unencrypted)"
        )
        self.edits = {
            FormField.NAME: self.name_edit,
            FormField.URL: self.url_edit,
            FormField.API_KEY: self.key_edit,
            FormField.CHAIN_ID: self.chain_edit,
        }
        self.errors: dict[FormField, ErrorLine] = {}
        self._rows: dict[FormField, QWidget] = {}
        self._add_row(FormField.NAME, "Name", self.name_edit)
        self._add_row(FormField.URL, "URL", self.url_edit)
        self._add_row(FormField.API_KEY, "API key", key_widget)
        self._add_row(FormField.URL_FORM, "URL form", self.url_form_combo)
        self._add_row(FormField.PUBLIC_NODE, "", self.public_check)
        self._add_row(FormField.CHAIN_ID, "Expected chain id", self.chain_edit)
        self._add_row(FormField.INSECURE_HTTP, "", self.insecure_check)
        self.endpoint_label = plain_label(wrap=True, selectable=False)
        self.form.addRow(plain_label("Requests go to", selectable=False), self.endpoint_label)
        test_row = QWidget()  # above the key hint, which comes and goes: the button stays put
        test_line = QHBoxLayout(test_row)
        test_line.setContentsMargins(0, 6, 0, 6)
        test_line.addWidget(self.test_button, 0, Qt.AlignmentFlag.AlignTop)
        test_line.addWidget(self.test_result, 1)
        self.form.addRow(test_row)
        self.key_hint = plain_label(wrap=True, selectable=False)
        tone_palette(self.key_hint, Tone.MUTED)
        self.form.addRow(self.key_hint)

    def _add_row(self, field: FormField, caption: str, widget: QWidget) -> None:
        """Add a field with its error line (empty, its space kept) just below it."""
        error = ErrorLine()
        cell = QWidget()
        stack = QVBoxLayout(cell)
        stack.setContentsMargins(0, 0, 0, 0)
        stack.setSpacing(2)
        stack.addWidget(widget)
        stack.addWidget(error)
        self.form.addRow(plain_label(caption, selectable=False), cell)
        self.errors[field] = error
        self._rows[field] = cell

    def _bind(self) -> None:
        """Send every edit to the model; follow the model's draft, layout, errors and test."""
        model = self.model
        for field, edit in self.edits.items():
            edit.textEdited.connect(lambda text, field=field: model.edit(field, text))
            edit.editingFinished.connect(lambda field=field: model.leave(field))
        self.url_form_combo.currentIndexChanged.connect(
            lambda index: model.edit(FormField.URL_FORM, index == 1)
        )
        self.public_check.toggled.connect(lambda on: model.edit(FormField.PUBLIC_NODE, on))
        self.insecure_check.toggled.connect(lambda on: model.edit(FormField.INSECURE_HTTP, on))
        self.reveal_button.toggled.connect(model.set_key_revealed)
        self.test_button.clicked.connect(model.test_connection)
        model.draft_changed.connect(self._show_draft)
        model.layout_changed.connect(self._show_layout)
        model.errors_changed.connect(self._show_errors)
        model.key_revealed_changed.connect(self._show_key_revealed)
        model.probe_state_changed.connect(self._show_probe_state)
        model.connection_tested.connect(self._show_report)

    def _show_draft(self, form: NetworkForm) -> None:
        """Put a draft's values in the widgets (a text the user is typing stays as it is)."""
        switches = (self.url_form_combo, self.public_check, self.insecure_check)
        for widget in switches:
            widget.blockSignals(True)
        for field, edit in self.edits.items():
            text = str(getattr(form, field.value))
            if edit.text() != text:
                edit.setText(text)
        self.url_form_combo.setCurrentIndex(1 if form.v2 else 0)
        self.public_check.setChecked(form.use_public_node)
        self.insecure_check.setChecked(form.allow_insecure_http)
        for widget in switches:
            widget.blockSignals(False)

    def _show_layout(self, layout: DraftLayout) -> None:
        """Show the texts around the draft, its fields only, and where requests go."""
        self.title.setText(layout.title)
        self.about.setText(layout.about)
        for field, row in self._rows.items():
            self.form.setRowVisible(row, field in layout.fields)
        for index, text in enumerate(layout.url_forms):
            self.url_form_combo.setItemText(index, text)
        self.url_form_combo.setEnabled(layout.url_form_enabled)
        self.endpoint_label.setText(layout.endpoint)
        invalid = layout.endpoint_state is PreviewState.INVALID
        tone_palette(self.endpoint_label, Tone.BAD if invalid else Tone.MUTED)
        self.key_hint.setText(layout.key_hint)
        self.form.setRowVisible(self.key_hint, bool(layout.key_hint))

    def _show_errors(self, errors: FormErrors) -> None:
        """Show each field's message under it; empty the others (their space stays)."""
        for field, label in self.errors.items():
            label.show_message(errors.get(field, ""))

    def _show_key_revealed(self, revealed: bool) -> None:
        """Show the API key in clear or masked."""
        mode = QLineEdit.EchoMode.Normal if revealed else QLineEdit.EchoMode.Password
        self.key_edit.setEchoMode(mode)
        self.reveal_button.setText("Hide" if revealed else "Show")
        self.reveal_button.blockSignals(True)
        self.reveal_button.setChecked(revealed)
        self.reveal_button.blockSignals(False)

    def _show_probe_state(self, state: ProbeState) -> None:
        """Say a test is running, or clear the result line when the test was dropped."""
        if state is not ProbeState.DONE:
            self.test_result.setText("Testing…" if state is ProbeState.RUNNING else "")
            self.test_result.setToolTip("")
            tone_palette(self.test_result, Tone.MUTED)

    def _show_report(self, report: ConnectionReport) -> None:
        """Show a connection report in the result line."""
        self.test_result.setText(report.text)
        self.test_result.setToolTip(plain_tooltip(report.endpoint) if report.endpoint else "")
        tone_palette(self.test_result, Tone.GOOD if report.ok else Tone.BAD)
