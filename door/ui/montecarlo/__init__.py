"""Monte Carlo on the caller's screen: the grid, its keys, mouse and words."""
