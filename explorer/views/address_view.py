"""The address page: overview at a block, tokens, code, contract tools, activity and charts."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLineEdit,
    QPlainTextEdit,
    QProgressBar,
    QPushButton,
    QScrollArea,
    QTableView,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from explorer.chain.checksum import to_checksum_address
from explorer.services.activity import ActivityKind
from explorer.services.contracts import SPEC_RULE
from explorer.viewmodels.address_page import ARCHIVE_CAVEAT, AddressPageViewModel
from explorer.views.charts import Chart
from explorer.views.page_view import PageView
from explorer.views.theme import monospace, plain_label
from explorer.views.widgets import LinkLabel
from explorer.views.widgets.links import open_clicked_routes

PASTED_ABI = "Pasted ABI"


def button(text: str, slot: object) -> QPushButton:
    """Return a push button wired to slot."""
    push = QPushButton(text)
    push.clicked.connect(slot)
    return push


def scrolled(widget: QWidget) -> QScrollArea:
    """Wrap a widget in a resizable scroll area."""
    area = QScrollArea()
    area.setWidgetResizable(True)
    area.setWidget(widget)
    return area


class AddressView(PageView):
    """Binds an AddressPageViewModel; every tool reports through the model's signals.

    Signals:
        link_activated(Route, bool): the route, whether to open it in a new tab (from PageView).
    """

    def __init__(self, model: AddressPageViewModel, parent: QWidget | None = None) -> None:
        super().__init__(model, parent)
        self.address_model = model
        self._build_block_picker()
        self.tokens_tab = self._tokens_tab()
        self.code_view = QPlainTextEdit()
        self.code_view.setReadOnly(True)
        monospace(self.code_view)
        self.contract_tab = scrolled(self._contract_tab())
        self.activity_tab = self._activity_tab()
        self.charts_tab = self._charts_tab()
        self.content.setCornerWidget(self.block_picker, Qt.Corner.TopRightCorner)
        model.tokens_changed.connect(self.on_tokens_changed)
        model.tool_changed.connect(self.on_tool_changed)
        model.activity_changed.connect(self.on_activity_changed)
        model.chart_changed.connect(self.on_chart_changed)
        model.set_abi("ERC-20")

    # -- overview ------------------------------------------------------------------------

    def _build_block_picker(self) -> None:
        """The `At block` field shown beside the tabs."""
        self.block_picker = QWidget()
        row = QHBoxLayout(self.block_picker)
        row.setContentsMargins(0, 0, 4, 0)
        self.block_edit = QLineEdit()
        self.block_edit.setPlaceholderText("latest")
        self.block_edit.setToolTip("Show the balance, nonce, code and tokens at this block")
        self.block_edit.setMaximumWidth(120)
        self.block_edit.returnPressed.connect(self.on_block_chosen)
        self.block_error = plain_label("")
        row.addWidget(self.block_error)
        row.addWidget(plain_label("At block:", selectable=False))
        row.addWidget(self.block_edit)
        row.addWidget(button("Show", self.on_block_chosen))

    def on_block_chosen(self) -> None:
        """Reload the summary at the typed block."""
        try:
            self.address_model.set_block(self.block_edit.text())
        except ValueError as error:
            self.block_error.setText(str(error))
        else:
            self.block_error.setText("")

    def _show_content(self) -> None:
        """Show the document, then the address tabs before the raw JSON."""
        super()._show_content()
        model = self.address_model
        tabs = [(self.tokens_tab, "Tokens")]
        if model.is_contract:
            self.code_view.setPlainText(model.disassembly)
            tabs += [(self.code_view, "Disassembly"), (self.contract_tab, "Contract")]
        tabs += [(self.activity_tab, "Activity"), (self.charts_tab, "Charts")]
        for position, (widget, title) in enumerate(tabs, start=1):
            self.content.insertTab(position, widget, title)

    # -- tokens --------------------------------------------------------------------------

    def _tokens_tab(self) -> QWidget:
        """Balances of known and added tokens, with a field to add one."""
        widget = QWidget()
        layout = QVBoxLayout(widget)
        self.tokens_status = plain_label(wrap=True)
        self.tokens_table = QTableWidget(0, 4)
        self.tokens_table.setHorizontalHeaderLabels(["Token", "Balance", "Contract", "Standard"])
        self.tokens_table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.tokens_table.horizontalHeader().setSectionResizeMode(
            QHeaderView.ResizeMode.ResizeToContents
        )
        self.tokens_table.horizontalHeader().setStretchLastSection(True)
        self.tokens_table.cellClicked.connect(self._on_token_click)
        add_row = QHBoxLayout()
        self.token_edit = QLineEdit()
        self.token_edit.setPlaceholderText("Token contract address (0x…)")
        self.token_edit.returnPressed.connect(self.on_add_token)
        self.token_error = plain_label("")
        add_row.addWidget(self.token_edit, 1)
        add_row.addWidget(button("Add token", self.on_add_token))
        add_row.addWidget(button("Remove selected", self.on_remove_token))
        layout.addWidget(self.tokens_status)
        layout.addWidget(self.tokens_table, 1)
        layout.addLayout(add_row)
        layout.addWidget(self.token_error)
        return widget

    def on_add_token(self) -> None:
        """Add the typed token address."""
        try:
            self.address_model.add_token(self.token_edit.text())
        except ValueError as error:
            self.token_error.setText(str(error))
            return
        self.token_error.setText("")
        self.token_edit.clear()

    def on_remove_token(self) -> None:
        """Forget the selected token if the user added it."""
        row = self.tokens_table.currentRow()
        balances = self.address_model.token_balances
        if 0 <= row < len(balances):
            address = balances[row].token.address
            if address not in self.address_model.user_tokens:
                self.token_error.setText("Only tokens you added can be removed.")
                return
            self.token_error.setText("")
            self.address_model.remove_token(address)

    def on_tokens_changed(self) -> None:
        """Fill the tokens table."""
        model = self.address_model
        self.tokens_status.setText(model.tokens_status)
        rows = model.token_balances
        self.tokens_table.setRowCount(len(rows))
        chain_id = model.session.network.chain_id
        for row, entry in enumerate(rows):
            cells = (
                model.token_name(entry),
                model.balance_text(entry),
                to_checksum_address(entry.token.address, chain_id),
                entry.token.kind or "unknown",
            )
            for column, text in enumerate(cells):
                self.tokens_table.setItem(row, column, QTableWidgetItem(text))
        self.tokens_table.resizeColumnsToContents()

    def _on_token_click(self, row: int, column: int) -> None:
        """Open a token's contract from the table."""
        if column == 2 and row < len(self.address_model.token_balances):
            address = self.address_model.token_balances[row].token.address
            self.link_activated.emit(f"address/{address}", False)

    # -- contract tools ------------------------------------------------------------------

    def _contract_tab(self) -> QWidget:
        """Storage slots, read contract and simulate."""
        widget = QWidget()
        layout = QVBoxLayout(widget)
        layout.addWidget(self._slot_box())
        layout.addWidget(self._read_box())
        layout.addWidget(self._simulate_box())
        layout.addStretch(1)
        return widget

    def _slot_box(self) -> QGroupBox:
        """The storage-slot reader with EIP-1967 slots pre-filled."""
        box = QGroupBox("Storage slot (eth_getStorageAt)")
        form = QFormLayout(box)
        self.slot_edit = QComboBox()
        self.slot_edit.setEditable(True)
        self.slot_edit.addItem("0")
        for name, slot in self.address_model.proxy_slots().items():
            self.slot_edit.addItem(slot)
            self.slot_edit.setItemData(
                self.slot_edit.count() - 1, name, Qt.ItemDataRole.ToolTipRole
            )
        monospace(self.slot_edit)
        self.slot_presets = plain_label(
            "Pre-filled: slot 0 and the EIP-1967 implementation, admin and beacon slots.",
            selectable=False,
        )
        self.slot_block = QLineEdit()
        self.slot_block.setPlaceholderText("latest")
        self.slot_result = monospace(plain_label(wrap=True))
        self.slot_link = LinkLabel("")
        self.slot_link.link_activated.connect(self.link_activated)
        form.addRow(self.slot_presets)
        form.addRow("Slot (decimal or 0x):", self.slot_edit)
        form.addRow("At block:", self.slot_block)
        form.addRow(button("Read slot", self.on_read_slot))
        form.addRow("Value:", self.slot_result)
        form.addRow("", self.slot_link)
        return box

    def on_read_slot(self) -> None:
        """Read the chosen slot."""
        self.address_model.read_slot(self.slot_edit.currentText(), self.slot_block.text())

    def _read_box(self) -> QGroupBox:
        """Read contract: ABI choice, function, typed inputs, block, result."""
        box = QGroupBox("Read contract (view functions, eth_call)")
        layout = QVBoxLayout(box)
        choice = QHBoxLayout()
        self.abi_choice = QComboBox()
        self.abi_choice.addItems(["ERC-20", "ERC-721", PASTED_ABI])
        self.abi_choice.currentTextChanged.connect(self.on_abi_choice)
        self.abi_text = QPlainTextEdit()
        self.abi_text.setPlaceholderText("Paste the contract's ABI (JSON) here")
        self.abi_text.setMaximumHeight(90)
        self.abi_text.setVisible(False)
        self.abi_text.textChanged.connect(self.on_abi_choice)
        self.function_choice = QComboBox()
        self.function_choice.currentIndexChanged.connect(self.on_function_chosen)
        choice.addWidget(plain_label("ABI:", selectable=False))
        choice.addWidget(self.abi_choice)
        choice.addWidget(plain_label("Function:", selectable=False))
        choice.addWidget(self.function_choice, 1)
        self.functions_status = plain_label("")
        self.inputs_form = QFormLayout()
        self.input_edits: list[QLineEdit] = []
        self.read_block = QLineEdit()
        self.read_block.setPlaceholderText("latest")
        self.read_result = monospace(plain_label(wrap=True))
        layout.addLayout(choice)
        layout.addWidget(self.abi_text)
        layout.addWidget(self.functions_status)
        layout.addLayout(self.inputs_form)
        block_row = QHBoxLayout()
        block_row.addWidget(plain_label("At block:", selectable=False))
        block_row.addWidget(self.read_block)
        block_row.addWidget(button("Call", self.on_call))
        layout.addLayout(block_row)
        layout.addWidget(self.read_result)
        return box

    def on_abi_choice(self) -> None:
        """Use the chosen standard ABI or the pasted one."""
        choice = self.abi_choice.currentText()
        pasted = choice == PASTED_ABI
        self.abi_text.setVisible(pasted)
        self.address_model.set_abi(self.abi_text.toPlainText() if pasted else choice)

    def _fill_functions(self) -> None:
        """List the view functions of the ABI."""
        self.function_choice.blockSignals(True)
        self.function_choice.clear()
        for function in self.address_model.functions:
            self.function_choice.addItem(function.canonical)
        self.function_choice.blockSignals(False)
        self.on_function_chosen()

    def on_function_chosen(self) -> None:
        """Show one typed input per parameter of the chosen function."""
        while self.inputs_form.rowCount():
            self.inputs_form.removeRow(0)
        self.input_edits = []
        index = self.function_choice.currentIndex()
        if index < 0:
            return
        for param in self.address_model.functions[index].inputs:
            edit = QLineEdit()
            edit.setPlaceholderText(
                param.type + (" (JSON array)" if param.type.endswith("]") else "")
            )
            self.input_edits.append(edit)
            self.inputs_form.addRow(f"{param.name or 'input'} ({param.type}):", edit)

    def on_call(self) -> None:
        """Call the chosen function."""
        index = self.function_choice.currentIndex()
        if index >= 0:
            inputs = [edit.text() for edit in self.input_edits]
            self.address_model.call_function(index, inputs, self.read_block.text())

    def _simulate_box(self) -> QGroupBox:
        """Simulate a call object: eth_call and eth_estimateGas side by side."""
        box = QGroupBox("Simulate a call (eth_call + eth_estimateGas)")
        form = QFormLayout(box)
        form.addRow(plain_label(SPEC_RULE, wrap=True))
        self.sim_edits: dict[str, QLineEdit] = {}
        hints = {
            "to": "this address (or another contract)",
            "from": "sender address (optional)",
            "gas": "gas limit (optional)",
            "gasPrice": "wei (optional)",
            "value": "amount in RBTC, e.g. 0.001 (optional)",
            "data": "0x calldata",
        }
        for name, hint in hints.items():
            edit = QLineEdit()
            edit.setPlaceholderText(hint)
            self.sim_edits[name] = edit
            form.addRow(f"{name}:", edit)
        form.addRow(button("Simulate", self.on_simulate))
        self.sim_result = monospace(plain_label(wrap=True))
        form.addRow(self.sim_result)
        return box

    def on_simulate(self) -> None:
        """Simulate the typed call object against this address."""
        self.address_model.simulate({name: edit.text() for name, edit in self.sim_edits.items()})

    def on_tool_changed(self, tool: str) -> None:
        """Show a tool's result."""
        model = self.address_model
        if tool == "functions":
            self.functions_status.setText(model.results["functions"])
            self._fill_functions()
        elif tool == "slot":
            self.slot_result.setText(model.results["slot"])
            self.slot_link.setText("Open this address" if model.slot_link else "")
            self.slot_link.set_route(model.slot_link)
        elif tool == "read":
            self.read_result.setText(model.results["read"])
        elif tool == "simulate":
            self.sim_result.setText(model.results["simulate"])

    # -- activity ------------------------------------------------------------------------

    def _activity_tab(self) -> QWidget:
        """Scan controls, progress, status and the lazy results table."""
        widget = QWidget()
        layout = QVBoxLayout(widget)
        controls = QHBoxLayout()
        self.kind_choice = QComboBox()
        for kind in ActivityKind:
            self.kind_choice.addItem(kind.value, kind)
        self.scan_from = QLineEdit()
        self.scan_from.setPlaceholderText("head − 1,999")
        self.scan_to = QLineEdit()
        self.scan_to.setPlaceholderText("latest")
        self.scan_button = button("Scan", self.on_scan)
        self.cancel_button = button("Cancel", self.address_model.cancel_scan)
        self.cancel_button.setEnabled(False)
        for item in (
            self.kind_choice,
            plain_label("from block", selectable=False),
            self.scan_from,
            plain_label("to", selectable=False),
            self.scan_to,
            self.scan_button,
            self.cancel_button,
        ):
            controls.addWidget(item)
        self.progress = QProgressBar()
        self.progress.setRange(0, 1000)
        self.scan_status = plain_label(
            "The service has no address index: activity is found by scanning logs "
            "(token transfers, events) or whole blocks (transactions) over a range.",
            wrap=True,
        )
        self.activity_table = QTableView()
        self.activity_table.setModel(self.address_model.activity)
        self.activity_table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.activity_table.setWordWrap(False)
        self.activity_table.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        self.activity_table.verticalHeader().setDefaultSectionSize(22)
        for column, width in enumerate((80, 170, 70, 170, 170)):
            self.activity_table.setColumnWidth(column, width)
        self.activity_table.horizontalHeader().setStretchLastSection(True)
        open_clicked_routes(self.activity_table, self.link_activated.emit)
        layout.addLayout(controls)
        layout.addWidget(self.progress)
        layout.addWidget(self.scan_status)
        layout.addWidget(self.activity_table, 1)
        return widget

    def on_scan(self) -> None:
        """Start a scan of the chosen kind and range."""
        kind = self.kind_choice.currentData()
        self.address_model.start_scan(kind, self.scan_from.text(), self.scan_to.text())

    def on_activity_changed(self) -> None:
        """Show scan progress and status."""
        model = self.address_model
        self.kind_choice.setCurrentIndex(list(ActivityKind).index(model.scan_kind))
        self.progress.setValue(int(model.scan_fraction * 1000))
        self.scan_status.setText(model.scan_status)
        self.scan_button.setEnabled(not model.scanning)
        self.cancel_button.setEnabled(model.scanning)

    # -- charts --------------------------------------------------------------------------

    def _charts_tab(self) -> QWidget:
        """The balance-over-time chart and the activity histogram."""
        widget = QWidget()
        layout = QVBoxLayout(widget)
        row = QHBoxLayout()
        row.addWidget(button("Sample balance (last 2,000 blocks)", self.on_sample_balance))
        self.chart_status = plain_label("")
        row.addWidget(self.chart_status, 1)
        self.balance_chart = Chart("Balance over time (sampled eth_getBalance)")
        self.balance_chart.empty_text = "Press “Sample balance” to read 24 samples."
        self.activity_chart = Chart("Activity per block range (last scan)", kind="bars")
        self.activity_chart.empty_text = "Run a scan in the Activity tab."
        layout.addLayout(row)
        layout.addWidget(plain_label(ARCHIVE_CAVEAT, wrap=True))
        layout.addWidget(self.balance_chart, 1)
        layout.addWidget(self.activity_chart, 1)
        return widget

    def on_sample_balance(self) -> None:
        """Read the balance samples."""
        self.address_model.load_balance_chart()

    def on_chart_changed(self) -> None:
        """Redraw both charts."""
        model = self.address_model
        self.chart_status.setText(model.chart_status)
        samples = model.balance_samples
        self.balance_chart.format_value = lambda v: model.balance_label(int(v))
        if samples:
            values = [None if s.balance is None else float(s.balance) for s in samples]
            self.balance_chart.set_data(
                values, f"block {samples[0].block:,}", f"block {samples[-1].block:,}"
            )
        if model.scan_range is not None:
            first, last = model.scan_range
            bins = len(model.activity_histogram())
            per_bar = max(1, round((last - first + 1) / max(1, bins)))
            self.activity_chart.title = (
                f"Activity per block range (last scan, {per_bar:,} blocks a bar)"
            )
            self.activity_chart.set_data(
                [float(c) for c in model.activity_histogram()],
                f"block {first:,}",
                f"block {last:,}",
            )
