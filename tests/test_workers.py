"""The process pool every parallel job uses: order, completeness, early stop."""
from __future__ import annotations

import time

import pytest

from kiwara_designer.core.workers import parallel_map


def slow_square(x: int) -> int:
    time.sleep(0.01 * (x % 3))          # finish out of order
    return x * x


def test_ordered_results_come_in_task_order():
    assert list(parallel_map(slow_square, range(30), 2)) == [x * x for x in range(30)]
    assert list(parallel_map(slow_square, range(30), 1)) == [x * x for x in range(30)]


def test_unordered_results_are_all_there_once():
    results = list(parallel_map(slow_square, range(30), 2, ordered=False))
    assert sorted(results) == [x * x for x in range(30)]


def test_tasks_are_taken_lazily_and_stopping_early_stops_the_work():
    taken = []

    def tasks():
        for x in range(10_000):
            taken.append(x)
            yield x

    results = parallel_map(slow_square, tasks(), 2)
    assert [next(results) for _ in range(3)] == [0, 1, 4]
    results.close()
    assert len(taken) <= 3 + 2 * 2          # at most two per worker beyond what was used


def test_an_error_in_the_tasks_or_a_task_reaches_the_caller_as_itself():
    def failing_tasks():
        yield 1
        raise ValueError("no more tasks")

    with pytest.raises(ValueError, match="no more tasks"):
        list(parallel_map(slow_square, failing_tasks(), 2))
    with pytest.raises(ZeroDivisionError):
        list(parallel_map(reciprocal, [1, 0, 2], 2))


def reciprocal(x: int) -> float:
    return 1 / x
