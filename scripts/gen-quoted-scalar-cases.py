#!/usr/bin/env python3
"""Regenerates src/yaml/testdata/quoted_scalar_cases.json: quoted YAML
scalars and the values kubectl (goyaml v2, through sigs.k8s.io/yaml) reads
from them, the answers quoted_scalar_test.cc compares tjrender's reader with.

    scripts/gen-quoted-scalar-cases.py > src/yaml/testdata/quoted_scalar_cases.json

Needs kubectl (v1.32 was used). The cases are curated ones (each of goyaml's
escapes and folding rules) plus generated ones from a fixed seed: runs of
'' and of blanks, breaks and escaped breaks, the mixes libfyaml got wrong.
All are read in one `kubectl patch --local` of a ConfigMap, one key each.
"""
import json
import random
import subprocess
import sys
import tempfile

CURATED = [
    "'a''''b'", "'a''b'", "''''", "''''''", "'it''s ''q'' '''", "'two\n\n    lines'", "'one\n    two'",
    "'  lead and trail  '", "'x  \n    y'", "'a\n\n   \n    b'", '"x\\ \n    y"', '"a\\\n    b"', '"a \\\n    b"',
    '"a\\\n\n    b"', '"tab\\there"', '"\\x41\\u00e9\\U0001F600"', '"\\N\\_\\L\\P"', '"\\e\\a\\b\\v\\f\\r\\0"',
    '"\\"\\\\\\\'"', '"a\\\tb"', '"  "', '"multi\n   line  \n     text"', '"\\\n   x"', "'x\\y'", '"\'"', "'\"'",
    '"a\\\r\n    b"', "'a\r\n    b'", '"a\\\n    \n    b"', "'tail \n    '", '"x\\\n"', "'a\t\n\tb'",
    '"a\\\n\\ b"', "''", '""', "'\u2028'", "'a\u2028b'", '"a\u0085b"',
]
SINGLE = ["a", "b", "\u00e9", " ", "  ", "\t", "''", "\\", '"', "\n    ", "\n\n    ", "\n    \n    ", " \n    "]
DOUBLE = ["a", "b", " ", "  ", "\t", "'", "\\\\", '\\"', "\\n", "\\t", "\\ ", "\\\n    ", "\\\n\n    ",
          "\n    ", "\n\n    ", " \n    ", "\\x41", "\\u00e9", "\\_", "\\0"]


def generated(count, seed=20261126):
    rng = random.Random(seed)
    cases = []
    for i in range(count):
        quote, parts = ("'", SINGLE) if i % 2 == 0 else ('"', DOUBLE)
        body = "".join(rng.choice(parts) for _ in range(rng.randint(1, 8)))
        cases.append(quote + body + quote)
    return cases


def main():
    cases = list(dict.fromkeys(CURATED + generated(400)))
    manifest = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cases\ndata:\n"
    manifest += "".join(f"  k{i}: {case}\n" for i, case in enumerate(cases))
    with tempfile.NamedTemporaryFile("w", suffix=".yaml", newline="") as file:
        file.write(manifest)
        file.flush()
        out = subprocess.run(["kubectl", "patch", "--local", "-f", file.name, "--type", "merge", "-p", "{}",
                              "-o", "json"], check=True, capture_output=True, text=True).stdout
    data = json.loads(out)["data"]
    version = subprocess.run(["kubectl", "version", "--client", "-o", "json"], capture_output=True,
                             text=True).stdout
    answers = [{"yaml": case, "value": data[f"k{i}"]} for i, case in enumerate(cases)]
    json.dump({"generator": "scripts/gen-quoted-scalar-cases.py",
               "kubectl": json.loads(version)["clientVersion"]["gitVersion"],
               "cases": answers}, sys.stdout, indent=1, ensure_ascii=True)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
