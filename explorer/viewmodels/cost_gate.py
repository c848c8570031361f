"""Asks before a long operation that would cross the key's daily quota; says what it costs."""

from __future__ import annotations

import asyncio

from PySide6.QtCore import QObject

from explorer.services.budget import Estimate, crosses, question
from explorer.services.session import Session
from explorer.viewmodels.observable import TypedSignal


class CostGate(QObject):
    """Lets an operation start, or asks first when its estimate would cross the quota.

    Signals:
        question_changed(str): a question awaits an answer ('' once answered).
    """

    question_changed = TypedSignal[str]()

    def __init__(self, session: Session, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.question = ""
        self._answer: asyncio.Future[bool] | None = None

    def crosses(self, estimate: Estimate) -> bool:
        """Tell whether an estimate would take the key past its quota today."""
        session = self.session
        return crosses(session.requests_today, session.daily_quota, estimate)

    async def allow(self, estimate: Estimate) -> bool:
        """Return True at once under the quota; else ask and return the answer."""
        if not self.crosses(estimate):
            return True
        self.answer(False)  # an older question goes unanswered: no
        session = self.session
        self._answer = asyncio.get_running_loop().create_future()
        self._set(question(session.requests_today, session.daily_quota, estimate))
        try:
            return await self._answer
        finally:
            self._set("")

    def answer(self, start: bool) -> None:
        """Answer the question asked (the view's Yes or No)."""
        if self._answer is not None and not self._answer.done():
            self._answer.set_result(start)

    def _set(self, text: str) -> None:
        """Change the question."""
        if text != self.question:
            self.question = text
            self.question_changed.emit(text)
