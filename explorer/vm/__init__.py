"""Rootstock's VM: py-evm under rskj's rules by network and height (the devnet's and replays').

py-evm raises Python's recursion limit when first imported; the window and the command-line
faces keep the default (a deep JSON answer must raise RecursionError, not overflow the C stack),
so it is imported here first, its raise doing nothing meanwhile. Whichever thread imports this
package (the window's warm-up imports it on a worker), the limit never moves.
"""

import sys

_RAISE = sys.setrecursionlimit
setattr(sys, "setrecursionlimit", lambda _limit: None)  # noqa: B010 - py-evm's raise is a no-op
try:
    import eth  # noqa: F401  # py-evm, imported once with the limit kept
finally:
    setattr(sys, "setrecursionlimit", _RAISE)  # noqa: B010
