"""Screenshots of a play-test report in headless Chromium, at a narrow and a wide window, to look
at it as a designer would (the table must scroll at 900 px, not wrap its intervals).

Run: .venv/bin/python benchmarks/report_screenshots.py REPORT.html [--out DIR] [--widths 900,1280]
Needs a Chromium (Debian: apt-get install chromium); writes DIR/NAME-WIDTH.png.
"""
from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from pathlib import Path


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("report")
    parser.add_argument("--out", default=".")
    parser.add_argument("--widths", default="900,1280")
    parser.add_argument("--height", type=int, default=2600)
    args = parser.parse_args()
    browser = next((shutil.which(b) for b in ("chromium", "chromium-browser", "google-chrome")
                    if shutil.which(b)), None)
    if browser is None:
        sys.exit("no Chromium found (apt-get install chromium)")
    report = Path(args.report).resolve()
    for width in map(int, args.widths.split(",")):
        shot = Path(args.out) / f"{report.stem}-{width}.png"
        subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu",
                        "--hide-scrollbars", f"--window-size={width},{args.height}",
                        f"--screenshot={shot.resolve()}", report.as_uri()],
                       check=True, capture_output=True, timeout=120)
        print(f"wrote {shot}")


if __name__ == "__main__":
    main()
