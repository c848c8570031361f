"""Write explorer(1) from the command line's own --help texts, so the two never disagree."""

from __future__ import annotations

import gzip
import os
import subprocess
import sys
from pathlib import Path

from explorer import __version__
from explorer.__main__ import SUBCOMMANDS

DATE = "2026"
FILES = """\
.TP
.I ~/.config/explorer/explorer.conf
Settings: networks, window layout, recent searches (API keys are kept there too, never logged).
.TP
.I ~/.local/state/explorer/log/explorer.log
The log file (rotated at 1 MB, three kept); crash reports are saved beside it as crash-*.txt.
.TP
.I ~/.cache/explorer/devnet/
Snapshots of the local devnet's history (\\fBEXPLORER_DEVNET_CACHE\\fR overrides it).
"""


def help_text(*command: str) -> str:
    """Return the --help output of `explorer COMMAND` run from this interpreter."""
    env = {**os.environ, "COLUMNS": "78", "QT_QPA_PLATFORM": "offscreen"}
    run = [sys.executable, "-m", "explorer", *command, "--help"]
    return subprocess.run(run, env=env, capture_output=True, text=True, check=True).stdout


def literal(text: str) -> str:
    """Return text as a troff no-fill block (backslashes and leading dots escaped)."""
    lines = []
    for line in text.rstrip().splitlines():
        line = line.replace("\\", "\\e").replace("-", "\\-")
        lines.append("\\&" + line if line.startswith((".", "'")) else line)
    return ".nf\n" + "\n".join(lines) + "\n.fi\n"


def page() -> str:
    """Return the whole man page source."""
    parts = [
        f'.TH EXPLORER 1 "{DATE}" "explorer {__version__}" "User Commands"',
        ".SH NAME",
        "explorer \\- desktop block explorer for Rootstock (RSK)",
        ".SH SYNOPSIS",
        ".B explorer",
        "[\\fIOPTIONS\\fR]",
        ".br",
        ".B explorer",
        "\\fI" + "|".join(SUBCOMMANDS) + "\\fR [\\fIOPTIONS\\fR]",
        ".SH DESCRIPTION",
        "Without a subcommand, \\fBexplorer\\fR opens the window: blocks, transactions, "
        "addresses, tokens and logs of Rootstock, read from a node access service (JSON\\-RPC "
        "over HTTPS, the API key as the last path segment) or from a local devnet it starts "
        "itself. The subcommands show the same facts in a terminal.",
        ".SH OPTIONS",
        literal(help_text()),
    ]
    for name in SUBCOMMANDS:
        parts += [".SH COMMAND: " + name.upper(), literal(help_text(name))]
    parts += [
        ".SH ENVIRONMENT",
        ".TP",
        ".B EXPLORER_API_KEY",
        "The API key of the subcommands when \\fB\\-\\-key\\fR is not given.",
        ".TP",
        ".B EXPLORER_DEVNET_CACHE",
        "Where the devnet keeps the snapshots of its history.",
        ".SH FILES",
        FILES,
        ".SH SEE ALSO",
        "The README and docs/ of the project.",
    ]
    return "\n".join(parts) + "\n"


def main() -> None:
    """Write explorer.1.gz into the directory given."""
    target = Path(sys.argv[1])
    target.mkdir(parents=True, exist_ok=True)
    path = target / "explorer.1.gz"
    with gzip.GzipFile(path, "wb", mtime=0) as handle:  # no timestamp: reproducible
        handle.write(page().encode())
    print(f"packaging: man page {path}")


if __name__ == "__main__":
    main()
