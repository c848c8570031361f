"""Write resources/data/signatures-built.txt: the signatures of the ABIs the explorer ships.

`python -m explorer.devnet.signature_list` reads every ABI the repository holds (the Bridge's
bundled ABI, resources/data/bridge-abi.json; every contract the devnet deploys, compiled in
explorer/devnet/contracts/) and writes their functions and events, with parameter names, one a
line, named by where each came from. The hand-kept resources/data/signatures.txt (the ERC
standards and other well-known contracts) is read beside it (chain/bundled.py).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from explorer.chain.bundled import read_text
from explorer.devnet.contracts import ARTIFACT_FILES

OUTPUT = Path(__file__).resolve().parents[2] / "resources" / "data" / "signatures-built.txt"
HEADER = """\
# Built by `python -m explorer.devnet.signature_list` from the ABIs the repository ships: the
# Rootstock Bridge's (bridge-abi.json) and every contract of the devnet's seeded history
# (explorer/devnet/contracts/). Do not edit: edit the sources and run the command again.
"""


def _type(param: Mapping[str, Any]) -> str:
    """Return a parameter's type, tuples written out with named components."""
    kind = str(param.get("type", ""))
    if kind.startswith("tuple"):
        inner = ", ".join(_param(c) for c in param.get("components") or [])
        return f"({inner}){kind[len('tuple') :]}"
    return kind


def _param(param: Mapping[str, Any]) -> str:
    """Return `type [indexed] name`."""
    words = [_type(param), "indexed" if param.get("indexed") else "", str(param.get("name") or "")]
    return " ".join(word for word in words if word)


def abi_lines(abi: Iterable[Mapping[str, Any]]) -> list[str]:
    """Return the function and event lines of an ABI."""
    lines = []
    for entry in abi:
        kind = entry.get("type", "function")
        if kind in ("function", "event") and entry.get("name"):
            params = ", ".join(_param(p) for p in entry.get("inputs") or [])
            lines.append(f"{kind} {entry['name']}({params})")
    return lines


def build() -> str:
    """Return the file's text."""
    parts = [HEADER, "", "# Rootstock Bridge (0x0000000000000000000000000000000001000006)"]
    parts += abi_lines(json.loads(read_text("data/bridge-abi.json")))
    for path in ARTIFACT_FILES:
        contracts = json.loads(path.read_text(encoding="utf-8"))["contracts"]
        for name in sorted(contracts):
            if lines := abi_lines(contracts[name]["abi"]):
                parts += ["", f"# devnet: {name}", *lines]
    return "\n".join(parts) + "\n"


def main() -> int:
    """Write the file; with --check, say whether it is up to date instead."""
    text = build()
    if "--check" in sys.argv[1:]:
        return 0 if OUTPUT.read_text(encoding="utf-8") == text else 1
    OUTPUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUTPUT}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
