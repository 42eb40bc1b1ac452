#!/usr/bin/env python3
"""No input is quadratic: each shape of input is run at size n and 4n, and the
CPU time (user + system, from wait4's rusage, so a loaded machine does not
flake) may grow about 4x, not 16x. Shapes: Helm post-renderer streams of many
documents, KRM ResourceLists of many items and of many findings on items of
one file, one TrainJob mapping of many keys (unknown under spec; spec.labels
and spec.annotations, which reach the JobSet), a long env list, many
podTemplateOverrides and many labels in one, many include patterns in
.tjrender.yaml over many files, many TrainJobs and many findings in one
file. A ratio above MAX_RATIO is measured once more before it fails; the
figures are printed. Inputs quadratic by nature are bounded: past the bound
the run is refused at once, with the bound named at the list.
"""
import os
import re
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


def namespaced(n, other_namespace):
    """n TrainingRuntimes, one per namespace, and a TrainJob in each naming it
    (or, with other_namespace, sitting in another namespace than its runtime)."""
    runtime = TORCH_RUNTIME.replace("kind: ClusterTrainingRuntime", "kind: TrainingRuntime")
    docs = []
    for i in range(n):
        docs.append(runtime.replace("metadata:\n", f"metadata:\n  namespace: r{i}\n", 1))
        job = trainjob(f"j{i}").replace("runtimeRef: {name: torch-distributed}",
                                        "runtimeRef: {name: torch-distributed, kind: TrainingRuntime}")
        docs.append(job if other_namespace else job.replace("namespace: team", f"namespace: r{i}"))
    return "".join("---\n" + d for d in docs)


def post_render_namespaced_runtimes(n):
    return ["post-render", "--namespace", "team"], stream(namespaced(n, True))


def render_namespaced_runtimes(n):
    return ["render", repo({"all.yaml": namespaced(n, False)}), "-o", "-"], None


def krm_items(n):
    docs = [TORCH_RUNTIME] + [config_map(i) for i in range(n)]
    items = "".join("- " + d.replace("\n", "\n  ").rstrip() + "\n" for d in docs)
    return ["krm"], stream("apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n" + items)


def krm_findings_in_one_file(n):
    # Items of one file (kpt's path and index annotations), each with a finding.
    def item(i):
        return (f"- apiVersion: trainer.kubeflow.org/v1alpha1\n  kind: TrainJob\n  metadata:\n    name: j{i}\n"
                f"    namespace: team\n    annotations:\n      config.kubernetes.io/path: jobs.yaml\n"
                f"      config.kubernetes.io/index: '{i}'\n  spec:\n    runtimeRef: {{name: torch-distributed}}\n"
                f"    bogus: 1\n")
    runtime = "- " + TORCH_RUNTIME.replace("\n", "\n  ").rstrip() + "\n"
    items = runtime + "".join(item(i) for i in range(n))
    return ["krm"], stream("apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n" + items)


def spec_keys(command):
    def make(n):
        root = repo({"job.yaml": trainjob("big", "".join(f"  k{i}: v\n" for i in range(n)))})
        return ([command, root] + (["-o", "-"] if command == "render" else [])), None
    return make


def spec_map(field, command):
    def make(n):
        entries = "".join(f"    key-{i}: v\n" for i in range(n))
        root = repo({"job.yaml": trainjob("big", f"  {field}:\n{entries}")})
        return [command, root, "--target", "trainer-v2.1"] + (["-o", "-"] if command == "render" else []), None
    return make


def trainer_env(n):
    env = "".join(f"    - {{name: E{i}, value: v}}\n" for i in range(n))
    return ["render", repo({"job.yaml": trainjob("big", "  trainer:\n    env:\n" + env)}), "-o", "-"], None


def pod_template_overrides(n):
    overrides = "".join(f"  - targetJobs: [{{name: node}}]\n    metadata: {{labels: {{l{i}: v}}}}\n" for i in range(n))
    root = repo({"job.yaml": trainjob("big", "  podTemplateOverrides:\n" + overrides)})
    return ["render", root, "--target", "trainer-v2.1", "-o", "-"], None


def include_patterns(n):
    # n patterns over n / 25 files (the issue: 50,000 over 2,000).
    files = {f"trainjobs/job-{i}.yaml": trainjob(f"job-{i}") for i in range(n // 25)}
    root = repo(files)
    # Literal, literal-start and literal-end patterns; short, as .tjrender.yaml holds at most 1 MiB.
    patterns = "".join(f"- t/o{i}.yaml\n- t{i}-*/**\n- '**/*.v{i}'\n" for i in range(n // 3))
    write(os.path.join(root, ".tjrender.yaml"), "include:\n" + patterns + "- '*.yaml'\n")
    return ["check", root], None


def override_labels(n):
    labels = "".join(f"        l{i}: v\n" for i in range(n))
    over = "  podTemplateOverrides:\n  - targetJobs: [{name: node}]\n    metadata:\n      labels:\n" + labels
    return ["render", repo({"job.yaml": trainjob("big", over)}), "--target", "trainer-v2.1", "-o", "-"], None


def override_volumes(n):
    volumes = "".join(f"      - {{name: v{i}, emptyDir: {{}}}}\n" for i in range(n))
    over = "  podTemplateOverrides:\n  - targetJobs: [{name: node}]\n    spec:\n      volumes:\n" + volumes
    return ["render", repo({"job.yaml": trainjob("big", over)}), "--target", "trainer-v2.1", "-o", "-"], None


def merged_volumes(n):
    # The runtime's pod holds n volumes and an override n more: one list merge of 2n.
    runtime = TORCH_RUNTIME + "                  volumes:\n" + "".join(
        f"                    - {{name: r{i}, emptyDir: {{}}}}\n" for i in range(n))
    root = repo({})
    write(os.path.join(root, "runtime.yaml"), runtime)
    volumes = "".join(f"      - {{name: v{i}, emptyDir: {{}}}}\n" for i in range(n))
    over = "  podTemplateOverrides:\n  - targetJobs: [{name: node}]\n    spec:\n      volumes:\n" + volumes
    write(os.path.join(root, "job.yaml"), trainjob("big", over))
    return ["render", root, "--target", "trainer-v2.1", "-o", "-"], None


def trainjobs_in_one_file(n):
    return ["check", repo({"jobs.yaml": "".join("---\n" + trainjob(f"j{i}") for i in range(n))})], None


def findings_in_one_file(n):
    text = "".join("---\n" + trainjob(f"j{i}", "  bogus: 1\n") for i in range(n))
    return ["check", repo({"jobs.yaml": text})], None


SHAPES = [
    ("post-render: empty documents", 50_000, {0}, post_render_empty_documents),
    ("post-render: ConfigMaps", 5_000, {0}, post_render_config_maps),
    ("post-render --mode render: TrainJobs", 1_000, {0}, post_render_trainjobs),
    ("post-render: TrainJobs and runtimes in other namespaces", 1_000, {0, 1}, post_render_namespaced_runtimes),
    ("render: TrainJobs and runtimes of their namespaces", 500, {0}, render_namespaced_runtimes),
    ("krm: items", 10_000, {0}, krm_items),
    ("krm: findings on items of one file", 1_000, {0}, krm_findings_in_one_file),
    ("check: keys under spec", 40_000, {0}, spec_keys("check")),
    ("render: keys under spec", 40_000, {0}, spec_keys("render")),
    ("render v2.1: spec.labels", 20_000, {0}, spec_map("labels", "render")),
    # 4n annotations pass the 256 KiB the API server allows the JobSet
    # (rendered/jobset/annotations): exit 1 there.
    ("render v2.1: spec.annotations", 20_000, {0, 1}, spec_map("annotations", "render")),
    ("check v2.1: spec.annotations", 20_000, {0, 1}, spec_map("annotations", "check")),
    ("render: trainer env", 10_000, {0, 1}, trainer_env),
    ("render v2.1: podTemplateOverrides", 250, {0}, pod_template_overrides),
    ("render v2.1: labels of an override", 10_000, {0}, override_labels),
    ("render v2.1: volumes of an override", 1_000, {0}, override_volumes),
    ("check: include patterns over files", 12_000, {0}, include_patterns),
    ("check: TrainJobs in one file", 1_000, {0}, trainjobs_in_one_file),
    ("check: findings in one file", 1_000, {0}, findings_in_one_file),
]


# Inputs whose work is quadratic by nature (each override and each merged
# list item is compared with what came before, upstream as here) are
# bounded: past the bound, a located error names it, at once.
REFUSED = [
    ("podTemplateOverrides past 1000", 1_001, pod_template_overrides, r"job\.yaml:\d+:\d+: error: spec\.podTemplateOverrides: holds 1001 entries; tjrender merges at most 1000"),
    ("a list merge past 5000 items", 2_501, merged_volumes, r"job\.yaml:\d+:\d+: error: .*tjrender merges lists of at most 5000 items"),
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
    for name, n, make, message in REFUSED:
        if only and only not in name:
            continue
        args, stdin = make(n)
        code, seconds = cpu_seconds(args, stdin)
        with open(os.path.join(WORK, "err"), errors="replace") as err:
            text = err.read()
        print(f"     {name}: exit {code} in {seconds:.2f} s")
        checks.expect(code == 1 and re.search(message, text) is not None, f"{name}: refused with the bound named", text[-1500:])
    shutil.rmtree(WORK, ignore_errors=True)
    checks.done()


if __name__ == "__main__":
    main()
