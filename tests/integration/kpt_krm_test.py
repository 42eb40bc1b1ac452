#!/usr/bin/env python3
"""`tjrender krm` run by kpt itself (`kpt fn eval DIR --exec ...`), which writes
the function's items back into the package's files.

- validate leaves a package byte for byte as it was: comments, quoting, flow
  style, anchors, key order, multi-document files. kpt re-formats some things
  on its own whatever the function returns (CRLF, a leading `---`, blank lines,
  multi-line flow collections, `>-` scalars, trailing comments); for those the
  package must end up exactly as after an identity function (`cat`).
- results: kpt parses them (printed, and `--results-dir`); errors and warnings
  name the file and line on disk and carry field.path.
- --output unwrap leaves the package alone; render in place replaces the
  TrainJob and runtime files and keeps every other document byte for byte.
Exit 77 (skipped) without kpt."""
import json
import os
import shutil
import subprocess

from common import SOURCE_ROOT, Checks, run, skip, temp_dir, tjrender

KUSTOMIZE_DIR = os.path.join(SOURCE_ROOT, "integrations", "kustomize")

RUNTIME = """# The runtime every job here uses.
apiVersion: trainer.kubeflow.org/v1alpha1
kind: ClusterTrainingRuntime
metadata:
  name: torch-distributed
  labels: {trainer.kubeflow.org/framework: torch}
spec:
  mlPolicy:
    numNodes: 1
    torch:
      numProcPerNode: auto
  template:
    spec:
      replicatedJobs:
        - name: node # wide lists stay wide
          template:
            metadata:
              labels:
                trainer.kubeflow.org/trainjob-ancestor-step: trainer
            spec:
              template:
                spec:
                  containers:
                    - name: node
                      image: "pytorch/pytorch:2.7.1-cuda12.8-cudnn9-runtime"
"""
SETTINGS = """# Settings the job reads.
apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
  labels: {app: demo, tier: "ml"}
  annotations:
    team: 'ml'
data:
  n: '007'
  "on": "yes"
  anchor: &shared value
  alias: *shared
  script: |
    #!/bin/sh
    echo "hi"
"""
TRAINJOB = """# The job.
apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata:
  name: pytorch-job
  namespace: ml-team
spec:
  runtimeRef:
    name: torch-distributed # cluster-wide
  trainer:
    numNodes: 2
    command:
    - torchrun
    - train.py
    args: ["--epochs", '3']
"""
# What kpt itself rewrites, whatever the function returns.
ODD = ("---\r\n# leading marker, CRLF, blank lines\r\n\r\napiVersion: v1\r\nkind: ConfigMap\r\n"
       "metadata:\r\n  name: crlf   \r\n  labels: {\r\n    a: b\r\n  }\r\ndata:\r\n"
       "  folded: >-\r\n    one\r\n    two\r\n# foot comment\r\n...\r\n")
BROKEN = """apiVersion: v1
kind: ConfigMap
metadata:
  name: first
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: second
  annotations:
    note: kpt adds its annotations after this one
data:
  k: v
---
apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata:
  name: lonely
  namespace: ml-team
spec:
  runtimeRef:
    name: absent
"""
HELPER = """apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata:
  name: helper-job
  namespace: ml-team
spec:
  runtimeRef:
    name: torch-distributed
  podTemplateOverrides:
    - targetJobs:
        - name: node
      spec:
        containers:
          - name: helper
"""


def write_package(root, files):
    for name, text in files.items():
        path = os.path.join(root, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", newline="") as f:
            f.write(text)


def tree(root):
    """Every file under root: relative path -> bytes."""
    out = {}
    for directory, _, names in os.walk(root):
        for name in names:
            path = os.path.join(directory, name)
            with open(path, "rb") as f:
                out[os.path.relpath(path, root)] = f.read()
    return out


def kpt_eval(kpt, package, function, *extra):
    return run([kpt, "fn", "eval", package, "--exec", function, *extra], timeout=180)


def yaml_as_json(tool, path):
    text = run([tool, "fmt", "-o", "json", path]).stdout
    return json.loads(text) if text.strip() else {}


def line_of(text, needle):
    """1-based line and column of the first line holding `needle`."""
    for number, line in enumerate(text.split("\n"), 1):
        if needle in line:
            return number, line.index(needle) + 1
    return 0, 0


def path_with(tool, work, *dirs):
    """PATH with `tjrender` (the binary under test) and `dirs` first."""
    bin_dir = os.path.join(work, "bin")
    os.makedirs(bin_dir, exist_ok=True)
    link = os.path.join(bin_dir, "tjrender")
    if not os.path.exists(link):
        os.symlink(tool, link)
    return os.pathsep.join([bin_dir, *dirs, os.environ.get("PATH", "")])


def readme_commands(kpt, tool, checks, work, stable):
    """The kpt commands of docs/integrations.md, run as written in a folder with manifests/."""
    with open(os.path.join(SOURCE_ROOT, "docs", "integrations.md")) as f:
        readme = f.read()
    section = readme[readme.index("**kpt.**"):readme.index("**kustomize.**")]
    block = section[section.index("```sh\n") + 6:]
    commands = [line for line in block[:block.index("```")].split("\n") if line.startswith("kpt ")]
    checks.expect(len(commands) == 4, "docs/integrations.md: four kpt commands", str(commands))
    cwd = os.path.join(work, "readme")
    write_package(os.path.join(cwd, "manifests"), stable)
    env = dict(os.environ, PATH=path_with(tool, work))
    want = {"manifests/" + k: v.encode() for k, v in stable.items()}
    for command in commands:
        done = run(["sh", "-c", command], cwd=cwd, env=env, timeout=180)
        files = {k: v for k, v in tree(cwd).items() if k.startswith("manifests/")}
        checks.expect(done.returncode == 0 and files == want, "docs/integrations.md: " + command, done.stderr)
    checks.expect(os.path.exists(os.path.join(cwd, "results", "results.yaml")), "docs/integrations.md: --results-dir wrote results")
    with open(os.path.join(cwd, "rendered.yaml")) as f:
        rendered = f.read()
    checks.expect("\nkind: JobSet\n" in rendered and "\nkind: TrainJob\n" not in "\n" + rendered and
                  "# Settings the job reads." in rendered, "docs/integrations.md: render to stdout gives the JobSet and the "
                  "other objects as written", rendered[:400])


def shipped_kustomize_files(kpt, tool, checks, work, stable):
    """integrations/kustomize as kustomize runs it: exec.path alone (kustomize
    before v5.7 refuses exec.args), no arguments, the ConfigMap as
    functionConfig. kustomize itself is not installed here; kpt runs the
    function the same way (the ResourceList on stdin)."""
    config_path = os.path.join(KUSTOMIZE_DIR, "validator.yaml")
    config = yaml_as_json(tool, config_path)
    spec = config.get("metadata", {}).get("annotations", {}).get("config.kubernetes.io/function", "")
    checks.expect(spec.strip().split("\n") == ["exec:", "  path: tjrender-krm"],
                  "validator.yaml: exec.path only, a name looked up on PATH", spec)
    checks.expect(config.get("data") == {"mode": "validate"}, "validator.yaml: validate mode")
    package = os.path.join(work, "kustomize-pkg")
    write_package(package, stable)
    env = dict(os.environ, PATH=path_with(tool, work, KUSTOMIZE_DIR))
    validated = run([kpt, "fn", "eval", package, "--exec", "tjrender-krm", "--fn-config", config_path],
                    env=env, timeout=180)
    checks.expect(validated.returncode == 0 and tree(package) == {k: v.encode() for k, v in stable.items()},
                  "tjrender-krm with validator.yaml validates, files unchanged", validated.stderr)
    render_config = os.path.join(work, "render.yaml")
    with open(config_path) as f, open(render_config, "w") as out:
        out.write(f.read().replace("mode: validate", "mode: render"))
    rendered = run([kpt, "fn", "eval", package, "--exec", "tjrender-krm", "--fn-config", render_config,
                    "--output", "unwrap"], env=env, timeout=180)
    checks.expect(rendered.returncode == 0 and "kind: JobSet" in rendered.stdout,
                  "tjrender-krm with data.mode: render renders", rendered.stderr)

    kubectl = shutil.which("kubectl")
    if not kubectl:
        print("kubectl is not installed: the kubectl kustomize checks are skipped")
        return
    # docs/integrations.md: `kubectl kustomize` cannot run exec functions.
    base = os.path.join(work, "kustomize-base")
    write_package(base, {"kustomization.yaml": "resources:\n- job.yaml\nvalidators:\n- tjrender.yaml\n",
                         "job.yaml": TRAINJOB.replace("# The job.\n", ""),
                         "tjrender.yaml": open(config_path).read()})
    marker = os.path.join(work, "ran")
    spy = os.path.join(work, "spy")
    os.makedirs(spy, exist_ok=True)
    with open(os.path.join(spy, "tjrender-krm"), "w") as f:
        f.write(f"#!/bin/sh\ntouch {marker}\nexec tjrender krm \"$@\"\n")
    os.chmod(os.path.join(spy, "tjrender-krm"), 0o755)
    env = dict(os.environ, PATH=path_with(tool, work, spy))
    flag = run([kubectl, "kustomize", "--enable-alpha-plugins", "--enable-exec", base], env=env)
    checks.expect(flag.returncode != 0 and "unknown flag: --enable-exec" in flag.stderr,
                  "kubectl kustomize has no --enable-exec", flag.stderr)
    plugins = run([kubectl, "kustomize", "--enable-alpha-plugins", base], env=env)
    checks.expect(plugins.returncode != 0 and not os.path.exists(marker),
                  "kubectl kustomize --enable-alpha-plugins does not run the exec function", plugins.stderr)


LICENSED = """# Copyright 2025 The Authors.
#
# Licensed under the Apache License, Version 2.0.

apiVersion: v1
kind: ConfigMap
metadata:
  name: first
---
apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata:
  name: licensed
spec:
  runtimeRef:
    name: platform-torch
  trainer:
    numNodes: 0
"""
PLATFORM_RUNTIME = RUNTIME.replace("name: torch-distributed", "name: platform-torch")


def package_folder_runs(kpt, tool, checks, work):
    """kpt run in the package folder, as `kpt fn render` and `kpt fn eval .`
    are: a licence header separated by a blank line (kyaml leaves it out of
    the item), a --match-kind selection (only the TrainJob is sent, marked
    with kpt-resource-id), a TrainJob without a namespace and a duplicate;
    runtimes from a path outside the package; the Kptfile pipeline."""
    package = os.path.join(work, "licensed")
    write_package(package, {"jobs.yaml": LICENSED})
    write_package(os.path.join(work, "platform"), {"runtime.yaml": PLATFORM_RUNTIME})
    env = dict(os.environ, PATH=path_with(tool, work))
    line, column = line_of(LICENSED, "numNodes: 0")
    where = f"jobs.yaml:{line}:{column + len('numNodes: ')}"

    def evaluate(*extra):
        return run([kpt, "fn", "eval", ".", "--exec", "tjrender krm", "--output", "unwrap", *extra],
                   cwd=package, env=env, timeout=180)

    # The runtime comes from ../platform (a function argument, the
    # functionConfig's data.runtime-paths).
    missing = evaluate()
    checks.expect(missing.returncode != 0 and "platform-torch" in missing.stderr,
                  "kpt: without runtime-paths the platform's runtime is not found", missing.stderr)
    for selection in ([], ["--match-kind", "TrainJob"]):
        done = evaluate(*selection, "--", "runtime-paths=../platform")
        label = " ".join(selection) or "every document"
        checks.expect(done.returncode == 0 and f"{where}: [num-nodes-zero]" in done.stderr,
                      f"kpt ({label}): the line past a licence header is the file's ({where})", done.stderr)
        checks.expect("tjrender-untold-namespace" not in done.stderr and "<stdin>" not in done.stderr,
                      f"kpt ({label}): no stand-in namespace, no line of the ResourceList", done.stderr)
        checks.expect("[warning] trainer.kubeflow.org/v1alpha1/TrainJob/licensed spec.trainer.numNodes" in done.stderr,
                      f"kpt ({label}): the resourceRef is the TrainJob as written, without a namespace", done.stderr)

    # kpt run from elsewhere, naming the package (as docs/integrations.md's
    # commands do): the same lines, and runtime-paths is still taken from the
    # package folder (../platform), not from where kpt was started.
    outside = run([kpt, "fn", "eval", "licensed", "--exec", "tjrender krm", "--output", "unwrap", "--",
                   "runtime-paths=../platform"], cwd=work, env=env, timeout=180)
    checks.expect(outside.returncode == 0 and f"{where}: [num-nodes-zero]" in outside.stderr,
                  f"kpt fn eval licensed (run from its parent folder): {where}", outside.stderr)

    # A Kptfile pipeline is part of the package, so its relative paths are
    # the package's: the same Kptfile works whether kpt is given the package
    # from its parent or run inside it (kpt runs an exec function in its own
    # working directory: pkg/fn/runtime/exec.go ExecFn.Run sets no Dir).
    # Both the functionConfig's data.runtime-paths and --runtimes on the
    # exec line.
    for name, validator in (("config", "    - exec: tjrender krm\n      configMap:\n        runtime-paths: ../platform\n"),
                            ("flag", "    - exec: tjrender krm --runtimes ../platform\n")):
        pinned = os.path.join(work, "pinned-" + name)
        write_package(pinned, {"jobs.yaml": LICENSED,
                               "Kptfile": "apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: pinned\n"
                                          "pipeline:\n  validators:\n" + validator})
        before = tree(pinned)
        for cwd, named in ((work, "pinned-" + name), (pinned, ".")):
            label = f"kpt fn render {named} --allow-exec (run in {'its parent' if cwd == work else 'the package'}, {name})"
            rendered = run([kpt, "fn", "render", named, "--allow-exec"], cwd=cwd, env=env, timeout=180)
            checks.expect(rendered.returncode == 0 and f"{where}: [num-nodes-zero]" in rendered.stderr and
                          "cannot stat" not in rendered.stderr and tree(pinned) == before,
                          label + ": ../platform is beside the package, the runtime is found", rendered.stderr)

    # A duplicate names the other copy's file.
    write_package(package, {"copy.yaml": LICENSED.split("---\n")[1]})
    twice = evaluate("--", "runtime-paths=../platform")
    checks.expect(twice.returncode != 0 and
                  "copy.yaml:1:1: [duplicate-object] duplicate TrainJob licensed: also defined at jobs.yaml:10:1" in twice.stderr,
                  "kpt: a duplicate names the other copy's file and line", twice.stderr)
    os.remove(os.path.join(package, "copy.yaml"))

    # docs/integrations.md: the Kptfile pipeline, run by `kpt fn render`.
    with open(os.path.join(SOURCE_ROOT, "docs", "integrations.md")) as f:
        readme = f.read()
    section = readme[readme.index("**kpt fn render.**"):readme.index("**kustomize.**")]
    kptfile = section[section.index("```yaml\n") + 8:]
    kptfile = kptfile[:kptfile.index("```")]
    command = section[section.index("```sh\n") + 6:]
    command = command[:command.index("```")].strip()
    checks.expect(command == "kpt fn render manifests/ --allow-exec", "docs: the kpt fn render command", command)
    pipeline_root = os.path.join(work, "pipeline")
    write_package(os.path.join(pipeline_root, "manifests"),
                  {"Kptfile": kptfile, "jobs.yaml": LICENSED.replace("platform-torch", "torch-distributed"),
                   "runtime.yaml": RUNTIME})
    before = tree(pipeline_root)
    rendered = run(["sh", "-c", command], cwd=pipeline_root, env=env, timeout=180)
    checks.expect(rendered.returncode == 0 and f"{where}: [num-nodes-zero]" in rendered.stderr and
                  tree(pipeline_root) == before,
                  "kpt fn render: the Kptfile's validator runs and leaves the package as it was", rendered.stderr)
    write_package(os.path.join(pipeline_root, "manifests"), {"lonely.yaml": TRAINJOB.replace("torch-distributed", "absent")})
    before = tree(pipeline_root)
    refused = run(["sh", "-c", command], cwd=pipeline_root, env=env, timeout=180)
    checks.expect(refused.returncode != 0 and "lonely.yaml:" in refused.stderr and tree(pipeline_root) == before,
                  "kpt fn render: an error fails the render and writes nothing", refused.stderr)


def kubectl_kustomize(tool, checks, work):
    """docs/integrations.md for `kubectl kustomize` users, with the real
    kubectl: listing the validator breaks their build, the pipe works, and
    a TrainJob patch of an overlay gets the schema's types in `tjrender check .`."""
    kubectl = shutil.which("kubectl")
    if not kubectl:
        print("kubectl is not installed: the kubectl kustomize pipe is not checked")
        return
    with open(os.path.join(SOURCE_ROOT, "docs", "integrations.md")) as f:
        readme = f.read()
    section = readme[readme.index("**kustomize.**"):]
    block = section[section.index("```sh\n") + 6:]
    command = block[:block.index("```")].strip()
    checks.expect(command == "kubectl kustomize overlays/prod | tjrender check - runtimes/",
                  "docs: the kubectl kustomize pipe comes first", command)
    repo = os.path.join(work, "kubectl-repo")
    write_package(repo, {
        "base/kustomization.yaml": "resources:\n- job.yaml\n",
        "base/job.yaml": TRAINJOB.replace("# The job.\n", ""),
        "runtimes/runtime.yaml": RUNTIME,
        "overlays/prod/kustomization.yaml": "resources:\n- ../../base\npatches:\n- path: nodes.yaml\n",
        "overlays/prod/nodes.yaml": "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nmetadata:\n"
                                    "  name: pytorch-job\n  namespace: ml-team\nspec:\n  trainer:\n    numNodes: 4\n",
    })
    env = dict(os.environ, PATH=path_with(tool, work))
    piped = run(["sh", "-c", command], cwd=repo, env=env, timeout=120)
    checks.expect(piped.returncode == 0 and "2 checked, 0 files skipped, 0 errors" in piped.stderr,
                  "kubectl kustomize | tjrender check - runtimes/: the overlay's TrainJob checks clean", piped.stderr)
    checked = run([tool, "check", "."], cwd=repo, env=env)
    checks.expect(checked.returncode == 0, "tjrender check .: a well-typed patch is no finding", checked.stderr)

    # The validator listed: kubectl's kustomize refuses to build at all.
    with open(os.path.join(KUSTOMIZE_DIR, "validator.yaml")) as f:
        write_package(repo, {"overlays/prod/tjrender.yaml": f.read(),
                             "overlays/prod/kustomization.yaml": "resources:\n- ../../base\npatches:\n"
                                                                 "- path: nodes.yaml\nvalidators:\n- tjrender.yaml\n"})
    broken = run([kubectl, "kustomize", "overlays/prod"], cwd=repo, env=env)
    checks.expect(broken.returncode != 0 and "external plugins disabled" in broken.stderr and broken.stdout == "",
                  "kubectl kustomize with the validator listed does not build (as the docs say)", broken.stderr)
    write_package(repo, {"overlays/prod/kustomization.yaml": "resources:\n- ../../base\npatches:\n- path: nodes.yaml\n"})
    os.remove(os.path.join(repo, "overlays", "prod", "tjrender.yaml"))

    # A patch that would make the merged TrainJob invalid: `tjrender check .`
    # names the patch file's line; the pipe names kustomize's output.
    write_package(repo, {"overlays/prod/nodes.yaml": "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\n"
                                                     "metadata:\n  name: pytorch-job\n  namespace: ml-team\n"
                                                     "spec:\n  trainer:\n    numNodes: four\n"})
    checked = run([tool, "check", "."], cwd=repo, env=env)
    checks.expect(checked.returncode == 1 and
                  'overlays/prod/nodes.yaml:8:15: error: spec.trainer.numNodes: Invalid value: "string": '
                  'spec.trainer.numNodes in body must be of type integer: "string"' in checked.stderr,
                  "tjrender check .: a patch's numNodes: four is a type error at its line", checked.stderr)
    piped = run(["sh", "-c", command], cwd=repo, env=env, timeout=120)
    checks.expect(piped.returncode == 1 and "spec.trainer.numNodes in body must be of type integer" in piped.stderr,
                  "the pipe finds it in the merged TrainJob too", piped.stderr)

    # The CI gate, `check --since BASE`: a change to the patch alone.
    git = shutil.which("git")
    if git:
        identity = ["-c", "user.name=t", "-c", "user.email=t@example.com"]
        bad = open(os.path.join(repo, "overlays", "prod", "nodes.yaml")).read()
        write_package(repo, {"overlays/prod/nodes.yaml": bad.replace("numNodes: four", "numNodes: 4")})
        for step in (["init", "-q"], ["add", "-A"], identity + ["commit", "-qm", "base"]):
            run([git, *step], cwd=repo)
        write_package(repo, {"overlays/prod/nodes.yaml": bad})
        run([git, "add", "-A"], cwd=repo)
        run([git, *identity, "commit", "-qm", "four"], cwd=repo)
        since = run([tool, "check", "--since", "HEAD~1", "."], cwd=repo, env=env)
        checks.expect(since.returncode == 1 and "overlays/prod/nodes.yaml:8:15: error: spec.trainer.numNodes" in since.stderr,
                      "tjrender check --since: a changed patch gets the types too", since.stderr)


def main():
    kpt = shutil.which("kpt")
    if not kpt:
        skip("kpt is not installed")
    tool = tjrender()
    checks = Checks()
    work = temp_dir("tjrender-kpt-")
    validate = tool + " krm"
    try:
        stable = {"runtime.yaml": RUNTIME, "jobs/all.yaml": SETTINGS + "---\n" + TRAINJOB}
        # kpt's own round trip (an identity function) keeps these files as
        # they are: otherwise the test data, not tjrender, would be at fault.
        identity = os.path.join(work, "identity")
        write_package(identity, stable)
        kpt_eval(kpt, identity, "cat")
        checks.expect(tree(identity) == {k: v.encode() for k, v in stable.items()},
                      "test data: kpt with an identity function leaves the package as it is")

        package = os.path.join(work, "pkg")
        write_package(package, stable)
        validated = kpt_eval(kpt, package, validate)
        checks.expect(validated.returncode == 0, "kpt fn eval --exec 'tjrender krm' passes", validated.stderr)
        checks.expect(tree(package) == {k: v.encode() for k, v in stable.items()},
                      "validate: every file byte for byte (comments, quoting, flow style, anchors, "
                      "wide and compact lists, multi-document files)")

        # What kpt rewrites by itself: the same result as an identity function.
        odd = {"odd.yaml": ODD, "runtime.yaml": RUNTIME}
        by_identity, by_tjrender = os.path.join(work, "odd-identity"), os.path.join(work, "odd-tjrender")
        write_package(by_identity, odd)
        write_package(by_tjrender, odd)
        kpt_eval(kpt, by_identity, "cat")
        result = kpt_eval(kpt, by_tjrender, validate)
        checks.expect(result.returncode == 0 and tree(by_tjrender) == tree(by_identity),
                      "validate: CRLF, '---'/'...', blank lines, multi-line flow, '>-', foot comments end up "
                      "exactly as kpt leaves them with an identity function", result.stderr)

        # --output unwrap: the package is not touched, the items go to stdout.
        unwrapped = kpt_eval(kpt, package, validate, "--output", "unwrap")
        checks.expect(unwrapped.returncode == 0 and tree(package) == {k: v.encode() for k, v in stable.items()},
                      "--output unwrap leaves the package alone", unwrapped.stderr)
        checks.expect("# Settings the job reads." in unwrapped.stdout and "n: '007'" in unwrapped.stdout and
                      "anchor: &shared value" in unwrapped.stdout, "--output unwrap prints the items as written",
                      unwrapped.stdout[:500])

        # An error in the third document of a file: kpt prints it and fails,
        # the result names the file, the document and the line on disk.
        write_package(package, {"jobs/broken.yaml": BROKEN})
        results_dir = os.path.join(work, "results")
        failed = kpt_eval(kpt, package, validate, "--results-dir", results_dir)
        line, column = line_of(BROKEN, "runtimeRef:")
        where = f"jobs/broken.yaml:{line}:{column}"
        checks.expect(failed.returncode != 0 and where in failed.stderr and
                      "[error] trainer.kubeflow.org/v1alpha1/TrainJob/ml-team/lonely spec.RuntimeRef: " + where
                      in failed.stderr, f"kpt prints the error at {where}", failed.stderr)
        fn_results = yaml_as_json(tool, os.path.join(results_dir, "results.yaml"))
        items = [r for item in fn_results.get("items", []) for r in item.get("results", [])]
        errors = [r for r in items if r.get("severity") == "error"]
        expected = {"message": errors[0]["message"] if errors else "",
                    "severity": "error",
                    "resourceRef": {"apiVersion": "trainer.kubeflow.org/v1alpha1", "kind": "TrainJob",
                                    "name": "lonely", "namespace": "ml-team"},
                    "field": {"path": "spec.RuntimeRef"},
                    "file": {"path": "jobs/broken.yaml", "index": 2},
                    "tags": {"rule": "upstream/invalid-value", "line": str(line), "column": str(column)}}
        checks.expect(len(errors) == 1 and errors[0] == expected and errors[0]["message"].startswith(where + ": "),
                      "--results-dir: kpt keeps resourceRef, field, file and tags", json.dumps(items, indent=1))
        checks.expect(tree(package).get("jobs/broken.yaml") == BROKEN.encode(), "a failed run writes nothing")
        checks.expect("<stdin>" not in failed.stderr, "no line of the ResourceList is shown", failed.stderr)
        os.remove(os.path.join(package, "jobs", "broken.yaml"))

        # A warning (tjrender's own, which names no field) carries the path
        # of the node it points at.
        write_package(package, {"jobs/helper.yaml": HELPER})
        warned = kpt_eval(kpt, package, validate + " --target trainer-v2.1", "--results-dir", results_dir)
        line, column = line_of(HELPER, "- name: helper")
        column += 2  # the container entry, at its first key
        where = f"jobs/helper.yaml:{line}:{column}"
        fn_results = yaml_as_json(tool, os.path.join(results_dir, "results.yaml"))
        items = [r for item in fn_results.get("items", []) for r in item.get("results", [])]
        # (Its TrainJob has no spec.trainer: torch-env-not-injected too.)
        warnings = [r for r in items if r.get("severity") == "warning" and
                    r.get("tags", {}).get("rule") == "override-container-unknown"]
        # The image-less container makes the API server refuse the Job: an
        # error at the same node (rendered/job/image), so kpt fails.
        refusals = [r for r in items if r.get("severity") == "error" and
                    r.get("tags", {}).get("rule") == "rendered/job/image"]
        checks.expect(len(refusals) == 1 and
                      refusals[0].get("field") == {"path": "spec.podTemplateOverrides[0].spec.containers[0]"} and
                      refusals[0]["message"].startswith(where + ": [rendered/job/image] Job ml-team/helper-job-node-0"),
                      f"the Job's refusal carries field.path and {where}", json.dumps(items, indent=1))
        checks.expect(warned.returncode != 0 and len(warnings) == 1 and
                      warnings[0].get("field") == {"path": "spec.podTemplateOverrides[0].spec.containers[0]"} and
                      warnings[0].get("resourceRef", {}).get("name") == "helper-job" and
                      warnings[0].get("file") == {"path": "jobs/helper.yaml"} and
                      warnings[0]["message"].startswith(where + ": [override-container-unknown]"),
                      f"a warning carries field.path and {where}", warned.stderr + json.dumps(items, indent=1))
        os.remove(os.path.join(package, "jobs", "helper.yaml"))

        # Render in place: kpt writes the JobSet as a new file and removes
        # the TrainJob's and the runtime's; the other documents stay as written.
        rendered = kpt_eval(kpt, package, validate, "--", "mode=render")
        files = tree(package)
        checks.expect(rendered.returncode == 0 and
                      sorted(files) == ["jobs/all.yaml", "jobs/rendered_pytorch-job.yaml"],
                      "render in place: TrainJob and runtime files replaced by the rendered one",
                      str(sorted(files)) + rendered.stderr)
        checks.expect(files.get("jobs/all.yaml") == SETTINGS.encode(),
                      "render in place: the ConfigMap beside the TrainJob byte for byte",
                      files.get("jobs/all.yaml", b"").decode())
        checks.expect(b"kind: JobSet" in files.get("jobs/rendered_pytorch-job.yaml", b""),
                      "render in place: the JobSet file")

        readme_commands(kpt, tool, checks, work, stable)
        package_folder_runs(kpt, tool, checks, work)
        kubectl_kustomize(tool, checks, work)
        shipped_kustomize_files(kpt, tool, checks, work, stable)
    except subprocess.TimeoutExpired as timeout:
        checks.expect(False, "kpt finished", str(timeout))
    finally:
        shutil.rmtree(work)
    checks.done()


main()
