"""Command-line faces of the explorer."""
