#!/usr/bin/env python3
"""Every tjrender command of the code blocks of README.md and docs/*.md, run
exactly as written (through sh, redirections and all) in a repository laid
out as they describe: a Git repository with origin/main and two commits, the
platform fixture at its root, `repo/` and `fixtures/trainer-repo` as the
examples name them, `old/` and `new/` folders. A command passes when it runs
to an answer: exit 0 (clean) or 1 (findings), never 2 (a usage or input
error, which is what documentation drifting from the binary gives) and never a
signal. Lines of other tools (helm, kpt, flux) are not run here; the tests
of those integrations run them."""
import glob
import os
import re
import shutil

from common import SOURCE_ROOT, Checks, run, skip, temp_dir, tjrender

README = os.path.join(SOURCE_ROOT, "README.md")
DOCS = sorted(glob.glob(os.path.join(SOURCE_ROOT, "docs", "*.md")))
FIXTURES = os.path.join(SOURCE_ROOT, "fixtures")


def readme_commands():
    """(where, command) for each tjrender line of a sh/console block."""
    commands = []
    for path in [README, *DOCS]:
        commands += file_commands(path)
    return commands


def file_commands(path):
    with open(path) as f:
        text = f.read()
    name = os.path.relpath(path, SOURCE_ROOT)
    commands = []
    heading = name
    for match in re.finditer(r"^(#+ [^\n]*)$|^```(\w*)\n(.*?)^```", text, re.M | re.S):
        if match.group(1):
            heading = name + " " + match.group(1)
            continue
        if match.group(2) not in ("sh", "console", "bash"):
            continue
        for line in match.group(3).splitlines():
            line = line.strip()
            if match.group(2) == "console":
                if not line.startswith("$ "):
                    continue  # output
                line = line[2:]
            if line.startswith("tjrender "):
                commands.append((heading, line))
    return commands


def sandbox(work, env):
    root = os.path.join(work, "checkout")
    shutil.copytree(os.path.join(FIXTURES, "platform-repo"), root)
    shutil.copytree(os.path.join(FIXTURES, "trainer-repo"), os.path.join(root, "repo"))
    shutil.copytree(os.path.join(FIXTURES, "trainer-repo"), os.path.join(root, "fixtures", "trainer-repo"))
    shutil.copytree(os.path.join(FIXTURES, "explain-repo"), os.path.join(root, "fixtures", "explain-repo"))
    shutil.copytree(os.path.join(FIXTURES, "trainer-repo"), os.path.join(root, "old"))
    shutil.copytree(os.path.join(FIXTURES, "trainer-repo"), os.path.join(root, "new"))
    with open(os.path.join(root, "propeller.yaml"), "w") as f:
        f.write("plugins:\n  k8s:\n    default-labels: {team: ml}\n")

    def git(*args, cwd=root):
        return run(["git", "-c", "init.defaultBranch=main", *args], cwd=cwd, env=env)

    git("init", "-q")
    git("add", ".")
    git("commit", "-qm", "first")
    runtime = os.path.join(root, "new", "runtimes", "torch_distributed.yaml")
    with open(runtime) as f:
        text = f.read()
    with open(runtime, "w") as f:
        f.write(text.replace("2.7.1-cuda12.8", "2.8.0-cuda12.8"))
    git("add", ".")
    git("commit", "-qm", "second")
    origin = os.path.join(work, "origin.git")
    git("clone", "-q", "--bare", root, origin, cwd=work)
    git("remote", "add", "origin", origin)
    git("fetch", "-q", "origin")
    return root


def main():
    if not shutil.which("git"):
        skip("git is not installed")
    tool = tjrender()
    checks = Checks()
    work = temp_dir("tjrender-readme-")
    try:
        bin_dir = os.path.join(work, "bin")
        os.mkdir(bin_dir)
        os.symlink(tool, os.path.join(bin_dir, "tjrender"))
        env = dict(os.environ, PATH=bin_dir + ":" + os.environ.get("PATH", "/usr/bin:/bin"),
                   GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@example.com", GIT_COMMITTER_NAME="t",
                   GIT_COMMITTER_EMAIL="t@example.com", GIT_CONFIG_GLOBAL=os.devnull, GIT_CONFIG_NOSYSTEM="1")
        root = sandbox(work, env)
        commands = readme_commands()
        checks.expect(DOCS and len(commands) >= 15,
                      f"README.md and {len(DOCS)} docs/*.md files hold tjrender commands ({len(commands)})")
        for heading, command in commands:
            result = run(["sh", "-c", command], cwd=root, env=env)
            checks.expect(result.returncode in (0, 1),
                          f"{heading}: `{command}` exits {result.returncode}",
                          (result.stderr or result.stdout)[-1500:])
    finally:
        shutil.rmtree(work)
    checks.done()


main()
