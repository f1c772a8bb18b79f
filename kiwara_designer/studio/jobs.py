"""Background jobs for the studio: a play-test or an agent's search runs in a thread while the
page polls its progress, and may be cancelled. Bounded: a few jobs at a time, finished ones
forgotten after a while."""
from __future__ import annotations

import itertools
import secrets
import threading
import time
import traceback
from dataclasses import dataclass, field
from typing import Any, Callable

from ..core.errors import KiwaraError

MAX_RUNNING = 4          # jobs at once: each may hold cores for minutes
KEEP_FINISHED = 64       # finished jobs kept for their results; older ones are forgotten


class JobError(KiwaraError):
    """No such job, or too many running."""


class Cancelled(Exception):
    """Raised inside a job's work by :meth:`Job.check` once the job has been cancelled."""


@dataclass
class Job:
    """One piece of background work. ``work(job)`` reports with :meth:`progress` and calls
    :meth:`check` now and then (which raises :class:`Cancelled` after :meth:`cancel`)."""

    id: str
    kind: str
    done: int = 0
    total: int = 0
    state: str = "running"           # running, done, failed, cancelled
    result: Any = None
    error: str | None = None
    started: float = field(default_factory=time.monotonic)
    finished_at: float | None = None
    _cancel: threading.Event = field(default_factory=threading.Event, repr=False)
    _finished: threading.Event = field(default_factory=threading.Event, repr=False)

    def progress(self, done: int, total: int) -> None:
        self.done, self.total = done, total
        self.check()

    def check(self) -> None:
        if self._cancel.is_set():
            raise Cancelled()

    def cancel(self) -> None:
        self._cancel.set()

    def wait(self, timeout: float | None = None) -> bool:
        """True once the job has finished (whichever way)."""
        return self._finished.wait(timeout)

    @property
    def running(self) -> bool:
        return self.state == "running"

    def to_json(self) -> dict:
        return {"id": self.id, "kind": self.kind, "state": self.state, "done": self.done,
                "total": self.total, "seconds": round((self.finished_at or time.monotonic())
                                                      - self.started, 2),
                "result": self.result, "error": self.error}


class Jobs:
    """The registry: start a job in a daemon thread, look it up by id, cancel it."""

    def __init__(self, max_running: int = MAX_RUNNING) -> None:
        self.max_running = max_running
        self._jobs: dict[str, Job] = {}
        self._lock = threading.Lock()
        self._order = itertools.count()

    def start(self, kind: str, work: Callable[[Job], Any],
              finish: Callable[[Job], None] | None = None) -> Job:
        """Run ``work(job)`` in a thread; its return value becomes ``job.result``. A
        :class:`KiwaraError` becomes ``job.error`` (a message for the page); anything else too,
        as "internal error" (the traceback goes to the server's log, never to the page).
        ``finish(job)`` runs after, whatever happened."""
        with self._lock:
            if sum(job.running for job in self._jobs.values()) >= self.max_running:
                raise JobError(f"{self.max_running} jobs are already running; wait for one to "
                               f"finish or cancel it")
            job = Job(f"{next(self._order)}-{secrets.token_hex(4)}", kind)
            self._jobs[job.id] = job
            self._forget_old()
        thread = threading.Thread(target=self._run, args=(job, work, finish),
                                  name=f"studio-{kind}", daemon=True)
        thread.start()
        return job

    def _run(self, job: Job, work, finish) -> None:
        try:
            job.result = work(job)
            job.state = "done"
        except Cancelled:
            job.state = "cancelled"
        except KiwaraError as exc:
            job.state, job.error = "failed", str(exc)
        except Exception:                               # a bug: logged here, not shown
            traceback.print_exc()
            job.state, job.error = "failed", "internal error (see the server's log)"
        finally:
            job.finished_at = time.monotonic()
            if finish is not None:
                finish(job)
            job._finished.set()

    def get(self, job_id: Any) -> Job:
        job = self._jobs.get(job_id) if isinstance(job_id, str) else None
        if job is None:
            raise JobError("no such job (finished jobs are kept for a while only)")   # no echo
        return job

    def _forget_old(self) -> None:
        finished = [j for j in self._jobs.values() if not j.running]
        for job in finished[:max(0, len(finished) - KEEP_FINISHED)]:
            del self._jobs[job.id]

    def cancel_all(self) -> None:
        for job in list(self._jobs.values()):
            job.cancel()
