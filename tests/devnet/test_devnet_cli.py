"""`explorer devnet` as a user runs it: generated key, URLs, READY, ports, exit codes."""

from __future__ import annotations

import json
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

from tests.helpers.devnet import devnet_cache_dir

REPO = Path(__file__).resolve().parents[2]


def devnet_command(*args: str) -> list[str]:
    """`python -m explorer devnet ARGS` with the shared cache dir."""
    cache = ["--cache-dir", str(devnet_cache_dir())]
    return [sys.executable, "-m", "explorer", "devnet", *cache, *args]


def read_until_ready(process: subprocess.Popen[str]) -> list[str]:
    """Lines of stdout up to and including the READY line."""
    assert process.stdout is not None
    lines = []
    for line in process.stdout:
        lines.append(line.rstrip("\n"))
        if line.startswith("READY "):
            return lines
    raise AssertionError(f"no READY line; got {lines}")


def test_generated_key_urls_and_sigint(tmp_path: Path) -> None:
    """Without --key a random key is printed, the URLs carry it, SIGINT exits 0."""
    with subprocess.Popen(
        devnet_command("--network", "main", "--mainnet-port", "0"),
        stdout=subprocess.PIPE,
        text=True,
        cwd=REPO,
    ) as process:
        try:
            lines = read_until_ready(process)
            key = next(line for line in lines if "generated API key" in line).split()[-1]
            assert len(key) >= 32
            ready = json.loads(lines[-1].removeprefix("READY "))
            assert list(ready) == ["mainnet"]
            assert ready["mainnet"].startswith("http://127.0.0.1:")
            assert f"mainnet (chain id 30): {ready['mainnet']}/{key}" in lines
            progress = [line.split(" ", 1)[1] for line in lines if line.startswith("PROGRESS ")]
            assert all("fraction" in json.loads(text) for text in progress)
            body = {"jsonrpc": "2.0", "id": 1, "method": "net_version", "params": []}
            answer = httpx.post(f"{ready['mainnet']}/{key}", json=body).json()
            assert answer["result"] == "30"
            process.send_signal(signal.SIGINT)
            assert process.wait(30) == 0
        finally:
            process.kill()


def test_port_in_use_exits_1_with_a_message() -> None:
    """A taken port is reported on stderr with exit status 1, not a traceback."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = str(taken.getsockname()[1])
        result = subprocess.run(
            devnet_command("--network", "test", "--testnet-port", port, "--key", "k"),
            capture_output=True,
            text=True,
            cwd=REPO,
            timeout=280,
        )
    assert result.returncode == 1
    assert "explorer devnet:" in result.stderr
    assert "Traceback" not in result.stderr


def test_bad_arguments_exit_2() -> None:
    """The argument parser rejects unknown networks and negative quotas."""
    for args in (["--network", "moon"], ["--quota", "-1"], ["--block-time", "-2"]):
        result = subprocess.run(devnet_command(*args), capture_output=True, cwd=REPO, timeout=60)
        assert result.returncode == 2, args


def test_verbose_access_log_redacts_the_key() -> None:
    """--verbose logs each request with the key redacted, never in full."""
    key = "verbose-key-0123456789abcdef"
    args = ("--network", "test", "--testnet-port", "0", "--key", key, "--verbose")
    with subprocess.Popen(
        devnet_command(*args), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=REPO
    ) as process:
        try:
            ready = json.loads(read_until_ready(process)[-1].removeprefix("READY "))
            body = {"jsonrpc": "2.0", "id": 1, "method": "eth_chainId", "params": []}
            assert httpx.post(f"{ready['testnet']}/v2/{key}", json=body).status_code == 200
            process.send_signal(signal.SIGINT)
            _, stderr = process.communicate(timeout=30)
        finally:
            process.kill()
    assert f"POST /v2/{key[:4]}… -> 200" in stderr
    assert key not in stderr


def test_stdin_eof_while_building_exits_at_once(tmp_path: Path) -> None:
    """A child whose parent goes away during a cold build does not finish the build first."""
    args = ("--network", "test", "--testnet-port", "0", "--key", "k", "--stop-on-stdin-eof")
    command = [*devnet_command(*args)[:4], "--cache-dir", str(tmp_path), *args]
    with subprocess.Popen(
        command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=REPO
    ) as process:
        assert process.stdout is not None
        assert process.stdin is not None
        assert process.stdout.readline().startswith(b"PROGRESS ")
        process.stdin.close()
        began = time.monotonic()
        assert process.wait(30) == 3
        assert time.monotonic() - began < 10
        assert process.stderr is not None
        assert b"stopped while loading" in process.stderr.read()


def test_prebuild_only_prepares_the_snapshot_and_exits() -> None:
    """Helper mode (used while another network builds): load or build, report, exit 0."""
    result = subprocess.run(
        devnet_command("--prebuild-only", "--network", "main"),
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=280,
    )
    assert result.returncode == 0, result.stderr
    progress = [json.loads(line.split(" ", 1)[1]) for line in result.stdout.splitlines()]
    assert progress
    assert {entry["network"] for entry in progress} == {"mainnet"}
    assert progress[-1]["fraction"] == 1.0
    assert "READY" not in result.stdout
