#!/usr/bin/env python3
"""The integrations read nothing outside their root (docs/manual.md, "Trust
model"): the Argo CD plugin its repository copy, run the way Argo CD's
cmp-server runs plugin.yaml's generate command (the repository unpacked
without .git into <tmp>/_cmp_server/<uuid>/, the command run in the
application's folder with the build environment and the parameters); the KRM
function its package; the post-renderer the folder it runs in. A
ClusterTrainingRuntime outside the root carries a marker in its image, so a
render that read it prints the marker in the JobSet: every route to it must
be refused (exit 2, a message naming the path) and the marker never shows on
stdout or stderr (Argo CD shows stderr in its UI). Links that stay inside the
root, hard links and a root reached through a link still work."""
import json
import os
import shutil
import uuid

from common import TORCH_RUNTIME, Checks, run, temp_dir, tjrender, SOURCE_ROOT

MARKER = "registry.invalid/trust-marker-7f3a"
SECRET_RUNTIME = TORCH_RUNTIME.replace("name: torch-distributed", "name: secret-runtime").replace(
    "pytorch/pytorch:2.7.1-cuda12.8-cudnn9-runtime", MARKER + ":1")
TRAINJOB = """apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata:
  name: job
  namespace: ml
spec:
  runtimeRef:
    name: secret-runtime
"""
INSIDE_RUNTIME = SECRET_RUNTIME.replace(MARKER, "registry.example/inside")


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def plugin_command(tool):
    spec = json.loads(run([tool, "fmt", "-o", "json",
                           os.path.join(SOURCE_ROOT, "integrations", "argocd", "plugin.yaml")]).stdout)["spec"]
    return spec["generate"]["command"] + spec["generate"].get("args", [])


def main():
    tool = tjrender()
    checks = Checks()
    work = temp_dir("tjrender-trust-")
    try:
        bin_dir = os.path.join(work, "bin")
        os.mkdir(bin_dir)
        os.symlink(tool, os.path.join(bin_dir, "tjrender"))
        command = plugin_command(tool)
        secret_dir = os.path.join(work, "secret")
        write(os.path.join(secret_dir, "secret.yaml"), SECRET_RUNTIME)
        write(os.path.join(secret_dir, "config.yaml"), "target: " + MARKER + "\n")

        def refused(result, what, names):
            seen = result.stdout + result.stderr
            checks.expect(result.returncode == 2 and names in result.stderr and MARKER not in seen,
                          what + f": exit 2, names {names}, the marker never shown",
                          f"exit {result.returncode}\n" + seen[-1500:])

        def held(result, what, codes=(0, 1, 2)):
            seen = result.stdout + result.stderr
            checks.expect(result.returncode in codes and MARKER not in seen,
                          what + ": the marker never shown", f"exit {result.returncode}\n" + seen[-1500:])

        # --- Argo CD: the cmp-server's copy, the app at ml/app.
        cmp = os.path.join(work, "_cmp_server")
        unpacked = os.path.join(cmp, str(uuid.uuid4()))
        write(os.path.join(unpacked, "ml", "app", "job.yaml"), TRAINJOB)
        write(os.path.join(unpacked, "ml", "runtimes", "runtime.yaml"), INSIDE_RUNTIME)
        app = os.path.join(unpacked, "ml", "app")

        def generate(runtime_paths=None, source_path="ml/app", cwd=app, extra=None):
            env = {
                "PATH": bin_dir + ":/usr/bin:/bin",
                "HOME": os.path.join(work, "home"),
                "ARGOCD_APP_NAME": "trust",
                "ARGOCD_APP_NAMESPACE": "ml",
                "ARGOCD_APP_SOURCE_PATH": source_path,
                "ARGOCD_APP_SOURCE_REPO_URL": "https://example.com/ml.git",
                "ARGOCD_APP_REVISION": "0123456789abcdef0123456789abcdef01234567",
            }
            parameters = [{"name": "mode", "string": "render"}]
            if runtime_paths is not None:
                parameters.append({"name": "runtime-paths", "array": runtime_paths})
            env["ARGOCD_APP_PARAMETERS"] = json.dumps(parameters)
            env.update(extra or {})
            return run(command, cwd=cwd, env=env, timeout=60)

        def link(path, target):
            os.makedirs(os.path.dirname(path), exist_ok=True)
            os.symlink(target, path)

        result = generate(["ml/runtimes"])
        checks.expect(result.returncode == 0 and "registry.example/inside" in result.stdout,
                      "argocd: runtime-paths inside the repository render", result.stderr[-1500:])

        # A runtime-paths entry that is a link out, passes through one, or is
        # a file linked out; through each way Argo CD sends parameters.
        link(os.path.join(unpacked, "ml", "platform"), secret_dir)
        link(os.path.join(unpacked, "ml", "up"), work)
        link(os.path.join(unpacked, "ml", "one.yaml"), os.path.join(secret_dir, "secret.yaml"))
        link(os.path.join(unpacked, "relative"), "../../secret")
        refused(generate(["ml/platform"]), "argocd: runtime-paths entry linked out of the repository", "ml/platform")
        refused(generate(["ml/up/secret"]), "argocd: runtime-paths entry through a link out", "ml/up")
        refused(generate(["ml/one.yaml"]), "argocd: runtime-paths file linked out", "ml/one.yaml")
        refused(generate(["relative"]), "argocd: runtime-paths entry, a relative link at the repository root",
                "relative")
        refused(generate(None, extra={"ARGOCD_APP_PARAMETERS": "", "PARAM_MODE": "render",
                                      "PARAM_RUNTIME_PATHS_0": "ml/platform"}),
                "argocd: PARAM_RUNTIME_PATHS_0 linked out", "ml/platform")
        refused(generate(None, extra={"ARGOCD_APP_PARAMETERS": "null", "ARGOCD_ENV_TJRENDER_MODE": "render",
                                      "ARGOCD_ENV_TJRENDER_RUNTIME_PATHS": "ml/runtimes,ml/platform"}),
                "argocd: ARGOCD_ENV_TJRENDER_RUNTIME_PATHS linked out", "ml/platform")
        # Paths that climb or start elsewhere (refused lexically before this
        # change already), and `~`, which is no home folder here.
        write(os.path.join(work, "home", "secret", "secret.yaml"), SECRET_RUNTIME)
        for entry in ("../../../secret", "ml/../../../secret", secret_dir, "~/secret"):
            held(generate([entry]), f"argocd: runtime-paths entry {entry}", (2,))

        # ARGOCD_APP_SOURCE_PATH deeper than the folders above the working
        # directory, or leading back to another folder than it.
        deep = "/".join(["d"] * (app.count("/") + 3)) + "/app"
        refused(generate([secret_dir.lstrip("/")], source_path=deep),
                "argocd: ARGOCD_APP_SOURCE_PATH deeper than the working directory", "ARGOCD_APP_SOURCE_PATH")
        write(os.path.join(cmp, "other", "secret.yaml"), SECRET_RUNTIME)  # another app's copy
        write(os.path.join(cmp, "q", "x", "app", "job.yaml"), TRAINJOB)
        refused(generate(["other"], source_path="q/x/app"),
                "argocd: ARGOCD_APP_SOURCE_PATH leading back to another folder", "ARGOCD_APP_SOURCE_PATH")
        refused(generate(["other"], source_path="../app"),
                "argocd: ARGOCD_APP_SOURCE_PATH with ..", "ARGOCD_APP_SOURCE_PATH")
        refused(generate(["other"], source_path="/ml/app"),
                "argocd: an absolute ARGOCD_APP_SOURCE_PATH", "ARGOCD_APP_SOURCE_PATH")

        # .tjrender.yaml: the copy has no .git, so the search for it stops at
        # the repository root, not at the file system's; one linked out is refused.
        write(os.path.join(cmp, ".tjrender.yaml"), "target: " + MARKER + "\n")
        held(generate(["ml/runtimes"]), "argocd: .tjrender.yaml above the repository is not read", (0,))
        os.unlink(os.path.join(cmp, ".tjrender.yaml"))
        link(os.path.join(unpacked, ".tjrender.yaml"), os.path.join(secret_dir, "config.yaml"))
        refused(generate(["ml/runtimes"]), "argocd: .tjrender.yaml linked out of the repository", ".tjrender.yaml")
        os.unlink(os.path.join(unpacked, ".tjrender.yaml"))

        # Inside the application's folder the walk's own rule holds: a link
        # to a file out of it is an error, a link to a folder is not followed,
        # a loop is an error; a kustomization's ../ paths are never read.
        linked = os.path.join(unpacked, "linked")
        write(os.path.join(linked, "job.yaml"), TRAINJOB)
        link(os.path.join(linked, "secret.yaml"), os.path.join(secret_dir, "secret.yaml"))
        held(generate(None, source_path="linked", cwd=linked), "argocd: a file linked out of the app folder", (2,))
        os.unlink(os.path.join(linked, "secret.yaml"))
        link(os.path.join(linked, "dir"), secret_dir)
        link(os.path.join(linked, "loop.yaml"), "loop.yaml")
        held(generate(None, source_path="linked", cwd=linked), "argocd: a folder link and a loop in the app folder")
        os.unlink(os.path.join(linked, "loop.yaml"))
        write(os.path.join(linked, "kustomization.yaml"),
              "resources: [../../../secret, job.yaml]\npatches:\n- path: ../../../secret/secret.yaml\n")
        held(generate(None, source_path="linked", cwd=linked), "argocd: a kustomization's ../ paths")
        shutil.rmtree(linked)

        # What stays inside works: a link inside, a hard link, a copy reached
        # through a link to its root.
        link(os.path.join(unpacked, "ml", "rt-link"), "runtimes")
        result = generate(["ml/rt-link"])
        checks.expect(result.returncode == 0 and "registry.example/inside" in result.stdout,
                      "argocd: a runtime-paths link that stays inside renders", result.stderr[-1500:])
        write(os.path.join(work, "outside-copy", "runtime.yaml"), INSIDE_RUNTIME)
        os.makedirs(os.path.join(unpacked, "hard"))
        os.link(os.path.join(work, "outside-copy", "runtime.yaml"), os.path.join(unpacked, "hard", "runtime.yaml"))
        result = generate(["hard"])
        checks.expect(result.returncode == 0 and "registry.example/inside" in result.stdout,
                      "argocd: a hard link is a file of the repository", result.stderr[-1500:])
        via = os.path.join(work, "via-link")
        os.symlink(unpacked, via)
        result = generate(["ml/runtimes"], cwd=os.path.join(via, "ml", "app"))
        checks.expect(result.returncode == 0 and "registry.example/inside" in result.stdout,
                      "argocd: the copy reached through a link to its root", result.stderr[-1500:])

        # --- KRM: an item whose path annotation leads out of the package
        # through a link (kpt read the item through it: in render mode its
        # runtime would reach the output), and .tjrender.yaml linked out.
        package = os.path.join(work, "package")
        write(os.path.join(package, "job.yaml"), TRAINJOB)
        link(os.path.join(package, "runtime.yaml"), os.path.join(secret_dir, "secret.yaml"))

        def item(text, path):
            indented = "".join("    " + line + "\n" for line in text.splitlines())
            return (indented.replace("    metadata:\n", "    metadata:\n      annotations:\n"
                                     f"        config.kubernetes.io/path: '{path}'\n"
                                     f"        internal.config.kubernetes.io/path: '{path}'\n", 1)
                    .replace("    ", "  - ", 1))

        resource_list = ("apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n" +
                         item(TRAINJOB, "job.yaml") + item(SECRET_RUNTIME, "runtime.yaml"))
        result = run([tool, "krm", "--mode", "render"], input=resource_list, cwd=package)
        refused(result, "krm: an item's path linked out of the package", "runtime.yaml")
        os.unlink(os.path.join(package, "runtime.yaml"))
        write(os.path.join(package, "runtime.yaml"), INSIDE_RUNTIME)
        inside_list = resource_list.replace(MARKER, "registry.example/inside")
        result = run([tool, "krm", "--mode", "render"], input=inside_list, cwd=package)
        checks.expect(result.returncode == 0 and "registry.example/inside" in result.stdout,
                      "krm: items inside the package render", result.stderr[-1500:])
        link(os.path.join(package, ".tjrender.yaml"), os.path.join(secret_dir, "config.yaml"))
        refused(run([tool, "krm"], input=inside_list, cwd=package), "krm: .tjrender.yaml linked out", ".tjrender.yaml")

        # --- post-render: .tjrender.yaml linked out of its folder; a link in
        # a --runtimes folder leading out of it (the walk's rule).
        chart_dir = os.path.join(work, "helm")
        link(os.path.join(chart_dir, ".tjrender.yaml"), os.path.join(secret_dir, "config.yaml"))
        refused(run([tool, "post-render"], input=TRAINJOB, cwd=chart_dir),
                "post-render: .tjrender.yaml linked out", ".tjrender.yaml")
        os.unlink(os.path.join(chart_dir, ".tjrender.yaml"))
        link(os.path.join(chart_dir, "platform", "runtime.yaml"), os.path.join(secret_dir, "secret.yaml"))
        held(run([tool, "post-render", "--mode", "render", "--runtimes", "platform"], input=TRAINJOB, cwd=chart_dir),
             "post-render: a --runtimes folder's link out of it", (2,))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    checks.done()


main()
