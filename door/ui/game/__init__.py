"""What every game screen shares: the screen itself, replay, the solvers' hints and verdicts,
"still winnable?", and the per-visit choices they keep."""
