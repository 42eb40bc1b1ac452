"""`tjrender --version` against its sources: the version is meson.build's
project version and CHANGELOG.md's newest release, the commit is the one the
source tree is at, and every target the CLI accepts is listed with the
release it emulates."""
import os
import re
import subprocess
import sys

from common import SOURCE_ROOT, Checks, run, tjrender


def meson_version():
    text = open(os.path.join(SOURCE_ROOT, "meson.build"), encoding="utf-8").read()
    match = re.search(r"project\([^)]*?version\s*:\s*'([^']+)'", text, re.S)
    return match.group(1) if match else None


def changelog_release():
    """The newest released version: the first `## [X.Y.Z]` heading."""
    for line in open(os.path.join(SOURCE_ROOT, "CHANGELOG.md"), encoding="utf-8"):
        match = re.match(r"## \[(\d+\.\d+\.\d+)\]", line)
        if match:
            return match.group(1)
    return None


def source_commit():
    """HEAD of the source tree, or None outside a Git checkout."""
    result = run(["git", "-C", SOURCE_ROOT, "rev-parse", "HEAD"])
    return result.stdout.strip() if result.returncode == 0 else None


def main():
    checks = Checks()
    binary = tjrender()
    result = run([binary, "--version"])
    checks.expect(result.returncode == 0 and result.stderr == "", "--version exits 0, nothing on stderr",
                  result.stderr)
    lines = result.stdout.splitlines()
    version = meson_version()
    checks.expect(version is not None, "meson.build has a project version")
    checks.expect(lines[:1] == ["tjrender " + str(version)], "first line is 'tjrender <meson.build version>'",
                  result.stdout)
    checks.expect(changelog_release() == version,
                  "CHANGELOG.md's newest release heading is meson.build's version",
                  "CHANGELOG: %s, meson.build: %s" % (changelog_release(), version))
    checks.expect(run([binary, "version"]).stdout == result.stdout, "`tjrender version` is `--version`")

    commit_line = lines[1] if len(lines) > 1 else ""
    checks.expect(commit_line.startswith("commit: "), "second line names the commit", result.stdout)
    commit = commit_line[len("commit: "):]
    head = source_commit()
    if head is None:
        checks.expect(commit == "unknown", "outside a Git checkout the commit is 'unknown'", commit)
    else:
        hash_part = commit.removesuffix("-dirty")
        checks.expect(len(hash_part) >= 12 and head.startswith(hash_part),
                      "the commit is the source tree's HEAD", "%s vs %s" % (commit, head))

    # Every target the CLI takes is listed, with the release it emulates.
    listed = {}
    for line in lines:
        match = re.match(r"  (\S+)\s+(.+)$", line)
        if match:
            listed[match.group(1)] = match.group(2)
    help_text = run([binary, "render", "--help"]).stdout
    accepted = re.findall(r"\b(trainer-v2\.\d+|trainer-pr\d+-preview|flyte-v[\d.]+)\b", help_text)
    checks.expect(len(accepted) >= 5, "render --help names the targets", help_text)
    for target in sorted(set(accepted)):
        checks.expect(target in listed, "--version lists " + target, result.stdout)
        probe = run([binary, "check", "-", "--quiet", "--target", target], input="")
        checks.expect("unsupported target" not in probe.stderr, target + " is a target check accepts",
                      probe.stderr)
    expected = {
        "trainer-v2.1": "Kubeflow Trainer v2.1.0, Kubernetes v1.34 API types, JobSet v0.10.1",
        "trainer-v2.2": "Kubeflow Trainer v2.2.0, Kubernetes v1.35 API types, JobSet v0.11.1",
        "trainer-v2.3": "Kubeflow Trainer v2.3.0, Kubernetes v1.36 API types, JobSet v0.12.0",
        "flyte-v1.16": "flyteorg/flyte v1.16.8",
    }
    for target, release in expected.items():
        checks.expect(listed.get(target, "").startswith(release), target + " emulates " + release,
                      listed.get(target, ""))
    checks.expect(listed.get("trainer-v2.3", "").endswith("(default)"), "the default target is marked")
    sys.exit(1 if checks.failed else 0)


if __name__ == "__main__":
    main()
