"""Deterministic devnet accounts: fixed private keys derived from fixed seeds."""

from __future__ import annotations

from dataclasses import dataclass

from eth_hash.auto import keccak
from eth_keys.datatypes import PrivateKey


@dataclass(frozen=True)
class DevAccount:
    """A devnet account: a label, its private key (a devnet key, never a real one), address."""

    label: str
    private_key: bytes
    address: bytes

    @property
    def address_hex(self) -> str:
        """The address as canonical lowercase hex."""
        return "0x" + self.address.hex()


def derive_account(label: str) -> DevAccount:
    """Return the account whose private key is keccak of `explorer-devnet:<label>`."""
    secret = keccak(f"explorer-devnet:{label}".encode())
    address = PrivateKey(secret).public_key.to_canonical_address()
    return DevAccount(label=label, private_key=secret, address=address)


def derive_accounts(prefix: str, count: int) -> tuple[DevAccount, ...]:
    """Derive count accounts labelled `<prefix>-<i>`."""
    return tuple(derive_account(f"{prefix}-{i}") for i in range(count))


def funded_accounts(users: int) -> tuple[DevAccount, ...]:
    """Return the accounts the genesis funds: the deployer, then `users` users (history.py)."""
    return (derive_account("deployer"), *derive_accounts("user", users))
