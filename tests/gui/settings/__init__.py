"""Network settings: the view models, the dialog and connection tests."""
