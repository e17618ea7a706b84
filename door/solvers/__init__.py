"""The solvers beside the door: a pool of worker processes that work out verdicts off the event
loop, and the worker they run."""
