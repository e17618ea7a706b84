"""Who may come in: the login pool that holds connections until their callers log in, the
connections per address it caps, and the guard against password guessing."""
