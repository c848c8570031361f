"""A desktop block explorer for Rootstock (RSK)."""

__version__ = "0.1.0"
