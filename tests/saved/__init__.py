"""The saved-data layer: its stores' files, versions and public face."""
