"""Bitcoin addresses: Base58Check and bech32/bech32m forms, output scripts and their kinds."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

import base58
import bech32
from Crypto.Hash import RIPEMD160

BECH32M_CONSTANT = 0x2BC830A3  # BIP 350: the checksum constant of witness versions 1 to 16
OP_0, OP_1, OP_16 = 0x00, 0x51, 0x60
OP_RETURN, OP_DUP, OP_HASH160, OP_EQUAL, OP_EQUALVERIFY, OP_CHECKSIG = (
    0x6A,
    0x76,
    0xA9,
    0x87,
    0x88,
    0xAC,
)
SATOSHIS_PER_BTC = 100_000_000
MAX_SATOSHIS = 21_000_000 * SATOSHIS_PER_BTC


@dataclass(frozen=True)
class BtcNetwork:
    """A Bitcoin network's address prefixes: Base58Check versions and the bech32 part."""

    name: str
    p2pkh: int
    p2sh: int
    hrp: str
    explorer_kind: str  # "main" or "test": which Bitcoin explorer shows it


BTC_MAIN = BtcNetwork("Bitcoin mainnet", 0x00, 0x05, "bc", "main")
BTC_TEST = BtcNetwork("Bitcoin testnet", 0x6F, 0xC4, "tb", "test")
BTC_REGTEST = BtcNetwork("Bitcoin regtest", 0x6F, 0xC4, "bcrt", "test")
BTC_NETWORKS = (BTC_MAIN, BTC_TEST, BTC_REGTEST)


@dataclass(frozen=True)
class BtcAddress:
    """A parsed address: its network, kind (P2PKH, P2SH, P2WPKH, P2WSH, P2TR…) and payload."""

    network: BtcNetwork
    kind: str
    payload: bytes
    text: str


def hash160(data: bytes) -> bytes:
    """Return RIPEMD-160 of SHA-256 (the hash in P2PKH and P2SH addresses)."""
    return bytes(RIPEMD160.new(hashlib.sha256(data).digest()).digest())


def btc_text(satoshis: int) -> str:
    """Return an amount in BTC with all eight decimals, e.g. `0.00500000 BTC`."""
    sign = "−" if satoshis < 0 else ""
    whole, fraction = divmod(abs(satoshis), SATOSHIS_PER_BTC)
    return f"{sign}{whole:,}.{fraction:08d} BTC"


def base58_address(version: int, payload: bytes) -> str:
    """Return a Base58Check address of a version byte and a 20-byte hash."""
    return str(base58.b58encode_check(bytes([version]) + payload).decode("ascii"))


def p2pkh_address(pubkey_hash: bytes, network: BtcNetwork) -> str:
    """Return the P2PKH address of a public key hash."""
    return base58_address(network.p2pkh, pubkey_hash)


def p2sh_address(script_hash: bytes, network: BtcNetwork) -> str:
    """Return the P2SH address of a script hash."""
    return base58_address(network.p2sh, script_hash)


def _bech32m(hrp: str, version: int, program: bytes) -> str:
    """Encode a witness program of version 1-16 with the bech32m checksum (BIP 350)."""
    data = [version, *(bech32.convertbits(program, 8, 5) or [])]
    polymod = bech32.bech32_polymod(bech32.bech32_hrp_expand(hrp) + data + [0] * 6)
    checksum = [((polymod ^ BECH32M_CONSTANT) >> 5 * (5 - i)) & 31 for i in range(6)]
    return hrp + "1" + "".join(bech32.CHARSET[d] for d in data + checksum)


def segwit_address(version: int, program: bytes, network: BtcNetwork) -> str | None:
    """Return the bech32 (v0) or bech32m (v1+) address of a witness program."""
    if version == 0:
        encoded = bech32.encode(network.hrp, 0, program)
        return str(encoded) if encoded else None
    return _bech32m(network.hrp, version, program)


def witness_program(script: bytes) -> tuple[int, bytes] | None:
    """Return (version, program) of a witness output script (BIP 141), else None."""
    if len(script) < 4 or len(script) > 42 or script[1] != len(script) - 2:
        return None
    if script[0] == OP_0:
        return 0, script[2:]
    if OP_1 <= script[0] <= OP_16:
        return script[0] - OP_1 + 1, script[2:]
    return None


def script_kind(script: bytes) -> str:
    """Return the standard kind of an output script, or "non-standard"."""
    if (
        len(script) == 25
        and script[:3] == bytes([OP_DUP, OP_HASH160, 20])
        and script[23:] == bytes([OP_EQUALVERIFY, OP_CHECKSIG])
    ):
        return "P2PKH"
    if len(script) == 23 and script[:2] == bytes([OP_HASH160, 20]) and script[22] == OP_EQUAL:
        return "P2SH"
    if script[:1] == bytes([OP_RETURN]):
        return "OP_RETURN"
    program = witness_program(script)
    if program is not None:
        version, data = program
        names = {(0, 20): "P2WPKH", (0, 32): "P2WSH", (1, 32): "P2TR"}
        return names.get((version, len(data)), f"witness v{version}")
    if len(script) in (35, 67) and script[0] == len(script) - 2 and script[-1] == OP_CHECKSIG:
        return "P2PK"
    return "non-standard"


def script_address(script: bytes, network: BtcNetwork) -> str | None:
    """Return the address an output script pays to on network, or None (OP_RETURN, P2PK…)."""
    kind = script_kind(script)
    if kind == "P2PKH":
        return p2pkh_address(script[3:23], network)
    if kind == "P2SH":
        return p2sh_address(script[2:22], network)
    program = witness_program(script)
    if program is not None:
        return segwit_address(program[0], program[1], network)
    return None


def p2pkh_script(pubkey_hash: bytes) -> bytes:
    """Return the output script paying to a public key hash."""
    return bytes([OP_DUP, OP_HASH160, 20]) + pubkey_hash + bytes([OP_EQUALVERIFY, OP_CHECKSIG])


def p2sh_script(script_hash: bytes) -> bytes:
    """Return the output script paying to a script hash."""
    return bytes([OP_HASH160, 20]) + script_hash + bytes([OP_EQUAL])


def address_script(address: BtcAddress) -> bytes:
    """Return the output script that pays to a parsed address."""
    if address.kind == "P2PKH":
        return p2pkh_script(address.payload)
    if address.kind == "P2SH":
        return p2sh_script(address.payload)
    version = {"P2WPKH": 0, "P2WSH": 0, "P2TR": 1}[address.kind]
    return bytes([OP_0 if version == 0 else OP_1 + version - 1, len(address.payload)]) + (
        address.payload
    )


def op_return_data(script: bytes) -> bytes | None:
    """Return the data pushed by an OP_RETURN output script (one push), or None."""
    if len(script) < 2 or script[0] != OP_RETURN:
        return None
    size, start = script[1], 2
    if size == 0x4C and len(script) >= 3:  # OP_PUSHDATA1
        size, start = script[2], 3
    data = script[start : start + size]
    return data if len(data) == size and start + size == len(script) else None


def _base58(text: str) -> BtcAddress | None:
    """Parse a Base58Check address of a known network."""
    try:
        raw = base58.b58decode_check(text)
    except ValueError:
        return None
    if len(raw) != 21:
        return None
    for network in (BTC_MAIN, BTC_TEST):
        if raw[0] in (network.p2pkh, network.p2sh):
            kind = "P2PKH" if raw[0] == network.p2pkh else "P2SH"
            return BtcAddress(network, kind, raw[1:], text)
    return None


def _segwit(text: str) -> BtcAddress | None:
    """Parse a bech32 or bech32m address of a known network."""
    lowered = text.lower()
    for network in BTC_NETWORKS:
        if not lowered.startswith(network.hrp + "1"):
            continue
        version, program = bech32.decode(network.hrp, lowered)
        if version is not None and program is not None:
            data = bytes(program)
            script = bytes([OP_0 if version == 0 else OP_1 + version - 1, len(data)]) + data
            return BtcAddress(network, script_kind(script), data, text)
        if _bech32m_checks(lowered, network.hrp):
            decoded = _bech32m_program(lowered, network.hrp)
            if decoded is not None:
                script = bytes([OP_1 + decoded[0] - 1, len(decoded[1])]) + decoded[1]
                return BtcAddress(network, script_kind(script), decoded[1], text)
    return None


def _bech32m_checks(text: str, hrp: str) -> bool:
    """Tell whether a lowercase address has a valid bech32m checksum for hrp."""
    data = [bech32.CHARSET.find(c) for c in text[len(hrp) + 1 :]]
    if len(data) < 7 or -1 in data:
        return False
    return bool(bech32.bech32_polymod(bech32.bech32_hrp_expand(hrp) + data) == BECH32M_CONSTANT)


def _bech32m_program(text: str, hrp: str) -> tuple[int, bytes] | None:
    """Return (version, program) of a bech32m address whose checksum was checked."""
    data = [bech32.CHARSET.find(c) for c in text[len(hrp) + 1 : -6]]
    program = bech32.convertbits(data[1:], 5, 8, False)
    if not data or not 1 <= data[0] <= 16 or program is None or not 2 <= len(program) <= 40:
        return None
    return data[0], bytes(program)


def parse_btc_address(text: str) -> BtcAddress | None:
    """Parse a Bitcoin address of mainnet, testnet or regtest; None when it is not one."""
    text = text.strip()
    if not text or not text.isascii() or len(text) > 90:
        return None
    return _base58(text) or _segwit(text)
