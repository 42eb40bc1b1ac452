#!/usr/bin/env python3
"""tjrender reads the repository git would read: GIT_DIR, GIT_WORK_TREE,
GIT_INDEX_FILE (a pre-commit hook of `git commit -- PATH` and `git commit
-a`), GIT_OBJECT_DIRECTORY, GIT_ALTERNATE_OBJECT_DIRECTORIES,
GIT_CEILING_DIRECTORIES, GIT_COMMON_DIR, a linked worktree; each compared
with git's own view of the same crafted repositories. A repository owned by
another user is refused with git's words and allowed by safe.directory from
GIT_CONFIG_GLOBAL (as root); a base revision a shallow clone cuts off says
so and how to fetch it."""
import os
import re
import shutil
import subprocess

from common import TORCH_RUNTIME, Checks, run, skip, temp_dir, tjrender

JOB = """apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata:
  name: {name}
  namespace: ml
spec:
  runtimeRef:
    name: torch-distributed
"""

ENV = dict(os.environ)
for name in list(ENV):
    if name.startswith("GIT_") or name in ("SUDO_UID", "XDG_CONFIG_HOME"):
        del ENV[name]
ENV.update({"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com", "GIT_COMMITTER_NAME": "t",
            "GIT_COMMITTER_EMAIL": "t@example.com", "GIT_CONFIG_NOSYSTEM": "1"})


def env(**extra):
    out = dict(ENV)
    out.update(extra)
    return out


def git(*args, cwd, **extra):
    result = run(["git", "-c", "init.defaultBranch=main", *args], cwd=cwd, env=env(**extra))
    if result.returncode != 0:
        raise RuntimeError(f"git {' '.join(args)} in {cwd}: {result.stderr}")
    return result.stdout


def make_repo(path, jobs):
    """A repository at `path` holding the runtime and a TrainJob per name, committed."""
    os.makedirs(path)
    write(os.path.join(path, "runtime.yaml"), TORCH_RUNTIME)
    for job in jobs:
        write(os.path.join(path, job + ".yaml"), JOB.format(name=job))
    git("init", "-q", cwd=path)
    git("add", ".", cwd=path)
    git("commit", "-qm", "jobs", cwd=path)
    return path


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def rendered(result):
    """The TrainJobs a render printed (the JobSets' names)."""
    return sorted(set(re.findall(r"^kind: JobSet\nmetadata:\n(?:  .*\n)*?  name: (\S+)", result.stdout, re.M)))


def tj(*args, cwd, **extra):
    return run([tjrender(), *args], cwd=cwd, env=env(**extra))


def names(paths):
    """TrainJob names of git's file list (runtime.yaml left out)."""
    return sorted(os.path.basename(p)[:-5] for p in paths.split() if p.endswith(".yaml") and "runtime" not in p)


def main():
    if not shutil.which("git"):
        skip("git is not installed")
    checks = Checks()
    work = os.path.realpath(temp_dir("tjrender-git-env-"))
    home = os.path.join(work, "home")
    os.makedirs(home)
    ENV["HOME"] = home  # no user's ~/.gitconfig
    try:
        a = make_repo(os.path.join(work, "a"), ["alpha"])
        b = make_repo(os.path.join(work, "b"), ["beta"])
        sub = os.path.join(a, "sub")
        os.makedirs(sub)

        # GIT_DIR (relative, from a folder of another repository): that
        # repository, whatever the folder.
        view = tj("render", "--rev", "HEAD", "-o", "-", cwd=sub, GIT_DIR="../../b/.git")
        want = names(git("ls-files", cwd=sub, GIT_DIR="../../b/.git"))
        checks.expect(view.returncode == 0 and rendered(view) == want == ["beta"],
                      "GIT_DIR: render --rev reads the repository GIT_DIR names, as git ls-files",
                      f"{rendered(view)} vs git {want}\n{view.stderr}")

        # GIT_DIR without GIT_WORK_TREE: the current folder is the top of
        # the work tree, so its files are the working tree's: beta.yaml as
        # b's HEAD has it is unchanged, gamma.yaml new.
        write(os.path.join(sub, "gamma.yaml"), JOB.format(name="gamma"))
        write(os.path.join(sub, "beta.yaml"), JOB.format(name="beta"))
        write(os.path.join(sub, "runtime.yaml"), TORCH_RUNTIME)
        top = git("rev-parse", "--show-toplevel", cwd=sub, GIT_DIR=b + "/.git").strip()
        changed = names(git("diff", "--name-only", "HEAD", cwd=sub, GIT_DIR=b + "/.git"))
        view = tj("render", "--since", "HEAD", "-o", "-", cwd=sub, GIT_DIR=b + "/.git")
        checks.expect(top == sub and changed == [] and view.returncode == 0 and rendered(view) == ["gamma"],
                      "GIT_DIR alone: the work tree is the current folder (git's --show-toplevel)",
                      f"git top {top}, changed {changed}; rendered {rendered(view)}\n{view.stderr}")
        os.remove(os.path.join(sub, "beta.yaml"))

        # GIT_DIR and GIT_WORK_TREE: both as given.
        write(os.path.join(b, "beta.yaml"), JOB.format(name="beta2"))
        changed = names(git("diff", "--name-only", "HEAD", cwd=sub, GIT_DIR="../../b/.git", GIT_WORK_TREE="../../b"))
        view = tj("render", "--since", "HEAD", "-o", "-", cwd=sub, GIT_DIR="../../b/.git", GIT_WORK_TREE="../../b")
        checks.expect(changed == ["beta"] and view.returncode == 0 and rendered(view) == ["beta2"],
                      "GIT_DIR + GIT_WORK_TREE: the other repository's changed work tree",
                      f"git {changed}; rendered {rendered(view)}\n{view.stderr}")

        # GIT_WORK_TREE alone: a's repository, b's files as its work tree.
        top = git("rev-parse", "--show-toplevel", cwd=a, GIT_WORK_TREE=b).strip()
        view = tj("check", "--since", "HEAD", "--list-affected", cwd=a, GIT_WORK_TREE=b)
        checks.expect(top == b and view.returncode == 0 and "beta2" in view.stdout and "alpha" not in view.stdout,
                      "GIT_WORK_TREE: discovery as usual, the work tree replaced",
                      f"git top {top}\n{view.stdout}{view.stderr}")

        # GIT_INDEX_FILE, relative from a subfolder: git takes it from the
        # top of the work tree.
        shutil.copy(os.path.join(a, ".git", "index"), os.path.join(a, "other-index"))
        git("add", "sub/gamma.yaml", cwd=a, GIT_INDEX_FILE=os.path.join(a, "other-index"))
        staged = names(git("diff", "--cached", "--name-only", cwd=sub, GIT_INDEX_FILE="other-index"))
        view = tj("render", "--staged", "-o", "-", "..", cwd=sub, GIT_INDEX_FILE="other-index")
        plain = tj("render", "--staged", "-o", "-", "..", cwd=sub)
        checks.expect(staged == ["gamma"] and rendered(view) == ["alpha", "gamma"] and rendered(plain) == ["alpha"],
                      "GIT_INDEX_FILE: --staged reads that index (relative to the top, as git)",
                      f"git {staged}; rendered {rendered(view)}, without it {rendered(plain)}\n{view.stderr}")
        os.remove(os.path.join(a, "other-index"))
        os.remove(os.path.join(sub, "gamma.yaml"))
        os.remove(os.path.join(sub, "runtime.yaml"))

        # The hook of `git commit -- PATH` and of `git commit -a`: git names
        # a temporary index in GIT_INDEX_FILE; --staged must read it.
        hook = os.path.join(a, ".git", "hooks", "pre-commit")
        out = os.path.join(work, "hook.out")
        write(hook, f"#!/bin/sh\ngit diff --cached --name-only > {out}.git\n"
                    f"{tjrender()} render --staged -o - > {out}\nexit 0\n")
        os.chmod(hook, 0o755)
        for how, name in ((["--", "alpha.yaml"], "alpha-partial"), (["-a"], "alpha-all")):
            write(os.path.join(a, "alpha.yaml"), JOB.format(name=name))
            git("commit", "-qm", "change", *how, cwd=a)
            with open(out) as f:
                seen = rendered(subprocess.CompletedProcess([], 0, f.read(), ""))
            with open(out + ".git") as f:
                staged = f.read().split()
            checks.expect(staged == ["alpha.yaml"] and seen == [name],
                          f"pre-commit hook of git commit {' '.join(how)}: --staged reads the commit's index",
                          f"git {staged}; rendered {seen}")
        os.remove(hook)

        # A linked worktree (.git is a file): its own HEAD and files.
        wt = os.path.join(work, "wt")
        git("worktree", "add", "-q", "-b", "side", wt, cwd=a)
        write(os.path.join(wt, "delta.yaml"), JOB.format(name="delta"))
        view = tj("render", "--since", "HEAD", "-o", "-", cwd=wt)
        checks.expect(view.returncode == 0 and rendered(view) == ["delta"],
                      "linked worktree: --since compares its own files", f"{rendered(view)}\n{view.stderr}")
        # Its hooks run with GIT_DIR=<main>/.git/worktrees/wt and no
        # GIT_WORK_TREE: the work tree is where the hook runs.
        write(hook, f"#!/bin/sh\n{tjrender()} render --staged -o - > {out}\nexit 0\n")
        os.chmod(hook, 0o755)
        git("add", "delta.yaml", cwd=wt)
        git("commit", "-qm", "delta", cwd=wt)
        with open(out) as f:
            seen = rendered(subprocess.CompletedProcess([], 0, f.read(), ""))
        checks.expect(seen == ["alpha-all", "delta"], "linked worktree's pre-commit hook: --staged reads its index",
                      f"rendered {seen}")
        os.remove(hook)

        # GIT_OBJECT_DIRECTORY and GIT_ALTERNATE_OBJECT_DIRECTORIES: the
        # objects live elsewhere.
        c = os.path.join(work, "c")
        shutil.copytree(b, c)
        moved = os.path.join(work, "c-objects")
        shutil.move(os.path.join(c, ".git", "objects"), moved)
        os.makedirs(os.path.join(c, ".git", "objects", "pack"))
        for variable in ("GIT_OBJECT_DIRECTORY", "GIT_ALTERNATE_OBJECT_DIRECTORIES"):
            want = git("ls-tree", "--name-only", "HEAD", cwd=c, **{variable: moved}).split()
            view = tj("render", "--rev", "HEAD", "-o", "-", cwd=c, **{variable: moved})
            checks.expect("beta.yaml" in want and view.returncode == 0 and rendered(view) == ["beta"],
                          f"{variable}: objects read from there, as git ls-tree",
                          f"git {want}; rendered {rendered(view)}\n{view.stderr}")

        # GIT_CEILING_DIRECTORIES: no discovery into a ceiling.
        refused = run(["git", "rev-parse", "--git-dir"], cwd=sub, env=env(GIT_CEILING_DIRECTORIES=a))
        view = tj("render", "--rev", "HEAD", "-o", "-", cwd=sub, GIT_CEILING_DIRECTORIES=a)
        checks.expect(refused.returncode != 0 and view.returncode == 2 and "Git repository" in view.stderr,
                      "GIT_CEILING_DIRECTORIES: the repository above the ceiling is not found, as in git",
                      f"git {refused.returncode}; tjrender {view.returncode}\n{view.stderr}")

        across_filesystems(checks, work)

        # GIT_COMMON_DIR cannot be honoured through libgit2: refused, not ignored.
        view = tj("render", "--rev", "HEAD", "-o", "-", cwd=a, GIT_COMMON_DIR=os.path.join(b, ".git"))
        checks.expect(view.returncode == 2 and "GIT_COMMON_DIR" in view.stderr,
                      "GIT_COMMON_DIR: refused with its name (exit 2)", f"{view.returncode}\n{view.stderr}")

        ownership(checks, work, b)
        shallow(checks, work)
    finally:
        subprocess.run(["chmod", "-R", "u+w", work], check=False)
        shutil.rmtree(work, ignore_errors=True)
    checks.done()


def across_filesystems(checks, work):
    """Discovery stops at a file system's boundary unless
    GIT_DISCOVERY_ACROSS_FILESYSTEM is set (a tmpfs mounted in the work tree)."""
    repo = make_repo(os.path.join(work, "fs"), ["epsilon"])
    mount = os.path.join(repo, "m")
    os.makedirs(mount)
    if run(["mount", "-t", "tmpfs", "none", mount]).returncode != 0:
        print("skip the file system boundary checks: cannot mount a tmpfs here")
        return
    try:
        for across, want in (("", []), ("1", ["epsilon"])):
            extra = {"GIT_DISCOVERY_ACROSS_FILESYSTEM": across} if across else {}
            found = run(["git", "rev-parse", "--git-dir"], cwd=mount, env=env(**extra))
            view = tj("render", "--rev", "HEAD", "-o", "-", "..", cwd=mount, **extra)
            checks.expect((found.returncode == 0) == bool(want) and (view.returncode == 0) == bool(want)
                          and rendered(view) == want,
                          f"GIT_DISCOVERY_ACROSS_FILESYSTEM={across or '(unset)'}: the repository across a mount "
                          f"{'is' if want else 'is not'} found, as in git",
                          f"git {found.returncode}; tjrender {view.returncode} {rendered(view)}\n{view.stderr}")
    finally:
        run(["umount", mount])


def ownership(checks, work, source):
    """Another user's repository: git's refusal, and safe.directory."""
    if os.geteuid() != 0:
        print("skip the ownership checks: they chown, and need root")
        return
    theirs = os.path.join(work, "theirs")
    shutil.copytree(source, theirs)
    os.makedirs(os.path.join(theirs, "deep"))
    subprocess.run(["chown", "-R", "1234:1234", theirs], check=True)
    said = run(["git", "ls-files"], cwd=os.path.join(theirs, "deep"), env=env())
    view = tj("check", "--rev", "HEAD", cwd=os.path.join(theirs, "deep"))
    fix = f"git config --global --add safe.directory {theirs}"
    checks.expect(f"detected dubious ownership in repository at '{theirs}'" in said.stderr and fix in said.stderr,
                  "git refuses the repository of uid 1234", said.stderr)
    checks.expect(view.returncode == 2 and f"detected dubious ownership in repository at '{theirs}'" in view.stderr
                  and fix in view.stderr and "uid 1234" in view.stderr and "not found" not in view.stderr,
                  "tjrender says what git says, and how to allow it (exit 2)", f"{view.returncode}\n{view.stderr}")
    for value in (theirs, "*"):
        config = os.path.join(work, "gitconfig")
        write(config, f"[safe]\n\tdirectory = {value}\n")
        view = tj("render", "--rev", "HEAD", "-o", "-", cwd=theirs, GIT_CONFIG_GLOBAL=config)
        allowed = run(["git", "ls-files"], cwd=theirs, env=env(GIT_CONFIG_GLOBAL=config))
        checks.expect(allowed.returncode == 0 and view.returncode == 0 and rendered(view) == ["beta"],
                      f"safe.directory = {value} in GIT_CONFIG_GLOBAL allows it, as in git",
                      f"git {allowed.returncode}; {view.returncode}\n{view.stderr}")
    # `git -c safe.directory=...` reaches the commands git runs (an alias
    # here, a hook alike) as GIT_CONFIG_PARAMETERS, '!' quoted as '\!'.
    alias = run(["git", "-c", f"alias.tj=!{tjrender()} render --rev HEAD -o -", "-c", f"safe.directory={theirs}",
                 "tj"], cwd=theirs, env=env())
    checks.expect(alias.returncode == 0 and rendered(alias) == ["beta"],
                  "git -c safe.directory=PATH (GIT_CONFIG_PARAMETERS) allows it, as in git",
                  f"{alias.returncode}\n{alias.stderr}")
    # An empty value resets what came before; a trailing '/' does not match.
    write(config, f"[safe]\n\tdirectory = *\n\tdirectory =\n\tdirectory = {theirs}/\n")
    view = tj("render", "--rev", "HEAD", "-o", "-", cwd=theirs, GIT_CONFIG_GLOBAL=config)
    refused = run(["git", "ls-files"], cwd=theirs, env=env(GIT_CONFIG_GLOBAL=config))
    checks.expect(refused.returncode != 0 and view.returncode == 2,
                  "safe.directory: an empty value resets, 'path/' is not 'path', as in git",
                  f"git {refused.returncode}; {view.returncode}\n{view.stderr}")
    # The repository's own configuration cannot allow itself.
    subprocess.run(["git", "config", "-f", os.path.join(theirs, ".git", "config"), "safe.directory", "*"], check=True)
    view = tj("render", "--rev", "HEAD", "-o", "-", cwd=theirs)
    checks.expect(view.returncode == 2, "safe.directory in the repository's own config is not read",
                  f"{view.returncode}\n{view.stderr}")
    # Under sudo the caller's repository, and with GIT_DIR no check at all.
    for extra in ({"SUDO_UID": "1234"}, {"GIT_DIR": os.path.join(theirs, ".git")}):
        view = tj("render", "--rev", "HEAD", "-o", "-", cwd=theirs, **extra)
        allowed = run(["git", "ls-files"], cwd=theirs, env=env(**extra))
        checks.expect(allowed.returncode == 0 and view.returncode == 0 and rendered(view) == ["beta"],
                      f"{next(iter(extra))} set: allowed, as in git", f"{view.returncode}\n{view.stderr}")


def shallow(checks, work):
    """A base revision a shallow clone does not hold."""
    full = make_repo(os.path.join(work, "full"), ["one"])
    for n in range(2, 6):
        write(os.path.join(full, "one.yaml"), JOB.format(name=f"one-{n}"))
        git("commit", "-qam", f"change {n}", cwd=full)
    old = git("rev-parse", "HEAD~3", cwd=full).strip()
    clone = os.path.join(work, "shallow")
    git("clone", "-q", "--depth", "1", "file://" + full, clone, cwd=work)
    head = git("rev-parse", "HEAD", cwd=clone).strip()
    cut = f"the history is cut at {head[:12]}"
    cases = [
        (["check", "--since", "HEAD~3", "."], "HEAD~3", "--deepen=3"),
        (["render", "--since", "HEAD^", "-o", "-"], "HEAD^", "--deepen=1"),
        (["diff", old, "HEAD"], old, "--deepen="),
        (["render", "--rev", old[:10], "-o", "-"], old[:10], "--deepen="),
    ]
    # A branch whose commit the clone lacks (fetched as a name only).
    with open(os.path.join(clone, ".git", "refs", "heads", "old"), "w") as f:
        f.write(old + "\n")
    cases.append((["check", "--since", "old", "."], "old", "--deepen="))
    for args, rev, deepen in cases:
        view = tj(*args, cwd=clone)
        checks.expect(view.returncode == 2 and f"{rev} is not in this shallow clone ({cut})" in view.stderr
                      and deepen in view.stderr and "--unshallow" in view.stderr,
                      f"shallow clone: {' '.join(args)} says the base is cut off and how to fetch it",
                      f"{view.returncode}\n{view.stderr}")
    # Past the root of a full history, or a name that is nowhere: unknown.
    for args in (["check", "--since", "HEAD~9", "."], ["check", "--since", "no-such-branch", "."]):
        view = tj(*args, cwd=full)
        checks.expect(view.returncode == 2 and "unknown revision" in view.stderr and "shallow" not in view.stderr,
                      f"full clone: {' '.join(args)} is an unknown revision", f"{view.returncode}\n{view.stderr}")
    view = tj("check", "--since", "no-such-branch", ".", cwd=clone)
    checks.expect(view.returncode == 2 and "unknown revision" in view.stderr and "shallow" not in view.stderr,
                  "shallow clone: a name that is nowhere is still an unknown revision", view.stderr)


if __name__ == "__main__":
    main()
