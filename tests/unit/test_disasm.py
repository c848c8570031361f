"""The pure EVM disassembler: Berlin opcodes, PUSH data, truncation, unknown bytes."""

from __future__ import annotations

from eth.vm.forks.berlin.opcodes import BERLIN_OPCODES
from hypothesis import given
from hypothesis import strategies as st

from explorer.chain.evm_disasm import OPCODES, disassemble, listing, push_size


def test_table_matches_py_evm_berlin() -> None:
    """Every opcode py-evm defines for Berlin has the same mnemonic; 0xFE is INVALID."""
    independent = {code: op.mnemonic for code, op in BERLIN_OPCODES.items()}
    assert {code: OPCODES[code] for code in independent} == independent
    assert set(OPCODES) - set(independent) == {0xFE}
    assert 0x5F not in OPCODES  # PUSH0 came after Berlin


def test_solidity_prologue() -> None:
    """The usual `PUSH1 0x80 PUSH1 0x40 MSTORE` prologue."""
    code = bytes.fromhex("6080604052348015600f57600080fd5b")
    texts = [i.text for i in disassemble(code)]
    assert texts[:5] == ["PUSH1 0x80", "PUSH1 0x40", "MSTORE", "CALLVALUE", "DUP1"]
    assert texts[-1] == "JUMPDEST"
    assert [i.offset for i in disassemble(code)][:3] == [0, 2, 4]


def test_push32_and_truncated_push() -> None:
    """PUSH32 keeps 32 bytes; a PUSH cut short by the end of code is marked truncated."""
    word = bytes(range(32))
    (push,) = disassemble(bytes([0x7F]) + word)
    assert push.name == "PUSH32"
    assert push.data == word
    assert not push.truncated
    (cut,) = disassemble(bytes.fromhex("61ab"))
    assert cut.truncated
    assert cut.data == b"\xab"
    assert cut.text == "PUSH2 0xab (truncated)"


def test_unknown_bytes_and_listing() -> None:
    """Bytes outside Berlin show as INVALID(0x..); the listing has offsets in hex."""
    instructions = disassemble(bytes.fromhex("5f0c00"))
    assert [i.name for i in instructions] == ["INVALID(0x5f)", "INVALID(0x0c)", "STOP"]
    assert listing(bytes.fromhex("600100"), limit=1) == "000000  PUSH1 0x01"


@given(st.binary(max_size=300))
def test_instructions_cover_the_code_exactly(code: bytes) -> None:
    """Offsets are contiguous and re-encoding the instructions gives the code back."""
    rebuilt = b""
    for instruction in disassemble(code):
        assert instruction.offset == len(rebuilt)
        assert len(instruction.data) <= push_size(instruction.opcode)
        rebuilt += bytes([instruction.opcode]) + instruction.data
    assert rebuilt == code
