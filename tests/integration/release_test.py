"""scripts/release is reproducible and complete: two clones of HEAD at
different paths give byte-identical tarballs (and image archives), the
sha256 file verifies, and the tarball holds the static binary built from
HEAD, a man page per command, the completions, LICENSE, README.md and docs/, with
owner 0/0 and the commit's time. Needs TJRENDER_SHIP_TESTS=1 (two static
builds)."""
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile

from common import SOURCE_ROOT, Checks, run, skip, tjrender


def release(clone, out, with_image):
    args = [os.path.join(clone, "scripts", "release"), "--out", out] + ([] if with_image else ["--no-image"])
    result = run(args, timeout=3600)
    if result.returncode != 0:
        raise SystemExit("scripts/release failed in %s:\n%s" % (clone, result.stderr[-4000:]))
    return result.stdout.split()


def main():
    if os.environ.get("TJRENDER_SHIP_TESTS") != "1":
        skip("builds the release twice; set TJRENDER_SHIP_TESTS=1")
    checks = Checks()
    head = run(["git", "-C", SOURCE_ROOT, "rev-parse", "HEAD"]).stdout.strip()
    commit_time = int(run(["git", "-C", SOURCE_ROOT, "log", "-1", "--format=%ct"]).stdout)
    with_image = shutil.which("podman") is not None and shutil.which("busybox") is not None
    with tempfile.TemporaryDirectory() as tmp:
        artifacts = []
        for side in ("a", "bb"):
            clone = os.path.join(tmp, side, "tjrender")
            subprocess.run(["git", "clone", "-q", SOURCE_ROOT, clone], check=True)
            subprocess.run(["git", "-C", clone, "checkout", "-q", head], check=True)
            artifacts.append(release(clone, os.path.join(tmp, side, "out"), with_image))
        first, second = artifacts
        checks.expect([os.path.basename(p) for p in first] == [os.path.basename(p) for p in second],
                      "both runs name the same artifacts", str(artifacts))
        for a, b in zip(first, second):
            same = open(a, "rb").read() == open(b, "rb").read()
            checks.expect(same, os.path.basename(a) + " is byte-identical across the two builds")
        tarball = first[0]
        version = run([tjrender(), "--version"]).stdout.split()[1]
        checks.expect(os.path.basename(tarball) == "tjrender-%s-linux-amd64.tar.gz" % version,
                      "the tarball is tjrender-VERSION-linux-amd64.tar.gz", tarball)
        verify = run(["sha256sum", "-c", os.path.basename(tarball) + ".sha256"], cwd=os.path.dirname(tarball))
        checks.expect(verify.returncode == 0, "sha256sum -c verifies it", verify.stdout + verify.stderr)

        top = "tjrender-%s-linux-amd64/" % version
        commands = re.findall(r"^  (\S+)\s", run([tjrender(), "--help"]).stdout.split("commands:", 1)[1], re.M)
        with tarfile.open(tarball) as archive:
            members = archive.getmembers()
            names = [m.name for m in members]
            wanted = [top + "bin/tjrender", top + "LICENSE", top + "README.md", top + "docs/manual.md",
                      top + "share/man/man1/tjrender.1",
                      top + "share/bash-completion/completions/tjrender",
                      top + "share/zsh/site-functions/_tjrender",
                      top + "share/fish/vendor_completions.d/tjrender.fish"]
            wanted += [top + "share/man/man1/tjrender-%s.1" % c for c in commands]
            missing = [w for w in wanted if w not in names]
            checks.expect(not missing, "the tarball holds binary, man pages, completions, LICENSE, README, docs",
                          str(missing))
            checks.expect(names == sorted(names, key=lambda n: n.split("/")), "entries are sorted", str(names))
            checks.expect(all(m.uid == 0 and m.gid == 0 for m in members), "owner 0/0")
            checks.expect(all(m.mtime == commit_time for m in members), "every time is the commit's")
            archive.extract(top + "bin/tjrender", path=tmp)
        binary = os.path.join(tmp, top, "bin", "tjrender")
        ldd = run(["ldd", binary])
        checks.expect("not a dynamic executable" in ldd.stdout + ldd.stderr, "the packaged binary is static")
        printed = run([binary, "--version"]).stdout.splitlines()
        checks.expect(printed[1:2] == ["commit: " + head[:12]], "it was built from HEAD, clean", str(printed[:2]))
        if not with_image:
            print("skip the image archive: podman or busybox missing")
    sys.exit(1 if checks.failed else 0)


if __name__ == "__main__":
    main()
