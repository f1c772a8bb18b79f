"""A generation problem (board, number of territories, allowed sizes) and its size mixes."""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from itertools import combinations_with_replacement, product

from ....core.errors import KiwaraError
from ..geometry import Grid

MAX_CELLS = 255          # piece ids are bytes while walking the counting table


class GeneratorError(KiwaraError):
    """A generation request that cannot be answered (impossible sizes, no territories, …)."""


@dataclass(frozen=True)
class Problem:
    """Partitions of ``grid`` into ``territories`` connected pieces with sizes from ``sizes``."""

    grid: Grid
    territories: int
    sizes: tuple[int, ...]

    @classmethod
    def make(cls, grid: Grid | None = None, territories: int = 6,
             sizes=(3, 5, 7, 9)) -> "Problem":
        grid = grid if grid is not None else Grid()
        try:
            allowed = tuple(sorted({int(s) for s in sizes}))
        except (TypeError, ValueError):
            raise GeneratorError(f"sizes must be whole numbers, got {sizes!r}") from None
        if not isinstance(territories, int) or territories < 1:
            raise GeneratorError(f"the number of territories must be at least 1, got {territories!r}")
        if not allowed:
            raise GeneratorError("at least one territory size is needed")
        if allowed[0] < 1:
            raise GeneratorError(f"territory sizes must be at least 1, got {allowed[0]}")
        if grid.size > MAX_CELLS:
            raise GeneratorError(f"a {grid.width} × {grid.height} board has {grid.size} cells; "
                                 f"the generator handles at most {MAX_CELLS}")
        problem = cls(grid, territories, allowed)
        if not problem.mixes:
            sizes_text = ", ".join(map(str, allowed))
            raise GeneratorError(
                f"no {territories} sizes from {{{sizes_text}}} add up to the {grid.size} cells "
                f"of a {grid.width} × {grid.height} board")
        return problem

    @cached_property
    def mixes(self) -> tuple[tuple[int, ...], ...]:
        """Every multiset of ``territories`` allowed sizes covering the board, sorted."""
        if self.territories > self.grid.size:
            return ()
        return tuple(m for m in combinations_with_replacement(self.sizes, self.territories)
                     if sum(m) == self.grid.size)

    # size multisets are encoded as integers: one base-(cells+1) digit per allowed size
    @cached_property
    def unit(self) -> dict[int, int]:
        base = self.grid.size + 1
        return {s: base ** i for i, s in enumerate(self.sizes)}

    def code(self, mix) -> int:
        return sum(self.unit[s] for s in mix)

    @cached_property
    def valid_codes(self) -> frozenset[int]:
        """Codes of every sub-multiset of an admissible mix (what may still be closed)."""
        codes = set()
        for mix in self.mixes:
            counts = [mix.count(s) for s in self.sizes]
            for chosen in product(*(range(c + 1) for c in counts)):
                codes.add(sum(c * self.unit[s] for c, s in zip(chosen, self.sizes)))
        return frozenset(codes)

    def check_mix(self, mix) -> tuple[int, ...]:
        """``mix`` sorted, or :class:`GeneratorError` naming why it is not admissible."""
        try:
            wanted = tuple(sorted(int(s) for s in mix))
        except (TypeError, ValueError):
            raise GeneratorError(f"a size mix is a list of whole numbers, got {mix!r}") from None
        if wanted not in self.mixes:
            shown = ",".join(map(str, wanted))
            reasons = []
            if len(wanted) != self.territories:
                reasons.append(f"it has {len(wanted)} sizes, not {self.territories}")
            if sum(wanted) != self.grid.size:
                reasons.append(f"it covers {sum(wanted)} cells, not {self.grid.size}")
            bad = sorted(set(wanted) - set(self.sizes))
            if bad:
                reasons.append("sizes " + ", ".join(map(str, bad)) + " are not allowed")
            raise GeneratorError(f"size mix {shown} is not admissible: " + "; ".join(reasons))
        return wanted

    def describe(self) -> str:
        noun = "territory" if self.territories == 1 else "territories"
        return (f"{self.grid.width} × {self.grid.height} board, {self.territories} {noun}, "
                f"sizes {{{', '.join(map(str, self.sizes))}}}")
