#!/usr/bin/env python3
"""`render --out` gives the same bytes on any machine, so `flux push artifact
--reproducible` gives the same digest: two renders in different folders with
a different working directory, TMPDIR, TZ, LC_ALL, umask and thread count,
compared file by file and as an mtime-free tar archive (sorted names, fixed
mtime, owner and mode, as a reproducible OCI layer is built)."""
import hashlib
import os
import shutil

from common import SAMPLE_REPO, Checks, run, skip, temp_dir, tjrender


def tree_bytes(root):
    files = {}
    for folder, _, names in os.walk(root):
        for name in names:
            path = os.path.join(folder, name)
            with open(path, "rb") as f:
                files[os.path.relpath(path, root)] = f.read()
    return files


def archive_digest(root, work, name):
    archive = os.path.join(work, name + ".tar")
    result = run(["tar", "--sort=name", "--mtime=1970-01-01 00:00:00", "--owner=0", "--group=0",
                  "--numeric-owner", "--mode=a+rX,u+w,go-w", "--format=gnu", "-C", root, "-cf", archive, "."])
    if result.returncode != 0:
        return None
    with open(archive, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def main():
    if not shutil.which("tar"):
        skip("tar is not installed")
    tool = tjrender()
    checks = Checks()
    work = temp_dir("tjrender-flux-")
    try:
        machines = [
            {"TZ": "UTC", "LC_ALL": "C", "umask": 0o022, "threads": "1", "sub": "a"},
            {"TZ": "Pacific/Kiritimati", "LC_ALL": "C.UTF-8", "umask": 0o077, "threads": "4", "sub": "b/deeper"},
        ]
        outputs = []
        for index, machine in enumerate(machines):
            base = os.path.join(work, machine["sub"])
            cwd = os.path.join(base, "cwd")
            tmp = os.path.join(base, "tmp")
            out = os.path.join(base, "out")
            os.makedirs(cwd)
            os.makedirs(tmp)
            env = dict(os.environ, TZ=machine["TZ"], LC_ALL=machine["LC_ALL"], TMPDIR=tmp)
            # The repository is given by absolute path: the cwd differs too.
            result = run(["sh", "-c", f"umask {machine['umask']:o} && exec \"$0\" \"$@\"", tool, "render",
                          SAMPLE_REPO, "--out", out, "--threads", machine["threads"]], cwd=cwd, env=env)
            checks.expect(result.returncode == 0, f"render on machine {index + 1}", result.stderr)
            outputs.append(out)
        first, second = tree_bytes(outputs[0]), tree_bytes(outputs[1])
        # Four TrainJobs' files and the index of the files tjrender wrote.
        checks.expect(len(first) == 5 and ".tjrender-index" in first and first.keys() == second.keys(),
                      "the same files", str(sorted(first)))
        checks.expect(first == second, "the same bytes in every file")
        digests = [archive_digest(out, work, str(i)) for i, out in enumerate(outputs)]
        checks.expect(digests[0] is not None and digests[0] == digests[1],
                      "the same sha256 of the mtime-free archive", str(digests))
        print("archive sha256:", digests[0])
    finally:
        shutil.rmtree(work)
    checks.done()


main()
