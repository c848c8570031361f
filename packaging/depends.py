"""The .deb's Depends: the system libraries the bundled binaries and Qt plugins load, by package.

What the binaries are linked against (their ELF NEEDED entries, followed through the bundle)
and the bundle does not carry must come from the system. The display server's client libraries
that the Qt platform plugins load (the xcb family — libxcb-cursor among them, without which Qt
refuses to start on X11 — xkbcommon, X11) come from the system even when the build machine let
PyInstaller copy them: the .deb leaves them out and depends on Debian's packages instead. Each
library's package is the one dpkg says ships it on the build machine (a table where dpkg does
not know it); a library found in neither fails the build, so no dependency is ever forgotten.
"""

from __future__ import annotations

import re
import subprocess
from collections.abc import Iterable
from functools import cache
from pathlib import Path

#: Where dpkg does not know a library (not installed on the build machine): its package.
KNOWN_PACKAGES = {
    "libEGL.so.1": "libegl1",
    "libGL.so.1": "libgl1",
    "libwayland-client.so.0": "libwayland-client0",
    "libwayland-cursor.so.0": "libwayland-cursor0",
    "libwayland-egl.so.1": "libwayland-egl1",
    "libxcb.so.1": "libxcb1",
    "libxcb-cursor.so.0": "libxcb-cursor0",
    "libxcb-glx.so.0": "libxcb-glx0",
    "libxcb-icccm.so.4": "libxcb-icccm4",
    "libxcb-image.so.0": "libxcb-image0",
    "libxcb-keysyms.so.1": "libxcb-keysyms1",
    "libxcb-randr.so.0": "libxcb-randr0",
    "libxcb-render.so.0": "libxcb-render0",
    "libxcb-render-util.so.0": "libxcb-render-util0",
    "libxcb-shape.so.0": "libxcb-shape0",
    "libxcb-shm.so.0": "libxcb-shm0",
    "libxcb-sync.so.1": "libxcb-sync1",
    "libxcb-util.so.1": "libxcb-util1",
    "libxcb-xfixes.so.0": "libxcb-xfixes0",
    "libxcb-xkb.so.1": "libxcb-xkb1",
    "libfontconfig.so.1": "libfontconfig1",
    "libfreetype.so.6": "libfreetype6",
    "libX11.so.6": "libx11-6",
    "libX11-xcb.so.1": "libx11-xcb1",
    "libxkbcommon.so.0": "libxkbcommon0",
    "libxkbcommon-x11.so.0": "libxkbcommon-x11-0",
    "libdbus-1.so.3": "libdbus-1-3",
    "libglib-2.0.so.0": "libglib2.0-0",
    "libgthread-2.0.so.0": "libglib2.0-0",
    "libblkid.so.1": "libblkid1",
    "libmount.so.1": "libmount1",
    # the folder carries these; Debian keeps its own up to date, so the .deb uses those
    "libbz2.so.1.0": "libbz2-1.0",
    "libexpat.so.1": "libexpat1",
    "libjpeg.so.62": "libjpeg62-turbo",
    "libpng16.so.16": "libpng16-16",
    "libz.so.1": "zlib1g",
    "libtinfo.so.6": "libtinfo6",
}
#: Bundled libraries the .deb leaves out for Debian's own (see KNOWN_PACKAGES).
DEBIAN_PROVIDES = {
    "libbz2.so.1.0",
    "libexpat.so.1",
    "libfreetype.so.6",
    "libjpeg.so.62",
    "libpng16.so.16",
    "libz.so.1",
    "libtinfo.so.6",
}
#: The display server's client libraries: what Qt's platform plugins load comes from the system.
DISPLAY_CLIENT = re.compile(r"^lib(xcb|X11|xkbcommon|Xau|Xdmcp)\b")
LIBC = {"libc.so.6", "libm.so.6", "libdl.so.2", "libpthread.so.0", "libresolv.so.2"}
LIBC |= {"ld-linux-x86-64.so.2", "librt.so.1", "libutil.so.1"}
#: Only the GTK platform theme (native dialogs and look on GNOME) needs these: recommended.
OPTIONAL_LIBRARIES = {"libgtk-3.so.0": "libgtk-3-0", "libgdk-3.so.0": "libgtk-3-0"}
QT_PLUGINS = "_internal/PySide6/Qt/plugins"


def run(*command: str) -> str:
    """Run a command; return its output (raise on failure)."""
    return subprocess.run(command, capture_output=True, text=True, check=True).stdout


def elf_files(folder: Path) -> list[Path]:
    """Return the ELF binaries of a folder."""
    found = []
    for path in folder.rglob("*"):
        if path.is_file() and not path.is_symlink():
            with path.open("rb") as handle:
                if handle.read(4) == b"\x7fELF":
                    found.append(path)
    return found


@cache
def needed(binary: Path) -> frozenset[str]:
    """Return the sonames one binary is linked against."""
    return frozenset(re.findall(r"\(NEEDED\).*\[(.+)\]", run("readelf", "-d", str(binary))))


def needed_libraries(binaries: Iterable[Path]) -> set[str]:
    """Return the sonames the binaries are linked against."""
    return {name for binary in binaries for name in needed(binary)}


def loaded_by_plugins(folder: Path) -> set[str]:
    """Return every soname the Qt plugins load, through the bundle's libraries and beyond it."""
    bundled = {path.name: path for path in elf_files(folder)}
    stack = elf_files(folder / QT_PLUGINS)
    seen: set[str] = set()
    while stack:
        for name in needed(stack.pop()) - seen:
            seen.add(name)
            if name in bundled:
                stack.append(bundled[name])
    return seen


def left_to_the_system(folder: Path) -> set[str]:
    """Return the bundled libraries the .deb leaves out: the display's and Debian's own."""
    display = {name for name in loaded_by_plugins(folder) if DISPLAY_CLIENT.match(name)}
    return display | DEBIAN_PROVIDES


@cache
def library_paths() -> dict[str, list[str]]:
    """Return where the build machine's dynamic linker finds each soname (ldconfig -p)."""
    paths: dict[str, list[str]] = {}
    for name, path in re.findall(r"^\s*(\S+) \(.*\) => (\S+)$", run("ldconfig", "-p"), re.M):
        paths.setdefault(name, []).append(path)
    return paths


def debian_package(soname: str) -> str | None:
    """Return the package that ships a library, as dpkg records it here (else the table's)."""
    for path in library_paths().get(soname, []):
        for candidate in {path, path.removeprefix("/usr"), "/usr" + path.removeprefix("/usr")}:
            done = subprocess.run(
                ["dpkg-query", "-S", candidate], capture_output=True, text=True, check=False
            )
            if done.returncode == 0 and ":" in done.stdout:
                return done.stdout.split(":", 1)[0].split(",")[0].strip()
    return KNOWN_PACKAGES.get(soname)


def glibc_version(binaries: list[Path]) -> str:
    """Return the newest GLIBC_x.y symbol version the binaries need."""
    versions = set()
    for binary in binaries:
        versions |= set(re.findall(r"GLIBC_(\d+\.\d+)", run("objdump", "-T", str(binary))))
    return max(versions, key=lambda v: tuple(map(int, v.split("."))))


def dependencies(folder: Path) -> tuple[str, str]:
    """Return the Depends and Recommends fields for the folder's binaries (as the .deb has it)."""
    binaries = elf_files(folder)
    bundled = {path.name for path in folder.rglob("*.so*")}
    missing = needed_libraries(binaries) - bundled - LIBC
    optional = missing & OPTIONAL_LIBRARIES.keys()
    packages = {name: debian_package(name) for name in missing - optional}
    unknown = sorted(name for name, package in packages.items() if package is None)
    if unknown:
        raise SystemExit(f"packaging: no Debian package known for {unknown}: add to KNOWN_PACKAGES")
    depends = [f"libc6 (>= {glibc_version(binaries)})", *sorted(set(map(str, packages.values())))]
    recommends = sorted({OPTIONAL_LIBRARIES[name] for name in optional})
    return ", ".join(depends), ", ".join(recommends)
