"""PyInstaller runtime hook: a stand-in for eth_utils.pydantic, so pydantic stays out.

eth_utils imports its pydantic module on import only to name CamelModel, a base class for
models the explorer never makes; the stand-in class is one no value is an instance of.
"""

import sys
import types


class CamelModel:
    """Stand-in for eth_utils.pydantic.CamelModel: nothing in the explorer makes one."""


stand_in = types.ModuleType("eth_utils.pydantic", __doc__)
stand_in.CamelModel = CamelModel
sys.modules["eth_utils.pydantic"] = stand_in
