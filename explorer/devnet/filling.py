"""A node served before its older history exists: calls that need it wait until it is built."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

T = TypeVar("T")
FILL_WAIT = 20.0  # seconds a call waits for the older history: under a client's 30 s timeout


class NotYetLoaded(Exception):
    """A call needs history that is still being built; answer it once the chain is whole."""


class StillBuilding(Exception):
    """A call waited FILL_WAIT for the older history: told so, rather than left unanswered."""


class FillingNode:
    """The recent node first (shipped recent blocks), the whole chain's node once it is built.

    Attributes other than the calls are the current node's (its manifest, methods, …).
    """

    def __init__(self, recent: Any) -> None:
        self.node = recent
        self._complete = asyncio.Event()
        self.task: asyncio.Future[None] | None = None  # what builds the whole chain

    @property
    def complete(self) -> bool:
        """Tell whether the whole chain is served."""
        return self._complete.is_set()

    def finish(self, whole: Any) -> None:
        """Serve the whole chain from now on (on the event loop's thread)."""
        self.node = whole
        self._complete.set()

    async def until_complete(self) -> None:
        """Return once the whole chain is served."""
        await self._complete.wait()

    def handle(self, method: str, params: list[Any]) -> Any:
        """Answer one call on the current node (raises NotYetLoaded for older history)."""
        return self.node.handle(method, params)

    def mine_block(self) -> int:
        """Mine on the current node (the recent one cannot: NotYetLoaded)."""
        return int(self.node.mine_block())

    def mine_scheduled(self) -> int | None:
        """Mine on the interval timer once the whole chain is served; None before."""
        return self.node.mine_scheduled() if self.complete else None

    def __getattr__(self, name: str) -> Any:
        """Everything else is the current node's."""
        return getattr(self.node, name)


async def when_loaded(node: object, call: Callable[[], Awaitable[T]], wait: float = FILL_WAIT) -> T:
    """Run call; when it needs history still being built, wait for it and run call again.

    Raises StillBuilding after `wait` seconds: a client is told why, never left to time out.
    """
    try:
        return await call()
    except NotYetLoaded:
        if not isinstance(node, FillingNode):
            raise
    try:
        await asyncio.wait_for(node.until_complete(), wait)
    except TimeoutError:
        raise StillBuilding from None
    return await call()
