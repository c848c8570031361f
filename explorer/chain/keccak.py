"""Keccak-256 as fast as this machine has it: safe-pysha3's C code, else eth-hash's backend.

Verifying a block hashes hundreds of trie nodes, transactions and receipts; eth-hash's default
backend (pycryptodome, through ctypes) costs several times more a call than the C extension.
Both compute the same Keccak-256 (Ethereum's and Rootstock's, not NIST SHA3-256).
"""

from __future__ import annotations

from collections.abc import Callable

try:
    from sha3 import keccak_256  # safe-pysha3

    def keccak(data: bytes) -> bytes:
        """Return the Keccak-256 digest of data."""
        return keccak_256(data).digest()  # type: ignore[no-any-return]

except ImportError:  # pragma: no cover - the pinned dependency is installed
    from eth_hash.auto import keccak as _slower

    keccak: Callable[[bytes], bytes] = _slower  # type: ignore[no-redef]
