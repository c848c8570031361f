"""Build the installers from dist/explorer: a Debian package and a .tar.gz for a user's home.

The .deb installs the folder under /opt/explorer with a /usr/bin/explorer link, the desktop
entry, its icon in every hicolor size, the AppStream metainfo, the man page and the copyright
file; its Depends are the system libraries the bundled binaries and Qt plugins load and the
.deb does not carry (packaging/depends.py).
The .tar.gz holds the same folder and files, and install.sh to put them under ~/.local.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import os
import shutil
import subprocess
import tarfile
from pathlib import Path

from depends import dependencies, left_to_the_system

from explorer import __version__

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
APP_ID = "io.github.rsk_explorer.Explorer"
PACKAGE = "explorer"
MAINTAINER = "Rootstock Explorer authors <explorer-maintainers@users.noreply.github.com>"
HOMEPAGE = "https://github.com/rsk-explorer/explorer"
DESCRIPTION = """\
Desktop block explorer for Rootstock (RSK)
 Browse blocks, transactions, addresses, tokens and logs of Rootstock, the
 smart-contract chain merge-mined with Bitcoin, from a node access service or
 from a local devnet the explorer starts itself. The same facts are printed by
 the explorer rpc, logs, report and devnet commands.
 .
 The application is a self-contained PyInstaller build of Python and Qt under
 /opt/explorer."""
COPYRIGHT = f"""\
Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: explorer
Source: {HOMEPAGE}

Files: *
Copyright: 2026 The Rootstock Explorer authors
License: MIT

Files: opt/explorer/_internal/PySide6/*
Copyright: The Qt Company Ltd. and other contributors
License: LGPL-3
 On Debian systems, the complete text of the GNU Lesser General Public License
 version 3 can be found in /usr/share/common-licenses/LGPL-3. How to replace the
 Qt libraries is explained in /opt/explorer/THIRD-PARTY-NOTICES.txt.

Files: opt/explorer/_internal/*
Copyright: The authors of each bundled component
License: various
 The licence of each bundled Python distribution, with its own licence files, is
 listed in /opt/explorer/THIRD-PARTY-LICENSES/.

License: MIT
"""
LINTIAN_OVERRIDES = """\
# FHS: /opt is for add-on application packages; this one is a self-contained build of Python
# and Qt (PyInstaller) that installs there as a whole, with a /usr/bin/explorer link.
explorer: dir-or-file-in-opt *
# PyInstaller's bootloader, as PyInstaller builds it.
explorer: hardening-no-pie [opt/explorer/explorer]
# Python's pyexpat module links expat statically (CPython's own build).
explorer: embedded-library expat [opt/explorer/_internal/python3.11/lib-dynload/*]
# Modules and libraries as their projects build them (no libc calls, data-only ICU, etc.).
explorer: library-not-linked-against-libc *
explorer: shared-library-lacks-prerequisites *
"""


def run(*command: str) -> str:
    """Run a command; return its output (raise on failure)."""
    return subprocess.run(command, capture_output=True, text=True, check=True).stdout


def share_files(share: Path, man_dir: Path) -> None:
    """Lay out the desktop integration under a share/ directory (as /usr/share has it)."""
    (share / "applications").mkdir(parents=True, exist_ok=True)
    shutil.copy(HERE / "explorer.desktop", share / "applications")
    shutil.copytree(REPO / "resources" / "icons" / "hicolor", share / "icons" / "hicolor")
    (share / "metainfo").mkdir(parents=True, exist_ok=True)
    shutil.copy(HERE / f"{APP_ID}.metainfo.xml", share / "metainfo")
    (share / "man" / "man1").mkdir(parents=True, exist_ok=True)
    shutil.copy(man_dir / "explorer.1.gz", share / "man" / "man1")


def normalize_modes(root: Path) -> None:
    """Directories 0755; executables and the launcher 0755; everything else 0644."""
    for path in [root, *root.rglob("*")]:
        if path.is_symlink():
            continue
        if path.is_dir() or (path.name == "explorer" and path.parent.name == "explorer"):
            path.chmod(0o755)
        else:
            path.chmod(0o644)


def gzip_text(path: Path, text: str) -> None:
    """Write text gzip-compressed at maximum compression, without a timestamp."""
    with gzip.GzipFile(path, "wb", compresslevel=9, mtime=0) as handle:
        handle.write(text.encode())


def build_deb(folder: Path, man_dir: Path, out: Path, work: Path) -> Path:
    """Build the .deb; return its path."""
    arch = run("dpkg", "--print-architecture").strip()
    root = work / f"{PACKAGE}_{__version__}_{arch}"
    shutil.rmtree(root, ignore_errors=True)
    shutil.copytree(folder, root / "opt" / PACKAGE, symlinks=True)
    system_side = left_to_the_system(folder)  # the display's client libraries, Debian's own
    for library in (root / "opt" / PACKAGE / "_internal").glob("*.so*"):
        if library.name in system_side:  # the system's, kept up to date by Debian
            library.unlink()
    share = root / "usr" / "share"
    share_files(share, man_dir)
    doc = share / "doc" / PACKAGE
    doc.mkdir(parents=True)
    (doc / "copyright").write_text(COPYRIGHT + "\n" + license_body())
    gzip_text(doc / "changelog.gz", changelog())
    if LINTIAN_OVERRIDES:
        overrides = share / "lintian" / "overrides"
        overrides.mkdir(parents=True)
        (overrides / PACKAGE).write_text(LINTIAN_OVERRIDES)
    (root / "usr" / "bin").mkdir(parents=True)
    (root / "usr" / "bin" / PACKAGE).symlink_to(f"/opt/{PACKAGE}/{PACKAGE}")
    normalize_modes(root)
    depends, recommends = dependencies(root / "opt" / PACKAGE)
    control = root / "DEBIAN"
    control.mkdir(mode=0o755)
    size = sum(p.stat().st_size for p in root.rglob("*") if p.is_file() and not p.is_symlink())
    fields = {
        "Package": PACKAGE,
        "Version": __version__,
        "Architecture": arch,
        "Maintainer": MAINTAINER,
        "Installed-Size": str(size // 1024),
        "Depends": depends,
        "Recommends": recommends,
        "Section": "net",
        "Priority": "optional",
        "Homepage": HOMEPAGE,
        "Description": DESCRIPTION,
    }
    (control / "control").write_text("".join(f"{k}: {v}\n" for k, v in fields.items() if v))
    (control / "md5sums").write_text(md5sums(root))
    for name in ("control", "md5sums"):
        (control / name).chmod(0o644)
    target = out / f"{root.name}.deb"
    run(
        "dpkg-deb",
        "--root-owner-group",
        "-Zxz",
        "-z6",
        "--threads-max=2",
        "--build",
        str(root),
        str(target),
    )
    print(f"packaging: {target.name} (Depends: {depends}; Recommends: {recommends})")
    return target


def md5sums(root: Path) -> str:
    """Return the md5sums control file of a package tree."""
    lines = []
    for path in sorted(root.rglob("*")):
        if path.is_file() and not path.is_symlink() and "DEBIAN" not in path.parts:
            digest = hashlib.md5(path.read_bytes(), usedforsecurity=False).hexdigest()
            lines.append(f"{digest}  {path.relative_to(root)}\n")
    return "".join(lines)


def license_body() -> str:
    """Return the MIT licence text indented as a copyright file's stand-alone paragraph."""
    text = (REPO / "LICENSE").read_text().split("\n", 2)[2].strip()
    return "".join(f" {line}\n" if line else " .\n" for line in text.splitlines())


def changelog() -> str:
    """Return a one-entry Debian changelog of this version."""
    date = run("date", "-R", "-u", "-d", "2026-11-26 00:00:00").strip()
    return (
        f"{PACKAGE} ({__version__}) unstable; urgency=medium\n\n"
        "  * Release: the window, the devnet and the command-line tools, packaged.\n\n"
        f" -- {MAINTAINER}  {date}\n"
    )


def build_tarball(folder: Path, man_dir: Path, out: Path, work: Path) -> Path:
    """Build the .tar.gz with install.sh; return its path."""
    machine = os.uname().machine
    name = f"{PACKAGE}-{__version__}-linux-{machine}"
    root = work / name
    shutil.rmtree(root, ignore_errors=True)
    shutil.copytree(folder, root / PACKAGE, symlinks=True)
    share_files(root / "share", man_dir)
    shutil.copy(HERE / "install.sh", root / "install.sh")
    shutil.copy(REPO / "LICENSE", root / "LICENSE")
    normalize_modes(root)
    (root / "install.sh").chmod(0o755)
    target = out / f"{name}.tar.gz"
    with tarfile.open(target, "w:gz", compresslevel=9) as archive:
        archive.add(root, arcname=name, filter=owned_by_root)
    print(f"packaging: {target.name}")
    return target


def owned_by_root(info: tarfile.TarInfo) -> tarfile.TarInfo:
    """Store files as root's, with no user or group names of the build machine."""
    info.uid = info.gid = 0
    info.uname = info.gname = "root"
    return info


def main() -> None:
    """Build both installers from the folder into the output directory."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path, help="the PyInstaller folder (dist/explorer)")
    parser.add_argument("man_dir", type=Path, help="where explorer.1.gz is")
    parser.add_argument("out", type=Path, help="where the installers go")
    parser.add_argument("work", type=Path, help="a scratch directory")
    args = parser.parse_args()
    args.work.mkdir(parents=True, exist_ok=True)
    for old in [*args.out.glob("*.deb"), *args.out.glob("*.tar.gz")]:
        old.unlink()
    build_deb(args.folder, args.man_dir, args.out, args.work)
    build_tarball(args.folder, args.man_dir, args.out, args.work)


if __name__ == "__main__":
    main()
