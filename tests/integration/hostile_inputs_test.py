#!/usr/bin/env python3
"""tjrender on hostile input, as a CI gate or an Argo CD repo server meets it:
alias bombs, 10,000-level nesting, a 200 MB file, a million empty documents,
NUL bytes, invalid UTF-8, lone surrogates, 100 KB values in every
pattern-checked field, path tricks in names and namespaces, symbolic links out
of the tree. Each gives a clear error at FILE:LINE:COL (exit 2), a finding
(exit 1) or a correct result, never a crash, within a memory bound, and
nothing is written outside the output folder. No wall-clock limits: a slow
machine passes (meson's timeout guards against a hang)."""
import os
import re
import shutil
import subprocess
import sys

from common import SAMPLE_REPO, Checks, temp_dir, tjrender

# Peak resident memory any one run may use. The largest seen: 8.3 million
# block list items in a 63 MB file (the file and 2,000,000 nodes), about 350 MB.
MAX_RSS_KB = 512 * 1024
LOCATED = re.compile(r"^[^:\n]+:\d+:\d+: error: ", re.M)
TRAINJOB = """apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata:
  name: {name}
  namespace: {namespace}
spec:
  runtimeRef: {{name: torch-distributed}}
{extra}"""


# A child's peak RSS from wait4 includes its parent's at exec time (the kernel
# records the old address space's high-water mark on exec), and this test
# builds large inputs. So each run goes through a fresh, small Python that
# spawns the tool and reports the tool's own peak.
MEASURE = """import os, sys
pid = os.posix_spawn(sys.argv[2], sys.argv[2:], os.environ)
_, status, usage = os.wait4(pid, 0)
with open(sys.argv[1], "w") as f:
    f.write(str(usage.ru_maxrss))
sys.exit(os.waitstatus_to_exitcode(status) % 256 if os.waitstatus_to_exitcode(status) >= 0
         else 128 - os.waitstatus_to_exitcode(status))
"""


def run_bounded(args, cwd=None, stdin=None):
    """(exit code, stdout, stderr, peak RSS KB) of one run of the tool alone."""
    source = open(stdin, "rb") if stdin else open(os.devnull, "rb")
    out_path = os.path.join(WORK, "stdout")
    err_path = os.path.join(WORK, "stderr")
    rss_path = os.path.join(WORK, "rss")
    with source, open(out_path, "wb") as out, open(err_path, "wb") as err:
        code = subprocess.run([sys.executable, "-c", MEASURE, rss_path, *args], cwd=cwd, stdin=source,
                              stdout=out, stderr=err).returncode
    if code > 128:
        code = -(code - 128)  # killed by a signal, as Popen reports it
    with open(out_path, "rb") as out, open(err_path, "rb") as err, open(rss_path) as rss:
        return code, out.read().decode(errors="replace"), err.read().decode(errors="replace"), int(rss.read())


def write(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())


def repo_with(files):
    """A copy of the sample repository's runtimes plus `files`."""
    root = os.path.join(WORK, "repo")
    shutil.rmtree(root, ignore_errors=True)
    shutil.copytree(os.path.join(SAMPLE_REPO, "runtimes"), os.path.join(root, "runtimes"))
    for name, data in files.items():
        write(os.path.join(root, name), data)
    return root


def expect_sound(checks, what, result, codes, located=True):
    code, _, err, rss = result
    checks.expect(code in codes, f"{what}: exit {code} in {sorted(codes)}", err[-2000:])
    checks.expect(code >= 0, f"{what}: no crash (signal {-code})" if code < 0 else f"{what}: no crash")
    checks.expect(rss <= MAX_RSS_KB, f"{what}: peak RSS {rss // 1024} MB within {MAX_RSS_KB // 1024} MB")
    if located:
        checks.expect(LOCATED.search(err) is not None, f"{what}: error at FILE:LINE:COL", err[-2000:])


def main():
    checks = Checks()
    tool = tjrender()

    # Parsers: each file alone through `check`.
    bomb = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    bomb += [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]" for i in range(1, 12)]
    parsers = {
        "alias bomb": ("bomb.yaml", "\n".join(bomb) + "\n", {2}),
        "10,000-level block nesting": ("deep-block.yaml", "".join(" " * i + "a:\n" for i in range(10000)), {2}),
        "10,000-level flow nesting": ("deep-flow.yaml", "a: " + "[" * 10000 + "]" * 10000 + "\n", {2}),
        "10,000-level JSON arrays": ("deep.json", "[" * 10000 + "]" * 10000, {2}),
        "10,000-level JSON objects": ("deep-object.json", '{"a":' * 10000 + "1" + "}" * 10000, {2}),
        "a NUL byte": ("nul.yaml", b"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a\x00b}\n", {2}),
        "invalid UTF-8": ("utf8.yaml", b"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\ndata: {k: \"\xff\"}\n",
                          {2}),
        "an unterminated quote": ("quote.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: 'a\n", {2}),
    }
    for what, (name, data, codes) in parsers.items():
        path = os.path.join(WORK, name)
        write(path, data)
        expect_sound(checks, what, run_bounded([tool, "check", path]), codes)

    # 8.3 million list items in one TrainJob (63 MB, under the 64 MiB file limit): refused by
    # the per-document node bound before the tree grows past it, block and JSON alike. The files
    # are written in chunks: a child's peak RSS from wait4 includes this process's at exec time,
    # so the test itself must stay small.
    head = (b"apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nmetadata: {name: j, namespace: ml}\n"
            b"spec:\n  runtimeRef: {name: torch-distributed}\n  trainer:\n    args:\n")
    json_head = (b'{"apiVersion":"trainer.kubeflow.org/v1alpha1","kind":"TrainJob",'
                 b'"metadata":{"name":"j","namespace":"ml"},"spec":{"trainer":{"args":["a"')
    chunks = 83  # of 100,000 items: 8.3 million
    lists = {
        "8.3M block list items": ("items.yaml", head, b"    - a\n" * 100_000, b""),
        "8.3M JSON array items": ("items.json", json_head, b',"a"' * 100_000, b"]}}}"),
    }
    for what, (name, first, chunk, last) in lists.items():
        path = os.path.join(WORK, name)
        with open(path, "wb") as f:
            f.write(first)
            for _ in range(chunks):
                f.write(chunk)
            f.write(last)
        result = run_bounded([tool, "check", path])
        expect_sound(checks, what, result, {2})
        checks.expect("the document holds more than 2000000 " in result[2],
                      f"{what}: refused by the node bound", result[2][-500:])
        os.remove(path)

    # At the documented depth limit (1,000 levels) everything works: read, written as YAML, read
    # back and written as JSON gives the input again (the recursive walks are bounded by it).
    deep = "{\"a\":" * 999 + "1" + "}" * 999
    path = os.path.join(WORK, "deep-999.json")
    write(path, deep)
    as_yaml = subprocess.run([tool, "fmt", "-o", "yaml", path], capture_output=True)
    back = subprocess.run([tool, "fmt", "-o", "json", "-"], input=as_yaml.stdout, capture_output=True)
    checks.expect(as_yaml.returncode == 0 and back.returncode == 0 and
                  re.sub(rb"\s", b"", back.stdout) == deep.encode(),  # too deep for Python's json
                  "999 levels: fmt to YAML and back to JSON keeps the tree", (as_yaml.stderr + back.stderr)[-500:])

    # A million empty documents: nothing to check, read in bounded memory.
    path = os.path.join(WORK, "empty.yaml")
    write(path, b"---\n" * 1_000_000)
    expect_sound(checks, "a million empty documents", run_bounded([tool, "check", path]), {0}, located=False)

    # 200 MB: refused by its size before it is read, from a path or stdin.
    big = os.path.join(WORK, "big.yaml")
    with open(big, "wb") as f:
        f.write(b"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\ndata:\n  k: |\n")
        chunk = b"    line of text\n" * 65536
        for _ in range(200 * 1024 * 1024 // len(chunk)):
            f.write(chunk)
    result = run_bounded([tool, "check", big])
    expect_sound(checks, "a 200 MB file", result, {2}, located=False)
    checks.expect("larger than the limit" in result[2], "a 200 MB file: says it is over the limit", result[2])
    result = run_bounded([tool, "check", "-"], stdin=big)
    expect_sound(checks, "200 MB on stdin", result, {2}, located=False)
    checks.expect("larger than the limit" in result[2], "200 MB on stdin: says it is over the limit", result[2])
    os.remove(big)

    # A lone surrogate in a JSON TrainJob: read as encoding/json reads it.
    job = ('{"apiVersion":"trainer.kubeflow.org/v1alpha1","kind":"TrainJob","metadata":{"name":"s",'
           '"namespace":"ml","annotations":{"note":"a\\ud800b"}},"spec":{"runtimeRef":{"name":"torch-distributed"}}}')
    root = repo_with({"trainjobs/s.json": job})
    result = run_bounded([tool, "render", ".", "-o", "-"], cwd=root)
    expect_sound(checks, "a lone surrogate", result, {0}, located=False)

    # 100 KB in every field a pattern or format checks.
    long = "a" * 100_000
    fields = {
        "metadata.name": dict(name=long, namespace="ml", extra=""),
        "metadata.namespace": dict(name="j", namespace=long, extra=""),
        "runtimePatches[].manager": dict(name="j", namespace="ml",
                                         extra=f"  runtimePatches: [{{manager: {long}}}]\n"),
        "runtimePatches[].time": dict(name="j", namespace="ml",
                                      extra=f"  runtimePatches: [{{manager: a.io/m, time: '2026-01-01T00:00:00.{'5' * 100_000}Z'}}]\n"),
        "initializer storageUri": dict(name="j", namespace="ml",
                                       extra=f"  initializer: {{dataset: {{storageUri: 'hf://{long}'}}}}\n"),
        "runtimeRef.name": dict(name="j", namespace="ml", extra=""),
    }
    for what, values in fields.items():
        text = TRAINJOB.format(**values)
        if what == "runtimeRef.name":
            text = text.replace("name: torch-distributed", "name: " + long)
        root = repo_with({"trainjobs/j.yaml": text})
        result = run_bounded([tool, "check", "--target", "trainer-v2.3", "."], cwd=root)
        if what == "runtimePatches[].time":
            # A valid date-time however long its fraction (kube-openapi
            # strfmt): a correct result, no finding needed.
            expect_sound(checks, f"100 KB {what}", result, {0, 1}, located=False)
        else:
            expect_sound(checks, f"100 KB {what}", result, {1, 2})

    # Path tricks in names and namespaces: findings, and nothing written
    # outside the output folder.
    outside = os.path.join(WORK, "outside")
    os.makedirs(outside, exist_ok=True)
    for name, namespace in [("a/../../b", "ml"), ("..", "ml"), ("ok", "../../outside"), ("ok", "a/b"),
                            ("ok", "..")]:
        root = repo_with({"trainjobs/j.yaml": TRAINJOB.format(name=f'"{name}"', namespace=f'"{namespace}"',
                                                              extra="")})
        what = f"name {name!r} namespace {namespace!r}"
        expect_sound(checks, what + " -o -", run_bounded([tool, "render", ".", "-o", "-"], cwd=root), {1, 2})
        out = os.path.join(root, "out")
        result = run_bounded([tool, "render", ".", "--out", out], cwd=root)
        expect_sound(checks, what + " --out", result, {1, 2}, located=False)
        checks.expect(os.listdir(outside) == [], what + ": nothing written outside the output folder")

    # Symbolic links out of the tree, on disk and in a Git revision: never
    # followed to a file outside the repository.
    secret = os.path.join(WORK, "secret.yaml")
    write(secret, TRAINJOB.format(name="secret", namespace="ml", extra=""))
    root = repo_with({"trainjobs/j.yaml": TRAINJOB.format(name="j", namespace="ml", extra="")})
    os.symlink(secret, os.path.join(root, "trainjobs", "link.yaml"))
    os.symlink(WORK, os.path.join(root, "trainjobs", "dir-link"))
    result = run_bounded([tool, "render", ".", "-o", "-"], cwd=root)
    checks.expect(result[0] in (0, 1, 2) and "name: secret" not in result[1],
                  "a symbolic link out of the tree (disk): not followed", result[2][-2000:])
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@example.com"]
    subprocess.run(git + ["init", "-q", root], check=True)
    subprocess.run(git + ["-C", root, "add", "-A"], check=True)
    subprocess.run(git + ["-C", root, "commit", "-qm", "links"], check=True)
    result = run_bounded([tool, "render", "--rev", "HEAD", ".", "-o", "-"], cwd=root)
    checks.expect(result[0] in (0, 1, 2) and "name: secret" not in result[1],
                  "a symbolic link out of the tree (--rev): not followed", result[2][-2000:])
    checks.expect(result[0] >= 0, "a symbolic link out of the tree (--rev): no crash")

    checks.done()


WORK = temp_dir("tjrender-hostile-")
try:
    main()
finally:
    shutil.rmtree(WORK, ignore_errors=True)
