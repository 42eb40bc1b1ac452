#!/usr/bin/env python3
"""Seed corpora and dictionaries of the fuzz targets.

  fuzz/seeds.py TARGET DIR    writes TARGET's seeds into DIR (one file per seed,
                              named by its sha1, so reruns add nothing twice):
                              the committed regression inputs of fuzz/corpus/TARGET
                              and inputs taken from conformance/ and fixtures/
  fuzz/seeds.py --dict TARGET prints TARGET's dictionary path (or nothing)
  fuzz/seeds.py --list        prints the targets

A target's seeds are the repository's own test inputs in the shape the target
reads (a YAML stream, a JSON document, an object and a patch, ...): every case
a test pins is a starting point the fuzzer mutates from.
"""
import glob
import hashlib
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MAX_SEED = 64 * 1024  # scripts/fuzz's -max_len


def files(*patterns):
    out = []
    for pattern in patterns:
        out.extend(sorted(glob.glob(os.path.join(ROOT, pattern), recursive=True)))
    return out


def read(path):
    with open(path, "rb") as f:
        return f.read()


def manifests():
    """Every YAML and JSON input the tests hold, small ones only."""
    for path in files("conformance/**/*.yaml", "conformance/**/*.yml", "fixtures/**/*.yaml",
                      "fixtures/**/*.yml", "integrations/**/*.yaml"):
        if os.path.getsize(path) <= MAX_SEED and "/smp-oracle/" not in path:
            yield read(path)
    # The kubectl differential corpus: a sample, it holds thousands.
    for case in smp_cases(200):
        yield case["object"].encode()


def smp_cases(count):
    """The first `count` cases of the stored kubectl answers (fixtures/smp-oracle)."""
    out = []
    for path in files("fixtures/smp-oracle/cases-*.jsonl"):
        with open(path) as f:
            for line in f:
                out.append(json.loads(line))
                if len(out) == count:
                    return out
    return out


def smp_pairs():
    """Object and patch as smp_merge_fuzz.cc reads them: an options byte,
    the object, a line "%%", the patch."""
    for i, case in enumerate(smp_cases(400)):
        yield bytes([i % 8]) + case["object"].encode() + b"\n%%\n" + case["patch"].encode()


def json_documents():
    for path in files("conformance/**/*.json", "fixtures/**/*.json"):
        if os.path.getsize(path) <= MAX_SEED:
            yield read(path)
    for case in smp_cases(200):
        if case.get("json", {}).get("rc") == 0:
            yield case["json"]["stdout"].encode()


# target -> (seeds, dictionary)
TARGETS = {
    "yaml_reader": (manifests, "fuzz/dict/yaml.dict"),
    "json_reader": (json_documents, "fuzz/dict/json.dict"),
    "smp_merge": (smp_pairs, "fuzz/dict/yaml.dict"),
    "yaml_differential": (manifests, "fuzz/dict/yaml.dict"),
    "yaml_writer_roundtrip": (manifests, "fuzz/dict/yaml.dict"),
}


def main(argv):
    if argv[1:2] == ["--list"]:
        print("\n".join(sorted(TARGETS)))
        return 0
    if argv[1:2] == ["--dict"] and len(argv) == 3:
        dictionary = TARGETS.get(argv[2], (None, None))[1]
        if dictionary:
            print(os.path.join(ROOT, dictionary))
        return 0
    if len(argv) != 3 or argv[1] not in TARGETS:
        print(__doc__, file=sys.stderr)
        return 2
    target, out = argv[1], argv[2]
    os.makedirs(out, exist_ok=True)
    seeds = list(TARGETS[target][0]())
    seeds.extend(read(path) for path in files(f"fuzz/corpus/{target}/*"))
    for seed in seeds:
        name = os.path.join(out, hashlib.sha1(seed).hexdigest())
        if not os.path.exists(name):
            with open(name, "wb") as f:
                f.write(seed)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
