"""A page's view model: loading, loaded, not found, error and chain-mismatch states."""

from __future__ import annotations

import asyncio
import enum
import time
from collections.abc import AsyncIterator, Callable

from PySide6.QtCore import QObject, QTimer

from explorer.chain.records import Block, Receipt
from explorer.presentation.block_stages import COUNTS_AFTER_SECONDS, load_block_stages
from explorer.presentation.document import Document
from explorer.presentation.loaders import load_document, load_tx_stages
from explorer.presentation.missing import Missing
from explorer.presentation.tx_document import tx_document
from explorer.rpc.errors import ErrorKind, RpcError
from explorer.rpc.journal import Spending, counting
from explorer.saved.cache import CacheMode, Reorganised
from explorer.services.chaincheck import ChainCheck, Verification
from explorer.services.routes import Page, Route
from explorer.services.session import Session
from explorer.viewmodels.loop import live_loop
from explorer.viewmodels.observable import TypedSignal, qproperty
from explorer.viewmodels.pacing import ViewPacing
from explorer.viewmodels.page_notes import OFFLINE_NOTICE, document_height, reorganised_notice
from explorer.viewmodels.page_texts import (
    cancelled_text,
    checking_text,
    not_found_text,
    still_waiting_text,
)
from explorer.viewmodels.tx_table import BlockTransactionsModel

PENDING_REFRESH_MS = 3000
PROGRESS_MS = 500  # how often a waiting page says again how long it has waited


class PageState(enum.Enum):
    """What a page shows; each state looks different."""

    LOADING = "loading"
    LOADED = "loaded"
    NOT_FOUND = "not found"
    ERROR = "error"
    MISMATCH = "chain mismatch"
    CHECKING = "checking the chain"  # nothing is read until the node's chain id is confirmed
    CANCELLED = "stopped waiting"  # the user stopped waiting for the node


WAITING_STATES = (PageState.LOADING, PageState.CHECKING)
RECHECKED_ON_RETRY = (Verification.UNREACHABLE, Verification.MISMATCH, Verification.STOPPED)


class PageViewModel(QObject):
    """Loads one route's document; a new load cancels the one it supersedes (latest wins).

    The page follows its session's chain check all its life: it reads nothing before the
    check passes, and drops what it shows once the node turns out to serve another chain.

    Signals:
        state_changed(PageState): the page moved to another state.
        document_changed(): a (more complete) document arrived.
        progress_changed(): what the page waits for changed (waiting_text, slow).
        cost_changed(): what the page cost (requests, answers from saved data) changed.
        notice_changed(): the page's note (saved data, a reorganisation) changed.
    """

    state_changed = TypedSignal[PageState]()
    document_changed = TypedSignal[()]()
    progress_changed = TypedSignal[()]()
    cost_changed = TypedSignal[()]()
    notice_changed = TypedSignal[()]()

    def __init__(self, session: Session, route: Route, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.route = route
        self._state = PageState.LOADING
        self._document: Document | None = None
        self.error_kind: ErrorKind | None = None
        self.error_message = ""
        self.load_seconds: float | None = None
        self.transactions = BlockTransactionsModel(session.network, self)
        self.transactions.fetch_receipt = self._receipt_counted
        self._task: asyncio.Task[None] | None = None
        self.pacing = ViewPacing()  # a block's verdict waits for the view to show the block
        self._stop_listening: Callable[[], None] | None = None
        self.spending = Spending()  # every load of this page: requests and saved answers
        self.notice = ""  # a note above the page: offline, or a reorganisation
        self._loaded_offline = False
        self._reorganised = ""
        self.counts_after = COUNTS_AFTER_SECONDS  # a slower block shows its counts first
        self._shows_check = False  # the page shows the chain check's state, not its own
        self._interrupted = False  # a load stopped while the chain is checked again
        self.read_before_change = False  # what it showed came before the node changed chain
        self._waiting_since = time.monotonic()
        self._cancelled_after = 0.0
        self._refresh = QTimer(self)
        self._refresh.setSingleShot(True)
        self._refresh.timeout.connect(self.on_refresh)
        self._progress = QTimer(self)
        self._progress.setInterval(PROGRESS_MS)
        self._progress.timeout.connect(self.progress_changed)
        self._progress.start()  # a new page waits

    state: PageState = qproperty(lambda self: self._state, state_changed)
    document: Document | None = qproperty(lambda self: self._document, document_changed)

    @property
    def busy(self) -> bool:
        """Tell whether a load is still running (a shown page may still be completing)."""
        return self._task is not None and not self._task.done()

    @property
    def not_found_text(self) -> str:
        """Return the not-found message for this route."""
        return not_found_text(self.route, self.session.network.name, self.session.reader.head)

    async def _receipt_counted(self, tx_hash: str) -> Receipt | None:
        """Read a receipt for the transactions table, counted in the page's cost."""
        with counting(self.spending):
            receipt = await self.session.reader.receipt(tx_hash)
        if self._stop_listening is not None:  # not disposed
            self.cost_changed.emit()
        return receipt

    @property
    def cost_text(self) -> str:
        """Return what the page cost: `3 requests, 5 from cache`."""
        return self.spending.text()

    @property
    def waiting(self) -> bool:
        """Tell whether the page still waits for its first answer (or for the chain check)."""
        return self._state in WAITING_STATES

    @property
    def slow(self) -> bool:
        """Tell whether the page has waited long enough to say so (and offer Cancel)."""
        waited = time.monotonic() - self._waiting_since
        return self.waiting and waited >= self.session.budget.slow_after

    @property
    def waiting_text(self) -> str:
        """Return what the page waits for while it shows no document."""
        session = self.session
        if self._state is PageState.CHECKING:
            text = checking_text(session.network, session.check.attempt)
        else:
            text = "Loading…"
        if not self.slow:
            return text
        waited = time.monotonic() - self._waiting_since
        still = still_waiting_text(waited, session.longest_wait(), session.check.retry_in())
        return f"{text}\n{still}"

    @property
    def cancelled_text(self) -> str:
        """Return what the page says after the user stopped waiting."""
        return cancelled_text(self._cancelled_after)

    def load(self) -> None:
        """Start (or restart) loading; a running load is cancelled, so it never publishes.

        Nothing is read from a node whose chain is not confirmed: the page waits for the
        session's chain check (and loads when it passes) or shows why it cannot.
        """
        self.dispose_task()
        self._follow_check()
        check = self.session.check
        if not self.session.readable:
            self.session.verify()
            self._show_check(check)
            return
        self._shows_check = False
        self._loaded_offline = self.session.offline
        self._set_notice(OFFLINE_NOTICE if self._loaded_offline else self._reorganised)
        if self._document is None:
            self._set(PageState.LOADING)
        if (loop := live_loop()) is None:
            return
        self._task = loop.create_task(self._run())

    def on_retry(self) -> None:
        """Load again after an error (checking the node's chain again first when it failed)."""
        if self.session.check.verification in RECHECKED_ON_RETRY:
            self.session.checker.recheck()
        self.session.refresh_head()
        self.reload()

    def on_cancel(self) -> None:
        """Stop waiting for the node: the load is cancelled and the page offers Retry."""
        if not self.waiting:
            return
        self._cancelled_after = time.monotonic() - self._waiting_since
        self.dispose_task()
        self._shows_check = False
        self._set(PageState.CANCELLED)

    def _follow_check(self) -> None:
        """Listen to the session's chain check and saved data (once; dispose() stops it)."""
        if self._stop_listening is None:
            stop_check = self.session.checker.listen(self._on_check)
            stop_saved = self.session.listen_saved(self._on_saved_mode, self._on_reorganised)

            def stop() -> None:
                stop_check()
                stop_saved()

            self._stop_listening = stop

    def _on_saved_mode(self, mode: CacheMode) -> None:
        """Offline, a waiting page opens from the saved data; back online, it is read again."""
        if mode is CacheMode.OFFLINE and self._shows_check:
            self.load()
        elif mode is CacheMode.ONLINE and self._loaded_offline:
            self.load()  # in place: the live parts (head, confirmations) refresh

    def _on_reorganised(self, event: Reorganised) -> None:
        """Read the page again when it rests on a height the chain replaced, and say so."""
        height = document_height(self._document)
        if height is None or height < event.number:
            return
        self._reorganised = reorganised_notice(event)
        self.load()

    def _set_notice(self, text: str) -> None:
        """Change the page's note."""
        if text != self.notice:
            self.notice = text
            self.notice_changed.emit()

    def _on_check(self, check: ChainCheck) -> None:
        """Load once the check passes; drop everything once the node serves another chain.

        A check that runs again (after a transport failure) leaves a loaded page, a running
        load and the page's own error as they are: they came from a verified node. One run
        because something odd was read (a head gone back, a deep reorganisation) stops a
        running load, so nothing of another chain mixes in; it loads again once verified.
        A page that showed something when the node turns out to serve another chain says
        that it was read before the change.
        """
        if check.verified:
            if self._shows_check or self._interrupted:
                self._interrupted = False
                self.load()
        elif check.verification is Verification.MISMATCH:
            self.read_before_change = self._document is not None
            self.dispose_task()
            self._document = None
            self._show_check(check)
        elif self._shows_check:
            self._show_check(check)
        elif check.reason and self.busy:
            self.dispose_task()
            self._interrupted = True

    def _show_check(self, check: ChainCheck) -> None:
        """Show why the page is not loading: another chain, an unreachable node, or waiting."""
        self._shows_check = True
        if check.verification is Verification.MISMATCH:
            self._set(PageState.MISMATCH)
        elif check.verification is Verification.UNREACHABLE and check.error_kind is not None:
            self.error_kind, self.error_message = check.error_kind, check.error_message
            self._set(PageState.ERROR)
        elif check.verification is Verification.STOPPED:
            self._cancelled_after = time.monotonic() - self._waiting_since
            self._set(PageState.CANCELLED)
        else:
            self._set(PageState.CHECKING)

    def _forget_check(self) -> None:
        """Stop following the chain check."""
        if self._stop_listening is not None:
            self._stop_listening()
            self._stop_listening = None

    def reload(self) -> None:
        """Forget the shown document and load from scratch (the page shows it is loading)."""
        self._document = None
        self.load()

    def on_refresh(self) -> None:
        """Reload in place (pending transactions and blocks refresh until mined)."""
        self.load()

    async def _run(self) -> None:
        """Publish each document the loader yields, until a newer load cancels this one.

        The whole load, retries included, gets the session's page deadline.
        """
        started = time.perf_counter()
        release = self.session.client.hold()  # background reads wait for the page
        try:
            with counting(self.spending):
                await self._publish_documents(started)
        except RpcError as error:
            self.error_kind, self.error_message = error.kind, error.message
            self._set(PageState.ERROR)
        finally:
            release()
        self.cost_changed.emit()  # not when cancelled: a disposed page may be gone

    async def _publish_documents(self, started: float) -> None:
        """Publish the loader's documents within the page deadline."""
        async with self.session.deadline(self.session.budget.page_deadline):
            async for document, pending in self._documents():
                await asyncio.sleep(0)  # parse and render in separate event-loop turns
                self.load_seconds = time.perf_counter() - started
                self._document = document
                self._set(PageState.NOT_FOUND if document is None else PageState.LOADED)
                if document is not None:
                    self.pacing.expect()
                    self.document_changed.emit()
                self.cost_changed.emit()
                if pending:
                    self._refresh.start(PENDING_REFRESH_MS)

    def _documents(self) -> AsyncIterator[tuple[Document | None, bool]]:
        """Return the route's documents as they arrive: (document or None, refresh later)."""
        loaders = {
            Page.BLOCK: self._fetch_block,
            Page.TX: self._fetch_tx,
            Page.ADDRESS: self._fetch_any,
        }
        return loaders.get(self.route.page, self._fetch_nothing)()

    async def _fetch_nothing(self) -> AsyncIterator[tuple[Document | None, bool]]:
        """Yield no document for a route without a page: not found."""
        yield None, False

    async def _fetch_any(self) -> AsyncIterator[tuple[Document | None, bool]]:
        """Load a page through the shared loader (no refresh)."""
        session = self.session
        yield await load_document(session.reader, session.network, self.route), False

    async def _fetch_block(self) -> AsyncIterator[tuple[Document | None, bool]]:
        """Load a block (its counts first when it is slow) and fill the transactions table."""
        session = self.session
        stages = load_block_stages(
            session.reader, session.network, self.route.target, self.counts_after
        )
        async for stage in stages:
            if stage is None:
                yield None, False
                return
            document, block = stage
            if block is not None and block is not self.transactions.block:  # not again: verdict
                self._show_transactions(block)
            yield document, block is not None and block.is_pending
            await self.pacing.until_shown()  # the verdict's hashing waits for the sections

    def _show_transactions(self, block: Block) -> None:
        """Hand the block's transactions to the lazy table model."""
        self.transactions.set_block(block)

    async def _fetch_tx(self) -> AsyncIterator[tuple[Document | None, bool]]:
        """Load a transaction, shown before its block time arrives; pending ones refresh."""
        network = self.session.network
        stages = load_tx_stages(self.session.reader, network, self.route.target)
        async for facts in stages:
            if isinstance(facts, Missing):
                yield None, False
                return
            document = tx_document(
                facts, chain_id=network.chain_id, currency=network.currency, now=time.time()
            )
            yield document, facts.complete and facts.tx.is_pending

    def _set(self, state: PageState) -> None:
        """Change state and tell the view; a waiting page says how long it waits."""
        if state is self._state:
            return
        if state in WAITING_STATES and self._state not in WAITING_STATES:
            self._waiting_since = time.monotonic()
        self._state = state
        if state in WAITING_STATES:
            self._progress.start()
        else:
            self._progress.stop()
        self.state_changed.emit(state)

    def dispose_task(self) -> None:
        """Cancel the running load, if any."""
        if self._task is not None and not self._task.done():
            self._task.cancel()
        self._task = None

    def dispose(self) -> None:
        """Stop all work: the load, the timers, following the chain check."""
        self._refresh.stop()
        self._progress.stop()
        self._forget_check()
        self.dispose_task()
        self.transactions.cancel_reads()
