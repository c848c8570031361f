"""A self-signed certificate for 127.0.0.1, made with the openssl command (tests skip without)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest


def self_signed(directory: Path) -> tuple[Path, Path]:
    """Write a one-day certificate and key for 127.0.0.1; return (certificate, key)."""
    openssl = shutil.which("openssl")
    if openssl is None:
        pytest.skip("the openssl command is not installed")
    cert, key = directory / "cert.pem", directory / "key.pem"
    subprocess.run(
        [
            openssl,
            "req",
            "-x509",
            "-newkey",
            "ec",
            "-pkeyopt",
            "ec_paramgen_curve:prime256v1",
            "-nodes",
            "-days",
            "1",
            "-subj",
            "/CN=127.0.0.1",
            "-addext",
            "subjectAltName=IP:127.0.0.1",
            "-keyout",
            str(key),
            "-out",
            str(cert),
        ],
        check=True,
        capture_output=True,
    )
    return cert, key
