"""Tokens: ERC-20/ERC-721 detection and balances of many tokens, batched through Multicall3."""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from eth_abi.abi import decode, encode
from eth_abi.exceptions import DecodingError
from eth_utils.abi import function_signature_to_4byte_selector

from explorer.chain.bundled import token_lists
from explorer.chain.hexutil import parse_address
from explorer.rpc.errors import NodeError, RpcError
from explorer.rpc.params import BlockSelector
from explorer.rpc.wrappers import TypedCalls
from explorer.saved.cache import DerivedRecords, records_of

MULTICALL3 = "0xca11bde05977b3631167028862be2a173976ca11"
NO_CONTRACT = "no token contract at this address"
ERC721_INTERFACE = bytes.fromhex("80ac58cd")


def selector(signature: str) -> bytes:
    """Return the 4-byte selector of a function signature such as `balanceOf(address)`."""
    return function_signature_to_4byte_selector(signature)


NAME, SYMBOL = selector("name()"), selector("symbol()")
DECIMALS, TOTAL_SUPPLY = selector("decimals()"), selector("totalSupply()")
BALANCE_OF = selector("balanceOf(address)")
SUPPORTS_INTERFACE = selector("supportsInterface(bytes4)")
AGGREGATE3 = selector("aggregate3((address,bool,bytes)[])")


@dataclass(frozen=True)
class TokenInfo:
    """What a contract says about itself as a token; kind is `ERC-20`, `ERC-721` or ``."""

    address: str
    kind: str
    name: str | None = None
    symbol: str | None = None
    decimals: int | None = None
    total_supply: int | None = None

    @property
    def is_token(self) -> bool:
        """Tell whether the contract looks like a token."""
        return bool(self.kind)

    @property
    def display_name(self) -> str:
        """Return `Name (SYMBOL)`, or what is known of it."""
        if self.name and self.symbol:
            return f"{self.name} ({self.symbol})"
        return self.name or self.symbol or self.address


@dataclass(frozen=True)
class TokenBalance:
    """A holder's balance of one token (None with error text when the call failed)."""

    token: TokenInfo
    balance: int | None
    error: str = ""


@dataclass(frozen=True)
class CallOutcome:
    """The result of one call: output bytes or an error message."""

    output: bytes | None
    error: str = ""


def balance_call(holder: str) -> bytes:
    """Return the calldata of `balanceOf(holder)`."""
    return BALANCE_OF + encode(["address"], [holder])


def decoded_value(types: str, outcome: CallOutcome) -> Any:
    """Decode one output value, or None when the call failed or the bytes do not fit."""
    if outcome.output is None:
        return None
    try:
        return decode([types], outcome.output)[0]
    except (DecodingError, OverflowError, ValueError):
        return None


def decoded_text(outcome: CallOutcome) -> str | None:
    """Decode a `string` result, accepting old tokens' `bytes32` names."""
    value = decoded_value("string", outcome)
    if isinstance(value, str):
        return value
    raw = decoded_value("bytes32", outcome)
    if isinstance(raw, bytes) and raw.strip(b"\0"):
        return raw.rstrip(b"\0").decode("utf-8", errors="replace")
    return None


_DEPLOYED: weakref.WeakKeyDictionary[TypedCalls, dict[str, bool]] = weakref.WeakKeyDictionary()


class TokenReader:
    """Reads token facts and balances, through Multicall3 when it is deployed."""

    def __init__(self, client: TypedCalls, multicall: str = MULTICALL3) -> None:
        self.client = client
        self.multicall = parse_address(multicall)
        self.multicall_used = 0

    @property
    def _saved(self) -> DerivedRecords | None:
        """Return the records kept per chain in the session's saved data, if it has any."""
        return records_of(self.client)

    async def has_multicall(self) -> bool:
        """Tell whether Multicall3 has code; asked once per client (once per chain when saved)."""
        known = _DEPLOYED.setdefault(self.client, {})
        saved = self._saved
        unknown = self.multicall not in known
        if unknown and saved is not None and await saved.get("deployed", self.multicall):
            known[self.multicall] = True
        if self.multicall not in known:
            self._deployed(bool(await self.client.get_code(self.multicall)))
        return known[self.multicall]

    def _deployed(self, deployed: bool) -> None:
        """Remember whether Multicall3 answers on this client (and chain, once it does)."""
        _DEPLOYED.setdefault(self.client, {})[self.multicall] = deployed
        saved = self._saved
        if deployed and saved is not None:
            saved.keep("deployed", self.multicall, True)

    async def single(self, target: str, data: bytes, block: BlockSelector) -> CallOutcome:
        """Run one eth_call; a revert becomes an outcome with the node's message."""
        try:
            output = await self.client.eth_call({"to": target, "data": "0x" + data.hex()}, block)
        except NodeError as error:
            return CallOutcome(None, error.revert_reason or error.node_message)
        return CallOutcome(output)

    async def calls(
        self,
        calls: Sequence[tuple[str, bytes]],
        block: BlockSelector = "latest",
        *,
        batch: bool = True,
    ) -> list[CallOutcome]:
        """Run many (target, calldata) calls: one aggregate3 request when possible.

        Whether Multicall3 is there is not asked first: an aggregate3 that answers tells it
        (one request, not two); one that does not falls back to single calls, once.
        """
        known = _DEPLOYED.get(self.client, {}).get(self.multicall)
        if batch and len(calls) > 1 and known is not False:
            try:
                outcomes = await self._aggregate(calls, block)
            except RpcError:
                self._deployed(False)
            else:
                self._deployed(True)
                return outcomes
        return list(await asyncio.gather(*(self.single(t, d, block) for t, d in calls)))

    async def _aggregate(
        self, calls: Sequence[tuple[str, bytes]], block: BlockSelector
    ) -> list[CallOutcome]:
        """Send the calls as one Multicall3 aggregate3 with failures allowed."""
        payload = encode(["(address,bool,bytes)[]"], [[(t, True, d) for t, d in calls]])
        data = "0x" + (AGGREGATE3 + payload).hex()
        output = await self.client.eth_call({"to": self.multicall, "data": data}, block)
        try:
            (results,) = decode(["(bool,bytes)[]"], output)
        except (DecodingError, OverflowError, ValueError) as exc:
            raise NodeError(-32000, f"Multicall3 returned undecodable data: {exc}") from None
        if len(results) != len(calls):
            raise NodeError(-32000, "Multicall3 returned the wrong number of results")
        self.multicall_used += 1
        return [
            CallOutcome(bytes(r) if ok else None, "" if ok else "call failed") for ok, r in results
        ]

    async def token_info(self, address: str, block: BlockSelector = "latest") -> TokenInfo:
        """Detect ERC-20 / ERC-721 and read name, symbol, decimals and totalSupply.

        A token's kind, name, symbol and decimals are kept in the saved data once read; then
        only its total supply (which changes) is asked.
        """
        target = parse_address(address)
        saved = self._saved
        known = await saved.get("token", target) if saved is not None else None
        if isinstance(known, dict):
            (supply,) = await self.calls([(target, TOTAL_SUPPLY)], block)
            total = decoded_value("uint256", supply)
            return TokenInfo(target, **known, total_supply=total)
        info = await self._read_token_info(target, block)
        if saved is not None and info.is_token:
            metadata = {"kind": info.kind, "name": info.name, "symbol": info.symbol}
            saved.keep("token", target, {**metadata, "decimals": info.decimals})
        return info

    async def _read_token_info(self, target: str, block: BlockSelector) -> TokenInfo:
        """Read a contract's token facts from the node."""
        interface = SUPPORTS_INTERFACE + encode(["bytes4"], [ERC721_INTERFACE])
        probes = [NAME, SYMBOL, DECIMALS, TOTAL_SUPPLY, interface]
        name, symbol, decimals, supply, erc721 = await self.calls(
            [(target, data) for data in probes], block
        )
        is_721 = decoded_value("bool", erc721) is True
        total = decoded_value("uint256", supply)
        places = decoded_value("uint8", decimals)
        kind = "ERC-721" if is_721 else "ERC-20" if total is not None and places is not None else ""
        return TokenInfo(target, kind, decoded_text(name), decoded_text(symbol), places, total)

    async def balances(
        self,
        holder: str,
        tokens: Iterable[str],
        block: BlockSelector = "latest",
        *,
        batch: bool = True,
    ) -> list[TokenBalance]:
        """Return holder's balance of each token, with each token's name, symbol and decimals."""
        targets = list(dict.fromkeys(parse_address(t) for t in tokens))
        interface = SUPPORTS_INTERFACE + encode(["bytes4"], [ERC721_INTERFACE])
        per_token = [NAME, SYMBOL, DECIMALS, interface, balance_call(parse_address(holder))]
        calls = [(t, data) for t in targets for data in per_token]
        outcomes = await self.calls(calls, block, batch=batch)
        size = len(per_token)
        return [
            _balance(target, outcomes[size * index : size * (index + 1)])
            for index, target in enumerate(targets)
        ]


def _balance(target: str, outcomes: Sequence[CallOutcome]) -> TokenBalance:
    """Build one token's balance from its name, symbol, decimals, ERC-165 and balanceOf calls."""
    name, symbol, decimals, erc721, balance = outcomes
    places = decoded_value("uint8", decimals)
    is_721 = decoded_value("bool", erc721) is True
    kind = "ERC-721" if is_721 else "ERC-20" if places is not None else ""
    info = TokenInfo(
        target, kind, decoded_text(name), decoded_text(symbol), None if is_721 else places
    )
    amount = decoded_value("uint256", balance)
    if amount is not None:
        return TokenBalance(info, amount)
    if balance.output == b"":
        return TokenBalance(info, None, NO_CONTRACT)
    return TokenBalance(info, None, balance.error or "balanceOf gave no number")


def known_tokens(chain_id: int, extra: Iterable[str] = ()) -> tuple[str, ...]:
    """Return the bundled well-known tokens of a chain plus extra ones, without duplicates."""
    listed = [*token_lists().get(chain_id, ()), *(parse_address(a) for a in extra)]
    return tuple(dict.fromkeys(listed))
