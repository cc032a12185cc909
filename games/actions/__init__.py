"""The writers of live games, one module per concern (games/services.py lists them)."""
