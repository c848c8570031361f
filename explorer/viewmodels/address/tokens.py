"""The tokens tab: the address's balances of known and user-added tokens, and the added ones."""

from __future__ import annotations

import enum
import functools
from collections.abc import Sequence
from typing import Any, Protocol

from PySide6.QtCore import QModelIndex, QObject, QPersistentModelIndex, Qt

from explorer.chain.checksum import to_checksum_address
from explorer.chain.hexutil import HexFormatError, parse_address
from explorer.chain.known import known_label
from explorer.chain.units import format_units, readable_units
from explorer.rpc.errors import RpcError
from explorer.rpc.params import BlockSelector
from explorer.services.routes import address_route
from explorer.services.session import Session
from explorer.services.token_units import TokenUnit
from explorer.services.tokens import (
    MULTICALL3,
    NO_CONTRACT,
    TokenBalance,
    TokenReader,
    known_tokens,
)
from explorer.viewmodels.address.tool import Tool
from explorer.viewmodels.batched_table import BatchedTableModel
from explorer.viewmodels.observable import TypedSignal, qproperty
from explorer.viewmodels.roles import COPY_ROLE, ROUTE_ROLE
from explorer.viewmodels.sorting import Key, SortOrder, sorted_rows, text_key

Index = QModelIndex | QPersistentModelIndex
Units = dict[str, tuple[int, str]]  # token address -> (decimals, symbol)


class TokenStore(Protocol):
    """Where user-added tokens are kept (explorer.settings.store.Settings fits)."""

    def tokens(self, network: str) -> list[str]:
        """Return the token contracts the user added on a network."""
        ...

    def set_tokens(self, network: str, tokens: list[str]) -> None:
        """Store the token contracts the user added on a network."""
        ...


class MemoryTokenStore:
    """A TokenStore that forgets on exit (tests, `report`)."""

    def __init__(self) -> None:
        self._lists: dict[str, list[str]] = {}

    def tokens(self, network: str) -> list[str]:
        """Return the token contracts the user added on a network."""
        return list(self._lists.get(network, []))

    def set_tokens(self, network: str, tokens: list[str]) -> None:
        """Store the token contracts the user added on a network."""
        self._lists[network] = list(tokens)


def token_name(entry: TokenBalance, chain_id: int) -> str:
    """Return a token's name and symbol, or its known label, or its address."""
    info = entry.token
    if info.name or info.symbol:
        return info.display_name
    return known_label(info.address, chain_id) or info.address


def balance_text(entry: TokenBalance, exact: bool = False) -> str:
    """Return a token balance (readable, or exact) with its symbol, or why it is missing."""
    if entry.balance is None:
        return f"— ({entry.error})"
    info = entry.token
    shown = format_units if exact else readable_units
    amount = shown(entry.balance, info.decimals or 0)
    return f"{amount} {info.symbol or ''}".rstrip()


class TokenColumn(enum.IntEnum):
    """The columns of the tokens table."""

    TOKEN = 0
    BALANCE = 1
    CONTRACT = 2
    STANDARD = 3


class TokenTableModel(BatchedTableModel):
    """One row per token balance; the contract cell links to the token's address page."""

    headers = ("Token", "Balance", "Contract", "Standard")

    def __init__(self, chain_id: int, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._chain_id = chain_id
        self.balances: list[TokenBalance] = []
        self.sorting = SortOrder()  # as read: the known tokens first

    def set_balances(self, balances: Sequence[TokenBalance]) -> None:
        """Show these balances, every row at once (in the order a header click chose)."""
        self.beginResetModel()
        column, descending = self.sorting.column, self.sorting.descending
        self.balances = list(balances)
        if column >= 0:
            key = functools.partial(self._key, TokenColumn(column))
            self.balances = sorted_rows(balances, key, descending)
        self._shown = len(self.balances)
        self.endResetModel()

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        """Sort the tokens by a column (a header click)."""
        self.sorting = SortOrder.of(column, order)
        self.set_balances(self.balances)

    def _key(self, column: TokenColumn, entry: TokenBalance) -> Key:
        """Return a token's key in a column: balances by amount, the rest as read."""
        if column is TokenColumn.BALANCE:
            if entry.balance is None:
                return None
            return entry.balance / 10 ** (entry.token.decimals or 0)
        return text_key(self._text(entry, column))

    def available(self) -> int:
        """Return how many balances there are."""
        return len(self.balances)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        """Return a cell's text, or the token's route for ROUTE_ROLE on its contract."""
        if not index.isValid() or index.row() >= len(self.balances):
            return None
        entry = self.balances[index.row()]
        column = TokenColumn(index.column())
        if role == ROUTE_ROLE:
            return address_route(entry.token.address) if column is TokenColumn.CONTRACT else None
        if role == Qt.ItemDataRole.DisplayRole:
            return self._text(entry, column)
        if role in (Qt.ItemDataRole.ToolTipRole, COPY_ROLE) and column is TokenColumn.BALANCE:
            return balance_text(entry, exact=True)  # the exact balance on hover
        return None

    def _text(self, entry: TokenBalance, column: TokenColumn) -> str:
        """Return the text of one cell."""
        if column is TokenColumn.TOKEN:
            return token_name(entry, self._chain_id)
        if column is TokenColumn.BALANCE:
            return balance_text(entry)
        if column is TokenColumn.CONTRACT:
            return to_checksum_address(entry.token.address, self._chain_id)
        return entry.token.kind or "unknown"


class TokensViewModel(Tool):
    """Reads token balances (Multicall3 when deployed) and keeps the user's added tokens.

    Signals (besides Tool's: the result is the status line):
        input_error_changed(str): why a typed or chosen token was refused, or "".
        token_added: a typed token was added (the view clears its field).
        units_changed(dict[str, TokenUnit]): decimals and symbols of the read tokens.
    """

    input_error_changed = TypedSignal[str]()
    token_added = TypedSignal[()]()
    units_changed = TypedSignal[dict[str, TokenUnit]]()

    def __init__(
        self,
        session: Session,
        address: str,
        store: TokenStore | None = None,
        extra_tokens: Sequence[str] = (),
        multicall: str = MULTICALL3,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(session, address, parent)
        self.store: TokenStore = store or MemoryTokenStore()
        self.extra_tokens = tuple(extra_tokens)
        self.reader = TokenReader(session.client, multicall)
        self.table = TokenTableModel(self.chain_id, self)
        self._block: BlockSelector = "latest"
        self._input_error = ""

    def _get_input_error(self) -> str:
        """Return why the last token to add or remove was refused ("" when it was not)."""
        return self._input_error

    input_error = qproperty(_get_input_error, input_error_changed)

    @property
    def user_tokens(self) -> list[str]:
        """Return the tokens the user added on this network."""
        return self.store.tokens(self.session.network.id)

    def load(self, block: BlockSelector | None = None) -> None:
        """(Re)read the balances, at block when given, else at the block read last."""
        if block is not None:
            self._block = block
        self._start(self._load())

    async def _load(self) -> None:
        """Read balances through Multicall3 when deployed, else call by call."""
        tokens = known_tokens(self.chain_id, [*self.extra_tokens, *self.user_tokens])
        if not tokens:
            self.table.set_balances([])
            self._publish("No known tokens on this network.")
            return
        self._publish(f"Reading {len(tokens)} token balance(s)…")
        before = self.reader.multicall_used
        try:
            balances = await self.reader.balances(self.address, tokens, self._block)
        except RpcError as error:
            self._publish(f"Could not read token balances: {error.message}")
            return
        user = set(self.user_tokens)  # a known token missing on this chain is left out
        balances = [b for b in balances if b.error != NO_CONTRACT or b.token.address in user]
        self.table.set_balances(balances)
        units = {
            b.token.address: TokenUnit(b.token.decimals, b.token.symbol or "")
            for b in balances
            if b.token.decimals is not None
        }
        self.session.reader.token_units.remember(units)  # no page reads them again
        self.units_changed.emit(units)
        used = "one Multicall3 request" if self.reader.multicall_used > before else "single calls"
        self._publish(f"{len(balances)} token(s), read with {used}.")

    def add(self, text: str) -> None:
        """Add a token by address (kept in the store) and reload, or say why it is not one."""
        try:
            token = parse_address(text.strip())
        except HexFormatError:
            self._set_input_error(f"{text.strip()!r} is not an address")
            return
        self._set_input_error("")
        tokens = self.user_tokens
        if token not in tokens:
            self.store.set_tokens(self.session.network.id, [*tokens, token])
        self.token_added.emit()
        self.load()

    def remove(self, row: int) -> None:
        """Forget the token of a table row if the user added it, and reload."""
        balances = self.table.balances
        if not 0 <= row < len(balances):
            return
        token = balances[row].token.address
        if token not in self.user_tokens:
            self._set_input_error("Only tokens you added can be removed.")
            return
        self._set_input_error("")
        kept = [t for t in self.user_tokens if t != token]
        self.store.set_tokens(self.session.network.id, kept)
        self.load()

    def _set_input_error(self, text: str) -> None:
        """Set the input error and tell the view."""
        self._input_error = text
        self.input_error_changed.emit(text)
