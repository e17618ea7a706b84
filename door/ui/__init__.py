"""What the caller sees: title, menus, game screens.  Screens draw into the session's buffer."""
