"""Presentation: documents and display text from records, Qt-free for the window and the CLI."""
