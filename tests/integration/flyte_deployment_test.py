#!/usr/bin/env python3
"""A Flyte deployment repository as its users keep it: the chart's Helm
values (no hand-extracted propeller config file), PodTemplates and tasks,
checked with `tjrender render -v .` as typed.

Where propeller's plugins.k8s lives in Flyte's charts (flyteorg/flyte
v1.16.8): flyte-core writes `configmap.k8s` as the `k8s.yaml` key of
flyte-propeller-config and `configmap.core` as `core.yaml`
(charts/flyte-core/templates/propeller/configmap.yaml), in the namespace
`default .Release.Namespace .Values.forceNamespace` (templates/_helpers.tpl);
flyte-binary writes `configuration.inline` as `100-inline-config.yaml`
(charts/flyte-binary/templates/configmap.yaml). PodTemplateStore.LoadOrDefault
(flyteplugins pluginmachinery/flytek8s/pod_template_store.go:45-58) looks a
template up in the task's namespace, then in propeller's own
(flytepropeller pkg/controller/controller.go:396-401: POD_NAMESPACE, else
"flyte"), nowhere else."""
import json
import os
import shutil

from common import Checks, run, temp_dir, tjrender

TASK = """namespace: flytesnacks-development
execution:
  platformResources: {}
  generatedName: pod-abc-n0-0
id: {resourceType: TASK, project: flytesnacks, domain: development, name: wf.t1, version: v1}
type: python-task
config: {primary_container_name: primary}
k8sPod:
  podSpec:
    containers:
    - name: primary
      image: task:v1
      args: [pyflyte-execute]
"""
FLYTE_CORE_VALUES = """# values for the flyte-core chart
storage:
  bucketName: my-bucket
configmap:
  core:
    propeller:
      rawoutput-prefix: "s3://{{ .Values.storage.bucketName }}/"
      literal-offloading-config:
        enabled: true
  k8s:
    plugins:
      k8s:
        default-env-vars:
          - AWS_REGION: us-east-1
        default-cpus: 200m
        default-memory: 300Mi
        default-pod-template-name: team-template
"""
FLYTE_BINARY_UMBRELLA_VALUES = """# an umbrella chart's values for its flyte-binary dependency
flyte-binary:
  configuration:
    inline:
      plugins:
        k8s:
          default-env-vars:
            - TEAM: ml
          default-pod-template-name: team-template
"""


def template(namespace):
    return f"""apiVersion: v1
kind: PodTemplate
metadata:
  name: team-template
  namespace: {namespace}
template:
  spec:
    containers:
    - {{name: default, image: noop, workingDir: /from-{namespace}}}
"""


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def pod_of(tool, repo, *extra):
    out = run([tool, "render", "-v", "-o", "json", ".", *extra], cwd=repo)
    try:
        return out, json.loads(out.stdout)
    except ValueError:
        return out, {}


def main():
    tool = tjrender()
    checks = Checks()
    work = temp_dir("tjrender-flyte-deploy-")
    try:
        repo = os.path.join(work, "repo")
        write(os.path.join(repo, "workflows", "task.yaml"), TASK)
        write(os.path.join(repo, "deploy", "values.yaml"), FLYTE_CORE_VALUES)
        write(os.path.join(repo, "deploy", "podtemplates.yaml"), template("platform"))

        out, pod = pod_of(tool, repo)
        container = (pod.get("spec", {}).get("containers") or [{}])[0]
        env = {e.get("name"): e.get("value") for e in container.get("env", [])}
        checks.expect(out.returncode == 0 and env.get("AWS_REGION") == "us-east-1" and "_F_L_MIN_SIZE_MB" in env and
                      container.get("resources", {}).get("requests") == {"cpu": "200m", "memory": "300Mi"},
                      "flyte-core values: configmap.k8s and configmap.core.propeller apply to the Pod",
                      out.stderr + out.stdout[:600])
        at = FLYTE_CORE_VALUES.split("\n").index("        default-env-vars:") + 1
        checks.expect(f"deploy/values.yaml:{at}:9: note: configmap.k8s.plugins.k8s: propeller's plugins.k8s read "
                      "from the flyte-core Helm values in deploy/values.yaml" in out.stderr,
                      "a note names the values file and where plugins.k8s is in it", out.stderr)
        checks.expect("[flyte-pod-template-other-namespace]" in out.stderr and
                      '"platform" (deploy/podtemplates.yaml:1:1)' in out.stderr and
                      'task\'s namespace "flytesnacks-development"' in out.stderr and 'its own, "flyte"' in out.stderr,
                      "default-pod-template-name in a third namespace: a note says why it is not applied", out.stderr)
        checks.expect("workingDir" not in container, "... and it is not applied", json.dumps(container))
        quiet = run([tool, "render", "--strict", "."], cwd=repo)
        checks.expect(quiet.returncode == 0 and "flyte-pod-template-other-namespace" not in quiet.stderr,
                      "the note is a note: --strict passes and it shows with -v only", quiet.stderr)
        check = run([tool, "check", "."], cwd=repo)
        checks.expect(check.returncode == 0, "check . passes", check.stderr)

        # forceNamespace is where flyte-core puts propeller: the template applies.
        write(os.path.join(repo, "deploy", "values.yaml"), FLYTE_CORE_VALUES + "forceNamespace: platform\n")
        out, pod = pod_of(tool, repo)
        container = (pod.get("spec", {}).get("containers") or [{}])[0]
        checks.expect(out.returncode == 0 and container.get("workingDir") == "/from-platform" and
                      "flyte-pod-template-other-namespace" not in out.stderr and
                      'propeller\'s namespace "platform" from forceNamespace' in out.stderr,
                      "forceNamespace: platform: propeller's namespace, so its template applies",
                      out.stderr + json.dumps(container))

        # In the task's namespace it applies, with no note.
        write(os.path.join(repo, "deploy", "values.yaml"), FLYTE_CORE_VALUES)
        write(os.path.join(repo, "deploy", "podtemplates.yaml"), template("flytesnacks-development"))
        out, pod = pod_of(tool, repo)
        container = (pod.get("spec", {}).get("containers") or [{}])[0]
        checks.expect(out.returncode == 0 and container.get("workingDir") == "/from-flytesnacks-development" and
                      "flyte-pod-template-other-namespace" not in out.stderr,
                      "a template in the task's namespace applies, no note", out.stderr)

        # flyte-binary under an umbrella chart's dependency key.
        os.remove(os.path.join(repo, "deploy", "values.yaml"))
        write(os.path.join(repo, "deploy", "umbrella-values.yaml"), FLYTE_BINARY_UMBRELLA_VALUES)
        write(os.path.join(repo, "deploy", "podtemplates.yaml"), template("platform"))
        out, pod = pod_of(tool, repo)
        container = (pod.get("spec", {}).get("containers") or [{}])[0]
        env = {e.get("name"): e.get("value") for e in container.get("env", [])}
        checks.expect(out.returncode == 0 and env.get("TEAM") == "ml" and
                      "flyte-binary.configuration.inline.plugins.k8s: propeller's plugins.k8s read from the "
                      "flyte-binary Helm values in deploy/umbrella-values.yaml" in out.stderr and
                      "[flyte-pod-template-other-namespace]" in out.stderr,
                      "flyte-binary values (configuration.inline) under the dependency's key", out.stderr)

        # --flyte-config takes a values file as well.
        os.remove(os.path.join(repo, "deploy", "umbrella-values.yaml"))
        values = os.path.join(work, "values.yaml")
        write(values, FLYTE_CORE_VALUES)
        out, pod = pod_of(tool, repo, "--flyte-config", values)
        container = (pod.get("spec", {}).get("containers") or [{}])[0]
        env = {e.get("name"): e.get("value") for e in container.get("env", [])}
        checks.expect(out.returncode == 0 and env.get("AWS_REGION") == "us-east-1",
                      "--flyte-config VALUES reads the chart's values", out.stderr)

        # Values that leave plugins.k8s to the chart's defaults but set
        # flyteadmin's task resources (configmap.task_resource_defaults, which
        # flyte-core writes into flyteadmin's ConfigMap), for a task
        # launched through flyteadmin (no execution.platformResources).
        os.remove(os.path.join(repo, "deploy", "podtemplates.yaml"))
        write(os.path.join(repo, "deploy", "values.yaml"),
              "configmap:\n  task_resource_defaults:\n    task_resources:\n      defaults:\n"
              "        cpu: 1000m\n        memory: 1000Mi\n      limits:\n        storage: 2000Mi\n")
        write(os.path.join(repo, "workflows", "task.yaml"), TASK.replace("  platformResources: {}\n", ""))
        out, pod = pod_of(tool, repo)
        container = (pod.get("spec", {}).get("containers") or [{}])[0]
        checks.expect(out.returncode == 0 and container.get("resources", {}).get("requests") ==
                      {"cpu": "1", "memory": "1000Mi"} and "flyte-task-resources-assumed" not in out.stderr and
                      "deploy/values.yaml:4:7: note: configmap.task_resource_defaults.task_resources: flyteadmin's "
                      "task_resources read from the flyte-core Helm values in deploy/values.yaml" in out.stderr,
                      "flyte-core values with task_resource_defaults only: flyteadmin's defaults apply",
                      out.stderr + json.dumps(container))
        write(os.path.join(repo, "workflows", "task.yaml"), TASK)

        # Two values files are two configurations, as two config files are.
        write(os.path.join(repo, "deploy", "values.yaml"), FLYTE_CORE_VALUES)
        write(os.path.join(repo, "deploy", "values-prod.yaml"), FLYTE_CORE_VALUES)
        out = run([tool, "render", "."], cwd=repo)
        checks.expect(out.returncode == 2 and "a second propeller configuration file" in out.stderr and
                      "--flyte-config" in out.stderr, "two values files: an error naming --flyte-config", out.stderr)
    finally:
        shutil.rmtree(work)
    checks.done()


main()
