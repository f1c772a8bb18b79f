"""Building the generator's large, permanent tables without a lasting effect on the collector."""
from __future__ import annotations

import gc
from contextlib import contextmanager


@contextmanager
def collector_paused():
    """Pause cyclic garbage collection while a table is built, then settle the table where the
    collector rarely looks.

    A table holds hundreds of thousands of containers: left young, they would be traversed by
    a collection of each generation in turn as soon as collection resumes (about half a second
    on the 6 × 5 table). So once the table is built they go straight to the oldest generation,
    by freezing and at once unfreezing (which moves, without traversing): nothing stays frozen,
    and the collector's state (enabled or not) is restored even if building fails. Skipped if
    the caller has frozen objects of its own, which unfreezing would release.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
    if gc.get_freeze_count() == 0:
        gc.freeze()
        gc.unfreeze()
