#!/usr/bin/env python3
"""Checks the Pod cases of a .cases file against kubectl.

For each case with `kubectl: verified` (and root Pod), runs
    kubectl patch --local -f ORIGINAL --type strategic --patch-file PATCH -o json
and compares the printed object with `expected` (as data: maps unordered,
lists ordered, ints and floats apart), or checks that kubectl fails with the
`error` text or panics with the `panic` text. Exits non-zero on any mismatch.

Usage: verify_with_kubectl.py [pod.cases]
"""
import json
import os
import subprocess
import sys
import tempfile

import yaml


def load_cases(path):
    cases, current, key = [], None, None
    with open(path) as f:
        for number, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            if line.startswith("=== "):
                current = {"description": line[4:], "line": number, "root": "Pod"}
                cases.append(current)
                key = None
            elif line[0] in " \t":
                current[key] += "\n" + line
            else:
                key, _, rest = line.partition(":")
                current[key] = rest[1:] if rest.startswith(" ") else rest
    return cases


def same(a, b):
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return a == b


def run(case, workdir):
    original = os.path.join(workdir, "original.yaml")
    patch = os.path.join(workdir, "patch.yaml")
    with open(original, "w") as f:
        # The document marker keeps kubectl from sniffing '{' as JSON, so
        # both files are read as YAML (goyaml), like the flow text is meant.
        f.write("---\n" + case["original"] + "\n")
    with open(patch, "w") as f:
        f.write("---\n" + case["patch"] + "\n")
    return subprocess.run(
        ["kubectl", "patch", "--local", "-f", original, "--type", "strategic",
         "--patch-file", patch, "-o", "json"],
        capture_output=True, text=True)


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "pod.cases")
    failures = checked = 0
    with tempfile.TemporaryDirectory() as workdir:
        for case in load_cases(path):
            if case.get("kubectl", "") != "verified" or case["root"] != "Pod":
                continue
            checked += 1
            result = run(case, workdir)
            where = "%s:%d: %s" % (os.path.basename(path), case["line"], case["description"])
            if "expected" in case:
                want = yaml.safe_load(case["expected"])
                if result.returncode != 0:
                    ok, detail = False, result.stderr.strip()
                else:
                    got = json.loads(result.stdout)
                    ok, detail = same(got, want), json.dumps(got)
            else:
                text = case.get("error") or case.get("panic")
                text = text.replace("\\n", "\n")
                ok = result.returncode != 0 and text in result.stderr
                detail = result.stderr.strip()[:600] if not ok else ""
            print(("ok    " if ok else "FAIL  ") + where)
            if not ok:
                failures += 1
                print("      kubectl: " + detail)
    print("%d checked, %d failed" % (checked, failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
