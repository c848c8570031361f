"""One QObject per screen; no QtWidgets."""
