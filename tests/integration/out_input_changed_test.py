#!/usr/bin/env python3
"""A TrainJob file rewritten in place while `render --out DIR` runs, caught
empty when read, silently dropped its TrainJob (exit 0) and its rendered file
was pruned. The run is stopped (TJRENDER_TEST_STOP_AT=rendered, after every
input was read and rendered, before DIR changes), the file gets its content,
and the run goes on: it must end with an input-changed error (exit 2) and
leave DIR exactly as it was. Deterministic: the change happens while the
process is stopped, not at some moment of a race."""
import os
import shutil
import signal
import subprocess
import time

from common import Checks, run, temp_dir, tjrender

JOB = """apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata:
  name: job-{i}
  namespace: team
spec:
  runtimeRef:
    name: torch-distributed
"""

RUNTIME = os.path.join(os.path.dirname(__file__), "..", "..", "fixtures", "trainer-repo", "runtimes",
                       "torch_distributed.yaml")


def tree(root):
    entries = {}
    for folder, _, names in os.walk(root):
        for name in names:
            path = os.path.join(folder, name)
            with open(path, "rb") as f:
                entries[os.path.relpath(path, root)] = f.read()
    return entries


def stopped_run(command, log, then):
    """Runs `command` until it stops itself, calls `then`, lets it go on;
    returns its exit code."""
    with open(log, "w") as err:
        process = subprocess.Popen(command, stderr=err, env=dict(os.environ, TJRENDER_TEST_STOP_AT="rendered"))
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        pid, status = os.waitpid(process.pid, os.WNOHANG | os.WUNTRACED)
        if pid == process.pid:
            break
        time.sleep(0.01)
    else:
        os.kill(process.pid, signal.SIGKILL)
        os.waitpid(process.pid, 0)
        process.returncode = -9
        return None
    if not os.WIFSTOPPED(status):
        process.returncode = os.waitstatus_to_exitcode(status)
        return None  # never reached the stop point
    then()
    os.kill(process.pid, signal.SIGCONT)
    _, status = os.waitpid(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    return process.returncode


def main():
    tool = tjrender()
    checks = Checks()
    work = temp_dir("tjrender-input-changed-")
    try:
        repo = os.path.join(work, "repo")
        os.makedirs(repo)
        shutil.copy(RUNTIME, repo)
        for i in (1, 2):
            with open(os.path.join(repo, f"job-{i}.yaml"), "w") as f:
                f.write(JOB.format(i=i))
        out = os.path.join(work, "out")
        log = os.path.join(work, "stderr")
        command = [tool, "render", repo, "--out", out, "--quiet"]
        first = run(command)
        checks.expect(first.returncode == 0, "the first render writes DIR", first.stderr)
        before = tree(out)
        checks.expect("team/job-1.yaml" in before, "job-1 rendered", str(sorted(before)))

        # Caught between truncate and write: read empty, filled while the
        # run is stopped.
        job1 = os.path.join(repo, "job-1.yaml")
        open(job1, "w").close()

        def fill():
            with open(job1, "w") as f:
                f.write(JOB.format(i=1))

        code = stopped_run(command, log, fill)
        with open(log) as f:
            stderr = f.read()
        checks.expect(code == 2, "a file changed during the run is an error (exit 2)", f"exit {code}\n{stderr}")
        checks.expect(f"{job1}: error: changed after tjrender read it (the file is no longer what was rendered"
                      in stderr, "the error names the file and says what changed", stderr)
        checks.expect("run tjrender again once nothing writes to it" in stderr,
                      "and why running again may help", stderr)
        checks.expect(f"{out}: error: left as it was: input files changed during the run" in stderr,
                      "and says DIR was left alone", stderr)
        checks.expect(tree(out) == before, "DIR is exactly as it was (job-1's file not pruned)",
                      str(sorted(tree(out))))
        checks.expect(not [n for n in os.listdir(work) if ".tjrender-" in n], "no staging folder is left")

        # The control: the same empty file, left empty, is a TrainJob gone,
        # and its file is pruned; that is what the stopped run must not do.
        open(job1, "w").close()
        code = stopped_run(command, log, lambda: None)
        checks.expect(code == 0 and "team/job-1.yaml" not in tree(out),
                      "an empty file left empty prunes its output (the control)", f"exit {code}")
        fill()
        again = run(command)
        checks.expect(again.returncode == 0 and tree(out) == before, "the next run renders it again",
                      again.stderr)
    finally:
        shutil.rmtree(work)
    checks.done()


main()
