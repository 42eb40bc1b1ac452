"""Shared pieces of scripts/smp-oracle and scripts/smp-differential.

The corpus lives in fixtures/smp-oracle/: meta.json plus cases-NN.jsonl,
one JSON object per line and per case:

  index, seed           generator index and per-case seed (smp_gen.py)
  object, patch         the exact input file texts given to kubectl
  object_format, patch_format   how they were written (json, json-indent,
                        json-ascii, yaml); needed to re-render minimised cases
  tags                  coverage tags (smp_gen.TAGS)
  yaml                  kubectl's answer with -o yaml: {"rc": int,
                        "stdout": str} and "stderr" when non-empty
  json                  the same with -o json (only on every k-th case)

Standard library only.
"""

import concurrent.futures
import difflib
import glob
import json
import os
import subprocess
import sys
import tempfile

import smp_gen

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_CORPUS = os.path.join(REPO, "fixtures", "smp-oracle")
FORMATS = ("yaml", "json")


def kubectl_env():
    """A hermetic environment: no kubeconfig, no cache in the real HOME."""
    env = dict(os.environ)
    env["KUBECONFIG"] = os.devnull
    env.pop("KUBECTL_EXTERNAL_DIFF", None)
    return env


def run_kubectl(kubectl, obj_path, patch_path, fmt, env=None):
    proc = subprocess.run(
        [kubectl, "patch", "--local", "-f", obj_path, "--type", "strategic",
         "--patch-file", patch_path, "-o", fmt],
        capture_output=True, env=env or kubectl_env(), timeout=60)
    res = {"rc": proc.returncode,
           "stdout": proc.stdout.decode("utf-8", "surrogateescape")}
    err = proc.stderr.decode("utf-8", "surrogateescape")
    if err:
        res["stderr"] = err
    return res


def write_inputs(directory, name, case):
    """Writes NAME.object / NAME.patch (the exact texts) and returns both paths."""
    obj = os.path.join(directory, name + ".object")
    pat = os.path.join(directory, name + ".patch")
    with open(obj, "w", encoding="utf-8", newline="") as f:
        f.write(case["object"])
    with open(pat, "w", encoding="utf-8", newline="") as f:
        f.write(case["patch"])
    return obj, pat


def run_kubectl_cases(kubectl, cases, formats_for, jobs, workdir, repeat_yaml=1,
                      progress=None):
    """Runs kubectl on every case in parallel; stores results into each case.

    formats_for(case) names the output formats to ask for. With
    repeat_yaml=2 the -o yaml run is done twice and a case whose answers
    differ gets "nondeterministic": true."""
    env = kubectl_env()

    def one(i_case):
        i, case = i_case
        obj, pat = write_inputs(workdir, "k%05d" % i, case)
        for fmt in formats_for(case):
            case[fmt] = run_kubectl(kubectl, obj, pat, fmt, env)
            if fmt == "yaml" and repeat_yaml > 1:
                for _ in range(repeat_yaml - 1):
                    again = run_kubectl(kubectl, obj, pat, fmt, env)
                    if (again["rc"] == 0) != (case[fmt]["rc"] == 0) or \
                            (again["rc"] == 0 and again["stdout"] != case[fmt]["stdout"]):
                        case["nondeterministic"] = True
        os.unlink(obj)
        os.unlink(pat)
        return i

    done = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        for _ in pool.map(one, enumerate(cases)):
            done += 1
            if progress and done % 200 == 0:
                progress(done)


def kubectl_version(kubectl):
    text = subprocess.run([kubectl, "version", "--client"], capture_output=True,
                          env=kubectl_env()).stdout.decode()
    js = subprocess.run([kubectl, "version", "--client", "-o", "json"],
                        capture_output=True, env=kubectl_env()).stdout.decode()
    try:
        parsed = json.loads(js)
    except ValueError:
        parsed = None
    return text, parsed


def case_record(case):
    """The stored form of a generated case (values dropped, texts kept)."""
    rec = {k: case[k] for k in ("index", "seed", "object_format", "patch_format",
                                "object", "patch", "tags")}
    for k in ("nondeterministic",) + FORMATS:
        if k in case:
            rec[k] = case[k]
    return rec


def load_corpus(directory):
    meta_path = os.path.join(directory, "meta.json")
    with open(meta_path, encoding="utf-8") as f:
        meta = json.load(f)
    cases = []
    for path in sorted(glob.glob(os.path.join(directory, "cases-*.jsonl"))):
        with open(path, encoding="utf-8") as f:
            for line in f:
                if line.strip():
                    cases.append(json.loads(line))
    cases.sort(key=lambda c: c["index"])
    return meta, cases


# ---------------------------------------------------------------------------
# tjrender


def run_tjrender_batch(tjrender, cases, fmt, workdir, timeout=600):
    """Runs `tjrender merge --batch` once over `cases` (label -> case).

    Returns (label -> ("ok", stdout) | ("err", message) | ("missing", why),
    exit code, stderr text)."""
    lines = []
    outs = {}
    for label, case in cases:
        obj, pat = write_inputs(workdir, label, case)
        out = os.path.join(workdir, label + "." + fmt + ".out")
        for stale in (out, out + ".err"):
            if os.path.exists(stale):
                os.unlink(stale)
        outs[label] = out
        lines.append("%s\t%s\t%s\n" % (obj, pat, out))
    listing = os.path.join(workdir, "batch-%s.list" % fmt)
    with open(listing, "w", encoding="utf-8") as f:
        f.writelines(lines)
    try:
        proc = subprocess.run([tjrender, "merge", "--batch", listing, "-o", fmt],
                              capture_output=True, timeout=timeout)
        rc, err = proc.returncode, proc.stderr.decode("utf-8", "replace")
    except subprocess.TimeoutExpired:
        rc, err = None, "timed out after %d s" % timeout
    results = {}
    for label, out in outs.items():
        results[label] = read_output(out)
    return results, rc, err


def read_output(out):
    if os.path.exists(out + ".err"):
        with open(out + ".err", "rb") as f:
            return ("err", f.read().decode("utf-8", "surrogateescape"))
    if os.path.exists(out):
        with open(out, "rb") as f:
            return ("ok", f.read().decode("utf-8", "surrogateescape"))
    return ("missing", "no output file written")


def run_tjrender_single(tjrender, obj, pat, fmt):
    try:
        proc = subprocess.run([tjrender, "merge", obj, pat, "-o", fmt],
                              capture_output=True, timeout=60)
    except subprocess.TimeoutExpired:
        return ("missing", "timed out")
    if proc.returncode == 0:
        return ("ok", proc.stdout.decode("utf-8", "surrogateescape"))
    return ("err", proc.stderr.decode("utf-8", "surrogateescape")
            or "exit %d" % proc.returncode)


def kubectl_outcome(res):
    if res["rc"] == 0:
        return ("ok", res["stdout"])
    return ("err", res.get("stderr", "") or "exit %d" % res["rc"])


def verdict(expected, actual):
    """'agree', 'agree-refusal' or a mismatch kind."""
    if expected[0] == "ok" and actual[0] == "ok":
        return "agree" if expected[1] == actual[1] else "output-differs"
    if expected[0] == "err" and actual[0] == "err":
        return "agree-refusal"
    if actual[0] == "missing":
        return "no-output"
    if expected[0] == "err":
        return "kubectl-refused-only"
    return "tjrender-refused-only"


def unified(expected, actual, fromfile="kubectl", tofile="tjrender"):
    return "".join(difflib.unified_diff(
        expected.splitlines(True), actual.splitlines(True), fromfile, tofile))


def first_line(text, width=100):
    line = text.strip().split("\n")[0] if text.strip() else "(empty)"
    return line if len(line) <= width else line[:width - 3] + "..."


# ---------------------------------------------------------------------------
# minimisation


def case_values(case, base_seed=None):
    """Python values of a case's inputs, or None when they cannot be recovered.

    JSON texts are parsed directly; YAML texts are recovered by regenerating
    the case from its seed and checking that it renders to the same text."""
    vals = []
    regenerated = None
    for part in ("object", "patch"):
        text = case[part]
        if case[part + "_format"] != "yaml":
            try:
                vals.append(json.loads(text))
                continue
            except ValueError:
                return None
        if regenerated is None:
            base, index = divmod(case["seed"], 100000)
            regenerated = smp_gen.generate(base, index)
        if regenerated[part] != text:
            return None
        vals.append(regenerated[part + "_value"])
    return vals


def _paths(value, prefix=()):
    """Every removable position, shallow ones first."""
    out = []
    frontier = [(prefix, value)]
    while frontier:
        nxt = []
        for path, v in frontier:
            if isinstance(v, dict):
                for k in v:
                    out.append(path + (k,))
                    nxt.append((path + (k,), v[k]))
            elif isinstance(v, list):
                for i in range(len(v)):
                    out.append(path + (i,))
                    nxt.append((path + (i,), v[i]))
        frontier = nxt
    return out


def _without(value, path):
    copy = json.loads(json.dumps(value))
    cur = copy
    for p in path[:-1]:
        cur = cur[p]
    del cur[path[-1]]
    return copy


def minimise(kubectl, tjrender, obj, patch, fmt, formats, kind, workdir, budget=300):
    """Greedily drops map keys and list items from patch and object while the
    same kind of mismatch persists. Returns (obj, patch, kubectl outcome,
    tjrender outcome, runs)."""
    runs = [0]
    env = kubectl_env()

    def evaluate(o, p):
        runs[0] += 1
        case = {"object": smp_gen.render(o, formats[0]),
                "patch": smp_gen.render(p, formats[1])}
        op, pp = write_inputs(workdir, "min", case)
        k = kubectl_outcome(run_kubectl(kubectl, op, pp, fmt, env))
        t = run_tjrender_single(tjrender, op, pp, fmt)
        return k, t

    k, t = evaluate(obj, patch)
    if verdict(k, t) != kind:
        return obj, patch, k, t, runs[0]
    changed = True
    while changed and runs[0] < budget:
        changed = False
        for which in ("patch", "object"):
            i = 0
            while runs[0] < budget:
                cur = patch if which == "patch" else obj
                paths = _paths(cur)
                if i >= len(paths):
                    break
                cand = _without(cur, paths[i])
                o2, p2 = (obj, cand) if which == "patch" else (cand, patch)
                k2, t2 = evaluate(o2, p2)
                if verdict(k2, t2) == kind:
                    # paths are breadth-first: index i now names the next one
                    obj, patch, k, t = o2, p2, k2, t2
                    changed = True
                else:
                    i += 1
    return obj, patch, k, t, runs[0]


def eprint(*args):
    print(*args, file=sys.stderr)


def make_workdir(keep=False):
    d = tempfile.mkdtemp(prefix="smp-diff-")
    return d
