"""A pure EVM disassembler over the Berlin opcode table; PUSH data is kept with its opcode."""

from __future__ import annotations

from dataclasses import dataclass

PUSH1 = 0x60
PUSH32 = 0x7F


def _berlin_table() -> dict[int, str]:
    """Return the Berlin hard fork's opcode names by byte value."""
    names: dict[int, str] = {
        0x00: "STOP", 0x01: "ADD", 0x02: "MUL", 0x03: "SUB", 0x04: "DIV", 0x05: "SDIV",
        0x06: "MOD", 0x07: "SMOD", 0x08: "ADDMOD", 0x09: "MULMOD", 0x0A: "EXP",
        0x0B: "SIGNEXTEND", 0x10: "LT", 0x11: "GT", 0x12: "SLT", 0x13: "SGT", 0x14: "EQ",
        0x15: "ISZERO", 0x16: "AND", 0x17: "OR", 0x18: "XOR", 0x19: "NOT", 0x1A: "BYTE",
        0x1B: "SHL", 0x1C: "SHR", 0x1D: "SAR", 0x20: "SHA3", 0x30: "ADDRESS",
        0x31: "BALANCE", 0x32: "ORIGIN", 0x33: "CALLER", 0x34: "CALLVALUE",
        0x35: "CALLDATALOAD", 0x36: "CALLDATASIZE", 0x37: "CALLDATACOPY", 0x38: "CODESIZE",
        0x39: "CODECOPY", 0x3A: "GASPRICE", 0x3B: "EXTCODESIZE", 0x3C: "EXTCODECOPY",
        0x3D: "RETURNDATASIZE", 0x3E: "RETURNDATACOPY", 0x3F: "EXTCODEHASH",
        0x40: "BLOCKHASH", 0x41: "COINBASE", 0x42: "TIMESTAMP", 0x43: "NUMBER",
        0x44: "DIFFICULTY", 0x45: "GASLIMIT", 0x46: "CHAINID", 0x47: "SELFBALANCE",
        0x50: "POP", 0x51: "MLOAD", 0x52: "MSTORE", 0x53: "MSTORE8", 0x54: "SLOAD",
        0x55: "SSTORE", 0x56: "JUMP", 0x57: "JUMPI", 0x58: "PC", 0x59: "MSIZE", 0x5A: "GAS",
        0x5B: "JUMPDEST", 0xF0: "CREATE", 0xF1: "CALL", 0xF2: "CALLCODE", 0xF3: "RETURN",
        0xF4: "DELEGATECALL", 0xF5: "CREATE2", 0xFA: "STATICCALL", 0xFD: "REVERT",
        0xFE: "INVALID", 0xFF: "SELFDESTRUCT",
    }  # fmt: skip
    names.update({PUSH1 + i: f"PUSH{i + 1}" for i in range(32)})
    names.update({0x80 + i: f"DUP{i + 1}" for i in range(16)})
    names.update({0x90 + i: f"SWAP{i + 1}" for i in range(16)})
    names.update({0xA0 + i: f"LOG{i}" for i in range(5)})
    return names


OPCODES: dict[int, str] = _berlin_table()


@dataclass(frozen=True)
class Instruction:
    """One decoded instruction: its offset, opcode byte, mnemonic and PUSH immediate data."""

    offset: int
    opcode: int
    name: str
    data: bytes = b""
    truncated: bool = False

    @property
    def text(self) -> str:
        """Return the instruction as assembly text, e.g. `PUSH1 0x80`."""
        if not self.data and not self.truncated:
            return self.name
        suffix = " (truncated)" if self.truncated else ""
        return f"{self.name} 0x{self.data.hex()}{suffix}"


def push_size(opcode: int) -> int:
    """Return how many immediate bytes an opcode takes (0 unless PUSH1..PUSH32)."""
    return opcode - PUSH1 + 1 if PUSH1 <= opcode <= PUSH32 else 0


def disassemble(code: bytes) -> list[Instruction]:
    """Decode bytecode into instructions; unknown bytes become `INVALID(0x..)`."""
    instructions: list[Instruction] = []
    offset = 0
    while offset < len(code):
        opcode = code[offset]
        name = OPCODES.get(opcode) or f"INVALID(0x{opcode:02x})"
        size = push_size(opcode)
        data = bytes(code[offset + 1 : offset + 1 + size])
        instructions.append(Instruction(offset, opcode, name, data, len(data) < size))
        offset += 1 + size
    return instructions


def listing(code: bytes, limit: int | None = None) -> str:
    """Return a text listing `offset  instruction`, one line each (at most limit lines)."""
    lines = [f"{i.offset:06x}  {i.text}" for i in disassemble(code)[:limit]]
    return "\n".join(lines)
