"""The screenshot tour (`--screenshot DIR`): every screen to PNG, light and dark."""
