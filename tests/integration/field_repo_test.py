#!/usr/bin/env python3
"""tjrender at the root of a repository shaped like kubeflow/trainer's tree
at v2.3.0 (fixtures/platform-repo: kustomize bases, overlays and JSON 6902
patches, a Helm chart with templates and helm-unittest suites, examples,
GitHub workflows and issue templates, linter configs), run as a new user
runs it: `check .`, `render . -o -`, a Git revision, --verbose and
--strict-inputs. Only true findings, no error on a non-object file."""
import os
import re
import shutil

from common import SOURCE_ROOT, Checks, run, temp_dir, tjrender

FIXTURE = os.path.join(SOURCE_ROOT, "fixtures", "platform-repo")

# The true findings (see fixtures/platform-repo/README.md), in the order
# tjrender reports them: the duplicate first (the loader), then the
# TrainJob the webhook refuses.
EXPECTED_FINDINGS = [
    "examples/yaml/01-multi-node.yaml:2:1: error: [duplicate-object] duplicate TrainJob ml-team/multi-node: "
    "also defined at examples/yaml/04-copied.yaml:3:1; no copy is rendered or checked",
    "examples/yaml/04-copied.yaml:3:1: error: [duplicate-object] duplicate TrainJob ml-team/multi-node: "
    "also defined at examples/yaml/01-multi-node.yaml:2:1; no copy is rendered or checked",
    "examples/yaml/03-dataset-init.yaml:49:5: error: spec.runtimeRef: Invalid value: "
    '{"name":"torch-with-dataset","apiGroup":"trainer.kubeflow.org","kind":"TrainingRuntime"}: '
    "must have volumeMount with name - initializer in container dataset-initializer of the "
    "dataset-initializer job",
]

# Files that hold nothing tjrender reads, each skipped with a note.
SKIPPED = [
    ".github/ISSUE_TEMPLATE/bug_report.yaml", ".github/ISSUE_TEMPLATE/config.yml", ".github/dependabot.yml",
    ".github/workflows/template-setup/action.yaml", ".github/workflows/test.yaml", ".golangci.yaml",
    ".kube-linter.yaml", ".pre-commit-config.yaml", ".readthedocs.yaml", "api/openapi-spec/swagger.json",
    "charts/trainer/Chart.yaml", "charts/trainer/ci/values-kind.yaml", "charts/trainer/files/runtimes/torch-distributed.yaml",
    "charts/trainer/templates/manager/deployment.yaml", "charts/trainer/templates/runtimes/configmap.yaml",
    "charts/trainer/templates/runtimes/static-runtime.yaml", "charts/trainer/tests/manager/deployment_test.yaml",
    "charts/trainer/tests/runtimes/configmap_test.yaml", "charts/trainer/values.yaml", "hack/kind-config.yaml",
    "manifests/base/crds/kustomization.yaml", "manifests/base/kustomization.yaml",
    "manifests/base/manager/kustomization.yaml", "manifests/base/manager/manager_config_patch.yaml",
    "manifests/base/runtimes/kustomization.yaml", "manifests/base/webhook/kustomization.yaml",
    "manifests/base/webhook/kustomizeconfig.yaml", "manifests/base/webhook/patch_validating.yaml",
    "manifests/overlays/manager/kustomization.yaml", "manifests/overlays/platform/kustomization.yaml",
    "manifests/overlays/platform/patches/manager-istio.yaml",
    "manifests/overlays/platform/patches/remove-namespace.yaml",
]


def findings(stderr):
    return [line for line in stderr.splitlines() if re.search(r": (error|warning): ", line)]


def kinds(stream):
    return re.findall(r"^kind: (\S+)$", stream, re.M)


def names(stream, kind):
    out = []
    for document in stream.split("\n---\n"):
        if re.search(rf"^kind: {kind}$", document, re.M):
            out.append(re.search(r"^  name: (\S+)$", document, re.M).group(1))
    return out


def main():
    tool = tjrender()
    checks = Checks()
    work = temp_dir("tjrender-field-")
    try:
        repo = os.path.join(work, "platform-repo")
        shutil.copytree(FIXTURE, repo)

        check = run([tool, "check", "."], cwd=repo)
        checks.expect(check.returncode == 1, "check . exits 1 (findings)", check.stderr)
        checks.expect(findings(check.stderr) == EXPECTED_FINDINGS, "check . reports the true findings only",
                      "\n".join(findings(check.stderr)))
        summary = check.stderr.splitlines()[-1] if check.stderr else ""
        # Rendered: the deepspeed JobSet and hostfile ConfigMap, the
        # runtime-patches JobSet, and the runtime snapshot ConfigMap of each
        # (trainer-v2.3). Checked: those two TrainJobs, with-dataset,
        # and the three runtimes.
        checks.expect(len(SKIPPED) == 32 and
                      summary == "5 objects rendered, 6 checked, 32 files skipped, 3 errors, 0 warnings",
                      "the summary counts what was rendered, checked and skipped", summary)

        rendered = run([tool, "render", ".", "-o", "-"], cwd=repo)
        checks.expect(rendered.returncode == 1, "render . -o - exits 1", rendered.stderr)
        checks.expect(findings(rendered.stderr) == EXPECTED_FINDINGS, "render reports the same findings",
                      rendered.stderr)
        checks.expect(names(rendered.stdout, "JobSet") == ["deepspeed", "runtime-patches"],
                      "JobSets for the valid TrainJobs, none for the refused or duplicated ones",
                      str(names(rendered.stdout, "JobSet")))
        checks.expect(names(rendered.stdout, "ConfigMap") == ["deepspeed-runtime-snapshot", "deepspeed-mpi-hostfile",
                                                              "runtime-patches-runtime-snapshot"],
                      "and the runtime snapshots and the MPI hostfile ConfigMap",
                      str(names(rendered.stdout, "ConfigMap")))
        checks.expect(kinds(rendered.stdout) == ["ConfigMap", "ConfigMap", "JobSet", "ConfigMap", "JobSet"],
                      "nothing else", str(kinds(rendered.stdout)))

        verbose = run([tool, "check", ".", "--verbose"], cwd=repo)
        notes = [line for line in verbose.stderr.splitlines() if ": note: skipped: " in line]
        noted = sorted({line.split(":", 1)[0] for line in notes})
        templates = {name for name in SKIPPED if name.startswith("charts/trainer/templates/")}
        checks.expect(noted == sorted((set(SKIPPED) - templates) | {"charts/trainer"}),
                      "--verbose notes every skipped file (the chart's templates in one note)", "\n".join(notes))
        checks.expect(any(line.startswith("charts/trainer: note: skipped: 3 template file(s) of the Helm chart "
                                          "charts/trainer; check what it renders with `helm template charts/trainer "
                                          "| tjrender check -`") for line in notes),
                      "the chart's note says how to check it", "\n".join(notes))

        strict = run([tool, "check", ".", "--strict-inputs"], cwd=repo)
        strict_errors = [line for line in strict.stderr.splitlines() if "(--strict-inputs)" in line]
        checks.expect(strict.returncode == 2 and len(strict_errors) == len(SKIPPED),
                      "--strict-inputs makes every skipped file an input error", strict.stderr)

        # The same through Git: a committed revision, no checkout.
        if shutil.which("git"):
            env = dict(os.environ, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@example.com",
                       GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@example.com",
                       GIT_CONFIG_GLOBAL=os.devnull, GIT_CONFIG_NOSYSTEM="1")
            for args in (["init", "-q"], ["add", "."], ["commit", "-qm", "platform"]):
                run(["git", "-c", "init.defaultBranch=main", *args], cwd=repo, env=env)
            at_rev = run([tool, "check", "--rev", "HEAD"], cwd=repo)
            checks.expect(at_rev.returncode == 1 and findings(at_rev.stderr) == EXPECTED_FINDINGS,
                          "check --rev HEAD gives the same findings", at_rev.stderr)
            rev_summary = at_rev.stderr.splitlines()[-1] if at_rev.stderr else ""
            checks.expect(rev_summary == summary, "and the same summary", rev_summary)
            # Changed templates, patches and workflows affect no TrainJob:
            # --since reads them as the full run does, cache cold and warm.
            for name in ("charts/trainer/templates/manager/deployment.yaml",
                         "charts/trainer/files/runtimes/torch-distributed.yaml",
                         "manifests/overlays/platform/patches/manager-istio.yaml", ".github/workflows/test.yaml"):
                with open(os.path.join(repo, name), "a") as f:
                    f.write("# changed\n")
            for attempt in ("cold", "warm"):
                since = run([tool, "check", "--since", "HEAD", "."], cwd=repo)
                checks.expect(since.returncode == 0 and since.stderr.endswith(" 0 errors, 0 warnings\n"),
                              f"check --since HEAD after editing non-object files ({attempt} cache)", since.stderr)
    finally:
        shutil.rmtree(work)
    checks.done()


main()
