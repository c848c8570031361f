"""Bundled data and icons, read with importlib.resources (mapped here from the top-level resources/)."""
