"""Widgets only: layout, binding to view models, links, menus."""
