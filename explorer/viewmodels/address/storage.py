"""The storage-slot tool: one slot read with eth_getStorageAt, shown as a number, text, address."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QObject

from explorer.chain.checksum import to_checksum_address
from explorer.rpc.errors import RpcError
from explorer.rpc.params import BlockSelector
from explorer.services.contracts import PROXY_SLOTS, SlotValue, parse_slot, read_slot
from explorer.services.routes import Route, address_route
from explorer.services.session import Session
from explorer.viewmodels.address.blocks import parse_block_text
from explorer.viewmodels.address.tool import Tool
from explorer.viewmodels.observable import TypedSignal, qproperty

PRESETS_NOTE = "Pre-filled: slot 0 and the EIP-1967 implementation, admin and beacon slots."


@dataclass(frozen=True)
class Link:
    """A link the view shows under a result."""

    text: str
    route: Route


@dataclass(frozen=True)
class SlotPreset:
    """A slot offered before the user types one."""

    text: str
    name: str


def describe_slot(value: SlotValue, chain_id: int) -> str:
    """Return a slot's word and what it reads as: a number, a short string, an address."""
    lines = [f"0x{value.word.hex()}", f"as a number: {value.number:,}"]
    if value.short_string is not None:
        lines.append(f"as a short string: {value.short_string!r}")
    if value.address:
        lines.append(f"as an address: {to_checksum_address(value.address, chain_id)}")
    return "\n".join(lines)


class StorageSlotViewModel(Tool):
    """Reads one storage slot of the address at a block; links the address a slot holds.

    Signals (besides Tool's: the result is the slot's value):
        link_changed(Link | None): the link to the address the slot holds, or None.
    """

    link_changed = TypedSignal[Link | None]()

    def __init__(self, session: Session, address: str, parent: QObject | None = None) -> None:
        super().__init__(session, address, parent)
        self._link: Link | None = None
        self.presets: tuple[SlotPreset, ...] = (
            SlotPreset("0", "slot 0"),
            *(SlotPreset(hex(slot), name) for name, slot in PROXY_SLOTS.items()),
        )

    def _get_link(self) -> Link | None:
        """Return the link to the address the slot holds, if it holds one."""
        return self._link

    link = qproperty(_get_link, link_changed)

    def read(self, slot_text: str, block_text: str = "") -> None:
        """Read a slot typed by the user at a block typed by the user."""
        try:
            slot, block = parse_slot(slot_text), parse_block_text(block_text)
        except ValueError as error:
            self._set_link(None)
            self._invalid(error)
            return
        self._start(self._read(slot, block))

    async def _read(self, slot: int, block: BlockSelector) -> None:
        """Read and describe one slot."""
        try:
            value = await read_slot(self.session.client, self.address, slot, block)
        except RpcError as error:
            self._set_link(None)
            self._failed(error)
            return
        self._set_link(value.address)
        self._publish(describe_slot(value, self.chain_id))

    def _set_link(self, address: str | None) -> None:
        """Link the address the slot holds, or nothing."""
        self._link = Link("Open this address", address_route(address)) if address else None
        self.link_changed.emit(self._link)
