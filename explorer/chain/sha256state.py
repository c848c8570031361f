"""SHA-256 that can resume from a midstate (FIPS 180-4); hashlib cannot do this."""

from __future__ import annotations

import struct

MASK = 0xFFFFFFFF
BLOCK_SIZE = 64

INITIAL_STATE: tuple[int, ...] = (
    0x6A09E667, 0xBB67AE85, 0x3C6EF372, 0xA54FF53A,
    0x510E527F, 0x9B05688C, 0x1F83D9AB, 0x5BE0CD19,
)  # fmt: skip

ROUND_CONSTANTS: tuple[int, ...] = (
    0x428A2F98, 0x71374491, 0xB5C0FBCF, 0xE9B5DBA5, 0x3956C25B, 0x59F111F1, 0x923F82A4, 0xAB1C5ED5,
    0xD807AA98, 0x12835B01, 0x243185BE, 0x550C7DC3, 0x72BE5D74, 0x80DEB1FE, 0x9BDC06A7, 0xC19BF174,
    0xE49B69C1, 0xEFBE4786, 0x0FC19DC6, 0x240CA1CC, 0x2DE92C6F, 0x4A7484AA, 0x5CB0A9DC, 0x76F988DA,
    0x983E5152, 0xA831C66D, 0xB00327C8, 0xBF597FC7, 0xC6E00BF3, 0xD5A79147, 0x06CA6351, 0x14292967,
    0x27B70A85, 0x2E1B2138, 0x4D2C6DFC, 0x53380D13, 0x650A7354, 0x766A0ABB, 0x81C2C92E, 0x92722C85,
    0xA2BFE8A1, 0xA81A664B, 0xC24B8B70, 0xC76C51A3, 0xD192E819, 0xD6990624, 0xF40E3585, 0x106AA070,
    0x19A4C116, 0x1E376C08, 0x2748774C, 0x34B0BCB5, 0x391C0CB3, 0x4ED8AA4A, 0x5B9CCA4F, 0x682E6FF3,
    0x748F82EE, 0x78A5636F, 0x84C87814, 0x8CC70208, 0x90BEFFFA, 0xA4506CEB, 0xBEF9A3F7, 0xC67178F2,
)  # fmt: skip


def _schedule(block: bytes) -> list[int]:
    """Expand one 64-byte block into the 64-word message schedule."""
    words = list(struct.unpack(">16L", block))
    append = words.append
    for t in range(16, 64):  # rotations inlined: this is the hot loop of the devnet's build
        w15, w2 = words[t - 15], words[t - 2]
        s0 = ((w15 >> 7) | (w15 << 25)) ^ ((w15 >> 18) | (w15 << 14)) ^ (w15 >> 3)
        s1 = ((w2 >> 17) | (w2 << 15)) ^ ((w2 >> 19) | (w2 << 13)) ^ (w2 >> 10)
        append((words[t - 16] + (s0 & MASK) + words[t - 7] + (s1 & MASK)) & MASK)
    return words


def compress(state: tuple[int, ...], block: bytes) -> tuple[int, ...]:
    """Apply the SHA-256 compression function to one 64-byte block."""
    words = _schedule(block)
    a, b, c, d, e, f, g, h = state
    for t in range(64):
        s1 = ((e >> 6) | (e << 26)) ^ ((e >> 11) | (e << 21)) ^ ((e >> 25) | (e << 7))
        t1 = h + (s1 & MASK) + ((e & f) ^ (~e & g)) + ROUND_CONSTANTS[t] + words[t]
        s0 = ((a >> 2) | (a << 30)) ^ ((a >> 13) | (a << 19)) ^ ((a >> 22) | (a << 10))
        t2 = (s0 & MASK) + ((a & b) ^ (a & c) ^ (b & c))
        h = g
        g = f
        f = e
        e = (d + t1) & MASK
        d = c
        c = b
        b = a
        a = (t1 + t2) & MASK
    return tuple((x + y) & MASK for x, y in zip(state, (a, b, c, d, e, f, g, h), strict=True))


def midstate(prefix: bytes) -> tuple[int, ...]:
    """Return the state after hashing prefix, whose length must be a multiple of 64."""
    if len(prefix) % BLOCK_SIZE:
        raise ValueError("a midstate covers whole 64-byte blocks")
    state = INITIAL_STATE
    for start in range(0, len(prefix), BLOCK_SIZE):
        state = compress(state, prefix[start : start + BLOCK_SIZE])
    return state


def resume(state: tuple[int, ...], hashed_length: int, tail: bytes) -> bytes:
    """Finish a SHA-256 begun elsewhere: hash tail and the padding for the full length."""
    bit_length = ((hashed_length + len(tail)) * 8) % (1 << 64)
    padding = b"\x80" + b"\x00" * ((55 - len(tail)) % BLOCK_SIZE)
    message = tail + padding + bit_length.to_bytes(8, "big")
    for start in range(0, len(message), BLOCK_SIZE):
        state = compress(state, message[start : start + BLOCK_SIZE])
    return state_to_bytes(state)


def state_to_bytes(state: tuple[int, ...]) -> bytes:
    """Serialize a state as eight big-endian words."""
    return struct.pack(">8L", *state)


def state_from_bytes(raw: bytes) -> tuple[int, ...]:
    """Parse eight big-endian words (32 bytes) into a state."""
    return tuple(struct.unpack(">8L", raw))
