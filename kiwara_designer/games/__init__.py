"""The games, one package each: everything of a game lives in its folder and registers itself."""
