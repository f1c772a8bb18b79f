"""The one base class of every error a user can cause (like python-chess, a ``ValueError``).

The command line turns these, and only these, into a one-line message and exit code 2;
anything else is a bug and keeps its traceback.
"""


class KiwaraError(ValueError):
    """Bad input: a file, a value, a move or a request that cannot be honoured."""
