"""The address page's view models: the page, and one module per tool of its tabs."""

from explorer.presentation.series import Series
from explorer.viewmodels.address.activity import ActivityTableModel, ActivityViewModel
from explorer.viewmodels.address.charts import ARCHIVE_CAVEAT, ChartsViewModel
from explorer.viewmodels.address.overview import OverviewViewModel
from explorer.viewmodels.address.page import AddressPageViewModel, AddressTab
from explorer.viewmodels.address.read_contract import AbiChoice, ReadContractViewModel
from explorer.viewmodels.address.simulation import SimulationViewModel
from explorer.viewmodels.address.storage import StorageSlotViewModel
from explorer.viewmodels.address.tokens import MemoryTokenStore, TokenStore, TokensViewModel
from explorer.viewmodels.address.tool import Tool

__all__ = [
    "ARCHIVE_CAVEAT",
    "AbiChoice",
    "ActivityTableModel",
    "ActivityViewModel",
    "AddressPageViewModel",
    "AddressTab",
    "ChartsViewModel",
    "MemoryTokenStore",
    "OverviewViewModel",
    "ReadContractViewModel",
    "Series",
    "SimulationViewModel",
    "StorageSlotViewModel",
    "TokenStore",
    "TokensViewModel",
    "Tool",
]
