#!/usr/bin/env python3
"""No input is quadratic: each shape of input is run at size n and 4n, and the
CPU time (user + system, from wait4's rusage, so a loaded machine does not
flake) may grow about 4x, not 16x. Shapes: a Helm post-renderer stream of
many documents, a KRM ResourceList of many items, one TrainJob mapping of
many keys (unknown under spec, spec.labels and spec.annotations, whose
values reach the JobSet), a long env list, many include patterns in
.tjrender.yaml over many files, many TrainJobs in one file, many findings
in one file. A ratio above MAX_RATIO is measured once more before it fails;
the figures are printed."""
import os
import shutil
import subprocess
import sys

from common import TORCH_RUNTIME, Checks, temp_dir, tjrender

# Linear growth gives about 4 (less, with a fixed start-up cost); quadratic 16.
MAX_RATIO = 8.0
# Below this the start-up cost dominates and the ratio says nothing.
MIN_SECONDS = 0.05
WORK = temp_dir("tjrender-growth-")


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def trainjob(name, spec="", metadata=""):
    return (f"apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nmetadata:\n  name: {name}\n"
            f"  namespace: team\n{metadata}spec:\n  runtimeRef: {{name: torch-distributed}}\n{spec}")


def config_map(i):
    return f"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c{i}\ndata:\n  a: b\n"


def repo(files):
    """A fresh repository: the torch runtime and `files`."""
    root = os.path.join(WORK, "repo")
    shutil.rmtree(root, ignore_errors=True)
    write(os.path.join(root, "runtime.yaml"), TORCH_RUNTIME)
    for name, text in files.items():
        write(os.path.join(root, name), text)
    return root


def stream(text):
    path = os.path.join(WORK, "stdin.yaml")
    write(path, text)
    return path


# Each shape: (name, n, exit codes, make(n) -> (args, stdin path or None)).
def post_render_empty_documents(n):
    return ["post-render"], stream("---\n" * n)


def post_render_config_maps(n):
    return ["post-render"], stream("---\n".join(config_map(i) for i in range(n)))


def post_render_trainjobs(n):
    text = TORCH_RUNTIME + "".join("---\n" + trainjob(f"j{i}") for i in range(n))
    return ["post-render", "--mode", "render", "--namespace", "team"], stream(text)


def krm_items(n):
    docs = [TORCH_RUNTIME] + [config_map(i) for i in range(n)]
    items = "".join("- " + d.replace("\n", "\n  ").rstrip() + "\n" for d in docs)
    return ["krm"], stream("apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n" + items)


def spec_keys(command):
    def make(n):
        root = repo({"job.yaml": trainjob("big", "".join(f"  k{i}: v\n" for i in range(n)))})
        return ([command, root] + (["-o", "-"] if command == "render" else [])), None
    return make


def spec_map(field):
    def make(n):
        entries = "".join(f"    key-{i}: v\n" for i in range(n))
        root = repo({"job.yaml": trainjob("big", f"  {field}:\n{entries}")})
        return ["render", root, "--target", "trainer-v2.1", "-o", "-"], None
    return make


def trainer_env(n):
    env = "".join(f"    - {{name: E{i}, value: v}}\n" for i in range(n))
    return ["render", repo({"job.yaml": trainjob("big", "  trainer:\n    env:\n" + env)}), "-o", "-"], None


def include_patterns(n):
    # n patterns over n / 25 files (the issue: 50,000 over 2,000).
    files = {f"trainjobs/job-{i}.yaml": trainjob(f"job-{i}") for i in range(n // 25)}
    root = repo(files)
    patterns = "".join(f"- trainjobs/old-{i}.yaml\n- team-{i}-*/**\n- '**/*.v{i}'\n" for i in range(n // 3))
    write(os.path.join(root, ".tjrender.yaml"), "include:\n" + patterns + "- '*.yaml'\n")
    return ["check", root], None


def trainjobs_in_one_file(n):
    return ["check", repo({"jobs.yaml": "".join("---\n" + trainjob(f"j{i}") for i in range(n))})], None


def findings_in_one_file(n):
    text = "".join("---\n" + trainjob(f"j{i}", "  bogus: 1\n") for i in range(n))
    return ["check", repo({"jobs.yaml": text})], None


SHAPES = [
    ("post-render: empty documents", 50_000, {0}, post_render_empty_documents),
    ("post-render: ConfigMaps", 5_000, {0}, post_render_config_maps),
    ("post-render --mode render: TrainJobs", 1_000, {0}, post_render_trainjobs),
    ("krm: items", 10_000, {0}, krm_items),
    ("check: keys under spec", 40_000, {0}, spec_keys("check")),
    ("render: keys under spec", 40_000, {0}, spec_keys("render")),
    ("render v2.1: spec.labels", 20_000, {0}, spec_map("labels")),
    ("render v2.1: spec.annotations", 20_000, {0}, spec_map("annotations")),
    ("render: trainer env", 10_000, {0, 1}, trainer_env),
    ("check: include patterns over files", 12_000, {0}, include_patterns),
    ("check: TrainJobs in one file", 1_000, {0}, trainjobs_in_one_file),
    ("check: findings in one file", 1_000, {0}, findings_in_one_file),
]


def cpu_seconds(args, stdin):
    """(exit code, user + system seconds) of one run of the tool."""
    with open(stdin or os.devnull, "rb") as source, open(os.path.join(WORK, "out"), "wb") as out, \
            open(os.path.join(WORK, "err"), "wb") as err:
        child = subprocess.Popen([tjrender()] + args, stdin=source, stdout=out, stderr=err)
        _, status, usage = os.wait4(child.pid, 0)
    return os.waitstatus_to_exitcode(status), usage.ru_utime + usage.ru_stime


def measure(make, n, codes, checks, name):
    times = []
    for size in (n, 4 * n):
        args, stdin = make(size)
        code, seconds = cpu_seconds(args, stdin)
        if code not in codes:
            with open(os.path.join(WORK, "err"), errors="replace") as err:
                checks.expect(False, f"{name}: exit {code} at {size}, expected {sorted(codes)}", err.read()[-1500:])
            return None
        times.append(seconds)
    return times


def main():
    checks = Checks()
    only = os.environ.get("TJRENDER_GROWTH_ONLY")
    for name, n, codes, make in SHAPES:
        if only and only not in name:
            continue
        ratio = None
        for attempt in (1, 2):  # once more to absorb a noisy measurement
            times = measure(make, n, codes, checks, name)
            if times is None:
                break
            small, large = times
            ratio = large / max(small, MIN_SECONDS)
            print(f"     {name}: n={n} {small:.2f} s, 4n {large:.2f} s, ratio {ratio:.1f}"
                  + (" (again)" if attempt == 2 else ""))
            if ratio < MAX_RATIO:
                break
        if ratio is not None:
            checks.expect(ratio < MAX_RATIO, f"{name}: CPU time grows {ratio:.1f}x for 4x the input (< {MAX_RATIO})")
    shutil.rmtree(WORK, ignore_errors=True)
    checks.done()


if __name__ == "__main__":
    main()
