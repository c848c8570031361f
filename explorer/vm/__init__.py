"""Rootstock's VM: py-evm under rskj's rules by network and height (the devnet's and replays').

py-evm raises Python's recursion limit to 100,000 when first imported; the window and the
command-line faces keep the default (a deep JSON answer must raise RecursionError, not crash the
process), so it is imported here first, with the limit put back.
"""

import sys

_LIMIT = sys.getrecursionlimit()
try:
    import eth  # noqa: F401  # py-evm, imported once with the limit kept
finally:
    sys.setrecursionlimit(_LIMIT)
