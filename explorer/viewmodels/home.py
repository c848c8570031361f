"""The home page: the network at a glance, following new heads live, frugally."""

from __future__ import annotations

import asyncio
import time

from PySide6.QtCore import QObject, QTimer

from explorer.presentation.home_cards import Card, chart_series
from explorer.presentation.series import Series
from explorer.rpc.errors import ErrorKind, RpcError
from explorer.services.chaincheck import ChainCheck
from explorer.services.live import LiveChain, block_pace, poll_delay
from explorer.services.session import Session
from explorer.viewmodels.headpoll import HeadPoller
from explorer.viewmodels.home_header import HeaderCards
from explorer.viewmodels.home_status import HomeState as HomeState  # re-exported
from explorer.viewmodels.home_status import checked_again_text, status_text
from explorer.viewmodels.home_tables import (
    BlockRow,
    LatestBlocksModel,
    LatestTransactionsModel,
    latest_transactions,
)
from explorer.viewmodels.observable import TypedSignal, qproperty
from explorer.viewmodels.request_count import RequestCount
from explorer.viewmodels.slices import Slices

HEADERS = LatestBlocksModel.headers
LATEST = 20  # blocks listed
LATEST_TXS = 50  # transactions listed
FULL_BLOCKS = LATEST  # blocks read with full transactions at start (when the list shows)
TICK_MS = 1_000  # ages and the requests card, while shown


class HomeViewModel(QObject):
    """Follows the head through the window's one poll while shown, live and verified.

    One eth_blockNumber per poll, one block read per new block (full transactions only
    while the transactions list shows), no shown block read again unless the chain no
    longer links to it (a reorganisation, marked in the list).

    Signals:
        state_changed(HomeState): live, paused, stale, loading…
        summary_changed(): the summary or the status line changed.
        cards_changed(): the header cards changed.
        charts_changed(): the charts' series changed.
    """

    state_changed = TypedSignal[HomeState]()
    summary_changed = TypedSignal[()]()
    cards_changed = TypedSignal[()]()
    charts_changed = TypedSignal[()]()

    def __init__(
        self, session: Session, poller: HeadPoller | None = None, parent: QObject | None = None
    ) -> None:
        super().__init__(parent)
        self.session = session
        self.poller = poller or HeadPoller(self)  # without the window's: follows nothing
        network = session.network
        self.chain = LiveChain(session.reader, session.client)
        self.blocks = LatestBlocksModel(network.chain_id, self)
        self.transactions = LatestTransactionsModel(network.chain_id, network.currency, self)
        self._state = HomeState.CHECKING
        self._series: tuple[Series, ...] = chart_series([])
        self._live = True
        self._visible = False
        self._txs_visible = True
        self._last_good: float | None = None
        self._failure = ""
        self._target: int | None = None  # newest head heard, not yet followed
        self._newest_seen: tuple[int | None, float] = (None, 0.0)  # newest shown, and when
        self._mending = False  # this page's own reading made the chain suspect
        self._suspended: bool | None = None  # checked again: True resumes mending, False reloads
        self._task: asyncio.Task[None] | None = None
        self._backfill_task: asyncio.Task[None] | None = None
        self._tick = QTimer(self)
        self._tick.setInterval(TICK_MS)
        self._tick.timeout.connect(self._on_tick)
        self._slices = Slices(self)  # a new block is shown a piece per turn (short turns)
        self.poller.head_changed.connect(self.on_head)
        self.poller.head_read.connect(self._on_head_read)
        self.poller.head_failed.connect(self._show_failure)
        self.header = HeaderCards(session, self.chain, self.cards_changed.emit, self._show_failure)
        self._stop_listening = session.checker.listen(self._on_check)
        self._requests = RequestCount(self)  # while shown, the Requests card changes with
        self._requests.changed.connect(self.header.refresh)  # the status bar

    state: HomeState = qproperty(lambda self: self._state, state_changed)
    cards: tuple[Card, ...] = qproperty(lambda self: self.header.cards, cards_changed)
    series: tuple[Series, ...] = qproperty(lambda self: self._series, charts_changed)
    live: bool = qproperty(lambda self: self._live, state_changed)

    @property
    def summary(self) -> str:
        """Return one line about the network and the node."""
        session, check = self.session, self.session.check
        parts = [session.network.name, f"chain id {session.network.chain_id}"]
        if check.verified and check.client_version:
            parts.append(check.client_version)
        return " · ".join(parts)

    @property
    def status(self) -> str:
        """Return the status line: live and how often, paused, stale since when, or why not."""
        check = self.session.check
        if self._state is HomeState.CHECKING and self._suspended is not None:
            return checked_again_text(check.reason)
        failure, good = self._failure, self._last_good
        return status_text(self._state, check.verification, failure, good, self.poll_seconds)

    @property
    def _following(self) -> bool:
        """Tell whether this page follows the head now."""
        wanted = self._visible and self._live and self.session.check.verified
        return wanted and self._state not in (HomeState.CHECKING, HomeState.LOADING)

    @property
    def poll_seconds(self) -> float | None:
        """Return the chain's pace this page polls at (None: it asks for none)."""
        if not self._following:
            return None
        return block_pace(self.chain.newest_first()[::-1], time.time())

    @property
    def next_poll_seconds(self) -> float | None:
        """Return the seconds until the next poll: just after the next block is due."""
        if not self._following:
            return None
        newest = self.chain.newest
        if newest != self._newest_seen[0]:
            self._newest_seen = (newest, time.time())
        return poll_delay(self.chain.newest_first()[::-1], time.time(), self._newest_seen[1])

    # --- what the view tells ----------------------------------------------------------

    def set_visible(self, visible: bool) -> None:
        """Follow the head only while the page is on screen (tab shown, window not minimised)."""
        if visible != self._visible:
            self._visible = visible
            self._requests.follow(self.session if visible else None)
            if visible:
                self._tick.start()
            else:
                self._tick.stop()
            self._wish()
            if visible and self.chain.newest is not None:
                self._on_tick()

    def set_transactions_visible(self, visible: bool) -> None:
        """Read new blocks with full transactions only while their list shows."""
        self._txs_visible = visible

    def set_live(self, live: bool) -> None:
        """Follow new heads (True) or pause (False)."""
        if live == self._live:
            return
        self._live = live
        if self._state in (HomeState.LIVE, HomeState.PAUSED, HomeState.STALE):
            self._state = HomeState.LIVE if live else HomeState.PAUSED
        self.state_changed.emit(self._state)
        self._wish()
        self.summary_changed.emit()

    def _wish(self) -> None:
        """Tell the poller when this page wants the head next (when the next block is due)."""
        self.poller.want_at(self, self.next_poll_seconds)
        self.summary_changed.emit()

    # --- the chain check and the first load -----------------------------------------------

    def load(self) -> None:
        """Load the latest blocks now, or once the node's chain is confirmed."""
        check = self.session.check
        if not check.verified:
            self.session.verify()
            self._on_check(check)
        elif self._task is None or self._task.done():
            self._task = asyncio.ensure_future(self._load())

    def _on_check(self, check: ChainCheck) -> None:
        """Show nothing of a node whose chain is not confirmed; load when it is.

        Checked again for something odd (a deep reorganisation, a head gone back), the blocks
        read before stay listed, greyed, nothing newer: verified, the reorganisation is mended
        and shown (after anything else the page loads again).
        """
        self.header.reset(check)
        if check.verified:
            if self._suspended is not None:
                mending, self._suspended = self._suspended, None
                self._task = asyncio.ensure_future(self._resume() if mending else self._load())
                return
            self.load()
            return
        if check.reason and check.pending and self.chain.newest is not None:
            self._suspended = self._mending if self._suspended is None else self._suspended
            self._cancel()
            self._set_state(HomeState.CHECKING)
            return
        self._suspended = None
        self._cancel()  # nothing of a node not (or no longer) confirmed stays on screen
        self.chain.blocks.clear()
        self.chain.replaced.clear()
        self.blocks.set_rows([])
        self.transactions.set_rows([])
        self._series = chart_series([])
        self.header.clear()
        self.charts_changed.emit()
        self._set_state(HomeState.CHECKING)

    async def _load(self) -> None:
        """Read the newest blocks and the gas price, then follow."""
        self._set_state(HomeState.LOADING)
        reader = self.session.reader
        try:
            head = await reader.head_number()
            await self.chain.load(head, FULL_BLOCKS if self._txs_visible else 0, LATEST)
        except RpcError as error:
            self._failure = f"{error.kind.said} ({error.message})"
            self._set_state(HomeState.ERROR)
            return
        self._last_good = time.time()
        self._publish()
        self._set_state(HomeState.LIVE if self._live else HomeState.PAUSED)
        self.header.read_gas_price()
        self._backfill_task = asyncio.ensure_future(self._backfill())
        self._continue()

    async def _resume(self) -> None:
        """Mend and show the reorganisation the chain check has just confirmed, then follow."""
        self._set_state(HomeState.LIVE if self._live else HomeState.PAUSED)
        try:
            await self.chain.finish_mending(self._txs_visible)
        except RpcError as error:
            self._show_failure(error)
            return
        self._last_good = time.time()
        self._publish()
        self._continue()

    async def _backfill(self) -> None:
        """Read the charts' older blocks a few at a time, the charts growing as they come."""
        try:
            async for _ in self.chain.backfill():
                self._publish_charts()
        except RpcError:
            return  # the charts show the blocks read; the list and the cards are whole

    # --- following -----------------------------------------------------------------------

    def on_head(self, number: int) -> None:
        """Follow a newer head (one task at a time; the newest heard wins)."""
        self._target = number if self._target is None else max(self._target, number)
        self._continue()

    def _continue(self) -> None:
        """Start following the newest head heard, unless busy or not loaded."""
        busy = self._task is not None and not self._task.done()
        loaded = self.chain.newest is not None
        if busy or not loaded or self._target is None or not self.session.check.verified:
            return
        target, self._target = self._target, None
        if target > (self.chain.newest or 0):
            self._task = asyncio.ensure_future(self._advance(target))

    async def _advance(self, head: int) -> None:
        """Read the new blocks up to head; a failure shows as stale."""
        try:
            advance = await self.chain.advance(head, full=self._txs_visible)
        except RpcError as error:
            self._show_failure(error)
            return
        if advance.suspicious:  # nothing newer is shown before the chain is checked again
            self._mending = True
            self.session.checker.suspect(advance.suspicious)
            self._mending = False
            return
        self._last_good = time.time()
        if self._state is HomeState.STALE:
            self._set_state(HomeState.LIVE if self._live else HomeState.PAUSED)
        self._publish()
        self.header.count_new_blocks(len(advance.added))
        self._wish()
        self._continue()

    def _on_head_read(self, number: int, at: float) -> None:
        """Note a poll that answered: what is shown is current (newer blocks are on their way).

        A poll that found no new block asks for the next one later (the block is late).
        """
        newest = self.chain.newest
        if newest is None or number > newest:
            return
        self._wish()
        self._last_good = at
        if self._state is HomeState.STALE:
            self._set_state(HomeState.LIVE if self._live else HomeState.PAUSED)
        self.summary_changed.emit()

    def _show_failure(self, error: RpcError) -> None:
        """Mark the page stale, saying why (a poll or a read failed)."""
        if self.chain.newest is None:
            return
        malformed = error.kind is ErrorKind.MALFORMED
        said = "gave an answer that cannot be used" if malformed else "did not answer"
        self._failure = f"the node {said}: {error.kind.said} ({error.message})."
        self._set_state(HomeState.STALE)
        self.summary_changed.emit()

    # --- publishing ----------------------------------------------------------------------

    def _publish(self) -> None:
        """Show the blocks now; transactions, then cards and charts, in turns of their own."""
        chain = self.chain
        newest = chain.newest_first()
        rows = [BlockRow(b, chain.replaced.get(b.number or -1)) for b in newest[:LATEST]]
        txs = latest_transactions(newest, LATEST_TXS)
        self._slices.run(
            lambda: self.blocks.set_rows(rows),
            lambda: self.transactions.set_rows(txs),
            self._publish_charts,
        )

    def _publish_charts(self) -> None:
        """Show the charts and cards of every block read (the older ones arrive later)."""
        self._series = chart_series(self.chain.newest_first()[::-1])
        self.charts_changed.emit()
        self.header.refresh()

    def _on_tick(self) -> None:
        """Advance the ages and the requests count (no request is made)."""
        self.blocks.refresh_column(LatestBlocksModel.AGE)
        self.transactions.refresh_column(LatestTransactionsModel.AGE)
        self.header.refresh()

    @property
    def busy(self) -> bool:
        """Tell whether the page is reading (its first blocks, new ones, the charts' older ones)."""
        tasks = (self._task, self._backfill_task)
        return self.header.busy or any(task is not None and not task.done() for task in tasks)

    @property
    def missing_transactions(self) -> int:
        """Return how many listed blocks were read without their transactions."""
        return sum(1 for block in self.blocks.blocks if block.transactions is None)

    def _set_state(self, state: HomeState) -> None:
        """Change state and tell the view and the poller."""
        if state is not self._state:
            self._state = state
            self.state_changed.emit(state)
        self._wish()

    def _cancel(self) -> None:
        """Cancel the running load and gas-price read."""
        self.header.cancel()
        for task in (self._task, self._backfill_task):
            if task is not None:
                task.cancel()

    def dispose(self) -> None:
        """Stop following: the poll wish, the chain check, the tasks, the ticking."""
        self._tick.stop()
        self._slices.stop()
        self.poller.want(self, None)
        for signal, slot in (
            (self.poller.head_changed, self.on_head),
            (self.poller.head_read, self._on_head_read),
            (self.poller.head_failed, self._show_failure),
        ):
            signal.disconnect(slot)
        self._stop_listening()
        self._requests.follow(None)
        self._cancel()
