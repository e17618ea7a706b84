"""sysop.ini's lines and values, beneath everything that reads settings: comments after a
value, and the parsers of values that door.config and the game records share."""
