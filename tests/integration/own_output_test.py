#!/usr/bin/env python3
"""`tjrender render . -o - > rendered.yaml`, typed in a shell: the shell
creates rendered.yaml inside the folder before tjrender lists it, and every
run failed with "rendered.yaml: error: changed while tjrender was reading
it". A file that is tjrender's own stdout (same device and inode) or a
--report file is never an input, in every command that reads a tree;
--verbose says it was left out. Each command runs through `sh -c` exactly as
typed, in a copy of the sample repository."""
import json
import os
import shutil

from common import Checks, copy_sample, run, temp_dir, tjrender


def sh(command, cwd):
    return run(["sh", "-c", command], cwd=cwd, env=dict(os.environ, TJRENDER_BIN=tjrender()))


def main():
    checks = Checks()
    work = temp_dir("tjr-own-output-")
    try:
        repo = copy_sample(os.path.join(work, "repo"))
        tj = '"$TJRENDER_BIN"'
        # The reference: the same render with stdout outside the folder.
        reference = run([tjrender(), "render", ".", "-o", "-"], cwd=repo)
        checks.expect(reference.returncode in (0, 1) and "kind: JobSet" in reference.stdout,
                      "the sample renders", reference.stderr)

        for attempt in ("first", "second"):  # the second finds last run's file
            result = sh(f"{tj} render . -o - > rendered.yaml", repo)
            with open(os.path.join(repo, "rendered.yaml")) as f:
                written = f.read()
            checks.expect(result.returncode == reference.returncode,
                          f"render . -o - > rendered.yaml: same exit as the reference ({attempt} run)",
                          f"exit {result.returncode}\n{result.stderr}")
            checks.expect(written == reference.stdout, f"rendered.yaml holds the render ({attempt} run)",
                          written[:400])
            checks.expect("changed while" not in result.stderr and "rendered.yaml" not in result.stderr,
                          f"no message about rendered.yaml without --verbose ({attempt} run)", result.stderr)

        verbose = sh(f"{tj} render . -o - --verbose > rendered.yaml", repo)
        checks.expect("rendered.yaml: note: left out: tjrender's stdout (the file the shell redirected it into), "
                      "written by this run" in verbose.stderr, "--verbose says rendered.yaml was left out",
                      verbose.stderr)

        as_json = sh(f"{tj} render . -o json > rendered.json", repo)
        with open(os.path.join(repo, "rendered.json")) as f:
            text = f.read()
        checks.expect(as_json.returncode == reference.returncode and '"kind": "JobSet"' in text,
                      "render . -o json > rendered.json works", as_json.stderr)

        # check --format json, twice: the second run finds last run's
        # findings.json, a JSON file inside the folder.
        for attempt in ("first", "second"):
            checked = sh(f"{tj} check . --format json > findings.json", repo)
            with open(os.path.join(repo, "findings.json")) as f:
                document = json.load(f)
            checks.expect(checked.returncode in (0, 1) and "summary" in document,
                          f"check . --format json > findings.json works ({attempt} run)",
                          f"exit {checked.returncode}\n{checked.stderr}")
            checks.expect(all("findings.json" not in finding.get("file", "") for finding in document["findings"]),
                          f"findings.json is not among the inputs ({attempt} run)", json.dumps(document)[:600])
        noted = sh(f"{tj} check . --format json --verbose > findings.json", repo)
        checks.expect("findings.json: note: left out: tjrender's stdout" in noted.stderr,
                      "check --format json --verbose says findings.json was left out (on stderr)", noted.stderr)

        # A --report file from an earlier run, inside the folder.
        for attempt in ("first", "second"):
            reported = sh(f"{tj} check . --report json=report.json --verbose", repo)
            checks.expect(reported.returncode in (0, 1), f"check . --report json=report.json ({attempt} run)",
                          reported.stderr)
        checks.expect("report.json: note: left out: the --report file report.json, written by this run"
                      in reported.stderr, "--verbose says the --report file was left out", reported.stderr)

        # diff in a Git repository: the working tree against the commit,
        # its JSON written into the working tree.
        for name in ("rendered.yaml", "rendered.json", "findings.json", "report.json"):
            os.remove(os.path.join(repo, name))
        for args in (["init", "-q", "-b", "main"], ["add", "."],
                     ["-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", "sample"]):
            git = run(["git"] + args, cwd=repo)
            checks.expect(git.returncode == 0, "git " + args[0], git.stderr)
        for attempt in ("first", "second"):
            diffed = sh(f"{tj} diff main --format json > diff.json", repo)
            checks.expect(diffed.returncode == 0 and "diff.json" not in diffed.stderr,
                          f"diff main --format json > diff.json: no differences, no message ({attempt} run)",
                          f"exit {diffed.returncode}\n{diffed.stderr}")
        folders = sh(f"cp -r . ../old && rm -rf ../old/.git && {tj} diff ../old . --format json > pr.json", repo)
        checks.expect(folders.returncode == 0 and "pr.json" not in folders.stderr,
                      "diff ../old . --format json > pr.json: no differences", f"exit {folders.returncode}\n{folders.stderr}")

        # fmt names its files: one that is also its stdout was emptied by the
        # shell before fmt started, which is an error, not an empty success.
        shutil.copy(os.path.join(repo, "trainjobs", "deepspeed-mpi.yaml"), os.path.join(repo, "job.yaml"))
        fmt = sh(f"{tj} fmt job.yaml > job.yaml", repo)
        checks.expect(fmt.returncode == 2 and "job.yaml: error: is also fmt's stdout" in fmt.stderr,
                      "fmt job.yaml > job.yaml is an error naming the file", f"exit {fmt.returncode}\n{fmt.stderr}")
        fine = sh(f"{tj} fmt trainjobs/deepspeed-mpi.yaml > job.yaml", repo)
        checks.expect(fine.returncode == 0 and os.path.getsize(os.path.join(repo, "job.yaml")) > 0,
                      "fmt into another file works", fine.stderr)

        # A file named on the command line that is also stdout is left out
        # too, not read back into itself.
        sh(f"{tj} render . -o - > rendered.yaml", repo)
        with open(os.path.join(repo, "rendered.yaml")) as f:
            before = f.read()
        named = sh(f"{tj} render rendered.yaml -o - --verbose >> rendered.yaml", repo)
        with open(os.path.join(repo, "rendered.yaml")) as f:
            after = f.read()
        checks.expect(named.returncode == 0 and after == before and
                      "rendered.yaml: note: left out: tjrender's stdout" in named.stderr,
                      "render rendered.yaml -o - >> rendered.yaml reads nothing back and says so",
                      f"exit {named.returncode}\n{named.stderr}")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    checks.done()


if __name__ == "__main__":
    main()
