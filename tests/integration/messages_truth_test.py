#!/usr/bin/env python3
"""Messages and exits that tell the truth (issue 28, item 5), through the
binary as users run it:

- file names and YAML values with a newline, CR, ESC, a tab, `::error`,
  `%0A`, `,`, `:`, bytes that are not UTF-8 or a great length are escaped
  in every findings format and on stderr: text findings stay one line
  each (names quoted as git quotes paths), GitHub workflow commands carry
  them as escaped properties, SARIF URIs are percent-encoded (RFC 3986),
  JUnit stays well-formed XML 1.0 and JSON valid;
- a document over the node limit is refused naming that limit, its value
  and what the cluster takes, on render, check, diff and post-render, not
  as a file that "changed while tjrender was rendering it";
- migrate exits 2 on input errors, with or without --accept-differences;
- --flyte-config reads propeller's ConfigMap, a List of ConfigMaps and
  several documents, and refuses anything else with a located message."""
import json
import os
import re
import shutil
import subprocess
import urllib.parse
import xml.etree.ElementTree as ElementTree

from common import SOURCE_ROOT, TORCH_RUNTIME, Checks, run, temp_dir, tjrender

ESC = b"\x1b"

TRAINJOB = """apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata:
  name: {name}
  namespace: ml-team
spec:
  runtimeRef:
    name: absent
"""

# Names a repository may hold (any byte but '/' and NUL), as bytes.
HOSTILE_NAMES = [
    b"new\nline.yaml",
    b"carriage\rreturn.yaml",
    b"\x1b[31mred\x1b[0m.yaml",
    b"::error file=x::boom.yaml",
    b"per%0Acent,comma:colon.yaml",
    b"tab\there.yaml",
    b"bad\xffutf8.yaml",
    b"l" + b"o" * 200 + b"ng.yaml",
]


def write(path, data):
    if isinstance(path, bytes):
        os.makedirs(os.path.dirname(path), exist_ok=True)
    else:
        os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb" if isinstance(data, bytes) else "w") as f:
        f.write(data)


def run_bytes(args, **kwargs):
    return subprocess.run(args, capture_output=True, check=False, timeout=120, **kwargs)


def hostile_repo(work):
    """A folder of TrainJobs whose runtime is missing (one error each), in
    files with hostile names, and one whose value holds ESC."""
    repo = os.path.join(work, "hostile").encode()
    for i, name in enumerate(HOSTILE_NAMES):
        write(os.path.join(repo, name), TRAINJOB.format(name=f"job-{i}").encode())
    # A key a message quotes: one the CRD does not have (field-pruned), with
    # ESC (an xterm title sequence) and a newline in it.
    write(os.path.join(repo, b"runtime.yaml"), TORCH_RUNTIME.encode())
    write(os.path.join(repo, b"value.yaml"), (
        "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nmetadata:\n  name: value\n"
        "  namespace: ml-team\nspec:\n  runtimeRef:\n    name: torch-distributed\n  trainer:\n"
        "    image: img\n  \"\\e]0;title\\a\\nfake\": 1\n").encode())
    return repo


def check_escaping(tool, checks, work):
    repo = hostile_repo(work)
    # text, on stderr
    out = run_bytes([tool, "check", repo])
    lines = out.stderr.split(b"\n")
    checks.expect(out.returncode == 1 and ESC not in out.stderr and b"\r" not in out.stderr,
                  "text findings: no raw ESC or CR reaches the terminal", out.stderr.decode(errors="replace"))
    checks.expect(not any(line.startswith(b"::") for line in lines),
                  "text findings: no line is a GitHub workflow command", out.stderr.decode(errors="replace"))
    for name, shown in [(b"new\nline.yaml", b'"new\\nline.yaml"'), (b"\x1b[31mred\x1b[0m.yaml", b'"\\033[31mred\\033[0m.yaml"'),
                        (b"bad\xffutf8.yaml", b'"bad\\377utf8.yaml"'), (b"tab\there.yaml", b'"tab\\there.yaml"')]:
        at = b'"' + repo + b"/" + shown[1:]
        checks.expect(any(line.startswith(at + b":") for line in lines),
                      f"text findings: {name!r} is quoted as git quotes it", out.stderr.decode(errors="replace"))
    # A name that starts the line (given relative) and starts with '::'.
    named = run_bytes([tool, "check", b"::error file=x::boom.yaml"], cwd=repo)
    checks.expect(named.stderr.startswith(b'"::error file=x::boom.yaml":7:3: error: '),
                  "text findings: a name starting with :: is quoted where it starts the line",
                  named.stderr.decode(errors="replace"))
    plain = repo + b"/per%0Acent,comma:colon.yaml:"
    checks.expect(any(line.startswith(plain) for line in lines),
                  "text findings: a name of printable characters is printed as it is")
    long_name = repo + b"/" + HOSTILE_NAMES[-1]
    checks.expect(any(line.startswith(long_name + b":") for line in lines), "text findings: a long name is whole")
    stray = [line for line in lines if line and not re.search(rb":\d+:\d+: (error|warning|note): ", line) and
             not re.match(rb"^\d+ objects rendered, ", line)]
    checks.expect(not stray, "text findings: every finding is one line", repr(stray)[:800])
    checks.expect(b"\\033]0;title\\a\\nfake" in out.stderr,
                  "text findings: a key with ESC and a newline (a field-pruned warning) is shown escaped",
                  out.stderr.decode(errors="replace"))

    # github: annotations carry the name as an escaped property
    out = run_bytes([tool, "check", repo, "--format", "github"])
    commands = [line for line in out.stdout.split(b"\n") if line.startswith(b"::")]
    # GitHub decodes %25 %0D %0A %3A %2C in a property and nothing else: file=
    # carries the real name where that is safe, and a name with ESC, a tab or
    # a byte that is not UTF-8 percent-encoded, so no control reaches the log.
    checks.expect(ESC not in out.stdout and b"\r" not in out.stdout and b"\t" not in out.stdout,
                  "github: no raw ESC, CR or tab anywhere, file= included", out.stdout.decode(errors="replace"))
    files = []
    for command in commands:
        match = re.match(rb"^::(error|warning|notice) ([^:]*)::", command)
        if not match:
            continue
        properties = dict(p.split(b"=", 1) for p in match.group(2).split(b",") if b"=" in p)
        if b"file" in properties:
            files.append(urllib.parse.unquote_to_bytes(properties[b"file"]))
    on_disk = {os.path.join(repo, name) for name in HOSTILE_NAMES}
    exact = {name for name in on_disk if not re.search(rb"[\x00-\x09\x0b\x0c\x0e-\x1f\x7f-\xff]", name)}
    checks.expect(exact <= set(files),
                  "github: file= decodes to the real name of every file whose name has no control",
                  repr(sorted(exact - set(files)))[:800])
    checks.expect(on_disk <= set(files),
                  "github: file= percent-decodes to the real name of every file (controls as %XX)",
                  repr(sorted(on_disk - set(files)))[:800])
    checks.expect(all(command.count(b"::") == 2 for command in commands if not command.startswith(b"::notice")),
                  "github: a name's '::' is escaped in the property", out.stdout.decode(errors="replace")[:800])

    # JSON: valid, the names as they are (bytes that are not UTF-8 as U+FFFD)
    out = run_bytes([tool, "check", repo, "--format", "json"])
    try:
        findings = json.loads(out.stdout)["findings"]
    except ValueError:
        findings = []
    names = {f["file"] for f in findings if f.get("file")}
    checks.expect(os.path.join(repo, b"new\nline.yaml").decode() in names and
                  os.path.join(repo, b"\x1b[31mred\x1b[0m.yaml").decode() in names and
                  os.path.join(repo, b"bad\xffutf8.yaml").decode(errors="replace") in names,
                  "json: valid, with every name", out.stdout.decode(errors="replace")[:800])

    # SARIF: URIs percent-encoded (RFC 3986), decoding to the real names
    out = run_bytes([tool, "check", repo, "--format", "sarif"])
    try:
        results = json.loads(out.stdout)["runs"][0]["results"]
    except (ValueError, KeyError, IndexError):
        results = []
    uris = [loc["physicalLocation"]["artifactLocation"]["uri"] for r in results for loc in r.get("locations", [])
            if "physicalLocation" in loc]
    allowed = re.compile(r"^[A-Za-z0-9\-._~!$&'()*+,;=:@/%]*$")
    decoded = {urllib.parse.unquote_to_bytes(u.removeprefix("file://")) for u in uris}
    checks.expect(uris and all(allowed.match(u) for u in uris) and on_disk <= decoded,
                  "sarif: every URI is RFC 3986 and decodes to the real name", repr(uris)[:800])

    # JUnit: well-formed XML 1.0, names shown escaped (nothing lost to U+FFFD)
    out = run_bytes([tool, "check", repo, "--format", "junit"])
    try:
        suites = ElementTree.fromstring(out.stdout)
        text = "".join(suites.itertext()) + "".join(v for e in suites.iter() for v in e.attrib.values())
    except ElementTree.ParseError as error:
        text = "<" + str(error) + ">"
    checks.expect("\\033[31mred" in text and "\\377utf8" in text and "\ufffd" not in text,
                  "junit: well-formed XML, control characters shown as escapes (nothing lost)", text[:800])

    # --verbose notes and render --out's messages
    out_dir = os.path.join(work.encode(), b"out\x1b[41m\nx")
    out = run_bytes([tool, "render", "-v", os.path.join(repo, b"value.yaml"), os.path.join(repo, b"runtime.yaml"),
                     "--out", out_dir])
    checks.expect(ESC not in out.stderr and b"out\\033[41m\\nx" in out.stderr,
                  "render --out -v: the folder's name is escaped in its messages", out.stderr.decode(errors="replace"))


def big_trainjob(name, nodes):
    """A TrainJob alone in its file whose spec holds `nodes` list items (in
    block style, the shape the streaming render prunes on its first read)."""
    return (f"apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nmetadata:\n  name: {name}\n"
            "  namespace: ml-team\nspec:\n  runtimeRef:\n    name: torch-distributed\n  trainer:\n"
            "    args:\n" + "    - a\n" * nodes)


def says_the_limit(stderr):
    return ("2000000 nodes" in stderr and "tjrender's limit per document" in stderr and "3 MiB" in stderr and
            "changed while" not in stderr and "input files changed" not in stderr)


def check_limits(tool, checks, work):
    repo = os.path.join(work, "big")
    write(os.path.join(repo, "runtime.yaml"), TORCH_RUNTIME)
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"]
    run(["git", "init", "-q", repo])
    run(git + ["-C", repo, "add", "."])
    run(git + ["-C", repo, "commit", "-q", "-m", "runtime"])
    write(os.path.join(repo, "jobs", "big.yaml"), big_trainjob("big", 2_000_100))
    write(os.path.join(repo, "jobs", "small.yaml"), TRAINJOB.format(name="small").replace("absent", "torch-distributed"))
    out = run([tool, "render", repo, "-o", "-"])
    checks.expect(out.returncode == 2 and says_the_limit(out.stderr),
                  "render: a document over the node limit names the limit, not a change", out.stderr[-1500:])
    out = run([tool, "render", repo, "--out", os.path.join(work, "big-out"), "--findings-format", "json"])
    document = out.stdout + out.stderr
    try:
        rules = {f["rule"] for f in json.loads(document[document.find("{"):]).get("findings", [])}
    except ValueError:
        rules = set()
    checks.expect(out.returncode == 2 and rules == {"input-too-large"} and "changed while" not in out.stderr and
                  "input files changed" not in out.stderr,
                  "render --out: rule input-too-large, no 'input files changed'", repr(rules) + out.stderr[-1500:])
    out = run([tool, "check", repo])
    checks.expect(out.returncode == 2 and says_the_limit(out.stderr),
                  "check: the node limit named", out.stderr[-1500:])
    run(git + ["-C", repo, "add", "."])
    run(git + ["-C", repo, "commit", "-q", "-m", "big"])
    out = run([tool, "render", "--rev", "HEAD", "-o", "-"], cwd=repo)
    checks.expect(out.returncode == 2 and says_the_limit(out.stderr),
                  "render --rev: the node limit named", out.stderr[-1500:])
    out = run([tool, "diff", "HEAD~1", "HEAD"], cwd=repo)
    checks.expect(out.returncode == 2 and says_the_limit(out.stderr),
                  "diff BASE HEAD: the node limit named", out.stderr[-1500:])
    with open(os.path.join(repo, "jobs", "big.yaml")) as stdin:
        out = run([tool, "post-render"], stdin=stdin)
    checks.expect(out.returncode != 0 and says_the_limit(out.stderr),
                  "post-render: the node limit named", out.stderr[-1500:])


FLYTE_TASK = """namespace: flytesnacks-development
execution:
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

# flyte-core's flyte-propeller-config as `kubectl get configmap -o yaml`
# prints it: each key a config file propeller reads, merged in key order.
PROPELLER_CONFIGMAP = """apiVersion: v1
kind: ConfigMap
metadata:
  name: flyte-propeller-config
  namespace: flyte-prod
data:
  core.yaml: |
    propeller:
      workers: 4
  enabled_plugins.yaml: |
    tasks:
      task-plugins:
        enabled-plugins: [container, sidecar, k8s-array]
  k8s.yaml: |
    plugins:
      k8s:
        default-labels:
          from: configmap
        default-env-vars:
        - CLUSTER: prod
"""

ADMIN_CONFIGMAP = """apiVersion: v1
kind: ConfigMap
metadata:
  name: flyte-admin-base-config
  namespace: flyte-prod
data:
  task_resource_defaults.yaml: |
    task_resources:
      defaults: {cpu: 700m, memory: 700Mi}
      limits: {cpu: 2, memory: 1Gi}
"""


def indent(text, by):
    return "".join(by + line if line.strip() else line for line in text.splitlines(True))


def pod(tool, repo, config):
    out = run([tool, "render", "-o", "json", repo, "--flyte-config", config])
    try:
        return out, json.loads(out.stdout)
    except ValueError:
        return out, {}


def check_flyte_config(tool, checks, work):
    repo = os.path.join(work, "flyte")
    write(os.path.join(repo, "task.yaml"), FLYTE_TASK)
    config = os.path.join(work, "given.yaml")

    def labels_env(p):
        container = (p.get("spec", {}).get("containers") or [{}])[0]
        return (p.get("metadata", {}).get("labels", {}), {e.get("name"): e.get("value") for e in container.get("env", [])},
                container.get("resources", {}).get("requests"))

    write(config, PROPELLER_CONFIGMAP)
    out, p = pod(tool, repo, config)
    labels, env, _ = labels_env(p)
    checks.expect(out.returncode == 0 and labels.get("from") == "configmap" and env.get("CLUSTER") == "prod",
                  "--flyte-config: propeller's ConfigMap is read", out.stderr + out.stdout[:500])

    items = indent(PROPELLER_CONFIGMAP, "  ").replace("  apiVersion", "- apiVersion", 1)
    admin = indent(ADMIN_CONFIGMAP, "  ").replace("  apiVersion", "- apiVersion", 1)
    root_ca = "- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: kube-root-ca.crt, namespace: flyte-prod}\n" \
              "  data: {ca.crt: x}\n"
    write(config, "apiVersion: v1\nkind: List\nitems:\n" + root_ca + items + admin + "metadata:\n  resourceVersion: \"\"\n")
    out, p = pod(tool, repo, config)
    labels, env, requests = labels_env(p)
    checks.expect(out.returncode == 0 and labels.get("from") == "configmap" and
                  requests == {"cpu": "700m", "memory": "700Mi"} and "flyte-task-resources-assumed" not in out.stderr,
                  "--flyte-config: a List of ConfigMaps (kubectl get cm -o yaml) is read, every one",
                  out.stderr + json.dumps(p)[:800])

    write(config, PROPELLER_CONFIGMAP + "---\n" + ADMIN_CONFIGMAP +
          "---\nplugins:\n  k8s:\n    default-labels:\n      from: last-document\n")
    out, p = pod(tool, repo, config)
    labels, env, requests = labels_env(p)
    checks.expect(out.returncode == 0 and labels.get("from") == "last-document" and env.get("CLUSTER") == "prod" and
                  requests == {"cpu": "700m", "memory": "700Mi"},
                  "--flyte-config: several documents merge, later ones winning", out.stderr + json.dumps(p)[:800])

    refused = [
        ("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: flytepropeller}\n", "given.yaml:1:1:",
         "a Deployment"),
        ("plugin:\n  k8s:\n    default-labels: {a: b}\n", "given.yaml:1:1:", "its top-level keys: plugin"),
        ("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x, namespace: flyte}\ndata: {a.txt: b}\n",
         "given.yaml:1:1:", "ConfigMap flyte/x"),
        ("plugins:\n  k8s: {}\n---\n- a list\n", "given.yaml:4:1:", "an array"),
        ("", "given.yaml:", "no document"),
    ]
    for text, where, what in refused:
        write(config, text)
        for command in (["render", repo, "-o", "-"], ["check", repo], ["check", os.path.join(work, "nothing")]):
            os.makedirs(os.path.join(work, "nothing"), exist_ok=True)
            out = run([tool, *command, "--flyte-config", config])
            checks.expect(out.returncode == 2 and os.path.join(work, where) in out.stderr and what in out.stderr and
                          "--flyte-config" in out.stderr,
                          f"--flyte-config refuses {what!r} with its location ({command[0]}"
                          f"{', no task' if 'nothing' in command[1] else ''})", out.stderr)


def check_migrate(tool, checks, work):
    """Exit 2 on input errors, with or without --accept-differences (the
    manual: 0 nothing differs, 1 differences, 2 usage or input errors)."""
    repo = os.path.join(work, "migrate")
    write(os.path.join(repo, "runtime.yaml"), TORCH_RUNTIME)
    write(os.path.join(repo, "job.yaml"), TRAINJOB.format(name="job").replace("absent", "torch-distributed") +
          "  podTemplateOverrides:\n  - targetJobs: [{name: node}]\n    metadata: {labels: {team: ml}}\n")
    inputs = {
        "a runtime whose metadata is no mapping":
            ("broken.yaml", "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: ClusterTrainingRuntime\n"
                            "metadata: 5\nspec: {}\n"),
        "an object whose kind is no string":
            ("kind.yaml", "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: [ClusterTrainingRuntime]\n"
                          "metadata: {name: x}\n"),
        "a document over the node limit": ("big.yaml", big_trainjob("big", 2_000_100)),
        "a file that does not parse": ("bad.yaml", "a: [\n"),
    }
    for what, (name, text) in inputs.items():
        path = os.path.join(repo, name)
        write(path, text)
        for accept in ([], ["--accept-differences"]):
            out = run([tool, "migrate", repo, *accept])
            checks.expect(out.returncode == 2 and path in out.stderr,
                          f"migrate {' '.join(accept)}: {what} exits 2", f"exit {out.returncode}\n" + out.stderr[-1200:])
        os.remove(path)
    out = run([tool, "migrate", os.path.join(repo, "job.yaml"), "--repo", os.path.join(work, "no-such-folder"),
               "--accept-differences"])
    checks.expect(out.returncode == 2 and "no such folder" in out.stderr,
                  "migrate --repo MISSING --accept-differences exits 2 naming it", out.stderr[-800:])
    out = run([tool, "migrate", repo])
    checks.expect(out.returncode == 0, "migrate: a clean repository still exits 0", out.stderr[-800:])


def check_conformance_diff(tool, checks, work):
    """A failing case's diff stays a block of lines (each escaped on its
    own), not one line of \\n escapes."""
    case = os.path.join(work, "conformance", "lammps")
    shutil.copytree(os.path.join(SOURCE_ROOT, "conformance", "plugins-flux", "example-lammps-v23"), case)
    expected = os.path.join(case, "expected.yaml")
    with open(expected) as f:
        text = f.read()
    with open(expected, "w") as f:
        f.write(text.replace("metric-lammps:latest", "metric-lammps:latest-changed", 1))
    out = run([tool, "conformance", os.path.dirname(case)])
    lines = out.stderr.splitlines()
    checks.expect(out.returncode == 1 and "  --- expected" in lines and "  +++ actual" in lines and
                  any(line.startswith("  -") and "latest-changed" in line for line in lines),
                  "conformance: a failing case's diff is printed line by line",
                  out.stderr[-1500:])


def main():
    tool = tjrender()
    checks = Checks()
    work = temp_dir("tjrender-messages-")
    try:
        check_escaping(tool, checks, work)
        check_limits(tool, checks, work)
        check_migrate(tool, checks, work)
        check_flyte_config(tool, checks, work)
        check_conformance_diff(tool, checks, work)
    finally:
        shutil.rmtree(work)
    checks.done()


main()
