#!/usr/bin/env python3
"""integrations/argocd/plugin.yaml run the way Argo CD's cmp-server runs it:
the repository unpacked without .git into <tmp>/_cmp_server/<uuid>/, the
commands run in the application's folder with the build environment,
ARGOCD_ENV_* and the parameters (ARGOCD_APP_PARAMETERS and PARAM_*), a
timeout (ARGOCD_EXEC_TIMEOUT's default, 90 s), stdout parsed as manifests."""
import json
import os
import re
import shutil
import subprocess
import uuid

from common import LONELY_TRAINJOB, SOURCE_ROOT, Checks, copy_sample, run, temp_dir, tjrender

TIMEOUT = 90


ARGOCD_DIR = os.path.join(SOURCE_ROOT, "integrations", "argocd")
PLUGIN_FILES = ("plugin.yaml", "plugin-discover.yaml")

# The PATHs discovery runs with: this machine's tools and, where busybox is
# installed, only busybox's sh, find, grep and head, as the image has them
# (scripts/image). Each discovery is run with every one; where they disagree
# the folder is noted here and the test fails.
DISCOVERY_PATHS = ["/usr/bin:/bin"]
DISAGREEMENTS = []


def as_json(tool, path):
    """A YAML file read through tjrender fmt -o json (no PyYAML needed)."""
    return json.loads(run([tool, "fmt", "-o", "json", path]).stdout)


def plugin_spec(tool, name="plugin.yaml"):
    return as_json(tool, os.path.join(ARGOCD_DIR, name))["spec"]


def select_plugin(plugins, named, app_dir):
    """Which plugin Argo CD's repo server picks for an application folder,
    as argo-cd util/app/discovery/discovery.go does: a named plugin
    (DetectConfigManagementPlugin dials `<name>.sock`) is taken as it is when
    it has no discovery (cmpSupports: `!cfg.IsDiscoveryConfigured &&
    namedPlugin`), else only when its discovery matches; without a name each
    socket of the plugins folder (os.ReadDir: sorted) is asked, and a plugin
    without discovery never matches. Discovery by command matches when it
    exits 0 and prints something (cmpserver/plugin/plugin.go matchRepository).
    Returns the plugin's metadata.name or None."""
    def matches(plugin):
        command = plugin["spec"].get("discover", {}).get("find", {}).get("command")
        if not command:
            return False
        answers = set()
        for path in DISCOVERY_PATHS:
            found = run(command, cwd=app_dir, env={"PATH": path})
            answers.add(found.returncode == 0 and found.stdout.strip() != "")
        if len(answers) > 1:
            DISAGREEMENTS.append(app_dir)
        return True in answers
    by_socket = sorted(plugins, key=lambda p: p["metadata"]["name"] + ".sock")
    if named:
        plugin = next((p for p in by_socket if p["metadata"]["name"] == named), None)
        if plugin is None:
            return None
        if "discover" not in plugin["spec"]:
            return named
        return named if matches(plugin) else None
    for plugin in by_socket:
        if "discover" in plugin["spec"] and matches(plugin):
            return plugin["metadata"]["name"]
    return None


def shipped_files_agree(tool, checks):
    """configmap.yaml holds both plugin files byte for byte; sidecar.yaml runs
    one argocd-cmp-server per plugin (each serves its config/plugin.yaml:
    argo-cd cmd/argocd-cmp-server, plugin.ReadPluginConfig), sharing the
    plugins folder for their sockets."""
    data = as_json(tool, os.path.join(ARGOCD_DIR, "configmap.yaml"))["data"]
    for name in PLUGIN_FILES:
        with open(os.path.join(ARGOCD_DIR, name)) as f:
            checks.expect(data.get(name) == f.read(), f"configmap.yaml: {name} is the file, byte for byte")
    containers = as_json(tool, os.path.join(ARGOCD_DIR, "sidecar.yaml"))["spec"]["template"]["spec"]["containers"]
    mounted = {}
    for container in containers:
        mounts = {m["mountPath"]: m for m in container["volumeMounts"]}
        config = mounts.get("/home/argocd/cmp-server/config/plugin.yaml", {})
        checks.expect("/home/argocd/cmp-server/plugins" in mounts, f"sidecar {container['name']}: the shared plugins folder")
        mounted[container["name"]] = config.get("subPath")
    names = {as_json(tool, os.path.join(ARGOCD_DIR, f))["metadata"]["name"]: f for f in PLUGIN_FILES}
    checks.expect(mounted == names, "sidecar.yaml: one sidecar per plugin, named after it, mounting its file",
                  json.dumps(mounted))
    application = as_json(tool, os.path.join(ARGOCD_DIR, "application.yaml"))
    named = application["spec"]["source"]["plugin"]["name"]
    checks.expect("discover" not in as_json(tool, os.path.join(ARGOCD_DIR, names.get(named, "plugin.yaml")))["spec"],
                  "application.yaml names the plugin without discovery")


def objects_of(tool, stream, work):
    """The kinds of the objects in a manifest stream (fails on non-YAML)."""
    path = os.path.join(work, "stdout.yaml")
    with open(path, "w") as f:
        f.write(stream)
    result = run([tool, "fmt", "-o", "json", path])
    if result.returncode != 0:
        return None
    decoder, text, at, kinds = json.JSONDecoder(), result.stdout, 0, []
    while at < len(text):
        while at < len(text) and text[at].isspace():
            at += 1
        if at >= len(text):
            break
        obj, at = decoder.raw_decode(text, at)
        kinds.append(obj["kind"])
    return kinds


def main():
    tool = tjrender()
    checks = Checks()
    work = temp_dir("tjrender-argocd-")
    try:
        # The sidecar has tjrender on PATH; nothing else of this machine leaks in.
        bin_dir = os.path.join(work, "bin")
        os.mkdir(bin_dir)
        os.symlink(tool, os.path.join(bin_dir, "tjrender"))
        spec = plugin_spec(tool)
        busybox = shutil.which("busybox")
        if busybox:
            busybox_dir = os.path.join(work, "busybox")
            os.mkdir(busybox_dir)
            for applet in ("sh", "find", "grep", "head"):
                os.symlink(busybox, os.path.join(busybox_dir, applet))
            DISCOVERY_PATHS.append(busybox_dir)
        else:
            print("note: no busybox here; discovery runs with this machine's tools only")

        # A checkout, then the cmp-server's copy of it without .git.
        checkout = os.path.join(work, "checkout")
        copy_sample(os.path.join(checkout, "ml"))
        if shutil.which("git"):
            subprocess.run(["git", "init", "-q", checkout], check=False)
        unpacked = os.path.join(work, "_cmp_server", str(uuid.uuid4()))
        shutil.copytree(checkout, unpacked, ignore=shutil.ignore_patterns(".git"))
        checks.expect(not os.path.exists(os.path.join(unpacked, ".git")), "the plugin's copy has no .git")
        app_dir = os.path.join(unpacked, "ml", "trainjobs")

        def generate(app, extra_env, cwd=None):
            env = {
                "PATH": bin_dir + ":/usr/bin:/bin",
                "HOME": "/home/argocd",
                "ARGOCD_APP_NAME": "ml-trainjobs",
                "ARGOCD_APP_NAMESPACE": "ml-team",
                "ARGOCD_APP_PROJECT_NAME": "default",
                "ARGOCD_APP_REVISION": "0123456789abcdef0123456789abcdef01234567",
                "ARGOCD_APP_REVISION_SHORT": "0123456",
                "ARGOCD_APP_SOURCE_PATH": app,
                "ARGOCD_APP_SOURCE_REPO_URL": "https://example.com/ml.git",
                "ARGOCD_APP_SOURCE_TARGET_REVISION": "main",
                "KUBE_VERSION": "1.32.4",
                "KUBE_API_VERSIONS": "v1,apps/v1,batch/v1,jobset.x-k8s.io/v1alpha2,trainer.kubeflow.org/v1alpha1",
            }
            env.update(extra_env)
            command = spec["generate"]["command"] + spec["generate"].get("args", [])
            return run(command, cwd=cwd or os.path.join(unpacked, app), env=env, timeout=TIMEOUT)

        runtime_param = json.dumps([{"name": "runtime-paths", "array": ["ml/runtimes"]}])

        shipped_files_agree(tool, checks)
        plugins = [as_json(tool, os.path.join(ARGOCD_DIR, name)) for name in PLUGIN_FILES]

        # An Application without a plugin name: discovery matches the app folder.
        checks.expect(select_plugin(plugins, None, app_dir) == "tjrender-discover",
                      "discovery matches the app folder")
        other = os.path.join(unpacked, "elsewhere")
        os.makedirs(other)
        with open(os.path.join(other, "cm.yaml"), "w") as f:
            f.write("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n")
        checks.expect(select_plugin(plugins, None, other) is None, "discovery ignores folders without TrainJobs")

        # Every file tjrender reads is found: JSON, a quoted kind, a List's
        # items, CRLF lines, a Flyte task; `kind: TrainJobTemplate` is not one.
        readable = {
            "json/j.json": '{"apiVersion": "trainer.kubeflow.org/v1alpha1", "kind": "TrainJob", "metadata": {"name": "j"}}\n',
            "quoted/j.yaml": "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: \"TrainJob\"\nmetadata: {name: j}\n",
            "single/r.yml": "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: 'ClusterTrainingRuntime' # platform\n",
            "list/l.yaml": "apiVersion: v1\nkind: List\nitems:\n- apiVersion: trainer.kubeflow.org/v1alpha1\n"
                           "  kind: TrainingRuntime\n  metadata: {name: r}\n",
            "crlf/j.yaml": "apiVersion: trainer.kubeflow.org/v1alpha1\r\nkind: TrainJob\r\n",
            "flyte/task.yaml": "template:\n  id: {name: train}\n  type: python-task\n  k8sPod:\n    podSpec: {}\n",
            "flyte-json/task.json": '{"template": {"id": {"name": "t"}, "k8s_pod": {"podSpec": {}}}}\n',
            # Flow style (kubectl reads YAML 1.2), on one line or several.
            "flow/j.yaml": "---\n{apiVersion: trainer.kubeflow.org/v1alpha1, kind: TrainJob, metadata: {name: j}}\n",
            "flow-lines/j.yaml": "# a job\n---\n{apiVersion: trainer.kubeflow.org/v1alpha1,\n kind: TrainJob,\n"
                                 " metadata: {name: j}}\n",
            "flow-json/j.json": '{"apiVersion": "trainer.kubeflow.org/v1alpha1", kind: TrainJob, "metadata": {"name": "j"}}\n',
            "flow-list/l.yaml": "apiVersion: v1\nkind: List\nitems:\n- {apiVersion: trainer.kubeflow.org/v1alpha1, "
                                "kind: 'TrainingRuntime', metadata: {name: r}}\n",
            # Flyte container tasks (src/flyte/task.cc FindTemplate): a
            # TaskTemplate at the top level, under template:, spec.template
            # or closure.compiledTask.template (flytectl get task -o yaml), in
            # YAML, flow style and JSON; a sidecar task.
            "flyte-container/task.yaml": "id: {name: train}\ntype: python-task\ncontainer:\n  image: python:3.12\n",
            "flyte-template/task.yaml": "template:\n  id:\n    name: train\n  type: python-task\n"
                                        "  container: # the task's image\n    image: python:3.12\n    args: [pyflyte-execute]\n",
            "flyte-spec/task.yml": "spec:\n  template:\n    id: {name: train}\n    container: {image: 'python:3.12'}\n",
            "flyte-closure/task.yaml": "id: {name: train}\nclosure:\n  compiledTask:\n    template:\n"
                                       "      container:\n        image: python:3.12\n",
            "flyte-flow/task.yaml": "{template: {id: {name: train}, container: {image: 'python:3.12'}}}\n",
            "flyte-json-container/task.json": '{\n  "id": {"name": "train"},\n  "container": {\n    "image": "python:3.12"\n  }\n}\n',
            "flyte-json-template/task.json": '{\n  "template": {\n    "id": {\n      "name": "train"\n    },\n'
                                             '    "container": {\n      "image": "python:3.12"\n    }\n  }\n}\n',
            "flyte-sidecar/task.yaml": "template:\n  id: {name: train}\n  type: sidecar\n  custom:\n    podSpec: {}\n",
            "flyte-sidecar-top/task.yaml": "id: {name: train}\ntype: \"sidecar\"\ncustom:\n  primaryContainerName: main\n",
        }
        for path, text in readable.items():
            folder = os.path.join(unpacked, "discovery", os.path.dirname(path))
            os.makedirs(folder)
            with open(os.path.join(unpacked, "discovery", path), "w", newline="") as f:
                f.write(text)
            checks.expect(select_plugin(plugins, None, folder) == "tjrender-discover", f"discovery finds {path}")
        lookalike = os.path.join(unpacked, "discovery", "lookalike")
        os.makedirs(lookalike)
        with open(os.path.join(lookalike, "t.yaml"), "w") as f:
            f.write("apiVersion: example.com/v1\nkind: TrainJobTemplate\n")
        checks.expect(select_plugin(plugins, None, lookalike) is None, "discovery: kind: TrainJobTemplate is no TrainJob")
        for path, text in readable.items():
            # Each is a file tjrender reads: check counts it (or refuses it).
            read = run([tool, "check", "--verbose", path], cwd=os.path.join(unpacked, "discovery"))
            checks.expect("0 checked" not in read.stderr or read.returncode == 2,
                          f"tjrender reads discovery/{path} (so discovery must find it)", read.stderr)
        # `container:` that is no Flyte task's (src/flyte/task.cc IsMessage,
        # FindTemplate, IsFlyteTaskDocument): a string (a Hydra config's
        # container: ${IMAGE}, aws-samples/awsome-distributed-training's NeMo
        # launcher), a Kubernetes object's (Argo Events' Sensor keeps
        # spec.template.container), a mapping deeper than tjrender looks
        # (Kubeflow Pipelines' compiled IR: deploymentSpec.executors.*.container).
        not_read = {
            "hydra/config.yaml": "container: ${IMAGE}\ntraining:\n  model: llama\ncluster:\n  container: nvcr.io/nemo:24.07\n",
            "sensor/sensor.yaml": "apiVersion: argoproj.io/v1alpha1\nkind: Sensor\nmetadata:\n  name: s\nspec:\n"
                                  "  template:\n    container:\n      resources: {}\n",
            "sensor-json/sensor.json": '{\n  "apiVersion": "argoproj.io/v1alpha1",\n  "kind": "Sensor",\n'
                                       '  "spec": {"template": {"container": {"resources": {}}}}\n}\n',
            "kfp/pipeline.yaml": "pipelineInfo:\n  name: p\ndeploymentSpec:\n  executors:\n    exec-train:\n"
                                 "      container:\n        image: python:3.12\nschemaVersion: 2.1.0\n",
            "jobs/not-sidecar.yaml": "type: sidecarless\ncustom: {}\n",
        }
        for path, text in not_read.items():
            folder = os.path.join(unpacked, "discovery", os.path.dirname(path))
            os.makedirs(folder)
            with open(os.path.join(unpacked, "discovery", path), "w") as f:
                f.write(text)
            read = run([tool, "check", "--verbose", path], cwd=os.path.join(unpacked, "discovery"))
            checks.expect(read.returncode == 0 and "0 checked" in read.stderr,
                          f"tjrender reads nothing in discovery/{path}", read.stderr)
            checks.expect(select_plugin(plugins, None, folder) is None, f"discovery passes over {path}")

        # Folders Argo CD builds with Helm or kustomize are not claimed, even
        # when they hold a TrainJob; naming the plugin takes them all the same
        # (the plugin without discovery), where the plugin with discovery
        # would refuse the Application.
        for owner in ("Chart.yaml", "kustomization.yaml", "kustomization.yml", "Kustomization"):
            owned = os.path.join(unpacked, "owned-" + owner.replace(".", "-"))
            os.makedirs(owned)
            with open(os.path.join(owned, "job.yaml"), "w") as f:
                f.write(LONELY_TRAINJOB)
            with open(os.path.join(owned, owner), "w") as f:
                f.write("apiVersion: v2\nname: chart\nversion: 0.1.0\n" if owner == "Chart.yaml" else
                        "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources: [job.yaml]\n")
            checks.expect(select_plugin(plugins, None, owned) is None, f"discovery leaves a folder with {owner} to Argo CD")
            checks.expect(select_plugin(plugins, "tjrender", owned) == "tjrender",
                          f"plugin.name: tjrender takes a folder with {owner}")
            checks.expect(select_plugin(plugins, "tjrender-discover", owned) is None,
                          f"plugin.name: tjrender-discover runs discovery and refuses a folder with {owner}")
            shutil.rmtree(owned)

        # validate (the default): the TrainJobs as written.
        result = generate("ml/trainjobs", {"ARGOCD_APP_PARAMETERS": runtime_param})
        kinds = objects_of(tool, result.stdout, work)
        checks.expect(result.returncode == 0, "validate exits 0", result.stderr)
        checks.expect(kinds == ["TrainJob"] * 4, "validate prints the 4 TrainJobs and nothing else", str(kinds))
        checks.expect("application ml-trainjobs: 4 object(s), mode validate" in result.stderr,
                      "one log line on stderr", result.stderr)

        # render through PARAM_* (what Argo CD sets besides the JSON list) and
        # the plugin env: JobSets and the MPI hostfile ConfigMap.
        result = generate("ml/trainjobs", {"PARAM_MODE": "render", "PARAM_RUNTIME_PATHS_0": "ml/runtimes"})
        kinds = objects_of(tool, result.stdout, work)
        checks.expect(result.returncode == 0 and kinds is not None and kinds.count("JobSet") == 4 and
                      "TrainJob" not in kinds, "render prints JobSets instead of TrainJobs", str(kinds) + result.stderr)
        result = generate("ml/trainjobs", {"ARGOCD_ENV_TJRENDER_MODE": "render",
                                           "ARGOCD_ENV_TJRENDER_RUNTIME_PATHS": "ml/runtimes"})
        checks.expect(objects_of(tool, result.stdout, work) == kinds, "plugin env gives the same output")

        # Determinism: Argo CD caches manifests by revision.
        again = generate("ml/trainjobs", {"PARAM_MODE": "render", "PARAM_RUNTIME_PATHS_0": "ml/runtimes"})
        checks.expect(again.stdout == result.stdout, "same output twice")

        # What a repository folder holds besides objects is never printed and
        # never an error: a kustomization, a JSON 6902 patch list, a workflow,
        # a Helm chart's template, a plugin.yaml.
        extras = {
            "kustomization.yaml": "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\n"
                                  "resources: [custom-sa-node-selector.yaml]\n",
            "patch.yaml": "- op: add\n  path: /metadata/labels/x\n  value: y\n",
            "ci.yaml": "name: ci\non: [push]\njobs: {a: {runs-on: ubuntu-24.04, steps: [{run: 'echo ${{ github.sha }}'}]}}\n",
            "local.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: fn-input\n  annotations:\n"
                          "    config.kubernetes.io/local-config: \"true\"\n",
            "plugin.yaml": "apiVersion: argoproj.io/v1alpha1\nkind: ConfigManagementPlugin\nmetadata: {name: p}\n",
        }
        for name, text in extras.items():
            with open(os.path.join(app_dir, name), "w") as f:
                f.write(text)
        mixed = generate("ml/trainjobs", {"ARGOCD_APP_PARAMETERS": runtime_param})
        checks.expect(mixed.returncode == 0 and objects_of(tool, mixed.stdout, work) == ["TrainJob"] * 4,
                      "validate prints objects only: no Kustomization, patch list, workflow or local config",
                      mixed.stdout + mixed.stderr)
        checks.expect("warning: the application folder holds kustomization.yaml" in mixed.stderr,
                      "a named plugin on a kustomize folder says it does not run kustomize", mixed.stderr)
        for name in extras:
            os.remove(os.path.join(app_dir, name))

        # render: applicable without the TrainJob. No ownerReferences (an
        # owner without uid is refused by the API server), and the MPI Secret
        # the controller would create is a warning, not a --verbose note.
        applied = generate("ml/trainjobs", {"PARAM_MODE": "render", "PARAM_RUNTIME_PATHS_0": "ml/runtimes"})
        checks.expect(applied.returncode == 0 and "ownerReferences" not in applied.stdout,
                      "render mode prints no ownerReferences", applied.stdout[:2000])
        checks.expect(re.search(r"deepspeed-mpi\.yaml:\d+:\d+: warning: \[secret-not-rendered\] Secret "
                                r"deepspeed-t5-mpi-ssh-auth is not rendered", applied.stderr) is not None,
                      "render mode warns of the MPI Secret nothing will create", applied.stderr)
        validated = generate("ml/trainjobs", {"ARGOCD_APP_PARAMETERS": runtime_param})
        checks.expect("secret-not-rendered" not in validated.stderr,
                      "validate mode does not: the controller creates the Secret", validated.stderr)

        # The default target is the binary's (trainer-v2.3), as plugin.yaml's
        # tooltip and docs/integrations.md say: an application without .tjrender.yaml.
        modern = os.path.join(unpacked, "modern")
        os.makedirs(modern)
        shutil.copy(os.path.join(unpacked, "ml", "runtimes", "torch_distributed.yaml"), modern)
        with open(os.path.join(modern, "job.yaml"), "w") as f:
            f.write("apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nmetadata: {name: j}\n"
                    "spec:\n  runtimeRef: {name: torch-distributed}\n")
        default = generate("modern", {})
        checks.expect(default.returncode == 0 and "mode validate, target trainer-v2.3" in default.stderr,
                      "without .tjrender.yaml the target is trainer-v2.3", default.stderr)

        # A TrainJob the webhook refuses: exit 1, nothing on stdout, the
        # message (what the UI shows) on stderr.
        with open(os.path.join(app_dir, "lonely.yaml"), "w") as f:
            f.write(LONELY_TRAINJOB)
        bad = generate("ml/trainjobs", {"ARGOCD_APP_PARAMETERS": runtime_param})
        checks.expect(bad.returncode == 1 and bad.stdout == "", "a refused TrainJob fails generation", bad.stdout)
        checks.expect("\nml/trainjobs/lonely.yaml:7:3: error: spec.RuntimeRef: Invalid value" in "\n" + bad.stderr,
                      "stderr names the file by its path in the repository, line and message", bad.stderr)
        os.remove(os.path.join(app_dir, "lonely.yaml"))

        # A finding in a runtime-paths folder names the file by its path in
        # the repository too, not the cmp-server's temporary copy.
        with open(os.path.join(unpacked, "ml", "runtimes", "extra.yaml"), "w") as f:
            f.write("apiVersion: trainer.kubeflow.org/v1alpha1\nkind: ClusterTrainingRuntime\nmetadata:\n"
                    "  name: extra\nspec:\n  template:\n    spec: {}\n  mistyped: 1\n")
        named = generate("ml/trainjobs", {"ARGOCD_APP_PARAMETERS": runtime_param})
        checks.expect("\nml/runtimes/extra.yaml:8:13: warning: [field-pruned]" in "\n" + named.stderr and
                      "_cmp_server" not in named.stderr,
                      "a runtime-paths finding names ml/runtimes/extra.yaml", named.stderr)
        os.remove(os.path.join(unpacked, "ml", "runtimes", "extra.yaml"))

        # What Argo CD sends for an Application without parameters
        # (`plugin: {name: tjrender}`, `plugin: {}`, only `plugin.env`):
        # json.Marshal of the nil list, `null` (argo-cd
        # pkg/apis/application/v1alpha1/types.go, ApplicationSourcePluginParameters.Environ,
        # called by reposerver/repository/repository.go getPluginParamEnvs), and
        # no PARAM_* variable; `[]` and no variable at all mean the same.
        plugin_env = {"ARGOCD_ENV_TJRENDER_MODE": "render", "ARGOCD_ENV_TJRENDER_RUNTIME_PATHS": "ml/runtimes"}
        for sent in ("null", "[]", None):
            extra = dict(plugin_env)
            if sent is not None:
                extra["ARGOCD_APP_PARAMETERS"] = sent
            alone = generate("ml/trainjobs", extra)
            kinds = objects_of(tool, alone.stdout, work)
            checks.expect(alone.returncode == 0 and kinds is not None and kinds.count("JobSet") == 4,
                          f"ARGOCD_APP_PARAMETERS={sent}: the plugin env alone decides (render)", alone.stderr)

        # A rendered tree committed inside the application's folder (render
        # --out, ownerReferences without uid) is never passed to Argo CD.
        rendered_dir = os.path.join(checkout, "ml", "trainjobs", "rendered")
        out = run([tool, "render", "ml/trainjobs", "ml/runtimes", "--out", rendered_dir], cwd=checkout)
        checks.expect(out.returncode == 0 and os.path.exists(os.path.join(rendered_dir, ".tjrender-index")),
                      "render --out wrote a tree with its index", out.stderr)
        shutil.copytree(rendered_dir, os.path.join(app_dir, "rendered"))
        with_tree = generate("ml/trainjobs", {"ARGOCD_APP_PARAMETERS": runtime_param})
        checks.expect(with_tree.returncode == 0 and objects_of(tool, with_tree.stdout, work) == ["TrainJob"] * 4 and
                      "ownerReferences" not in with_tree.stdout,
                      "validate leaves the committed rendered tree out", with_tree.stdout[:1500] + with_tree.stderr)
        checks.expect("ml/trainjobs/rendered: warning: left out: a tree `tjrender render --out` wrote" in with_tree.stderr,
                      "and says so", with_tree.stderr)
        shutil.rmtree(os.path.join(app_dir, "rendered"))
        shutil.rmtree(rendered_dir)

        # Flyte tasks (discovery finds them) are checked with the folder's
        # PodTemplates, never printed: they are registered with Flyte, not applied.
        flyte_app = os.path.join(unpacked, "flyte-app")
        os.makedirs(flyte_app)
        with open(os.path.join(flyte_app, "settings.yaml"), "w") as f:
            f.write("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\n")
        task = ("id: {resourceType: TASK, project: p, domain: development, name: wf.t1, version: v1}\n"
                "type: python-task\nconfig: {primary_container_name: primary}\n"
                "k8sPod:\n  podSpec:\n    containers:\n    - name: primary\n      image: task:v1\n")
        with open(os.path.join(flyte_app, "task.yaml"), "w") as f:
            f.write(task)
        flyte_ok = generate("flyte-app", {"ARGOCD_APP_PARAMETERS": "null"})
        checks.expect(flyte_ok.returncode == 0 and objects_of(tool, flyte_ok.stdout, work) == ["ConfigMap"] and
                      "1 checked" in flyte_ok.stderr,
                      "a Flyte task is checked and not printed", flyte_ok.stdout + flyte_ok.stderr)
        with open(os.path.join(flyte_app, "task.yaml"), "w") as f:
            f.write(task.replace("primary_container_name: primary", "primary_container_name: main"))
        flyte_bad = generate("flyte-app", {"ARGOCD_APP_PARAMETERS": "null"})
        checks.expect(flyte_bad.returncode == 1 and flyte_bad.stdout == "" and
                      "flyte-app/task.yaml:1:1: error: invalid TaskSpecification, primary container [main] not defined"
                      in flyte_bad.stderr and "runtime-paths" not in flyte_bad.stderr,
                      "a Flyte task the propeller refuses fails generation (no runtime-paths hint)", flyte_bad.stderr)

        # Without runtime-paths the runtimes are not found, and the hint says why.
        missing = generate("ml/trainjobs", {})
        checks.expect(missing.returncode == 1 and "runtime-paths" in missing.stderr,
                      "missing runtimes: exit 1 with a hint", missing.stderr)

        # Zero objects would make Argo CD prune the application: refused.
        empty_dir = os.path.join(unpacked, "ml", "empty")
        os.makedirs(empty_dir)
        empty = generate("ml/empty", {})
        checks.expect(empty.returncode == 1 and empty.stdout == "" and "zero objects" in empty.stderr,
                      "zero objects is an error", empty.stderr)
        allowed = generate("ml/empty", {"ARGOCD_APP_PARAMETERS": json.dumps([{"name": "allow-empty", "string": "true"}])})
        checks.expect(allowed.returncode == 0 and allowed.stdout == "", "allow-empty=true permits it", allowed.stderr)

        # KUBE_API_VERSIONS tells what the destination serves: TrainJobs need
        # the Trainer's API, rendered JobSets JobSet's.
        no_jobset = generate("ml/trainjobs", {"PARAM_MODE": "render", "PARAM_RUNTIME_PATHS_0": "ml/runtimes",
                                              "KUBE_API_VERSIONS": "v1,apps/v1,trainer.kubeflow.org/v1alpha1"})
        checks.expect(no_jobset.returncode == 2 and no_jobset.stdout == "" and
                      "does not serve jobset.x-k8s.io/v1alpha2" in no_jobset.stderr,
                      "render for a cluster without JobSet is refused", no_jobset.stderr)

        # A typo in a parameter is an error, not a silent default.
        typo = generate("ml/trainjobs", {"ARGOCD_APP_PARAMETERS": json.dumps([{"name": "mdoe", "string": "render"}])})
        checks.expect(typo.returncode == 2 and "unknown parameter 'mdoe'" in typo.stderr,
                      "unknown parameter refused", typo.stderr)
        checks.expect(not DISAGREEMENTS, "discovery matches the same folders with busybox's tools as with these",
                      ", ".join(DISAGREEMENTS))
    except subprocess.TimeoutExpired as timeout:
        checks.expect(False, "generate finished within the exec timeout", str(timeout))
    finally:
        shutil.rmtree(work)
    checks.done()


main()
