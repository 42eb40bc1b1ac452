#!/usr/bin/env python3
"""Seed corpora and dictionaries of the fuzz targets.

  fuzz/seeds.py TARGET DIR    writes TARGET's seeds into DIR (one file per seed,
                              named by its sha1, so reruns add nothing twice):
                              the committed regression inputs of fuzz/corpus/TARGET
                              and inputs taken from conformance/ and fixtures/
  fuzz/seeds.py --dict TARGET prints TARGET's dictionary path (or nothing)
  fuzz/seeds.py --list        prints the targets
  fuzz/seeds.py --smoke-runs TARGET RUNS
                              prints TARGET's share of the CI smoke's RUNS
                              mutations (scripts/sanitize): the slow
                              targets run fewer, so each takes about a minute

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


def conformance_cases(target):
    """(command, input files by name) of every conformance case of `target`."""
    for case_file in files("conformance/*/*/case.yaml"):
        text = read(case_file).decode()
        if f"\ntarget: {target}\n" not in "\n" + text:
            continue
        command = ""
        for line in text.splitlines():
            if line.startswith("command:"):
                command = line[len("command:"):]
        folder = os.path.dirname(case_file)
        inputs = {os.path.relpath(path, os.path.join(folder, "input")): read(path)
                  for path in files(os.path.relpath(folder, ROOT) + "/input/**/*")
                  if os.path.isfile(path)}
        yield command, inputs


def joined(documents):
    """YAML streams as one stream (a "---" line between them)."""
    return b"---\n".join(d if d.endswith(b"\n") else d + b"\n" for d in documents)


RENDER_TARGETS = ["trainer-v2.1", "trainer-v2.2", "trainer-v2.3", "trainer-pr3199-preview"]


def render_inputs():
    """render_pipeline_fuzz.cc's input: an options byte (the --target, --strict,
    Flyte on), the TrainJob file, a line "%%", the runtime file. A case's
    inputs are cut before the first file holding a runtime."""
    for target in ("render", "flyte"):
        for command, inputs in conformance_cases(target):
            option = 8 if target == "flyte" else 0
            for index, name in enumerate(RENDER_TARGETS):
                if name in command:
                    option |= index
            if "--strict" in command:
                option |= 4
            texts = [text for name, text in sorted(inputs.items()) if b"\n%%\n" not in text]
            runtimes = [t for t in texts if b"TrainingRuntime" in t]
            others = [t for t in texts if b"TrainingRuntime" not in t]
            seed = bytes([option]) + joined(others)
            if runtimes:
                seed += b"%%\n" + joined(runtimes)
            if len(seed) <= MAX_SEED:
                yield seed


def flyte_inputs():
    """flyte_task_fuzz.cc's input: an options byte (flyte-v2, --strict), the
    task stream, and after a line "%%" the --flyte-config document if any."""
    for command, inputs in conformance_cases("flyte"):
        option = (1 if "flyte-v2" in command else 0) | (2 if "--strict" in command else 0)
        config = None
        if "--flyte-config" in command:
            config = command.split("--flyte-config,")[1].strip(" ]\n")
        stream = joined(text for name, text in sorted(inputs.items()) if name != config)
        seed = bytes([option]) + stream
        if config in inputs:
            seed += b"%%\n" + inputs[config]
        yield seed


def migrate_inputs():
    """migrate_splice_fuzz.cc's input: a shape byte, then one file; each
    conformance migrate case's files, in both shapes, and the manifests of
    the tests that hold podTemplateOverrides."""
    texts = [text for _, inputs in conformance_cases("migrate") for text in inputs.values()]
    texts.extend(m for m in manifests() if b"podTemplateOverrides" in m)
    for text in texts:
        for shape in (0, 1):
            yield bytes([shape]) + text


def no_seeds():
    """The committed fuzz/corpus/TARGET inputs only."""
    return []


# target -> (seeds, dictionary)
TARGETS = {
    "yaml_reader": (manifests, "fuzz/dict/yaml.dict"),
    "json_reader": (json_documents, "fuzz/dict/json.dict"),
    "smp_merge": (smp_pairs, "fuzz/dict/yaml.dict"),
    "yaml_differential": (manifests, "fuzz/dict/yaml.dict"),
    "yaml_writer_roundtrip": (manifests, "fuzz/dict/yaml.dict"),
    "yaml_determinism": (manifests, "fuzz/dict/yaml.dict"),
    "render_pipeline": (render_inputs, "fuzz/dict/yaml.dict"),
    "flyte_task": (flyte_inputs, "fuzz/dict/yaml.dict"),
    "migrate_splice": (migrate_inputs, "fuzz/dict/yaml.dict"),
    "git_index": (no_seeds, None),
}


# target -> divisor of the smoke run count, for the targets slower than the
# readers' ~1,000 executions a second under the sanitizers: render_pipeline
# ran 25-80 a second in a 10-minute run on the loaded 2-core machine (it
# renders every input twice), flyte_task ~800, migrate_splice ~900 and
# yaml_determinism ~540 (four reads of each input).
SMOKE_DIVISOR = {
    "render_pipeline": 60,
    "flyte_task": 2,
    "migrate_splice": 2,
    "yaml_determinism": 2,
}


def main(argv):
    if argv[1:2] == ["--list"]:
        print("\n".join(sorted(TARGETS)))
        return 0
    if argv[1:2] == ["--smoke-runs"] and len(argv) == 4 and argv[2] in TARGETS:
        print(max(1, int(argv[3]) // SMOKE_DIVISOR.get(argv[2], 1)))
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
