"""Printing: ``kiwara export`` and ``generate`` (draw a random board and print it)."""
from __future__ import annotations

import functools
import json
import random
import sys
from pathlib import Path

import click

from ..formats import format_text, load_layout
from ..layouts import TITLES
from ..validation import FREE_PLAY, validate
from ....commands import EXIT_NEGATIVE, Real, Whole
from .common import load_variant, parse_int_list


def _print_options(command):
    """The options shared by ``export`` and ``generate``: paper, cell size, crop marks, bleed,
    backs, resolution, kit and variant."""
    for option in reversed([
        click.option("--paper", default="a4", show_default=True, metavar="a4|letter|WxH",
                     help="Paper: a4 or letter (landscape) or a custom size in mm, e.g. 420x297."),
        click.option("--cell-mm", type=Real(), metavar="MM",
                     help="Cell size in mm [default: largest that fits A4 and Letter, whatever "
                          "the other options]."),
        click.option("--crop-marks", is_flag=True,
                     help="Crop marks on every cut line of every page."),
        click.option("--bleed-mm", type=Real(), default=0.0, show_default=True, metavar="MM",
                     help="Run backgrounds this far past the cut lines (adds crop marks; PDF "
                          "gets TrimBox and BleedBox)."),
        click.option("--backs", type=click.Choice(["fold", "duplex"]), default="fold",
                     show_default=True,
                     help="Kit backs beside the fronts to fold, or on the next page for "
                          "double-sided printing."),
        click.option("--gutter-mm", type=Real(), default=0.0, show_default=True, metavar="MM",
                     help="Space between the kit's tokens and cards (0: they share cut lines); "
                          "each piece then gets cut lines and crop marks of its own."),
        click.option("--dpi", type=Whole(30, 1200), metavar="N",
                     help="PNG resolution, stored in the file [default: 150]."),
        click.option("--kit", is_flag=True,
                     help="Add the print-and-play kit: tokens, Okapi card, rules summary, totem."),
        click.option("--variant", "variant_name", metavar="NAME|FILE",
                     help="Rules variant for the kit's tokens, points and rules summary and the "
                          "totem's direction [default: classic]."),
    ]):
        command = option(command)
    return command


def _print_setup(output: str, paper: str, cell_mm, crop_marks, bleed_mm, backs, dpi,
                 gutter_mm=0.0):
    """The print options, once the output's format and every option are known to be good
    (checked before any work is done)."""
    from ....printing import Paper, PrintOptions, output_format

    if dpi is not None and output_format(output) != "png":
        raise click.UsageError("--dpi only applies to .png output")
    output_format(output)
    return PrintOptions(Paper.parse(paper), cell_mm, crop_marks, bleed_mm, backs=backs,
                        gutter_mm=gutter_mm)


def _print_job(layout, output: str, title: str, options, kit, variant, dpi, command=None):
    """Draw and write the pages; return (files written, options, cell size, page count)."""
    from ....printing import PNG_DPI, write_pages
    from ..printing import print_set, resolve_cell_mm

    pages = print_set(layout, options, title=title, kit=kit, variant=variant, command=command)
    files = write_pages(pages, output, stdout=sys.stdout, dpi=dpi or PNG_DPI, what="the board",
                        title=f"Kiwara board: {title}" + (f", kit for variant {variant.name}" if kit
                                                              else ""))
    return files, options, resolve_cell_mm(layout.grid, options), len(pages)


def _wrote(files, options, cell, pages) -> str:
    names = ", ".join("stdout" if f == "-" else f for f in files)
    paper = options.paper
    return (f"wrote {names}: {pages} page{'s' if pages > 1 else ''} on {paper.name} "
            f"({paper.width_mm:g} × {paper.height_mm:g} mm), cell {cell:g} mm; print at 100 %")


@click.command()
@click.argument("layout")
@click.option("-o", "--output", required=True, metavar="FILE",
              help="board.svg, board.pdf (all pages) or board.png; - writes SVG to stdout.")
@_print_options
def export(layout, output, paper, cell_mm, crop_marks, bleed_mm, backs, gutter_mm, dpi, kit,
           variant_name) -> None:
    """Print LAYOUT (file, built-in name or -) at true scale, in millimetres.

    The board comes with its 22 numbered totem stones, column letters and row numbers,
    each territory tinted and labelled with its size, and the rivers drawn exactly where the
    sticks go. A board larger than the paper is tiled over several pages with alignment
    lines. PDF and PNG need the optional extra: pip install 'kiwara-designer[pdf]'.

    \b
    Examples:
      kiwara export classic -o classic.svg
      kiwara export my-board.txt -o board.pdf --paper letter --kit
      kiwara export president -o big.pdf --cell-mm 45 --crop-marks --bleed-mm 3
      kiwara export classic -o kit.pdf --kit --variant gazelles_3 --backs duplex
      kiwara export classic -o classic.png --dpi 300
      kiwara export classic -o - | rsvg-convert -o classic.png
    """
    options = _print_setup(output, paper, cell_mm, crop_marks, bleed_mm, backs, dpi, gutter_mm)
    variant = load_variant(variant_name)
    board = load_layout(layout)
    title = ("stdin layout" if layout == "-" else
             TITLES.get(layout, layout) if not Path(layout).exists() else Path(layout).stem)
    problems = validate(board, FREE_PLAY).problems
    if problems:   # designers print drafts too: say so, but print
        click.echo(f"kiwara: note: {title} is not a valid free-play layout: "
                   f"{'; '.join(p.message for p in problems)}", err=True)
    report = _print_job(board, output, title, options, kit, variant, dpi)
    click.echo(_wrote(*report), err=output == "-")


def _generator_sample(seed: int, mix: tuple[int, ...] | None):
    from ..generator import sample_layouts   # imported here: only generate pays for it

    return sample_layouts(1, seed, mix=mix)[0]


def _check_mix(mix: tuple[int, ...]) -> tuple[int, ...]:
    from ..generator import Problem
    return Problem.make().check_mix(mix)


@click.command()
@click.option("--seed", type=Whole(min=0), help="Seed of the draw [default: a random one, printed].")
@click.option("--mix", metavar="3,3,5,5,7,7", help="Draw only layouts with these territory sizes.")
@click.option("-o", "--output", metavar="FILE",
              help="Board file (.svg, .pdf, .png; - for SVG on stdout) [default: kiwara-board-SEED.svg].")
@_print_options
@click.option("--json", "as_json", is_flag=True, help="Print the layout and its facts as JSON.")
def generate(seed, mix, output, paper, cell_mm, crop_marks, bleed_mm, backs, gutter_mm, dpi, kit,
             variant_name, as_json) -> None:
    """Draw a uniformly random valid free-play layout and print it.

    Every valid layout (six connected territories of sizes 3, 5, 7 or 9) is equally likely;
    --mix draws uniformly among those with the given sizes. The same seed always gives the same
    board. Writes the printable board (see kiwara export) and shows the layout and its facts.

    \b
    Examples:
      kiwara generate
      kiwara generate --seed 7 -o board.pdf --kit
      kiwara generate --seed 42 --mix 3,3,5,5,7,7 --json
      kiwara generate --seed 7 -o kit.pdf --kit --variant totem_1_2 --bleed-mm 3
    """
    if as_json and output == "-":
        raise click.UsageError("--json and -o - would both write to stdout; pick one")
    if seed is None:
        seed = random.SystemRandom().randrange(1_000_000)
    wanted = _check_mix(parse_int_list(mix, "--mix")) if mix else None
    output = output or f"kiwara-board-{seed}.svg"
    options = _print_setup(output, paper, cell_mm, crop_marks, bleed_mm, backs, dpi, gutter_mm)
    variant = load_variant(variant_name)
    board = _generator_sample(seed, wanted)
    report = validate(board, FREE_PLAY)
    # printed on the board, so that a printout says how to draw it again
    again = (f"kiwara generate --seed {seed}" + (f" --mix {','.join(map(str, wanted))}" if wanted else "")
             + (f" --variant {variant_name}" if variant_name else ""))
    files, options, cell, pages = _print_job(board, output, f"seed {seed}", options, kit, variant,
                                             dpi, command=again)
    if as_json:
        click.echo(json.dumps({"seed": seed, "mix": list(wanted) if wanted else None,
                               **report.to_json(), "files": files, "paper": options.paper.name,
                               "cell_mm": cell, "pages": pages}, indent=2))
    else:   # with -o - the SVG owns stdout, so the summary goes to stderr
        echo = functools.partial(click.echo, err=output == "-")
        facts = report.facts
        echo(f"seed {seed}   (again: {again})")
        echo(format_text(board, spaced=False), nl=False)
        echo(f"{'valid' if report.valid else 'INVALID'} free-play layout; territories "
             + ", ".join(f"{name} {size}" for name, size in facts["territories"].items())
             + f"; size mix {','.join(map(str, facts['size_mix']))}; "
             + f"{facts['river_segments']} river segments of {facts['sticks_in_box']} sticks")
        for problem in report.problems:
            echo(f"  - {problem.message}")
        echo(_wrote(files, options, cell, pages))
    if not report.valid:
        sys.exit(EXIT_NEGATIVE)
