"""Session-scoped devnet fixtures: `explorer devnet` as a child process over real HTTP."""

from __future__ import annotations

import asyncio
import atexit
import faulthandler
import json
import threading
from collections.abc import Callable, Coroutine, Generator, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, TypeVar

import pytest
import pytest_timeout

from explorer.devnet.process import DevnetOptions, DevnetProcess, default_cache_dir

T = TypeVar("T")
#: A start waits for the child's READY line, or fails at once when the child exits; this cap
#: only catches a child that hangs. Started from a test, the test's own timeout stands aside
#: meanwhile (`timer_paused`): on a loaded machine a start takes minutes, and is not the test.
START_TIMEOUT = 900.0
#: The devnet's faces; `@pytest.mark.parametrize("devnet", PROFILES, indirect=True)` runs a
#: test against each (the hosted service of the spec, and a bare rskj 9 node).
PROFILES = ("service", "rskj")


def devnet_cache_dir() -> Path:
    """Return the snapshot cache shared across test runs (EXPLORER_DEVNET_CACHE overrides it)."""
    return default_cache_dir()


class LoopThread:
    """An asyncio loop running in a daemon thread, so fixtures work beside any test loop."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self._thread.start()

    def run(self, coro: Coroutine[Any, Any, T], timeout: float | None = None) -> T:
        """Run a coroutine on the loop thread and wait for its result."""
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    def close(self) -> None:
        """Stop the loop and its thread."""
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(10)
        self.loop.close()


@dataclass(frozen=True)
class Devnet:
    """A running devnet: the child process and the seed manifest of each network."""

    process: DevnetProcess
    manifests: dict[str, dict[str, Any]]
    profile: str = "service"

    def manifest(self, network: str = "testnet") -> dict[str, Any]:
        """Return the seed manifest of a network (addresses, hashes, block numbers)."""
        return self.manifests[network]

    @property
    def key(self) -> str:
        """The API key the devnet accepts."""
        return self.process.key

    def base(self, network: str = "testnet") -> str:
        """Return the base address of a network, without key."""
        return self.process.base_urls[network]

    def url(self, network: str = "testnet") -> str:
        """Endpoint of a network: with the key, or bare for a plain rskj node (no key)."""
        return self.base(network) if self.profile == "rskj" else self.process.url(network)


def start_devnet(
    loop: LoopThread, workdir: Path, options: DevnetOptions, key: str | None = None
) -> Devnet:
    """Start a devnet child on the loop thread, wait until ready, read its manifests."""
    manifest_file = workdir / "manifest.json"
    process = DevnetProcess(replace(options, manifest_file=manifest_file), key=key)
    with timer_paused():
        loop.run(process.start(START_TIMEOUT))
    return Devnet(process, json.loads(manifest_file.read_text()), options.profile)


_RUNNING_TEST: list[pytest.Item] = []  # the test being run, while it runs


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item) -> Generator[None, object, object]:
    """Note the test being run, for `timer_paused`."""
    _RUNNING_TEST.append(item)
    try:
        return (yield)
    finally:
        _RUNNING_TEST.remove(item)


@contextmanager
def timer_paused() -> Iterator[None]:
    """Stop the running test's timeout meanwhile; give it its whole timeout again afterwards."""
    if not _RUNNING_TEST:
        yield
        return
    item = _RUNNING_TEST[-1]
    hooks = item.config.hook
    hooks.pytest_timeout_cancel_timer(item=item)
    faulthandler.cancel_dump_traceback_later()  # no stacks printed at 280 s: a start, not a hang
    try:
        yield
    finally:
        settings = pytest_timeout._get_item_settings(item)
        if settings.timeout and not settings.func_only:
            hooks.pytest_timeout_set_timer(item=item, settings=settings)


_SHARED_LOOP: list[LoopThread] = []
_RUNNING: dict[str, Devnet] = {}


def shared_loop() -> LoopThread:
    """Return the one loop thread of the session (made on first use, closed at exit)."""
    if not _SHARED_LOOP:
        _SHARED_LOOP.append(LoopThread())
        atexit.register(_SHARED_LOOP[0].close)
    return _SHARED_LOOP[0]


def _stop(name: str) -> None:
    """Stop a shared devnet (at exit, before its loop closes)."""
    running = _RUNNING.pop(name, None)
    if running is not None:
        shared_loop().run(running.process.stop())


@contextmanager
def shared_devnet(name: str, start: Callable[[], Devnet]) -> Iterator[Devnet]:
    """One devnet per name, started on first use and kept until the session ends.

    A module that imports a fixture function defines its own copy of it, and pytest ends a
    parametrised session fixture whenever a test asks for another parameter; keeping the
    child process here makes every copy and every parameter switch reuse it.
    """
    if name not in _RUNNING:
        _RUNNING[name] = start()
        atexit.register(_stop, name)  # runs before the loop's close, registered earlier
    yield _RUNNING[name]


@pytest.fixture(scope="session")
def devnet_loop() -> LoopThread:
    """Return the event loop the devnet children are driven from."""
    return shared_loop()


@pytest.fixture(scope="session")
def devnet(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Devnet:
    """Both networks with the seeded history and instant mining, as the hosted service.

    As a bare rskj node when a test asks for it (indirect parametrisation with PROFILES).
    """
    return profile_devnet(getattr(request, "param", "service"), tmp_path_factory)


def profile_devnet(profile: str, tmp_path_factory: pytest.TempPathFactory) -> Devnet:
    """Return the session's devnet of a profile (both networks, seeded, instant mining)."""
    name = "devnet" if profile == "service" else f"devnet_{profile}"

    def start() -> Devnet:
        workdir = tmp_path_factory.mktemp(name)
        options = DevnetOptions(cache_dir=devnet_cache_dir(), profile=profile)
        return start_devnet(shared_loop(), workdir, options)

    with shared_devnet(name, start) as running:
        return running


@pytest.fixture(scope="session")
def devnet_trace(
    devnet_loop: LoopThread, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Devnet]:
    """Yield the test network as a bare rskj node with its debug and trace modules on (--trace)."""
    options = DevnetOptions(
        cache_dir=devnet_cache_dir(), network="test", profile="rskj", extra_arguments=("--trace",)
    )

    def start() -> Devnet:
        workdir = tmp_path_factory.mktemp("devnet-trace")
        return start_devnet(devnet_loop, workdir, options)

    with shared_devnet("devnet_trace", start) as running:
        yield running


LIMITED_KEYS = ("limits-key-0001", "quota-key-00001")
LIMITED_QUOTA = 200


@pytest.fixture(scope="session")
def devnet_limited(
    devnet_loop: LoopThread, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Devnet]:
    """Yield the test network with tiny log limits, a daily quota and a block every 2 s.

    Its main key is for the limit and mining tests; `quota-key-00001` is the one to spend.
    """
    options = DevnetOptions(
        cache_dir=devnet_cache_dir(),
        network="test",
        block_time=2.0,
        quota=LIMITED_QUOTA,
        max_log_blocks=10,
        max_logs=5,
        extra_keys=LIMITED_KEYS[1:],
    )

    def start() -> Devnet:
        workdir = tmp_path_factory.mktemp("devnet-limited")
        return start_devnet(devnet_loop, workdir, options, key=LIMITED_KEYS[0])

    with shared_devnet("devnet_limited", start) as running:
        yield running


@pytest.fixture(scope="session")
def devnet_live(
    devnet_loop: LoopThread, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Devnet]:
    """Yield the test network mining a block every second with demo traffic; it reorganises.

    `devnet_reorganise` is answered (tests that need a reorganisation use this devnet alone).
    """
    options = DevnetOptions(
        cache_dir=devnet_cache_dir(),
        network="test",
        block_time=1.0,
        extra_arguments=("--traffic", "--control"),
    )

    def start() -> Devnet:
        workdir = tmp_path_factory.mktemp("devnet-live")
        return start_devnet(devnet_loop, workdir, options)

    with shared_devnet("devnet_live", start) as running:
        yield running
