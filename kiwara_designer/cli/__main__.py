"""``python -m kiwara_designer.cli``: the ``kiwara`` command."""
from . import main

main()
