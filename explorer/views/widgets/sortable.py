"""Tables that sort by any column: a header click, again for the other way."""

from __future__ import annotations

from PySide6.QtWidgets import QTableView

from explorer.viewmodels.sorting import SortOrder


def make_sortable(table: QTableView) -> None:
    """Let a table's header sort its model; start in the model's default order (newest first).

    The model says its default (`default_sort`, none: as the rows come) and sorts itself.
    """
    order = getattr(table.model(), "default_sort", SortOrder())
    header = table.horizontalHeader()
    header.setSortIndicatorShown(True)
    header.setSortIndicator(order.column, order.qt)  # before sorting is on: one sort, this one
    table.setSortingEnabled(True)
