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
import re
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


# What the pin scan reads (app/target_pin.h), each with target_pin_fuzz.cc's
# name byte: 0 kustomization.yaml, 1 Chart.yaml, 2 Kustomization, 3 a file
# named for a HelmRelease or an Application.
PIN_SHAPES = [
    (0, b"apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n- namespace.yaml\n"
        b"- https://github.com/kubeflow/trainer.git/manifests/overlays/manager?ref=v2.1.0\n"
        b"- github.com/kubeflow/trainer-extras/manifests?ref=v9.0.0\n"
        b"images:\n- name: ghcr.io/kubeflow/trainer/trainer-controller-manager\n  newTag: v2.1.0\n"
        b"- name: ghcr.io/kubeflow/trainer/other\n  newTag: v2.9.0\n"),
    (2, b"bases:\n- git@github.com:kubeflow/trainer.git//manifests?timeout=90s&ref=v2.1.3\n"),
    (0, b"helmCharts:\n- name: kubeflow-trainer\n  version: 2.1.0\n  repo: oci://ghcr.io/kubeflow/charts\n"),
    (0, b"images:\n- name: x\n  newName: ghcr.io/kubeflow/trainer/trainer-controller-manager\n  newTag: latest\n"
        b"components:\n- github.com/kubeflow/trainer/manifests?ref=v2.3.0-rc.1\n"),
    (1, b"apiVersion: v2\nname: app\nversion: 0.1.0\ndependencies:\n  - name: kubeflow-trainer\n"
        b"    version: 2.1.0\n    repository: oci://ghcr.io/kubeflow/charts\n  - name: other\n    version: 2.3.0\n"),
    (3, b"apiVersion: helm.toolkit.fluxcd.io/v2\nkind: HelmRelease\nmetadata: {name: trainer}\nspec:\n  chart:\n"
        b"    spec:\n      chart: kubeflow-trainer\n      version: \"2.1.0\"\n"),
    (3, b"apiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata: {name: trainer}\nspec:\n  sources:\n"
        b"  - repoURL: ghcr.io/kubeflow/charts\n    chart: kubeflow-trainer\n    targetRevision: 2.2.0\n"
        b"  - repoURL: https://github.com/kubeflow/trainer.git\n    path: manifests/overlays/manager\n"
        b"    targetRevision: v2.2.0\n"),
    (3, b"apiVersion: v1\nkind: List\nitems:\n- apiVersion: argoproj.io/v1alpha1\n  kind: Application\n  spec:\n"
        b"    source: {repoURL: 'https://github.com/kubeflow/trainer', targetRevision: v2.3.0}\n"),
]


EXPLAIN_QUERIES = [b"spec", b"spec.replicatedJobs[name=node].template", b"spec.containers[0].env[name=A]",
                   b"metadata.labels[app.kubernetes.io/name]", b".a[", b"[x=y][0]", b""]


def explain_inputs():
    """explain_field_fuzz.cc's input: a --field query line, then the stages
    as one YAML stream (the test manifests, one stage each and two at once)."""
    documents = list(manifests())[:120]
    for i, document in enumerate(documents):
        query = EXPLAIN_QUERIES[i % len(EXPLAIN_QUERIES)]
        yield query + b"\n" + document
        if i + 1 < len(documents):
            yield query + b"\n" + document + b"\n---\n" + documents[i + 1]


def pin_inputs():
    """target_pin_fuzz.cc's input: a name byte, a file, and after a line "%%"
    a second file: the pin shapes alone and in pairs (pins that agree and
    that conflict), and the test repositories' kustomizations and charts."""
    for name, text in PIN_SHAPES:
        yield bytes([name]) + text
    for (first, a), (second, b) in zip(PIN_SHAPES, PIN_SHAPES[1:] + PIN_SHAPES[:1]):
        yield bytes([first | second << 2]) + a + b"%%\n" + b
    for path in files("fixtures/**/kustomization.yaml", "fixtures/**/Chart.yaml", "integrations/**/kustomization.yaml"):
        yield bytes([1 if path.endswith("Chart.yaml") else 0]) + read(path)
    yield bytes([3]) + read(os.path.join(ROOT, "integrations/argocd/application.yaml"))


# Files only a walk of a folder reads as such, for tree_loader_fuzz.cc: a
# ConfigMap carrying runtimes as the kubeflow-trainer chart renders it, a
# template kept outside a chart, and a kustomize patch of a TrainJob
# (options byte 4: the file after "%%" is the patch).
TREE_SHAPES = [
    b"\x00apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: kubeflow-trainer-runtimes-installer\ndata:\n"
    b"  runtimes.yaml: |\n    ---\n    apiVersion: trainer.kubeflow.org/v1alpha1\n    kind: ClusterTrainingRuntime\n"
    b"    metadata:\n      name: torch-distributed\n    spec:\n      mlPolicy:\n        numNodes: 1\n        torch: {}\n"
    b"      template:\n        spec:\n          replicatedJobs:\n          - name: node\n            template:\n"
    b"              metadata:\n                labels: {trainer.kubeflow.org/trainjob-ancestor-step: trainer}\n"
    b"              spec:\n                template:\n                  spec:\n                    containers:\n"
    b"                    - name: node\n                      image: pytorch/pytorch\n",
    b"\x00apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\ndata:\n  runtimes.yaml: \"kind: ClusterTrainingRuntime\\n"
    b"apiVersion: trainer.kubeflow.org/v1alpha1\\nmetadata: {name: a}\\n\"\n",
    b"\x00apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nmetadata:\n  name: {{ .Values.name }}\nspec:\n"
    b"  runtimeRef: {name: torch-distributed}\n  trainer:\n    numNodes: ${NODES}\n    image: $IMAGE\n"
    b"    command: [sh, -c, 'echo $HOME']\n",
    b"\x00apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nmetadata:\n  name: job\n${EXTRA}\nspec:\n"
    b"  runtimeRef: {name: torch-distributed}\n",
    b"\x04apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nmetadata: {name: job}\nspec:\n"
    b"  runtimeRef: {name: torch-distributed}\n%%\napiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\n"
    b"metadata: {name: job}\nspec:\n  suspend: false\n  trainer:\n    numNodes: four\n    env:\n    - name: A\n"
    b"      value: 1\n  labels:\n    $patch: delete\n  annotations: null\n",
]


def tree_inputs():
    """tree_loader_fuzz.cc's input: an options byte, a file, and after a line
    "%%" a second file (the patch under option 4)."""
    yield from TREE_SHAPES
    for text in manifests():
        if b"runtimes.yaml" in text or b"{{" in text or b"${" in text or b"TrainJob" in text:
            yield b"\x00" + text


def cpp_string_constants(path):
    """The string constants of a C++ test file, adjacent literals joined,
    escapes (\\n, \\", \\\\, \\t) decoded."""
    text = read(path).decode()
    literal = r'"(?:[^"\\\n]|\\.)*"'
    for block in re.finditer(r"(?:%s\s*)+" % literal, text):
        parts = re.findall(literal, block.group(0))
        joined_text = "".join(p[1:-1] for p in parts)
        yield re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t"}.get(m.group(1), m.group(1)),
                     joined_text).encode()


def krm_inputs():
    """krm_items_fuzz.cc's input: a ResourceList, and after a line "%%" the
    file its items name: the ResourceLists of the KRM unit tests, and one
    whose item is the file's second document, as kpt sends it."""
    for path in files("src/integrate/*_test.cc"):
        for constant in cpp_string_constants(path):
            if b"ResourceList" in constant and b"items" in constant and len(constant) <= MAX_SEED:
                yield constant
    document = (b"apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nmetadata:\n  name: job\nspec:\n"
                b"  runtimeRef:\n    name: torch-distributed\n  trainer:\n    numNodes: four\n")
    item = (b"- apiVersion: trainer.kubeflow.org/v1alpha1\n  kind: TrainJob\n  metadata:\n    name: job\n"
            b"    annotations:\n      internal.config.kubernetes.io/path: 'm.yaml'\n"
            b"      internal.config.kubernetes.io/index: '1'\n      config.kubernetes.io/path: 'm.yaml'\n"
            b"      internal.config.kubernetes.io/seqindent: 'wide'\n  spec:\n    runtimeRef:\n"
            b"      name: torch-distributed\n    trainer:\n      numNodes: four\n")
    yield (b"apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n" + item +
           b"%%\n# Copyright\n\napiVersion: v1\nkind: Namespace\nmetadata: {name: a}\n---\n" + document)


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
    "git_pack": (no_seeds, None),
    "target_pin": (pin_inputs, "fuzz/dict/target_pin.dict"),
    "explain_field": (explain_inputs, "fuzz/dict/yaml.dict"),
    "tree_loader": (tree_inputs, "fuzz/dict/yaml.dict"),
    "krm_items": (krm_inputs, "fuzz/dict/yaml.dict"),
}


# target -> divisor of the smoke run count, for the targets slower than the
# readers' ~1,000 executions a second under the sanitizers: render_pipeline
# ran 25-80 a second in a 10-minute run on the loaded 2-core machine (it
# renders every input twice), flyte_task ~800, migrate_splice ~900 and
# yaml_determinism ~540 (four reads of each input), tree_loader ~280 (two
# walks and loads of a folder per input, 15 s on its seeds).
SMOKE_DIVISOR = {
    "git_pack": 60,  # three repository opens and a pack or loose store written per input: ~5-100/s
    "tree_loader": 4,
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
