"""DevnetProcess: READY and progress parsing, start failures, stopping, orphan exit."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import httpx
import pytest

from explorer.devnet.process import (
    CACHE_VARIABLE,
    DevnetOptions,
    DevnetProcess,
    DevnetStartError,
    default_cache_dir,
)
from tests.helpers.devnet import START_TIMEOUT, LoopThread, devnet_cache_dir

REPO = Path(__file__).resolve().parents[2]


def script_command(source: str) -> list[str]:
    """Return the command of a child that runs a small Python script instead of the devnet."""
    return [sys.executable, "-c", textwrap.dedent(source)]


@pytest.fixture
def loop_thread() -> object:
    """Yield a private event loop in a thread."""
    loop = LoopThread()
    yield loop
    loop.close()


FAKE_DEVNET = """
    import json, sys
    progress = {"network": "testnet", "stage": "loading", "fraction": 0.5}
    print("PROGRESS", json.dumps(progress))
    print("some human line")
    print("READY", json.dumps({"testnet": "http://127.0.0.1:1"}), flush=True)
    sys.stdin.read()
    print("bye", file=sys.stderr)
"""


def test_ready_and_progress_lines_are_parsed(loop_thread: LoopThread) -> None:
    """Progress reaches the callback, READY gives the URLs, stdin EOF stops the child."""
    seen: list[tuple[str, str, float]] = []
    process = DevnetProcess(
        key="k" * 32,
        command=script_command(FAKE_DEVNET),
        on_progress=lambda *report: seen.append(report),
    )
    assert loop_thread.run(process.start(10)) == {"testnet": "http://127.0.0.1:1"}
    assert process.url("testnet") == "http://127.0.0.1:1/" + "k" * 32
    assert "k" * 32 not in process.redacted_url("testnet")
    assert seen == [("testnet", "loading", 0.5)]
    assert loop_thread.run(process.stop(grace=5)) == 0


def test_exit_before_ready_raises_with_redacted_stderr(loop_thread: LoopThread) -> None:
    """A child that dies early raises DevnetStartError carrying stderr, key redacted."""
    key = "secretkey0123456789"
    process = DevnetProcess(
        key=key,
        command=script_command("import sys; print(sys.argv, file=sys.stderr); sys.exit(3)"),
    )
    with pytest.raises(DevnetStartError) as caught:
        loop_thread.run(process.start(10))
    message = str(caught.value)
    assert "status 3" in message
    assert "--key" in message
    assert key not in message
    assert process.returncode == 3


def test_timeout_stops_a_child_that_ignores_stdin_and_sigterm(loop_thread: LoopThread) -> None:
    """No READY in time: the child is terminated, then killed if it resists."""
    stubborn = """
        import signal, time
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        print("PROGRESS {}", flush=True)
        while True:
            time.sleep(1)
    """
    process = DevnetProcess(command=script_command(stubborn))

    async def start_then_stop() -> None:
        with pytest.raises(TimeoutError):
            await process.start(timeout=1.5)

    began = time.monotonic()
    loop_thread.run(start_then_stop())
    assert process.returncode == -signal.SIGKILL
    assert time.monotonic() - began < 20


def test_real_devnet_main_network_only(loop_thread: LoopThread, tmp_path: Path) -> None:
    """The real child serves only the main network when asked, and exits 0 on stop."""
    options = DevnetOptions(cache_dir=devnet_cache_dir(), network="main")
    process = DevnetProcess(options)
    urls = loop_thread.run(process.start(280))
    assert list(urls) == ["mainnet"]
    body = {"jsonrpc": "2.0", "id": 1, "method": "eth_chainId", "params": []}
    assert httpx.post(process.url("mainnet"), json=body).json()["result"] == "0x1e"
    assert loop_thread.run(process.stop()) == 0
    with pytest.raises(httpx.ConnectError):
        httpx.post(process.url("mainnet"), json=body)


ORPHANING_PARENT = """
    import asyncio, sys
    from pathlib import Path
    from explorer.devnet.process import DevnetOptions, DevnetProcess

    async def main():
        options = DevnetOptions(cache_dir=Path(sys.argv[1]), network="test")
        process = DevnetProcess(options)
        await process.start(280)
        print(process.pid, process.url("testnet"), flush=True)
        await asyncio.sleep(3600)

    asyncio.run(main())
"""


def test_child_exits_when_its_parent_dies(tmp_path: Path) -> None:
    """Kill the owner with SIGKILL: the orphaned devnet sees stdin EOF and exits."""
    with subprocess.Popen(
        [*script_command(ORPHANING_PARENT), str(devnet_cache_dir())],
        stdout=subprocess.PIPE,
        text=True,
        cwd=REPO,
    ) as parent:
        try:
            assert parent.stdout is not None
            child_pid, url = parent.stdout.readline().split()
            body = {"jsonrpc": "2.0", "id": 1, "method": "eth_chainId", "params": []}
            assert httpx.post(url, json=body).json()["result"] == "0x1f"
        finally:
            parent.kill()
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and pid_alive(int(child_pid)):
        time.sleep(0.2)
    assert not pid_alive(int(child_pid))


def pid_alive(pid: int) -> bool:
    """Tell whether a process (not a zombie) with this pid exists."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    status = Path(f"/proc/{pid}/stat")
    return not (status.exists() and status.read_text().split(") ")[1].startswith("Z"))


def test_stop_before_start_is_harmless() -> None:
    """Stopping a devnet that never started does nothing."""
    assert asyncio.run(DevnetProcess().stop()) is None


def test_cache_dir_follows_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """EXPLORER_DEVNET_CACHE points the app, the CLI and a frozen build at a cache.

    Without it the snapshot cache is the user's cache directory.
    """
    monkeypatch.setenv(CACHE_VARIABLE, str(tmp_path))
    assert default_cache_dir() == tmp_path
    monkeypatch.delenv(CACHE_VARIABLE)
    assert default_cache_dir().name == "devnet"
    assert default_cache_dir() != tmp_path


def test_a_start_from_another_cache_builds_nothing_again(
    devnet_loop: LoopThread, tmp_path: Path
) -> None:
    """The tour's devnet: an empty cache of its own, the warm one read (--also-read).

    Whichever network loads slower than a helper's start, no history is built again: a
    helper once built the other network's 12,000 blocks into the empty cache (minutes).
    """
    stages: list[tuple[str, str]] = []
    options = DevnetOptions(
        cache_dir=tmp_path / "empty-cache", extra_arguments=("--also-read", str(devnet_cache_dir()))
    )
    process = DevnetProcess(
        options, on_progress=lambda name, stage, _: stages.append((name, stage))
    )
    devnet_loop.run(process.start(START_TIMEOUT))
    devnet_loop.run(process.stop())
    assert set(process.base_urls) == {"testnet", "mainnet"}
    assert not [stage for stage in stages if "build" in stage[1]], stages
