#!/usr/bin/env python3
"""Regenerates src/yaml/testdata/flow_cases.json: objects whose field `x` is
a flow collection ([...], {...}), or a block mapping with keys that start
with ':' after values continued on a second line, and what kubectl (goyaml
v2, through sigs.k8s.io/yaml) reads as `x`, or that it refuses the file.
flow_context_test.cc compares tjrender's reader with these answers.

    scripts/gen-flow-cases.py > src/yaml/testdata/flow_cases.json

Needs kubectl (v1.32 was used); one `kubectl patch --local` per case. The
cases are curated ones (the shapes libfyaml reads differently from goyaml:
'?' and ':' at a value's start or inside it, a tag not followed by a blank,
a ':' key after a folded value) plus generated ones from a fixed seed.
"""
import json
import random
import subprocess
import sys
import tempfile

PREFIX = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cases\n"

CURATED = [
    "x: [:b]\n", "x: [a, :b]\n", "x: {:b: c}\n", "x: {a: :b}\n", "x: {:b}\n", "x: [a,\n :b]\n",
    "x: [?b]\n", "x: {?b: c}\n", "x: [a, ?b]\n", "x: {?a}\n",
    "x: [http://x?y=1]\n", "x: {a: x?y}\n", "x: {a?: x}\n", "x: [a ?b]\n", "x: [a\n  ? b]\n",
    "x: [a:]\n", "x: [a:,b]\n", "x: {a:}\n", "x: [a:b:]\n", "x: [a::]\n", "x: [a:[b]]\n",
    "x: [!a, b]\n", "x: [!, b]\n", "x: [!!str, b]\n", "x: [!t[a]]\n", "x: {1: !,}\n", "x: [!,\n  \"q\"]\n",
    "x: [a :b]\n", "x: [a\n  :b]\n", "x: [a: ]\n", "x: [? b]\n", "x: {a:b}\n", "x: [-b, \"a\":b, 'x?']\n",
    "x: [http://x, a#b]\n", "x: [!!str 1, !t [a], {!a: b}]\n", "x: [-]\n", "x: [a, -]\n", "x: {-: a}\n",
    # A key that starts with ':' after a value continued on a second line.
    "x:\n  b: x y\n    z\n  :zone: x\n",
    "x:\n  b:\n  - x y\n    z\n  :zone: x\n",
    "x:\n- b: x y\n    z\n  :zone: x\n",
    "x:\n  c: x y\n    z\n  :zone: p q\n    r\n  :w: 1\n",
    "x:\n  b: x y\n    z\n  :z\u00f6ne: x\n",
    "x:\n  b: x y\n    z\n  :1: x\n  :true: w\n",
    "x:\n  b: |\n    :lit\n  c: x y\n    z\n  :zone: x\n",
    "x:\n  b: x\n    :cont\n  c: x y\n    z\n  :zone: x\n",
    "x:\n  c: \"x\n    :q\"\n  d: x y\n    z\n  :zone: x\n",
    "x:\n  b: x y\n    z\n  : x\n",
    "x:\n  f: [a,\n   :b]\n  c: x y\n    z\n  :zone: x\n",
    "x:\n  \"*\": this is a fairly long annotation value with many words that goes well past\n"
    "    the eighty column limit of the emitter\n  :\"zone\": x\n",
]

ATOMS = ["a", "b", "x y", "1", "?", "?a", "a?b", ":a", "a:", "a:b", "a::", "::", "-a", "-", "a#b", "a #b",
         "http://x?y=1", '"q"', "'s'", '"a":b', "*x", "&y a", "!t a", "~", "null", "true", ": a", "a :b",
         "a ?b", "!", "!,", "!a,b c", "a\n    b", "a\n   :b", "a\n    ?b", "=", "<<", "1.5", "0x1F"]


def flow(rng, depth):
    if depth > 2 or rng.random() < 0.35:
        return rng.choice(ATOMS)
    sep = rng.choice([", ", ",", " ,", ",\n    "])
    end = rng.choice(["", ",", " "])
    if rng.random() < 0.5:
        return "[" + sep.join(flow(rng, depth + 1) for _ in range(rng.randint(0, 3))) + end + "]"
    items = []
    for _ in range(rng.randint(0, 3)):
        key = rng.choice(ATOMS[:20] + ["a", "b", "c"])
        items.append(key if rng.random() < 0.3 else key + rng.choice([": ", ":", " : "]) + flow(rng, depth + 1))
    return "{" + sep.join(items) + end + "}"


def colon_keys(rng):
    lines = ["x:"]
    for key in rng.sample(["a", "b", ":c", ":d", ":\"e\"", "::f", ":1"], rng.randint(2, 5)):
        value = rng.choice(["v", "v w\n    u", "long " * 20, "[a, b]", "'q'", "|\n    t\n    :t"])
        lines.append("  " + key + ": " + value.rstrip())
    return "\n".join(lines) + "\n"


def generated(count, seed=20261127):
    rng = random.Random(seed)
    return [("x: " + flow(rng, 0) + "\n") if rng.random() < 0.8 else colon_keys(rng) for _ in range(count)]


def kubectl_reads(case):
    with tempfile.NamedTemporaryFile("w", suffix=".yaml", newline="", encoding="utf-8") as file:
        file.write(PREFIX + case)
        file.flush()
        run = subprocess.run(["kubectl", "patch", "--local", "-f", file.name, "--type", "merge", "-p", "{}",
                              "-o", "json"], capture_output=True, text=True)
    if run.returncode != 0:
        return {"refused": True}
    return {"value": json.loads(run.stdout).get("x")}


def main():
    cases = list(dict.fromkeys(CURATED + generated(600)))
    version = subprocess.run(["kubectl", "version", "--client", "-o", "json"], capture_output=True,
                             text=True).stdout
    answers = [dict({"yaml": PREFIX + case}, **kubectl_reads(case)) for case in cases]
    json.dump({"generator": "scripts/gen-flow-cases.py",
               "kubectl": json.loads(version)["clientVersion"]["gitVersion"],
               "cases": answers}, sys.stdout, indent=1, ensure_ascii=True)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
