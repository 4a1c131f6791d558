#!/usr/bin/python3
"""The tests that walk the source tree (layers.py, doc_links.py; readme_samples.py and
test_run_config.cpp read the same list) see what git tracks: a user's outputs beside the
sources (out/ from scripts/run, which .gitignore names) and an own untracked folder or
note never fail the suite, while the same files, once tracked, are checked (issue 43).

usage: tests/source_tree_test.py SCRATCH_DIR
"""
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def write(root, path, text):
    os.makedirs(os.path.dirname(os.path.join(root, path)), exist_ok=True)
    with open(os.path.join(root, path), "w", encoding="utf-8") as f:
        f.write(text)


def git(root, *args):
    subprocess.run(["git", "-C", root, "-c", "user.name=t", "-c", "user.email=t@t", *args], check=True,
                   capture_output=True)


def passes(script, root):
    r = subprocess.run([sys.executable, os.path.join(HERE, script), root], capture_output=True, text=True)
    return r.returncode == 0, r.stdout + r.stderr


def main():
    root = os.path.join(os.path.abspath(sys.argv[1]), "source-tree")
    shutil.rmtree(root, ignore_errors=True)
    write(root, "emu/cpu.cpp", '#include "config/config.h"\n')
    write(root, "README.md", "See [the guide](docs/guide.md).\n")
    write(root, "docs/guide.md", "# Guide\n")
    write(root, ".gitignore", "/out/\n")
    git(root, "init", "-q")
    git(root, "add", ".")
    git(root, "commit", "-q", "-m", "tree")
    # what a user leaves in the checkout: the demo's ignored out/, an own untracked folder
    # and note, each of which would fail the checks if it were the project's
    write(root, "out/demo/report.cpp", '#include "app/main.h"\n')
    write(root, "mine/tool.cpp", '#include "app/main.h"\n')
    write(root, "docs/notes.md", "[gone](nowhere.md)\n")
    failures = []
    for script in ("layers.py", "doc_links.py"):
        ok, out = passes(script, root)
        if not ok:
            failures.append(f"{script} failed on a user's ignored and untracked files:\n{out}")
    # the same files tracked: now they are the project's, and each check must catch them
    git(root, "add", "-f", "out", "mine", "docs/notes.md")
    for script, want in (("layers.py", "mine/: a folder with no place"), ("layers.py", "out/: a folder with no place"),
                         ("doc_links.py", "nowhere.md does not exist")):
        ok, out = passes(script, root)
        if ok or want not in out:
            failures.append(f"{script} did not report '{want}' once the files were tracked:\n{out}")
    # an unpacked tree without git: ignored folders are skipped, an own folder is not
    shutil.rmtree(os.path.join(root, ".git"))
    ok, out = passes("layers.py", root)
    if ok or "mine/" not in out or "out/" in out:
        failures.append(f"layers.py outside git should report mine/ and skip out/:\n{out}")
    shutil.rmtree(root)
    for f in failures:
        print(f)
    print(f"source_tree: {len(failures)} failures")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
