"""The door's menus and the screens they open: the main menu, settings, hall of fame, messages,
daily challenge, history, who's online, watching."""
