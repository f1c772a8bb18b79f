"""Work spread over processes: one bounded, interruptible map used by every parallel job
(play-test matches, layout listings), over a pool that may serve several maps (a race)."""
from __future__ import annotations

import os
import signal
import threading
import time
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from typing import Callable, Iterable, Iterator, TypeVar

from .errors import KiwaraError
from .numbers import shorten

Task = TypeVar("Task")
Result = TypeVar("Result")


def default_workers() -> int:
    """The cores this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:      # not on Linux
        return max(1, os.cpu_count() or 1)


# Beyond this many processes per core a job only adds memory (each loads its own tables): a
# typo (-j 200 started 201 processes and 4.2 GB), not a wish.
MAX_WORKERS_PER_CORE = 4


def max_workers() -> int:
    return MAX_WORKERS_PER_CORE * default_workers()


def check_workers(workers: int | None) -> int | None:
    """``workers`` (None: one per core) if it is at most :func:`max_workers`; otherwise a
    :class:`KiwaraError` giving the cap and why."""
    if workers is not None and not 1 <= workers <= max_workers():
        raise KiwaraError.about("{workers} {value}: at most {most} worker processes ({per_core} "
                                "per core on the {cores} cores here); more only add memory, each "
                                "process holding its own tables", value=shorten(str(workers)),
                                most=max_workers(), per_core=MAX_WORKERS_PER_CORE,
                                cores=default_workers())
    return workers


class WorkerPool:
    """Processes kept for several maps (a race's rounds: starting processes, with their imports
    and tables, costs more than a short round). The processes start at the first map that needs
    them and stop at :meth:`close` (or the end of a ``with`` block); one worker means this
    process, no pool."""

    def __init__(self, workers: int | None = None) -> None:
        self.workers = check_workers(workers) or default_workers()
        self._executor: ProcessPoolExecutor | None = None

    def map(self, function: Callable[[Task], Result], tasks: Iterable[Task], *,
            ordered: bool = True) -> Iterator[Result]:
        """``function`` over ``tasks``, as :func:`parallel_map` describes."""
        if self.workers == 1:
            yield from map(function, tasks)
            return
        if self._executor is None:
            self._executor = ProcessPoolExecutor(max_workers=self.workers,
                                                 initializer=_worker_setup,
                                                 initargs=(os.getpid(),))
        pool, pending, futures = self._executor, iter(tasks), []
        try:
            futures += [pool.submit(function, task) for task in _take(pending, 2 * self.workers)]
            while futures:
                if ordered:
                    done = [futures.pop(0)]
                else:
                    finished, _ = wait(futures, return_when=FIRST_COMPLETED)
                    done = [f for f in futures if f in finished]
                    futures = [f for f in futures if f not in finished]
                for future in done:
                    yield future.result()
                    futures += [pool.submit(function, task) for task in _take(pending, 1)]
        except (KeyboardInterrupt, Exception):
            # Ctrl-C or a failed task: end the processes now, not after their running tasks
            # (an Awimbawé batch runs for minutes)
            self._terminate()
            raise
        finally:
            for future in futures:      # stopped early (or failed): drop what was queued
                future.cancel()

    def close(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=True, cancel_futures=True)
            self._executor = None

    def _terminate(self) -> None:
        executor, self._executor = self._executor, None
        if executor is None:
            return
        # the executor has no public way to stop a running task: its processes are ended
        for process in list((executor._processes or {}).values()):
            process.terminate()
        executor.shutdown(wait=True, cancel_futures=True)

    def __enter__(self) -> "WorkerPool":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def parallel_map(function: Callable[[Task], Result], tasks: Iterable[Task],
                 workers: int | None = None, *, ordered: bool = True) -> Iterator[Result]:
    """``function`` over ``tasks`` on ``workers`` processes (in this process if 1), yielding
    results in task order (``ordered``) or as they complete. At most two tasks per worker are
    in flight or waiting to be yielded, so a huge job is never queued whole in memory; closing
    the iterator early stops the workers."""
    with WorkerPool(workers) as pool:
        yield from pool.map(function, tasks, ordered=ordered)


def _take(iterator: Iterator[Task], n: int) -> list[Task]:
    return [task for _, task in zip(range(n), iterator)]


def _worker_setup(parent: int) -> None:
    """Worker initialiser: leave Ctrl-C to the parent (which stops the pool), and end this
    worker when its parent dies (a job killed with kill -9 must not leave orphans working on)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(1)
    threading.Thread(target=watch, daemon=True).start()
