#!/usr/bin/python3
"""check_page.py CHROMIUM PAGE.html [--rows TABLE=N ...] [--charts N] [--screenshot OUT.png]

Opens a self-contained page in headless Chromium from the file system, as a reader
would, and fails (exit 1, saying why) unless:
  - the browser logs nothing to its console: no script error, no resource it could
    not load (the page must need no network), no message at all;
  - after its scripts ran, every chart (<svg data-chart=NAME>) draws something (a
    path, line, polyline, polygon, rect or circle), and there are at least --charts N;
  - every table named with --rows TABLE=N (<table data-table=TABLE>) has exactly N
    rows in its <tbody> (the caller counts them in the run's JSON);
  - the page's scripts lost nothing: every table and chart of the file as written is
    there after they ran, with as many rows and shapes (tpfemu writes the rows from the
    JSON; tests/report checks those against it);
  - a screenshot of the page is not blank: at least 2% of its pixels are not the
    background's colour (--screenshot keeps it).
Used by the report tests (tests/browser/CMakeLists.txt); needs Debian's chromium
(scripts/setup installs it)."""
import argparse
import html.parser
import os
import struct
import subprocess
import sys
import tempfile
import zlib


def run_chromium(chromium, args, page, profile):
    cmd = [chromium, "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
           "--disable-background-networking", "--disable-component-update", "--disable-sync",
           f"--user-data-dir={profile}", "--enable-logging=stderr", "--v=0"] + args + ["file://" + page]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120)


class Dom(html.parser.HTMLParser):
    """The charts (their drawn shapes) and the tables (their body rows) of a page."""
    SHAPES = {"path", "line", "polyline", "polygon", "rect", "circle"}

    def __init__(self):
        super().__init__()
        self.charts, self.tables = {}, {}
        self.chart = self.table = None
        self.in_body = False
        self.depth = {"svg": 0, "table": 0}

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "svg":
            if self.depth["svg"] == 0 and "data-chart" in a:
                self.chart = a["data-chart"]
                self.charts.setdefault(self.chart, 0)
            self.depth["svg"] += 1
        elif tag in self.SHAPES and self.chart is not None:
            self.charts[self.chart] += 1
        elif tag == "table":
            if self.depth["table"] == 0 and "data-table" in a:
                self.table = a["data-table"]
                self.tables.setdefault(self.table, 0)
            self.depth["table"] += 1
        elif tag == "tbody" and self.table is not None and self.depth["table"] == 1:
            self.in_body = True
        elif tag == "tr" and self.in_body and self.depth["table"] == 1:
            self.tables[self.table] += 1

    def handle_endtag(self, tag):
        if tag == "svg" and self.depth["svg"]:
            self.depth["svg"] -= 1
            if self.depth["svg"] == 0:
                self.chart = None
        elif tag == "tbody":
            self.in_body = False
        elif tag == "table" and self.depth["table"]:
            self.depth["table"] -= 1
            if self.depth["table"] == 0:
                self.table = None


def png_pixels(path):
    """(width, height, rows of RGB(A) bytes) of an 8-bit RGB or RGBA PNG."""
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError(f"{path}: not a PNG file")
    pos, idat, width = 8, b"", 0
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            if depth != 8 or colour not in (2, 6):
                raise ValueError(f"{path}: PNG colour type {colour}, depth {depth}: not 8-bit RGB(A)")
            bpp = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw, stride, rows, prev = zlib.decompress(idat), width * bpp, [], bytearray(width * bpp)
    for y in range(height):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for x in range(stride):  # undo the row filter (PNG spec, "Filter types")
            a = line[x - bpp] if x >= bpp else 0
            b, c = prev[x], prev[x - bpp] if x >= bpp else 0
            if f == 1:
                line[x] = (line[x] + a) & 255
            elif f == 2:
                line[x] = (line[x] + b) & 255
            elif f == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return width, height, bpp, rows


def ink(path):
    """The share of pixels that differ from the top-left one (the background)."""
    width, height, bpp, rows = png_pixels(path)
    bg = rows[0][:3]
    other = sum(1 for r in rows for x in range(0, width * bpp, bpp) if r[x:x + 3] != bg)
    return other / float(width * height)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("chromium")
    ap.add_argument("page")
    ap.add_argument("--rows", action="append", default=[], metavar="TABLE=N")
    ap.add_argument("--charts", type=int, default=1)
    ap.add_argument("--screenshot")
    o = ap.parse_args()
    page = os.path.abspath(o.page)
    if not os.path.isfile(page):
        sys.exit(f"FAIL: {page}: no such page")
    problems = []
    with tempfile.TemporaryDirectory() as profile:
        r = run_chromium(o.chromium, ["--dump-dom"], page, profile)
        if r.returncode != 0:
            sys.exit(f"FAIL: chromium exited {r.returncode}: {r.stderr[-2000:]}")
        console = [l for l in r.stderr.splitlines() if ":CONSOLE" in l]
        problems += [f"console: {l}" for l in console]
        dom = Dom()
        dom.feed(r.stdout)
        written = Dom()
        with open(page, encoding="utf-8") as f:
            written.feed(f.read())
        for name, n in sorted(written.tables.items()):
            if dom.tables.get(name) != n:
                problems.append(f"table {name}: {n} rows as written, {dom.tables.get(name)} after the scripts ran")
        for name, n in sorted(written.charts.items()):
            if dom.charts.get(name) != n:
                problems.append(f"chart {name}: {n} shapes as written, {dom.charts.get(name)} after the scripts ran")
        if len(dom.charts) < o.charts:
            problems.append(f"{len(dom.charts)} charts (data-chart), at least {o.charts} expected")
        problems += [f"chart {c} draws nothing" for c, n in sorted(dom.charts.items()) if n == 0]
        for spec in o.rows:
            name, n = spec.rsplit("=", 1)
            got = dom.tables.get(name)
            if got is None:
                problems.append(f"no table {name} (data-table)")
            elif got != int(n):
                problems.append(f"table {name}: {got} rows, {n} expected")
        shot = o.screenshot or os.path.join(profile, "page.png")
        r = run_chromium(o.chromium, ["--hide-scrollbars", "--window-size=1280,1600", f"--screenshot={os.path.abspath(shot)}"],
                         page, profile)
        if r.returncode != 0 or not os.path.isfile(shot):
            problems.append(f"no screenshot (chromium exited {r.returncode})")
        else:
            share = ink(shot)
            if share < 0.02:
                problems.append(f"the screenshot is blank ({share:.1%} of its pixels are not background)")
    if problems:
        print(f"FAIL: {page}:")
        for p in problems:
            print("  " + p)
        sys.exit(1)
    print(f"ok: {page}: {len(dom.charts)} charts drawn, tables {dict(sorted(dom.tables.items()))}, no console messages")


if __name__ == "__main__":
    main()
