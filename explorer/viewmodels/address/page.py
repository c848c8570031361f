"""The address page's view model: the summary document and one view model per tool."""

from __future__ import annotations

import enum
from collections.abc import AsyncIterator, Sequence

from PySide6.QtCore import QObject

from explorer.chain.hexutil import parse_address
from explorer.presentation.document import Document
from explorer.rpc.params import BlockSelector
from explorer.services.activity import ACTIVITY_CACHE, ActivityCache
from explorer.services.history_store import HistoryStore
from explorer.services.routes import Route
from explorer.services.session import Session
from explorer.services.tokens import MULTICALL3
from explorer.viewmodels.address.activity import ActivityViewModel
from explorer.viewmodels.address.charts import ChartsViewModel
from explorer.viewmodels.address.contract_info import ContractInfoViewModel
from explorer.viewmodels.address.history import HistoryViewModel
from explorer.viewmodels.address.overview import OverviewViewModel
from explorer.viewmodels.address.read_contract import ReadContractViewModel
from explorer.viewmodels.address.simulation import SimulationViewModel
from explorer.viewmodels.address.storage import StorageSlotViewModel
from explorer.viewmodels.address.tokens import TokenStore, TokensViewModel
from explorer.viewmodels.address.tool import Tool
from explorer.viewmodels.observable import TypedSignal, qproperty
from explorer.viewmodels.page import PageViewModel
from explorer.viewmodels.watchlist import WatchlistViewModel


class AddressTab(enum.Enum):
    """The address page's own tabs (between Overview and Raw JSON), titled by value."""

    HISTORY = "History"
    TOKENS = "Tokens"
    DISASSEMBLY = "Disassembly"
    CONTRACT = "Contract"
    ACTIVITY = "Activity"
    CHARTS = "Charts"


class AddressPageViewModel(PageViewModel):
    """The address page: the summary at a block, and tools that each own and cancel a task.

    The tools are attributes: `overview` (the block and facts), `history` (searched when its
    tab is first chosen: the page opens on the overview), `tokens`, `storage`, `read_contract`,
    `simulation` (the Contract tab), `activity` and `charts`.

    Signals (besides PageViewModel's):
        tabs_changed(tuple[AddressTab, ...]): the tabs to show changed.
    """

    tabs_changed = TypedSignal[tuple[AddressTab, ...]]()

    def __init__(
        self,
        session: Session,
        route: Route,
        store: TokenStore | None = None,
        extra_tokens: Sequence[str] = (),
        multicall: str = MULTICALL3,
        cache: ActivityCache = ACTIVITY_CACHE,
        history_store: HistoryStore | None = None,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(session, route, parent)
        self.address = address = parse_address(route.target)
        # The tools have no Qt parent: a tool whose task still runs stays alive with it,
        # rather than being deleted with a page dropped without dispose().
        self.overview = OverviewViewModel(session, address)
        self.tokens = TokensViewModel(session, address, store, extra_tokens, multicall)
        self.storage = StorageSlotViewModel(session, address)
        self.contract = ContractInfoViewModel(session, address)
        self.read_contract = ReadContractViewModel(session, address)
        self.simulation = SimulationViewModel(session, address)
        self.activity = ActivityViewModel(session, address, cache)
        self.charts = ChartsViewModel(session, address, self.activity)
        self.history = HistoryViewModel(session, address, history_store)
        self.watchlist: WatchlistViewModel | None = None  # the app's, for the star
        self.overview.block_changed.connect(self.on_block_changed)
        self.overview.facts_changed.connect(self._on_facts_changed)
        self.tokens.units_changed.connect(self.activity.table.add_units)
        self.contract.facts_changed.connect(self._on_contract_read)

    @property
    def tools(self) -> tuple[Tool, ...]:
        """Return every tool that runs tasks of its own."""
        return (
            self.history,
            self.tokens,
            self.storage,
            self.contract,
            self.read_contract,
            self.simulation,
            self.activity,
            self.charts,
        )

    def _get_tabs(self) -> tuple[AddressTab, ...]:
        """Return the tabs to show: the code and contract tools only for a contract."""
        if not self.overview.is_contract:
            return (AddressTab.HISTORY, AddressTab.TOKENS, AddressTab.ACTIVITY, AddressTab.CHARTS)
        return tuple(AddressTab)

    tabs = qproperty(_get_tabs, tabs_changed)

    def _on_contract_read(self) -> None:
        """Offer the contract's functions (recovered, or its matched source's) to the read tool."""
        self.read_contract.offer_contract(self.contract.functions)

    def _on_facts_changed(self) -> None:
        """Tell the view the tabs, which depend on whether the address has code."""
        self.tabs_changed.emit(self.tabs)

    async def _documents(self) -> AsyncIterator[tuple[Document | None, bool]]:
        """Load the summary at the chosen block, start the token balances, then the contract.

        A proxy's implementation and upgrades are read after: the summary then says since when.
        """
        document = await self.overview.load()
        self.tokens.load(self.overview.block)
        yield document, False
        facts = self.overview.facts
        if facts is None or not facts.code:
            return
        found = await self.contract.load(facts, self.overview.block)
        if found is not None and found.since is not None:
            yield self.overview.document(found.since), False

    def on_tab_chosen(self, tab: AddressTab | None) -> None:
        """Start what a tab shows when it is first chosen (the history's search)."""
        if tab is AddressTab.HISTORY:
            self.history.open_once()

    def on_block_changed(self, _block: BlockSelector) -> None:
        """Load the summary at the newly chosen block from scratch, as a retry does."""
        self.on_retry()

    def dispose(self) -> None:
        """Stop the load and every tool."""
        super().dispose()
        for tool in self.tools:
            tool.dispose()
