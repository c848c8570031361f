"""What `Connection: close` costs a call over https, and what resuming TLS sessions saves.

rskj closes every connection (Web3ResultHttpResponseHandler.java), so each call opens a new
one. Against the devnet's rskj profile served over https, the client's calls cost: a kept
connection (the service profile, for reference); a new connection with a full handshake
(a plain TLS context); a new connection resuming the last session (the client's shared
context, explorer/rpc/tlsresume.py) — with TLS 1.3 and TLS 1.2, on this machine and behind a
proxy that delays every byte by 50 ms each way (100 ms round trips; the TCP connect itself is
not delayed, so a real network adds one more round trip to each new connection).

Run: .venv/bin/python bench/connection.py  (starts its own devnet child processes; needs openssl).
"""

from __future__ import annotations

import asyncio
import contextlib
import shutil
import ssl
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
from _quick import rounds, sized  # bench/_quick.py, beside this
from httpx_aiohttp import AiohttpTransport

from explorer.devnet.process import DevnetOptions, DevnetProcess
from explorer.rpc.client import RpcClient
from explorer.rpc.endpoint import Endpoint
from explorer.rpc.tlsresume import resume_sessions

CALLS = {0.0: sized(300, 30), 0.05: sized(20, 3)}  # one-way delay (s) -> sequential calls timed
ROUNDS = rounds(3)


def certificate(directory: Path) -> tuple[Path, Path]:
    """Return a one-day self-signed certificate and key for 127.0.0.1 (openssl)."""
    cert, key = directory / "cert.pem", directory / "key.pem"
    key_type = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
    name = ["-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"]
    files = ["-keyout", str(key), "-out", str(cert)]
    command = ["openssl", "req", "-x509", "-days", "1", *key_type, *name, *files]
    subprocess.run(command, check=True, capture_output=True)
    return cert, key


class DelayProxy:
    """A TCP proxy to a port that delivers every chunk `delay` seconds late, each way."""

    def __init__(self, port: int, delay: float) -> None:
        self.target, self.delay = port, delay
        self.server: asyncio.Server | None = None

    async def start(self) -> int:
        """Listen on a free port; return it."""
        self.server = await asyncio.start_server(self._connect, "127.0.0.1", 0)
        return int(self.server.sockets[0].getsockname()[1])

    async def _connect(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        """Join a client to a new upstream connection."""
        up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.target)
        await asyncio.gather(self._pump(reader, up_writer), self._pump(up_reader, writer))

    async def _pump(self, source: asyncio.StreamReader, sink: asyncio.StreamWriter) -> None:
        """Copy one direction, each chunk delivered `delay` after it came, in order."""
        loop = asyncio.get_running_loop()
        queue: asyncio.Queue[tuple[float, bytes]] = asyncio.Queue()

        async def deliver() -> None:
            while True:
                due, chunk = await queue.get()
                await asyncio.sleep(max(0.0, due - loop.time()))
                if not chunk:
                    sink.close()
                    return
                sink.write(chunk)
                with contextlib.suppress(ConnectionError):
                    await sink.drain()

        delivery = asyncio.ensure_future(deliver())
        with contextlib.suppress(ConnectionError):
            while chunk := await source.read(65536):
                queue.put_nowait((loop.time() + self.delay, chunk))
        queue.put_nowait((loop.time() + self.delay, b""))
        await delivery

    async def close(self) -> None:
        """Stop listening."""
        if self.server is not None:
            self.server.close()


@contextlib.asynccontextmanager
async def https_devnet(profile: str, cert: Path, key: Path) -> AsyncIterator[str]:
    """Run the devnet's test network over https as a profile; yield its URL."""
    tls = ("--tls-cert", str(cert), "--tls-key", str(key))
    options = DevnetOptions(network="test", profile=profile, extra_arguments=tls)
    devnet = DevnetProcess(options)
    await devnet.start(timeout=900)
    try:
        yield devnet.base_urls["testnet"] if profile == "rskj" else devnet.url("testnet")
    finally:
        await devnet.stop()


async def per_call(url: str, cert: Path, *, resume: bool, tls12: bool, calls: int) -> float:
    """Return the median seconds per call of `calls` sequential calls on one client."""
    context = ssl.create_default_context(cafile=str(cert))
    if tls12:
        context.maximum_version = ssl.TLSVersion.TLSv1_2
    if resume:
        resume_sessions(context)
    http = httpx.AsyncClient(transport=AiohttpTransport(verify=context))
    client = RpcClient(Endpoint.parse(url), http=http)
    await client.block_number()  # the first handshake is the same for all
    times = []
    for _ in range(ROUNDS):
        started = time.perf_counter()
        for _ in range(calls):
            await client.block_number()
        times.append((time.perf_counter() - started) / calls)
    await http.aclose()
    await asyncio.sleep(0.25)  # let the last TLS close finish
    return statistics.median(times)


@contextlib.asynccontextmanager
async def delayed(urls: list[str], delay: float) -> AsyncIterator[list[str]]:
    """Yield the URLs as they are (no delay) or through a delaying proxy each."""
    if not delay:
        yield urls
        return
    proxies = [DelayProxy(int(httpx.URL(url).port or 443), delay) for url in urls]
    try:
        ports = [await proxy.start() for proxy in proxies]
        yield [
            str(httpx.URL(url).copy_with(port=port)) for url, port in zip(urls, ports, strict=True)
        ]
    finally:
        for proxy in proxies:
            await proxy.close()


async def main() -> None:
    """Measure each way of calling, on this machine and 100 ms away."""
    if shutil.which("openssl") is None:
        sys.exit("bench/connection.py needs the openssl command")
    cert, key = certificate(Path(tempfile.mkdtemp(prefix="bench-tls-")))
    async with https_devnet("rskj", cert, key) as rskj, https_devnet("service", cert, key) as kept:
        for delay, calls in CALLS.items():
            async with delayed([rskj, kept], delay) as (rskj_url, kept_url):
                print(f"one call after another, {delay * 2000:.0f} ms round trips:")
                keep = await per_call(kept_url, cert, resume=False, tls12=False, calls=calls)
                print(f"  a kept connection (the service profile): {keep * 1000:.1f} ms a call")
                for tls12, name in ((False, "TLS 1.3"), (True, "TLS 1.2")):
                    full = await per_call(rskj_url, cert, resume=False, tls12=tls12, calls=calls)
                    fast = await per_call(rskj_url, cert, resume=True, tls12=tls12, calls=calls)
                    print(
                        f"  Connection: close, {name}: full handshakes {full * 1000:.1f} ms a "
                        f"call, resumed sessions {fast * 1000:.1f} ms ({fast / full:.2f}× the "
                        f"time; {fast / keep:.1f}× a kept connection's)"
                    )


if __name__ == "__main__":
    asyncio.run(main())
