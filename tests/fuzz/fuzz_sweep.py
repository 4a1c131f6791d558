#!/usr/bin/python3
"""Fuzz target for the sweep file parser (scripts/tpfemu_sweep.py: load() and plan()).

atheris is not a Debian package, so this is a mutation fuzzer of its own: it mutates the
seeds (the project's sweep files and the saved corpus) with a fixed seed, so a run is
reproducible and can be a test. An input passes if load() and plan() either accept it
or refuse it with a SweepError whose message begins with the file's path (the place);
anything else (another exception, a hang past --timeout seconds, more than --memory MB)
is a finding: the input is written to FINDINGS/sweep-<hash>.yaml and the run fails.
Save a finding into tests/fuzz/corpus/sweep/ once it is fixed: `replay` runs it in the
default suite.

usage: fuzz_sweep.py replay SEED...                 every seed as it is
       fuzz_sweep.py fuzz --inputs N [--seconds S] [--seed R] [--findings DIR] SEED...
SEED: a file, or a directory (its files).
"""
import argparse
import hashlib
import os
import random
import resource
import shutil
import signal
import sys
import tempfile
import time
import traceback

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import tpfemu_sweep as sw  # noqa: E402

# Values and tokens a sweep file holds, and some it should refuse.
DICTIONARY = [
    "configs", "set", "grid", "zip", "one_at_a_time", "derive", "seeds", "replications", "collect", "plot", "slurm",
    "x", "xscale", "figures", "title", "partition", "time", "limit", "options", "log2", "linear",
    "workload.messages", "workload.seed", "machine.istreams", "system.ecb_heap.algorithm", "summary.json:messages",
    "summary.json:rows[prog=slockc*,inst=CSG|CS].count", "syslog.log:lines", "a / b", "{machine.istreams}",
    "44 * {machine.istreams}", "{workload.messages} // 0", "1 / 0", "__import__('os')", "(lambda: 1)()",
    "../demo.yaml", "../../configs/demo.yaml", "/dev/zero", "/etc", ":", "- ", "[", "]", "{", "}", ",", "&a ", "*a",
    "<<: *a", "!!python/object/apply:os.system", "!!binary", "!!float", "!!int", "!!timestamp", "!!set", "!!omap",
    "? ", "|", ">", "---", "...", "%YAML 1.1", "#", "'", '"', "\\x00", "\\u2028", "~", "null", "true", "1e400",
    ".nan", "-.inf", "0x7f", "-1", "2001-12-14", "9" * 400, "\t", "\x00", "\xff", "\u2028", "\ufeff",
]


def one(text, folder):
    """Runs the parser on TEXT as folder/sweeps/input.yaml; None if it behaved, or what went wrong."""
    path = os.path.join(folder, "sweeps", "input.yaml")
    with open(path, "wb") as f:
        f.write(text)
    try:
        sw.plan(sw.load(path))
    except sw.SweepError as e:
        if not str(e).startswith(path):
            return f"a SweepError that does not name the file first: {e}"
    except Exception:  # noqa: BLE001 -- the finding
        return traceback.format_exc(limit=-4)
    return None


class Hang(BaseException):  # not caught by the target's "except Exception"
    pass


def on_alarm(signum, frame):
    raise Hang()


def checked(text, folder, timeout):
    signal.alarm(timeout)
    try:
        return one(text, folder)
    except Hang:
        return f"no answer in {timeout} s"
    except MemoryError:
        return "out of memory"
    finally:
        signal.alarm(0)


def workspace():
    """A folder where the relative configs: of the seeds resolve: FOLDER/sweeps/input.yaml
    sees FOLDER/X.yaml (configs/X.yaml) as ../X.yaml and configs/ as ../../configs."""
    top = tempfile.mkdtemp(prefix="fuzz-sweep-")
    folder = os.path.join(top, "x")
    os.makedirs(os.path.join(folder, "sweeps"))
    os.symlink(os.path.join(ROOT, "configs"), os.path.join(top, "configs"))
    for name in os.listdir(os.path.join(ROOT, "configs")):
        if name.endswith(".yaml"):
            os.symlink(os.path.join(ROOT, "configs", name), os.path.join(folder, name))
    return top, folder


def seeds(paths):
    out = []
    for p in paths:
        names = sorted(os.path.join(p, n) for n in os.listdir(p)) if os.path.isdir(p) else [p]
        for n in names:
            if os.path.isfile(n) and not n.endswith(".md"):
                with open(n, "rb") as f:
                    out.append(f.read())
    return out


def mutate(rng, data, pool):
    """One to four edits: bytes, lines, a dictionary token, a splice from another seed,
    or deep nesting."""
    for _ in range(rng.randint(1, 4)):
        kind = rng.randrange(9)
        at = rng.randint(0, len(data))
        if kind == 0 and data:  # a byte changed
            i = rng.randrange(len(data))
            data = data[:i] + bytes([rng.randrange(256)]) + data[i + 1:]
        elif kind == 1:  # a span removed
            data = data[:at] + data[at + rng.randint(1, 64):]
        elif kind == 2:  # a span repeated
            n = rng.randint(1, 200)
            data = data[:at] + data[at:at + n] * rng.randint(2, 50) + data[at:]
        elif kind in (3, 4):  # a token from the dictionary
            data = data[:at] + rng.choice(DICTIONARY).encode("utf-8", "surrogatepass") + data[at:]
        elif kind == 5:  # a line dropped, doubled or moved
            lines = data.split(b"\n")
            i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
            op = rng.randrange(3)
            if op == 0:
                del lines[i]
            elif op == 1:
                lines.insert(i, lines[i])
            else:
                lines[i], lines[j] = lines[j], lines[i]
            data = b"\n".join(lines)
        elif kind == 6:  # lines of another seed
            other = rng.choice(pool).split(b"\n")
            i = rng.randrange(len(other))
            data = data[:at] + b"\n".join(other[i:i + rng.randint(1, 8)]) + b"\n" + data[at:]
        elif kind == 7:  # a value turned into a deeply nested list or map
            depth = rng.choice([10, 100, 1000, 5000])
            o, c = rng.choice([(b"[", b"]"), (b"{a: ", b"}"), (b"- ", b"")])
            data = data[:at] + o * depth + b"1" + c * depth + data[at:]
        else:  # a number made huge, negative or odd
            data = data[:at] + rng.choice([b"0", b"-1", b"1e309", b"99999999999999999999999", b"0.5", b"1_0"]) + data[at:]
    return data[:1 << 16]


def finding(findings, text, why):
    os.makedirs(findings, exist_ok=True)
    path = os.path.join(findings, "sweep-" + hashlib.sha1(text).hexdigest()[:16] + ".yaml")
    with open(path, "wb") as f:
        f.write(text)
    print(f"FINDING {path}: {why}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("mode", choices=["replay", "fuzz"])
    ap.add_argument("seeds", nargs="+")
    ap.add_argument("--inputs", type=int, default=1000, help="mutated inputs to try")
    ap.add_argument("--seconds", type=float, default=0, help="stop after this many seconds of host time (0: none)")
    ap.add_argument("--seed", type=int, default=16)
    ap.add_argument("--timeout", type=int, default=10, help="seconds an input may take")
    ap.add_argument("--memory", type=int, default=2048, help="MB of address space the process may take")
    ap.add_argument("--findings", default="fuzz-findings")
    a = ap.parse_args()
    resource.setrlimit(resource.RLIMIT_AS, (a.memory << 20, a.memory << 20))
    sys.setrecursionlimit(10000)  # the parser's own limit must come first, not Python's
    signal.signal(signal.SIGALRM, on_alarm)
    pool = seeds(a.seeds)
    if not pool:
        sys.exit("fuzz_sweep: no seeds")
    top, folder = workspace()
    bad = ran = 0
    t0 = time.monotonic()  # only to bound the run's length; no result depends on it
    try:
        if a.mode == "replay":
            for text in pool:
                why = checked(text, folder, a.timeout)
                ran += 1
                if why:
                    bad += 1
                    finding(a.findings, text, why)
        else:
            rng = random.Random(a.seed)
            for _ in range(a.inputs):
                if a.seconds and time.monotonic() - t0 > a.seconds:
                    break
                text = mutate(rng, rng.choice(pool), pool)
                why = checked(text, folder, a.timeout)
                ran += 1
                if why:
                    bad += 1
                    finding(a.findings, text, why)
    finally:
        shutil.rmtree(top, ignore_errors=True)
    took = time.monotonic() - t0
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
    print(f"{a.mode}: {ran} inputs from {len(pool)} seeds, {ran / took:.0f} per second, {bad} findings, "
          f"peak RSS {peak} MB")
    if a.mode == "replay":
        print(f"replayed {ran}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
