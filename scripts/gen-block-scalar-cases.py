#!/usr/bin/env python3
"""Regenerates src/yaml/testdata/block_scalar_cases.json: ConfigMaps whose
`data.k` is a block scalar (| or >), and what kubectl (goyaml v2, through
sigs.k8s.io/yaml) reads from each, or that it refuses it. block_scalar_test.cc
compares tjrender's reader with these answers.

    scripts/gen-block-scalar-cases.py > src/yaml/testdata/block_scalar_cases.json

Needs kubectl (v1.32 was used); one `kubectl patch --local` per case, since
a case kubectl refuses would refuse a whole batch. The cases are curated ones
(the shapes libfyaml read differently from goyaml) plus generated ones from a
fixed seed: headers after the key or on a line of their own, indentation and
chomping indicators, lines more and less indented than the content, lines of
spaces, '#' lines, a following key, and files that end without a line break.
"""
import json
import random
import subprocess
import sys
import tempfile

PREFIX = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cases\ndata:\n  a: x\n"

CURATED = [
    # The last line of the file has no line break: kubectl adds one.
    "  k: |\n    echo hi",
    "  k: |+\n    y",
    "  k: |-\n    y",
    "  k: >\n    a\n    b",
    # A header with nothing after it, at the end of the file.
    "  k: >+\n",
    "  k: |2\n",
    "  k:\n    >\n",
    "  k: >\n        ",
    # A header on a line of its own.
    "  k:\n    |\n    x\n",
    "  k:\n    |\n    x\n      y\n",
    "  k:\n    |\n    x\n       \n",
    "  k:\n      >-\n    # not a comment\n  b: y\n",
    "  k:\n    |2+\n      x\n     y\n",
    # Lines of spaces longer than the indentation are text.
    "  k: |\n    echo a\n          \n    echo b\n",
    "  k: |\n    x\n       \n",
    "  k: |2\n        \n",
    # Less indented than the content: the scalar ends there.
    "  k: |\n      x\n    y\n",
    "  k: >\n    a\n\n      b\n    c\n",
]

HEADERS_INDICATORS = ["", "", "", "1", "2", "4"]
CHOMPING = ["", "", "+", "-"]
TEXTS = ["x", "echo hi", "- y", "k: v", "# not a comment", "a\tb"]


def header(rng):
    indicator, chomping = rng.choice(HEADERS_INDICATORS), rng.choice(CHOMPING)
    text = rng.choice("|>") + (indicator + chomping if rng.random() < 0.5 else chomping + indicator)
    return text + (" # c" if rng.random() < 0.1 else "")


def body(rng, base):
    lines = []
    for _ in range(rng.randint(0, 6)):
        if rng.random() < 0.2:
            lines.append(" " * rng.randint(0, base + 6))
        else:
            lines.append(" " * (base + rng.choice([0, 0, 0, 1, 2, 3, 4, -1, -2])) + rng.choice(TEXTS))
    return "".join(line + "\n" for line in lines)


def generated(count, seed=20261127):
    rng = random.Random(seed)
    cases = []
    for _ in range(count):
        if rng.random() < 0.5:
            text = "  k: " + header(rng) + "\n"
        else:
            text = "  k:\n" + " " * rng.randint(2, 7) + header(rng) + "\n"
        text += body(rng, 4) + rng.choice(["", "", "  b: y\n", "    c: z\n"])
        if rng.random() < 0.15:
            text = text.rstrip("\n")
        cases.append(text)
    return cases


def kubectl_reads(case):
    with tempfile.NamedTemporaryFile("w", suffix=".yaml", newline="") as file:
        file.write(PREFIX + case)
        file.flush()
        run = subprocess.run(["kubectl", "patch", "--local", "-f", file.name, "--type", "merge", "-p", "{}",
                              "-o", "json"], capture_output=True, text=True)
    if run.returncode != 0:
        return {"refused": True}
    return {"value": json.loads(run.stdout).get("data", {}).get("k")}


def main():
    cases = list(dict.fromkeys(CURATED + generated(500)))
    version = subprocess.run(["kubectl", "version", "--client", "-o", "json"], capture_output=True,
                             text=True).stdout
    answers = [dict({"yaml": PREFIX + case}, **kubectl_reads(case)) for case in cases]
    json.dump({"generator": "scripts/gen-block-scalar-cases.py",
               "kubectl": json.loads(version)["clientVersion"]["gitVersion"],
               "cases": answers}, sys.stdout, indent=1, ensure_ascii=True)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
