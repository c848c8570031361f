"""Trim the ICU data Qt ships (libicudata, 32 MB) to the parts Qt's own calls can read.

Qt Core calls ICU for five things only (its imports from libicuuc/libicui18n say so):
character-set converters (QStringConverter, an XML or HTML document's declared encoding), case
mapping (QLocale::toUpper/toLower), collation (QCollator, QString::localeAwareCompare, the
file dialog's sorting), calendars and time-zone names (QTimeZone::displayName). Their data is
kept whole: the converter tables, the collation and time-zone-name trees, every locale's own
bundle, the supplemental and normalization data. Left out are the trees of ICU services that
none of those calls reaches: break iteration (brkitr), currency, unit, language and region
display names, number spell-out (rbnf), transliteration, and StringPrep profiles and spoof
checks (IDNA2003, uspoof). Qt formats numbers and dates and names languages from its own CLDR
tables. `check_icu.py` asks the bundle's Qt the same questions as the wheel's and compares.

The data is the symbol `icudt<N>_dat` of `libicudata.so.<N>`: it is cut out of the library,
trimmed with ICU's own `icupkg` (which refuses to drop an item a kept one depends on) and
linked into a library of the same soname exporting the same symbol. Linux only; without the
tools (`make package-tools` installs them) the library is shipped as it came.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

Entry = tuple[str, str, str]  # PyInstaller's (destination, source, kind)
UNUSED_TREES = ("brkitr", "curr", "lang", "rbnf", "region", "translit", "unit")
UNUSED_SUFFIXES = (".spp", ".cfu")  # StringPrep profiles (IDNA2003), confusables (uspoof)
TOOLS = ("icupkg", "gcc", "nm", "readelf")
LIBRARY = re.compile(r"libicudata\.so\.\d+")
SKIPPED = "skipped.txt"  # written beside the work when the data is shipped untrimmed


def trim_icu(binaries: list[Entry], workdir: Path) -> tuple[list[Entry], str]:
    """Return binaries with libicudata's data trimmed, and what was done (or why not)."""
    shutil.rmtree(workdir, ignore_errors=True)
    workdir.mkdir(parents=True)
    entry = next((e for e in binaries if LIBRARY.fullmatch(Path(e[0]).name)), None)
    missing = [tool for tool in TOOLS if shutil.which(tool) is None]
    reason = "no libicudata collected" if entry is None else ""
    reason = reason or (f"no {', '.join(missing)} (make package-tools)" if missing else "")
    if entry is None or reason:
        (workdir / SKIPPED).write_text(reason + "\n")
        return binaries, f"not trimmed: {reason}"
    try:
        library, before, after = build_trimmed(Path(entry[1]), workdir)
    except (subprocess.CalledProcessError, ValueError) as error:
        detail = getattr(error, "stderr", "") or ""
        (workdir / SKIPPED).write_text(f"{error} {detail}\n")
        return binaries, f"not trimmed: {error} {detail}"
    trimmed = [(e[0], str(library), e[2]) if e is entry else e for e in binaries]
    return trimmed, f"trimmed from {before / 1e6:.1f} MB to {after / 1e6:.1f} MB"


def build_trimmed(source: Path, workdir: Path) -> tuple[Path, int, int]:
    """Build the trimmed library in workdir; return it and the data's sizes before and after."""
    symbol, data = data_symbol(source)
    big_endian = data[8] == 1  # UDataInfo.isBigEndian, after the 4-byte header start
    package = f"{symbol.removesuffix('_dat')}{'b' if big_endian else 'l'}"  # icudt73l
    whole = workdir / "whole" / f"{package}.dat"
    whole.parent.mkdir()
    whole.write_bytes(data)
    items = run("icupkg", "-l", str(whole)).split()
    removed = workdir / "removed.txt"
    removed.write_text("".join(f"{item}\n" for item in items if unused(item)))
    trimmed = workdir / f"{package}.dat"  # icupkg names the items after the file's name
    run("icupkg", "-r", str(removed), str(whole), str(trimmed))
    assembly = workdir / "icudata.s"
    assembly.write_text(
        f"\t.section .rodata\n\t.globl {symbol}\n\t.type {symbol}, @object\n\t.balign 16\n"
        f'{symbol}:\n\t.incbin "{trimmed}"\n\t.size {symbol}, . - {symbol}\n'
        '\t.section .note.GNU-stack, "", @progbits\n'
    )
    library = workdir / "lib" / source.name
    library.parent.mkdir()
    run("gcc", "-shared", "-nostdlib", f"-Wl,-soname,{source.name}", "-o", str(library), assembly)
    if data_symbol(library) != (symbol, trimmed.read_bytes()):
        raise ValueError(f"{library} does not export {symbol} as trimmed")
    return library, len(data), trimmed.stat().st_size


def unused(item: str) -> bool:
    """Tell whether an item of the ICU package belongs to a service Qt never calls."""
    return item.split("/")[0] in UNUSED_TREES or item.endswith(UNUSED_SUFFIXES)


def data_symbol(library: Path) -> tuple[str, bytes]:
    """Return the name and bytes of the ICU data symbol (icudt<N>_dat) a library exports."""
    symbols = run("nm", "-D", "-S", "--defined-only", str(library))
    found = re.search(r"^([0-9a-f]+) ([0-9a-f]+) [RD] (icudt\d+_dat)$", symbols, re.M)
    if found is None:
        raise ValueError(f"{library} exports no icudt<N>_dat symbol")
    address, size = int(found[1], 16), int(found[2], 16)
    segments = run("readelf", "-l", "-W", str(library))
    for load in re.finditer(
        r"^\s*LOAD\s+0x([0-9a-f]+) 0x([0-9a-f]+) \S+ 0x([0-9a-f]+)", segments, re.M
    ):
        offset, start, length = (int(value, 16) for value in load.groups())
        if start <= address and address + size <= start + length:
            with library.open("rb") as handle:
                handle.seek(offset + address - start)
                return found[3], handle.read(size)
    raise ValueError(f"{found[3]} of {library} lies in no loaded segment")


def run(*command: str | Path) -> str:
    """Run a command; return its output (raise CalledProcessError on failure)."""
    done = subprocess.run([str(part) for part in command], capture_output=True, text=True)
    if done.returncode:
        raise subprocess.CalledProcessError(done.returncode, command[0], done.stdout, done.stderr)
    return done.stdout


if __name__ == "__main__":  # trim one library by hand: icu_trim.py LIBRARY WORKDIR
    result = trim_icu([(Path(sys.argv[1]).name, sys.argv[1], "BINARY")], Path(sys.argv[2]))
    print(result[1], result[0][0][1])
