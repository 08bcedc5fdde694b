"""Load DIR/report/index.html in headless Chromium: check that every image loads, and take a
full-page screenshot.

    .venv/bin/python scripts/check_report.py DIR [--render] [--screenshot PNG]

--render first writes DIR/report/ from DIR/report.json (python -m faithqa_spark.report DIR).
The screenshot goes to DIR/report-screenshot.png unless --screenshot says otherwise.
Chromium comes from $CHROMIUM or PATH (`apt-get install -y chromium` on Debian); it is not
part of scripts/setup.sh, since nothing in the test suite needs it.
Exit status 0 when the page and all its images load, 1 when one does not, 2 on bad usage.
"""

from __future__ import annotations

import argparse
import html
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

# Runs after the load event, when every image has loaded or failed; --dump-dom then prints
# the DOM with these attributes.
PROBE = """<script>window.addEventListener("load", () => {
  const s = [...document.images].map(i => i.getAttribute("src") + "=" + i.naturalWidth);
  document.body.setAttribute("data-images", s.join(" "));
  document.body.setAttribute("data-height", document.documentElement.scrollHeight);
});</script>"""
WIDTH = 1100


def find_chromium() -> str | None:
    for name in (os.environ.get("CHROMIUM"), "chromium", "chromium-browser", "google-chrome"):
        if name and shutil.which(name):
            return shutil.which(name)
    return None


def chromium(binary: str, *args: str) -> str:
    with tempfile.TemporaryDirectory(prefix="faithqa-chromium-") as profile:
        done = subprocess.run(
            [binary, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
             f"--user-data-dir={profile}", "--virtual-time-budget=10000", *args],
            capture_output=True, text=True, timeout=120)
    if done.returncode != 0:
        raise RuntimeError(f"chromium exited {done.returncode}: {done.stderr.strip()[-500:]}")
    return done.stdout


def probe(binary: str, index: Path) -> tuple[dict[str, int], int]:
    """(naturalWidth per image src, page height) of the page as Chromium loads it."""
    page = index.read_text(encoding="utf-8")
    # beside the original, so that its relative image paths resolve the same way
    fd, tmp = tempfile.mkstemp(prefix=".probe-", suffix=".html", dir=index.parent)
    os.close(fd)
    try:
        Path(tmp).write_text(page.replace("</body>", PROBE + "</body>"), encoding="utf-8")
        dom = chromium(binary, "--dump-dom", f"--window-size={WIDTH},1000",
                       Path(tmp).resolve().as_uri())
    finally:
        Path(tmp).unlink(missing_ok=True)
    body = re.search(r"<body([^>]*)>", dom)
    attrs = dict(re.findall(r'(data-[a-z]+)="([^"]*)"', body.group(1) if body else ""))
    if "data-height" not in attrs:
        raise RuntimeError("the page did not finish loading (no probe result in the DOM)")
    images = {}
    for item in html.unescape(attrs.get("data-images", "")).split():
        src, _, width = item.rpartition("=")
        images[src] = int(width)
    return images, int(attrs["data-height"])


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="scripts/check_report.py", description=__doc__.split("\n")[0])
    p.add_argument("dir", type=Path, help="an output directory (holding report/index.html)")
    p.add_argument("--render", action="store_true", help="render DIR/report/ first")
    p.add_argument("--screenshot", type=Path, help="default: DIR/report-screenshot.png")
    args = p.parse_args(argv)
    binary = find_chromium()
    if binary is None:
        print("error: no Chromium found (set $CHROMIUM, or apt-get install -y chromium)",
              file=sys.stderr)
        return 2
    if args.render:
        from faithqa_spark.report.__main__ import main as render
        if render([str(args.dir)]) != 0:
            return 2
    index = args.dir / "report" / "index.html"
    if not index.is_file():
        print(f"error: {index}: no such file (run python -m faithqa_spark.report "
              f"{args.dir} first, or pass --render)", file=sys.stderr)
        return 2
    declared = re.findall(r'<img src="([^"]+)"', index.read_text(encoding="utf-8"))
    images, height = probe(binary, index)
    broken = [src for src in declared if images.get(src, 0) <= 0]
    shot = (args.screenshot or args.dir / "report-screenshot.png").resolve()
    shot.parent.mkdir(parents=True, exist_ok=True)
    chromium(binary, f"--screenshot={shot}", f"--window-size={WIDTH},{height}",
             index.resolve().as_uri())
    print(f"{index}: {len(declared) - len(broken)}/{len(declared)} images loaded, "
          f"page {WIDTH}x{height} px, screenshot {shot}")
    if broken:
        print(f"error: {index}: images that did not load: {', '.join(broken)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
