"""What the window says about its connection: the status line's parts and the banner."""

from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass

from explorer.presentation.document import Tone
from explorer.rpc.errors import ErrorKind
from explorer.rpc.retry import Attempt
from explorer.services.chaincheck import ChainCheck, Verification
from explorer.services.networks import chain_name
from explorer.services.session import Session
from explorer.viewmodels.budget import saved_time


@dataclass(frozen=True)
class Connection:
    """The session's chain check and whether its head could be read lately."""

    check: ChainCheck = dataclasses.field(default_factory=ChainCheck)
    head_error: ErrorKind | None = None  # the last head poll failed (cleared by the next head)
    head_message: str = ""  # what was wrong with it

    @property
    def verification(self) -> Verification:
        """Return the chain check's verdict."""
        return self.check.verification


@dataclass(frozen=True)
class Banner:
    """The warning strip above the tabs ('' text hides it); retry checks again, cancel stops.

    dismiss: the user may close it (the app's own notices; never the chain check's verdict).
    """

    text: str = ""
    tone: Tone = Tone.WAITING
    retry: bool = False
    cancel: bool = False
    dismiss: bool = False


def head_text(
    head: int | None, read_at: float | None, interval: float | None, now: float | None = None
) -> str:
    """Return the status bar's head: `head #N`, with the time it was read once that is old.

    It is old when no read came for two poll intervals (the poll stopped, or fails).
    """
    if head is None:  # in words: a dash ran on into the status bar's next text
        return "head not read yet"
    now = time.time() if now is None else now
    if read_at is None or (interval is not None and now - read_at <= 2 * interval + 1):
        return f"head #{head:,}"
    return f"head #{head:,} (read {time.strftime('%H:%M:%S', time.localtime(read_at))})"


def wait_text(attempt: Attempt | None, slow_after: float, now: float | None = None) -> str:
    """Return what the app waits for, once a request has waited slow_after seconds ('' before)."""
    if attempt is None:
        return ""
    waited = attempt.waited(time.monotonic() if now is None else now)
    if waited < slow_after and attempt.number == 1:
        return ""
    return (
        f"waiting {waited:.0f} s for the node ({attempt.method}, "
        f"attempt {attempt.number} of {attempt.of})"
    )


STOPPED_NOTE_SECONDS = 10.0  # the status bar says a wait was stopped for this long


def stopped_text(
    stopped: tuple[Attempt, float] | None, slow_after: float, now: float | None = None
) -> str:
    """Return that the app stopped waiting for a slow call, for a while after it did ('')."""
    if stopped is None:
        return ""
    attempt, at = stopped
    waited = at - attempt.started
    recent = (time.monotonic() if now is None else now) - at < STOPPED_NOTE_SECONDS
    if not recent or waited < slow_after:  # a quick call ended by the app, not a wait stopped
        return ""
    return f"stopped waiting for the node ({attempt.method}, after {waited:.0f} s)"


def check_text(connection: Connection) -> str:
    """Return the status bar's words for the chain check."""
    check = connection.check
    state = check.verification
    if state is Verification.CHECKING:
        text = "checking chain id…" + (f" (try {check.attempt})" if check.attempt > 1 else "")
    elif state is Verification.VERIFIED:
        text = f"chain id {check.chain_id} ✓"
    elif state is Verification.MISMATCH and check.chain_id == check.expected_chain_id:
        text = f"chain id {check.chain_id}, genesis ✗"
    elif state is Verification.MISMATCH:
        text = f"chain id {check.chain_id} ✗ (expected {check.expected_chain_id})"
    elif state is Verification.UNREACHABLE:
        said = check.error_kind.said if check.error_kind else "no answer"
        wait = check.retry_in()
        again = f"; trying again in {wait:.0f} s" if wait is not None and wait >= 1 else ""
        text = f"chain not verified: {said}{again}"
    elif state is Verification.STOPPED:
        text = "chain id not verified (you stopped checking)"
    else:
        text = "not connected"
    if connection.head_error is not None:
        text += f" (head: {connection.head_error.said})"
    return text


def connection_banner(
    connection: Connection, session: Session | None, read_before: bool = False
) -> Banner | None:
    """Return the banner a verdict calls for, or None when it calls for none.

    read_before: the node was confirmed earlier, so pages may show what was read then.
    """
    check = connection.check
    if session is None:
        return None
    network = session.network
    if check.verification is Verification.MISMATCH:
        return Banner(
            f"Chain mismatch: {mismatch_text(check, network.chain_id)} {network.name} is "
            f"chain {network.chain_id}, so nothing from this node is shown; check the endpoint "
            "in Settings.",
            Tone.BAD,
            retry=True,
        )
    if check.verification is Verification.UNREACHABLE and session.offline:
        return offline_banner(session)
    if check.verification is Verification.UNREACHABLE:
        what = UNVERIFIED_CAUSES.get(check.error_kind, "The node could not be asked")
        detail = check.error_message.rstrip(". ")
        return Banner(
            f"{what} ({detail}). {nothing_new(read_before)} as {network.name} until the node "
            f"confirms it serves chain {network.chain_id}; trying again by itself (try "
            f"{check.attempt} so far), or press Retry; Cancel stops trying.",
            Tone.BAD,
            retry=True,
            cancel=True,
        )
    if check.verification is Verification.CHECKING and check.reason:
        return Banner(
            f"Checking that the node still serves {network.name} (chain id "
            f"{network.chain_id}): {check.reason}. Nothing newer is shown until it answers.",
            Tone.WAITING,
            retry=True,
            cancel=True,
        )
    if check.verification is Verification.CHECKING and (
        check.attempt > 1 or check.waited() >= session.budget.slow_after
    ):
        return Banner(
            f"Checking that the node serves {network.name} (chain id {network.chain_id}): try "
            f"{check.attempt}, waiting {check.waited():.0f} s for its answer. "
            f"{nothing_new(read_before)} until it answers; Retry asks again now, Cancel stops "
            "checking.",
            Tone.WAITING,
            retry=True,
            cancel=True,
        )
    if check.verification is Verification.STOPPED:
        return Banner(
            f"You stopped checking the node: {nothing_new(read_before).lower()} as "
            f"{network.name}. Retry checks again.",
            Tone.BAD,
            retry=True,
        )
    if connection.head_error is ErrorKind.MALFORMED:
        return Banner(
            f"The node's head cannot be right: {connection.head_message.rstrip('. ')}. It is not "
            "shown; the head is asked again by itself, or press Retry.",
            Tone.BAD,
            retry=True,
        )
    return None


def nothing_new(read_before: bool) -> str:
    """Say what is (not) shown while the node is unconfirmed: pages may hold what was read."""
    if read_before:
        return "What the pages show was read while it was confirmed; nothing new is shown"
    return "Nothing is shown"


def mismatch_text(check: ChainCheck, expected: int) -> str:
    """Return what the node said about its chain, in words."""
    if check.chain_id == expected and check.net_version.strip() == str(expected):
        got = check.genesis_hash or "not given"
        if check.genesis_known:
            return (
                f"the node reports chain id {expected}, but its genesis block is {got}, not "
                f"{chain_name(expected)}'s {check.expected_genesis}."
            )
        return (
            f"the node reports chain id {expected}, but its genesis block changed since it was "
            f"first checked ({check.expected_genesis} then, {got} now): it is another chain."
        )
    if check.chain_id == expected:
        return (
            f"the node reports chain id {check.chain_id} but network id "
            f"{check.net_version or '(none)'}."
        )
    return (
        f"the node serves {chain_name(check.chain_id)} "
        f"(chain id {check.chain_id}, network id {check.net_version or '(none)'})."
    )


UNVERIFIED_CAUSES: dict[ErrorKind | None, str] = {
    ErrorKind.TRANSPORT: "Cannot reach the node",
    ErrorKind.AUTH: "The node was reached but refused the API key",
    ErrorKind.RATE_LIMITED: "The node was reached but is limiting requests (HTTP 429)",
    ErrorKind.SERVER: "The node was reached but its web server answered with an error",
    ErrorKind.MALFORMED: "The node was reached but its answer could not be read",
    ErrorKind.NODE: "The node was reached but answered with an error",
}


def offline_banner(session: Session) -> Banner:
    """Return the offline bar: saved data from when, and what opens from it."""
    saved_at = session.cache.saved_at if session.cache is not None else None
    return Banner(
        f"Offline — saved data from {saved_time(saved_at)}. {session.network.name} cannot be "
        "reached: pages saved here open from the saved data, others say they are not saved; "
        "trying again by itself, or press Retry.",
        Tone.WAITING,
        retry=True,
    )
