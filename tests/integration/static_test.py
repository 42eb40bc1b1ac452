"""The static binary runs with no shared library at all: ldd calls it not a
dynamic executable, and copied alone into an empty root it renders the
sample repository and checks a Git revision (a bare .git copied in) with the
same output as outside."""
import os
import shutil
import subprocess
import sys
import tempfile

from common import SAMPLE_REPO, Checks, run, skip, tjrender
from ship import static_binary


def chroot_prefix(root):
    """How to run a command inside `root`: chroot as root, else in a user
    namespace (unshare -r); skips when neither is allowed here."""
    chroot, unshare = shutil.which("chroot"), shutil.which("unshare")
    candidates = [[chroot, root]] if os.geteuid() == 0 else []
    candidates.append([unshare, "-r", chroot, root])
    for prefix in candidates:
        if None not in prefix and run(prefix + ["/tjrender", "--version"]).returncode == 0:
            return prefix
    skip("cannot chroot here (not root, and no user namespaces)")


def main():
    checks = Checks()
    binary = static_binary(tjrender())
    ldd = run(["ldd", binary])
    checks.expect("not a dynamic executable" in ldd.stdout + ldd.stderr, "ldd: not a dynamic executable",
                  ldd.stdout + ldd.stderr)
    with tempfile.TemporaryDirectory() as tmp:
        root = os.path.join(tmp, "root")
        os.makedirs(root)
        shutil.copy2(binary, os.path.join(root, "tjrender"))
        # Inputs only: the sample repository as files, and as a Git
        # repository made outside (git is not in the root) of which only
        # .git goes in, so `check --rev` has no working tree to fall back on.
        shutil.copytree(SAMPLE_REPO, os.path.join(root, "repo"))
        outside = os.path.join(tmp, "git")
        shutil.copytree(SAMPLE_REPO, outside)
        env = dict(os.environ, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@example.com",
                   GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@example.com")
        for args in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "sample"]):
            subprocess.run(["git", "-C", outside] + args, check=True, env=env, capture_output=True)
        shutil.copytree(os.path.join(outside, ".git"), os.path.join(root, "git", ".git"))
        checks.expect(sorted(os.listdir(root)) == ["git", "repo", "tjrender"], "the root holds nothing else")

        prefix = chroot_prefix(root)
        clean_env = {"PATH": "/", "HOME": "/"}
        inside = run(prefix + ["/tjrender", "render", "/repo", "-o", "-", "--quiet"], env=clean_env)
        expected = run([binary, "render", os.path.join(root, "repo"), "-o", "-", "--quiet"])
        checks.expect(inside.returncode == 0 and "kind: JobSet" in inside.stdout,
                      "render in the empty root", inside.stderr)
        checks.expect(inside.stdout == expected.stdout, "render's output is the same inside and outside")
        rev = run(prefix + ["/tjrender", "check", "--rev", "HEAD", "--repo", "/git", "--verbose"], env=clean_env)
        checks.expect(rev.returncode == 0, "check --rev HEAD in the empty root", rev.stdout + rev.stderr)
        rendered = run(prefix + ["/tjrender", "render", "--rev", "HEAD", "--repo", "/git", "-o", "-", "--quiet"],
                       env=clean_env)
        checks.expect(rendered.returncode == 0 and rendered.stdout == expected.stdout,
                      "render --rev HEAD in the empty root reads the commit", rendered.stderr)
    sys.exit(1 if checks.failed else 0)


if __name__ == "__main__":
    main()
