"""Saved data: what can no longer change, kept per chain in SQLite, under the services."""
