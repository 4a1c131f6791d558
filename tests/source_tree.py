"""The source tree as the project holds it: the files git tracks, so that what a user
makes in the checkout (out/ from scripts/run, build folders, an own configuration or
notes) never decides whether the suite passes. Outside a git checkout (an unpacked
release), the files on disk, skipping build trees and the folders .gitignore names.
"""
import os
import subprocess

# .gitignore's folders, for a tree without git (kept beside .gitignore's own lines)
IGNORED_FOLDERS = ("build", "out")


def _git_files(source):
    try:
        r = subprocess.run(["git", "-C", source, "ls-files", "-z", "--cached"],
                           capture_output=True, check=False)
    except OSError:
        return None
    top = subprocess.run(["git", "-C", source, "rev-parse", "--show-toplevel"], capture_output=True, text=True,
                         check=False).stdout.strip()
    if r.returncode != 0 or not top or os.path.realpath(top) != os.path.realpath(source):
        return None  # not a checkout of its own (an unpacked tree, perhaps inside another repository)
    files = []
    for name in r.stdout.decode("utf-8", "replace").split("\0"):
        if not name:
            continue
        if os.path.exists(os.path.join(source, name)):  # not deleted in the work tree
            files.append(os.path.normpath(name))
    return files


def _disk_files(source):
    files = []
    for folder, dirs, names in os.walk(source):
        dirs[:] = sorted(d for d in dirs
                         if not d.startswith(".") and d not in IGNORED_FOLDERS and not d.startswith("build-")
                         and not os.path.exists(os.path.join(folder, d, "CMakeCache.txt")))
        files += [os.path.relpath(os.path.join(folder, n), source) for n in names]
    return files


def files(source):
    """Every file of the source tree, relative to `source`, sorted."""
    found = _git_files(source)
    return sorted(found if found is not None else _disk_files(source))


def under(source, folder, suffix=""):
    """The files of `files(source)` directly in `folder` (relative) ending in `suffix`."""
    return [f for f in files(source)
            if os.path.dirname(f) == os.path.normpath(folder) and f.endswith(suffix)]
