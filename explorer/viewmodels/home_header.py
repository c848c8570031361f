"""The home page's header cards: the gas price read at start and every few blocks, ages ticking."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

from explorer.presentation.home_cards import Card, Facts, empty_cards, header_cards
from explorer.rpc.errors import RpcError
from explorer.services.chaincheck import ChainCheck
from explorer.services.live import LiveChain
from explorer.services.session import Session

GAS_PRICE_EVERY = 10  # new blocks between eth_gasPrice reads


class HeaderCards:
    """The cards over the home page's lists, computed from the blocks read and the gas price.

    `changed` hears new cards; `failed` hears a gas-price read that failed.
    """

    def __init__(
        self,
        session: Session,
        chain: LiveChain,
        changed: Callable[[], None],
        failed: Callable[[RpcError], None],
    ) -> None:
        self.session, self.chain = session, chain
        self.cards: tuple[Card, ...] = empty_cards()
        self._changed, self._failed = changed, failed
        self._facts = Facts(check=session.check)
        self._since_gas_price = 0
        self._gas_task: asyncio.Task[None] | None = None

    @property
    def busy(self) -> bool:
        """Tell whether the gas price is being read."""
        return self._gas_task is not None and not self._gas_task.done()

    def reset(self, check: ChainCheck) -> None:
        """Forget the gas price read: the chain check changed."""
        self._facts = Facts(check=check)

    def clear(self) -> None:
        """Show empty cards (nothing of an unconfirmed node)."""
        self.cards = empty_cards()
        self._changed()

    def count_new_blocks(self, count: int) -> None:
        """Note new blocks; read the gas price again every GAS_PRICE_EVERY of them."""
        self._since_gas_price += count
        if self._since_gas_price >= GAS_PRICE_EVERY:
            self.read_gas_price()

    def read_gas_price(self) -> None:
        """Ask eth_gasPrice (at start, then every GAS_PRICE_EVERY new blocks)."""
        if self.busy:
            return
        self._since_gas_price = 0
        self._gas_task = asyncio.ensure_future(self._read_gas_price())

    async def _read_gas_price(self) -> None:
        """Read the gas price and show it next to the block minimum."""
        try:
            price = await self.session.client.gas_price()
        except RpcError as error:
            self._failed(error)
            return
        self._facts = Facts(price, self.chain.newest, self.session.check)
        self.refresh()

    def refresh(self) -> None:
        """Recompute the cards (ages tick, requests change)."""
        session = self.session
        facts = Facts(
            self._facts.gas_price,
            self._facts.gas_price_block,
            session.check,
            session.requests_today,
            session.daily_quota,
        )
        self.cards = header_cards(self.chain.newest_first()[::-1], facts, time.time())
        self._changed()

    def cancel(self) -> None:
        """Stop a gas-price read under way."""
        if self._gas_task is not None:
            self._gas_task.cancel()
