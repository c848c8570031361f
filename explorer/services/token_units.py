"""Token units: each contract's decimals and symbol, read once (many in one request) and kept."""

from __future__ import annotations

import asyncio
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from eth_utils.abi import event_signature_to_log_topic

from explorer.chain.hexutil import parse_address
from explorer.chain.units import format_units, readable_units
from explorer.rpc.errors import RpcError
from explorer.rpc.wrappers import TypedCalls
from explorer.saved.cache import DerivedRecords, records_of
from explorer.services.tokens import (
    DECIMALS,
    MULTICALL3,
    SYMBOL,
    TokenReader,
    decoded_text,
    decoded_value,
)

#: The canonical signatures whose argument at the index is an amount of the called or emitting
#: contract's token (ERC-20, and ERC-677's transferAndCall; WRBTC's Deposit and Withdrawal).
TOKEN_AMOUNT_CALLS: dict[str, int] = {
    "transfer(address,uint256)": 1,
    "transferFrom(address,address,uint256)": 2,
    "approve(address,uint256)": 1,
    "increaseAllowance(address,uint256)": 1,
    "decreaseAllowance(address,uint256)": 1,
    "mint(address,uint256)": 1,
    "burn(uint256)": 0,
    "burnFrom(address,uint256)": 1,
    "transferAndCall(address,uint256,bytes)": 1,
    "withdraw(uint256)": 0,
}
TOKEN_AMOUNT_EVENTS: dict[str, int] = {
    "Transfer(address,address,uint256)": 2,
    "Approval(address,address,uint256)": 2,
    "Deposit(address,uint256)": 1,
    "Withdrawal(address,uint256)": 1,
}
TOKEN_AMOUNTS = {**TOKEN_AMOUNT_CALLS, **TOKEN_AMOUNT_EVENTS}
#: The topic0 of each of those events (an emitter of one may be a token worth asking about).
AMOUNT_TOPICS = frozenset(
    "0x" + event_signature_to_log_topic(signature).hex() for signature in TOKEN_AMOUNT_EVENTS
)


@dataclass(frozen=True)
class TokenUnit:
    """How a token's amounts read: its decimals and symbol (an NFT: no decimals, 0)."""

    decimals: int
    symbol: str
    fungible: bool = True  # it answers decimals(): its amounts are amounts, not ids

    def amount(self, value: int) -> str:
        """Return an amount of base units in the token's units as people read it: `5,316 DVT`."""
        return f"{readable_units(value, self.decimals)} {self.symbol}".rstrip()

    def exact(self, value: int) -> str:
        """Return an amount of base units in the token's units, exactly."""
        return f"{format_units(value, self.decimals)} {self.symbol}".rstrip()


Units = Mapping[str, TokenUnit]  # contract (lowercase) -> its unit
UNITS_RECORD = "token units"  # the saved data's kind of record for them


class TokenUnits:
    """The units of the token contracts met, read once per contract and kept for the session.

    Contracts asked together are read in one Multicall3 request (two calls each); a contract
    that is not a fungible token (no decimals: an NFT, an account) is remembered as such, with
    the symbol it gives, and left out unless every kind is asked for. Reads already under way
    are joined, never repeated.
    """

    def __init__(self, client: TypedCalls) -> None:
        self.client = client
        self.multicall = MULTICALL3
        self._known: dict[str, TokenUnit] = {}
        self._reading: dict[str, asyncio.Future[None]] = {}

    def known(self, addresses: Iterable[str], every_kind: bool = False) -> dict[str, TokenUnit]:
        """Return the units already read of these contracts (no request); NFTs' with every_kind."""
        found = ((address.lower(), self._known.get(address.lower())) for address in addresses)
        return {a: u for a, u in found if u is not None and (every_kind or u.fungible)}

    def remember(self, units: Units) -> None:
        """Keep units read another way (the Tokens tab reads them with the balances)."""
        self._known.update((address.lower(), unit) for address, unit in units.items())

    async def read(
        self, addresses: Iterable[str], every_kind: bool = False
    ) -> dict[str, TokenUnit]:
        """Return the units of these contracts, reading those never read (one request)."""
        wanted = list(dict.fromkeys(parse_address(a) for a in addresses))
        new = [a for a in wanted if a not in self._known and a not in self._reading]
        if new:
            task = asyncio.ensure_future(self._read(new))
            for address in new:
                self._reading[address] = task
        waits = {self._reading[a] for a in wanted if a in self._reading}
        if waits:  # shielded: a caller that stops waiting stops no one else's read
            await asyncio.gather(*(asyncio.shield(w) for w in waits), return_exceptions=True)
        return self.known(wanted, every_kind)

    async def _read(self, addresses: list[str]) -> None:
        """Read decimals and symbol of each contract; a failed read is asked again later.

        Units kept in the saved data (a token's decimals and symbol do not change) are taken
        from there; the node is asked only for the others, which are kept in turn.
        """
        saved = records_of(self.client)
        try:
            asked = [a for a in addresses if not await self._saved_unit(saved, a)]
            if not asked:
                return
            calls = [(address, data) for address in asked for data in (DECIMALS, SYMBOL)]
            outcomes = await TokenReader(self.client, self.multicall).calls(calls)
        except RpcError:
            return
        finally:
            for address in addresses:
                self._reading.pop(address, None)
        for index, address in enumerate(asked):
            places = decoded_value("uint8", outcomes[2 * index])
            symbol = decoded_text(outcomes[2 * index + 1]) or ""
            self._known[address] = _unit(places, symbol)
            if saved is not None:
                saved.keep(UNITS_RECORD, address, {"decimals": places, "symbol": symbol})

    async def _saved_unit(self, saved: DerivedRecords | None, address: str) -> bool:
        """Take a contract's unit from the saved data; tell whether it was there."""
        kept = await saved.get(UNITS_RECORD, address) if saved is not None else None
        if not isinstance(kept, dict):
            return False
        places, symbol = kept.get("decimals"), kept.get("symbol")
        self._known[address] = _unit(places, symbol if isinstance(symbol, str) else "")
        return True


def _unit(places: object, symbol: str) -> TokenUnit:
    """Return a contract's unit from its decimals() (an int, or none: not fungible)."""
    if isinstance(places, int):
        return TokenUnit(places, symbol)
    return TokenUnit(0, symbol, fungible=False)
