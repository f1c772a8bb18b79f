"""Layout files shipped with the package (``kiwara layouts builtin`` lists them)."""
