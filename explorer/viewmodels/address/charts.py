"""The charts tab: the balance sampled over a range, and the last scan's activity per range."""

from __future__ import annotations

from PySide6.QtCore import QObject

from explorer.presentation.format import chart_amount
from explorer.presentation.series import Series
from explorer.rpc.errors import RpcError
from explorer.services.activity import DEFAULT_RANGE, BalanceSample, balance_history
from explorer.services.budget import balance_samples
from explorer.services.session import Session
from explorer.viewmodels.address.activity import ActivityViewModel
from explorer.viewmodels.address.blocks import resolve_range
from explorer.viewmodels.address.tool import Tool
from explorer.viewmodels.cost_gate import CostGate
from explorer.viewmodels.observable import TypedSignal, qproperty

SAMPLES = 24
SAMPLE_COMMAND = f"Sample balance (last {DEFAULT_RANGE:,} blocks)"
ARCHIVE_CAVEAT = (
    "Balances at past blocks need a node that keeps old state (an archive node); "
    "samples the node could not answer are left out and counted below."
)


EMPTY_BALANCE = Series(
    "Balance over time (sampled eth_getBalance)",
    f"Press “Sample balance” to read {SAMPLES} samples.",
)
UNANSWERED = "The node answered none of the samples."
EMPTY_ACTIVITY = Series("Activity per block range (last scan)", "Run a scan in the Activity tab.")


def balance_series(samples: list[BalanceSample]) -> Series:
    """Return the balance chart of samples (unanswered ones leave gaps)."""
    if not samples:
        return EMPTY_BALANCE
    values = tuple(None if s.balance is None else float(s.balance) for s in samples)
    first, last = samples[0].block, samples[-1].block
    return Series(EMPTY_BALANCE.title, UNANSWERED, values, f"block {first:,}", f"block {last:,}")


def activity_series(counts: list[int], first: int, last: int) -> Series:
    """Return the activity histogram of a scan over blocks first..last."""
    per_bar = max(1, round((last - first + 1) / max(1, len(counts))))
    title = f"Activity per block range (last scan, {per_bar:,} blocks a bar)"
    values = tuple(float(c) for c in counts)
    return Series(title, EMPTY_ACTIVITY.empty_text, values, f"block {first:,}", f"block {last:,}")


class ChartsViewModel(Tool):
    """Samples the balance over a range; draws the activity scan's histogram when it ends.

    Signals (besides Tool's: the result is the sampling's status line):
        balance_changed(Series): the balance series changed.
        activity_changed(Series): the activity series changed.
    """

    balance_changed = TypedSignal[Series]()
    activity_changed = TypedSignal[Series]()

    def __init__(
        self,
        session: Session,
        address: str,
        activity: ActivityViewModel,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(session, address, parent)
        self._activity = activity
        self._balance = EMPTY_BALANCE
        self._activity_series = EMPTY_ACTIVITY
        activity.scan_ended.connect(self._on_scan_ended)
        self.gate = CostGate(session, self)  # asks before sampling past the day's quota

    def _get_balance(self) -> Series:
        """Return the balance chart."""
        return self._balance

    balance = qproperty(_get_balance, balance_changed)

    def _get_activity(self) -> Series:
        """Return the activity histogram of the last scan."""
        return self._activity_series

    activity = qproperty(_get_activity, activity_changed)

    def format_balance(self, wei: float) -> str:
        """Return a balance as people read it (chart axes)."""
        return chart_amount(wei, self.session.network.currency)

    def sample_balance(
        self, samples: int = SAMPLES, start_text: str = "", end_text: str = ""
    ) -> None:
        """Sample eth_getBalance over a typed range (default: the last DEFAULT_RANGE blocks)."""
        self._start(self._sample(samples, start_text, end_text))

    async def _sample(self, samples: int, start_text: str, end_text: str) -> None:
        """Read the samples and count the ones the node could not answer."""
        self._publish("Reading balances…")
        try:
            start, end = await resolve_range(self.session.reader, start_text, end_text)
        except (ValueError, RpcError) as error:
            self._publish(f"Cannot sample: {getattr(error, 'message', error)}")
            return
        estimate = balance_samples(samples)
        self._publish(f"Reading balances — {estimate.text()}…")
        if not await self.gate.allow(estimate):
            self._publish(f"Not started: sampling would cost {estimate.text()}.")
            return
        read = await balance_history(self.session.client, self.address, start, end, samples)
        failed = [s for s in read if s.balance is None]
        status = f"{len(read) - len(failed)} sample(s) in blocks {start:,}–{end:,}."
        if failed:
            status += f" {len(failed)} unanswered: {failed[0].error}"
        self._balance = balance_series(read)
        self.balance_changed.emit(self._balance)
        self._publish(status)

    def _on_scan_ended(self) -> None:
        """Draw the histogram of the scan that just ended."""
        if self._activity.scan_range is None:
            return
        first, last = self._activity.scan_range
        self._activity_series = activity_series(self._activity.histogram(), first, last)
        self.activity_changed.emit(self._activity_series)
