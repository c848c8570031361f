"""The Broadcast screen: paste a signed transaction, see it decoded and checked, send it once.

Decoding is local (services/rawtx.py) and refuses what must not be sent before any request.
The checks are reads only and wait for the session's chain check, like every page; sending
needs a confirmation naming the network and its chain id, then one eth_sendRawTransaction
that is never resent. The transaction page then follows it, opened in a tab in front.
"""

from __future__ import annotations

import asyncio
import enum
from collections.abc import Callable, Coroutine
from typing import Any

from PySide6.QtCore import QObject

from explorer.presentation.arguments import amount_index
from explorer.presentation.broadcast_document import (
    answer_section,
    check_section,
    confirmation_text,
    decoded_section,
    refusal_text,
)
from explorer.presentation.document import Document, Field, Section, Tone
from explorer.presentation.missing import TxSupport
from explorer.rpc.errors import RpcError
from explorer.saved.seen import SeenStoreError
from explorer.services.broadcast import (
    Answer,
    BroadcastCheck,
    SendResult,
    check_before_sending,
    remember_sent,
    send_once,
)
from explorer.services.chaincheck import ChainCheck
from explorer.services.rawtx import Refusal, SignedTx, decode_for
from explorer.services.routes import Route, tx_route
from explorer.services.session import Session
from explorer.viewmodels.observable import TypedSignal, qproperty


class Stage(enum.Enum):
    """Where the broadcast is."""

    EMPTY = "nothing pasted"
    REFUSED = "refused, nothing sent"
    CHECKING = "checking with reads"
    READY = "ready to send"
    CONFIRMING = "asking to confirm"
    SENDING = "sending"
    SENT = "sent"
    FAILED = "not taken"
    UNCERTAIN = "may have arrived"


SENDABLE = (Stage.READY,)  # after the checks, even when they could not be made
HEADLINES = {
    Stage.EMPTY: ("Paste a signed transaction (hex) to decode it.", Tone.MUTED),
    Stage.CHECKING: ("Decoded. Checking it with reads only…", Tone.WAITING),
    Stage.READY: ("Decoded and checked. Nothing is sent until you confirm.", Tone.NORMAL),
    Stage.SENDING: ("Sending (once)…", Tone.WAITING),
    Stage.SENT: ("Sent. Its page follows it until it is mined.", Tone.GOOD),
    Stage.FAILED: ("Not taken by the node.", Tone.BAD),
    Stage.UNCERTAIN: ("Sent, but no answer came: it may have arrived.", Tone.WAITING),
}


class BroadcastViewModel(QObject):
    """The Broadcast screen's state and commands.

    Signals:
        stage_changed(Stage): the broadcast moved on.
        document_changed(): the decoded fields, checks or answer changed.
        tracking_started(Route): open the sent transaction's page, in front, to follow it.
    """

    stage_changed = TypedSignal[Stage]()
    document_changed = TypedSignal[()]()
    tracking_started = TypedSignal[Route]()

    def __init__(
        self, session: Session, support: TxSupport | None = None, parent: QObject | None = None
    ) -> None:
        super().__init__(parent)
        self.session = session
        self.support = support or TxSupport()
        self.text = ""
        self._disposed = False  # the screen closed: a send still running tells nobody
        self.tx: SignedTx | None = None
        self.refusal: Refusal | None = None
        self.check: BroadcastCheck | None = None
        self.check_error = ""
        self.notice = ""  # sent, but not kept for later diagnosis
        self.result: SendResult | None = None
        self._stage = Stage.EMPTY
        self._document: Document | None = None
        self._task: asyncio.Task[None] | None = None
        self._sending: set[asyncio.Task[None]] = set()  # kept alive, never cancelled
        self._stop_listening: Callable[[], None] | None = session.checker.listen(self._on_check)

    def _get_stage(self) -> Stage:
        """Return where the broadcast is."""
        return self._stage

    def _get_document(self) -> Document | None:
        """Return what is shown under the pasted text."""
        return self._document

    stage = qproperty(_get_stage, stage_changed)
    document = qproperty(_get_document, document_changed)

    @property
    def confirmation(self) -> str:
        """Return the question asked before sending (network and chain id named)."""
        return "" if self.tx is None else confirmation_text(self.tx, self.session.network)

    @property
    def can_send(self) -> bool:
        """Tell whether Send may be pressed: decoded, for this chain, and the node verified."""
        return self._stage in SENDABLE and self.session.check.verified

    def set_raw(self, text: str) -> None:
        """Decode pasted text locally; refuse it or start the checks (nothing is sent)."""
        if self._stage in (Stage.SENDING, Stage.SENT, Stage.UNCERTAIN) and text == self.text:
            return
        self._cancel_task()
        self.text, self.check, self.check_error, self.result = text, None, "", None
        self.notice = ""
        network = self.session.network
        decoded = decode_for(text, network.chain_id, network.name) if text.strip() else None
        self.tx = decoded if isinstance(decoded, SignedTx) else None
        self.refusal = decoded if isinstance(decoded, Refusal) else None
        if self.tx is None:
            self._move(Stage.REFUSED if self.refusal else Stage.EMPTY)
            return
        self._move(Stage.CHECKING)
        self._start_checks()

    def _start_checks(self) -> None:
        """Run the checks once the node's chain is verified (they read chain data)."""
        if self.tx is not None and self._stage is Stage.CHECKING:
            if self.session.check.verified:
                self._run(self._checks(self.tx))
            else:
                self.session.verify()
                self._publish()

    def _on_check(self, check: ChainCheck) -> None:
        """Start waiting checks once the chain check passes; say when it does not."""
        if self._task is None or self._task.done():
            self._start_checks()
        self._publish()

    async def _checks(self, tx: SignedTx) -> None:
        """Read what the node will judge the transaction by."""
        reader = self.session.reader
        method = tx.method
        moves = tx.to is not None and method is not None and amount_index(method) is not None
        tokens = [tx.to] if tx.to is not None and moves else []
        try:
            self.check, _ = await asyncio.gather(
                check_before_sending(reader, tx), reader.token_units.read(tokens)
            )
        except RpcError as error:
            self.check_error = f"The checks could not be made: {error.kind.said} ({error.message})"
        self._move(Stage.READY)

    def on_send(self) -> None:
        """Ask for the confirmation that names the network and its chain id."""
        if self.can_send:
            self._move(Stage.CONFIRMING)

    def on_cancel(self) -> None:
        """Go back from the confirmation without sending."""
        if self._stage is Stage.CONFIRMING:
            self._move(Stage.READY if self.check or self.check_error else Stage.CHECKING)

    def on_confirm(self) -> None:
        """Send the transaction: one eth_sendRawTransaction, never resent."""
        if self._stage is not Stage.CONFIRMING or self.tx is None:
            return
        if not self.session.check.verified:  # the node changed meanwhile: send nothing
            self._move(Stage.READY)
            return
        self._cancel_task()
        self._move(Stage.SENDING)
        sending = asyncio.ensure_future(self._send(self.tx))
        self._sending.add(sending)
        sending.add_done_callback(self._sending.discard)

    async def _send(self, tx: SignedTx) -> None:
        """Send once, keep a record of it, and open its page when the node may have it."""
        result = await send_once(self.session.reader, tx)
        self.result = result
        head = self.check.state.head if self.check else self.session.reader.head
        stage = {Answer.REFUSED: Stage.FAILED, Answer.NOT_SENT: Stage.FAILED}.get(
            result.answer, Stage.UNCERTAIN if result.answer is Answer.UNKNOWN else Stage.SENT
        )
        try:
            session = self.session
            chain_id = session.network.chain_id
            await remember_sent(self.support.store, result, chain_id, head, session.endpoint)
        except SeenStoreError as error:
            self.notice = f"Not kept for a later diagnosis: {error}"
        self._move(stage)
        if result.in_flight and not self._disposed:
            self.tracking_started.emit(tx_route(tx.hash))

    def _run(self, work: Coroutine[Any, Any, None]) -> None:
        """Run the view model's one task (the previous one is cancelled)."""
        self._cancel_task()
        self._task = asyncio.ensure_future(work)

    def _cancel_task(self) -> None:
        """Cancel the running checks (a send is never cancelled: it runs on its own task)."""
        if self._task is not None and not self._task.done():
            self._task.cancel()
        self._task = None

    def _move(self, stage: Stage) -> None:
        """Change stage and rebuild the document (a closed screen's send tells nobody)."""
        if self._disposed:
            return
        changed = stage is not self._stage
        self._stage = stage
        if changed:
            self.stage_changed.emit(stage)
        self._publish()

    def _publish(self) -> None:
        """Rebuild what is shown from the decoded transaction, the checks and the answer."""
        if self._disposed:
            return
        self._document = self._build()
        self.document_changed.emit()

    def _build(self) -> Document:
        """Return the document of the current stage."""
        network = self.session.network
        text, tone = HEADLINES.get(self._stage, ("", Tone.NORMAL))
        if self.refusal is not None:
            text, tone = f"Refused, nothing sent: {self.refusal.message}", Tone.BAD
        elif self._stage is Stage.CONFIRMING:
            text, tone = self.confirmation, Tone.WAITING
        elif self._stage is Stage.CHECKING and not self.session.check.verified:
            text = f"Decoded. Waiting for the node to confirm it serves {network.name}…"
        elif self._stage is Stage.FAILED and self.result is not None:
            text = f"Not taken by the node: {refusal_text(self.result)}"
        sections: list[Section] = []
        if self.result is not None:  # the answer first: it is what the user waits for
            sections.append(answer_section(self.result))
        if self.tx is not None:
            units = self.session.reader.token_units.known([self.tx.to or ""])
            sections.append(decoded_section(self.tx, network, units))
            sections.append(check_section(self.check, network))
            if self.check_error:
                error = Field("Checks", self.check_error, tone=Tone.BAD)
                sections.append(Section("Not checked", (error,)))
        if self.notice:
            sections.append(Section("Note", (Field("Note", self.notice, tone=Tone.WAITING),)))
        headline = Field("Status", text, tone=tone)
        title = "Broadcast a signed transaction"
        return Document(title, headline, tuple(sections), {}, network.chain_id)

    def draft(self) -> str:
        """Return the pasted transaction (kept across a network switch)."""
        return self.text

    def restore(self, draft: str) -> None:
        """Paste what was pasted on the page this one replaces."""
        self.set_raw(draft)

    def dispose(self) -> None:
        """Stop listening to the chain check and cancel the checks (never a send)."""
        self._disposed = True
        if self._stop_listening is not None:
            self._stop_listening()
            self._stop_listening = None
        self._cancel_task()
