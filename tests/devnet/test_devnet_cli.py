"""`explorer devnet` as a user runs it: generated key, URLs, READY, ports, exit codes, accounts.

Without --json-lines it prints sentences only; with it, stdout holds only `TAG {json}` lines.
"""

from __future__ import annotations

import json
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

from explorer.cli.devnet import build_parser, prebuild_flags
from tests.helpers.devnet import Devnet, devnet_cache_dir

REPO = Path(__file__).resolve().parents[2]
ACCOUNT_ROW = re.compile(r"^\s*\d+\s+0x[0-9a-f]{40}\s+0x[0-9a-f]{64}$")


def devnet_command(*args: str) -> list[str]:
    """`python -m explorer devnet ARGS` with the shared cache dir."""
    cache = ["--cache-dir", str(devnet_cache_dir())]
    return [sys.executable, "-m", "explorer", "devnet", *cache, *args]


def read_until(process: subprocess.Popen[str], last: str) -> list[str]:
    """Lines of stdout up to and including the first that starts with `last`."""
    assert process.stdout is not None
    lines = []
    for line in process.stdout:
        lines.append(line.rstrip("\n"))
        if line.startswith(last):
            return lines
    raise AssertionError(f"no {last!r} line; got {lines}")


def read_until_ready(process: subprocess.Popen[str]) -> list[str]:
    """Lines of stdout up to and including the READY line (--json-lines)."""
    return read_until(process, "READY ")


def net_version(url: str) -> str:
    """Ask a devnet URL its net_version."""
    body = {"jsonrpc": "2.0", "id": 1, "method": "net_version", "params": []}
    answer: str = httpx.post(url, json=body).json()["result"]
    return answer


def test_sentences_only_generated_key_urls_and_sigint() -> None:
    """Without --key a random key is printed, the URLs carry it, SIGINT exits 0; no JSON."""
    with subprocess.Popen(
        devnet_command("--network", "main", "--mainnet-port", "0"),
        stdout=subprocess.PIPE,
        text=True,
        cwd=REPO,
    ) as process:
        try:
            lines = read_until(process, "Ready.")
            key = next(line for line in lines if "generated API key" in line).split()[-1]
            assert len(key) >= 32
            served = next(line for line in lines if "mainnet (chain id 30): " in line)
            url = served.split(": ", 1)[1]
            assert url.startswith("http://127.0.0.1:")
            assert url.endswith(f"/{key}")
            assert not [line for line in lines if line.startswith(("PROGRESS", "READY", "{"))]
            assert any("--accounts" in line for line in lines)
            assert net_version(url) == "30"
            process.send_signal(signal.SIGINT)
            assert process.wait(30) == 0
        finally:
            process.kill()


def test_json_lines_on_stdout_and_sentences_on_stderr() -> None:
    """--json-lines: every stdout line is `TAG {json}`; the generated key is said on stderr."""
    with subprocess.Popen(
        devnet_command("--network", "main", "--mainnet-port", "0", "--json-lines"),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=REPO,
    ) as process:
        try:
            lines = read_until_ready(process)
            tags = {line.split(" ", 1)[0] for line in lines}
            assert tags <= {"PROGRESS", "READY"}
            payloads = [json.loads(line.split(" ", 1)[1]) for line in lines]
            assert all("fraction" in entry for entry in payloads[:-1])
            ready = payloads[-1]
            assert list(ready) == ["mainnet"]
            process.send_signal(signal.SIGINT)
            _, stderr = process.communicate(timeout=30)
            assert process.returncode == 0
        finally:
            process.kill()
    key = next(line for line in stderr.splitlines() if "generated API key" in line).split()[-1]
    assert f"mainnet (chain id 30): {ready['mainnet']}/{key}" in stderr


def test_accounts_lists_the_funded_accounts_and_their_public_keys(
    devnet: Devnet,
) -> None:
    """The accounts and keys are those the seeded genesis funds, under a warning; then exit."""
    result = subprocess.run(
        devnet_command("--accounts"), capture_output=True, text=True, cwd=REPO, timeout=60
    )
    assert result.returncode == 0, result.stderr
    assert "WARNING: these private keys are public" in result.stdout
    rows = [line.split() for line in result.stdout.splitlines() if ACCOUNT_ROW.match(line)]
    manifest = devnet.manifest()
    assert [row[1] for row in rows] == list(manifest["accounts"])
    assert [row[2] for row in rows] == list(manifest["private_keys"])
    machine = subprocess.run(
        devnet_command("--accounts", "--json-lines"),
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=60,
    )
    tag, payload = machine.stdout.strip().split(" ", 1)
    assert tag == "ACCOUNTS"
    assert [entry["address"] for entry in json.loads(payload)] == list(manifest["accounts"])
    assert "WARNING" in machine.stderr


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
    """--verbose logs each request with the key redacted, no part of it (the URL is on stdout)."""
    key = "verbose-key-0123456789abcdef"
    args = ("--network", "test", "--testnet-port", "0", "--key", key, "--verbose")
    with subprocess.Popen(
        devnet_command(*args), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=REPO
    ) as process:
        try:
            lines = read_until(process, "Ready.")
            served = next(line for line in lines if "testnet (chain id 31): " in line)
            base = served.split(": ", 1)[1].removesuffix(f"/{key}")
            body = {"jsonrpc": "2.0", "id": 1, "method": "eth_chainId", "params": []}
            assert httpx.post(f"{base}/v2/{key}", json=body).status_code == 200
            process.send_signal(signal.SIGINT)
            _, stderr = process.communicate(timeout=30)
        finally:
            process.kill()
    assert "POST /v2/<key> -> 200" in stderr
    assert key[:4] not in stderr  # logs keep no part of a key (issue 29 item 8)


def test_stdin_eof_while_building_exits_at_once(tmp_path: Path) -> None:
    """A child whose parent goes away during a cold build does not finish the build first.

    With --whole-history-first: by default the shipped newest blocks are served at once.
    """
    args = ["--network", "main", "--mainnet-port", "0", "--key", "k", "--stop-on-stdin-eof"]
    args += ["--json-lines", "--whole-history-first"]
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
        devnet_command("--prebuild-only", "--network", "main", "--json-lines"),
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


def test_the_prebuild_helper_reads_the_folders_its_devnet_reads(tmp_path: Path) -> None:
    """A devnet on a throwaway cache that also reads the shared one: so does its helper.

    Else the helper builds the other network's whole history again (minutes), and the devnet
    waits for it before it serves (the screenshot tour timed out so on a busy machine).
    """
    empty = tmp_path / "throwaway-cache"
    args = build_parser().parse_args(
        ["--network", "both", "--cache-dir", str(empty), "--also-read", str(devnet_cache_dir())]
    )
    flags = prebuild_flags("mainnet", args)
    with subprocess.Popen(  # its stdin open, as its devnet keeps it: EOF stops it
        [sys.executable, "-m", "explorer", "devnet", *flags, "--json-lines"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=REPO,
    ) as helper:
        assert helper.wait(280) == 0, helper.stderr.read() if helper.stderr else ""
        output = helper.stdout.read() if helper.stdout else ""
    stages = [json.loads(line.split(" ", 1)[1])["stage"] for line in output.splitlines()]
    assert stages == ["loaded the snapshot"]  # nothing built
    assert not empty.exists() or not any(empty.iterdir())
