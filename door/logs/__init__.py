"""What the sysop reads and only the sysop may read: the one log policy, the log files, private
files, and stranger-chosen text made safe to print."""
