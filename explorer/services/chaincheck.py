"""Is this the chain the user chose? One verdict per session, retried until the node answers."""

from __future__ import annotations

import asyncio
import enum
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from explorer.rpc.errors import ErrorKind, RpcError
from explorer.rpc.node_answers import ProbeResult

RETRY_DELAYS = (1.0, 2.0, 4.0, 8.0, 15.0, 30.0, 60.0)  # then every 60 s


class Verification(enum.Enum):
    """Whether a session's node is known to serve the chosen chain."""

    NOT_STARTED = "not started"
    CHECKING = "checking"
    VERIFIED = "verified"
    MISMATCH = "mismatch"
    UNREACHABLE = "unreachable"
    STOPPED = "stopped"  # the user stopped checking; Retry starts again


@dataclass(frozen=True)
class ChainCheck:
    """The verdict on a session's node and what it rests on."""

    verification: Verification = Verification.NOT_STARTED
    expected_chain_id: int | None = None
    chain_id: int | None = None  # what the node reported, once it answered
    net_version: str = ""
    client_version: str | None = None
    error_kind: ErrorKind | None = None  # why the check could not be made
    error_message: str = ""
    attempt: int = 0  # tries so far of the current check
    retry_at: float | None = None  # monotonic time of the next try, while unreachable
    started: float | None = None  # monotonic time the try under way began, while checking
    genesis_hash: str | None = None  # block 0's hash as the node gave it, once it answered
    expected_genesis: str | None = None  # the genesis the node must have, when known or pinned
    genesis_known: bool = False  # expected_genesis is a public chain's, not a remembered one
    reason: str = ""  # why the chain is checked again (a head that went back, a deep reorg…)

    @property
    def genesis_differs(self) -> bool:
        """Tell whether the node's genesis block is not the one its chain id promises."""
        wanted = self.expected_genesis
        return wanted is not None and self.genesis_hash != wanted

    @property
    def verified(self) -> bool:
        """Tell whether the node serves the chosen chain (chain data may be shown)."""
        return self.verification is Verification.VERIFIED

    @property
    def settled(self) -> bool:
        """Tell whether the node answered the check, either way."""
        return self.verification in (Verification.VERIFIED, Verification.MISMATCH)

    @property
    def pending(self) -> bool:
        """Tell whether the check is under way or will try again by itself."""
        return self.verification in (Verification.CHECKING, Verification.UNREACHABLE)

    def waited(self, now: float | None = None) -> float:
        """Return the seconds the try under way has waited (0 when none is)."""
        if self.started is None:
            return 0.0
        return max(0.0, (time.monotonic() if now is None else now) - self.started)

    def retry_in(self, now: float | None = None) -> float | None:
        """Return the seconds until the next try, while unreachable."""
        if self.retry_at is None:
            return None
        return max(0.0, self.retry_at - (time.monotonic() if now is None else now))


CheckListener = Callable[[ChainCheck], None]
Probe = Callable[[], Awaitable[ProbeResult]]


class ChainChecker:
    """Runs a session's chain check: until the node answers, again after a transport failure.

    A chain is its chain id and its genesis block: the node must report the expected chain id
    (and net_version) and the expected genesis hash — a public chain's, the one remembered
    for this endpoint, or else the one it gave at this session's first verification, which
    `on_pin` hears. `suspect(reason)` checks again at once, before anything odd is shown.

    Listeners hear every change of the verdict; `stop()` ends the check and silences them,
    so a replaced session's late answer never reaches anyone.
    """

    def __init__(
        self,
        probe: Probe,
        expected_chain_id: int,
        delays: tuple[float, ...] = RETRY_DELAYS,
        genesis: str | None = None,
        genesis_known: bool = False,
        on_pin: Callable[[str], None] | None = None,
    ) -> None:
        self._probe = probe
        self._delays = delays
        self._genesis = genesis
        self._genesis_known = genesis_known
        self._on_pin = on_pin
        self._reason = ""
        self._check = ChainCheck(expected_chain_id=expected_chain_id)
        self._listeners: list[CheckListener] = []
        self._task: asyncio.Task[None] | None = None
        self._stopped = False

    @property
    def check(self) -> ChainCheck:
        """Return the current verdict."""
        return self._check

    def listen(self, listener: CheckListener) -> Callable[[], None]:
        """Call listener on every change of the verdict; return a function that stops it."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener) if listener in self._listeners else None

    def start(self) -> None:
        """Start checking unless a check runs, has settled or the user stopped it (idempotent)."""
        stopped_by_user = self._check.verification is Verification.STOPPED
        if self._stopped or self._running or self._check.settled or stopped_by_user:
            return
        self._task = asyncio.ensure_future(self._run())

    def recheck(self) -> None:
        """Check again now (after a transport failure, or when the user asks)."""
        if self._stopped:
            return
        if self._task is not None:
            self._task.cancel()
        self._task = asyncio.ensure_future(self._run())

    def suspect(self, reason: str) -> None:
        """Check the chain again before what made it suspect is shown (idempotent while on).

        The verdict turns to CHECKING at once, so that nothing waits on the old one.
        """
        if self._stopped or (self._running and self._reason):
            return
        self._reason = reason
        expected = self._check.expected_chain_id
        self._publish(ChainCheck(Verification.CHECKING, expected, attempt=1, reason=reason))
        self.recheck()

    def cancel(self) -> None:
        """Stop checking at the user's word (the banner's Cancel): no try, no retry, until Retry."""
        if self._stopped or not self._check.pending:
            return
        if self._task is not None:
            self._task.cancel()
            self._task = None
        check = self._check
        self._publish(
            ChainCheck(Verification.STOPPED, check.expected_chain_id, attempt=check.attempt)
        )

    def on_failure(self, error: RpcError) -> None:
        """Note a failed request: the node behind the URL may have changed, so check it again."""
        if error.kind is ErrorKind.TRANSPORT and self._check.verified and not self._running:
            self.recheck()

    def stop(self) -> None:
        """End the check for good and forget every listener."""
        self._stopped = True
        self._listeners.clear()
        if self._task is not None:
            self._task.cancel()
            self._task = None

    @property
    def _running(self) -> bool:
        """Tell whether a check is under way."""
        return self._task is not None and not self._task.done()

    async def _run(self) -> None:
        """Probe until the node answers, waiting longer after each failure."""
        expected = self._check.expected_chain_id
        reason = self._reason
        for attempt in range(1, 1_000_000):
            started = time.monotonic()
            self._publish(
                ChainCheck(
                    Verification.CHECKING, expected, attempt=attempt, started=started, reason=reason
                )
            )
            try:
                probe = await self._probe()
            except RpcError as error:
                delay = self._delays[min(attempt - 1, len(self._delays) - 1)]
                self._publish(
                    ChainCheck(
                        Verification.UNREACHABLE,
                        expected,
                        error_kind=error.kind,
                        error_message=error.message,
                        attempt=attempt,
                        retry_at=time.monotonic() + delay,
                        reason=reason,
                    )
                )
                await asyncio.sleep(delay)
                continue
            self._reason = ""
            self._publish(self._verdict(probe, attempt))
            return

    def _verdict(self, probe: ProbeResult, attempt: int) -> ChainCheck:
        """Judge an answer: the ids, then the genesis block (pinned at a first verification)."""
        wanted = self._genesis
        same_chain = probe.ids_match and (wanted is None or probe.genesis_hash == wanted)
        if same_chain and wanted is None and probe.genesis_hash is not None:
            self._genesis = probe.genesis_hash  # this session's chain from now on
            if self._on_pin is not None:
                self._on_pin(probe.genesis_hash)
        return ChainCheck(
            Verification.VERIFIED if same_chain else Verification.MISMATCH,
            self._check.expected_chain_id,
            chain_id=probe.chain_id,
            net_version=probe.net_version,
            client_version=probe.client_version,
            attempt=attempt,
            genesis_hash=probe.genesis_hash,
            expected_genesis=wanted if wanted is not None else self._genesis,
            genesis_known=self._genesis_known,
        )

    def _publish(self, check: ChainCheck) -> None:
        """Record a verdict and tell the listeners."""
        if check == self._check or self._stopped:
            return
        self._check = check
        for listener in list(self._listeners):
            listener(check)
