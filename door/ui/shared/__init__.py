"""Parts every screen shares: widgets, colours, the key map and its overlay, the mouse and the
describe key, pagers, editors, card faces."""
