"""Layout files shipped with the package (``kiwara layouts builtin`` lists them)."""

# How a built-in board is called on paper where its file name had to drop an accent.
TITLES = {"president": "président"}
