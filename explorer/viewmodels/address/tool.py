"""What every tool of the address page shares: one task at a time and a result text."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any

from PySide6.QtCore import QObject

from explorer.rpc.errors import RpcError
from explorer.services.session import Session
from explorer.viewmodels.observable import TypedSignal, qproperty


class Tool(QObject):
    """One tool of the address page: runs one task at a time and reports a result text.

    A new run cancels the one before (latest wins); `dispose` cancels the running one.

    Signals:
        running_changed(bool): a run started or ended.
        result_changed(str): the tool has a new result or status text.
    """

    running_changed = TypedSignal[bool]()
    result_changed = TypedSignal[str]()

    def __init__(self, session: Session, address: str, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.address = address
        self._task: asyncio.Task[None] | None = None
        self._result = ""

    def _get_running(self) -> bool:
        """Tell whether a run is under way."""
        return self._task is not None

    running = qproperty(_get_running, running_changed)

    def _get_result(self) -> str:
        """Return the last result or status text."""
        return self._result

    result = qproperty(_get_result, result_changed)

    @property
    def chain_id(self) -> int:
        """Return the chain id of the session's network."""
        return self.session.network.chain_id

    def _publish(self, text: str) -> None:
        """Set the result text and tell the view."""
        self._result = text
        self.result_changed.emit(text)

    def _invalid(self, error: Exception) -> None:
        """Report input that could not be used."""
        self._publish(f"Invalid input: {error}")

    def _failed(self, error: RpcError) -> None:
        """Report a request the node could not answer."""
        self._publish(f"Error: {error.message}")

    def _start(self, run: Coroutine[Any, Any, None]) -> None:
        """Run a coroutine as the tool's task, cancelling the run before it."""
        was_running = self._cancel_task()
        self._task = asyncio.ensure_future(run)
        self._task.add_done_callback(self._on_done)
        if not was_running:
            self.running_changed.emit(True)

    def _cancel_task(self) -> bool:
        """Cancel the running task quietly; tell whether there was one."""
        task, self._task = self._task, None
        if task is None:
            return False
        task.remove_done_callback(self._on_done)
        task.cancel()
        return True

    def _stop(self) -> bool:
        """Cancel the running task and say so; tell whether there was one."""
        stopped = self._cancel_task()
        if stopped:
            self.running_changed.emit(False)
        return stopped

    def _on_done(self, task: asyncio.Task[None]) -> None:
        """Note the end of the current run."""
        if task is self._task:
            self._task = None
            self.running_changed.emit(False)

    def dispose(self) -> None:
        """Stop the running task, if any."""
        self._stop()
