"""Every stored setting declared once over QSettings, in a file only its owner can read."""
