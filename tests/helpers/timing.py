"""How long a test waits for what it expects, and how long it lets the app take.

Two numbers from the environment, so that one machine's load never decides a test:
EXPLORER_TEST_WAIT_MS is how long a test waits for a state it expects (`make guards`
shortens it: under a mutation that state never comes); EXPLORER_TEST_SLACK stretches every
window a test must see open (a try that has to last until the test has looked at it).
"""

from __future__ import annotations

import os

#: How long a test waits for what it expects (ms): far more than it takes on a loaded machine
#: (at load 14 on two cores a window's first blocks took 15 s), and only a failing test waits
#: it out.
WAIT = int(os.environ.get("EXPLORER_TEST_WAIT_MS", "60000"))
#: The factor for every time a test gives the app (1 here, at load 10-16 on two cores).
SLACK = float(os.environ.get("EXPLORER_TEST_SLACK", "1"))


def scaled(seconds: float) -> float:
    """Return seconds stretched by the slack factor."""
    return seconds * SLACK
