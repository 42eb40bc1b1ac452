#!/usr/bin/env python3
"""The hooks of .pre-commit-hooks.yaml in a throw-away repository: a good
commit is accepted, a commit with a TrainJob the webhook refuses is refused
with its message, a commit that leaves the rendered tree stale is refused,
and committing the refreshed rendering is accepted. Needs pre-commit (the
Debian package); skips (77) when it is absent and cannot be installed."""
import os
import re
import shutil
import subprocess

from common import LONELY_TRAINJOB, SOURCE_ROOT, Checks, copy_sample, run, skip, temp_dir, tjrender


def find_pre_commit():
    found = shutil.which("pre-commit")
    if found:
        return found
    if os.geteuid() == 0 and shutil.which("apt-get"):
        try:
            run(["apt-get", "install", "-y", "-qq", "--no-install-recommends", "pre-commit"],
                env=dict(os.environ, DEBIAN_FRONTEND="noninteractive"), timeout=300)
        except subprocess.TimeoutExpired:
            pass
    return shutil.which("pre-commit")


def main():
    pre_commit = find_pre_commit()
    if not pre_commit:
        skip("pre-commit is not installed and could not be installed (no network?)")
    if not shutil.which("git"):
        skip("git is not installed")
    checks = Checks()
    work = temp_dir("tjrender-precommit-")
    try:
        bin_dir = os.path.join(work, "bin")
        os.mkdir(bin_dir)
        os.symlink(tjrender(), os.path.join(bin_dir, "tjrender"))
        env = dict(os.environ)
        env.update({
            "PATH": bin_dir + ":" + os.environ.get("PATH", "/usr/bin:/bin"),
            "PRE_COMMIT_HOME": os.path.join(work, "cache"),
            "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com",
            "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com",
            "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1",
        })

        def git(*args, cwd):
            return run(["git", "-c", "init.defaultBranch=main", *args], cwd=cwd, env=env)

        manifest = run([pre_commit, "validate-manifest", os.path.join(SOURCE_ROOT, ".pre-commit-hooks.yaml")], env=env)
        checks.expect(manifest.returncode == 0, "pre-commit validate-manifest accepts .pre-commit-hooks.yaml",
                      manifest.stdout + manifest.stderr)

        # The hook repository: this checkout's .pre-commit-hooks.yaml, committed.
        hooks = os.path.join(work, "hooks")
        os.mkdir(hooks)
        shutil.copy(os.path.join(SOURCE_ROOT, ".pre-commit-hooks.yaml"), hooks)
        git("init", "-q", cwd=hooks)
        git("add", ".", cwd=hooks)
        git("commit", "-qm", "hooks", cwd=hooks)
        rev = git("rev-parse", "HEAD", cwd=hooks).stdout.strip()

        # The user's repository, with the sample TrainJobs rendered once.
        repo = copy_sample(os.path.join(work, "repo"))
        with open(os.path.join(repo, ".pre-commit-config.yaml"), "w") as f:
            f.write(f"repos:\n- repo: file://{hooks}\n  rev: {rev}\n  hooks:\n"
                    "  - id: tjrender-check\n  - id: tjrender-render-up-to-date\n"
                    "    args: [--out, rendered, trainjobs, runtimes]\n")
        render = run([tjrender(), "render", "trainjobs", "runtimes", "--out", "rendered"], cwd=repo, env=env)
        checks.expect(render.returncode == 0, "initial render", render.stderr)
        git("init", "-q", cwd=repo)
        installed = run([pre_commit, "install"], cwd=repo, env=env)
        checks.expect(installed.returncode == 0, "pre-commit install", installed.stdout + installed.stderr)

        git("add", ".", cwd=repo)
        good = git("commit", "-m", "trainjobs", cwd=repo)
        checks.expect(good.returncode == 0, "a good commit is accepted", good.stdout + good.stderr)

        # A TrainJob whose runtime does not exist.
        with open(os.path.join(repo, "trainjobs", "lonely.yaml"), "w") as f:
            f.write(LONELY_TRAINJOB)
        git("add", "trainjobs/lonely.yaml", cwd=repo)
        bad = git("commit", "-m", "lonely", cwd=repo)
        output = bad.stdout + bad.stderr
        checks.expect(bad.returncode != 0, "a commit with a refused TrainJob is refused", output)
        checks.expect("tjrender check" in output and "Failed" in output and
                      "trainjobs/lonely.yaml:7:3: error: spec.RuntimeRef: Invalid value" in output,
                      "the hook names the file, line and upstream message", output)
        git("rm", "-q", "--cached", "trainjobs/lonely.yaml", cwd=repo)
        os.remove(os.path.join(repo, "trainjobs", "lonely.yaml"))

        # Only a runtime is staged, and the change breaks TrainJobs nobody
        # staged: the hook checks the repository's TrainJobs that use it.
        runtime = os.path.join(repo, "runtimes", "torch_distributed.yaml")
        original = open(runtime).read()
        with open(runtime, "w") as f:
            # The job, not its container: the runtime stays valid.
            f.write(original.replace("      replicatedJobs:\n        - name: node\n",
                                     "      replicatedJobs:\n        - name: worker\n"))
        git("add", runtime, cwd=repo)
        broken = git("commit", "-m", "rename the torch job", cwd=repo)
        output = broken.stdout + broken.stderr
        check_hook = re.search(r"^tjrender check\.+(Passed|Failed)$", output, re.M)
        checks.expect(broken.returncode != 0 and check_hook is not None and check_hook.group(1) == "Failed" and
                      "trainjobs/custom-sa-node-selector.yaml:" in output,
                      "tjrender-check refuses a staged runtime that breaks an unstaged TrainJob, naming it", output)
        with open(runtime, "w") as f:
            f.write(original)
        git("add", runtime, cwd=repo)

        # Only the staged TrainJob is passed; its runtime comes from the repository.
        path = os.path.join(repo, "trainjobs", "custom-sa-node-selector.yaml")
        text = open(path).read()
        changed = text.replace("numNodes: 2", "numNodes: 3")
        checks.expect(changed != text, "the sample TrainJob has numNodes: 2")
        with open(path, "w") as f:
            f.write(changed)
        git("add", path, cwd=repo)
        stale = git("commit", "-m", "three nodes", cwd=repo)
        output = stale.stdout + stale.stderr
        checks.expect(stale.returncode != 0 and "rendered tree up to date" in output and
                      "rendered/ml-team/pytorch-distributed-custom.yaml: error: stale" in output,
                      "a commit leaving the rendering stale is refused", output)
        checks.expect("tjrender check" in output and "Passed" in output,
                      "tjrender-check passes the staged TrainJob (runtime from the repository)", output)

        run([tjrender(), "render", "trainjobs", "runtimes", "--out", "rendered"], cwd=repo, env=env)
        git("add", ".", cwd=repo)
        fixed = git("commit", "-m", "three nodes, rendered", cwd=repo)
        checks.expect(fixed.returncode == 0, "committing the refreshed rendering is accepted",
                      fixed.stdout + fixed.stderr)

        # Work in progress that is not part of the commit: an untracked
        # TrainJob (not rendered yet). The hook renders what is committed
        # plus what is staged, so a commit of another YAML file passes;
        # before, the untracked file made the rendered tree "stale".
        wip = os.path.join(repo, "trainjobs", "wip.yaml")
        with open(wip, "w") as f:
            f.write(LONELY_TRAINJOB.replace("name: lonely", "name: wip").replace("name: absent",
                                                                                 "name: torch-distributed"))
        with open(os.path.join(repo, "notes.yaml"), "w") as f:
            f.write("owner: ml-team\n")
        git("add", "notes.yaml", cwd=repo)
        unrelated = git("commit", "-m", "notes", cwd=repo)
        output = unrelated.stdout + unrelated.stderr
        up_to_date = re.search(r"^tjrender rendered tree up to date\.+(Passed|Failed)$", output, re.M)
        checks.expect(unrelated.returncode == 0 and up_to_date is not None and up_to_date.group(1) == "Passed",
                      "an untracked TrainJob is not part of the commit: the render hook runs and passes", output)
        # Staged, the same TrainJob is part of the commit and must be rendered.
        git("add", wip, cwd=repo)
        staged = git("commit", "-m", "wip", cwd=repo)
        output = staged.stdout + staged.stderr
        checks.expect(staged.returncode != 0 and "rendered/ml-team/wip.yaml: error: missing from the rendered tree"
                      in output, "once staged, the TrainJob's missing rendering refuses the commit", output)
        # Its advice renders what the hook read (committed plus staged): a
        # rerun without --staged would also render untracked TrainJobs into
        # the tree, which the next commit then calls "gone".
        checks.expect("run `tjrender render --staged trainjobs runtimes --out rendered`" in output,
                      "the hook's advice is the --staged render", output)
        # An unstaged edit of a staged file: the staged version is checked.
        render = run([tjrender(), "render", "trainjobs", "runtimes", "--out", "rendered"], cwd=repo, env=env)
        git("add", ".", cwd=repo)
        with open(wip, "a") as f:
            f.write("  trainer:\n    numNodes: 7\n")  # unstaged, unrendered
        both = git("commit", "-m", "wip, rendered", cwd=repo)
        checks.expect(both.returncode == 0, "an unstaged edit does not count against the commit",
                      both.stdout + both.stderr)
        checks.expect(run([tjrender(), "render", "--staged", "--check", "--out", "rendered", "trainjobs", "runtimes"],
                          cwd=repo, env=env).returncode == 0,
                      "render --staged --check typed by hand agrees")
        checks.expect(run([tjrender(), "render", "--check", "--out", "rendered", "trainjobs", "runtimes"],
                          cwd=repo, env=env).returncode == 1,
                      "while the working tree (with the unstaged edit) is stale (exit 1)")
    finally:
        shutil.rmtree(work)
    checks.done()


main()
