"""Alembic migrations of the door's database, shipped inside the package (no alembic.ini)."""
