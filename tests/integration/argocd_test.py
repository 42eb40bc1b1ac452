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


def plugin_spec(tool):
    """plugin.yaml read through tjrender fmt -o json (no PyYAML needed)."""
    path = os.path.join(SOURCE_ROOT, "integrations", "argocd", "plugin.yaml")
    out = run([tool, "fmt", "-o", "json", path]).stdout
    return json.loads(out)["spec"]


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

        # discover.find.command: exit 0 and non-empty stdout is a match.
        find = spec["discover"]["find"]["command"]
        found = run(find, cwd=app_dir, env={"PATH": "/usr/bin:/bin"})
        checks.expect(found.returncode == 0 and found.stdout.strip() != "", "discovery matches the app folder", found.stderr)
        other = os.path.join(unpacked, "elsewhere")
        os.makedirs(other)
        with open(os.path.join(other, "cm.yaml"), "w") as f:
            f.write("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n")
        not_found = run(find, cwd=other, env={"PATH": "/usr/bin:/bin"})
        checks.expect(not_found.stdout.strip() == "", "discovery ignores folders without TrainJobs")

        # Folders Argo CD builds with Helm or kustomize are not claimed, even
        # when they hold a TrainJob.
        for owner in ("Chart.yaml", "kustomization.yaml", "kustomization.yml", "Kustomization"):
            owned = os.path.join(unpacked, "owned-" + owner.replace(".", "-"))
            os.makedirs(owned)
            with open(os.path.join(owned, "job.yaml"), "w") as f:
                f.write(LONELY_TRAINJOB)
            with open(os.path.join(owned, owner), "w") as f:
                f.write("apiVersion: v2\nname: chart\nversion: 0.1.0\n" if owner == "Chart.yaml" else
                        "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources: [job.yaml]\n")
            claimed = run(find, cwd=owned, env={"PATH": "/usr/bin:/bin"})
            checks.expect(claimed.returncode == 0 and claimed.stdout.strip() == "",
                          f"discovery leaves a folder with {owner} to Argo CD", claimed.stdout + claimed.stderr)
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
        checks.expect("lonely.yaml:7:3: error: spec.RuntimeRef: Invalid value" in bad.stderr,
                      "stderr names file, line and message", bad.stderr)
        os.remove(os.path.join(app_dir, "lonely.yaml"))

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
    except subprocess.TimeoutExpired as timeout:
        checks.expect(False, "generate finished within the exec timeout", str(timeout))
    finally:
        shutil.rmtree(work)
    checks.done()


main()
