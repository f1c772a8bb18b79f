"""Kiwara's commands (the ``kiwara`` command's top level: Kiwara is the default game)."""
