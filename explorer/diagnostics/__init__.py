"""The rotating log with secrets scrubbed, and crash reports from slots, tasks and threads."""
