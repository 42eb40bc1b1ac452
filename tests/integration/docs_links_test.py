#!/usr/bin/env python3
"""The documentation's relative links resolve: in README.md and docs/*.md,
every `](PATH)`, `](PATH#ANCHOR)` and `](#ANCHOR)` names a file of the
repository and, with an anchor, a heading of that file as GitHub slugs it
(lower case, punctuation dropped, spaces to hyphens, `-1`, `-2` for repeats).
Also: README.md links to every docs/*.md file, and each of them opens with
its title and a summary paragraph."""
import glob
import os
import re

from common import SOURCE_ROOT, Checks

README = os.path.join(SOURCE_ROOT, "README.md")
DOCS = sorted(glob.glob(os.path.join(SOURCE_ROOT, "docs", "*.md")))
FENCE = re.compile(r"^(`{3,}|~{3,})")
LINK = re.compile(r"\]\(([^()\s]+)\)")


def outside_fences(text):
    """The lines of a Markdown file that are not inside a fenced code block."""
    lines, fence = [], None
    for line in text.split("\n"):
        if fence is None:
            match = FENCE.match(line)
            if match:
                fence = match.group(1)
            else:
                lines.append(line)
        elif re.fullmatch(re.escape(fence[0]) + "{%d,}\\s*" % len(fence), line):
            fence = None  # a closing fence: the same character, at least as many
    return lines


def slug(heading):
    """GitHub's anchor for a heading's text (its rendered text: no code
    marks, link targets or HTML tags)."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)
    text = re.sub(r"<[^>]+>", "", text).replace("`", "").strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path):
    found, seen = set(), {}
    with open(path) as f:
        for line in outside_fences(f.read()):
            match = re.match(r"^#{1,6} (.*?)#*\s*$", line)
            if not match:
                continue
            base = slug(match.group(1))
            count = seen.get(base, 0)
            seen[base] = count + 1
            found.add(base if count == 0 else f"{base}-{count}")
    return found


def main():
    checks = Checks()
    checks.expect(len(DOCS) > 0, "docs/*.md exists", str(DOCS))
    cache = {}
    links = 0
    for path in [README, *DOCS]:
        name = os.path.relpath(path, SOURCE_ROOT)
        with open(path) as f:
            text = "\n".join(outside_fences(f.read()))
        text = re.sub(r"`[^`\n]*`", "", text)  # a `](x)` inside a code span is no link
        for target in LINK.findall(text):
            if re.match(r"^[a-z]+:", target):
                continue  # https:, mailto:
            links += 1
            file_part, _, anchor = target.partition("#")
            resolved = os.path.normpath(os.path.join(os.path.dirname(path), file_part)) if file_part else path
            exists = os.path.isfile(resolved) and resolved.startswith(SOURCE_ROOT + os.sep)
            checks.expect(exists, f"{name}: {target}: the file exists")
            if exists and anchor and resolved.endswith(".md"):
                if resolved not in cache:
                    cache[resolved] = anchors(resolved)
                checks.expect(anchor in cache[resolved], f"{name}: {target}: the heading exists",
                              "headings: " + ", ".join(sorted(cache[resolved])))
    checks.expect(links > 50, f"links checked ({links})")
    with open(README) as f:
        readme = f.read()
    for path in DOCS:
        name = os.path.relpath(path, SOURCE_ROOT)
        checks.expect(f"]({name})" in readme or f"]({name}#" in readme, f"README.md links to {name}")
        with open(path) as f:
            lines = f.read().split("\n")
        checks.expect(len(lines) > 3 and lines[0].startswith("# ") and lines[1] == "" and
                      lines[2] and not lines[2].startswith(("#", "```", "|", "- ", "* ")),
                      f"{name} opens with its title and a summary paragraph", "\n".join(lines[:3]))
    checks.done()


if __name__ == "__main__":
    main()
