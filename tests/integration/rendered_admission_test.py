#!/usr/bin/env python3
"""What the cluster refuses after the TrainJob (issue 29), through the
commands users type: a TrainJob the Trainer accepts whose Job the API
server refuses (numNodes: -1 renders parallelism: -1) is an error with rule
rendered/job/<rule>, located at the TrainJob line that drove the value, on
`check`, `render` (nothing on stdout, --out DIR left unchanged), `diff`
between revisions, every findings format, the KRM function, the Helm post-renderer and the
Argo CD plugin; a clean TrainJob beside it still renders; --no-admission leaves the
admission out; the shipped fixtures render clean under every target."""
import json
import os
import shutil
import xml.etree.ElementTree as ElementTree

import yaml

from common import SOURCE_ROOT, TORCH_RUNTIME, Checks, run, temp_dir, tjrender

CLEAN = """apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata:
  name: clean
  namespace: ml-team
spec:
  runtimeRef:
    name: torch-distributed
"""

REFUSED = """apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata:
  name: refused
  namespace: ml-team
spec:
  runtimeRef:
    name: torch-distributed
  trainer:
    numNodes: -1
"""

RULE = "rendered/job/parallelism"
MESSAGE = ("Job ml-team/refused-node-0 (created by JobSet ml-team/refused): "
           "spec.parallelism: Invalid value: -1: must be greater than or equal to 0")
LOCATION = "trainjobs/refused.yaml:10:15"


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def git(repo, *args):
    return run(["git", "-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false",
                *args], cwd=repo)


def main():
    checks = Checks()
    work = temp_dir("tjrender-rendered-admission-")
    try:
        repo = os.path.join(work, "repo")
        write(os.path.join(repo, "runtimes", "torch.yaml"), TORCH_RUNTIME)
        write(os.path.join(repo, "trainjobs", "clean.yaml"), CLEAN)
        git(repo, "init", "-q", "-b", "main")
        git(repo, "add", ".")
        git(repo, "commit", "-q", "-m", "clean")
        write(os.path.join(repo, "trainjobs", "refused.yaml"), REFUSED)
        git(repo, "add", ".")
        git(repo, "commit", "-q", "-m", "refused")

        checked = run([tjrender(), "check", "."], cwd=repo)
        expected_line = f"{LOCATION}: error: [{RULE}] {MESSAGE}"
        checks.expect(checked.returncode == 1, "check exits 1", checked.stderr)
        checks.expect(expected_line in checked.stderr.splitlines(),
                      "check names the refused Job, upstream's path and text, at the numNodes line",
                      checked.stderr)

        unchecked = run([tjrender(), "check", ".", "--no-admission"], cwd=repo)
        checks.expect(unchecked.returncode == 0 and RULE not in unchecked.stderr,
                      "check --no-admission leaves the cluster's admission out", unchecked.stderr)

        rendered = run([tjrender(), "render", "."], cwd=repo)
        checks.expect(rendered.returncode == 1 and expected_line in rendered.stderr,
                      "render exits 1 with the same error", rendered.stderr)
        checks.expect("name: refused" not in rendered.stdout and "name: clean" in rendered.stdout,
                      "render prints the clean TrainJob's JobSet and not the refused one", rendered.stdout[:2000])

        out = os.path.join(work, "out")
        first = run([tjrender(), "render", "--rev", "HEAD~1", "--out", out, "."], cwd=repo)
        checks.expect(first.returncode == 0, "render --out of the clean revision", first.stderr)
        before = sorted(os.listdir(out)) if os.path.isdir(out) else []
        second = run([tjrender(), "render", "--out", out, "."], cwd=repo)
        after = sorted(os.listdir(out)) if os.path.isdir(out) else []
        checks.expect(second.returncode == 1 and before == after and before,
                      "render --out leaves DIR unchanged on a refusal", second.stderr + str(before) + str(after))

        diffed = run([tjrender(), "diff", "HEAD~1", "HEAD"], cwd=repo)
        checks.expect(diffed.returncode != 0 and RULE in diffed.stderr + diffed.stdout and MESSAGE in diffed.stderr,
                      "diff between revisions reports the refusal", diffed.stdout[:1500] + diffed.stderr)

        for fmt in ("json", "sarif", "junit", "github"):
            report = run([tjrender(), "check", ".", "--format", fmt], cwd=repo)
            text = report.stdout
            checks.expect(report.returncode == 1 and RULE in text, f"check --format {fmt} carries {RULE}",
                          text[:1500] + report.stderr)
            if fmt == "json":
                findings = [f for f in json.loads(text)["findings"] if f["rule"] == RULE]
                checks.expect(len(findings) == 1 and findings[0]["line"] == 10 and findings[0]["column"] == 15 and
                              findings[0]["fieldPath"] == "" and
                              findings[0]["message"] == MESSAGE,
                              "JSON finding: line, column, field path and message", json.dumps(findings))
            if fmt == "sarif":
                rules = {r["id"]: r for r in json.loads(text)["runs"][0]["tool"]["driver"]["rules"]}
                checks.expect(RULE in rules and "parallelism" in rules[RULE]["shortDescription"]["text"] and
                              "batch/validation" in rules[RULE]["fullDescription"]["text"],
                              "SARIF describes the rule from the catalogue", json.dumps(rules.get(RULE)))
            if fmt == "junit":
                root = ElementTree.fromstring(text)
                failures = [c.get("name") for c in root.iter("testcase") if c.find("failure") is not None]
                checks.expect(len(failures) == 1 and "refused" in failures[0], "JUnit: the refused TrainJob fails",
                              text[:1500])
            if fmt == "github":
                checks.expect(f"::error file=trainjobs/refused.yaml,line=10,col=15,title=tjrender {RULE}::" in text,
                              "GitHub annotation at the numNodes line", text)

        # The KRM function: a ResourceList in, results with the error out.
        with open(os.path.join(repo, "runtimes", "torch.yaml")) as f:
            runtime = f.read()
        items = "\n".join("  - " + line if i == 0 else "    " + line
                          for doc in (runtime, REFUSED) for i, line in enumerate(doc.strip().splitlines()))
        resource_list = "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n" + items + "\n"
        krm = run([tjrender(), "krm"], input=resource_list, cwd=work)
        results = (yaml.safe_load(krm.stdout) or {}).get("results") or []
        refusals = [r for r in results if (r.get("tags") or {}).get("rule") == RULE]
        checks.expect(krm.returncode == 1 and len(refusals) == 1 and MESSAGE in refusals[0]["message"] and
                      refusals[0]["field"]["path"] == "spec.trainer.numNodes",
                      "the KRM function's result carries the refusal at the TrainJob's numNodes",
                      krm.stdout[-1500:] + krm.stderr)

        # The Helm post-renderer: the stream fails, nothing on stdout.
        post = run([tjrender(), "post-render", "--namespace", "ml-team"], input=runtime + "---\n" + REFUSED, cwd=work)
        checks.expect(post.returncode == 1 and post.stdout == "" and f"[{RULE}] {MESSAGE}" in post.stderr,
                      "post-render fails the release with the refusal", post.stdout[:500] + post.stderr)

        # The Argo CD plugin: the sync fails with the same line.
        env = dict(os.environ, ARGOCD_APP_NAME="ml", ARGOCD_APP_NAMESPACE="ml-team", ARGOCD_APP_SOURCE_PATH=".")
        plugin = run([tjrender(), "argocd-generate"], cwd=repo, env=env)
        checks.expect(plugin.returncode == 1 and expected_line in plugin.stderr.splitlines() and plugin.stdout == "",
                      "argocd-generate fails the sync with the refusal", plugin.stdout[:500] + plugin.stderr)

        # The shipped fixtures render clean under every target: no object
        # they render is refused.
        for fixture in ("trainer-repo", "platform-repo"):
            for target in ("trainer-v2.1", "trainer-v2.2", "trainer-v2.3"):
                fixed = run([tjrender(), "check", ".", "--target", target, "--format", "json"],
                            cwd=os.path.join(SOURCE_ROOT, "fixtures", fixture))
                refusals = [f for f in json.loads(fixed.stdout or '{"findings": []}')["findings"]
                            if f["rule"].startswith("rendered/")]
                checks.expect(not refusals, f"fixtures/{fixture} renders clean at {target}", json.dumps(refusals)[:1500])
    finally:
        shutil.rmtree(work)
    checks.done()


main()
