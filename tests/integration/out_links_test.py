#!/usr/bin/env python3
"""`render --out DIR` never follows a symbolic link planted inside DIR: a
namespace folder replaced by a link out of DIR is neither written through
nor pruned through (the prune step once deleted a file outside DIR that
way; the run fails and leaves DIR as it was), a link in a rendered file's place is replaced by the file without
touching its target, and the user's own links are kept as links. DIR named
as a link to a folder is the one link followed, as the user asked."""
import os
import shutil

from common import Checks, run, temp_dir, tjrender

JOB = """apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata:
  name: job-{i}
  namespace: team-{i}
spec:
  runtimeRef:
    name: torch-distributed
"""

RUNTIME = os.path.join(os.path.dirname(__file__), "..", "..", "fixtures", "trainer-repo", "runtimes",
                       "torch_distributed.yaml")


def write_jobs(repo, indices):
    folder = os.path.join(repo, "jobs")
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    for i in indices:
        with open(os.path.join(folder, f"job-{i}.yaml"), "w") as f:
            f.write(JOB.format(i=i))


def tree(root):
    """Every entry under `root`: files by bytes, links by target."""
    entries = {}
    for folder, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            path = os.path.join(folder, name)
            rel = os.path.relpath(path, root)
            if os.path.islink(path):
                entries[rel] = "link:" + os.readlink(path)
            elif os.path.isfile(path):
                with open(path, "rb") as f:
                    entries[rel] = f.read()
    return entries


def main():
    tool = tjrender()
    checks = Checks()
    work = temp_dir("tjrender-out-links-")
    try:
        repo = os.path.join(work, "repo")
        os.makedirs(repo)
        shutil.copy(RUNTIME, repo)
        outside = os.path.join(work, "outside")
        os.makedirs(outside)
        # Files named as tjrender's outputs would be, outside DIR.
        for name in ("job-0.yaml", "job-1.yaml", "job-2.yaml", "victim.yaml"):
            with open(os.path.join(outside, name), "w") as f:
                f.write("not tjrender's: " + name + "\n")
        outside_before = tree(outside)
        out = os.path.join(work, "out")
        render = [tool, "render", repo, "--out", out, "--quiet"]

        write_jobs(repo, [0, 1, 2, 3])
        first = run(render)
        checks.expect(first.returncode == 0, "the first render writes DIR", first.stderr)
        rendered = tree(out)
        job1 = rendered.get("team-1/job-1.yaml")

        # The attacker's links: a namespace folder (with a TrainJob still
        # rendering into it) and one whose TrainJob is gone (pruned) become
        # links out of DIR; a rendered file becomes a link to a file outside.
        shutil.rmtree(os.path.join(out, "team-0"))
        os.symlink(outside, os.path.join(out, "team-0"))
        shutil.rmtree(os.path.join(out, "team-2"))
        os.symlink(outside, os.path.join(out, "team-2"))
        os.remove(os.path.join(out, "team-1", "job-1.yaml"))
        os.symlink(os.path.join(outside, "victim.yaml"), os.path.join(out, "team-1", "job-1.yaml"))
        os.symlink("/etc", os.path.join(out, "users-link"))  # the user's own, kept as is
        write_jobs(repo, [0, 1, 3])  # job-2 is gone: its file is stale
        planted = tree(out)
        second = run(render)
        checks.expect(second.returncode == 2, "a namespace folder that is a link is an error (exit 2)",
                      f"exit {second.returncode}\n{second.stderr}")
        checks.expect("team-0: error: not written: exists and is not a folder" in second.stderr,
                      "the error names the link", second.stderr)
        checks.expect(tree(outside) == outside_before, "nothing outside DIR is written or deleted",
                      str(sorted(tree(outside))))
        # A file that cannot be written fails the run, which changes nothing
        # in DIR: the planted links stay as they were.
        checks.expect(tree(out) == planted, "the failed run leaves DIR exactly as it was, links as links",
                      str(sorted(set(tree(out).items()) ^ set(planted.items())))[:800])
        # Without the folder links, the next run replaces the file link.
        os.remove(os.path.join(out, "team-0"))
        os.remove(os.path.join(out, "team-2"))
        third = run(render)
        checks.expect(third.returncode == 0, "without the folder links the run succeeds", third.stderr)
        checks.expect(tree(outside) == outside_before, "nothing outside DIR is written or deleted, again",
                      str(sorted(tree(outside))))
        after = tree(out)
        checks.expect(after.get("team-1/job-1.yaml") == job1 and not os.path.islink(os.path.join(out, "team-1", "job-1.yaml")),
                      "a link in a rendered file's place is replaced by the file")
        checks.expect(after.get("users-link") == "link:/etc", "the user's own link is kept")
        checks.expect(after.get("team-3/job-3.yaml") == rendered.get("team-3/job-3.yaml"),
                      "the other TrainJobs keep their files")
        checks.expect(not [n for n in os.listdir(work) if ".tjrender-" in n], "no staging folder is left")

        # DIR itself named through a link: followed, once, as the user asked.
        real = os.path.join(work, "real-out")
        os.makedirs(real)
        named = os.path.join(work, "named-out")
        os.symlink(real, named)
        fourth = run([tool, "render", repo, "--out", named, "--quiet"])
        checks.expect(fourth.returncode == 0, "DIR named as a link to a folder renders", fourth.stderr)
        checks.expect(os.path.islink(named) and os.readlink(named) == real, "the link naming DIR stays")
        checks.expect(tree(real).get("team-1/job-1.yaml") == job1, "the tree is in the folder it names")
    finally:
        shutil.rmtree(work)
    checks.done()


main()
