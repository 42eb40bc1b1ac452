#!/usr/bin/env python3
"""The findings formats as their consumers read them: SARIF validated
against the official 2.1.0 schema, JUnit parsed as XML, JSON parsed, GitHub
workflow commands checked line by line. Skips (77) without python3-jsonschema."""
import json
import os
import shutil
import xml.etree.ElementTree as ElementTree

from common import LONELY_TRAINJOB, SOURCE_ROOT, Checks, copy_sample, run, skip, temp_dir, tjrender

try:
    import jsonschema
except ImportError:
    skip("python3-jsonschema is not installed (scripts/install-deps installs it)")


IDLE_TRAINJOB = """apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata:
  name: idle
  namespace: ml-team
spec:
  runtimeRef:
    name: torch-distributed
  trainer:
    numNodes: 0
"""


def main():
    checks = Checks()
    work = temp_dir("tjrender-reports-")
    try:
        repo = copy_sample(os.path.join(work, "repo"))
        # An error (unknown runtime), a warning (a TrainJob of no nodes) and
        # a file name that needs escaping everywhere.
        with open(os.path.join(repo, "trainjobs", "a, b: 100%.yaml"), "w") as f:
            f.write(LONELY_TRAINJOB)
        with open(os.path.join(repo, "trainjobs", "idle.yaml"), "w") as f:
            f.write(IDLE_TRAINJOB)
        reports = {fmt: os.path.join(work, "report." + fmt) for fmt in ("json", "junit", "sarif", "github", "text")}
        args = [tjrender(), "check", "."] + [f"--report={fmt}={path}" for fmt, path in reports.items()]
        result = run(args, cwd=repo)
        checks.expect(result.returncode == 1, "check exits 1 on an error", result.stderr)
        checks.expect(result.stderr.endswith("6 objects rendered, 13 checked, 0 files skipped, 1 errors, 1 warnings\n"),
                      "text summary line on stderr", result.stderr)

        schema = json.load(open(os.path.join(SOURCE_ROOT, "tests", "integration", "data", "sarif-schema-2.1.0.json")))
        sarif = json.load(open(reports["sarif"]))
        try:
            jsonschema.validate(sarif, schema, format_checker=jsonschema.FormatChecker())
            checks.expect(True, "SARIF validates against sarif-schema-2.1.0.json")
        except jsonschema.ValidationError as error:
            checks.expect(False, "SARIF validates against sarif-schema-2.1.0.json", str(error))
        results = sarif["runs"][0]["results"]
        uris = [r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in results]
        checks.expect("trainjobs/a,%20b:%20100%25.yaml" in uris, "SARIF URI percent-encoded", str(uris))
        rules = [r["ruleId"] for r in results]
        checks.expect(sorted(rules) == ["num-nodes-zero", "upstream/invalid-value"],
                      "SARIF rule ids", str(rules))
        # Code scanning shows a rule's shortDescription as the alert title,
        # fullDescription as its text and help as "Rule help".
        descriptors = {r["id"]: r for r in sarif["runs"][0]["tool"]["driver"]["rules"]}
        checks.expect(all(descriptors.get(rule, {}).get(key, {}).get("text")
                          for rule in rules for key in ("shortDescription", "fullDescription", "help")),
                      "every SARIF rule carries a description and a help text", json.dumps(descriptors)[:1500])
        checks.expect(descriptors.get("upstream/invalid-value", {}).get("help", {}).get("text", "").startswith(
                          "Fix the field the message names.") and
                      "cannot be ignored" in descriptors.get("upstream/invalid-value", {}).get("help", {}).get("text", ""),
                      "an upstream error's help says what to do and that errors cannot be ignored",
                      json.dumps(descriptors.get("upstream/invalid-value")))

        root = ElementTree.parse(reports["junit"]).getroot()
        checks.expect(root.tag == "testsuites", "JUnit parses, root testsuites")
        cases = root.findall("./testsuite/testcase")
        failures = [c for c in cases if c.find("failure") is not None]
        checks.expect(len(cases) == 6 and len(failures) == 1, "JUnit: 6 TrainJobs, 1 failure",
                      ElementTree.tostring(root, encoding="unicode"))

        data = json.load(open(reports["json"]))
        keys = set(data["findings"][0].keys())
        checks.expect(keys >= {"rule", "severity", "file", "line", "column", "fieldPath", "message"},
                      "JSON findings carry every field", str(keys))

        lines = open(reports["github"]).read().splitlines()
        error_lines = [l for l in lines if l.startswith("::error ")]
        checks.expect(len(error_lines) == 1 and
                      error_lines[0].startswith("::error file=trainjobs/a%2C b%3A 100%25.yaml,line=7,col=3,"
                                                "title=tjrender upstream/invalid-value::"),
                      "GitHub annotation with escaped properties", "\n".join(lines))
        checks.expect(open(reports["text"]).read() == result.stderr, "text report equals stderr")

        # check --format FORMAT puts the document on stdout and nothing on stderr.
        for fmt in ("json", "sarif", "junit", "github"):
            streamed = run([tjrender(), "check", ".", "--format", fmt], cwd=repo)
            checks.expect(streamed.stdout == open(reports[fmt]).read() and streamed.stderr == "",
                          f"check --format {fmt} on stdout equals its --report file", streamed.stderr)
    finally:
        shutil.rmtree(work)
    checks.done()


main()
