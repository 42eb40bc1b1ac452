#!/usr/bin/env python3
"""Messages that fit the input, run as a user types the commands: a parse
error's hint only when it describes the line; one `unrendered-template`
finding per template kept outside a Helm chart (envsubst placeholders,
`{{ ... }}` actions), none for shell lines, `$(VAR)` expansion or GitHub
expressions; and a TrainJob refused only for podTemplateOverrides at v2.2+
told that `--target trainer-v2.1` renders it."""
import os
import re
import shutil
import subprocess

from common import TORCH_RUNTIME as RUNTIME, Checks, run, temp_dir, tjrender

# kept by envsubst users beside their real manifests
ENVSUBST_JOB = """apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata:
  name: nightly
spec:
  runtimeRef:
    name: torch-distributed
  trainer:
    numNodes: ${NODES}
    image: ${IMAGE}
"""

# a chart's template copied out of its chart
HELM_JOB = """apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata:
  name: {{ .Release.Name }}
spec:
  runtimeRef:
    name: torch-distributed
{{- if .Values.trainer }}
  trainer:
    numNodes: {{ .Values.trainer.numNodes }}
{{- end }}
"""

# an unindented line that is only a placeholder, after a mapping
EXTRA_LINE_JOB = """apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata:
  name: extra
  labels:
    team: ml
${EXTRA_LABELS}
spec:
  runtimeRef:
    name: torch-distributed
"""

# `$VAR` of a shell line and Kubernetes' `$(VAR)`: real manifests
SHELL_JOB = """apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata:
  name: shell
spec:
  runtimeRef:
    name: torch-distributed
  trainer:
    command:
      - bash
      - -c
      - torchrun --nnodes=$PET_NNODES train.py --out ${OUTPUT_DIR:-/tmp}
    env:
      - name: POD
        value: $(POD_NAME)
"""

WORKFLOW = """name: ci
on: [push]
jobs:
  test:
    runs-on: ${{ matrix.os }}
    steps:
      - run: echo $HOME
"""

PTO_JOB = """apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata:
  name: {name}
spec:
  runtimeRef:
    name: torch-distributed
  podTemplateOverrides:
    - targetJobs:
        - name: node
      spec:
        nodeSelector:
          accelerator: a100
"""

HINT = "also refuses a line that starts with ':'"
WAY_OUT = "render it first and pipe it to `tjrender check -`"
OLDER = "or pass `--target trainer-v2.1` if the cluster runs v2.1"


def errors(stderr):
    return [line for line in stderr.splitlines() if ": error: " in line]


def write(folder, name, text):
    path = os.path.join(folder, name)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    return path


def main():
    tool = tjrender()
    checks = Checks()
    work = temp_dir("tjrender-messages-")
    try:
        # The parse-error hint about ':' lines: for such a line only.
        hints = os.path.join(work, "hints")
        write(hints, "colon.yaml", "metadata:\n  name: a b\n    c\n  : x\n")
        write(hints, "key.yaml", "metadata:\n  name: x\nmore words\n  labels: {}\n")
        colon = run([tool, "check", "colon.yaml"], cwd=hints)
        checks.expect(colon.returncode == 2 and HINT in colon.stderr and "invalid multiline plain key" in colon.stderr,
                      "a ':' line after a continued value gets the hint about ':' lines", colon.stderr)
        key = run([tool, "check", "key.yaml"], cwd=hints)
        checks.expect(key.returncode == 2 and "invalid multiline plain key" in key.stderr and HINT not in key.stderr,
                      "a multi-line key without a ':' line does not", key.stderr)

        # Another tool's templates that do not parse, of kinds tjrender does
        # not read (ClusterLoader2's, Terraform's, as in
        # GoogleCloudPlatform/ai-on-gke): skipped with a note, not errors.
        others = os.path.join(work, "others")
        write(others, "cl2/statefulset.yaml", "{{$Cpu := DefaultParam .CpuRequest \"5m\"}}\napiVersion: apps/v1\n"
                                            "kind: StatefulSet\nmetadata:\n  name: {{.Name}}\n")
        write(others, "cl2/config.yaml", "{{$size := .CL2_SIZE}}\nname: load\nsteps:\n- name: start\n")
        write(others, "tf/values.yaml", "head:\n  labels:\n    a: b\n    ${indent(4, yamlencode(labels))}\n"
                                       "  serviceAccountName: ${k8s_service_account}\n")
        write(others, "jobs/templated.yaml", "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nmetadata:\n"
                                            "  name: {{.Name}}\nspec:\n  runtimeRef:\n    name: torch\n")
        foreign = run([tool, "check", ".", "--verbose"], cwd=others)
        checks.expect(foreign.returncode == 1 and errors(foreign.stderr) == [
            "jobs/templated.yaml:4:9: error: [unrendered-template] an unrendered template (helm template, "
            "envsubst, your bundler): `{{.Name}}` is still a placeholder; " + WAY_OUT],
            "a TrainJob template that does not parse is the finding; other tools' templates are not",
            foreign.stderr)
        checks.expect("cl2/statefulset.yaml:1:1: note: skipped: a template of another tool (StatefulSet): "
                      "`{{$Cpu := DefaultParam .CpuRequest \"5m\"}}` is still a placeholder and none of its kinds is "
                      "one tjrender reads" in foreign.stderr.splitlines() and
                      any(line.startswith("cl2/config.yaml:1:1: note: skipped: a template of another tool:")
                          for line in foreign.stderr.splitlines()) and
                      any(line.startswith("tf/values.yaml:4:5: note: skipped: a template of another tool:")
                          for line in foreign.stderr.splitlines()),
                      "each is skipped with a note at its first placeholder", foreign.stderr)
        strict = run([tool, "check", ".", "--strict-inputs"], cwd=others)
        checks.expect(strict.returncode == 2, "--strict-inputs refuses them", strict.stderr)

        # Templates outside a chart: one finding per file, at the first
        # placeholder; the real manifests beside them are checked as usual.
        repo = os.path.join(work, "repo")
        write(repo, "runtimes/torch.yaml", RUNTIME)
        write(repo, "jobs/nightly.yaml", ENVSUBST_JOB)
        write(repo, "jobs/helm-copy.yaml", HELM_JOB)
        write(repo, "jobs/extra.yaml", EXTRA_LINE_JOB)
        write(repo, "jobs/shell.yaml", SHELL_JOB)
        write(repo, ".github/workflows/ci.yaml", WORKFLOW)
        check = run([tool, "check", "."], cwd=repo)
        expected = [
            "jobs/extra.yaml:7:1: error: [unrendered-template] an unrendered template (helm template, envsubst, "
            "your bundler): `${EXTRA_LABELS}` is still a placeholder; " + WAY_OUT,
            "jobs/helm-copy.yaml:4:9: error: [unrendered-template] an unrendered template (helm template, "
            "envsubst, your bundler): `{{ .Release.Name }}` is still a placeholder; " + WAY_OUT,
            "jobs/nightly.yaml:9:15: error: [unrendered-template] an unrendered template (helm template, "
            "envsubst, your bundler): `${NODES}` is still a placeholder; " + WAY_OUT,
        ]
        checks.expect(check.returncode == 1, "check . exits 1 (findings, not unusable input)", check.stderr)
        checks.expect(errors(check.stderr) == expected, "one finding per template file, nothing else",
                      "\n".join(errors(check.stderr)))
        checks.expect(HINT not in check.stderr and "must be of type integer" not in check.stderr,
                      "no parse hint and no schema cascade", check.stderr)
        checks.expect(check.stderr.splitlines()[-1] == "2 objects rendered, 2 checked, 1 files skipped, 3 errors, 0 warnings",
                      "the shell TrainJob (JobSet and runtime snapshot) and the runtime are checked, the workflow skipped", check.stderr)

        # The way out works: rendered, the same file checks clean.
        rendered_job = ENVSUBST_JOB.replace("${NODES}", "2").replace("${IMAGE}", "pytorch/pytorch:2.7.1")
        envsubst = shutil.which("envsubst")
        if envsubst:
            rendered_job = subprocess.run([envsubst], input=ENVSUBST_JOB, capture_output=True, text=True, check=True,
                                          env=dict(os.environ, NODES="2", IMAGE="pytorch/pytorch:2.7.1")).stdout
        piped = run([tool, "check", "-", "runtimes/torch.yaml"], cwd=repo, input=rendered_job)
        checks.expect(piped.returncode == 0 and not errors(piped.stderr),
                      "the rendered template piped to `check -` is clean" + (" (envsubst)" if envsubst else ""),
                      piped.stderr)
        # A JSON manifest's placeholder counts the same.
        write(repo, "jobs/nightly.json", '{\n  "apiVersion": "trainer.kubeflow.org/v1alpha1",\n'
                                          '  "kind": "TrainJob",\n  "metadata": {"name": "j"},\n'
                                          '  "spec": {\n    "trainer": {\n      "image": "${IMAGE}",\n'
                                          '      "numNodes": 1\n    }\n  }\n}\n')
        json_check = run([tool, "check", "jobs/nightly.json"], cwd=repo)
        checks.expect(json_check.returncode == 1 and
                      errors(json_check.stderr) == ["jobs/nightly.json:7:17: error: [unrendered-template] an "
                                                    "unrendered template (helm template, envsubst, your bundler): "
                                                    "`${IMAGE}` is still a placeholder; " + WAY_OUT],
                      "a JSON manifest's placeholder is found at its column", json_check.stderr)

        # podTemplateOverrides at v2.3: the first TrainJob refused only for
        # it hears of trainer-v2.1, once a run.
        pto = os.path.join(work, "pto")
        write(pto, "runtime.yaml", RUNTIME)
        write(pto, "a.yaml", PTO_JOB.format(name="a"))
        write(pto, "b.yaml", PTO_JOB.format(name="b"))
        default = run([tool, "check", "."], cwd=pto)
        found = errors(default.stderr)
        checks.expect(default.returncode == 1 and len(found) == 2, "both TrainJobs are refused at the default target",
                      default.stderr)
        checks.expect(len(found) == 2 and found[0].startswith("a.yaml:9:5: error: spec.podTemplateOverrides: ") and
                      found[0].endswith("Run `tjrender migrate` to rewrite the TrainJob, " + OLDER) and
                      OLDER not in found[1],
                      "the first error names the target that has podTemplateOverrides", "\n".join(found))
        older = run([tool, "check", ".", "--target", "trainer-v2.1"], cwd=pto)
        checks.expect(older.returncode == 0 and not errors(older.stderr), "and at that target they are clean",
                      older.stderr)
        write(pto, "c.yaml", PTO_JOB.format(name="c").replace("nodeSelector:\n          accelerator: a100",
                                                               "nodeSelector: {}") +
              "  trainer:\n    numNodes: two\n")
        os.remove(os.path.join(pto, "a.yaml"))
        os.remove(os.path.join(pto, "b.yaml"))
        mixed = run([tool, "check", "."], cwd=pto)
        checks.expect(mixed.returncode == 1 and "podTemplateOverrides" in mixed.stderr and OLDER not in mixed.stderr,
                      "a TrainJob with another error too gets no such hint", mixed.stderr)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    checks.done()


if __name__ == "__main__":
    main()
