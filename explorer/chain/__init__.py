"""Pure domain: records, hex and units, RSK specifics. No Qt, no IO."""
