"""What a contract's code says by itself: CBOR metadata, clones, recovered functions, names."""

from __future__ import annotations

import json
from typing import Any

import cbor2
from hypothesis import given
from hypothesis import strategies as st

from explorer.chain.abi_input import parse_abi
from explorer.chain.code_metadata import MAX_CBOR, read_metadata, strip_metadata
from explorer.chain.minimal_proxy import minimal_proxy
from explorer.chain.recovered import MAX_CODE, RecoveryError, recover_functions
from explorer.chain.signature_file import parse_signature_list
from explorer.devnet import signature_list
from explorer.devnet.contracts import ARTIFACT_FILES, load_artifact

TARGET = "bebebebebebebebebebebebebebebebebebebebe"
STANDARD = "363d3d373d3d3d363d73" + TARGET + "5af43d82803e903d91602b57fd5bf3"
OPTIMISED = "3d3d3d3d363d3d37363d73" + TARGET + "5af43d3d93803e602a57fd5bf3"
META = "363d3d373d3d3d3d60368038038091363936013d73" + TARGET + "5af43d3d93803e603457fd5bf3"


def _contracts() -> dict[str, dict[str, Any]]:
    """Return every contract the devnet deploys, by name."""
    found: dict[str, dict[str, Any]] = {}
    for path in ARTIFACT_FILES:
        found.update(json.loads(path.read_text(encoding="utf-8"))["contracts"])
    return found


def test_solc_metadata_is_read() -> None:
    """The compiler and the metadata's IPFS hash come from the CBOR tail solc appends."""
    code = load_artifact("BoxV2").deployed_bytecode
    metadata = read_metadata(code)
    assert metadata is not None
    assert metadata.compiler == "solc 0.8.26"
    assert metadata.ipfs_text.startswith("Qm")
    assert len(metadata.ipfs_text) == 46
    assert metadata.source_hash_text == f"ipfs://{metadata.ipfs_text}"
    assert strip_metadata(code) == code[: -metadata.length]


def test_swarm_and_prerelease_metadata() -> None:
    """Older compilers' Swarm hashes and a pre-release version text are read too."""
    tail = cbor2.dumps({"bzzr0": bytes(range(32)), "solc": "0.5.0-nightly"})
    metadata = read_metadata(b"\x60\x80" + tail + len(tail).to_bytes(2, "big"))
    assert metadata is not None
    assert metadata.swarm_version == "bzzr0"
    assert metadata.compiler == "solc 0.5.0-nightly"
    assert metadata.source_hash_text.startswith("bzz-raw://000102")


def test_hostile_tails_are_no_metadata() -> None:
    """A length past the code, past the bound, a non-map or an unknown map is no metadata."""
    assert read_metadata(b"\x00\xff\xff") is None
    big = cbor2.dumps({"solc": b"\x00\x08\x1a", "x": bytes(MAX_CBOR)})
    assert read_metadata(big + len(big).to_bytes(2, "big")) is None  # beyond the bound
    for value in ([1, 2], {"other": 1}, {1: b"x"}, {"solc": b"\x00\x08"}):
        tail = cbor2.dumps(value)
        assert read_metadata(b"\x00" + tail + len(tail).to_bytes(2, "big")) is None
    nested = b"\x81" * 400 + b"\x00"  # deep arrays
    assert read_metadata(nested + len(nested).to_bytes(2, "big")) is None


@given(st.binary(max_size=700))
def test_any_code_reads_without_raising(code: bytes) -> None:
    """Whatever the code, reading its metadata never raises."""
    metadata = read_metadata(code)
    assert metadata is None or metadata.length <= len(code)


def test_clones_of_every_form_are_recognised() -> None:
    """The standard, vanity, 0age and MetaProxy forms name their implementation."""
    assert minimal_proxy(bytes.fromhex(STANDARD)).implementation == "0x" + TARGET  # type: ignore[union-attr]
    vanity = "363d3d373d3d3d363d72" + TARGET[2:] + "5af43d82803e903d91602a57fd5bf3"
    found = minimal_proxy(bytes.fromhex(vanity))
    assert found is not None
    assert found.implementation == "0x00" + TARGET[2:]
    assert "vanity" in found.variant
    assert "0age" in minimal_proxy(bytes.fromhex(OPTIMISED)).variant  # type: ignore[union-attr]
    meta = minimal_proxy(bytes.fromhex(META + "00" * 64))
    assert meta is not None
    assert meta.variant == "EIP-3448 MetaProxy"


def test_near_clones_are_refused() -> None:
    """A wrong jump target, a changed byte or data after a plain clone is not a clone."""
    code = bytes.fromhex(STANDARD)
    assert minimal_proxy(code[:-1] + b"\x00") is None
    assert minimal_proxy(code + b"\x00") is None
    wrong_jump = STANDARD.replace("602b57", "602c57")
    assert minimal_proxy(bytes.fromhex(wrong_jump)) is None
    assert minimal_proxy(load_artifact("BoxV1").deployed_bytecode) is None


def _alike(types: tuple[str, ...]) -> tuple[str, ...]:
    """Return types with those the code handles alike made one.

    A bytes32 or bool word reads as uint256, a string as bytes.
    """
    text = ",".join(types)
    for same, as_read in (("bytes32", "uint256"), ("bool", "uint256"), ("string", "bytes")):
        text = text.replace(same, as_read)
    return tuple(text.split(","))


def test_recovered_functions_match_every_devnet_abi() -> None:
    """Every external function of every devnet contract is found, with its mutability.

    Argument types are compared where evmole can tell them apart (it reads bytes32 as
    uint256, and some dynamic types as bytes); the counts are the issue's closing numbers.
    """
    functions = types_right = deployed = 0
    for name, contract in _contracts().items():
        code = bytes.fromhex(contract["deployedBytecode"][2:])
        if not code:
            # An interface (IBridge, IPayer, IToken: issue 28's inside stories) compiles to
            # no runtime code, so there is nothing to recover its functions from; every
            # contract with code is still checked (and counted below).
            continue
        deployed += 1
        found = {f.selector_hex: f for f in recover_functions(code)}
        for function in parse_abi(json.dumps(contract["abi"])):
            selector = "0x" + function.selector.hex()
            assert selector in found, f"{name}.{function.canonical} not recovered"
            functions += 1
            recovered = found[selector]
            assert recovered.is_read == function.is_view, f"{name}.{function.canonical}"
            expected = tuple(p.type for p in function.inputs)
            types_right += recovered.arguments == expected
            assert _alike(recovered.arguments) == _alike(expected), function.canonical
    assert deployed == 26  # the contracts with code: 7 plain, 8 inside stories, 11 proxies
    assert functions == 98  # every function of those contracts
    assert types_right >= 87  # the rest differ only where the code cannot tell (see _alike)


def test_recovered_functions_are_named_from_the_bundled_list() -> None:
    """The devnet's functions get their names (and parameter names) from the bundled list."""
    names = {f.text for f in recover_functions(load_artifact("BoxV2").deployed_bytecode)}
    assert "setLabel(string newLabel)" in names
    assert "increment()" in names


def test_oversized_code_is_refused() -> None:
    """Code longer than any contract can be is refused before analysis."""
    try:
        recover_functions(b"\x00" * (MAX_CODE + 1))
    except RecoveryError as error:
        assert "more than" in str(error)
    else:
        raise AssertionError("oversized code was analysed")


def test_user_signature_list_names_and_notes_bad_lines() -> None:
    """A user's list takes both forms; a bad line is noted, the others kept."""
    found = parse_signature_list("# mine\nstore(uint256)\nfunction poke(uint256 n)\nnot one(\n")
    assert found.count == 2
    assert found.problems
    assert found.problems[0].startswith("line 4")
    code = load_artifact("BoxV1").deployed_bytecode
    named = {f.text for f in recover_functions(code, (found.table,))}
    assert "store(uint256)" in named


def test_built_signature_list_is_up_to_date() -> None:
    """signatures-built.txt is what `python -m explorer.devnet.signature_list` writes now."""
    assert signature_list.OUTPUT.read_text(encoding="utf-8") == signature_list.build()
