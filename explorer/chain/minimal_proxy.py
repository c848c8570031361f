"""EIP-1167 minimal proxies (clones) and their variants, recognised from the code alone.

A clone's whole runtime code is a fixed template around the implementation's address, so it
is recognised byte for byte: the standard form, the vanity form that pushes a shorter address
(leading zero bytes dropped), 0age's optimised form and EIP-3448's MetaProxy (metadata after).
"""

from __future__ import annotations

from dataclasses import dataclass

ADDRESS = 20
PUSH1 = 0x60
JUMPDEST = 0x5B


@dataclass(frozen=True)
class MinimalProxy:
    """A recognised clone: its variant and the address it delegates to (lowercase hex)."""

    variant: str
    implementation: str


@dataclass(frozen=True)
class _Template:
    """A clone's code: prefix, a PUSHn of the address, suffix with a JUMPI target to check."""

    variant: str
    prefix: bytes
    suffix: bytes
    jump_at: int  # where in the suffix the PUSH1 of the JUMPI target sits
    trailing: bool = False  # whether data may follow (a MetaProxy's metadata)


TEMPLATES = (
    _Template(
        "EIP-1167 minimal proxy",
        bytes.fromhex("363d3d373d3d3d363d"),
        bytes.fromhex("5af43d82803e903d91602b57fd5bf3"),
        9,
    ),
    _Template(
        "EIP-1167 minimal proxy (0age's optimised form)",
        bytes.fromhex("3d3d3d3d363d3d37363d"),
        bytes.fromhex("5af43d3d93803e602a57fd5bf3"),
        7,
    ),
    _Template(
        "EIP-3448 MetaProxy",
        bytes.fromhex("363d3d373d3d3d3d60368038038091363936013d"),
        bytes.fromhex("5af43d3d93803e603457fd5bf3"),
        7,
        trailing=True,
    ),
)


def _match(template: _Template, code: bytes) -> MinimalProxy | None:
    """Return the clone described by code when it follows the template."""
    prefix = template.prefix
    if not code.startswith(prefix) or len(code) <= len(prefix):
        return None
    push = code[len(prefix)] - PUSH1 + 1
    if not 1 <= push <= ADDRESS:
        return None
    start = len(prefix) + 1
    address, rest = code[start : start + push], code[start + push :]
    suffix = template.suffix
    if len(rest) < len(suffix) or (len(rest) != len(suffix) and not template.trailing):
        return None
    body, at = rest[: len(suffix)], template.jump_at
    target = body[at + 1]  # the JUMPI target moves with the PUSH's length
    if body[: at + 1] + body[at + 2 :] != suffix[: at + 1] + suffix[at + 2 :]:
        return None
    if code[target : target + 1] != bytes([JUMPDEST]):
        return None
    variant = template.variant
    if push < ADDRESS:
        variant += " (vanity: a shorter address push)"
    return MinimalProxy(variant, "0x" + address.rjust(ADDRESS, b"\0").hex())


def minimal_proxy(code: bytes) -> MinimalProxy | None:
    """Return the clone the code is, or None when it is not one."""
    if len(code) > 512:  # a MetaProxy's metadata is short; real contracts are not clones
        return None
    for template in TEMPLATES:
        if (found := _match(template, bytes(code))) is not None:
            return found
    return None
