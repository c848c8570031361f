"""The data bundled in `explorer.resources` (signatures, known labels, token lists), read once."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from types import MappingProxyType
from typing import Any

from explorer.chain.hexutil import HexFormatError, parse_address

# The top-level resources/ directory is installed as this package (pyproject.toml), so editable
# installs, wheels and the PyInstaller build read it alike, with importlib.resources and no Qt.
PACKAGE = "explorer.resources"
SIGNATURES = "data/signatures.txt"
BUILT_SIGNATURES = "data/signatures-built.txt"  # explorer/devnet/signature_list.py writes it
LABELS = "data/labels.json"
TOKENS = "data/tokens.json"


class BundledDataError(ValueError):
    """A bundled data file does not hold what the code expects."""


def read_bytes(path: str) -> bytes:
    """Return the bytes of a bundled file, path relative to `resources/` (`icons/…`)."""
    return resources.files(PACKAGE).joinpath(path).read_bytes()


def read_text(path: str) -> str:
    """Return the UTF-8 text of a bundled file."""
    return read_bytes(path).decode("utf-8")


def _read_json(path: str) -> dict[str, Any]:
    """Return a bundled JSON object."""
    value = json.loads(read_text(path))
    if not isinstance(value, dict):
        raise BundledDataError(f"{path}: expected a JSON object")
    return value


def _section(path: str, value: object, where: str) -> dict[str, Any]:
    """Return value as a JSON object, else say where in which file it is not one."""
    if not isinstance(value, dict):
        raise BundledDataError(f"{path}: {where} is not a JSON object")
    return value


def _chain_id(path: str, key: str) -> int:
    """Return a `by_chain_id` key as an int."""
    if not key.isdigit():
        raise BundledDataError(f"{path}: chain id {key!r} is not a decimal number")
    return int(key)


def _address(path: str, value: object) -> str:
    """Return an address in canonical form, else say which file holds a bad one."""
    try:
        return parse_address(value)
    except HexFormatError as error:
        raise BundledDataError(f"{path}: {error}") from None


def _labels(path: str, value: object, where: str) -> Mapping[str, str]:
    """Return an {address: label} object with canonical addresses, read-only."""
    labels: dict[str, str] = {}
    for address, label in _section(path, value, where).items():
        if not isinstance(label, str) or not label:
            raise BundledDataError(f"{path}: the label of {address} in {where} is not a text")
        labels[_address(path, address)] = label
    return MappingProxyType(labels)


@dataclass(frozen=True)
class KnownLabels:
    """Labels of well-known addresses: on every network, and per chain id."""

    every_network: Mapping[str, str]
    by_chain_id: Mapping[int, Mapping[str, str]]

    def get(self, canonical: str, chain_id: int | None) -> str | None:
        """Return the label of a canonical address on chain_id, the chain's own first."""
        own = self.by_chain_id.get(chain_id, {}) if chain_id is not None else {}
        return own.get(canonical) or self.every_network.get(canonical)


@cache
def signature_lines() -> tuple[str, ...]:
    """Return the lines of the bundled signature table: the hand-kept list, then the built one."""
    return tuple(read_text(SIGNATURES).splitlines() + read_text(BUILT_SIGNATURES).splitlines())


@cache
def known_labels() -> KnownLabels:
    """Return the bundled labels of well-known addresses (read once)."""
    data = _read_json(LABELS)
    chains = _section(LABELS, data.get("by_chain_id"), "by_chain_id")
    return KnownLabels(
        _labels(LABELS, data.get("every_network"), "every_network"),
        MappingProxyType(
            {
                _chain_id(LABELS, key): _labels(LABELS, value, f"by_chain_id.{key}")
                for key, value in chains.items()
            }
        ),
    )


@cache
def token_lists() -> Mapping[int, tuple[str, ...]]:
    """Return the bundled well-known token addresses per chain id (read once)."""
    chains = _section(TOKENS, _read_json(TOKENS).get("by_chain_id"), "by_chain_id")
    lists: dict[int, tuple[str, ...]] = {}
    for key, addresses in chains.items():
        if not isinstance(addresses, list):
            raise BundledDataError(f"{TOKENS}: by_chain_id.{key} is not a list")
        lists[_chain_id(TOKENS, key)] = tuple(_address(TOKENS, a) for a in addresses)
    return MappingProxyType(lists)
