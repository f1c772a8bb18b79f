"""How long printing takes: board SVG, the full kit's SVG, and (with the pdf extra) PDF and PNG.

Run: .venv/bin/python benchmarks/print_render.py   (prints the median of several runs, in ms)
"""
from __future__ import annotations

import statistics
import time

from kiwara_designer.games.kiwara import load_layout
from kiwara_designer.printing import PrintOptions, cairo_available, render_pdf, render_png
from kiwara_designer.games.kiwara.printing import print_set

RUNS = 7


def median_ms(job) -> float:
    times = []
    for _ in range(RUNS):
        start = time.perf_counter()
        job()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main() -> None:
    layout = load_layout("classic")
    kit = print_set(layout, kit=True)
    bled = print_set(layout, PrintOptions(crop_marks=True, bleed_mm=3, backs="duplex"), kit=True)
    jobs = {
        "board SVG (A4, default cell)": lambda: print_set(layout),
        "board + kit SVG (3 pages)": lambda: print_set(layout, kit=True),
        "board tiled SVG (cell 45 mm, map + 4 pages)": lambda: print_set(layout, PrintOptions(cell_mm=45)),
    }
    if cairo_available():
        jobs["kit PDF from SVG (3 pages)"] = lambda: render_pdf(kit)
        jobs["duplex kit PDF, bleed + boxes (4 pages)"] = lambda: render_pdf(bled)
        jobs["board PNG at 150 dpi"] = lambda: render_png(kit[0])
        jobs["board PNG at 300 dpi"] = lambda: render_png(kit[0], 300)
    for name, job in jobs.items():
        print(f"{name:<40} {median_ms(job):8.1f} ms  (median of {RUNS})")


if __name__ == "__main__":
    main()
