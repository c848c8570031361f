"""The GUI reliability suite: the app against nodes that misbehave on purpose."""
