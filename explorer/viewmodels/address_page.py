"""The address page's view model: summary at a block, tokens, contract tools, activity, charts."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Coroutine, Sequence
from typing import Any, Protocol

from PySide6.QtCore import (
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
    Signal,
)

from explorer.chain.abi_input import (
    ERC20_ABI,
    ERC721_ABI,
    AbiFunction,
    AbiInputError,
    parse_abi,
    parse_input,
)
from explorer.chain.checksum import to_checksum_address
from explorer.chain.evm_disasm import listing
from explorer.chain.hexutil import HexFormatError, parse_address
from explorer.chain.known import known_label
from explorer.chain.units import format_rbtc, format_units, parse_rbtc
from explorer.rpc.errors import RpcError
from explorer.rpc.params import BlockSelector
from explorer.services.activity import (
    ACTIVITY_CACHE,
    DEFAULT_RANGE,
    ActivityCache,
    ActivityItem,
    ActivityKind,
    ActivityProgress,
    ActivityScanner,
    BalanceSample,
    balance_history,
    histogram,
)
from explorer.services.contracts import (
    PROXY_SLOTS,
    parse_slot,
    read_contract,
    read_slot,
    simulate,
)
from explorer.services.routes import Route, address_route, block_route, tx_route
from explorer.services.session import Session
from explorer.services.tokens import MULTICALL3, TokenBalance, TokenReader, known_tokens
from explorer.viewmodels.address_document import AddressFacts, address_document, load_address_facts
from explorer.viewmodels.batched_table import BatchedTableModel
from explorer.viewmodels.document import Document
from explorer.viewmodels.page import PageViewModel
from explorer.viewmodels.roles import ROUTE_ROLE

BATCH = 500
DISASSEMBLY_LINES = 20_000
STANDARD_ABIS = {"ERC-20": ERC20_ABI, "ERC-721": ERC721_ABI}
ARCHIVE_CAVEAT = (
    "Balances at past blocks need a node that keeps old state (an archive node); "
    "samples the node could not answer are left out and counted below."
)
Index = QModelIndex | QPersistentModelIndex


class TokenStore(Protocol):
    """Where user-added tokens are kept (explorer.settings.Settings fits)."""

    def get_list(self, name: str) -> list[str]:
        """Return a stored list of strings."""
        ...

    def set_list(self, name: str, values: list[str]) -> None:
        """Store a list of strings."""
        ...


class MemoryTokenStore:
    """A TokenStore that forgets on exit (tests, `report`)."""

    def __init__(self) -> None:
        self._lists: dict[str, list[str]] = {}

    def get_list(self, name: str) -> list[str]:
        """Return a stored list of strings."""
        return list(self._lists.get(name, []))

    def set_list(self, name: str, values: list[str]) -> None:
        """Store a list of strings."""
        self._lists[name] = list(values)


def parse_block_text(text: str) -> BlockSelector:
    """Parse a block typed by the user: empty or `latest`, a tag, a decimal or 0x number."""
    word = text.strip().lower()
    if word in ("", "latest", "pending", "earliest"):
        return word or "latest"
    try:
        number = parse_input("uint64", word)
    except AbiInputError:
        raise ValueError(f"{text!r} is not a block number or tag") from None
    assert isinstance(number, int)
    return number


ACTIVITY_HEADERS = ("Block", "Transaction", "Direction", "Counterparty", "Contract", "Detail")


class ActivityTableModel(BatchedTableModel):
    """Found activity, streamed in and shown in batches."""

    headers = ACTIVITY_HEADERS
    batch = BATCH

    def __init__(self, chain_id: int, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._chain_id = chain_id
        self.items: list[ActivityItem] = []
        self.units: dict[str, tuple[int, str]] = {}  # token -> (decimals, symbol)

    def clear(self) -> None:
        """Remove every row."""
        self.beginResetModel()
        self.items, self._shown = [], 0
        self.endResetModel()

    def append(self, items: Sequence[ActivityItem]) -> None:
        """Add found items; rows show up to the next batch boundary at once."""
        self.items.extend(items)
        if self._shown < BATCH:
            self.show_up_to(BATCH)

    def available(self) -> int:
        """Return how many items were found."""
        return len(self.items)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        """Return a cell's text, or its route for ROUTE_ROLE."""
        if not index.isValid() or index.row() >= self._shown:
            return None
        item = self.items[index.row()]
        column = index.column()
        if role == ROUTE_ROLE:
            return self._route(item, column)
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
            return self._text(item, column)
        return None

    def _checksummed(self, address: str | None) -> str:
        """Return an address in the network's checksum case, or ""."""
        return to_checksum_address(address, self._chain_id) if address else ""

    def _text(self, item: ActivityItem, column: int) -> str:
        """Return the text of one cell."""
        texts = (
            f"{item.block:,}",
            item.tx_hash or "",
            item.direction,
            self._checksummed(item.counterparty),
            self._checksummed(item.contract),
            self._detail(item),
        )
        return texts[column]

    def _detail(self, item: ActivityItem) -> str:
        """Return the detail, with a transfer's amount in the token's units when known."""
        unit = self.units.get(item.contract or "")
        if item.amount is None or unit is None:
            return item.detail
        return f"{format_units(item.amount, unit[0])} {unit[1]}".rstrip()

    @staticmethod
    def _route(item: ActivityItem, column: int) -> Route | None:
        """Return the route a cell links to."""
        routes: dict[int, Route | None] = {
            0: block_route(item.block),
            1: tx_route(item.tx_hash) if item.tx_hash else None,
            3: address_route(item.counterparty) if item.counterparty else None,
            4: address_route(item.contract) if item.contract else None,
        }
        return routes.get(column)


class AddressPageViewModel(PageViewModel):
    """The address page: the summary document plus tools that each run their own task.

    Signals:
        changed: state, document or error changed (from PageViewModel).
        tokens_changed: token balances, their loading state or error changed.
        tool_changed(str): a contract tool ("slot", "read", "simulate", "functions") has news.
        activity_changed: scan progress, status or results changed.
        chart_changed: balance samples or the activity histogram changed.
    """

    tokens_changed = Signal()
    tool_changed = Signal(str)
    activity_changed = Signal()
    chart_changed = Signal()

    def __init__(
        self,
        session: Session,
        route: Route,
        store: TokenStore | None = None,
        extra_tokens: Sequence[str] = (),
        multicall: str = MULTICALL3,
        cache: ActivityCache = ACTIVITY_CACHE,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(session, route, parent)
        self.address = parse_address(route.target)
        self.store: TokenStore = store or MemoryTokenStore()
        self.extra_tokens = tuple(extra_tokens)
        self.tokens = TokenReader(session.client, multicall)
        self.cache = cache
        self.block: BlockSelector = "latest"
        self.facts: AddressFacts | None = None
        self.token_balances: list[TokenBalance] = []
        self.tokens_status = ""
        self.functions: tuple[AbiFunction, ...] = ()
        self.results: dict[str, str] = {"slot": "", "read": "", "simulate": "", "functions": ""}
        self.slot_link: Route | None = None
        self.activity = ActivityTableModel(session.network.chain_id, self)
        self.scan_kind = ActivityKind.TRANSFERS
        self.scan_range: tuple[int, int] | None = None
        self.scan_progress: ActivityProgress | None = None
        self.scan_status = ""
        self.scanning = False
        self.scan_complete = False
        self.balance_samples: list[BalanceSample] = []
        self.chart_status = ""
        self._tools: dict[str, asyncio.Task[None]] = {}

    @property
    def store_key(self) -> str:
        """Return the settings name of this network's user-added tokens."""
        return f"tokens/{self.session.network.id}"

    @property
    def user_tokens(self) -> list[str]:
        """Return the tokens the user added on this network."""
        return self.store.get_list(self.store_key)

    @property
    def is_contract(self) -> bool:
        """Tell whether the address has code (at the chosen block)."""
        return bool(self.facts and self.facts.code)

    @property
    def disassembly(self) -> str:
        """Return the code's disassembly listing (at most DISASSEMBLY_LINES lines)."""
        return listing(self.facts.code, DISASSEMBLY_LINES) if self.facts else ""

    @property
    def scan_fraction(self) -> float:
        """Return how much of the last scan is done (1.0 once finished or from the cache)."""
        if self.scan_complete:
            return 1.0
        return self.scan_progress.fraction if self.scan_progress else 0.0

    # -- the summary ---------------------------------------------------------------------

    async def _documents(self) -> AsyncIterator[tuple[Document | None, bool]]:
        """Load the summary at the chosen block, then the token balances."""
        try:
            facts = await load_address_facts(self.session.reader, self.address, self.block)
        except RpcError as error:
            if self.block != "latest":
                error.message = f"The node could not answer for block {self.block}: {error.message}"
            raise
        self.facts = facts
        self.on_load_tokens()
        yield address_document(facts, self.session.network), False

    def set_block(self, text: str) -> None:
        """Show the summary at a block typed by the user (ValueError when it is not one)."""
        self.block = parse_block_text(text)
        self.reload()

    # -- tasks ---------------------------------------------------------------------------

    def is_running(self, tool: str) -> bool:
        """Tell whether a tool ("tokens", "slot", "read", "simulate", "scan", "chart") works."""
        task = self._tools.get(tool)
        return task is not None and not task.done()

    def _spawn(self, name: str, coro: Coroutine[Any, Any, None]) -> None:
        """Run a tool's coroutine, cancelling the tool's previous run."""
        old = self._tools.pop(name, None)
        if old is not None and not old.done():
            old.cancel()
        self._tools[name] = asyncio.ensure_future(coro)

    def dispose(self) -> None:
        """Stop the load and every tool."""
        super().dispose()
        for task in self._tools.values():
            task.cancel()
        self._tools.clear()

    def _say(self, tool: str, text: str, link: Route | None = None) -> None:
        """Publish a tool's result text."""
        self.results[tool] = text
        if tool == "slot":
            self.slot_link = link
        self.tool_changed.emit(tool)

    # -- tokens --------------------------------------------------------------------------

    def on_load_tokens(self) -> None:
        """(Re)read the address's balances of known and user-added tokens."""
        self._spawn("tokens", self._load_tokens())

    async def _load_tokens(self) -> None:
        """Read balances through Multicall3 when deployed, else call by call."""
        chain_id = self.session.network.chain_id
        tokens = known_tokens(chain_id, [*self.extra_tokens, *self.user_tokens])
        if not tokens:
            self.token_balances, self.tokens_status = [], "No known tokens on this network."
            self.tokens_changed.emit()
            return
        self.tokens_status = f"Reading {len(tokens)} token balance(s)…"
        self.tokens_changed.emit()
        before = self.tokens.multicall_used
        try:
            self.token_balances = await self.tokens.balances(self.address, tokens, self.block)
            self.activity.units.update(
                {
                    b.token.address: (b.token.decimals, b.token.symbol or "")
                    for b in self.token_balances
                    if b.token.decimals is not None
                }
            )
        except RpcError as error:
            self.tokens_status = f"Could not read token balances: {error.message}"
        else:
            how = (
                "one Multicall3 request" if self.tokens.multicall_used > before else "single calls"
            )
            self.tokens_status = f"{len(tokens)} token(s), read with {how}."
        self.tokens_changed.emit()

    def add_token(self, text: str) -> None:
        """Add a token by address (kept in the store) and reload; ValueError when invalid."""
        try:
            token = parse_address(text.strip())
        except HexFormatError:
            raise ValueError(f"{text.strip()!r} is not an address") from None
        tokens = self.user_tokens
        if token not in tokens:
            self.store.set_list(self.store_key, [*tokens, token])
        self.on_load_tokens()

    def remove_token(self, address: str) -> None:
        """Forget a user-added token and reload."""
        self.store.set_list(self.store_key, [t for t in self.user_tokens if t != address])
        self.on_load_tokens()

    def token_name(self, entry: TokenBalance) -> str:
        """Return a token's name and symbol, or its known label, or its address."""
        info = entry.token
        if info.name or info.symbol:
            return info.display_name
        return known_label(info.address, self.session.network.chain_id) or info.address

    def balance_text(self, entry: TokenBalance) -> str:
        """Return a token balance with its decimals and symbol."""
        if entry.balance is None:
            return f"— ({entry.error})"
        info = entry.token
        amount = (
            format_units(entry.balance, info.decimals)
            if info.decimals is not None
            else f"{entry.balance:,}"
        )
        return f"{amount} {info.symbol or ''}".rstrip()

    # -- storage slots -------------------------------------------------------------------

    @staticmethod
    def proxy_slots() -> dict[str, str]:
        """Return the EIP-1967 slots to pre-fill, as hex text by name."""
        return {name: hex(slot) for name, slot in PROXY_SLOTS.items()}

    def read_slot(self, slot_text: str, block_text: str = "") -> None:
        """Read a storage slot; the result (and a link when it holds an address) follows."""
        try:
            slot, block = parse_slot(slot_text), parse_block_text(block_text)
        except ValueError as error:
            self._say("slot", f"Invalid input: {error}")
            return
        self._spawn("slot", self._read_slot(slot, block))

    async def _read_slot(self, slot: int, block: BlockSelector) -> None:
        """Read and describe one slot."""
        try:
            value = await read_slot(self.session.client, self.address, slot, block)
        except RpcError as error:
            self._say("slot", f"Error: {error.message}")
            return
        lines = [f"0x{value.word.hex()}", f"as a number: {value.number:,}"]
        if value.short_string is not None:
            lines.append(f"as a short string: {value.short_string!r}")
        address = value.address
        if address:
            lines.append(
                f"as an address: {to_checksum_address(address, self.session.network.chain_id)}"
            )
        self._say("slot", "\n".join(lines), address_route(address) if address else None)

    # -- read contract -------------------------------------------------------------------

    def set_abi(self, text: str) -> None:
        """Use a pasted ABI (JSON) or a standard name (`ERC-20`, `ERC-721`)."""
        try:
            functions = parse_abi(STANDARD_ABIS.get(text, text))
        except AbiInputError as error:
            self.functions = ()
            self._say("functions", f"Invalid ABI: {error}")
            return
        self.functions = tuple(f for f in functions if f.is_view)
        hidden = len(functions) - len(self.functions)
        note = f" ({hidden} state-changing function(s) left out)" if hidden else ""
        self._say("functions", f"{len(self.functions)} view function(s){note}.")

    def call_function(self, index: int, inputs: Sequence[str], block_text: str = "") -> None:
        """Call the index-th view function with typed inputs at a block."""
        function = self.functions[index]
        try:
            block = parse_block_text(block_text)
        except ValueError as error:
            self._say("read", f"Invalid input: {error}")
            return
        self._spawn("read", self._call(function, list(inputs), block))

    async def _call(self, function: AbiFunction, inputs: list[str], block: BlockSelector) -> None:
        """Run one read-contract call and describe its outputs."""
        try:
            result = await read_contract(
                self.session.client,
                self.address,
                function,
                inputs,
                block,
                self.session.network.chain_id,
            )
        except AbiInputError as error:
            self._say("read", f"Invalid input: {error}")
            return
        except RpcError as error:
            self._say("read", f"Error: {error.message}")
            return
        if result.error:
            self._say("read", f"{function.name}: {result.error}")
            return
        lines = [
            f"{p.name or f'output {i}'} ({p.type}): {p.text}" for i, p in enumerate(result.outputs)
        ]
        self._say("read", "\n".join(lines) or f"{function.name}: no outputs")

    # -- simulate ------------------------------------------------------------------------

    def simulate(self, fields: dict[str, str]) -> None:
        """Simulate a call object typed by the user (from, gas, gasPrice, value, data).

        `value` is in RBTC; the others are hex or decimal; `to` defaults to this address.
        """
        try:
            call = self._call_object(fields)
        except ValueError as error:
            self._say("simulate", f"Invalid input: {error}")
            return
        self._spawn("simulate", self._simulate(call))

    def _call_object(self, fields: dict[str, str]) -> dict[str, Any]:
        """Build the §2.2 call object from typed fields."""
        call: dict[str, Any] = {"to": parse_input("address", fields.get("to") or self.address)}
        if fields.get("from", "").strip():
            call["from"] = parse_input("address", fields["from"].strip())
        for name in ("gas", "gasPrice"):
            if fields.get(name, "").strip():
                call[name] = hex(parse_input("uint64", fields[name].strip()))
        if fields.get("value", "").strip():
            call["value"] = hex(parse_rbtc(fields["value"].strip()))
        data = fields.get("data", "").strip()
        if data:
            call["data"] = "0x" + parse_input("bytes", data).hex()
        return call

    async def _simulate(self, call: dict[str, Any]) -> None:
        """Run eth_call and eth_estimateGas and show both."""
        result = await simulate(self.session.client, call)
        if result.would_fail:
            reason = result.revert_reason or "no reason given"
            call_line = f"eth_call: the execution fails — {reason} ({result.call_error})"
        else:
            output = result.output or b""
            call_line = f"eth_call: succeeds, output 0x{output.hex() or ''}"
        if result.gas_estimate is not None:
            estimate_line = f"eth_estimateGas: {result.gas_estimate:,} gas"
        else:
            estimate_line = f"eth_estimateGas: error — {result.estimate_error}"
        self._say("simulate", "\n".join([call_line, estimate_line]))

    # -- activity ------------------------------------------------------------------------

    def start_scan(self, kind: ActivityKind, start_text: str = "", end_text: str = "") -> None:
        """Scan a range (default: the last DEFAULT_RANGE blocks) for one kind of activity."""
        self.scan_kind = kind
        self._spawn("scan", self._scan(kind, start_text, end_text))

    def cancel_scan(self) -> None:
        """Stop the running scan; what was found stays in the table."""
        task = self._tools.get("scan")
        if task is not None and not task.done():
            task.cancel()
            self.scanning = False
            self.scan_status = f"Cancelled — {len(self.activity.items):,} found before stopping."
            self.activity_changed.emit()

    async def _range(self, start_text: str, end_text: str) -> tuple[int, int]:
        """Resolve the typed range; the end defaults to the head, the start to end - range."""
        end = parse_block_text(end_text) if end_text.strip() else "latest"
        if not isinstance(end, int):
            end = await self.session.reader.latest_number()
        start = (
            parse_block_text(start_text) if start_text.strip() else max(0, end - DEFAULT_RANGE + 1)
        )
        if not isinstance(start, int):
            start = 0
        if start > end:
            raise ValueError(f"the range starts ({start:,}) after it ends ({end:,})")
        return start, end

    async def _scan(self, kind: ActivityKind, start_text: str, end_text: str) -> None:
        """Run a scan, streaming results into the table; a finished scan is cached."""
        self.activity.clear()
        self.scan_progress, self.scan_complete = None, False
        try:
            start, end = await self._range(start_text, end_text)
        except (ValueError, RpcError) as error:
            self.scan_status = f"Cannot scan: {getattr(error, 'message', error)}"
            self.activity_changed.emit()
            return
        self.scan_range = (start, end)
        network = self.session.network.id
        cached = self.cache.get(network, self.address, kind, start, end)
        if cached is not None:
            self.activity.append(cached)
            self.scan_status = f"{len(cached):,} found in blocks {start:,}–{end:,} (cached)."
            self.scan_complete = True
            self._scan_done()
            return
        self.scanning = True
        cost = " — one request per block" if kind is ActivityKind.TRANSACTIONS else ""
        self.scan_status = f"Scanning blocks {start:,}–{end:,}{cost}…"
        self.activity_changed.emit()
        scanner = ActivityScanner(self.session.client)
        try:
            async for items in scanner.scan(kind, self.address, start, end, self._on_progress):
                self.activity.append(items)
        except RpcError as error:
            self.scan_status = (
                f"The scan stopped: {error.message} ({len(self.activity.items):,} found)"
            )
            self.scanning = False
            self._scan_done()
            return
        self.cache.put(network, self.address, kind, start, end, self.activity.items)
        self.scan_complete = True
        self.scan_status = (
            f"{len(self.activity.items):,} found in blocks {start:,}–{end:,} "
            f"({scanner.requests:,} requests)."
        )
        self.scanning = False
        self._scan_done()

    def _scan_done(self) -> None:
        """Publish the end of a scan and its histogram."""
        self.activity_changed.emit()
        self.chart_changed.emit()

    def _on_progress(self, progress: ActivityProgress) -> None:
        """Publish scan progress with an ETA."""
        self.scan_progress = progress
        eta = progress.eta
        left = f", about {eta:.0f} s left" if eta is not None else ""
        self.scan_status = (
            f"Scanning: {progress.fraction:.0%} done, {progress.found:,} found, "
            f"{progress.requests:,} requests{left}."
        )
        self.activity_changed.emit()

    def activity_histogram(self, bins: int = 20) -> list[int]:
        """Return found items per block range of the last scan."""
        if self.scan_range is None:
            return []
        return histogram([i.block for i in self.activity.items], *self.scan_range, bins)

    # -- balance chart -------------------------------------------------------------------

    def load_balance_chart(
        self, samples: int = 24, start_text: str = "", end_text: str = ""
    ) -> None:
        """Sample eth_getBalance over a range (default: the last DEFAULT_RANGE blocks)."""
        self._spawn("chart", self._balance_chart(samples, start_text, end_text))

    async def _balance_chart(self, samples: int, start_text: str, end_text: str) -> None:
        """Read the samples and note the ones the node could not answer."""
        self.chart_status = "Reading balances…"
        self.chart_changed.emit()
        try:
            start, end = await self._range(start_text, end_text)
        except (ValueError, RpcError) as error:
            self.chart_status = f"Cannot sample: {getattr(error, 'message', error)}"
            self.chart_changed.emit()
            return
        self.balance_samples = await balance_history(
            self.session.client, self.address, start, end, samples
        )
        failed = [s for s in self.balance_samples if s.balance is None]
        self.chart_status = (
            f"{len(self.balance_samples) - len(failed)} sample(s) in blocks {start:,}–{end:,}."
        )
        if failed:
            self.chart_status += f" {len(failed)} unanswered: {failed[0].error}"
        self.chart_changed.emit()

    def balance_label(self, wei: int) -> str:
        """Return a balance in the network's currency, rounded to 6 decimals (chart axes)."""
        rounded = wei - wei % 10**12
        return format_rbtc(rounded, self.session.network.currency)
