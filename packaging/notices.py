"""Put the licences into the built folder: the app's, the notices, and each bundled library's.

THIRD-PARTY-LICENSES/ lists every Python distribution whose code is in the folder (found from
PyInstaller's table of collected modules) with its version and licence, and holds the licence
files each one ships. Metadata of distributions whose code was left out (pydantic, the test
tools) is removed from the folder.
"""

from __future__ import annotations

import ast
import shutil
import sys
from email.parser import Parser
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
LICENSE_NAMES = ("LICEN", "COPYING", "NOTICE", "AUTHORS")


def collected_modules(toc: Path) -> set[str]:
    """Return the top-level names of the modules PyInstaller put in the archive."""
    _, entries = ast.literal_eval(toc.read_text())
    return {name.split(".")[0] for name, *_ in entries}


def top_level_names(dist_info: Path) -> set[str]:
    """Return a distribution's top-level import names."""
    listed = dist_info / "top_level.txt"
    if listed.exists():
        return set(listed.read_text().split())
    record = dist_info / "RECORD"
    names = {line.split("/")[0].split(",")[0] for line in record.read_text().splitlines()}
    return {name.removesuffix(".py").split(".")[0] for name in names if ".dist-info" not in name}


def licence(metadata: dict[str, str | list[str]]) -> str:
    """Return a distribution's licence as its metadata states it."""
    expression = metadata.get("License-Expression")
    if isinstance(expression, str) and expression:
        return expression
    classifiers = metadata.get("Classifier", [])
    named = [c.split("::")[-1].strip() for c in classifiers if c.startswith("License ::")]
    text = metadata.get("License")
    first_line = text.strip().splitlines()[0] if isinstance(text, str) and text.strip() else ""
    return ", ".join(named) or first_line or "see its licence files"


def read_metadata(dist_info: Path) -> dict[str, str | list[str]]:
    """Return the METADATA headers (Classifier as a list)."""
    message = Parser().parsestr((dist_info / "METADATA").read_text(errors="replace"))
    fields: dict[str, str | list[str]] = {k: v for k, v in message.items() if k != "Classifier"}
    fields["Classifier"] = message.get_all("Classifier") or []
    return fields


def main() -> None:
    """Write the notices into the folder given (argv[1]), reading the TOC at argv[2]."""
    folder, toc = Path(sys.argv[1]), Path(sys.argv[2])
    internal = folder / "_internal"
    modules = collected_modules(toc) | {path.name.split(".")[0] for path in internal.iterdir()}
    target = folder / "THIRD-PARTY-LICENSES"
    shutil.rmtree(target, ignore_errors=True)
    target.mkdir()
    shutil.copy(REPO / "LICENSE", folder / "LICENSE")
    shutil.copy(REPO / "resources" / "licenses" / "THIRD-PARTY-NOTICES.txt", folder)
    for text in ("LGPL-3.0.txt", "GPL-3.0.txt"):
        shutil.copy(REPO / "resources" / "licenses" / text, target / text)
    rows, dropped = [], []
    for dist_info in sorted(internal.glob("*.dist-info")):
        names = top_level_names(dist_info)
        fields = read_metadata(dist_info)
        name, version = str(fields.get("Name")), str(fields.get("Version"))
        if name == "explorer":
            continue
        if not names & modules:
            shutil.rmtree(dist_info)
            dropped.append(name)
            continue
        rows.append(f"{name:<28} {version:<18} {licence(fields)}")
        files = [
            p
            for p in dist_info.rglob("*")
            if p.is_file() and p.name.upper().startswith(LICENSE_NAMES)
        ]
        for path in files:
            destination = target / name / path.relative_to(dist_info)
            destination.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(path, destination)
    header = (
        "Python distributions in this package, their versions and licences.\n"
        "Each one's own licence files are in the folder of its name. Qt and PySide6 are under\n"
        "the LGPL-3.0 (LGPL-3.0.txt, GPL-3.0.txt); ../THIRD-PARTY-NOTICES.txt says how to\n"
        "replace the Qt libraries.\n\n"
    )
    (target / "README.txt").write_text(header + "\n".join(rows) + "\n")
    print(f"packaging: licences of {len(rows)} bundled distributions in {target}")
    if dropped:
        print(f"packaging: metadata of left-out distributions removed: {', '.join(dropped)}")


if __name__ == "__main__":
    main()
