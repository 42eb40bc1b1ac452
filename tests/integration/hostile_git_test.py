#!/usr/bin/env python3
"""tjrender on damaged or hostile Git data, as a CI runner meets it after a
killed `git gc`, a bad disk or a crafted repository: pack indexes whose
fan-out table lies (libgit2 1.5.1 computes their size in 32 bits and reads
gigabytes past the file), truncated or mismatched indexes and packs, an index
that is a FIFO, truncated loose objects (libgit2 loops forever on a zlib
stream cut short), missing objects, reference loops, and folders nested
7,000 deep (a recursive walk overflows the stack). Every read of a revision
(render --rev, check --since, diff, render --since --rev) ends with exit 2
and an error located at a file, never a signal or a hang, within a memory
bound; a tree exactly as deep as Git allows (core.maxTreeDepth, 4096) still
renders."""
import glob
import hashlib
import os
import re
import shutil
import struct
import subprocess
import sys
import zlib

from common import SAMPLE_REPO, Checks, temp_dir, tjrender

MAX_RSS_KB = 256 * 1024
# A hang is a failure, not a wait for meson's timeout.
TIMEOUT = 20
LOCATED = re.compile(r"^[^\n]+?(:\d+:\d+)?: error: ", re.M)
GIT_ENV = dict(os.environ, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@example.com", GIT_COMMITTER_NAME="t",
               GIT_COMMITTER_EMAIL="t@example.com", GIT_AUTHOR_DATE="2026-01-01T00:00:00Z",
               GIT_COMMITTER_DATE="2026-01-01T00:00:00Z")

# The tool's own peak RSS, through a small Python that spawns it (as in
# hostile_inputs_test.py: wait4 in this process would count its own size).
MEASURE = """import os, sys
pid = os.posix_spawn(sys.argv[2], sys.argv[2:], os.environ)
_, status, usage = os.wait4(pid, 0)
with open(sys.argv[1], "w") as f:
    f.write(str(usage.ru_maxrss))
code = os.waitstatus_to_exitcode(status)
sys.exit(code if code >= 0 else 128 - code)
"""


def run_bounded(args, cwd):
    """(exit code, stderr, peak RSS KB); a signal is a negative code, a hang None."""
    rss_path = os.path.join(WORK, "rss")
    try:
        done = subprocess.run([sys.executable, "-c", MEASURE, rss_path, *args], cwd=cwd, stdin=subprocess.DEVNULL,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=TIMEOUT)
    except subprocess.TimeoutExpired as hung:
        return None, (hung.stderr or b"").decode(errors="replace"), 0
    code = done.returncode if done.returncode <= 128 else -(done.returncode - 128)
    with open(rss_path) as rss:
        return code, done.stderr.decode(errors="replace"), int(rss.read())


def git(repo, *args, data=None):
    return subprocess.run(["git", "-C", repo, *args], input=data, env=GIT_ENV, check=True,
                          capture_output=True).stdout.decode().strip()


def write_object(repo, kind, body):
    """A loose object written directly (git refuses to write hostile ones)."""
    data = kind.encode() + b" %d\0" % len(body) + body
    oid = hashlib.sha1(data).hexdigest()
    path = os.path.join(repo, ".git", "objects", oid[:2], oid[2:])
    if not os.path.exists(path):
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(zlib.compress(data, 1))
    return oid


def commit_on_head(repo, tree, message):
    commit = git(repo, "commit-tree", tree, "-p", "HEAD", "-m", message)
    git(repo, "update-ref", "HEAD", commit)
    return commit


def sample_repo(name, packed=True):
    """The sample repository, committed twice (tag base, then HEAD), packed
    by `git gc` or with every object loose."""
    root = os.path.join(WORK, name)
    shutil.copytree(SAMPLE_REPO, root)
    git(root, "init", "-q", "-b", "main")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "base")
    git(root, "tag", "base")
    with open(os.path.join(root, "README.md"), "a") as f:
        f.write("more\n")
    git(root, "commit", "-qam", "head")
    if packed:
        git(root, "gc", "-q")
    return root


def pack_files(repo):
    index = glob.glob(os.path.join(repo, ".git", "objects", "pack", "*.idx"))[0]
    for path in (index, index[:-4] + ".pack"):
        os.chmod(path, 0o644)
    return index, index[:-4] + ".pack"


def rewrite(path, change):
    with open(path, "rb") as f:
        data = bytearray(f.read())
    data = change(data)
    with open(path, "wb") as f:
        f.write(bytes(data))


def object_count(index):
    with open(index, "rb") as f:
        f.seek(8 + 255 * 4)
        return struct.unpack(">I", f.read(4))[0]


def set_fanout(value):
    def change(data):
        data[8:8 + 1024] = struct.pack(">I", value) * 256
        return data
    return change


def set_offsets(value):
    def change(data):
        count = struct.unpack(">I", data[8 + 1020:8 + 1024])[0]
        start = 8 + 1024 + count * 24
        data[start:start + 4 * count] = struct.pack(">I", value) * count
        return data
    return change


def non_monotonic(data):
    count = struct.unpack(">I", data[8 + 1020:8 + 1024])[0]
    data[8 + 4 * 100:8 + 4 * 101] = struct.pack(">I", count + 5)
    return data


def pack_damage(change, on_pack=False):
    def damage(repo):
        index, pack = pack_files(repo)
        rewrite(pack if on_pack else index, change)
    return damage


def index_fifo(repo):
    index, _ = pack_files(repo)
    os.remove(index)
    os.mkfifo(index)


def truncated_loose(repo):
    """HEAD's root tree, cut in half."""
    tree = git(repo, "rev-parse", "HEAD^{tree}")
    path = os.path.join(repo, ".git", "objects", tree[:2], tree[2:])
    os.chmod(path, 0o644)
    rewrite(path, lambda data: data[:len(data) // 2])


def garbage_loose(repo):
    tree = git(repo, "rev-parse", "HEAD^{tree}")
    path = os.path.join(repo, ".git", "objects", tree[:2], tree[2:])
    os.chmod(path, 0o644)
    rewrite(path, lambda data: b"garbage " * 20)


def missing_folder(repo):
    """HEAD's root gains a folder whose tree is nowhere."""
    root = git(repo, "rev-parse", "HEAD^{tree}")
    listing = git(repo, "ls-tree", root) + "\n040000 tree " + "2" * 40 + "\tgone\n"
    commit_on_head(repo, git(repo, "mktree", "--missing", data=listing.encode()), "gone")


def head_loop(repo):
    refs = os.path.join(repo, ".git", "refs", "heads")
    with open(os.path.join(repo, ".git", "HEAD"), "w") as f:
        f.write("ref: refs/heads/a\n")
    with open(os.path.join(refs, "a"), "w") as f:
        f.write("ref: refs/heads/b\n")
    with open(os.path.join(refs, "b"), "w") as f:
        f.write("ref: refs/heads/a\n")


def gitfile_nowhere(repo):
    shutil.rmtree(os.path.join(repo, ".git"))
    with open(os.path.join(repo, ".git"), "w") as f:
        f.write("gitdir: /nonexistent/tjrender/repo\n")


def deep_tree(repo, depth, name="d"):
    """HEAD gains `depth` nested folders, deep/NAME/NAME/..., and a ConfigMap
    in the innermost. Written as loose objects (no file system takes such a
    path)."""
    blob = write_object(repo, "blob", b"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: deep}\n")
    tree = write_object(repo, "tree", b"100644 deep.yaml\0" + bytes.fromhex(blob))
    for _ in range(depth - 1):
        tree = write_object(repo, "tree", b"40000 " + name.encode() + b"\0" + bytes.fromhex(tree))
    root = git(repo, "rev-parse", "HEAD^{tree}")
    listing = git(repo, "ls-tree", root) + f"\n040000 tree {tree}\tdeep\n"
    return commit_on_head(repo, git(repo, "mktree", data=listing.encode()), f"{depth} deep")


# What reads a revision: each must refuse the damage (exit 2, located).
# `check --since HEAD` compares HEAD's tree with the index and the files.
READS = {
    "render --rev HEAD": ["render", "--rev", "HEAD", "-o", "-"],
    "check --since HEAD": ["check", "--since", "HEAD"],
    "diff base HEAD": ["diff", "base", "HEAD"],
    "render --since base --rev HEAD": ["render", "--since", "base", "--rev", "HEAD", "-o", "-"],
}


def expect_refused(checks, what, repo, reads=READS, says=None):
    tool = tjrender()
    for command, args in reads.items():
        code, err, rss = run_bounded([tool, *args], repo)
        label = f"{what}: {command}"
        if code is None:
            checks.expect(False, f"{label}: no hang (killed after {TIMEOUT} s)")
            continue
        checks.expect(code >= 0, f"{label}: no crash" + (f" (signal {-code})" if code < 0 else ""), err[-1500:])
        checks.expect(code == 2, f"{label}: exit 2 (got {code})", err[-1500:])
        checks.expect(LOCATED.search(err) is not None, f"{label}: a located error", err[-1500:])
        if says is not None:
            checks.expect(says in err, f"{label}: says '{says}'", err[-1500:])
        checks.expect(rss <= MAX_RSS_KB, f"{label}: peak RSS {rss // 1024} MB within {MAX_RSS_KB // 1024} MB")


def main():
    checks = Checks()
    tool = tjrender()
    if shutil.which("git") is None:
        print("git is not installed")
        sys.exit(77)

    packed = sample_repo("packed")
    loose = sample_repo("loose", packed=False)
    clean = {}
    for name, repo in (("packed", packed), ("loose", loose)):
        code, err, _ = run_bounded([tool, "render", "--rev", "HEAD", "-o", "-"], repo)
        clean[name] = code
        checks.expect(code == 0, f"an undamaged {name} repository renders", err[-1500:])

    damages = {
        # libgit2: SIGSEGV (its 32-bit size check passes, lookups read past the map).
        "a fan-out table of 0xff": (pack_damage(set_fanout(0xffffffff)), "wrong index v2 file size"),
        "a fan-out of 153,391,690 objects (28 bytes each wrap 32 bits)":
            (pack_damage(set_fanout(153391690)), "wrong index v2 file size"),
        # libgit2: "object not found", naming neither file nor damage.
        "a truncated pack index": (pack_damage(lambda d: d[:len(d) // 2]), "damaged pack index: index file is too small"),
        "a pack index of 100 bytes": (pack_damage(lambda d: d[:100]), "index file is too small"),
        "a non-monotonic fan-out table": (pack_damage(non_monotonic), "non-monotonic index"),
        "a pack index one byte short": (pack_damage(lambda d: d[:-1]), "wrong index v2 file size"),
        "offsets past the end of the pack": (pack_damage(set_offsets(0x7ffffff0)), "beyond end of packfile"),
        "64-bit offsets the index lacks": (pack_damage(set_offsets(0x80000000 | 1000)), "beyond end of pack index"),
        "a pack with a bad header": (pack_damage(lambda d: b"JUNK" + d[4:], on_pack=True), "not a GIT packfile"),
        "a pack cut in half": (pack_damage(lambda d: d[:len(d) // 2], on_pack=True), "damaged pack"),
        "a pack with one object more than its index":
            (pack_damage(lambda d: d[:8] + struct.pack(">I", struct.unpack(">I", d[8:12])[0] + 1) + d[12:],
                         on_pack=True), "claims to have"),
        # libgit2: open() on the FIFO blocks forever.
        "a pack index that is a FIFO": (index_fifo, "not a regular file"),
    }
    for what, (damage, says) in damages.items():
        repo = os.path.join(WORK, "damaged")
        shutil.rmtree(repo, ignore_errors=True)
        shutil.copytree(packed, repo, symlinks=True)
        damage(repo)
        expect_refused(checks, what, repo, says=says)

    loose_damages = {
        # libgit2: git_zstream_get_output loops forever on a stream cut short.
        "a truncated loose tree": (truncated_loose, "damaged loose object"),
        "a loose tree of garbage": (garbage_loose, None),
        "a folder whose tree is missing": (missing_folder, None),
    }
    for what, (damage, says) in loose_damages.items():
        repo = os.path.join(WORK, "damaged")
        shutil.rmtree(repo, ignore_errors=True)
        shutil.copytree(loose, repo, symlinks=True)
        damage(repo)
        expect_refused(checks, what, repo, says=says)

    for what, damage in {"HEAD a symbolic-reference loop": head_loop, "a .git file pointing nowhere": gitfile_nowhere}.items():
        repo = os.path.join(WORK, "damaged")
        shutil.rmtree(repo, ignore_errors=True)
        shutil.copytree(loose, repo, symlinks=True)
        damage(repo)
        expect_refused(checks, what, repo)

    # 7,000 nested folders: every walk refuses them at Git's depth, located at
    # the first folders of the path. libgit2 and a recursive walk took
    # them down with SIGSEGV.
    deep = sample_repo("deep", packed=False)
    deep_tree(deep, 7000)
    expect_refused(checks, "7,000 nested folders in HEAD", deep, says="exceeded maximum allowed tree depth")

    # Exactly as deep as Git allows: read as usual, in memory linear in the
    # depth (a path per level held at once grows with its square).
    limit = sample_repo("limit", packed=False)
    deep_tree(limit, 4096)
    for command, args in READS.items():
        code, err, rss = run_bounded([tool, *args], limit)
        checks.expect(code in (0, 1), f"4,096 nested folders: {command}: exit 0 or 1 (got {code})", err[-1500:])
        checks.expect(rss <= MAX_RSS_KB, f"4,096 nested folders: {command}: peak RSS {rss // 1024} MB within "
                      f"{MAX_RSS_KB // 1024} MB")
    checks.done()


WORK = temp_dir("tjrender-hostile-git-")
if __name__ == "__main__":
    try:
        main()
    finally:
        shutil.rmtree(WORK, ignore_errors=True)
