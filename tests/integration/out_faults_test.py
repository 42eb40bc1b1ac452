#!/usr/bin/env python3
"""`render --out DIR` keeps its promise under faults: DIR is the old tree or
the new one, the user's files kept, whatever fails.

- a write that fails (ENOSPC on a small tmpfs; EFBIG under RLIMIT_FSIZE, which
  needs no mount; a name too long for the file system; a file where a folder
  is needed) leaves DIR exactly as it was, exits 2 naming the file and the
  system's reason, and counts the error in the summary line;
- a run with an input error (a YAML typo in one TrainJob) changes nothing in
  DIR (it used to swap and prune that TrainJob's file);
- writers of one DIR take turns: one held at a stop point makes the next wait
  and fail naming its pid, and concurrent runs, many times, leave a fresh
  render plus the user's files;
- a run as root keeps the owners and modes of what it keeps (DIR, namespace
  and user folders, rewritten files);
- a killed `render REPO --out REPO/rendered` leaves a staging folder the next
  run neither reads nor fails on, and removes; a file of the old tree that
  cannot be deleted (chattr +i) is copied into the new tree, its leftover is
  a warning, and a later run removes it once it can.

Every expected tree is a fresh render into an empty folder plus the user's
entries, compared entry by entry (bytes, links, owners, modes). Each case
fails on the code before these guarantees. Faults are real: no mocks."""
import hashlib
import os
import resource
import shutil
import signal
import subprocess
import time

from common import TORCH_RUNTIME, Checks, run, temp_dir, tjrender

JOB = """apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata:
  name: job-{i}
  namespace: team-{ns}
spec:
  runtimeRef:
    name: torch-distributed
  trainer:
    env:
    - name: GENERATION
      value: "{value}"
"""

TOOL = tjrender()


def write_jobs(repo, count, generation, size=1, namespaces=3, big=None):
    """`count` TrainJobs whose env value is `generation`, `size` times over
    for those in `big` (all of them when None)."""
    folder = os.path.join(repo, "jobs")
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    for i in range(count):
        value = generation * (size if big is None or i in big else 1)
        with open(os.path.join(folder, f"job-{i}.yaml"), "w") as f:
            f.write(JOB.format(i=i, ns=i % namespaces, value=value))


def make_repo(at):
    os.makedirs(at)
    with open(os.path.join(at, "runtime.yaml"), "w") as f:
        f.write(TORCH_RUNTIME)
    return at


def snapshot(root, owners=False):
    """Every entry under `root` (None when absent): files by content, links
    by target, folders; with `owners`, uid:gid:mode too."""
    if not os.path.lexists(root):
        return None
    entries = {}
    for folder, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            path = os.path.join(folder, name)
            rel = os.path.relpath(path, root)
            info = os.lstat(path)
            if os.path.islink(path):
                value = "link:" + os.readlink(path)
            elif os.path.isdir(path):
                value = "folder"
            else:
                with open(path, "rb") as f:
                    value = hashlib.sha256(f.read()).hexdigest()
            if owners:
                value += f" {info.st_uid}:{info.st_gid}:{oct(info.st_mode & 0o7777)}"
            entries[rel] = value
    if owners:
        info = os.stat(root)
        entries["."] = f"{info.st_uid}:{info.st_gid}:{oct(info.st_mode & 0o7777)}"
    return entries


def add_user_files(out):
    with open(os.path.join(out, "README.md"), "w") as f:
        f.write("the user's own\n")
    os.makedirs(os.path.join(out, "notes", "deep"), exist_ok=True)
    with open(os.path.join(out, "notes", "deep", "a.txt"), "w") as f:
        f.write("notes\n")
    os.symlink("../README.md", os.path.join(out, "notes", "readme-link"))
    with open(os.path.join(out, "team-0", "own.txt"), "w") as f:
        f.write("beside tjrender's files\n")


def beside(out):
    """tjrender's entries beside DIR (staging folders, the lock)."""
    parent, name = os.path.split(out)
    return sorted(n for n in os.listdir(parent) if n.startswith("." + name + ".tjrender"))


def render(repo, out, env=None, preexec=None, extra=()):
    return run([TOOL, "render", repo, "--out", out, "--quiet", *extra], env=env, preexec_fn=preexec)


def fresh(repo, work, user=True):
    """A fresh render of `repo` into an empty folder, plus the user's files."""
    into = os.path.join(work, "fresh")
    shutil.rmtree(into, ignore_errors=True)
    result = render(repo, into)
    assert result.returncode == 0, result.stderr
    if user:
        add_user_files(into)
    tree = snapshot(into)
    shutil.rmtree(into)
    return tree


def errors_in_summary(stderr):
    """The error count of the summary line (`... N errors, M warnings`)."""
    for line in reversed(stderr.splitlines()):
        if line.endswith(" warnings") and " errors, " in line:
            return int(line.split(" errors, ")[0].rsplit(" ", 1)[1])
    return None


def write_fault_case(checks, work, name, out, prepare, expect_in_stderr, preexec=None, plant=None):
    """DIR holds an old render plus the user's files (and what `plant(out)`
    adds); `prepare(repo)` changes the inputs so that writing the new tree
    fails; DIR must stay the old tree, exactly."""
    repo = make_repo(os.path.join(work, name + "-repo"))
    write_jobs(repo, 12, "a")
    first = render(repo, out)
    checks.expect(first.returncode == 0, f"{name}: the old tree renders", first.stderr)
    add_user_files(out)
    if plant:
        plant(out)
    old = snapshot(out)
    prepare(repo)
    result = render(repo, out, preexec=preexec)
    checks.expect(result.returncode == 2, f"{name}: exit 2", f"exit {result.returncode}\n{result.stderr}")
    checks.expect(snapshot(out) == old, f"{name}: DIR is exactly the old tree, the user's files in it",
                  result.stderr[-2000:])
    checks.expect(beside(out) == [], f"{name}: no staging folder or lock left beside DIR", str(beside(out)))
    checks.expect(expect_in_stderr in result.stderr and out in result.stderr,
                  f"{name}: the message names the file and says '{expect_in_stderr}'", result.stderr[-1500:])
    checks.expect((errors_in_summary(result.stderr) or 0) >= 1, f"{name}: the summary line counts the error",
                  result.stderr[-300:])
    checks.expect("left unchanged" in result.stderr, f"{name}: stderr says DIR was left unchanged",
                  result.stderr[-800:])
    return repo


def ignore_sigxfsz_and_limit(limit):
    def preexec():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    return preexec


def write_faults(checks, work):
    # ENOSPC: DIR on a tmpfs too small for the new tree. The TrainJobs keep
    # their names (the index is the same, so it is linked, not written), all
    # change and some grow: the swap went ahead with the files written before
    # the disk filled, and truncated or old ones for the others.
    mount = os.path.join(work, "small")
    os.makedirs(mount)
    mounted = run(["mount", "-t", "tmpfs", "-o", "size=160k", "tmpfs", mount]).returncode == 0
    if mounted:
        try:
            write_fault_case(checks, work, "ENOSPC (tmpfs)", os.path.join(mount, "out"),
                             lambda repo: write_jobs(repo, 12, "b", size=20000, big=range(6, 12)),
                             "No space left on device")
        finally:
            run(["umount", "-l", mount])
    else:
        print("SKIP ENOSPC on a small tmpfs: mount -t tmpfs failed (not root, or no CAP_SYS_ADMIN); "
              "the RLIMIT_FSIZE case below covers a write that fails half way")
    # EFBIG: the same fault through RLIMIT_FSIZE, with no mount.
    write_fault_case(checks, work, "EFBIG (RLIMIT_FSIZE)", os.path.join(work, "efbig", "out"),
                     lambda repo: write_jobs(repo, 12, "b", size=6000, big=(5, 9)), "File too large",
                     preexec=ignore_sigxfsz_and_limit(6000))

    # A name too long for the file system (a Flyte task's name may be 253
    # characters; its file adds ".pod.yaml").
    def long_name(repo):
        write_jobs(repo, 12, "b")
        with open(os.path.join(repo, "task.yaml"), "w") as f:
            f.write("namespace: team-0\n"
                    f"id: {{resourceType: TASK, project: p, domain: development, name: t{'a' * 250}, version: v1}}\n"
                    "type: python-task\ncontainer:\n  image: cr.flyte.org/task:v1\n  args: [pyflyte-execute]\n")
    write_fault_case(checks, work, "ENAMETOOLONG", os.path.join(work, "long", "out"), long_name,
                     "File name too long")

    # A file that cannot be created: the user's file where a namespace
    # folder is needed.
    def blocking_file(out):
        with open(os.path.join(out, "team-3"), "w") as f:
            f.write("a file of the user's where tjrender needs a folder\n")
    write_fault_case(checks, work, "a file where a folder is needed", os.path.join(work, "blocked", "out"),
                     lambda repo: write_jobs(repo, 12, "b", namespaces=4), "not a folder", plant=blocking_file)


def input_errors(checks, work):
    repo = make_repo(os.path.join(work, "typo-repo"))
    out = os.path.join(work, "typo", "out")
    write_jobs(repo, 4, "a")
    checks.expect(render(repo, out).returncode == 0, "input error: the old tree renders")
    add_user_files(out)
    old = snapshot(out)
    write_jobs(repo, 4, "b")  # every TrainJob changes ...
    with open(os.path.join(repo, "jobs", "job-2.yaml"), "w") as f:
        f.write("apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nmetadata:\n  name: job-2\n"
                "  namespace: team-2\n spec: [\n")  # ... and one has a YAML typo
    result = render(repo, out)
    checks.expect(result.returncode == 2, "input error: exit 2", result.stderr)
    checks.expect(snapshot(out) == old, "input error: DIR unchanged (the typo's TrainJob keeps its file, "
                  "the others are not half updated)", result.stderr)
    checks.expect("left unchanged: 1 error above" in result.stderr, "input error: stderr says why DIR is unchanged",
                  result.stderr)


def wait_stopped(process, seconds=60):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        pid, status = os.waitpid(process.pid, os.WNOHANG | os.WUNTRACED)
        if pid == process.pid:
            if os.WIFSTOPPED(status):
                return True
            process.returncode = os.waitstatus_to_exitcode(status)
            return False
        time.sleep(0.005)
    return False


def finish(process):
    os.kill(process.pid, signal.SIGCONT)
    _, status = os.waitpid(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    return process.returncode


def start(repo, out, stop_at=None, timeout=None):
    env = dict(os.environ)
    if stop_at:
        env["TJRENDER_TEST_STOP_AT"] = stop_at
    if timeout is not None:
        env["TJRENDER_LOCK_TIMEOUT"] = str(timeout)
    return subprocess.Popen([TOOL, "render", repo, "--out", out, "--quiet"], env=env, stderr=subprocess.PIPE,
                            text=True)


def concurrency(checks, work):
    repo = make_repo(os.path.join(work, "concurrent-repo"))
    out = os.path.join(work, "concurrent", "out")
    write_jobs(repo, 30, "a")
    checks.expect(render(repo, out).returncode == 0, "concurrent: the old tree renders")
    add_user_files(out)
    for i in range(200):  # many files of the user's: a wide window for a race
        with open(os.path.join(out, "notes", f"n{i}.txt"), "w") as f:
            f.write(f"{i}\n")
    user = {k: v for k, v in snapshot(out).items() if k.startswith("notes") or k in ("README.md", "team-0/own.txt")}

    def expected(generation):
        write_jobs(repo, 30, generation)
        tree = fresh(repo, work, user=False)
        tree.update(user)
        return tree

    # A run stopped while it holds DIR (its first changed file written):
    # the next one waits, then fails naming it.
    want_b = expected("b")
    holder = start(repo, out, stop_at="put:1")
    checks.expect(wait_stopped(holder), "lock: the first run stops at put:1")
    began = time.monotonic()
    second = run([TOOL, "render", repo, "--out", out, "--quiet"], env=dict(os.environ, TJRENDER_LOCK_TIMEOUT="0.5"))
    waited = time.monotonic() - began
    checks.expect(second.returncode == 2 and f"process {holder.pid}" in second.stderr and waited < 10,
                  f"lock: the second run waits (TJRENDER_LOCK_TIMEOUT=0.5: {waited:.1f} s) and fails naming "
                  f"pid {holder.pid}", f"exit {second.returncode}\n{second.stderr}")
    checks.expect(finish(holder) == 0 and snapshot(out) == want_b, "lock: the first run then completes the tree",
                  holder.stderr.read())

    # The race of two runs, made deterministic: the first stops after it
    # opened DIR, the second runs meanwhile (before, it swapped and deleted
    # the tree the first was still copying from: the user's files lost).
    want_c = expected("c")
    first = start(repo, out, stop_at="put:1")
    checks.expect(wait_stopped(first), "race: the first run stops at put:1")
    second = start(repo, out, timeout=60)
    try:
        second.wait(timeout=2)
    except subprocess.TimeoutExpired:
        pass  # waiting for the lock
    codes = (finish(first), second.wait(timeout=60))
    checks.expect(codes == (0, 0) and snapshot(out) == want_c,
                  "race: both runs exit 0 and DIR is a fresh render plus every file of the user's",
                  f"exits {codes}; missing {sorted(set(want_c) - set(snapshot(out) or {}))[:5]}")

    # Many rounds of three concurrent runs, each round a new generation.
    generations = {g: expected(g) for g in ("d", "e")}
    bad = []
    for round_ in range(16):
        generation = "de"[round_ % 2]
        write_jobs(repo, 30, generation)
        runs = [start(repo, out, timeout=60) for _ in range(3)]
        codes = [p.wait(timeout=120) for p in runs]
        for p in runs:
            p.stderr.close()
        if codes != [0, 0, 0] or snapshot(out) != generations[generation] or beside(out):
            bad.append(f"round {round_}: exits {codes}, beside {beside(out)}")
    checks.expect(not bad, "concurrent: 16 rounds of 3 runs at once, each leaves a fresh render plus the "
                  "user's files, every run exit 0", "\n".join(bad[:5]))


def owners(checks, work):
    if os.geteuid() != 0:
        print("SKIP owners and modes: needs root (CI runs as root)")
        return
    repo = make_repo(os.path.join(work, "owners-repo"))
    out = os.path.join(work, "owners", "out")
    write_jobs(repo, 6, "a")
    checks.expect(render(repo, out).returncode == 0, "owners: the old tree renders")
    add_user_files(out)
    os.chmod(os.path.join(out, "notes", "deep"), 0o555)  # read-only, filled all the same
    for path in [out, os.path.join(out, "team-0"), os.path.join(out, "team-1", "job-1.yaml"),
                 os.path.join(out, "notes"), os.path.join(out, "README.md")]:
        os.chown(path, 1234, 1234)
        os.chmod(path, 0o640 if os.path.isfile(path) else 0o750)
    os.lchown(os.path.join(out, "notes", "readme-link"), 1234, 1234)
    before = snapshot(out, owners=True)
    write_jobs(repo, 6, "b", namespaces=4)  # every file rewritten, a namespace added
    result = render(repo, out)
    after = snapshot(out, owners=True)
    checks.expect(result.returncode == 0, "owners: the run as root succeeds", result.stderr)
    kept = {k: before[k].split(" ")[-1] for k in before if k not in ("team-1/job-1.yaml",) and
            not k.endswith(".yaml") and k != ".tjrender-index"}
    kept["team-1/job-1.yaml"] = "1234:1234:0o640"  # rewritten: owner and mode of the file it replaces
    now = {k: after.get(k, "absent").split(" ")[-1] for k in kept}
    checks.expect(now == kept, "owners: DIR, its folders, the user's files and a rewritten file keep owner and mode",
                  "\n".join(f"{k}: {kept[k]} -> {now[k]}" for k in kept if kept[k] != now[k]))
    new_folder = after.get("team-3", "absent").split(" ")[-1]
    checks.expect(new_folder.startswith("1234:1234:"), "owners: a new namespace folder gets DIR's owner "
                  "(a root run does not give the user's tree to root)", new_folder)


def leftovers(checks, work):
    repo = make_repo(os.path.join(work, "inside-repo"))
    out = os.path.join(repo, "rendered")
    write_jobs(repo, 8, "a")
    checks.expect(render(repo, out).returncode == 0, "killed: the old tree renders inside the repository")
    add_user_files(out)
    for point in ("put:2", "clone:3", "exchanged", "remove:2"):
        write_jobs(repo, 8, point[0])
        process = start(repo, out, stop_at=point)
        reached = wait_stopped(process)
        os.kill(process.pid, signal.SIGKILL)
        os.waitpid(process.pid, 0)
        left = beside(out)
        result = render(repo, out)
        want = fresh(repo, work)
        checks.expect(reached and left and result.returncode == 0 and snapshot(out) == want and not beside(out),
                      f"killed at {point} inside the repository: {left} left; the next run exits 0 (no "
                      "'changed' error on the staging folder's files), removes it and gives the new tree",
                      f"exit {result.returncode}\n{result.stderr[-1500:]}\nbeside {beside(out)}")

    # A file of the old tree that cannot be deleted or linked.
    if run(["chattr", "+i", os.path.join(out, "README.md")]).returncode != 0:
        print("SKIP an immutable file in DIR: chattr +i is not supported here")
        return
    try:
        write_jobs(repo, 8, "x")
        result = render(repo, out)
        want = fresh(repo, work)
        checks.expect(result.returncode == 0 and snapshot(out) == want,
                      "immutable: a run with an immutable file of the user's in DIR gives the new tree, the file "
                      "kept (copied)", f"exit {result.returncode}\n{result.stderr[-1500:]}")
        left = [n for n in beside(out) if n != ".rendered.tjrender.lock"]
        checks.expect(len(left) == 1 and "could not be removed" in result.stderr and "README.md" in result.stderr,
                      "immutable: the old tree it cannot delete is a warning naming the file", result.stderr[-800:])
        write_jobs(repo, 8, "y")
        result = render(repo, out)
        checks.expect(result.returncode == 0 and snapshot(out) == fresh(repo, work),
                      "immutable: the next run, with that leftover beside DIR, exits 0 with the new tree",
                      f"exit {result.returncode}\n{result.stderr[-1500:]}")
    finally:
        run(["chattr", "-R", "-i", repo])
    write_jobs(repo, 8, "z")
    result = render(repo, out)
    checks.expect(result.returncode == 0 and not beside(out), "immutable: once deletable, a later run removes "
                  "every leftover", f"{beside(out)}\n{result.stderr[-800:]}")


def main():
    checks = Checks()
    work = temp_dir("tjr-out-faults-")
    try:
        write_faults(checks, work)
        input_errors(checks, work)
        concurrency(checks, work)
        owners(checks, work)
        leftovers(checks, work)
    finally:
        run(["chattr", "-R", "-i", work])
        shutil.rmtree(work, ignore_errors=True)
    checks.done()


if __name__ == "__main__":
    main()
