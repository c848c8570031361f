"""TLS sessions resumed against a node that closes every connection (rskj's `Connection.

Close`, co/rsk/rpc/netty/Web3ResultHttpResponseHandler.java), over the devnet's rskj profile on
https.
"""

from __future__ import annotations

import asyncio
import ssl
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
from httpx_aiohttp import AiohttpTransport

from explorer.devnet.process import DevnetOptions
from explorer.rpc.client import RpcClient
from explorer.rpc.endpoint import Endpoint
from explorer.rpc.tlsresume import ResumingContext, resume_sessions
from explorer.rpc.transport import shared_tls_context
from tests.helpers.devnet import Devnet, LoopThread, devnet_cache_dir, shared_devnet, start_devnet
from tests.helpers.tls import self_signed


@dataclass(frozen=True)
class TlsNode:
    """The rskj-profile devnet on https, and the certificate to trust."""

    devnet: Devnet
    cert: Path

    @property
    def url(self) -> str:
        """The test network's https address."""
        return self.devnet.base("testnet")


@pytest.fixture(scope="module")
def tls_node(
    devnet_loop: LoopThread, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[TlsNode]:
    """Yield a bare-rskj devnet (test network) serving https with a self-signed certificate."""
    workdir = tmp_path_factory.mktemp("tls")
    cert, key = self_signed(workdir)
    tls = ("--tls-cert", str(cert), "--tls-key", str(key))
    options = DevnetOptions(
        cache_dir=devnet_cache_dir(), network="test", profile="rskj", extra_arguments=tls
    )
    with shared_devnet(
        "devnet_rskj_tls", lambda: start_devnet(devnet_loop, workdir, options)
    ) as devnet:
        yield TlsNode(devnet, cert)


def reused_after_calls(node: TlsNode, *, resume: bool, tls12: bool = False) -> list[bool]:
    """Make three calls on one client; return whether each connection resumed a session."""
    context = ssl.create_default_context(cafile=str(node.cert))
    if tls12:
        context.maximum_version = ssl.TLSVersion.TLSv1_2
    seen: list[bool] = []

    async def main() -> None:
        if resume:
            resume_sessions(context)
        http = httpx.AsyncClient(transport=AiohttpTransport(verify=context))
        client = RpcClient(Endpoint.parse(node.url), http=http)

        try:
            for _ in range(3):
                assert await client.chain_id() == 31
                tls = getattr(context, "_last", {}).get("127.0.0.1")
                seen.append(bool(tls is not None and tls.session_reused))
        finally:
            await http.aclose()
            await asyncio.sleep(0.25)  # TLS closes take a few loop turns (aiohttp's advice)

    asyncio.run(main())
    return seen


@pytest.mark.parametrize("tls12", [False, True])
def test_each_new_connection_resumes_the_last_session(tls_node: TlsNode, tls12: bool) -> None:
    """Every call opens a connection; from the second on, it resumes (TLS 1.3 and 1.2)."""
    assert reused_after_calls(tls_node, resume=True, tls12=tls12) == [False, True, True]


def test_a_plain_context_handshakes_in_full(tls_node: TlsNode) -> None:
    assert reused_after_calls(tls_node, resume=False) == [False, False, False]


def test_the_clients_shared_context_resumes() -> None:
    context = shared_tls_context()
    assert isinstance(context, ResumingContext)
    assert context.verify_mode is ssl.CERT_REQUIRED
    assert context.check_hostname
