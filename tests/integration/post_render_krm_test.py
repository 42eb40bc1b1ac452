#!/usr/bin/env python3
"""`tjrender post-render` as Helm calls it (stream on stdin, stream on
stdout, non-zero on failure) and `tjrender krm` as kustomize/kpt call it
(ResourceList in and out), with round trips."""
import json
import os
import shutil
import subprocess

from common import LONELY_TRAINJOB, SAMPLE_REPO, Checks, run, temp_dir, tjrender

# The sample repository is a Trainer v2.1 one (podTemplateOverrides).
V21 = "trainer-v2.1"

HELM_ANNOTATION = "postrenderer.helm.sh/postrender-filename"


def read(path):
    with open(path) as f:
        return f.read()


def annotate(text, template):
    """What Helm does before the post-renderer: a file annotation per document."""
    anchor = "metadata:\n"
    return text.replace(anchor, anchor + f"  annotations:\n    {HELM_ANNOTATION}: {template}\n", 1)


def json_objects(tool, stream, work):
    path = os.path.join(work, "stream.yaml")
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


def main():
    tool = tjrender()
    checks = Checks()
    work = temp_dir("tjrender-postrender-")
    try:
        runtime = read(os.path.join(SAMPLE_REPO, "runtimes", "torch_distributed.yaml"))
        trainjob = read(os.path.join(SAMPLE_REPO, "trainjobs", "custom-sa-node-selector.yaml"))
        # Helm output: odd but valid formatting that must survive untouched.
        other = ("# Source: chart/templates/cm.yaml\napiVersion: v1\nkind: ConfigMap\nmetadata:\n"
                 f"  annotations:\n    {HELM_ANNOTATION}: chart/templates/cm.yaml\n"
                 "  name:   'quoted'    # a comment\ndata: {a: \"1\", b: yes}\n")
        stream = other + "---\n" + annotate(runtime, "chart/templates/rt.yaml") + "---\n" + \
            annotate(trainjob, "chart/templates/job.yaml")

        validated = run([tool, "post-render", "--target", V21], input=stream)
        checks.expect(validated.returncode == 0 and validated.stdout == stream,
                      "validate: the stream comes back byte for byte", validated.stderr)

        rendered = run([tool, "post-render", "--target", V21, "--mode", "render"], input=stream)
        checks.expect(rendered.returncode == 0, "render exits 0", rendered.stderr)
        checks.expect(rendered.stdout.startswith(other + "---\n"), "render: other documents byte for byte",
                      rendered.stdout[:400])
        objects = json_objects(tool, rendered.stdout, work)
        kinds = [o["kind"] for o in objects]
        checks.expect(kinds == ["ConfigMap", "JobSet"], "render: TrainJob replaced, runtime left out", str(kinds))
        jobset = objects[-1] if objects else {}
        checks.expect(jobset.get("metadata", {}).get("annotations", {}).get(HELM_ANNOTATION) ==
                      "chart/templates/job.yaml", "the JobSet keeps Helm's file annotation", json.dumps(jobset)[:300])
        # Helm applies the objects without the TrainJob: render --for-apply.
        direct = run([tool, "render", "--for-apply", "--target", V21, "-"], input=runtime + "---\n" + trainjob)
        direct_jobset = json_objects(tool, direct.stdout, work)[-1]
        jobset.get("metadata", {}).get("annotations", {}).pop(HELM_ANNOTATION, None)
        if not jobset.get("metadata", {}).get("annotations", {}):
            jobset.get("metadata", {}).pop("annotations", None)
        checks.expect(jobset == direct_jobset, "render: the same JobSet as tjrender render --for-apply")
        checks.expect("ownerReferences" not in rendered.stdout, "render: no ownerReferences to the TrainJob")

        bad = run([tool, "post-render", "--target", V21], input=stream + "---\n" + LONELY_TRAINJOB)
        checks.expect(bad.returncode == 1 and bad.stdout == "", "a refused TrainJob: exit 1, empty stdout", bad.stdout)
        checks.expect("<stdin>:" in bad.stderr and "Invalid value" in bad.stderr, "the finding on stderr", bad.stderr)
        checks.expect(run([tool, "post-render", "--target", V21], input="a: [").returncode == 2, "malformed input exits 2")

        # KRM: items with kustomize's origin annotations.
        items = []
        for path, text in (("runtimes/torch.yaml", runtime), ("jobs/job.yaml", trainjob), ("jobs/bad.yaml", LONELY_TRAINJOB)):
            for index, obj in enumerate(json_objects(tool, text, work)):
                obj.setdefault("metadata", {}).setdefault("annotations", {}).update({
                    "internal.config.kubernetes.io/path": path,
                    "internal.config.kubernetes.io/index": str(index)})
                items.append(obj)
        resource_list = {"apiVersion": "config.kubernetes.io/v1", "kind": "ResourceList", "items": items[:2]}
        clean = run([tool, "krm", "--target", V21], input=json.dumps(resource_list))
        out = json_objects(tool, clean.stdout, work)
        checks.expect(clean.returncode == 0 and len(out) == 1 and out[0]["kind"] == "ResourceList",
                      "krm: one ResourceList out", clean.stderr)
        checks.expect(out and out[0]["items"] == resource_list["items"], "krm validate: items round-trip unchanged")
        checks.expect(out and "results" not in out[0], "krm: no results when clean")

        resource_list["items"] = items
        failing = run([tool, "krm", "--target", V21], input=json.dumps(resource_list))
        out = json_objects(tool, failing.stdout, work)
        results = out[0].get("results", []) if out else []
        errors = [r for r in results if r.get("severity") == "error"]
        checks.expect(failing.returncode == 1, "krm: exit 1 on an error result")
        checks.expect(len(errors) == 1 and errors[0].get("file") == {"path": "jobs/bad.yaml", "index": 0} and
                      errors[0].get("resourceRef", {}).get("name") == "lonely" and
                      errors[0].get("field", {}).get("path") == "spec.RuntimeRef",
                      "krm result: resourceRef, field.path, file.path/index", json.dumps(results, indent=1))

        resource_list["items"] = items[:2]
        resource_list["functionConfig"] = {"apiVersion": "v1", "kind": "ConfigMap",
                                           "metadata": {"name": "tjrender"}, "data": {"mode": "render"}}
        rendered_list = run([tool, "krm", "--target", V21], input=json.dumps(resource_list))
        out = json_objects(tool, rendered_list.stdout, work)
        kinds = [i["kind"] for i in out[0]["items"]] if out else []
        checks.expect(rendered_list.returncode == 0 and kinds == ["JobSet"], "krm render via functionConfig", str(kinds))
        jobset = out[0]["items"][0] if kinds else {}
        checks.expect("ownerReferences" not in jobset.get("metadata", {}),
                      "krm render: no ownerReferences (the TrainJob is not applied)", json.dumps(jobset)[:300])
        checks.expect(jobset.get("metadata", {}).get("namespace") == "ml-team",
                      "krm render: the TrainJob's namespace")
        # Written without a namespace, the TrainJob's objects have none:
        # kustomize and kpt place them.
        namespaceless = json.loads(json.dumps(resource_list))
        for item in namespaceless["items"]:
            item["metadata"].pop("namespace", None)
        floating = run([tool, "krm", "--target", V21], input=json.dumps(namespaceless))
        out = json_objects(tool, floating.stdout, work)
        jobsets = [i for i in out[0]["items"] if i["kind"] == "JobSet"] if out else []
        checks.expect(floating.returncode == 0 and len(jobsets) == 1 and "namespace" not in jobsets[0]["metadata"] and
                      "tjrender-untold-namespace" not in floating.stdout,
                      "krm render: a TrainJob without a namespace gives objects without one", floating.stdout[:600])
        path = out[0]["items"][0]["metadata"]["annotations"].get("internal.config.kubernetes.io/path") if kinds else None
        checks.expect(path == "jobs/rendered_" + out[0]["items"][0]["metadata"]["name"] + ".yaml" if kinds else False,
                      "rendered items get a path beside their TrainJob", str(path))
        checks.expect(run([tool, "krm", "--target", V21], input="kind: List\napiVersion: v1\nitems: []\n").returncode == 2,
                      "krm refuses a non-ResourceList")
        kpt_round_trip(tool, checks, work, runtime, trainjob)
    finally:
        shutil.rmtree(work)
    checks.done()


def kpt_round_trip(tool, checks, work, runtime, trainjob):
    """`kpt fn eval --exec` against a package on disk, when kpt is installed."""
    kpt = shutil.which("kpt")
    if not kpt:
        print("kpt is not installed: its part is skipped")
        return
    package = os.path.join(work, "pkg")
    os.makedirs(os.path.join(package, "jobs"))
    files = {"runtime.yaml": "# the runtime\n" + runtime, "jobs/job.yaml": trainjob}
    for name, text in files.items():
        with open(os.path.join(package, name), "w") as f:
            f.write(text)
    try:
        validated = run([kpt, "fn", "eval", package, "--exec", tool + " krm --target " + V21], timeout=120)
        checks.expect(validated.returncode == 0, "kpt fn eval --exec: validate passes", validated.stderr)
        unchanged = all(open(os.path.join(package, n)).read() == t for n, t in files.items())
        checks.expect(unchanged, "kpt validate leaves the files (comments included) unchanged")
        with open(os.path.join(package, "jobs", "bad.yaml"), "w") as f:
            f.write(LONELY_TRAINJOB)
        failed = run([kpt, "fn", "eval", package, "--exec", tool + " krm --target " + V21], timeout=120)
        checks.expect(failed.returncode != 0 and "[error] trainer.kubeflow.org/v1alpha1/TrainJob/ml-team/lonely" in
                      failed.stderr, "kpt shows the error result and fails", failed.stderr)
        os.remove(os.path.join(package, "jobs", "bad.yaml"))
        rendered = run([kpt, "fn", "eval", package, "--exec", tool + " krm --target " + V21, "--", "mode=render"], timeout=120)
        names = sorted(os.path.relpath(os.path.join(d, n), package) for d, _, ns in os.walk(package) for n in ns)
        checks.expect(rendered.returncode == 0 and names == ["jobs/rendered_pytorch-distributed-custom.yaml"],
                      "kpt render: the TrainJob's JobSet replaces the package", str(names) + rendered.stderr)
    except subprocess.TimeoutExpired as timeout:
        checks.expect(False, "kpt finished", str(timeout))


main()
