"""Watching games in progress: this process's hub of watchable games, and the link that lists
them in the store for other processes."""
