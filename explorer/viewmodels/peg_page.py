"""The peg's pages: the Bridge (also at the Bridge's address) and a peg-in's status."""

from __future__ import annotations

from collections.abc import AsyncIterator

from explorer.chain.known import BRIDGE
from explorer.presentation.bridge_loaders import load_bridge, pegin_documents
from explorer.presentation.document import Document
from explorer.services.routes import Page, Route
from explorer.viewmodels.page import PageViewModel


def is_peg_route(route: Route) -> bool:
    """Tell whether a route shows a peg page (the Bridge's address shows the Bridge)."""
    if route.page is Page.ADDRESS:
        return route.target.lower() == BRIDGE
    return route.page in (Page.BRIDGE, Page.PEGIN)


class PegPageViewModel(PageViewModel):
    """Loads the Bridge page (one round trip) or a peg-in's status (and a refund's progress)."""

    def _documents(self) -> AsyncIterator[tuple[Document | None, bool]]:
        """Return the page's documents as they arrive (none refresh on their own)."""
        if self.route.page is Page.PEGIN:
            return self._fetch_pegin()
        return self._fetch_bridge()

    async def _fetch_bridge(self) -> AsyncIterator[tuple[Document | None, bool]]:
        """Read the Bridge."""
        yield await load_bridge(self.session.reader, self.session.network), False

    async def _fetch_pegin(self) -> AsyncIterator[tuple[Document | None, bool]]:
        """Read a peg-in's status, then follow its refund when it has one."""
        documents = pegin_documents(self.session.reader, self.session.network, self.route.target)
        async for document in documents:
            yield document, False
