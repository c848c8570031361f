"""The overview tab: the block the summary is read at, the facts read there, their disassembly."""

from __future__ import annotations

from PySide6.QtCore import QObject

from explorer.chain.evm_disasm import listing
from explorer.presentation.address_document import (
    AddressFacts,
    address_document,
    load_address_facts,
)
from explorer.presentation.document import Document
from explorer.rpc.errors import RpcError
from explorer.rpc.params import BlockSelector
from explorer.services.proxies import Upgrade
from explorer.services.session import Session
from explorer.viewmodels.address.blocks import parse_block_text
from explorer.viewmodels.observable import TypedSignal, qproperty

DISASSEMBLY_LINES = 20_000


class OverviewViewModel(QObject):
    """The summary's block and the facts read at it (the page loads them in its own task).

    Signals:
        block_changed(BlockSelector): the user chose another block; the page reloads.
        block_error_changed(str): why the typed block is not one, or "" once it is.
        facts_changed(AddressFacts): the facts at the chosen block arrived.
    """

    block_changed = TypedSignal[BlockSelector]()
    block_error_changed = TypedSignal[str]()
    facts_changed = TypedSignal[AddressFacts]()

    def __init__(self, session: Session, address: str, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.address = address
        self._block: BlockSelector = "latest"
        self._block_error = ""
        self._facts: AddressFacts | None = None

    def _get_block(self) -> BlockSelector:
        """Return the block the summary and the token balances are read at."""
        return self._block

    block = qproperty(_get_block, block_changed)

    def _get_block_error(self) -> str:
        """Return why the last typed block was refused ("" when it was not)."""
        return self._block_error

    block_error = qproperty(_get_block_error, block_error_changed)

    def _get_facts(self) -> AddressFacts | None:
        """Return the facts read at the chosen block, once they arrived."""
        return self._facts

    facts = qproperty(_get_facts, facts_changed)

    def _get_is_contract(self) -> bool:
        """Tell whether the address has code at the chosen block."""
        return bool(self._facts and self._facts.code)

    is_contract = qproperty(_get_is_contract, facts_changed)

    def _get_disassembly(self) -> str:
        """Return the code's disassembly listing (at most DISASSEMBLY_LINES lines)."""
        return listing(self._facts.code, DISASSEMBLY_LINES) if self._facts else ""

    disassembly = qproperty(_get_disassembly, facts_changed)

    def choose_block(self, text: str) -> None:
        """Read the summary at a block typed by the user, or say why the text is not one."""
        try:
            block = parse_block_text(text)
        except ValueError as error:
            self._set_block_error(str(error))
            return
        self._set_block_error("")
        self._block = block
        self.block_changed.emit(block)

    def _set_block_error(self, text: str) -> None:
        """Set the block error and tell the view."""
        self._block_error = text
        self.block_error_changed.emit(text)

    async def load(self) -> Document:
        """Read the facts at the chosen block and return the summary document."""
        try:
            facts = await load_address_facts(self.session.reader, self.address, self._block)
        except RpcError as error:
            if self._block != "latest":
                error.message = (
                    f"The node could not answer for block {self._block}: {error.message}"
                )
            raise
        self._facts = facts
        self.facts_changed.emit(facts)
        return address_document(facts, self.session.network)

    def document(self, since: Upgrade | None = None) -> Document | None:
        """Return the summary of the facts read, with since when a proxy's target was set."""
        if self._facts is None:
            return None
        return address_document(self._facts, self.session.network, since)
