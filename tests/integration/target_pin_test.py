#!/usr/bin/env python3
"""The release a repository deploys, as a user runs tjrender in it with no
--target and no .tjrender.yaml: a kustomize remote base on kubeflow/trainer
with `?ref=v2.1.0` makes the run trainer-v2.1 (said in a note, verbose or not), in
the working tree, at a Git revision (--rev) and under --since (a changed
pin affects every TrainJob); conflicting pins and a
pinned release no target emulates are warnings and the default applies;
--target and .tjrender.yaml always win."""
import os
import shutil

from common import TORCH_RUNTIME as RUNTIME, Checks, run, temp_dir, tjrender

# valid at v2.1 only: podTemplateOverrides went in v2.2.0
JOB = """apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata:
  name: tuned
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

KUSTOMIZATION = """apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
resources:
  - namespace.yaml
  - https://github.com/kubeflow/trainer.git/manifests/overlays/manager?ref={ref}
"""

NOTE = ("target trainer-v2.1 from platform/kustomization.yaml:5 "
        "(https://github.com/kubeflow/trainer.git/manifests/overlays/manager?ref=v2.1.0)")


def write(folder, name, text):
    path = os.path.join(folder, name)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def errors(stderr):
    return [line for line in stderr.splitlines() if ": error: " in line]


def main():
    tool = tjrender()
    checks = Checks()
    work = temp_dir("tjrender-pin-")
    try:
        repo = os.path.join(work, "repo")
        write(repo, "runtimes/torch.yaml", RUNTIME)
        write(repo, "jobs/tuned.yaml", JOB)
        write(repo, "platform/kustomization.yaml", KUSTOMIZATION.format(ref="v2.1.0"))

        check = run([tool, "check", "."], cwd=repo)
        checks.expect(check.returncode == 0 and not errors(check.stderr),
                      "the pinned v2.1 is the target: podTemplateOverrides are clean", check.stderr)
        checks.expect("note: " + NOTE in check.stderr.splitlines(),
                      "the run says where the target came from, without --verbose", check.stderr)
        verbose = run([tool, "check", ".", "--verbose"], cwd=repo)
        checks.expect("note: " + NOTE in verbose.stderr.splitlines(), "and with it", verbose.stderr)
        quiet_out = run([tool, "render", ".", "-o", "-"], cwd=repo)
        checks.expect(NOTE not in quiet_out.stdout, "the note never reaches stdout", quiet_out.stdout[:400])
        rendered = run([tool, "render", ".", "-o", "-"], cwd=repo)
        checks.expect(rendered.returncode == 0 and "accelerator: a100" in rendered.stdout and
                      "runtime-snapshot" not in rendered.stdout,
                      "render merges the override as v2.1 does (no v2.3 runtime snapshot)", rendered.stderr)

        # A pre-commit hook names the staged files and the repository.
        hook = run([tool, "check", "--repo", ".", "jobs/tuned.yaml", "--verbose"], cwd=repo)
        checks.expect(hook.returncode == 0 and "note: " + NOTE in hook.stderr.splitlines(),
                      "check --repo . FILE finds the repository's pin", hook.stderr)

        flag = run([tool, "check", ".", "--target", "trainer-v2.3"], cwd=repo)
        checks.expect(flag.returncode == 1 and "spec.podTemplateOverrides" in flag.stderr, "--target wins",
                      flag.stderr)
        write(repo, ".tjrender.yaml", "target: trainer-v2.2\n")
        config = run([tool, "check", ".", "--verbose"], cwd=repo)
        checks.expect(config.returncode == 1 and NOTE not in config.stderr and
                      "spec.podTemplateOverrides" in config.stderr, ".tjrender.yaml wins", config.stderr)
        os.remove(os.path.join(repo, ".tjrender.yaml"))

        # The same at a Git revision, read from the object database.
        if shutil.which("git"):
            env = dict(os.environ, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@example.com",
                       GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@example.com",
                       GIT_CONFIG_GLOBAL=os.devnull, GIT_CONFIG_NOSYSTEM="1")
            for args in (["init", "-q"], ["add", "."], ["commit", "-q", "-m", "pinned"]):
                run(["git"] + args, cwd=repo, env=env)
            write(repo, "platform/kustomization.yaml", KUSTOMIZATION.format(ref="v2.3.0"))
            at_rev = run([tool, "check", "--rev", "HEAD", "--verbose"], cwd=repo)
            checks.expect(at_rev.returncode == 0 and "note: " + NOTE in at_rev.stderr.splitlines(),
                          "--rev HEAD reads the pin as committed", at_rev.stderr)
            worktree = run([tool, "check", "."], cwd=repo)
            checks.expect(worktree.returncode == 1 and "spec.podTemplateOverrides" in worktree.stderr,
                          "and the working tree's v2.3.0 pin as it stands", worktree.stderr)
            # diff renders each side for the release it pins: HEAD's v2.1.0 pin
            # against the working tree's v2.3.0 one, so the TrainJob BASE
            # created is refused at the working tree (a removed field).
            changed = run([tool, "diff", "HEAD", "--verbose"], cwd=repo)
            checks.expect("note: HEAD: " + NOTE in changed.stderr.splitlines() and
                          "the pinned Trainer release differs: every TrainJob is compared" in changed.stderr and
                          "spec.podTemplateOverrides" in changed.stderr,
                          "diff: each side renders for its own pin", changed.stderr)
            # Only the pin changed since HEAD: every TrainJob is affected.
            since = run([tool, "check", "--since", "HEAD", "--verbose"], cwd=repo)
            checks.expect(since.returncode == 1 and "spec.podTemplateOverrides" in since.stderr and
                          "the Trainer release the repository pins differs from HEAD: every TrainJob is affected"
                          in since.stderr.splitlines(),
                          "--since: a changed pin affects every TrainJob", since.stderr)

        # Two pins that disagree: a warning, the default applies. Folders are
        # walked in name order, so charts/ is found first.
        write(repo, "platform/kustomization.yaml", KUSTOMIZATION.format(ref="v2.1.0"))
        write(repo, "charts/app/Chart.yaml", "apiVersion: v2\nname: app\nversion: 0.1.0\ndependencies:\n"
                                             "  - name: kubeflow-trainer\n    version: 2.3.0\n"
                                             "    repository: oci://ghcr.io/kubeflow/charts\n")
        conflict = run([tool, "check", "."], cwd=repo)
        found = [line for line in conflict.stderr.splitlines() if "target-pin-conflict" in line]
        checks.expect(conflict.returncode == 1 and len(found) == 1 and "spec.podTemplateOverrides" in conflict.stderr,
                      "conflicting pins: one warning, the default target", conflict.stderr)
        checks.expect(len(found) == 1 and found[0].startswith("platform/kustomization.yaml:5:1: warning: "
                                                              "[target-pin-conflict] the repository pins Trainer "
                                                              "v2.1.0 here") and
                      "2.3.0 at charts/app/Chart.yaml:6 (kubeflow-trainer chart 2.3.0)" in found[0] and
                      found[0].endswith("the default target trainer-v2.3 applies (pass --target or set target: in "
                                        ".tjrender.yaml)"),
                      "the warning is at the pin that disagrees with the first found and names both",
                      "\n".join(found))
        shutil.rmtree(os.path.join(repo, "charts"))

        # A release tjrender does not emulate.
        write(repo, "platform/kustomization.yaml", KUSTOMIZATION.format(ref="v2.0.1"))
        old = run([tool, "check", "."], cwd=repo)
        checks.expect(old.returncode == 1 and "platform/kustomization.yaml:5:1: warning: [target-pin-unsupported] the "
                      "repository pins Trainer v2.0.1" in old.stderr and "spec.podTemplateOverrides" in old.stderr,
                      "a pin of v2.0.1 is said so, and the default applies", old.stderr)

        # A Flux HelmRelease of the chart, in a file named for it.
        os.remove(os.path.join(repo, "platform/kustomization.yaml"))
        write(repo, "clusters/prod/kubeflow-trainer.yaml",
              "apiVersion: helm.toolkit.fluxcd.io/v2\nkind: HelmRelease\nmetadata:\n  name: kubeflow-trainer\n"
              "spec:\n  chart:\n    spec:\n      chart: kubeflow-trainer\n      version: 2.1.0\n")
        flux = run([tool, "check", ".", "--verbose"], cwd=repo)
        checks.expect(flux.returncode == 0 and "note: target trainer-v2.1 from clusters/prod/kubeflow-trainer.yaml:9 "
                      "(HelmRelease kubeflow-trainer 2.1.0)" in flux.stderr.splitlines(),
                      "a Flux HelmRelease of kubeflow-trainer 2.1.0 pins trainer-v2.1", flux.stderr)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    checks.done()


if __name__ == "__main__":
    main()
