"""The node page: what the node says about itself, read even before (or despite) the chain check."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import AsyncIterator
from typing import Protocol

from explorer.presentation.document import Document
from explorer.presentation.node_document import node_document
from explorer.services.nodeinfo import NodeFacts, default_daily_quota, read_node_facts
from explorer.services.routes import NODE
from explorer.services.session import Session
from explorer.viewmodels.page import PageState, PageViewModel


class QuotaStore(Protocol):
    """Where the daily quota per network is kept (explorer.settings.store.Settings fits)."""

    def daily_quota(self, network: str, default: int) -> int:
        """Return a network's daily quota per key (0: none), the default if unset."""
        ...

    def set_daily_quota(self, network: str, quota: int) -> None:
        """Store a network's daily quota per key (0: none)."""
        ...


class NodePageViewModel(PageViewModel):
    """Reads the node's facts (seven requests) on load and on Retry; the quota can be set.

    The node is asked about itself whatever the chain check says: this page is where a
    node serving another chain, or one whose chain id and net_version disagree, is seen.
    """

    def __init__(self, session: Session, store: QuotaStore | None = None) -> None:
        super().__init__(session, NODE)
        self.store = store
        self.facts: NodeFacts | None = None

    @property
    def default_quota(self) -> int:
        """Return the quota a key of this network has unless set: the hosted service's."""
        return default_daily_quota(self.session.network, self.session.endpoint)

    def load(self) -> None:
        """Ask the node now (no wait for the chain check: its answers are the point here)."""
        self.dispose_task()
        if self.document is None:
            self._set(PageState.LOADING)
        self._task = asyncio.ensure_future(self._run())

    def _documents(self) -> AsyncIterator[tuple[Document | None, bool]]:
        """Return the node document as the one stage."""
        return self._read()

    async def _read(self) -> AsyncIterator[tuple[Document | None, bool]]:
        """Read the facts and build the document."""
        session = self.session
        self.facts = await read_node_facts(
            session.client,
            session.network,
            session.endpoint,
            session.requests_today,
            session.daily_quota,
        )
        spent = session.requests_today  # the seven requests just made included
        self.facts = dataclasses.replace(self.facts, requests_today=spent)
        yield node_document(self.facts), False

    def set_daily_quota(self, quota: int) -> None:
        """Set this network's daily quota per key (0: none), kept for the next sessions."""
        quota = max(quota, 0)
        self.session.daily_quota = quota
        if self.store is not None:
            self.store.set_daily_quota(self.session.network.id, quota)
        if self.facts is not None:
            self.facts = dataclasses.replace(self.facts, daily_quota=quota)
            self._document = node_document(self.facts)
            self.document_changed.emit()
