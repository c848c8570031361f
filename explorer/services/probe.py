"""Connection tests: ask a node once who it is, and say what was found (never the key)."""

from __future__ import annotations

import enum
from dataclasses import dataclass

import httpx

from explorer.chain.secrets import scrub
from explorer.rpc.client import RpcClient
from explorer.rpc.endpoint import Endpoint
from explorer.rpc.errors import ErrorKind, InvalidInput, RpcError
from explorer.rpc.retry import NO_RETRY
from explorer.services.endpoints import EndpointBook
from explorer.services.network_forms import NetworkForm, parse_chain_id

TEST_TIMEOUT = 10.0


class ProbeOutcome(enum.Enum):
    """What a connection test found."""

    CONNECTED = "connected"
    MISMATCH = "chain mismatch"
    FAILED = "failed"
    NOT_SET_UP = "not set up"


@dataclass(frozen=True)
class ConnectionReport:
    """The verdict of a connection test: it shows the redacted endpoint, never the key."""

    endpoint: str
    outcome: ProbeOutcome
    chain_id: int | None = None
    expected_chain_id: int | None = None
    client_version: str | None = None
    latency_ms: float | None = None
    error_kind: ErrorKind | None = None
    message: str = ""

    @property
    def ok(self) -> bool:
        """Tell whether the node answered as the expected chain."""
        return self.outcome is ProbeOutcome.CONNECTED

    @property
    def text(self) -> str:
        """Return the one-line result, e.g. `✓ chain 31 · RskJ/6.2.0/… · 120 ms`."""
        kind = self.error_kind
        problem = kind.explain(self.message) if kind else f"{self.outcome.value}: {self.message}"
        if self.chain_id is None or self.latency_ms is None:
            return f"✗ {problem}"
        facts = f"{self.client_version or 'no client version'} · {self.latency_ms:.0f}\u00a0ms"
        if self.ok:
            return f"✓ chain {self.chain_id} · {facts}"
        return f"✗ {problem} · {facts}"


async def probe_form(
    book: EndpointBook, form: NetworkForm, http: httpx.AsyncClient | None = None
) -> ConnectionReport:
    """Probe the endpoint a form describes; an unfinished form is reported, nothing sent."""
    try:
        endpoint = book.form_endpoint(form)
        expected = parse_chain_id(form.chain_id) if form.chain_id.strip() else None
    except InvalidInput as error:
        return ConnectionReport(
            "", ProbeOutcome.FAILED, error_kind=error.kind, message=error.message
        )
    if endpoint is None:
        reason = book.resolve(form)[1]
        return ConnectionReport("", ProbeOutcome.NOT_SET_UP, message=reason)
    return await probe_endpoint(endpoint, expected, http)


async def probe_endpoint(
    endpoint: Endpoint, expected: int | None, http: httpx.AsyncClient | None = None
) -> ConnectionReport:
    """Ask the node once (no retries) and turn the answer into a report."""
    secret = endpoint.api_key or ""
    client = RpcClient(endpoint, http=http, retry=NO_RETRY, timeout=TEST_TIMEOUT)
    try:
        probe = await client.probe(expected)
    except RpcError as error:
        return ConnectionReport(
            endpoint.redacted,
            ProbeOutcome.FAILED,
            expected_chain_id=expected,
            error_kind=error.kind,
            message=scrub(error.message, [secret]),
        )
    finally:
        await client.aclose()
    mismatch = probe.mismatch()
    client_version = scrub(probe.client_version, [secret]) if probe.client_version else None
    return ConnectionReport(
        endpoint=endpoint.redacted,
        outcome=ProbeOutcome.CONNECTED if mismatch is None else ProbeOutcome.MISMATCH,
        chain_id=probe.chain_id,
        expected_chain_id=expected,
        client_version=client_version,
        latency_ms=probe.latency * 1000,
        error_kind=None if mismatch is None else mismatch.kind,
        message="" if mismatch is None else scrub(mismatch.message, [secret]),
    )
