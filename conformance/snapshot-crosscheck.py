#!/usr/bin/env python3
"""Cross-checks the runtime snapshot ConfigMaps in expected.yaml files against
what does not come from tjrender:

  conformance/snapshot-crosscheck.py CASE_DIR... [--base REV]

For each case folder:
  1. without the `<trainjob>-runtime-snapshot` ConfigMaps, expected.yaml holds
     the same objects as at REV (default HEAD), in the same order: adding the
     snapshot changed nothing else;
  2. each snapshot has the namespace and ownerReferences of its TrainJob's
     other objects (the file's order is free: objects are matched by name);
  3. its data.runtime is the text kubectl's YAML printer (sigs.k8s.io/yaml,
     the serializer the controller uses, snapshot.go:28,102) writes for the
     same data;
  4. it names the runtime the TrainJob references, and every value the case's
     input runtime writes under `spec` is in it; what it has beyond the input
     (CRD defaults, Go's `metadata: {}` / `resources: {}`) and values that
     differ (quantities made canonical) are listed for the reviewer.
Exit 1 when a check of 1-4 fails. Needs PyYAML and kubectl.
"""
import json
import os
import subprocess
import sys

import yaml


def load_all(text):
    return [d for d in yaml.safe_load_all(text) if d is not None]


def is_snapshot(obj):
    return (obj.get("kind") == "ConfigMap" and obj.get("apiVersion") == "v1"
            and obj.get("metadata", {}).get("name", "").endswith("-runtime-snapshot"))


def kubectl_yaml(data):
    path = "/tmp/snapshot-crosscheck.json"
    with open(path, "w") as f:
        json.dump(data, f)
    out = subprocess.run(["kubectl", "patch", "--local", "-f", path, "--type", "merge", "-p", "{}", "-o", "yaml"],
                         capture_output=True, text=True)
    if out.returncode != 0:
        return "kubectl: " + out.stderr
    return out.stdout


def leaves(value, path=""):
    if isinstance(value, dict):
        if not value:
            yield path, {}
        for k, v in value.items():
            yield from leaves(v, path + "." + str(k))
    elif isinstance(value, list):
        if not value:
            yield path, []
        for i, v in enumerate(value):
            yield from leaves(v, path + "[%d]" % i)
    else:
        yield path, value


def input_documents(case):
    docs = []
    for root, _, files in os.walk(os.path.join(case, "input")):
        for name in sorted(files):
            if name.endswith((".yaml", ".yml", ".json")):
                with open(os.path.join(root, name)) as f:
                    try:
                        docs += [d for d in load_all(f.read()) if isinstance(d, dict)]
                    except yaml.YAMLError:
                        pass
    return docs


def check(case, base, extras, changed):
    failures = []
    path = os.path.join(case, "expected.yaml")
    with open(path) as f:
        new = load_all(f.read())
    old_text = subprocess.run(["git", "show", "%s:%s" % (base, path)], capture_output=True, text=True).stdout
    old = load_all(old_text)
    if [o for o in new if not is_snapshot(o)] != old:
        failures.append("objects other than the snapshots changed")
    inputs = input_documents(case)
    for obj in new:
        if not is_snapshot(obj):
            continue
        meta = obj["metadata"]
        trainjob = meta["name"][: -len("-runtime-snapshot")]
        refs = meta.get("ownerReferences", [])
        if len(refs) != 1 or refs[0].get("name") != trainjob or refs[0].get("kind") != "TrainJob":
            failures.append("%s: ownerReferences do not name TrainJob %s" % (meta["name"], trainjob))
        siblings = [o for o in new if not is_snapshot(o) and o.get("metadata", {}).get("ownerReferences") == refs]
        if not siblings or any(o["metadata"].get("namespace") != meta.get("namespace") for o in siblings):
            failures.append("%s: no other object of TrainJob %s in its namespace" % (meta["name"], trainjob))
        text = obj.get("data", {}).get("runtime", "")
        runtime = yaml.safe_load(text)
        printed = kubectl_yaml(runtime)
        if printed != text:
            failures.append("%s: data.runtime is not what sigs.k8s.io/yaml prints:\n%s\n---\n%s" % (meta["name"], text, printed))
        ref = next((d["spec"]["runtimeRef"] for d in inputs if d.get("kind") == "TrainJob"
                    and d.get("metadata", {}).get("name") == trainjob), None)
        if ref is None or runtime.get("metadata", {}).get("name") != ref.get("name") or \
                runtime.get("kind") != ref.get("kind", "ClusterTrainingRuntime"):
            failures.append("%s: names runtime %s/%s, the TrainJob references %s" % (
                meta["name"], runtime.get("kind"), runtime.get("metadata", {}).get("name"), ref))
            continue
        source = next((d for d in inputs if d.get("kind") == runtime["kind"]
                       and d.get("metadata", {}).get("name") == ref["name"]), None)
        if source is None:
            failures.append("%s: no input runtime %s" % (meta["name"], ref["name"]))
            continue
        have = dict(leaves(runtime.get("spec", {})))
        for leaf, value in leaves(source.get("spec", {})):
            if value == {} and any(p.startswith(leaf + ".") for p in have):
                continue  # an empty object the CRD defaults filled
            if leaf not in have:
                failures.append("%s: input value spec%s = %r is missing" % (meta["name"], leaf, value))
            elif have[leaf] != value:
                changed.add("spec%s: %r -> %r" % (leaf, value, have[leaf]))
        wrote = dict(leaves(source.get("spec", {})))
        for leaf, value in have.items():
            if leaf not in wrote:
                extras.add("spec%s = %r" % (strip_indexes(leaf), value))
    return failures


def strip_indexes(path):
    out, skip = "", False
    for c in path:
        if c == "[":
            skip = True
            out += "[]"
        elif c == "]":
            skip = False
        elif not skip:
            out += c
    return out


def main():
    args = sys.argv[1:]
    base = "HEAD"
    if "--base" in args:
        i = args.index("--base")
        base = args[i + 1]
        del args[i:i + 2]
    extras, changed, failed = set(), set(), 0
    for case in args:
        for failure in check(case.rstrip("/"), base, extras, changed):
            print("FAIL %s: %s" % (case, failure))
            failed += 1
    print("\nValues the snapshots add beyond the input runtimes (review):")
    for e in sorted(extras):
        print("  " + e)
    print("\nValues that differ from the input runtimes (review):")
    for c in sorted(changed):
        print("  " + c)
    print("\n%d cases, %d failures" % (len(args), failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
