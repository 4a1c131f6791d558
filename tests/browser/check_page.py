#!/usr/bin/python3
"""check_page.py CHROMIUM PAGE.html [--rows TABLE=N ...] [--charts N] [--screenshot OUT.png] [--width PX]
                [--analyst] [--max-rows TABLE=N ...] [--hex TABLE=COLUMN ...] [--stars TABLE=COLUMN ...]
                [--max-height PX]

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
    background's colour (--screenshot keeps it);
  - with --analyst, laid out --width pixels wide (a run's report.html, issue 48): a
    table of contents (<nav id=contents>) whose every link, and every other link to a
    part of the page, leads to an element there; the page no wider than the window
    (a wide table scrolls in its own box); no JSON in the text a reader sees (no `{"`,
    no `[{"`); at most N rows in each --max-rows TABLE; every cell of each --hex
    TABLE's COLUMN in hex (4 to 16 upper-case digits); each --stars TABLE's COLUMN
    holds an I-stream of -1 and shows it as `***`; the page at most --max-height
    pixels high.
Used by the report tests (tests/browser/CMakeLists.txt); needs Debian's chromium
(scripts/setup installs it)."""
import argparse
import html
import html.parser
import json
import os
import re
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


# The page laid out in a frame `width` pixels wide, measured by a script of the probe's
# own (the page is not changed): its size, the text a reader sees (innerText leaves out
# what is folded away), its links to parts of itself, the cells of the tables asked for.
PROBE = """<!DOCTYPE html><html><body style="margin:0">
<iframe id="page" src="%(src)s" style="width:%(width)dpx;height:2400px;border:0"></iframe>
<pre id="probe-result"></pre>
<script>
document.getElementById('page').addEventListener('load', function () {
  var d = document.getElementById('page').contentDocument, r = {};
  try {
    r.scroll_width = d.documentElement.scrollWidth;
    r.client_width = d.documentElement.clientWidth;
    r.height = d.documentElement.scrollHeight;
    r.text = d.body.innerText;
    r.contents = Array.prototype.map.call(d.querySelectorAll('nav#contents a'), function (a) { return a.getAttribute('href'); });
    r.broken = Array.prototype.filter.call(d.querySelectorAll('a[href^="#"]'), function (a) {
      return !d.getElementById(decodeURIComponent(a.getAttribute('href').slice(1)));
    }).map(function (a) { return a.getAttribute('href'); });
    r.tables = {};
    %(tables)s.forEach(function (name) {
      var t = d.querySelector('table[data-table="' + name + '"]');
      if (!t) return;
      var head = Array.prototype.map.call(t.tHead.rows[0].cells, function (c) { return c.textContent; });
      var rows = Array.prototype.map.call(t.tBodies[0].rows, function (tr) {
        return Array.prototype.map.call(tr.cells, function (c) { return [c.textContent, c.getAttribute('data-v')]; });
      });
      r.tables[name] = {head: head, rows: rows};
    });
  } catch (e) { r.error = String(e); }
  document.getElementById('probe-result').textContent = JSON.stringify(r);
});
</script></body></html>
"""


def probe(chromium, page, profile, width, tables):
    path = os.path.join(profile, "probe.html")
    with open(path, "w", encoding="utf-8") as f:
        f.write(PROBE % {"src": "file://" + page, "width": width, "tables": json.dumps(sorted(tables))})
    r = run_chromium(chromium, ["--allow-file-access-from-files", "--virtual-time-budget=10000", "--dump-dom"], path, profile)
    m = re.search(r'<pre id="probe-result">(.*?)</pre>', r.stdout, re.S)
    if r.returncode != 0 or not m or not m.group(1):
        return None, f"the probe got nothing (chromium exited {r.returncode}): {r.stderr[-1000:]}"
    return json.loads(html.unescape(m.group(1))), None


def column(table, name):
    """A probed table's cells (text, data-v) in the column headed `name`."""
    if name not in table["head"]:
        return None
    i = table["head"].index(name)
    return [row[i] for row in table["rows"] if i < len(row)]


def analyst_problems(o, got):
    """What keeps the probed page from being an analyst's page (--analyst)."""
    problems = []
    if got.get("error"):
        return [f"the probe's script failed: {got['error']}"]
    if len(got["contents"]) < 2:
        problems.append(f"no table of contents: {len(got['contents'])} links in <nav id=contents>")
    problems += [f"link {h} leads nowhere on the page" for h in got["broken"]]
    if got["scroll_width"] > got["client_width"]:
        problems.append(f"the page is {got['scroll_width']} px wide in a window {got['client_width']} px wide")
    for raw in ('[{"', '{"'):
        at = got["text"].find(raw)
        if at >= 0:
            problems.append(f"JSON in the page's text: ...{got['text'][max(0, at - 60):at + 60]!r}...")
    if o.max_height and got["height"] > o.max_height:
        problems.append(f"the page is {got['height']} px high, more than {o.max_height}")
    for spec in o.max_rows:
        name, n = spec.rsplit("=", 1)
        t = got["tables"].get(name)
        if t is None:
            problems.append(f"no table {name} (data-table)")
        elif len(t["rows"]) > int(n):
            problems.append(f"table {name}: {len(t['rows'])} rows, at most {n} expected")
    for spec in o.hex:
        name, col = spec.split("=", 1)
        cells = column(got["tables"].get(name, {"head": []}), col)
        if not cells:
            problems.append(f"no column {col} in table {name}")
            continue
        bad = [text for text, _ in cells if not re.fullmatch(r"[0-9A-F]{4,16}", text)]
        if bad:
            problems.append(f"table {name}, column {col}: not hex: {bad[:5]}")
    for spec in o.stars:
        name, col = spec.split("=", 1)
        cells = column(got["tables"].get(name, {"head": []}), col)
        several = [text for text, v in cells or [] if v is not None and float(v) == -1]
        if not several:
            problems.append(f"table {name}, column {col}: no I-stream -1 to check")
        elif any(text != "***" for text in several):
            problems.append(f"table {name}, column {col}: I-stream -1 shown as {sorted(set(several))}, not ***")
    return problems


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
        elif tag == "tbody" and self.depth["table"] == 1:  # not a nested table's (a cell's)
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
    ap.add_argument("--width", type=int, default=1280)
    ap.add_argument("--analyst", action="store_true")
    ap.add_argument("--max-rows", action="append", default=[], metavar="TABLE=N")
    ap.add_argument("--hex", action="append", default=[], metavar="TABLE=COLUMN")
    ap.add_argument("--stars", action="append", default=[], metavar="TABLE=COLUMN")
    ap.add_argument("--max-height", type=int, default=0)
    o = ap.parse_args()
    page = os.path.abspath(o.page)
    if not os.path.isfile(page):
        sys.exit(f"FAIL: {page}: no such page")
    problems, got = [], None
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
        if o.analyst:
            tables = {spec.rsplit("=", 1)[0] for spec in o.max_rows} | {spec.split("=", 1)[0] for spec in o.hex + o.stars}
            got, error = probe(o.chromium, page, profile, o.width, tables)
            problems += [error] if error else analyst_problems(o, got)
        shot = o.screenshot or os.path.join(profile, "page.png")
        r = run_chromium(o.chromium, ["--hide-scrollbars", f"--window-size={o.width},1600", f"--screenshot={os.path.abspath(shot)}"],
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
    laid_out = f", {got['height']} px high at {o.width} px wide" if o.analyst else ""
    print(f"ok: {page}: {len(dom.charts)} charts drawn, tables {dict(sorted(dom.tables.items()))}, no console messages"
          f"{laid_out}")


if __name__ == "__main__":
    main()
