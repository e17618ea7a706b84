"""One caller's visit from the top: the title, the login, the takeover question, the visit loop
and which screen each menu action opens."""
