"""The address page's view models: the page (page.py), and one module per tool of its tabs.

Nothing is imported here: the watchlist's widgets borrow a piece without loading the page.
"""
