"""The contract tab: what the contract is (proxy, functions, source), then its tools."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QFileDialog,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLineEdit,
    QPlainTextEdit,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from explorer.services.routes import Route
from explorer.viewmodels.address.contract_info import ContractInfoViewModel
from explorer.viewmodels.address.read_contract import AbiChoice, ReadContractViewModel
from explorer.viewmodels.address.simulation import SimulationViewModel
from explorer.viewmodels.address.storage import PRESETS_NOTE, Link, StorageSlotViewModel
from explorer.viewmodels.observable import TypedSignal
from explorer.views.address.controls import bind_result, block_field, button, result_label
from explorer.views.document_view import DocumentView
from explorer.views.theme import monospace, plain_label
from explorer.views.widgets import LinkLabel


class StorageSlotBox(QGroupBox):
    """Binds a StorageSlotViewModel: slot (EIP-1967 slots offered), block, value and link.

    Signals:
        link_activated(Route, bool): the address the slot holds was clicked.
    """

    link_activated = TypedSignal[Route, bool]()

    def __init__(self, storage: StorageSlotViewModel, parent: QWidget | None = None) -> None:
        super().__init__("Storage slot (eth_getStorageAt)", parent)
        self.storage = storage
        form = QFormLayout(self)
        self.slot_edit = monospace(QComboBox())
        self.slot_edit.setEditable(True)
        for preset in storage.presets:
            self.slot_edit.addItem(preset.text)
            self.slot_edit.setItemData(
                self.slot_edit.count() - 1, preset.name, Qt.ItemDataRole.ToolTipRole
            )
        self.block_edit = block_field()
        self.result = result_label(storage)
        self.link = LinkLabel("")
        self.link.link_activated.connect(self.link_activated)
        storage.link_changed.connect(self.on_link_changed)
        form.addRow(plain_label(PRESETS_NOTE, selectable=False))
        form.addRow("Slot (decimal or 0x):", self.slot_edit)
        form.addRow("At block:", self.block_edit)
        form.addRow(button("Read slot", self.on_read))
        form.addRow("Value:", self.result)
        form.addRow("", self.link)

    def on_read(self) -> None:
        """Read the chosen slot."""
        self.storage.read(self.slot_edit.currentText(), self.block_edit.text())

    def on_link_changed(self, link: Link | None) -> None:
        """Link the address the slot holds, or show nothing."""
        self.link.setText(link.text if link else "")
        self.link.set_route(link.route if link else None)


class ReadContractBox(QGroupBox):
    """Binds a ReadContractViewModel: ABI, function, one field per input, block, outputs."""

    def __init__(self, reader: ReadContractViewModel, parent: QWidget | None = None) -> None:
        super().__init__("Read contract (reads by eth_call; writes simulated, never sent)", parent)
        self.reader = reader
        layout = QVBoxLayout(self)
        self.abi_choice = QComboBox()
        for abi in AbiChoice:
            self.abi_choice.addItem(abi.value, abi)
        self.abi_choice.currentIndexChanged.connect(self.on_abi_chosen)
        self.abi_text = QPlainTextEdit()
        self.abi_text.setPlaceholderText("Paste the contract's ABI (JSON) here")
        self.abi_text.setMaximumHeight(90)
        self.abi_text.textChanged.connect(self.on_abi_pasted)
        self.function_choice = QComboBox()
        self.function_choice.currentIndexChanged.connect(reader.choose_function)
        choices = QHBoxLayout()
        choices.addWidget(plain_label("ABI:", selectable=False))
        choices.addWidget(self.abi_choice)
        choices.addWidget(plain_label("Function:", selectable=False))
        choices.addWidget(self.function_choice, 1)
        self.functions_status = plain_label("")
        self.inputs_form = QFormLayout()
        self.input_edits: list[QLineEdit] = []
        self.block_edit = block_field()
        block_row = QHBoxLayout()
        block_row.addWidget(plain_label("At block:", selectable=False))
        block_row.addWidget(self.block_edit)
        block_row.addWidget(button("Call", self.on_call))
        layout.addLayout(choices)
        layout.addWidget(self.abi_text)
        layout.addWidget(self.functions_status)
        layout.addLayout(self.inputs_form)
        layout.addLayout(block_row)
        self.result = result_label(reader)
        layout.addWidget(self.result)
        reader.abi_changed.connect(self.on_abi_changed)
        reader.functions_changed.connect(self.on_functions_changed)
        reader.function_changed.connect(self.on_function_changed)
        self.on_abi_changed()
        self.on_functions_changed()
        self.on_function_changed()

    def on_abi_chosen(self) -> None:
        """Use the chosen ABI."""
        self.reader.choose_abi(self.abi_choice.currentData())

    def on_abi_pasted(self) -> None:
        """Hand the pasted ABI over."""
        self.reader.paste_abi(self.abi_text.toPlainText())

    def on_abi_changed(self) -> None:
        """Show the chosen ABI, and the paste field when it is the pasted one."""
        self.abi_choice.blockSignals(True)
        self.abi_choice.setCurrentIndex(list(AbiChoice).index(self.reader.abi))
        self.abi_choice.blockSignals(False)
        self.abi_text.setVisible(self.reader.pasting)

    def on_functions_changed(self) -> None:
        """List the ABI's view functions."""
        self.functions_status.setText(self.reader.functions_status)
        self.function_choice.blockSignals(True)
        self.function_choice.clear()
        self.function_choice.addItems(list(self.reader.function_names))
        self.function_choice.blockSignals(False)

    def on_function_changed(self) -> None:
        """Show the chosen function and one field per input it takes."""
        self.function_choice.blockSignals(True)
        self.function_choice.setCurrentIndex(self.reader.function)
        self.function_choice.blockSignals(False)
        while self.inputs_form.rowCount():
            self.inputs_form.removeRow(0)
        self.input_edits = []
        for field in self.reader.inputs:
            edit = QLineEdit()
            edit.setPlaceholderText(field.placeholder)
            self.input_edits.append(edit)
            self.inputs_form.addRow(field.label, edit)

    def on_call(self) -> None:
        """Call the chosen function with the typed inputs."""
        self.reader.call([edit.text() for edit in self.input_edits], self.block_edit.text())


class SimulationBox(QGroupBox):
    """Binds a SimulationViewModel: the call object's fields and both answers."""

    def __init__(self, simulation: SimulationViewModel, parent: QWidget | None = None) -> None:
        super().__init__("Simulate a call (eth_call + eth_estimateGas)", parent)
        self.simulation = simulation
        form = QFormLayout(self)
        form.addRow(plain_label(simulation.spec_rule, wrap=True))
        self.edits: dict[str, QLineEdit] = {}
        for name, (label, hint) in simulation.fields.items():
            self.edits[name] = edit = QLineEdit()
            edit.setPlaceholderText(hint)
            form.addRow(f"{label}:", edit)
        form.addRow(button("Simulate", self.on_simulate))
        self.result = result_label(simulation)
        form.addRow(self.result)

    def on_simulate(self) -> None:
        """Simulate the typed call object."""
        self.simulation.run({name: edit.text() for name, edit in self.edits.items()})


class ContractInfoBox(QWidget):
    """Binds a ContractInfoViewModel: match artifacts, add a signature list, the facts.

    Signals:
        link_activated(Route, bool): an address in the facts was clicked.
    """

    link_activated = TypedSignal[Route, bool]()

    def __init__(self, info: ContractInfoViewModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.info = info
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        actions = QHBoxLayout()
        self.match_button = button("Match artifacts…", self.on_match)
        self.match_button.setToolTip(
            "Choose a Hardhat or Foundry project (or its artifacts/ or out/ folder), or a "
            "Sourcify metadata.json: its build is compared with this code, nothing compiled"
        )
        self.signatures_button = button("Add a signature list…", self.on_signatures)
        self.signatures_button.setToolTip(
            "A text file of signatures, one a line, to name selectors"
        )
        actions.addWidget(self.match_button)
        actions.addWidget(self.signatures_button)
        actions.addStretch(1)
        self.status = bind_result(plain_label(wrap=True), info)
        self.status.setVisible(bool(info.result))
        info.result_changed.connect(self.on_status)
        self.facts_view = DocumentView()
        self.facts_view.link_activated.connect(self.link_activated)
        layout.addLayout(actions)
        layout.addWidget(self.status)
        layout.addWidget(self.facts_view)
        info.facts_changed.connect(self.on_facts_changed)
        self.on_facts_changed()

    def on_status(self, text: str) -> None:
        """Show the status line only when it says something."""
        self.status.setVisible(bool(text))

    def on_facts_changed(self) -> None:
        """Show the facts read."""
        document = self.info.document
        if document is not None:
            self.facts_view.show_document(document)

    def on_match(self) -> None:
        """Ask for a project folder and match its artifacts."""
        folder = QFileDialog.getExistingDirectory(self, "Choose the project's artifacts folder")
        if folder:
            self.info.choose_artifacts(folder)

    def on_signatures(self) -> None:
        """Ask for a signature list and name selectors from it."""
        name, _ = QFileDialog.getOpenFileName(
            self, "Choose a signature list", "", "Text (*.txt);;All files (*)"
        )
        if name:
            self.info.choose_signatures(name)


class ContractTab(QScrollArea):
    """The contract tools, one box each, in a scroll area.

    Signals:
        link_activated(Route, bool): a link in a tool's result was clicked.
    """

    link_activated = TypedSignal[Route, bool]()

    def __init__(
        self,
        info: ContractInfoViewModel,
        storage: StorageSlotViewModel,
        reader: ReadContractViewModel,
        simulation: SimulationViewModel,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.info_box = ContractInfoBox(info)
        self.info_box.link_activated.connect(self.link_activated)
        self.slot_box = StorageSlotBox(storage)
        self.slot_box.link_activated.connect(self.link_activated)
        self.read_box = ReadContractBox(reader)
        self.simulation_box = SimulationBox(simulation)
        widget = QWidget()
        layout = QVBoxLayout(widget)
        for box in (self.info_box, self.read_box, self.simulation_box, self.slot_box):
            layout.addWidget(box)
        layout.addStretch(1)
        self.setWidgetResizable(True)
        self.setWidget(widget)
