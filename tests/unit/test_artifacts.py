"""Matching a project's build against a contract's code, as verifiers do, with nothing compiled."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from explorer.chain.artifacts import Match, match_code
from explorer.chain.code_metadata import read_metadata
from explorer.chain.sourcify import ipfs_multihash
from explorer.devnet.contracts import load_artifact
from explorer.services.artifact_files import match_set, read_folder

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
HARDHAT = FIXTURES / "hardhat-notary"
ARTIFACT = HARDHAT / "artifacts/contracts/Notary.sol/Notary.json"


def deployed_notary() -> bytes:
    """Return the Notary's code as its constructor leaves it: immutables written in."""
    found = read_folder(HARDHAT).contracts[0]
    code = bytearray(found.deployed)
    for number, (start, length) in enumerate(found.holes):
        code[start : start + length] = bytes([0xA0 + number]) * length
    return bytes(code)


def sourcify_release(tmp_path: Path) -> Path:
    """Lay out the Notary's Sourcify release: its metadata.json and sources/ beside it."""
    folder = tmp_path / "sourcify"
    (folder / "sources/contracts").mkdir(parents=True)
    shutil.copy(FIXTURES / "sourcify-notary/metadata.json", folder)
    shutil.copy(HARDHAT / "contracts/Notary.sol", folder / "sources/contracts")
    return folder


def copy_project(tmp_path: Path) -> Path:
    """Copy the Hardhat project to change it."""
    return Path(shutil.copytree(HARDHAT, tmp_path / "project"))


def test_hardhat_project_matches_exactly_with_immutables_filled() -> None:
    """The build info names the immutables; filled from the chain's code, every byte agrees."""
    found = read_folder(HARDHAT)
    assert [a.title for a in found.contracts] == ["contracts/Notary.sol:Notary"]
    assert len(found.contracts[0].holes) == 3  # clerk and fee (fee is read twice)
    matched = match_set(found, deployed_notary())
    assert matched is not None
    assert matched.match is Match.EXACT
    assert "Matches exactly: the artifact contracts/Notary.sol:Notary" in matched.text


def test_devnet_code_is_the_artifact_build() -> None:
    """The devnet deploys the very build the Hardhat project ships."""
    assert load_artifact("Notary").deployed_bytecode == read_folder(HARDHAT).contracts[0].deployed


def test_foundry_and_sourcify_forms_match(tmp_path: Path) -> None:
    """The same build as Foundry's out/ matches; the Sourcify metadata matches by its hash."""
    code = deployed_notary()
    foundry = match_set(read_folder(FIXTURES / "foundry-notary"), code)
    assert foundry is not None
    assert foundry.match is Match.EXACT
    sourcify = match_set(read_folder(sourcify_release(tmp_path)), code)
    assert sourcify is not None
    assert sourcify.match is Match.EXACT
    assert "1 source(s) checked" in sourcify.reason
    metadata = read_metadata(code)
    assert metadata is not None
    raw = (FIXTURES / "sourcify-notary/metadata.json").read_bytes()
    assert metadata.ipfs == ipfs_multihash(raw)


def test_a_changed_source_is_refused_by_sourcify(tmp_path: Path) -> None:
    """A source that differs from the hash the metadata lists is no match; none given, a note."""
    alone = match_set(read_folder(FIXTURES / "sourcify-notary"), deployed_notary())
    assert alone is not None
    assert "1 not given" in alone.reason
    folder = sourcify_release(tmp_path)
    source = folder / "sources/contracts/Notary.sol"
    source.write_text(source.read_text() + "// changed\n")
    assert match_set(read_folder(folder), deployed_notary()) is None


def test_metadata_only_difference_matches_except_metadata() -> None:
    """Another metadata hash (another path, comment or setting) matches except metadata."""
    artifact = read_folder(HARDHAT).contracts[0]
    code = bytearray(deployed_notary())
    code[-20] ^= 0xFF  # inside the IPFS hash of the CBOR tail
    result = match_code(artifact, bytes(code))
    assert result.match is Match.EXCEPT_METADATA


@pytest.mark.parametrize("offset", [1, 100, 500])
def test_a_one_byte_change_to_the_artifact_is_refused(tmp_path: Path, offset: int) -> None:
    """Changing one byte of the artifact's code (outside immutables and metadata) refuses it."""
    project = copy_project(tmp_path)
    for path in (project / "artifacts/build-info").glob("*.json"):
        data = json.loads(path.read_text())
        entry = data["output"]["contracts"]["contracts/Notary.sol"]["Notary"]
        text = entry["evm"]["deployedBytecode"]["object"]
        flipped = "%02x" % (int(text[2 * offset : 2 * offset + 2], 16) ^ 0x01)
        entry["evm"]["deployedBytecode"]["object"] = (
            text[: 2 * offset] + flipped + text[2 * offset + 2 :]
        )
        path.write_text(json.dumps(data))
    artifact = read_folder(project).contracts[0]
    result = match_code(artifact, deployed_notary())
    assert result.match is Match.NONE
    assert f"from byte {offset:,}" in result.reason
    assert match_set(read_folder(project), deployed_notary()) is None


def test_without_build_info_the_immutables_cannot_be_masked(tmp_path: Path) -> None:
    """A Hardhat artifact alone names no immutables: the constructor's values then differ."""
    project = copy_project(tmp_path)
    shutil.rmtree(project / "artifacts/build-info")
    result = match_code(read_folder(project).contracts[0], deployed_notary())
    assert result.match is Match.NONE


def test_bad_files_are_noted_not_fatal(tmp_path: Path) -> None:
    """A broken JSON file is listed as skipped; the good ones still match."""
    project = copy_project(tmp_path)
    (project / "artifacts/contracts/Broken.json").write_text("{not json")
    (project / "artifacts/contracts/Other.json").write_text('{"_format": "hh-sol-artifact-1"}')
    found = read_folder(project)
    assert any("Broken.json" in problem for problem in found.problems)
    assert match_set(found, deployed_notary()) is not None


def test_different_length_says_so() -> None:
    """Code of another length is refused with both lengths."""
    artifact = read_folder(HARDHAT).contracts[0]
    result = match_code(artifact, load_artifact("BoxV1").deployed_bytecode)
    assert result.match is Match.NONE
    assert "differs in length" in result.reason
