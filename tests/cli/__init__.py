"""Command-line face tests."""
