"""The Settings dialog (networks, API keys, custom endpoints, connection test) and network combo."""

from __future__ import annotations

import asyncio
import dataclasses

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from explorer.services.networks import GET_A_KEY, Network, NetworkKind
from explorer.viewmodels.document import Tone
from explorer.viewmodels.networks import (
    ConnectionReport,
    FormErrors,
    NetworkForm,
    NetworksViewModel,
    split_pasted_key,
)
from explorer.views.theme import plain_label, plain_tooltip, tone_palette

NEW_NAME = "New endpoint"
CUSTOM_ABOUT = (
    "Your own endpoint. A key pasted at the end of the URL is moved to the API key field."
)
URL_FORMS = ("{base}/<KEY>", "{base}/v2/<KEY>")


def tone(label: QLabel, good: bool | None) -> None:
    """Colour a label green (good), red (bad) or muted (None)."""
    tone_palette(label, Tone.MUTED if good is None else Tone.GOOD if good else Tone.BAD)


def describe(network: Network) -> str:
    """Return one line on where a network's node is."""
    if network.kind is NetworkKind.HOSTED:
        return (
            f"Chain {network.chain_id} · {network.currency}. Hosted RPC API at "
            f"{network.hosted_base} with your key, or the public node {network.public_url}."
        )
    if network.kind is NetworkKind.DEVNET:
        return (
            f"Chain {network.chain_id} · a local node with seeded history, started by the app. "
            "No key needed."
        )
    return CUSTOM_ABOUT


class SettingsDialog(QDialog):
    """Networks on the left, the chosen one's settings on the right; OK saves, Cancel drops.

    Edits live in drafts until OK; switching networks in the list keeps what was typed.
    """

    def __init__(self, model: NetworksViewModel, parent: QWidget | None = None) -> None:
        """Show the saved settings of every network, the current one selected."""
        super().__init__(parent)
        self.model = model
        self.setWindowTitle("Settings — Networks")
        self.resize(860, 540)
        self._saved = {n.id: model.form_for(n.id) for n in model.networks}
        self._forms = dict(self._saved)
        self._removed: list[str] = []
        self._new_count = 0
        self._shown = ""
        self._touched: set[str] = set()
        self._test: asyncio.Future[None] | None = None
        self._build()
        for draft_id in self._forms:
            self._add_item(draft_id)
        self.select(model.current_id)

    def _build(self) -> None:
        """Lay out the list, the form and the buttons."""
        self.network_list = QListWidget()
        self.add_button = QPushButton("Add custom endpoint")
        self.remove_button = QPushButton("Remove")
        left_panel = QWidget()
        left_panel.setFixedWidth(220)
        left = QVBoxLayout(left_panel)
        left.setContentsMargins(0, 0, 0, 0)
        left.addWidget(self.network_list, 1)
        left.addWidget(self.add_button)
        left.addWidget(self.remove_button)
        body = QHBoxLayout()
        body.addWidget(left_panel)
        body.addWidget(self._build_form(), 1)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        outer = QVBoxLayout(self)
        outer.addLayout(body, 1)
        outer.addWidget(self.buttons)
        self.network_list.currentItemChanged.connect(self._on_item_changed)
        self.add_button.clicked.connect(self.add_custom)
        self.remove_button.clicked.connect(self.remove_selected)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)

    def _build_form(self) -> QWidget:
        """Build the fields of one network's settings."""
        panel = QWidget()
        column = QVBoxLayout(panel)
        column.setContentsMargins(12, 0, 0, 0)
        self.title = plain_label(selectable=False)
        font = self.title.font()
        font.setBold(True)
        font.setPointSizeF(font.pointSizeF() * 1.25)
        self.title.setFont(font)
        self.about = plain_label(wrap=True, selectable=False)
        tone(self.about, None)
        self.form = QFormLayout()
        self.form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.ExpandingFieldsGrow)
        self.name_edit = QLineEdit()
        self.name_edit.setPlaceholderText("e.g. My rskj node")
        self.url_edit = QLineEdit()
        self.url_edit.setPlaceholderText("https://host:port/path")
        self.key_edit = QLineEdit()
        self.key_edit.setEchoMode(QLineEdit.EchoMode.Password)
        self.key_edit.setPlaceholderText("no key")
        self.reveal_button = QToolButton()
        self.reveal_button.setText("Show")
        self.reveal_button.setCheckable(True)
        self.reveal_button.setToolTip("Show or hide the API key")
        key_row = QHBoxLayout()
        key_row.setContentsMargins(0, 0, 0, 0)
        key_row.addWidget(self.key_edit, 1)
        key_row.addWidget(self.reveal_button)
        key_widget = QWidget()
        key_widget.setLayout(key_row)
        self.url_form_combo = QComboBox()
        self.url_form_combo.addItems(list(URL_FORMS))
        self.url_form_combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.public_check = QCheckBox("Use the public node without a key (rate-limited by IP)")
        self.chain_edit = QLineEdit()
        self.chain_edit.setPlaceholderText("e.g. 31 (Testnet) or 30 (Mainnet)")
        self.insecure_check = QCheckBox(
            "Allow http:// to another machine (requests and key travel unencrypted)"
        )
        self.errors: dict[str, QLabel] = {}
        self._rows: dict[str, QWidget] = {}
        self._add_row("name", "Name", self.name_edit)
        self._add_row("url", "URL", self.url_edit)
        self._add_row("api_key", "API key", key_widget)
        self._add_row("url_form", "URL form", self.url_form_combo)
        self._add_row("public", "", self.public_check)
        self._add_row("chain_id", "Expected chain id", self.chain_edit)
        self._add_row("insecure", "", self.insecure_check)
        self.endpoint_label = plain_label(selectable=False)
        self._add_row("endpoint", "Requests go to", self.endpoint_label)
        self.hint = plain_label(GET_A_KEY, wrap=True, selectable=False)
        tone(self.hint, None)
        self.form.addRow(self.hint)
        self.test_button = QPushButton("Test connection")
        self.test_result = plain_label(wrap=True, selectable=False)
        self.test_result.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        test_row = QHBoxLayout()
        test_row.addWidget(self.test_button, 0, Qt.AlignmentFlag.AlignTop)
        test_row.addWidget(self.test_result, 1)
        for widget in (self.title, self.about):
            column.addWidget(widget)
        column.addSpacing(6)
        column.addLayout(self.form)
        column.addSpacing(6)
        column.addLayout(test_row)
        column.addStretch(1)
        self._connect_fields()
        return panel

    def _add_row(self, field: str, caption: str, widget: QWidget) -> None:
        """Add a field with its (hidden) error line just below it."""
        error = plain_label(wrap=True, selectable=False)
        error.setVisible(False)
        tone(error, False)
        cell = QWidget()
        stack = QVBoxLayout(cell)
        stack.setContentsMargins(0, 0, 0, 0)
        stack.setSpacing(2)
        stack.addWidget(widget)
        stack.addWidget(error)
        self.form.addRow(plain_label(caption, selectable=False), cell)
        self.errors[field] = error
        self._rows[field] = cell

    def _connect_fields(self) -> None:
        """Keep the draft in step with every edit; check a field once the user leaves it."""
        edits = {"name": self.name_edit, "api_key": self.key_edit, "chain_id": self.chain_edit}
        for field, edit in edits.items():
            edit.textEdited.connect(self._on_edited)
            edit.editingFinished.connect(lambda field=field: self._touch(field))
        self.url_edit.textEdited.connect(self._on_edited)
        self.url_edit.editingFinished.connect(self._on_url_finished)
        self.public_check.toggled.connect(self._on_edited)
        self.insecure_check.toggled.connect(lambda: self._touch("url"))
        self.url_form_combo.currentIndexChanged.connect(self._on_edited)
        self.reveal_button.toggled.connect(self.set_key_revealed)
        self.test_button.clicked.connect(self.test_connection)

    def set_key_revealed(self, revealed: bool) -> None:
        """Show the API key in clear or masked."""
        mode = QLineEdit.EchoMode.Normal if revealed else QLineEdit.EchoMode.Password
        self.key_edit.setEchoMode(mode)
        self.reveal_button.setText("Hide" if revealed else "Show")
        if self.reveal_button.isChecked() != revealed:
            self.reveal_button.setChecked(revealed)

    def _add_item(self, draft_id: str) -> QListWidgetItem:
        """Add a list entry for a draft."""
        item = QListWidgetItem(self._forms[draft_id].name or NEW_NAME)
        item.setData(Qt.ItemDataRole.UserRole, draft_id)
        if draft_id == self.model.current_id:
            font = item.font()
            font.setBold(True)
            item.setFont(font)
            item.setToolTip("The network the explorer shows now")
        self.network_list.addItem(item)
        return item

    def _item(self, draft_id: str) -> QListWidgetItem | None:
        """Return the list entry of a draft."""
        for row in range(self.network_list.count()):
            item = self.network_list.item(row)
            if item.data(Qt.ItemDataRole.UserRole) == draft_id:
                return item
        return None

    def select(self, draft_id: str) -> None:
        """Show a network's draft in the form."""
        item = self._item(draft_id)
        if item is not None:
            self.network_list.setCurrentItem(item)

    @property
    def shown_form(self) -> NetworkForm:
        """Return the draft shown in the form."""
        return self._forms[self._shown]

    def _on_item_changed(self, item: QListWidgetItem | None, _previous: object) -> None:
        """Show the draft of the newly selected entry."""
        if item is None:
            return
        self._shown = str(item.data(Qt.ItemDataRole.UserRole))
        self._cancel_test()
        self.test_result.setText("")
        self.set_key_revealed(False)
        self._touched = set()
        self._load(self.shown_form)

    def _load(self, form: NetworkForm) -> None:
        """Fill the widgets from a draft without treating that as an edit."""
        network = self.model.network(form.network_id)
        custom, hosted = form.is_custom, network is not None and network.hosted_base is not None
        widgets: list[QWidget] = [self.name_edit, self.url_edit, self.key_edit, self.chain_edit]
        widgets += [self.public_check, self.insecure_check, self.url_form_combo]
        for widget in widgets:
            widget.blockSignals(True)
        self.about.setText(describe(network) if network else CUSTOM_ABOUT)
        self.name_edit.setText(form.name)
        self.url_edit.setText(form.url)
        self.key_edit.setText(form.api_key)
        self.url_form_combo.setCurrentIndex(1 if form.v2 else 0)
        self.public_check.setChecked(form.use_public_node)
        self.chain_edit.setText(form.chain_id)
        self.insecure_check.setChecked(form.allow_insecure_http)
        for widget in widgets:
            widget.blockSignals(False)
        visible = {
            "name": custom,
            "url": custom,
            "api_key": custom or hosted,
            "url_form": custom or hosted,
            "public": hosted,
            "chain_id": custom,
            "insecure": custom,
            "endpoint": True,
        }
        for field, shown in visible.items():
            self.form.setRowVisible(self._rows[field], shown)
        self.remove_button.setEnabled(custom)
        self._refresh()

    def _read(self) -> NetworkForm:
        """Return the shown draft updated from the widgets."""
        return dataclasses.replace(
            self.shown_form,
            name=self.name_edit.text(),
            url=self.url_edit.text(),
            api_key=self.key_edit.text(),
            v2=self.url_form_combo.currentIndex() == 1,
            use_public_node=self.public_check.isChecked(),
            chain_id=self.chain_edit.text(),
            allow_insecure_http=self.insecure_check.isChecked(),
        )

    def _on_edited(self, *_args: object) -> None:
        """Store the edit in the draft and refresh what depends on it."""
        self._forms[self._shown] = self._read()
        item = self.network_list.currentItem()
        if item is not None and self.shown_form.is_custom:
            item.setText(self.shown_form.name.strip() or NEW_NAME)
        self._refresh()

    def _touch(self, field: str) -> None:
        """Start checking a field the user has been in."""
        self._touched.add(field)
        self._on_edited()

    def _on_url_finished(self) -> None:
        """Move a key pasted at the end of the URL into the key field; check the URL."""
        form = self._read()
        split = split_pasted_key(form)
        if split != form:
            self._forms[self._shown] = split
            self._load(split)
        self._touch("url")

    def _refresh(self) -> None:
        """Update title, URL forms, key hint, endpoint line and the checked fields' errors."""
        form = self.shown_form
        network = self.model.network(form.network_id)
        hosted = network is not None and network.hosted_base is not None
        self.title.setText(form.name.strip() or NEW_NAME)
        base = (network.hosted_base if hosted and network else None) or self._custom_base(form)
        for index, pattern in enumerate(URL_FORMS):
            self.url_form_combo.setItemText(index, pattern.format(base=base))
        no_key = not form.api_key.strip()
        self.form.setRowVisible(self.hint, hosted and no_key and not form.use_public_node)
        self.url_form_combo.setEnabled(not no_key)
        text, good = self.model.preview(form)
        self.endpoint_label.setText(text)
        tone(self.endpoint_label, False if good is False else None)
        errors = self.model.validate(form, self._other_names())
        self.show_errors({f: m for f, m in errors.items() if f in self._touched})

    @staticmethod
    def _custom_base(form: NetworkForm) -> str:
        """Return the base URL a custom draft names, or a stand-in."""
        return split_pasted_key(form).url.strip().rstrip("/") or "URL"

    def _other_names(self) -> set[str]:
        """Return the casefolded names of the other drafts (for the duplicate check)."""
        return {f.name.strip().casefold() for d, f in self._forms.items() if d != self._shown}

    def show_errors(self, errors: FormErrors) -> None:
        """Show each field's message under it; hide the others."""
        for field, label in self.errors.items():
            label.setText(errors.get(field, ""))
            label.setVisible(field in errors)

    def add_custom(self) -> None:
        """Add a new custom endpoint draft and show it."""
        self._new_count += 1
        draft_id = f"new:{self._new_count}"
        self._forms[draft_id] = NetworkForm()
        self.network_list.setCurrentItem(self._add_item(draft_id))
        self.name_edit.setFocus()

    def remove_selected(self) -> None:
        """Remove the shown custom endpoint (saved only on OK)."""
        form = self.shown_form
        if not form.is_custom:
            return
        if form.network_id:
            self._removed.append(form.network_id)
        draft_id = self._shown
        item = self._item(draft_id)
        del self._forms[draft_id]
        if item is not None:
            self.network_list.takeItem(self.network_list.row(item))

    def pending(self) -> dict[str, NetworkForm]:
        """Return the drafts that differ from what is saved."""
        return {d: f for d, f in self._forms.items() if self._saved.get(d) != f}

    def accept(self) -> None:
        """Save every draft and removal; on errors show the first bad draft and stay open."""
        pending = self.pending()
        if pending or self._removed:
            errors = self.model.commit(pending, self._removed)
            if errors:
                draft_id, found = next(iter(errors.items()))
                self.select(draft_id)
                self._touched = set(self.errors)
                self.show_errors(found)
                return
        self._cancel_test()
        super().accept()

    def reject(self) -> None:
        """Close without saving."""
        self._cancel_test()
        super().reject()

    def test_connection(self) -> None:
        """Test the shown draft's endpoint; the result line shows the verdict."""
        self._cancel_test()
        draft_id, form = self._shown, self._read()
        self.test_result.setText("Testing…")
        tone(self.test_result, None)
        self._test = asyncio.ensure_future(self._run_test(draft_id, form))

    async def _run_test(self, draft_id: str, form: NetworkForm) -> None:
        """Run the test and show its report if the same network is still shown."""
        report = await self.model.test_connection(form)
        if draft_id == self._shown:
            self.show_report(report)

    def show_report(self, report: ConnectionReport) -> None:
        """Show a connection report in the result line."""
        self.test_result.setText(report.text)
        self.test_result.setToolTip(plain_tooltip(report.endpoint) if report.endpoint else "")
        tone(self.test_result, report.ok)

    def _cancel_test(self) -> None:
        """Stop a running connection test."""
        if self._test is not None and not self._test.done():
            self._test.cancel()
        self._test = None


class NetworkCombo(QComboBox):
    """A toolbar combo box listing the networks; choosing one makes it current."""

    def __init__(self, model: NetworksViewModel, parent: QWidget | None = None) -> None:
        """Follow the model's networks and current network."""
        super().__init__(parent)
        self.networks = model
        self.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.activated.connect(self._on_activated)
        model.networks_changed.connect(self.refill)
        model.current_changed.connect(self.on_current_changed)
        self.refill()

    def refill(self) -> None:
        """List the networks again, each with where it connects (key masked) as tooltip."""
        self.blockSignals(True)
        self.clear()
        for network in self.networks.networks:
            endpoint = self.networks.endpoint_for(network)
            tip = endpoint.redacted if endpoint else self.networks.unavailable_reason(network)
            self.addItem(network.name, network.id)
            self.setItemData(self.count() - 1, plain_tooltip(tip), Qt.ItemDataRole.ToolTipRole)
        self.blockSignals(False)
        self.on_current_changed(self.networks.current_id)

    def on_current_changed(self, network_id: str) -> None:
        """Select the current network."""
        index = self.findData(network_id)
        if index >= 0:
            self.setCurrentIndex(index)

    def _on_activated(self, index: int) -> None:
        """Make the chosen network current."""
        self.networks.set_current(str(self.itemData(index)))


def network_combo(model: NetworksViewModel, parent: QWidget | None = None) -> QComboBox:
    """Return a combo box for the toolbar that lists networks and sets the current one."""
    return NetworkCombo(model, parent)
