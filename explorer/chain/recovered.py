"""A contract's functions recovered from its runtime code (evmole), named from signature lists.

evmole finds the selectors a contract's dispatcher answers, the argument types its code reads
and each function's state mutability. Names come from a signature table (the bundled list,
and the user's own); a name whose argument types disagree with what the code reads is still
shown, marked, since the code's reading is a guess where types are wider than it can see.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

import evmole

from explorer.chain.abi_input import AbiFunction, AbiParam
from explorer.chain.signatures import Signature, SignatureTable, bundled_table

#: Runtime code is at most 24,576 bytes on Rootstock (EIP-170); more is refused, not analysed.
MAX_CODE = 65_536
MUTABILITIES = ("pure", "view", "payable", "nonpayable")


@dataclass(frozen=True)
class RecoveredFunction:
    """One function the code answers: selector, argument types read, mutability, known names."""

    selector: bytes
    arguments: tuple[str, ...]
    mutability: str  # one of MUTABILITIES
    names: tuple[Signature, ...] = ()

    @property
    def selector_hex(self) -> str:
        """Return the selector as 0x-hex."""
        return "0x" + self.selector.hex()

    @property
    def name(self) -> Signature | None:
        """Return the best name: one whose types match the code's reading, else the first."""
        for signature in self.names:
            if self.types_agree(signature):
                return signature
        return self.names[0] if self.names else None

    def types_agree(self, signature: Signature) -> bool:
        """Tell whether a named signature's argument types are the ones the code reads."""
        return tuple(p.type for p in signature.params) == self.arguments

    @property
    def is_read(self) -> bool:
        """Tell whether the function only reads (view or pure)."""
        return self.mutability in ("view", "pure")

    @property
    def text(self) -> str:
        """Return the function as a line: its name or selector, and its argument types."""
        named = self.name
        if named is not None:
            return named.text
        return f"{self.selector_hex}({', '.join(self.arguments)})"

    def abi_function(self) -> AbiFunction:
        """Return the function as an ABI function (outputs unknown) for the read tool."""
        named = self.name
        if named is not None:
            params = tuple(AbiParam(p.name, p.type) for p in named.params)
            return _SelectedFunction(named.name, params, (), self.mutability, self.selector)
        inputs = tuple(AbiParam(f"arg{i}", t) for i, t in enumerate(self.arguments))
        return _SelectedFunction(self.selector_hex, inputs, (), self.mutability, self.selector)


@dataclass(frozen=True)
class _SelectedFunction(AbiFunction):
    """An ABI function whose selector is known rather than computed from its name."""

    known_selector: bytes = b""

    @property
    def selector(self) -> bytes:
        """Return the selector the code answers."""
        return self.known_selector


class RecoveryError(ValueError):
    """The code cannot be analysed (too long)."""


def _arguments(text: str) -> tuple[str, ...]:
    """Split evmole's `type,type` text at top-level commas."""
    parts, depth, start = [], 0, 0
    for index, char in enumerate(text):
        depth += {"(": 1, ")": -1}.get(char, 0)
        if char == "," and depth == 0:
            parts.append(text[start:index])
            start = index + 1
    return (*parts, text[start:]) if text else ()


def analyse_code(code: bytes) -> tuple[RecoveredFunction, ...]:
    """Return the functions runtime code answers, unnamed (evmole: the costly part)."""
    if len(code) > MAX_CODE:
        raise RecoveryError(f"the code is {len(code):,} bytes, more than {MAX_CODE:,}")
    if not code:
        return ()
    info = evmole.contract_info(bytes(code), selectors=True, arguments=True, state_mutability=True)
    functions = []
    for found in info.functions or ():
        mutability = found.state_mutability if found.state_mutability in MUTABILITIES else ""
        arguments = _arguments(found.arguments or "")
        functions.append(
            RecoveredFunction(bytes.fromhex(found.selector), arguments, mutability or "nonpayable")
        )
    return tuple(functions)


def name_functions(
    functions: Iterable[RecoveredFunction], tables: Iterable[SignatureTable] = ()
) -> tuple[RecoveredFunction, ...]:
    """Return the functions named from the tables, then the bundled list, sorted by name."""
    lookups = (*tables, bundled_table())
    named = [
        replace(f, names=tuple(s for t in lookups for s in t.functions.get(f.selector, ())))
        for f in functions
    ]
    return tuple(sorted(named, key=lambda f: (f.text.lower(), f.selector)))


def recover_functions(
    code: bytes, tables: Iterable[SignatureTable] = ()
) -> tuple[RecoveredFunction, ...]:
    """Return the functions runtime code answers, named from the tables and the bundled list."""
    return name_functions(analyse_code(code), tables)
