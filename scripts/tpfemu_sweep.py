"""Sweeps: many `tpfemu run`s as one study (scripts/sweep; docs/sweeps.md).

A sweep file (YAML) names the base configuration (config files and --set overrides),
the parameter grid (lists, and zipped lists varied together), derived keys, the
replications (workload.seed values) and the figures to collect. `plan()` turns it into
runs: one run folder per point and seed, named by its parameters. The local executor
runs them N at a time; the Slurm executor submits the same runs as a job array whose
tasks call `scripts/sweep --task I DIR` (the same `run_task` as the local executor, so
both write the same bytes). A run is written into a temporary folder and renamed when
it succeeded: a run folder that exists is complete. Each run folder says which build
and configuration made it (made_by.json); a sweep resumed into the folder keeps only
the runs this build and these configuration files would make again, and refuses the
others unless asked to rerun them (--rerun-stale): figures of two models never mix.

Nothing here installs anything (scripts/setup: python3-yaml, python3-matplotlib).
"""
import ast
import csv
import fnmatch
import hashlib
import io
import json
import math
import os
import re
import shutil
import signal
import subprocess
import sys
import time

import yaml

from tpfemu_runs import TPFEMU, pyplot, readable_axis

PLAN = "plan.json"          # what to run, written before anything runs (DIR/plan.json)
RUNS = "runs"               # DIR/runs/NAME: the complete run folders
FAILED = ".failed"          # DIR/runs/.failed/NAME.txt: why a run failed (removed once it succeeds)
TMP = ".tmp-"               # DIR/runs/.tmp-NAME: a run in progress (removed when found later)
MADE_BY = "made_by.json"    # DIR/runs/NAME/made_by.json: the build and configuration that made the run
# The longest folder name a point gets from its values; a longer one is named by its
# number (p001, p002, ... in plan order), results.csv giving its values beside it.
MAX_NAME = 48
RUN_KEYS = ("sweep", "params", "short", "runs")  # what of plan.json a resume must find the same
TOP_KEYS = ("configs", "set", "grid", "zip", "one_at_a_time", "derive", "seeds", "replications", "collect", "plot",
            "slurm")


MAX_DEPTH = 16              # nesting levels a sweep file may have (it needs 3: grid, a key, its list)
MAX_RUNS = 10000            # runs a sweep may plan (points x seeds); beyond it a mistake, not a study


class SweepError(Exception):
    """A mistake in a sweep file: the message names the file, line and key."""


def _where(path, node):
    return f"{path}:{node.start_mark.line + 1}"


def _value(path, node, key):
    """A scalar as YAML types it (1 -> int, 1.5 -> float, csg-loop -> str)."""
    if not isinstance(node, yaml.ScalarNode):
        raise SweepError(f"{_where(path, node)}: {key}: expected a single value")
    try:
        return yaml.SafeLoader(io.StringIO("")).construct_object(node, deep=True)
    except (yaml.YAMLError, ValueError, TypeError, OverflowError, AttributeError) as e:  # !!timestamp x, !!python/...
        raise SweepError(f"{_where(path, node)}: {key}: {getattr(e, 'problem', None) or e}") from None


def _mapping(path, node, key):
    if not isinstance(node, yaml.MappingNode):
        raise SweepError(f"{_where(path, node)}: {key}: expected a mapping (KEY: VALUE lines)")
    seen = {}
    for k, v in node.value:
        name = _value(path, k, key)
        if not isinstance(name, str):
            raise SweepError(f"{_where(path, k)}: {key}: {name!r} is not a key name")
        if name in seen:
            raise SweepError(f"{_where(path, k)}: {key}.{name}: given twice (also line {seen[name]})")
        seen[name] = k.start_mark.line + 1
        yield name, k, v


def _list(path, node, key):
    if not isinstance(node, yaml.SequenceNode):
        raise SweepError(f"{_where(path, node)}: {key}: expected a list ([a, b] or - lines)")
    if not node.value:
        raise SweepError(f"{_where(path, node)}: {key}: the list is empty")
    return node.value


def _param(path, knode, key, places=None, section=""):
    """KEY checked as a configuration key's name; PLACES (when given) gets where it
    stands, "FILE:LINE: SECTION.KEY", for check_keys' messages."""
    if not re.fullmatch(r"[a-z_][a-z0-9_]*(\.[a-z_][a-z0-9_]*)+", key):
        raise SweepError(f"{_where(path, knode)}: {key}: not a configuration key (section.key, as --set takes)")
    if places is not None:
        places.setdefault(key, f"{_where(path, knode)}: {section}.{key}")
    return key


def _text(v):
    """A value as --set and folder names spell it."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return str(v)


_FIGURE = re.compile(r"(?P<file>[^:\s]+):(?P<path>\S+)$")
_RATIO = re.compile(r"(?P<a>[A-Za-z_]\w*)\s*/\s*(?P<b>[A-Za-z_]\w*)$")
_SEGMENT = re.compile(r"(?P<name>[A-Za-z_]\w*)(\[(?P<filter>[^\]]*)\])?$")


def _parse_figure(path, vnode, name, text, names):
    """FILE:PATH (a JSON report's member: a.b.c, rows[prog=slockc*,inst=CSG|CS].count sums
    the matching rows'; or a text report's `lines`), or A / B of two earlier figures."""
    m = _RATIO.match(text)
    if m:
        for n in (m["a"], m["b"]):
            if n not in names:
                raise SweepError(f"{_where(path, vnode)}: collect.{name}: {n} is not a figure collected above it")
        return {"ratio": [m["a"], m["b"]]}
    m = _FIGURE.match(text)
    if not m:
        raise SweepError(f"{_where(path, vnode)}: collect.{name}: {text!r} is neither FILE:PATH "
                         "(summary.json:messages_per_second, syslog.log:lines) nor A / B")
    segs = re.split(r"\.(?![^\[]*\])", m["path"])  # the dots outside [...]: a pattern may hold one
    if not m["file"].endswith(".json"):
        if segs != ["lines"]:
            raise SweepError(f"{_where(path, vnode)}: collect.{name}: of a text report ({m['file']}) "
                             "only :lines (its number of lines) is collected")
        return {"file": m["file"], "lines": True}
    parsed = []
    for s in segs:
        sm = _SEGMENT.match(s)
        if not sm:
            raise SweepError(f"{_where(path, vnode)}: collect.{name}: {s!r} in {m['path']} is not NAME or NAME[FIELD=PATTERN,...]")
        conds = []
        if sm["filter"] is not None:
            for c in sm["filter"].split(","):
                if "=" not in c:
                    raise SweepError(f"{_where(path, vnode)}: collect.{name}: {c!r} is not FIELD=PATTERN[|PATTERN]")
                f, pats = c.split("=", 1)
                conds.append([f.strip(), pats.split("|")])
        parsed.append([sm["name"], conds])
    return {"file": m["file"], "path": parsed}


def _derive_expr(path, vnode, key, text, params):
    """An arithmetic expression over parameters in braces: 44 * {machine.istreams}."""
    if len(text) > 1000:
        raise SweepError(f"{_where(path, vnode)}: derive.{key}: an expression of {len(text)} characters "
                         "(at most 1000)")
    names = re.findall(r"\{([^}]*)\}", text)
    for n in names:
        if n not in params:
            raise SweepError(f"{_where(path, vnode)}: derive.{key}: {{{n}}} is not a swept parameter")
    expr = re.sub(r"\{([^}]*)\}", lambda m: "p%d" % params.index(m[1]), text)
    try:
        tree = ast.parse(expr, mode="eval")
    except (SyntaxError, RecursionError, MemoryError):  # e.g. parentheses nested too deep
        raise SweepError(f"{_where(path, vnode)}: derive.{key}: {text!r} is not an expression "
                         "(numbers, + - * / // and {parameter})") from None
    ok = (ast.Expression, ast.BinOp, ast.UnaryOp, ast.Constant, ast.Name, ast.Load, ast.Add, ast.Sub,
          ast.Mult, ast.Div, ast.FloorDiv, ast.USub)
    parameters = {"p%d" % i for i in range(len(params))}
    for n in ast.walk(tree):
        # Only the braces' parameters are names, and only numbers constants (a bare word
        # such as true, or a string, was a traceback at plan time: the sweep fuzzer's finding).
        bad_name = isinstance(n, ast.Name) and n.id not in parameters
        bad_constant = isinstance(n, ast.Constant) and (isinstance(n.value, bool) or
                                                        not isinstance(n.value, (int, float)))
        if not isinstance(n, ok) or bad_name or bad_constant:
            raise SweepError(f"{_where(path, vnode)}: derive.{key}: {text!r} is not an expression "
                             "(numbers, + - * / // and {parameter})")
    return expr


def _read(path, limit=1 << 20):
    """The file's bytes: a regular file of at most LIMIT bytes (not /dev/zero, not a folder)."""
    try:
        with open(path, "rb") as f:
            if not os.path.isfile(path):
                raise SweepError(f"{path}: not a regular file")
            raw = f.read(limit + 1)
    except OSError as e:
        raise SweepError(f"{path}: cannot open ({e.strerror})") from None
    if len(raw) > limit:
        raise SweepError(f"{path}: larger than {limit} bytes; a sweep file is a page or two")
    return raw


def _compose(p, raw):
    """The file's YAML node tree; every way it is not a sweep file's YAML is a SweepError
    with its line: not UTF-8, a character YAML does not allow, a syntax error, or deeper
    than MAX_DEPTH (checked on the parser's events first: the composer recurses)."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        line = raw.count(b"\n", 0, e.start) + 1
        raise SweepError(f"{p}:{line}: not UTF-8 text "
                         f"(byte 0x{raw[e.start]:02x} at offset {e.start})") from None
    try:
        depth = 0
        for ev in yaml.parse(text):
            if isinstance(ev, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
                depth += 1
                if depth > MAX_DEPTH:
                    raise SweepError(f"{p}:{ev.start_mark.line + 1}: nested more than {MAX_DEPTH} levels deep")
            elif isinstance(ev, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
                depth -= 1
        return yaml.compose(text)
    except yaml.reader.ReaderError as e:
        raise SweepError(f"{p}:{text.count(chr(10), 0, e.position) + 1}: not YAML: character "
                         f"U+{ord(e.character) if isinstance(e.character, str) else e.character:04X} "
                         "is not allowed") from None
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        raise SweepError(f"{p}:{mark.line + 1 if mark else 1}: not YAML: {getattr(e, 'problem', None) or e}") from None


def load(sweep_path, axis_values=None):
    """Reads and checks a sweep file; returns the spec (a dict of plain values).
    AXIS_VALUES {key: [values]} replaces the values of swept keys (zipped ones too: the
    other lists of a zip are then cut to as many, or must be derived)."""
    sweep_path = os.path.abspath(sweep_path)
    here = os.path.dirname(sweep_path)
    p = sweep_path
    root = _compose(p, _read(p))
    if root is None:
        raise SweepError(f"{p}:1: empty sweep file (configs:, grid: and collect: are needed)")
    spec = {"file": sweep_path, "configs": [], "set": [], "axes": [], "derive": [], "seeds": None, "places": {},
            "collect": {}, "plot": {}, "slurm": {}}
    top = dict((k, (kn, v)) for k, kn, v in _mapping(p, root, "sweep"))
    for k, (kn, _) in top.items():
        if k not in TOP_KEYS:
            raise SweepError(f"{_where(p, kn)}: {k}: unknown key (known: {', '.join(TOP_KEYS)})")
    for k in ("configs", "collect"):
        if k not in top:
            raise SweepError(f"{p}:1: {k}: missing")
    for n in _list(p, top["configs"][1], "configs"):
        c = _value(p, n, "configs")
        full = os.path.normpath(os.path.join(here, str(c)))
        if not os.path.isfile(full):
            raise SweepError(f"{_where(p, n)}: configs: {c}: no such file ({full})")
        spec["configs"].append(full)
    if "set" in top:
        for k, kn, v in _mapping(p, top["set"][1], "set"):
            spec["set"].append([_param(p, kn, k, spec["places"], "set"), _text(_value(p, v, "set." + k))])
    params = []
    axis_values = dict(axis_values or {})

    def values(k, vnode):
        vs = [_value(p, n, k) for n in _list(p, vnode, k)]
        for n, v in zip(vnode.value, vs):
            if v is None or isinstance(v, (list, dict)):
                raise SweepError(f"{_where(p, n)}: {k}: {v!r} is not a value")
        return vs

    if "grid" in top:
        for k, kn, v in _mapping(p, top["grid"][1], "grid"):
            _param(p, kn, k, spec["places"], "grid")
            if k in params:
                raise SweepError(f"{_where(p, kn)}: grid.{k}: swept twice")
            params.append(k)
            spec["axes"].append({"keys": [k], "values": [[x] for x in axis_values.pop(k, None) or values(k, v)]})
    if "zip" in top:
        for z in _list(p, top["zip"][1], "zip"):
            keys, cols, line = [], [], z.start_mark.line + 1
            for k, kn, v in _mapping(p, z, "zip"):
                _param(p, kn, k, spec["places"], "zip")
                if k in params:
                    raise SweepError(f"{_where(p, kn)}: zip.{k}: swept twice")
                params.append(k)
                keys.append(k)
                cols.append((kn, values(k, v)))
            for k in keys:
                if k in axis_values:
                    raise SweepError(f"{p}:{line}: zip: {k} is zipped; only a grid: key's values can be replaced")
            for k, (kn, c) in zip(keys, cols):
                if len(c) != len(cols[0][1]):
                    raise SweepError(f"{_where(p, kn)}: zip.{k}: {len(c)} values, {keys[0]} has {len(cols[0][1])} "
                                     "(zipped lists go together, one value each per point)")
            rows = list(zip(*[c for _, c in cols]))
            spec["axes"].append({"keys": keys, "values": [list(r) for r in rows]})
    if "one_at_a_time" in top:
        # One axis: the first value of every key (the reference point), then each key
        # alone at each of its other values, the rest at their first (a sensitivity study).
        keys, firsts, moves = [], [], []
        for k, kn, v in _mapping(p, top["one_at_a_time"][1], "one_at_a_time"):
            _param(p, kn, k, spec["places"], "one_at_a_time")
            if k in params or k in axis_values:
                raise SweepError(f"{_where(p, kn)}: one_at_a_time.{k}: swept twice")
            vs = values(k, v)
            if len(vs) < 2:
                raise SweepError(f"{_where(p, kn)}: one_at_a_time.{k}: the reference value and at least one "
                                 "other are needed")
            params.append(k)
            keys.append(k)
            firsts.append(vs[0])
            moves += [(len(keys) - 1, x) for x in vs[1:]]
        rows = [list(firsts)]
        for i, x in moves:
            rows.append(firsts[:i] + [x] + firsts[i + 1:])
        spec["axes"].append({"keys": keys, "values": rows, "one_at_a_time": True})
    if axis_values:
        raise SweepError(f"{p}: {', '.join(axis_values)}: not swept in this file")
    if "derive" in top:
        for k, kn, v in _mapping(p, top["derive"][1], "derive"):
            _param(p, kn, k, spec["places"], "derive")
            if k in params:
                raise SweepError(f"{_where(p, kn)}: derive.{k}: also swept")
            spec["derive"].append([k, _derive_expr(p, v, k, str(_value(p, v, "derive." + k)), params),
                                   _where(p, v)])
    if "seeds" in top and "replications" in top:
        raise SweepError(f"{_where(p, top['replications'][0])}: replications: give seeds: or replications:, not both")
    if "seeds" in top:
        spec["seeds"] = []
        for n in _list(p, top["seeds"][1], "seeds"):
            s = _value(p, n, "seeds")
            if not isinstance(s, int) or isinstance(s, bool) or s < 0:
                raise SweepError(f"{_where(p, n)}: seeds: {s!r} is not a seed (an integer >= 0)")
            spec["seeds"].append(s)
    if "replications" in top:
        n = _value(p, top["replications"][1], "replications")
        if not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= 1000:
            raise SweepError(f"{_where(p, top['replications'][1])}: replications: {n!r} is out of range 1..1000")
        spec["seeds"] = list(range(1, n + 1))
    runs = len(spec["seeds"] or [None])
    for a in spec["axes"]:
        runs *= len(a["values"])
    if runs > MAX_RUNS:
        first = next(top[k][0] for k in ("grid", "zip", "one_at_a_time", "seeds", "replications") if k in top)
        raise SweepError(f"{_where(p, first)}: {runs} runs (points x seeds): more than {MAX_RUNS}")
    if "workload.seed" in params and spec["seeds"]:
        raise SweepError(f"{p}: workload.seed: swept and replicated; replications set the seed")
    for name, kn, v in _mapping(p, top["collect"][1], "collect"):
        if not re.fullmatch(r"[A-Za-z_]\w*", name):
            raise SweepError(f"{_where(p, kn)}: collect.{name}: a figure's name is letters, digits and _")
        spec["collect"][name] = _parse_figure(p, v, name, str(_value(p, v, "collect." + name)), list(spec["collect"]))
    if "plot" in top:
        for k, kn, v in _mapping(p, top["plot"][1], "plot"):
            val = None if k in ("figures", "labels", "units") else _value(p, v, "plot." + k)
            if k == "x" and val not in params:
                raise SweepError(f"{_where(p, v)}: plot.x: {val} is not a swept parameter")
            if k == "xscale" and val not in ("linear", "log2", "log10"):
                raise SweepError(f"{_where(p, v)}: plot.xscale: {val!r}: linear, log2 or log10")
            if k == "figures":
                val = [_value(p, n, k) for n in _list(p, v, k)]
                for n, f in zip(v.value, val):
                    if f not in spec["collect"]:
                        raise SweepError(f"{_where(p, n)}: plot.figures: {f} is not collected")
            if k in ("labels", "units"):  # figure or parameter -> what the axis says / the unit it is in
                val = {}
                for name, nn, lv in _mapping(p, v, "plot." + k):
                    if name not in spec["collect"] and name not in params:
                        raise SweepError(f"{_where(p, nn)}: plot.{k}.{name}: neither a collected figure nor a "
                                         "swept parameter")
                    val[name] = str(_value(p, lv, f"plot.{k}." + name))
            if k == "yzero" and not isinstance(val, bool):
                raise SweepError(f"{_where(p, v)}: plot.yzero: {val!r}: true or false")
            if k not in ("x", "xscale", "figures", "title", "labels", "units", "yzero"):
                raise SweepError(f"{_where(p, kn)}: plot.{k}: unknown key (x, xscale, figures, title, labels, units, "
                                 "yzero)")
            spec["plot"][k] = val
    if "slurm" in top:
        for k, kn, v in _mapping(p, top["slurm"][1], "slurm"):
            if k not in ("partition", "time", "limit", "options"):
                raise SweepError(f"{_where(p, kn)}: slurm.{k}: unknown key (partition, time, limit, options)")
            spec["slurm"][k] = [_text(_value(p, n, k)) for n in _list(p, v, k)] if k == "options" \
                else _value(p, v, "slurm." + k)
    return spec


def _short_names(params):
    """Each parameter's shortest dotted suffix that no other parameter shares."""
    out = {}
    for k in params:
        parts = k.split(".")
        for i in range(len(parts) - 1, -1, -1):
            s = ".".join(parts[i:])
            if not any(o != k and (o == s or o.endswith("." + s)) for o in params):
                out[k] = s
                break
    return out


def _safe(v):
    return re.sub(r"[^A-Za-z0-9._+-]", "_", _text(v))


def plan(spec, extra_sets=()):
    """The runs, in order: points (the grid's product, first axis slowest) x seeds.
    Each: name (its folder), params {key: value}, seed, and the whole tpfemu command
    after `tpfemu` (configs by absolute path, so every executor passes the same)."""
    params = [k for a in spec["axes"] for k in a["keys"]]
    short = _short_names(params)
    def label(a, vs):
        if not a.get("one_at_a_time"):
            return [f"{short[k]}={_safe(v)}" for k, v in zip(a["keys"], vs)]
        moved = [f"{short[k]}={_safe(v)}" for k, v, first in zip(a["keys"], vs, a["values"][0]) if v != first]
        return moved or ["reference"]

    points = [([], [])]
    for a in spec["axes"]:
        points = [(pt + list(zip(a["keys"], vs)), names + label(a, vs)) for pt, names in points for vs in a["values"]]
    runs = []
    for pt, names in points:
        pdict = dict(pt)
        sets = [f"{k}={v}" for k, v in spec["set"]] + list(extra_sets) + [f"{k}={_text(v)}" for k, v in pt]
        env = {"p%d" % params.index(k): v for k, v in pt}
        for k, expr, where in spec["derive"]:
            try:
                val = eval(compile(expr, "derive", "eval"), {"__builtins__": {}}, env)  # checked by _derive_expr
                sets.append(f"{k}={_text(val)}")
            except (ArithmeticError, TypeError, ValueError, RecursionError) as e:  # / 0, "a" * 2.5, 10**5000 digits
                at = ", ".join(f"{n}={_text(v)}" for n, v in pt)
                raise SweepError(f"{where}: derive.{k}: at {at}: {e}") from None
        base = ",".join(names) or "base"
        if len(base) > MAX_NAME:   # a long point's folder by its number; results.csv maps it to its values
            base = f"p{len(runs) // len(spec['seeds'] or [None]) + 1:03d}"
        for seed in spec["seeds"] or [None]:
            name = base + (f",seed={seed}" if seed is not None else "")
            s = sets + ([f"workload.seed={seed}"] if seed is not None else [])
            args = ["run"] + spec["configs"] + ["--no-progress"]
            for x in s:
                args += ["--set", x]
            runs.append({"name": name, "params": pdict, "seed": seed, "args": args})
    seen = set()
    for r in runs:
        if r["name"] in seen:
            raise SweepError(f"{spec['file']}: two points are both named {r['name']} (values that differ only "
                             "in characters a folder name cannot hold)")
        seen.add(r["name"])
    return {"sweep": spec["file"], "params": params, "short": short, "collect": spec["collect"],
            "plot": spec["plot"], "slurm": spec["slurm"], "runs": runs, "places": spec.get("places", {})}


def configs_of(p):
    """The configuration files of plan P's runs: every run's command is `run CONFIG...
    --no-progress --set ...` (plan()), with the same files."""
    args = p["runs"][0]["args"]
    return args[1:args.index("--no-progress")]


def sha256_of(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def build_record(configs, tpfemu=TPFEMU):
    """What a run's figures depend on besides its command line: tpfemu's version as the
    binary states it (`tpfemu --version`: the git commit its tree was at when built,
    -dirty if that tree was modified; git now may have moved on), the binary's SHA-256
    (two builds of one modified tree differ only there) and each configuration file's
    SHA-256. The files a run's path keys name (the image, a trace) are added per run
    from its config.yaml (run_task)."""
    try:
        r = subprocess.run([tpfemu, "--version"], capture_output=True, text=True, timeout=60)
        sha = sha256_of(tpfemu)
    except subprocess.TimeoutExpired:
        raise SweepError(f"{tpfemu} --version: no answer in 60 s") from None
    except OSError as e:
        raise SweepError(f"{tpfemu}: {e.strerror} (is it built? scripts/setup builds it)") from None
    if r.returncode != 0 or not r.stdout.startswith("tpfemu "):
        raise SweepError(f"{tpfemu} --version: exit status {r.returncode}: {(r.stdout + r.stderr).strip()}")
    version = r.stdout.strip()[len("tpfemu "):]
    m = re.search(r"\(git ([^)\s]+?)(-dirty)?\)$", version)  # cmake/version.cmake: "0.1 (git COMMIT[-dirty])"
    rec = {"version": version, "commit": m[1] if m else None, "modified": bool(m[2]) if m else None,
           "tpfemu_sha256": sha, "configs": {}}
    for c in configs:
        try:
            rec["configs"][c] = sha256_of(c)
        except OSError as e:
            raise SweepError(f"{c}: {e.strerror}") from None
    return rec


def _inputs(run_path):
    """The files the run's path keys named and their SHA-256, as its config.yaml's header
    states them ("# system.image: FILE", "# system.image sha256: HEX"): {key: {file, sha256}}."""
    files, out = {}, {}
    try:
        with open(os.path.join(run_path, "config.yaml")) as f:
            for line in f:
                if not line.startswith("#"):
                    break  # the header ends at the first key
                m = re.fullmatch(r"# ([a-z_][\w.]*) sha256: ([0-9a-f]{64})\n?", line)
                if m and m[1] in files:
                    out[m[1]] = {"file": files[m[1]], "sha256": m[2]}
                    continue
                m = re.fullmatch(r"# ([a-z_]\w*(?:\.\w+)+): (.+?)\n?", line)
                if m:
                    files[m[1]] = m[2]
    except OSError:
        pass  # no config.yaml: tpfemu wrote none (older builds); nothing to add
    return out


def _stamp(made_by, run_path):
    """What DIR/runs/NAME/made_by.json holds: the build and configuration (MADE_BY, no
    host path) and the run's path-key files."""
    s = {k: made_by[k] for k in ("version", "commit", "modified", "tpfemu_sha256", "configs")}
    s["inputs"] = _inputs(run_path)
    return s


def differences(stamp, now, hashes):
    """What differs between the build and configuration that made a run (its STAMP, or
    None when it has none) and NOW: [(what, then, now)]. HASHES caches the SHA-256 of
    the path-key files as they are now."""
    if stamp is None:
        return [("made by", f"a build the sweep did not record (no {MADE_BY})", f"tpfemu {now['version']}")]
    d = []
    for k, what in (("version", "tpfemu version"), ("tpfemu_sha256", "tpfemu sha256")):
        if stamp.get(k) != now[k]:
            d.append((what, stamp.get(k), now[k]))
    then_c = stamp.get("configs") or {}
    for c in sorted(set(then_c) | set(now["configs"])):
        a, b = then_c.get(c), now["configs"].get(c)
        if a != b:
            d.append((f"{c} sha256", a or "not a configuration of the run", b or "not a configuration now"))
    for key, x in sorted((stamp.get("inputs") or {}).items()):
        if not isinstance(x, dict) or not isinstance(x.get("file"), str):
            d.append((f"{key} in {MADE_BY}", repr(x), "not a {file, sha256} record"))
            continue
        if x["file"] not in hashes:
            try:
                hashes[x["file"]] = sha256_of(x["file"])
            except OSError as e:
                hashes[x["file"]] = f"unreadable ({e.strerror})"
        if hashes[x["file"]] != x["sha256"]:
            d.append((f"{key} {x['file']} sha256", x["sha256"], hashes[x["file"]]))
    return d


def read_stamp(out, run):
    try:
        with open(os.path.join(run_dir(out, run), MADE_BY)) as f:
            s = json.load(f)
        return s if isinstance(s, dict) else None
    except (OSError, ValueError):
        return None


def stale_runs(out, p, now, indices=None):
    """{run index: differences} of the complete runs (of INDICES, or all) that another
    build or other configuration contents made than NOW."""
    hashes, stale = {}, {}
    for i in range(len(p["runs"])) if indices is None else indices:
        r = p["runs"][i]
        if is_complete(out, r):
            d = differences(read_stamp(out, r), now, hashes)
            if d:
                stale[i] = d
    return stale


def stale_message(out, p, stale):
    """The runs that another build or configuration made, grouped by what differs."""
    complete = sum(1 for r in p["runs"] if is_complete(out, r))
    groups = {}
    for i, d in stale.items():
        groups.setdefault(tuple(d), []).append(p["runs"][i]["name"])
    lines = [f"{out}: {len(stale)} of the {complete} complete runs were made by another build or configuration:"]
    for d, names in groups.items():
        shown = ", ".join(names[:4]) + (f" and {len(names) - 4} more" if len(names) > 4 else "")
        lines.append(f"  {shown}:")
        lines += [f"    {what}: {then} then, {now} now" for what, then, now in d]
    kept = complete - len(stale)
    lines.append("--rerun-stale runs " + (f"exactly those again and keeps the {kept} current "
                                          f"run{'s' if kept > 1 else ''}" if kept else "them all again")
                 + ", or use another --out")
    return "\n".join(lines)


def check_keys(p, tpfemu=TPFEMU):
    """Every run's configuration checked before any runs (`tpfemu config`: the files,
    then the run's --set), each distinct one once: a key misspelt or a value out of its
    range refuses the sweep, naming the sweep file's line for a key it sets (grid:, zip:,
    one_at_a_time:, set:, derive:) and the run's values."""
    seen, configs = set(), configs_of(p)
    for r in p["runs"]:
        args = ["config"] + [x for c in configs for x in ("--config", c)] + r["args"][len(configs) + 2:]
        key = tuple(args)
        if key in seen:
            continue
        seen.add(key)
        try:
            c = subprocess.run([tpfemu] + args, capture_output=True, text=True, timeout=120)
        except subprocess.TimeoutExpired:
            raise SweepError(f"{tpfemu} config: no answer in 120 s") from None
        except OSError as e:
            raise SweepError(f"{tpfemu}: {e.strerror} (is it built? scripts/setup builds it)") from None
        if c.returncode == 0:
            continue
        msg = c.stderr.strip().splitlines()[0] if c.stderr.strip() else f"exit status {c.returncode}"
        msg = msg[len("tpfemu: "):] if msg.startswith("tpfemu: ") else msg
        m = re.match(r"--set: ([a-z0-9_.]+): (.*)", msg)
        if m and m[1] in p.get("places", {}):
            at = ", ".join(f"{k}={_text(v)}" for k, v in r["params"].items())
            raise SweepError(f"{p['places'][m[1]]}: {m[2]}" + (f" (at {at})" if at else ""))
        raise SweepError(f"{p['sweep']}: run {r['name']}: {msg}")


def prepare(out, p, rerun_stale=False, tpfemu=TPFEMU):
    """Makes DIR ready for the runs of plan P and returns the build record (build_record):
    DIR/plan.json written, over one of the same runs (another sweep is refused);
    interrupted runs' temporary folders removed; runs that another build or other
    configuration contents made refused, naming what differs, or with RERUN_STALE
    removed so that they run again (the others are kept)."""
    now = build_record(configs_of(p), tpfemu)
    check_keys(p, tpfemu)
    os.makedirs(os.path.join(out, RUNS, FAILED), exist_ok=True)
    path = os.path.join(out, PLAN)
    if os.path.exists(path):
        try:
            old = read_plan(out)
        except (OSError, ValueError) as e:
            raise SweepError(f"{path}: not a plan.json ({e}); use another --out, or remove it to start over") from None
        # The runs must be the same; what is collected from them, plotted, or the Slurm
        # defaults may change (a collect: expression corrected, say): plan.json is
        # rewritten below and the figures collected again from the runs kept.
        same = isinstance(old, dict) and all(old.get(k) == json.loads(json.dumps(p[k])) for k in RUN_KEYS)
        if not same:
            raise SweepError(f"{path}: this folder holds another sweep (or this one's runs changed); "
                             "use another --out, or remove it to start over")
    clean_tmp(out)
    stale = stale_runs(out, p, now)
    if stale and not rerun_stale:
        raise SweepError(stale_message(out, p, stale))
    for i in stale:
        shutil.rmtree(run_dir(out, p["runs"][i]))
    if stale:
        sys.stderr.write(f"sweep: {len(stale)} runs made by another build or configuration removed, "
                         "to be run again\n")
    doc = dict(p, made_by=dict(now, tpfemu=os.path.abspath(tpfemu)))  # the sweep's latest build
    with open(path + ".tmp", "w") as f:
        f.write(json.dumps(doc, indent=1) + "\n")
    os.replace(path + ".tmp", path)
    return now


def read_plan(out):
    with open(os.path.join(out, PLAN)) as f:
        return json.load(f)


def run_dir(out, run):
    return os.path.join(out, RUNS, run["name"])


def is_complete(out, run):
    return os.path.isdir(run_dir(out, run))


class _Running(set):
    """The tpfemu processes under way, stopped when the sweep is interrupted."""
    stopping = False


_running = _Running()


def record_failure(out, run, err):
    """DIR/runs/.failed/NAME.txt: the command and why it failed (results.csv's error)."""
    failed = os.path.join(out, RUNS, FAILED, run["name"] + ".txt")
    os.makedirs(os.path.dirname(failed), exist_ok=True)
    with open(failed + ".tmp", "w") as f:
        f.write(f"tpfemu {' '.join(run['args'])}\n{err}\n")
    os.replace(failed + ".tmp", failed)


def run_task(out, p, i, made_by, tpfemu=TPFEMU):
    """Runs run I of plan P into DIR/runs/NAME (through .tmp-NAME, renamed on success),
    unless complete; the run folder's made_by.json says that MADE_BY (build_record) made
    it. Returns None, or the error (also in runs/.failed/NAME.txt)."""
    run = p["runs"][i]
    final = run_dir(out, run)
    failed = os.path.join(out, RUNS, FAILED, run["name"] + ".txt")
    if os.path.isdir(final):
        return None
    tmp = os.path.join(out, RUNS, TMP + run["name"])
    shutil.rmtree(tmp, ignore_errors=True)
    # The run's working directory is the sweep's folder and its --out relative to it, so
    # the run's reports name the same paths whichever executor and host ran it.
    cmd = [tpfemu] + run["args"] + ["--out", os.path.join(RUNS, TMP + run["name"])]
    try:
        with subprocess.Popen(cmd, cwd=out, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True) as r:
            _running.add(r)
            try:
                r.stderr_text = r.communicate()[1]
            finally:
                _running.discard(r)
        r.stderr = r.stderr_text
        status = f"killed by signal {-r.returncode}" if r.returncode < 0 else f"exit status {r.returncode}"
        err = None if r.returncode == 0 else (r.stderr.strip() + "\n" if r.stderr.strip() else "") + status
        if err is None and r.returncode == 0 and not os.path.isfile(os.path.join(tmp, "summary.json")):
            err = "tpfemu wrote no summary.json"
    except OSError as e:
        err = f"{tpfemu}: {e.strerror}"
    if err is None and _running.stopping:
        err = "interrupted"
    if err is None:
        with open(os.path.join(tmp, MADE_BY), "w") as f:  # in the folder before it is complete
            json.dump(_stamp(made_by, tmp), f, indent=1)
            f.write("\n")
        os.replace(tmp, final)
        if os.path.exists(failed):
            os.remove(failed)
        return None
    shutil.rmtree(tmp, ignore_errors=True)
    if _running.stopping:
        return err  # not a failure of the run: the sweep was interrupted
    record_failure(out, run, err)
    return err


def clean_tmp(out):
    """Removes the temporary folders of runs that were interrupted."""
    d = os.path.join(out, RUNS)
    for n in os.listdir(d):
        if n.startswith(TMP):
            shutil.rmtree(os.path.join(d, n), ignore_errors=True)


class Progress:
    """done, failed, running, elapsed and estimated time left: a line rewritten in
    place on a terminal, else a line per finished run; always on stderr. Host time is
    for this display only; nothing of it goes into a result."""

    def __init__(self, total, skipped):
        self.total, self.done, self.failed, self.running = total, skipped, 0, 0
        self.skipped, self.start, self.tty = skipped, time.monotonic(), sys.stderr.isatty()

    def _line(self):
        el = time.monotonic() - self.start
        ran = self.done - self.skipped + self.failed
        left = "?" if ran == 0 else f"{el / ran * (self.total - self.done - self.failed):.0f}s"
        return (f"sweep: {self.done}/{self.total} done, {self.failed} failed, {self.running} running, "
                f"{el:.0f}s elapsed, {left} left")

    def show(self, event=None):
        if self.tty:
            sys.stderr.write("\r" + self._line() + "\033[K")
            if event:
                sys.stderr.write("\n" if event.startswith("failed") else "")
        elif event:
            sys.stderr.write(f"sweep: {event}\n")
        sys.stderr.flush()

    def finish(self):
        if self.tty:
            sys.stderr.write("\r" + self._line() + "\033[K\n")
        else:
            sys.stderr.write(self._line() + "\n")


def run_local(out, p, jobs, made_by, tpfemu=TPFEMU):
    """Runs the incomplete runs, JOBS at a time, in order, as MADE_BY (prepare()).
    Returns {name: error}."""
    import threading
    from concurrent.futures import ThreadPoolExecutor, wait
    todo = [i for i, r in enumerate(p["runs"]) if not is_complete(out, r)]
    prog = Progress(len(p["runs"]), len(p["runs"]) - len(todo))
    if prog.skipped:
        sys.stderr.write(f"sweep: {prog.skipped} of {len(p['runs'])} runs complete already, not run again\n")
    lock, errors = threading.Lock(), {}

    def one(i):
        name = p["runs"][i]["name"]
        with lock:
            prog.running += 1
            prog.show(f"started {name}")
        err = run_task(out, p, i, made_by, tpfemu)
        with lock:
            prog.running -= 1
            if err is None:
                prog.done += 1
                prog.show(f"done {name}")
            elif not _running.stopping:
                prog.failed += 1
                errors[name] = err
                prog.show(f"failed {name}: {'; '.join(err.splitlines())}")

    ex = ThreadPoolExecutor(max_workers=max(1, jobs))

    def interrupted(signum, frame):
        raise KeyboardInterrupt

    old_term = signal.signal(signal.SIGTERM, interrupted)
    try:
        pending = {ex.submit(one, i) for i in todo}
        while pending:  # the line's elapsed time moves on between events too (a terminal)
            finished, pending = wait(pending, timeout=1)
            for f in finished:
                f.result()
            if prog.tty and pending:
                with lock:
                    prog.show()
    except KeyboardInterrupt:
        # Start nothing more and stop the runs under way: they leave only .tmp- folders,
        # removed when the sweep is resumed.
        ex.shutdown(wait=False, cancel_futures=True)
        _running.stopping = True
        for c in list(_running):
            c.terminate()
        sys.stderr.write("\nsweep: interrupted; run the same command again to resume\n")
        raise SystemExit(130)
    finally:
        signal.signal(signal.SIGTERM, old_term)
    ex.shutdown()
    prog.finish()
    return errors


# --- results ------------------------------------------------------------------

class CollectError(Exception):
    """A figure that a complete run's reports do not give; the message says why."""


def figure_text(f):
    """A parsed figure (_parse_figure) as the sweep file writes it, for messages."""
    if "ratio" in f:
        return " / ".join(f["ratio"])
    if f.get("lines"):
        return f"{f['file']}:lines"
    segs = [name + ("[" + ",".join(fld + "=" + "|".join(pats) for fld, pats in conds) + "]" if conds else "")
            for name, conds in f["path"]]
    return f"{f['file']}:{'.'.join(segs)}"


def _kind(v):
    return {dict: "an object", list: "a list", str: "a string", bool: "a boolean", type(None): "null"}.get(
        type(v), "a number")


def _walk(data, segs, at, filters):
    """The value(s) at SEGS under DATA (a list's members each walked, flattened). AT is
    the path walked so far, for messages; FILTERS gathers, per filtered member, the rows
    seen, the rows that matched and the fields the rows have."""
    if not segs:
        return data
    if isinstance(data, list):
        flat = []
        for x in data:
            v = _walk(x, segs, at, filters)
            flat.extend(v if isinstance(v, list) else [v])
        return flat
    name, conds = segs[0]
    here = f"{at}.{name}" if at else name
    if not isinstance(data, dict):
        raise CollectError(f"{at} is {_kind(data)}, which has no member {name}")
    if name not in data:
        raise CollectError(f"no member {here}" + (f" (members of {at}: {', '.join(list(data)[:12])})" if at else
                                                   f" (members: {', '.join(list(data)[:12])})"))
    v = data[name]
    if conds:
        if not isinstance(v, list):
            raise CollectError(f"{here} is {_kind(v)}, not a list of rows to filter")
        rows = [r for r in v if isinstance(r, dict)]
        matched = [r for r in rows if all(any(fnmatch.fnmatchcase(str(r.get(f, "")), pat) for pat in pats)
                                          for f, pats in conds)]
        st = filters.setdefault(here, {"conds": conds, "rows": 0, "matched": 0, "fields": set()})
        st["rows"] += len(v)
        st["matched"] += len(matched)
        for r in rows:
            st["fields"].update(r)
        v = matched
    return _walk(v, segs[1:], here, filters)


def _number(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _figure(run_path, f, cache):
    """One FILE:PATH or FILE:lines figure of a run folder; CollectError if the run's
    reports do not give a number: no such file, no such member, a filter that matches
    no row, an empty list, a value that is not a number."""
    path = os.path.join(run_path, f["file"])
    if not os.path.isfile(path):
        raise CollectError(f"the run wrote no {f['file']}")
    if f.get("lines"):
        with open(path, "rb") as fh:
            return sum(1 for _ in fh)
    if path not in cache:
        try:
            with open(path) as fh:
                cache[path] = json.load(fh)
        except ValueError as e:
            raise CollectError(f"{f['file']} is not JSON ({e})") from None
    filters = {}
    v = _walk(cache[path], f["path"], "", filters)
    if isinstance(v, list):
        if not v:
            for member, st in filters.items():
                if st["matched"] == 0:
                    cond = ",".join(fld + "=" + "|".join(pats) for fld, pats in st["conds"])
                    absent = [fld for fld, _ in st["conds"] if fld not in st["fields"]]
                    raise CollectError(f"[{cond}] matches no row of {member} "
                                       f"({st['rows']} row{'' if st['rows'] == 1 else 's'})"
                                       + (f" (no row has a field {absent[0]})" if absent and st["rows"] else ""))
            raise CollectError("an empty list: no value to sum")
        bad = [x for x in v if not _number(x)]
        if bad:
            raise CollectError(f"a list holding {_kind(bad[0])} ({json.dumps(bad[0])[:40]}), not only numbers")
        return sum(v)
    if not _number(v):
        raise CollectError(f"{_kind(v)} ({json.dumps(v)[:40]}), not a number")
    return v


def collect(run_path, figures):
    """The figures of one complete run folder: ({name: number or None}, [error, ...]).
    A figure the run's reports do not give is None and an error naming it, its
    expression and why: never a 0 or an empty cell that looks like a result."""
    vals, errors, cache = {}, [], {}
    for name, f in figures.items():
        vals[name] = None
        if "ratio" in f:
            a, b = (vals[n] for n in f["ratio"])
            if a is None or b is None:
                continue  # the operand's own error says why
            if b == 0:
                errors.append(f"collect.{name}: {figure_text(f)}: {f['ratio'][1]} is 0")
                continue
            vals[name] = a / b
            continue
        try:
            vals[name] = _figure(run_path, f, cache)
        except CollectError as e:
            errors.append(f"collect.{name}: {figure_text(f)}: {e}")
    return vals, errors


_T975 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160,
         2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056,
         2.052, 2.048, 2.045, 2.042]


def t975(df):
    """Student's t, two-sided 95% (the 0.975 quantile), for DF degrees of freedom."""
    if df <= len(_T975):
        return _T975[df - 1]
    z = 1.959964  # Cornish-Fisher expansion beyond the table (within 0.001 at df > 30)
    return z + (z ** 3 + z) / (4 * df) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * df ** 2)


def stats(xs):
    """n, mean, standard deviation (n - 1), 95% confidence interval half-width (Student's t)."""
    xs = [x for x in xs if x is not None]
    n = len(xs)
    if n == 0:
        return {"n": 0, "mean": None, "sd": None, "ci95": None}
    mean = math.fsum(xs) / n
    if n == 1:
        return {"n": 1, "mean": mean, "sd": None, "ci95": None}
    sd = math.sqrt(math.fsum((x - mean) ** 2 for x in xs) / (n - 1))
    return {"n": n, "mean": mean, "sd": sd, "ci95": t975(n - 1) * sd / math.sqrt(n)}


def results(out, p):
    """Writes results.csv (a row per run), aggregate.csv (a row per point: n, mean, sd,
    ci95 of each figure over its seeds, from the runs whose figures were all collected)
    and results.json (both). Returns the json. A run's status: ok; collect failed (it
    ran, but its reports do not give every figure: error says which and why); failed
    (tpfemu failed: error is runs/.failed/NAME.txt); not run."""
    rows, failed_dir = [], os.path.join(out, RUNS, FAILED)
    for r in p["runs"]:
        row = {"run": f"{RUNS}/{r['name']}", "params": r["params"], "seed": r["seed"]}
        if is_complete(out, r):
            figures, errors = collect(run_dir(out, r), p["collect"])
            row["status"], row["figures"] = "collect failed" if errors else "ok", figures
            if errors:
                row["error"] = "\n".join(errors)
        else:
            err = os.path.join(failed_dir, r["name"] + ".txt")
            row["status"] = "failed" if os.path.exists(err) else "not run"
            row["error"] = open(err).read().strip() if os.path.exists(err) else None
            row["figures"] = {k: None for k in p["collect"]}
        rows.append(row)
    points, agg = {}, []
    for row in rows:
        points.setdefault(json.dumps(row["params"], sort_keys=True), []).append(row)
    for rs in points.values():
        ok = [x for x in rs if x["status"] == "ok"]
        agg.append({"params": rs[0]["params"], "runs": len(rs), "failed": len(rs) - len(ok),
                    "figures": {k: stats([x["figures"][k] for x in ok]) for k in p["collect"]}})
    doc = {"sweep": p["sweep"], "params": p["params"], "figures": list(p["collect"]), "runs": rows, "aggregate": agg}
    with open(os.path.join(out, "results.json.tmp"), "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
    os.replace(os.path.join(out, "results.json.tmp"), os.path.join(out, "results.json"))
    fig = list(p["collect"])

    def num(v):
        return "" if v is None else repr(v) if isinstance(v, float) else str(v)

    with open(os.path.join(out, "results.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["run"] + p["params"] + ["seed", "status"] + fig + ["error"])
        for row in rows:
            err = (row.get("error") or "").splitlines()
            if row["status"] == "failed":
                err = err[1:]  # its first line is the command (runs/.failed/NAME.txt): not in the table
            w.writerow([row["run"]] + [_text(row["params"][k]) for k in p["params"]]
                       + [num(row["seed"]), row["status"]] + [num(row["figures"][k]) for k in fig] + ["; ".join(err)])
    with open(os.path.join(out, "aggregate.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(p["params"] + ["runs", "failed"] + [f"{k}_{s}" for k in fig for s in ("n", "mean", "sd", "ci95")])
        for a in agg:
            w.writerow([_text(a["params"][k]) for k in p["params"]] + [a["runs"], a["failed"]]
                       + [num(a["figures"][k][s]) for k in fig for s in ("n", "mean", "sd", "ci95")])
    return doc


def collect_failures(doc, prog):
    """Writes to stderr, for each run whose figures were not all collected (results()),
    its name and the errors; returns how many. A 0 or an empty cell in a table would
    read as a result: the caller fails instead."""
    bad = [r for r in doc["runs"] if r["status"] == "collect failed"]
    for r in bad:
        sys.stderr.write(f"{prog}: run {r['run'][len(RUNS) + 1:]}: figures not collected:\n  "
                         + "\n  ".join(r["error"].splitlines()) + "\n")
    return len(bad)


def run_study(sweep_path, out, sets, jobs, prog, rerun_stale=False, axis_values=None):
    """An experiment script's sweep: SWEEP_PATH (its axes replaced by AXIS_VALUES where
    given) run into OUT on this machine, resuming what is done. Exits with a message
    naming each failed run or uncollected figure, after writing the results; else
    returns results.json's document."""
    try:
        p = plan(load(sweep_path, axis_values), sets)
        made_by = prepare(out, p, rerun_stale)
    except SweepError as e:
        sys.exit(f"{prog}: {e}")
    errors = run_local(out, p, jobs, made_by)
    for run_name, err in errors.items():
        sys.stderr.write(f"{prog}: run {run_name} failed:\n  {err}\n")
    doc = results(out, p)
    if collect_failures(doc, prog) or errors:
        sys.exit(1)
    return doc

def plot(out, p, doc):
    """plots/FIGURE.png for each figure (plot.figures, or all): its mean against the x
    parameter (plot.x, or the last numeric one swept), one line per value of the other
    parameters, error bars the 95% confidence interval. Returns the files written."""
    plt = pyplot()
    if plt is None or not p["params"]:
        return []
    agg = doc["aggregate"]
    numeric = [k for k in p["params"] if all(isinstance(a["params"][k], (int, float)) for a in agg)]
    x = p["plot"].get("x") or (numeric[-1] if numeric else p["params"][-1])
    others = [k for k in p["params"] if k != x]
    os.makedirs(os.path.join(out, "plots"), exist_ok=True)
    written = []
    for fig_name in p["plot"].get("figures") or list(p["collect"]):
        fig, ax = plt.subplots(figsize=(6.4, 4.2))
        groups = {}
        for a in agg:
            groups.setdefault(tuple(_text(a["params"][k]) for k in others), []).append(a)
        xs_all = []
        for g, rows in groups.items():
            pts = [(a["params"][x], a["figures"][fig_name]) for a in rows if a["figures"][fig_name]["mean"] is not None]
            if not pts:
                continue
            xs = [v for v, _ in pts]
            xs_all += xs
            ax.errorbar(range(len(xs)) if x not in numeric else xs, [s["mean"] for _, s in pts],
                        yerr=[s["ci95"] or 0 for _, s in pts], marker="o", capsize=4,
                        label=", ".join(f"{p['short'][k]}={v}" for k, v in zip(others, g)) or None)
            if x not in numeric:
                ax.set_xticks(range(len(xs)), [_text(v) for v in xs])
        sc = p["plot"].get("xscale", "linear")
        if x in numeric:
            if sc != "linear":
                ax.set_xscale("log", base=2 if sc == "log2" else 10)
            readable_axis(ax.xaxis, sorted(set(xs_all)))
        # The figure's axis from zero (a bar of the eye's), unless plot.yzero says not or
        # a value is negative.
        if p["plot"].get("yzero", True) and ax.get_ylim()[0] > 0:
            ax.set_ylim(bottom=0)
        readable_axis(ax.yaxis)
        labels, units = p["plot"].get("labels", {}), p["plot"].get("units", {})
        def axis_label(name):
            return labels.get(name, name) + (f" ({units[name]})" if name in units else "")
        ax.set(xlabel=axis_label(x), ylabel=axis_label(fig_name),
               title=p["plot"].get("title", os.path.basename(p["sweep"])))
        ax.grid(True, alpha=0.3)
        if others:
            ax.legend(fontsize=8)
        fig.tight_layout()
        path = os.path.join(out, "plots", f"{fig_name}.png")
        fig.savefig(path, dpi=100, metadata={"Software": None})
        plt.close(fig)
        written.append(path)
    return written


# ---- DIR/index.html: the sweep as a page (tpfemu report's style, report/html_writer.cpp) ----

INDEX = "index.html"

# The page's own script, as report.html's: a click on a heading sorts the table by that
# column (numbers by data-v), a second click reverses.
_INDEX_SCRIPT = """
document.querySelectorAll('table.sortable th').forEach(function (th) {
  th.addEventListener('click', function () {
    var table = th.closest('table'), body = table.tBodies[0], col = th.cellIndex;
    var down = th.getAttribute('data-sorted') !== 'down';
    table.querySelectorAll('th').forEach(function (h) { h.removeAttribute('data-sorted'); });
    th.setAttribute('data-sorted', down ? 'down' : 'up');
    var key = function (tr) {
      var td = tr.cells[col], v = td ? td.getAttribute('data-v') : null;
      return v === null ? (td ? td.textContent : '') : parseFloat(v);
    };
    var rows = Array.prototype.slice.call(body.rows);
    rows.sort(function (a, b) { var x = key(a), y = key(b), c = x < y ? -1 : x > y ? 1 : 0; return down ? -c : c; });
    rows.forEach(function (tr) { body.appendChild(tr); });
  });
});
"""

_INDEX_STYLE = """
body { font: 14px/1.4 sans-serif; margin: 1.5em auto; max-width: 1200px; padding: 0 1em; color: #222; }
h1 { font-size: 1.5em; } h2 { font-size: 1.25em; border-bottom: 1px solid #ccc; margin-top: 2em; }
table { border-collapse: collapse; margin: 0.5em 0 1em; font-size: 13px; }
th, td { border: 1px solid #ddd; padding: 2px 8px; } th { background: #f3f3f3; text-align: left; cursor: pointer; }
th[data-sorted=down]::after { content: " \\25BC"; } th[data-sorted=up]::after { content: " \\25B2"; }
td.n { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
img { max-width: 100%; border: 1px solid #eee; margin: 0.5em 0.5em 0 0; }
"""


def _esc(v):
    import html
    return html.escape(str(v), quote=True)


def _cell(v, unit=""):
    """A <td>: a number right-aligned with its unit and the value a sort compares."""
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        return f"<td>{_esc('-' if v is None else _text(v))}</td>"
    text = f"{v:,}" if isinstance(v, int) else f"{v:,.6g}"
    return f'<td class="n" data-v="{v!r}">{_esc(text + (" " + unit if unit else ""))}</td>'


def _table(name, header, rows):
    head = "".join(f"<th>{_esc(h)}</th>" for h in header)
    body = "".join("<tr>" + "".join(r) + "</tr>\n" for r in rows)
    return (f'<table data-table="{_esc(name)}" class="sortable">\n<thead><tr>{head}</tr></thead>\n'
            f"<tbody>\n{body}</tbody>\n</table>\n")


def run_reports(out, doc, tpfemu=TPFEMU):
    """`tpfemu report` on each complete run folder (its report.html, linked from the
    index); returns the runs whose page could not be written, with why."""
    errors = {}
    for row in doc["runs"]:
        path = os.path.join(out, row["run"])
        if row["status"] == "not run" or row["status"] == "failed" or not os.path.isdir(path):
            continue
        r = subprocess.run([tpfemu, "report", path], capture_output=True, text=True)
        if r.returncode != 0:
            errors[row["run"]] = r.stderr.strip() or f"exit status {r.returncode}"
    return errors


def write_index(out, p, doc, plots):
    """DIR/index.html: the parameters and their values, a row per run (with a link to
    its report.html) and per point, sortable, and the plots inlined (base64 data: URLs),
    so that the page opens from the file system as it is. Returns its path."""
    import base64
    units = p["plot"].get("units", {})
    fig = doc["figures"]
    values = {k: sorted({_text(a["params"][k]) for a in doc["aggregate"]}) for k in p["params"]}
    params = _table("params", ["parameter", "short", "values"],
                    [[_cell(k), _cell(p["short"][k]), _cell(", ".join(values[k]))] for k in p["params"]])
    runs = []
    for row in doc["runs"]:
        page = os.path.join(row["run"], "report.html")
        link = (f'<td><a href="{_esc(page)}">{_esc(row["run"])}</a></td>' if os.path.exists(os.path.join(out, page))
                else _cell(row["run"]))
        runs.append([link] + [_cell(row["params"][k]) for k in p["params"]] + [_cell(row["seed"]), _cell(row["status"])]
                    + [_cell(row["figures"][f], units.get(f, "")) for f in fig] + [_cell(row.get("error") or "")])
    runs_t = _table("runs", ["run"] + [p["short"][k] for k in p["params"]] + ["seed", "status"]
                    + [f + (f" ({units[f]})" if f in units else "") for f in fig] + ["error"], runs)
    agg = [[_cell(a["params"][k]) for k in p["params"]] + [_cell(a["runs"]), _cell(a["failed"])]
           + [c for f in fig for c in (_cell(a["figures"][f]["mean"], units.get(f, "")),
                                       _cell(a["figures"][f]["ci95"], units.get(f, "")))] for a in doc["aggregate"]]
    agg_t = _table("aggregate", [p["short"][k] for k in p["params"]] + ["runs", "failed"]
                   + [h for f in fig for h in (f"{f} mean", f"{f} ±95%")], agg)
    imgs = ""
    for path in plots:
        with open(path, "rb") as f:
            data = base64.b64encode(f.read()).decode()
        name = os.path.splitext(os.path.basename(path))[0]
        imgs += f'<img data-plot="{_esc(name)}" alt="{_esc(name)}" src="data:image/png;base64,{data}">\n'
    title = f"tpfemu sweep: {os.path.basename(p['sweep'])}"
    page = (f'<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>{_esc(title)}</title>\n'
            f"<style>{_INDEX_STYLE}</style>\n</head>\n<body>\n<h1>{_esc(title)}</h1>\n"
            f"<p>{len(doc['runs'])} runs; results.csv, aggregate.csv and results.json beside this page.</p>\n"
            f'<h2 id="params">Parameters</h2>\n{params}<h2 id="runs">Runs</h2>\n{runs_t}'
            f'<h2 id="aggregate">Per point (mean and 95% interval over the replications)</h2>\n{agg_t}'
            + (f'<h2 id="plots">Plots</h2>\n{imgs}' if imgs else "")
            + f"<script>{_INDEX_SCRIPT}</script>\n</body>\n</html>\n")
    path = os.path.join(out, INDEX)
    with open(path + ".tmp", "w", encoding="utf-8") as f:
        f.write(page)
    os.replace(path + ".tmp", path)
    return path
