"""Run `explorer devnet` as a child process and wait for it asynchronously. No Qt."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import secrets
import sys
import tempfile
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import platformdirs

from explorer.devnet.keys import redact_key  # not the server: the window never loads it

#: Environment variable that overrides where the devnet keeps its snapshots.
CACHE_VARIABLE = "EXPLORER_DEVNET_CACHE"

#: progress(network, stage, fraction) as the child reports it.
ProgressCallback = Callable[[str, str, float], None]


class DevnetStartError(RuntimeError):
    """The devnet child exited or timed out before it was ready."""


def default_cache_dir() -> Path:
    """Return the snapshot cache: $EXPLORER_DEVNET_CACHE, else the user's cache directory."""
    override = os.environ.get(CACHE_VARIABLE)
    return Path(override) if override else Path(platformdirs.user_cache_dir("explorer")) / "devnet"


def default_chain_dir() -> Path:
    """Return where the app's devnet keeps its chain across restarts (the user's data)."""
    return Path(platformdirs.user_data_dir("explorer")) / "devnet"


def devnet_command() -> list[str]:
    """Return the command that runs `explorer devnet` with this interpreter (or frozen build)."""
    if getattr(sys, "frozen", False):
        return [sys.executable, "devnet"]
    return [sys.executable, "-m", "explorer", "devnet"]


@dataclass(frozen=True)
class DevnetOptions:
    """What to ask of the child devnet."""

    cache_dir: Path | None = None
    block_time: float = 0.0
    network: str = "both"
    quota: int | None = None
    max_log_blocks: int | None = None
    max_logs: int | None = None
    extra_keys: tuple[str, ...] = ()
    manifest_file: Path | None = None
    latency: float = 0.0
    profile: str = "service"
    niceness: int = 0  # run at a lower priority (the app's own devnet: behind the window)
    recent_first: bool = False  # no history yet? the shipped newest blocks first (else the whole)
    extra_arguments: tuple[str, ...] = ()  # more `explorer devnet` flags, as given

    def arguments(self, key: str) -> list[str]:
        """Command-line arguments for these options and the main key."""
        args = ["--testnet-port", "0", "--mainnet-port", "0", "--stop-on-stdin-eof", "--json-lines"]
        args += ["--network", self.network, "--block-time", str(self.block_time)]
        if self.latency:
            args += ["--latency", str(self.latency)]
        if self.profile != "service":
            args += ["--profile", self.profile]
        if self.niceness:
            args += ["--niceness", str(self.niceness)]
        args.append("--recent-first" if self.recent_first else "--whole-history-first")
        for extra in (key, *self.extra_keys):
            args += ["--key", extra]
        optional = {
            "--cache-dir": self.cache_dir,
            "--quota": self.quota,
            "--max-log-blocks": self.max_log_blocks,
            "--max-logs": self.max_logs,
            "--manifest-file": self.manifest_file,
        }
        for flag, value in optional.items():
            if value is not None:
                args += [flag, str(value)]
        return [*args, *self.extra_arguments]


class DevnetProcess:
    """A devnet child process: start it, wait for READY, expose its URLs, stop it."""

    def __init__(
        self,
        options: DevnetOptions | None = None,
        *,
        key: str | None = None,
        on_progress: ProgressCallback | None = None,
        command: Sequence[str] | None = None,
    ) -> None:
        self.options = options or DevnetOptions()
        self.key = key or secrets.token_hex(16)
        self.base_urls: dict[str, str] = {}
        self.manifests: dict[str, Any] = {}  # the seed manifests by network, once ready
        self.on_progress = on_progress  # may be set after spawn(): lines are read on the loop
        self._command = list(command or devnet_command())
        self._process: asyncio.subprocess.Process | None = None
        self._stderr_tail: deque[str] = deque(maxlen=20)
        self._readers: list[asyncio.Task[None]] = []
        self._ready: asyncio.Future[dict[str, str]] | None = None
        self._folder: tempfile.TemporaryDirectory[str] | None = None
        self._manifest_file = Path(os.devnull)

    def url(self, network: str) -> str:
        """Return the endpoint of a network with the key (`http://127.0.0.1:P/<KEY>`)."""
        return f"{self.base_urls[network]}/{self.key}"

    def redacted_url(self, network: str) -> str:
        """Return the endpoint with the key redacted, for logs and messages."""
        return f"{self.base_urls[network]}/{redact_key(self.key)}"

    @property
    def pid(self) -> int | None:
        """The child's process id, None before start."""
        return None if self._process is None else self._process.pid

    @property
    def returncode(self) -> int | None:
        """The child's exit status, None while it runs or before start."""
        return None if self._process is None else self._process.returncode

    async def start(self, timeout: float = 120.0) -> dict[str, str]:
        """Start the child and wait for its READY line; return the base URLs by network.

        The seed manifests it wrote are then in `manifests` (written to a temporary folder,
        removed at once, unless the options name a manifest file).
        """
        await self.spawn()
        return await self.ready(timeout)

    async def spawn(self) -> None:
        """Start the child; `ready()` waits for its READY line (its lines are read meanwhile)."""
        if self._process is not None:
            raise RuntimeError("devnet already started")
        self._folder = tempfile.TemporaryDirectory(prefix="explorer-devnet-")
        manifest_file = self.options.manifest_file or Path(self._folder.name) / "manifests.json"
        self._manifest_file = manifest_file
        options = replace(self.options, manifest_file=manifest_file)
        self._process = await asyncio.create_subprocess_exec(
            *self._command,
            *options.arguments(self.key),
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        self._ready = asyncio.get_running_loop().create_future()
        self._readers = [
            asyncio.create_task(self._read_stdout(self._ready)),
            asyncio.create_task(self._read_stderr()),
        ]

    async def ready(self, timeout: float = 120.0) -> dict[str, str]:
        """Wait for the spawned child's READY line; return the base URLs by network."""
        if self._ready is None:
            raise RuntimeError("devnet not spawned")
        try:
            self.base_urls = await asyncio.wait_for(asyncio.shield(self._ready), timeout)
        except BaseException:
            await self.stop()
            raise
        self.manifests = read_manifests(self._manifest_file)
        self._remove_folder()
        return self.base_urls

    def _remove_folder(self) -> None:
        """Remove the temporary folder of the manifests (once read, or at stop)."""
        if self._folder is not None:
            self._folder.cleanup()
            self._folder = None

    async def _read_stdout(self, ready: asyncio.Future[dict[str, str]]) -> None:
        """Follow the child's stdout: progress, READY, then drain until EOF."""
        assert self._process is not None
        assert self._process.stdout is not None
        try:
            async for raw in self._process.stdout:
                tag, _, rest = raw.decode("utf-8", "replace").strip().partition(" ")
                if tag == "READY" and not ready.done():
                    urls = _parse_object(rest)
                    ready.set_result({name: str(url) for name, url in urls.items()})
                elif tag == "PROGRESS" and self.on_progress is not None:
                    self._report_progress(_parse_object(rest))
            await self._process.wait()
        finally:
            if not ready.done():
                await asyncio.wait(self._readers[1:], timeout=2)  # the last words on stderr
                ready.set_exception(DevnetStartError(self._exit_message()))

    def _report_progress(self, line: dict[str, object]) -> None:
        """Pass one PROGRESS line to the callback."""
        assert self.on_progress is not None
        fraction = line.get("fraction")
        self.on_progress(
            str(line.get("network", "")),
            str(line.get("stage", "")),
            float(fraction) if isinstance(fraction, int | float) else 0.0,
        )

    async def _read_stderr(self) -> None:
        """Keep the last lines of stderr (so the pipe never fills)."""
        assert self._process is not None
        assert self._process.stderr is not None
        async for raw in self._process.stderr:
            line = raw.decode("utf-8", "replace").rstrip()
            self._stderr_tail.append(line.replace(self.key, redact_key(self.key)))

    def _exit_message(self) -> str:
        """Why the child stopped before READY, with the key redacted."""
        tail = "\n".join(self._stderr_tail)
        assert self._process is not None
        return f"devnet exited with status {self._process.returncode} before ready\n{tail}"

    async def stop(self, grace: float = 5.0) -> int | None:
        """Close stdin (the child exits by itself), then terminate, then kill."""
        process = self._process
        self._remove_folder()
        if process is None:
            return None
        if process.stdin is not None:
            process.stdin.close()
        for signal_child in (None, process.terminate, process.kill):
            if signal_child is not None and process.returncode is None:
                with contextlib.suppress(ProcessLookupError):
                    signal_child()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(process.wait(), grace)
                break
        await asyncio.gather(*self._readers, return_exceptions=True)
        return process.returncode

    async def __aenter__(self) -> DevnetProcess:
        """Start on entering the context."""
        await self.start()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        """Stop on leaving the context."""
        await self.stop()


def read_manifests(path: Path) -> dict[str, Any]:
    """Return the seed manifests by network, as a child wrote them (--manifest-file; {} if not)."""
    try:
        manifests = json.loads(path.read_text())
    except (OSError, ValueError):
        return {}
    return manifests if isinstance(manifests, dict) else {}


def _parse_object(text: str) -> dict[str, object]:
    """Parse a JSON object from a status line; {} when it is not one."""
    try:
        value = json.loads(text)
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}
