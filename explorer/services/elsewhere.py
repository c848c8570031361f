"""Look a transaction up on the other configured networks at once, one request each.

Each network is read through a session of its own, kept per endpoint for the app's lifetime,
so its chain check (eth_chainId, net_version, web3_clientVersion: three requests) is paid
once per endpoint, and an answer counts only once that check has passed. The lookup itself
is one eth_getTransactionByHash per network, all sent together with the checks they still
need, so a warm lookup of any number of networks takes one round trip.
"""

from __future__ import annotations

import asyncio
import enum
from collections.abc import Callable
from dataclasses import dataclass

import httpx

from explorer.chain.records import Transaction
from explorer.rpc.endpoint import Endpoint
from explorer.rpc.errors import RpcError
from explorer.services.chaincheck import ChainCheck, Verification
from explorer.services.networks import Network
from explorer.services.session import Session

Candidates = Callable[[], list[tuple[Network, Endpoint]]]
ANSWERED = (Verification.VERIFIED, Verification.MISMATCH, Verification.UNREACHABLE)


class Presence(enum.Enum):
    """What another network said about the hash."""

    MINED = "mined there"
    PENDING = "pending there"
    ABSENT = "not there"
    WRONG_CHAIN = "its node serves another chain"
    UNREACHABLE = "could not be asked"


@dataclass(frozen=True)
class Sighting:
    """One network's answer, with what it rests on."""

    network: Network
    where: str  # the endpoint, key masked
    presence: Presence
    transaction: Transaction | None = None
    message: str = ""

    @property
    def found(self) -> bool:
        """Tell whether the transaction is there, mined or pending."""
        return self.presence in (Presence.MINED, Presence.PENDING)


class OtherNetworks:
    """Sessions on the configured networks other than the current one, reused across lookups."""

    def __init__(
        self,
        candidates: Candidates,
        http: httpx.AsyncClient | None = None,
        on_close: Callable[[Session], None] | None = None,
    ) -> None:
        """Ask candidates() for the networks and endpoints to try at each lookup.

        on_close hears each session as it is closed, so its requests can be counted against
        its key's daily quota.
        """
        self.candidates = candidates
        self._http = http
        self._on_close = on_close
        self._sessions: dict[str, Session] = {}
        self._closing: set[asyncio.Future[None]] = set()

    def session_for(self, network: Network, endpoint: Endpoint) -> Session:
        """Return the kept session for an endpoint and network (made on first use)."""
        key = f"{network.chain_id}|{endpoint.url}"
        session = self._sessions.get(key)
        if session is None:
            session = self._sessions[key] = Session(network, endpoint, self._http)
        return session

    def others(self, current: Endpoint) -> list[tuple[Network, Endpoint]]:
        """Return the candidates, without the current endpoint and without repeats."""
        seen = {current.url}
        chosen = []
        for network, endpoint in self.candidates():
            if endpoint.url not in seen:
                seen.add(endpoint.url)
                chosen.append((network, endpoint))
        return chosen

    async def look_up(self, tx_hash: str, current: Endpoint) -> list[Sighting]:
        """Ask every other network for the transaction at once; return each one's answer."""
        pairs = self.others(current)
        return list(
            await asyncio.gather(*(self._ask(self.session_for(n, e), tx_hash) for n, e in pairs))
        )

    async def _ask(self, session: Session, tx_hash: str) -> Sighting:
        """Send the lookup beside the chain check it still needs; trust it once verified."""
        network, where = session.network, session.endpoint.redacted
        lookup = asyncio.ensure_future(session.client.get_transaction_by_hash(tx_hash))
        try:
            async with asyncio.timeout(session.budget.check_deadline):
                check = await first_verdict(session)
            if check.verification is Verification.UNREACHABLE:
                return self._forget(
                    session,
                    Sighting(network, where, Presence.UNREACHABLE, message=check.error_message),
                )
            tx = await lookup
        except TimeoutError:
            message = "its node did not answer in time"
            return self._forget(
                session, Sighting(network, where, Presence.UNREACHABLE, message=message)
            )
        except RpcError as error:
            return self._forget(
                session, Sighting(network, where, Presence.UNREACHABLE, message=error.message)
            )
        finally:
            lookup.cancel()
        if check.verification is Verification.MISMATCH:
            return Sighting(
                network,
                where,
                Presence.WRONG_CHAIN,
                message=f"it serves chain {check.chain_id}, not {network.chain_id}",
            )
        if tx is None:
            return Sighting(network, where, Presence.ABSENT)
        presence = Presence.PENDING if tx.is_pending else Presence.MINED
        return Sighting(network, where, presence, tx)

    def _forget(self, session: Session, sighting: Sighting) -> Sighting:
        """Drop an unreachable session (its check would retry forever) and return the answer."""
        session.stop()
        for key, kept in list(self._sessions.items()):
            if kept is session:
                del self._sessions[key]
                closing = asyncio.ensure_future(self._close(session))
                self._closing.add(closing)
                closing.add_done_callback(self._closing.discard)
        return sighting

    async def _close(self, session: Session) -> None:
        """Close a session, after telling on_close (its requests are counted)."""
        if self._on_close is not None:
            self._on_close(session)
        await session.aclose()

    async def aclose(self) -> None:
        """Close every kept session."""
        sessions, self._sessions = list(self._sessions.values()), {}
        for session in sessions:
            await self._close(session)
        if self._closing:
            await asyncio.gather(*self._closing, return_exceptions=True)


async def first_verdict(session: Session) -> ChainCheck:
    """Start the session's chain check and return its first verdict: verified, not, unreachable."""
    check = session.check
    if check.verification in ANSWERED:
        return check
    answered: asyncio.Future[ChainCheck] = asyncio.get_running_loop().create_future()

    def on_check(check: ChainCheck) -> None:
        if check.verification in ANSWERED and not answered.done():
            answered.set_result(check)

    stop = session.checker.listen(on_check)
    try:
        session.verify()
        return await answered
    finally:
        stop()
