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
give namespace-less objects, unless --namespace says otherwise."""
import json
import os
import shutil

from common import SOURCE_ROOT, Checks, run, temp_dir, tjrender

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
    finally:
        shutil.rmtree(work)
    checks.done()


main()
