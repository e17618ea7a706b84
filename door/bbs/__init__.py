"""The BBS hand-off: a BBS's dropfile for door mode, and the member boards whose callers come
over RLogin."""
