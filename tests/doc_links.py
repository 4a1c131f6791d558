#!/usr/bin/python3
"""The documents' links lead somewhere: every relative link in README.md and docs/*.md
(text links and images) names a file or folder that exists, resolved from the linking
file's folder, and every #anchor names a heading of the file it points into (GitHub's
anchors: the heading's text in lower case, spaces as '-', punctuation other than '-' and
'_' dropped, a repeated heading's anchor followed by -1, -2, ...). Links in code blocks
and code spans are not links. Web links (http:, https:, mailto:) are not checked.

usage: tests/doc_links.py SOURCE_DIR
"""
import os
import re
import sys

sys.dont_write_bytecode = True  # no tests/__pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import source_tree  # noqa: E402  (what git tracks)

LINK = re.compile(r"!?\[((?:[^\[\]]|\[[^\]]*\])*)\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
FENCE = re.compile(r"^\s*(```|~~~)")


def prose_lines(path):
    """(line number, text) of the lines outside fenced code blocks, code spans blanked."""
    inside = False
    for n, line in enumerate(open(path, encoding="utf-8").read().split("\n"), 1):
        if FENCE.match(line):
            inside = not inside
            continue
        if not inside:
            yield n, re.sub(r"(`+)(.+?)\1", lambda m: " " * len(m.group(0)), line)


def slug(heading):
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)   # a link's text
    text = re.sub(r"[`*]", "", text).strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path, cache={}):
    if path not in cache:
        seen, out = {}, set()
        inside = False
        for line in open(path, encoding="utf-8").read().split("\n"):
            if FENCE.match(line):
                inside = not inside
                continue
            m = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
            if inside or not m:
                continue
            s = slug(m.group(1))
            out.add(s if s not in seen else f"{s}-{seen[s]}")
            seen[s] = seen.get(s, 0) + 1
        cache[path] = out
    return cache[path]


def check(source, path):
    """The broken links of one document, as messages."""
    errors = []
    rel = os.path.relpath(path, source)
    for n, line in prose_lines(path):
        for m in LINK.finditer(line):
            target = m.group(2)
            if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I):
                continue
            file_part, _, anchor = target.partition("#")
            dest = os.path.normpath(os.path.join(os.path.dirname(path), file_part)) if file_part else path
            where = f"{rel}:{n}: [{m.group(1)}]({target})"
            if not os.path.realpath(dest).startswith(os.path.realpath(source) + os.sep):
                errors.append(f"{where}: leads outside the repository")
            elif not os.path.exists(dest):
                errors.append(f"{where}: {os.path.relpath(dest, source)} does not exist")
            elif anchor and dest.endswith(".md") and anchor not in anchors(dest):
                errors.append(f"{where}: {os.path.relpath(dest, source)} has no heading whose anchor is #{anchor}")
    return errors


def main():
    source = os.path.abspath(sys.argv[1])
    docs = [os.path.join(source, d) for d in ["README.md"] + source_tree.under(source, "docs", ".md")]
    errors = [e for d in docs for e in check(source, d)]
    for e in errors:
        print(e)
    print(f"{len(docs)} documents, {len(errors)} broken links")
    sys.exit(1 if errors else 0)


if __name__ == "__main__":
    main()
