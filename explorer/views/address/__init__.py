"""The address page's widgets: the page (page.py), and one module per tab.

Nothing is imported here: the watchlist borrows a control without loading the address page.
"""
