#!/usr/bin/env python3
"""Seeded generator of (PodTemplate object, strategic merge patch) pairs.

Every case is drawn from its own random.Random(seed) with
seed = base_seed * 100000 + index, so one case can be regenerated alone:

    scripts/smp_gen.py --seed 7 --index 123        # prints that case
    scripts/smp_gen.py --seed 7 --count 2400 --stats  # coverage table

The cases are meant for a differential test against
`kubectl patch --local -f OBJECT --type strategic --patch-file PATCH -o yaml`.
They deliberately include malformed patches (bad directives, missing merge
keys, type mismatches); constructs whose kubectl result depends on Go's
random map iteration order, or that make kubectl panic, are never generated
(see the notes at DeleteFromPrimitiveList and SetElementOrder below).
Only the Python standard library is used.
"""

import argparse
import json
import random
import re
import sys

# ---------------------------------------------------------------------------
# Coverage tags. Every tag a case exercises is recorded in case["tags"];
# `--stats` counts them. The table is the contract of this generator: each
# tag must be hit by the default corpus.

TAGS = [
    # field kinds (the per-field tables of the trainer references)
    ("f.labels", "metadata labels map (pod template or object)"),
    ("f.annotations", "metadata annotations map"),
    ("f.nodeSelector", "spec.nodeSelector map"),
    ("f.serviceAccountName", "scalar replace"),
    ("f.terminationGracePeriodSeconds", "scalar replace (number)"),
    ("f.metadata.name", "metadata.name / namespace scalar"),
    ("f.finalizers", "metadata.finalizers (merge, scalar list)"),
    ("f.affinity", "nested affinity structs"),
    ("f.affinity.terms", "affinity term lists (replaced)"),
    ("f.tolerations", "tolerations (replaced)"),
    ("f.volumes", "volumes (merge,retainKeys by name)"),
    ("f.containers", "containers (merge by name)"),
    ("f.initContainers", "initContainers (merge by name)"),
    ("f.env", "container env (merge by name)"),
    ("f.volumeMounts", "container volumeMounts (merge by mountPath)"),
    ("f.ports", "container ports (merge by containerPort)"),
    ("f.schedulingGates", "schedulingGates (merge by name)"),
    ("f.imagePullSecrets", "imagePullSecrets (merge by name)"),
    ("f.args", "container args (replaced)"),
    ("f.command", "container command (replaced)"),
    ("f.podSecurityContext", "pod securityContext (struct; lists replaced)"),
    ("f.containerSecurityContext", "container securityContext / capabilities"),
    ("f.resources", "container resources maps"),
    ("f.image", "container scalar fields"),
    ("f.topologySpreadConstraints", "topologySpreadConstraints (merge by topologyKey)"),
    ("f.envFrom", "container envFrom (replaced)"),
    # directives
    ("d.null.delete", "null deletes an existing key"),
    ("d.null.absent", "null for a key the original lacks"),
    ("d.null.nested", "null inside a value that is added whole"),
    ("d.patch.replace.map", "$patch: replace in a map"),
    ("d.patch.delete.map", "$patch: delete in a map"),
    ("d.patch.merge.map", "$patch: merge in a map (refused)"),
    ("d.patch.bad.map", "$patch: unknown value in a map"),
    ("d.patch.absent.map", "$patch map where the original has no such key"),
    ("d.patch.replace.list", "$patch: replace element in a merge list"),
    ("d.patch.delete.list", "$patch: delete element in a merge list"),
    ("d.patch.merge.list", "$patch: merge element (refused)"),
    ("d.patch.bad.list", "$patch: unknown value in a list element"),
    ("d.patch.delete.nokey", "$patch: delete element without merge key"),
    ("d.patch.top", "$patch at the top level of the patch"),
    ("d.retainKeys.ok", "$retainKeys consistent with the patch"),
    ("d.retainKeys.violating", "patch key missing from $retainKeys"),
    ("d.retainKeys.badtype", "$retainKeys not a list"),
    ("d.retainKeys.other", "$retainKeys on a map without retainKeys strategy"),
    ("d.order.consistent", "$setElementOrder consistent with the patch list"),
    ("d.order.contradicting", "$setElementOrder contradicting the patch list"),
    ("d.order.superset", "$setElementOrder naming items not in the patch"),
    ("d.order.nolist", "$setElementOrder without the patch list"),
    ("d.order.primitive", "$setElementOrder on a scalar list"),
    ("d.order.badtype", "$setElementOrder malformed"),
    ("d.delprim.ok", "$deleteFromPrimitiveList on finalizers"),
    ("d.delprim.withmerge", "$deleteFromPrimitiveList and the list itself"),
    ("d.delprim.maplist", "$deleteFromPrimitiveList on a list of maps"),
    ("d.delprim.nostrategy", "$deleteFromPrimitiveList on a replace list"),
    ("d.delprim.absent", "$deleteFromPrimitiveList for an absent list"),
    ("d.delprim.badtype", "$deleteFromPrimitiveList malformed"),
    # list merge order
    ("m.update", "patch updates existing list entries"),
    ("m.add", "patch adds new list entries"),
    ("m.reorder", "patch names existing entries in another order"),
    ("m.mixed", "patch mixes new and existing entries"),
    ("m.empty", "empty list in the patch"),
    # edge cases
    ("e.dup.original", "duplicate merge keys in the original list"),
    ("e.dup.patch", "duplicate merge keys in the patch list"),
    ("e.dup.scalar", "duplicate items in a scalar merge list"),
    ("e.nokey.patch", "patch list element without merge key"),
    ("e.nokey.original", "original list element without merge key"),
    ("e.type.map-list", "patch list where the original has a map (or reverse)"),
    ("e.type.scalar-map", "patch scalar where the original has a map (or reverse)"),
    ("e.type.mixed-list", "list elements of different types"),
    ("e.type.keynum", "merge key given as a number"),
    ("e.type.elem", "scalar elements in a list of maps"),
    ("e.unknown.scalar", "unknown scalar field"),
    ("e.unknown.map-both", "unknown map field in original and patch"),
    ("e.unknown.map-new", "unknown map field only in the patch"),
    ("e.unknown.list", "unknown list field"),
    # numbers
    ("n.int", "small integers"),
    ("n.negative", "negative numbers"),
    ("n.float", "fractional numbers"),
    ("n.exp", "numbers with exponents"),
    ("n.integral-float", "integral value written as a float (2.0)"),
    ("n.bigint", "integers beyond 2^53"),
    ("n.huge", "integers beyond 2^64"),
    # strings
    ("s.quote", "strings YAML would misread unquoted (1, true, 0123, ...)"),
    ("s.indicator", "strings with YAML indicators (a: b, *, - x, #)"),
    ("s.empty", "empty string"),
    ("s.long", "long strings with spaces (> 80 columns)"),
    ("s.multiline", "multi-line strings"),
    ("s.unicode", "non-ASCII text"),
    ("s.special", "control/line-separator/BOM characters"),
    ("s.spaces", "leading or trailing spaces"),
    ("s.key", "map keys needing quoting"),
    ("s.html", "<, > and & (escaped by Go's JSON encoder)"),
    # kubectl behaviour around the merge
    ("q.managedFields", "metadata.managedFields (hidden by kubectl)"),
    ("q.kind", "patch removes or changes kind/apiVersion"),
    ("q.noop", "empty patch"),
    # input formats
    ("fmt.yaml.object", "object written as block YAML"),
    ("fmt.yaml.patch", "patch written as block YAML"),
    ("fmt.json.indented", "indented JSON"),
    ("fmt.json.ascii", "JSON with \\u escapes for non-ASCII"),
]
TAG_NAMES = [t for t, _ in TAGS]

# ---------------------------------------------------------------------------
# String pools.

PLAIN_WORDS = ["alpha", "beta", "gamma", "delta", "main", "worker", "node",
               "data", "cache", "logs", "trainer", "model"]
QUOTE_STRINGS = ["1", "0", "-1", "1.5", "1e3", "0123", "0x1F", "0o17", "1_000",
                 "true", "false", "True", "yes", "no", "on", "off", "y", "n",
                 "Y", "N", "null", "Null", "~", ".inf", "-.Inf", ".nan", "NaN",
                 "2001-12-14", "12:30", "1:20:30", "+1", ".5", "1.", "=", "<<"]
INDICATOR_STRINGS = ["a: b", "a:b", "key: value: x", "*", "*x", "&a", "!tag",
                     "- x", "-", "?", "? x", "[x]", "{x}", "a, b", "#c", "a #b",
                     "a# b", "%x", "@x", "`x", "'q'", '"dq"', "|", ">", "a\\b",
                     "http://x:80/a", ":x", "x:", ",", "!", "a]"]
EMPTY_STRINGS = [""]
LONG_STRINGS = [
    "this is a fairly long annotation value with many words that goes well past"
    " the eighty column limit of the emitter",
    "python train.py --epochs 10 --batch-size 64 --learning-rate 0.001"
    " --output-dir /workspace/output --log-every 100",
    "word " * 25,
    "x" * 120,
    "a long string: with a colon and # hash marks that still runs beyond eighty"
    " columns wide for folding",
]
MULTILINE_STRINGS = ["line one\nline two", "a\nb\n", "first\n\nthird",
                     "trailing space \nnext", "\nleading newline", "x\n",
                     "tab\there\nnext", "  indented\nsecond", "a\n\n",
                     "#!/bin/sh\necho hello\nexit 0\n"]
UNICODE_STRINGS = ["héllo", "日本語", "🚀 launch", "naïve café", "Ωmega",
                   "ü", "中文: 值", "e\u0301"]
SPECIAL_STRINGS = ["nel\u0085x", "ls\u2028x", "ps\u2029x", "\ufeffbom",
                   "ctl\x01x", "del\x7fx", "bell\x07", "esc\x1b[0m", "nul\x00x",
                   "cr\rx", "\t", "zw\u200bj"]
SPACE_STRINGS = [" lead", "trail ", " both ", "  ", "a  b"]
HTML_STRINGS = ["<b>", "a&b", "x > y", "<script>&amp;</script>"]

KEY_STRINGS = ["1", "true", "a b", "", "key: x", "ü", "a10", "a9", "a1b",
               "A", "_x", "-x", "$x", "x/y", "example.com/name", "no", "~",
               "0123", "*", "a.b", "10", "9"]
PLAIN_KEYS = ["app", "team", "tier", "env", "zone", "role", "version",
              "example.com/owner", "kubernetes.io/arch", "topology.kubernetes.io/zone"]

STRING_CLASSES = [
    ("s.quote", QUOTE_STRINGS),
    ("s.indicator", INDICATOR_STRINGS),
    ("s.empty", EMPTY_STRINGS),
    ("s.long", LONG_STRINGS),
    ("s.multiline", MULTILINE_STRINGS),
    ("s.unicode", UNICODE_STRINGS),
    ("s.special", SPECIAL_STRINGS),
    ("s.spaces", SPACE_STRINGS),
    ("s.html", HTML_STRINGS),
]

MISSING = object()


class Abort(Exception):
    """An operation does not fit the patch built so far; try another."""


# ---------------------------------------------------------------------------


class Case:
    """Builds one (object, patch) pair from one seeded random stream."""

    def __init__(self, seed):
        self.seed = seed
        self.r = random.Random(seed)
        self.tags = set()
        self.pending = set()
        self.obj = None
        self.patch = {}
        self.weird = self.r.random() < 0.35  # how often odd strings appear

    # -- random helpers ----------------------------------------------------

    def chance(self, p):
        return self.r.random() < p

    def pick(self, seq):
        return seq[self.r.randrange(len(seq))]

    def tag(self, *names):
        for n in names:
            assert n in TAG_NAMES, n
            self.pending.add(n)

    def word(self):
        return self.pick(PLAIN_WORDS)

    def text(self, p_odd=None):
        """A string value; sometimes one that stresses quoting/escaping."""
        p = (0.45 if self.weird else 0.1) if p_odd is None else p_odd
        if self.chance(p):
            tag, pool = self.pick(STRING_CLASSES)
            if tag == "s.special" and not self.chance(0.5):
                tag, pool = "s.unicode", UNICODE_STRINGS
            self.tag(tag)
            return self.pick(pool)
        return self.word() + ("-" + str(self.r.randrange(10)) if self.chance(0.3) else "")

    def key(self):
        if self.chance(0.3 if self.weird else 0.08):
            self.tag("s.key")
            return self.pick(KEY_STRINGS)
        return self.pick(PLAIN_KEYS)

    def number(self, kind=None):
        kinds = ["n.int", "n.int", "n.negative", "n.float", "n.exp",
                 "n.integral-float", "n.bigint", "n.huge"]
        kind = kind or self.pick(kinds)
        self.tag(kind)
        if kind == "n.int":
            return self.pick([0, 1, 2, 7, 30, 80, 443, 1000, 65535, 3600])
        if kind == "n.negative":
            return self.pick([-1, -30, -2.5, -1e-7, -9223372036854775808])
        if kind == "n.float":
            return self.pick([1.5, 0.1, 0.25, 3.14159, 100.001, 0.000123,
                              123456.789, 1.0000000000000002])
        if kind == "n.exp":
            return self.pick([1e21, 1e20, 1e-7, 1.5e300, 2e-5, 1e6, 1.23e+25,
                              5e-324])
        if kind == "n.integral-float":
            return self.pick([2.0, 0.0, 100.0, 1e3, 9007199254740993.0])
        if kind == "n.bigint":
            return self.pick([9007199254740993, 2 ** 53, 2 ** 62 + 1,
                              9223372036854775807, 12345678901234567,
                              18446744073709551615])
        return self.pick([2 ** 64, 18446744073709551616 * 3 + 7,
                          123456789012345678901234567890, 10 ** 30 + 1])

    def dump_tags(self):
        self.tags |= self.pending
        self.pending = set()

    # -- object --------------------------------------------------------------

    def small_map(self, n_max=3):
        m = {}
        for _ in range(self.r.randrange(n_max + 1)):
            m[self.key()] = self.text()
        return m

    def env_entry(self, name):
        e = {"name": name}
        v = self.r.random()
        if v < 0.6:
            e["value"] = self.text()
        elif v < 0.75:
            e["valueFrom"] = {"fieldRef": {"fieldPath": "metadata.name"}}
        elif v < 0.9:
            e["valueFrom"] = {"secretKeyRef": {"name": self.word(), "key": self.word()}}
        return e

    def env_name(self):
        return self.pick(["A", "B", "C", "PATH", "HOME", "DATASET_PATH",
                          "INIT_ENV", "PET_NNODES", "X"])

    def port_entry(self, port):
        p = {"containerPort": port}
        if self.chance(0.5):
            p["name"] = self.pick(["http", "grpc", "metrics", "p"])
        if self.chance(0.4):
            p["protocol"] = self.pick(["TCP", "UDP", "SCTP"])
        return p

    def mount_entry(self, path):
        m = {"name": self.pick(["data", "cache", "logs", "config"]), "mountPath": path}
        if self.chance(0.3):
            m["readOnly"] = self.chance(0.5)
        return m

    def mount_path(self):
        return self.pick(["/data", "/cache", "/var/log", "/etc/config",
                          "/workspace/model", "/workspace/dataset"])

    def container(self, name):
        c = {"name": name}
        if self.chance(0.9):
            c["image"] = self.pick(["busybox", "python:3.12", "pytorch/pytorch:2.7.1",
                                    "ghcr.io/x/y@sha256:abc"])
        if self.chance(0.2):
            c["command"] = [self.text() for _ in range(self.r.randrange(1, 3))]
        if self.chance(0.25):
            c["args"] = [self.text() for _ in range(self.r.randrange(0, 3))]
        if self.chance(0.5):
            names = self.r.sample(["A", "B", "C", "PATH", "DATASET_PATH", "X"],
                                  self.r.randrange(1, 4))
            c["env"] = [self.env_entry(n) for n in names]
        if self.chance(0.25):
            ports = self.r.sample([80, 443, 8080, 9090, 29500], self.r.randrange(1, 3))
            c["ports"] = [self.port_entry(p) for p in ports]
        if self.chance(0.3):
            paths = self.r.sample(["/data", "/cache", "/var/log", "/etc/config"],
                                  self.r.randrange(1, 3))
            c["volumeMounts"] = [self.mount_entry(p) for p in paths]
        if self.chance(0.2):
            res = {}
            if self.chance(0.7):
                res["limits"] = {"cpu": self.pick(["1", "500m", "2"]),
                                 "memory": self.pick(["1Gi", "512Mi"])}
            if self.chance(0.6):
                res["requests"] = {"cpu": self.pick(["100m", "1"])}
            c["resources"] = res
        if self.chance(0.1):
            c["securityContext"] = {"capabilities": {"add": ["NET_ADMIN"], "drop": ["ALL"]},
                                    "runAsUser": 1000}
        if self.chance(0.05):
            c["envFrom"] = [{"configMapRef": {"name": self.word()}}]
        if self.chance(0.08):
            c["workingDir"] = self.text()
        return c

    def volume(self, name):
        v = {"name": name}
        k = self.r.randrange(5)
        if k == 0:
            v["emptyDir"] = {}
        elif k == 1:
            v["emptyDir"] = {"medium": "Memory", "sizeLimit": "1Gi"}
        elif k == 2:
            v["persistentVolumeClaim"] = {"claimName": self.word()}
        elif k == 3:
            v["configMap"] = {"name": self.word(),
                              "items": [{"key": "k", "path": "p", "mode": 292}]}
        else:
            v["secret"] = {"secretName": self.word()}
        return v

    def toleration(self):
        t = {"key": self.pick(["gpu", "dedicated", "node.kubernetes.io/unreachable"]),
             "operator": self.pick(["Exists", "Equal"]),
             "effect": self.pick(["NoSchedule", "NoExecute", "PreferNoSchedule"])}
        if t["operator"] == "Equal":
            t["value"] = self.text()
        if self.chance(0.2):
            t["tolerationSeconds"] = self.pick([300, 3600])
        return t

    def match_expr(self):
        return {"key": self.pick(["kubernetes.io/arch", "zone", "gpu"]),
                "operator": self.pick(["In", "NotIn", "Exists"]),
                "values": [self.text() for _ in range(self.r.randrange(1, 3))]}

    def pod_term(self):
        return {"labelSelector": {"matchLabels": {self.key(): self.text()}},
                "topologyKey": self.pick(["kubernetes.io/hostname", "zone"])}

    def affinity(self, partial=False):
        a = {}
        if self.chance(0.6):
            na = {}
            if self.chance(0.6):
                na["requiredDuringSchedulingIgnoredDuringExecution"] = {
                    "nodeSelectorTerms": [{"matchExpressions": [self.match_expr()]}
                                          for _ in range(self.r.randrange(1, 3))]}
            if self.chance(0.5):
                na["preferredDuringSchedulingIgnoredDuringExecution"] = [
                    {"weight": self.pick([1, 50, 100]),
                     "preference": {"matchExpressions": [self.match_expr()]}}]
            a["nodeAffinity"] = na
        if self.chance(0.4):
            a["podAffinity"] = {"requiredDuringSchedulingIgnoredDuringExecution":
                                [self.pod_term() for _ in range(self.r.randrange(1, 3))]}
        if self.chance(0.4):
            a["podAntiAffinity"] = {"preferredDuringSchedulingIgnoredDuringExecution":
                                    [{"weight": 100, "podAffinityTerm": self.pod_term()}]}
        if not a and not partial:
            a["nodeAffinity"] = {}
        return a

    def make_object(self):
        r = self.r
        meta = {"name": self.pick(["pt", "runtime", "node-template"])}
        if self.chance(0.2):
            meta["namespace"] = self.pick(["default", "kubeflow"])
        if self.chance(0.4):
            meta["labels"] = self.small_map()
        if self.chance(0.25):
            meta["annotations"] = self.small_map()
        if self.chance(0.15):
            meta["finalizers"] = self.r.sample(["a/x", "b/y", "c", "d"], r.randrange(1, 3))
        tmeta = {}
        if self.chance(0.6):
            tmeta["labels"] = self.small_map()
        if self.chance(0.4):
            tmeta["annotations"] = self.small_map()
        if self.chance(0.2):
            tmeta["finalizers"] = self.r.sample(["a/x", "b/y", "c", "d"], r.randrange(1, 4))
        spec = {}
        names = r.sample(["main", "sidecar", "node", "trainer", "helper"],
                         r.choice([1, 1, 2, 2, 3]))
        spec["containers"] = [self.container(n) for n in names]
        if self.chance(0.25):
            names = r.sample(["init", "setup", "fetch"], r.randrange(1, 3))
            spec["initContainers"] = [self.container(n) for n in names]
        if self.chance(0.5):
            names = r.sample(["data", "cache", "logs", "config"], r.randrange(1, 4))
            spec["volumes"] = [self.volume(n) for n in names]
        if self.chance(0.3):
            spec["tolerations"] = [self.toleration() for _ in range(r.randrange(1, 3))]
        if self.chance(0.4):
            spec["nodeSelector"] = self.small_map()
        if self.chance(0.3):
            spec["affinity"] = self.affinity()
        if self.chance(0.25):
            spec["imagePullSecrets"] = [{"name": n} for n in
                                        r.sample(["reg", "ghcr", "quay"], r.randrange(1, 3))]
        if self.chance(0.2):
            spec["schedulingGates"] = [{"name": n} for n in
                                       r.sample(["gate-a", "gate-b", "kueue"], r.randrange(1, 3))]
        if self.chance(0.35):
            spec["serviceAccountName"] = self.text()
        if self.chance(0.25):
            spec["terminationGracePeriodSeconds"] = self.pick([30, 0, 60])
        if self.chance(0.2):
            spec["securityContext"] = {"runAsUser": 1000, "fsGroup": 2000,
                                       "supplementalGroups": [1, 2],
                                       "sysctls": [{"name": "net.core.somaxconn", "value": "1024"}]}
        if self.chance(0.15):
            spec["topologySpreadConstraints"] = [
                {"topologyKey": "zone", "maxSkew": 1, "whenUnsatisfiable": "DoNotSchedule"}]
        if self.chance(0.2):
            spec["restartPolicy"] = self.pick(["Never", "OnFailure", "Always"])
        template = {}
        if tmeta or self.chance(0.5):
            template["metadata"] = tmeta
        template["spec"] = spec
        self.obj = {"apiVersion": "v1", "kind": "PodTemplate", "metadata": meta,
                    "template": template}
        if self.chance(0.03):
            meta["managedFields"] = [{"manager": "kubectl", "operation": "Update",
                                      "apiVersion": "v1", "fieldsType": "FieldsV1",
                                      "fieldsV1": {"f:metadata": {}}}]
            self.tag("q.managedFields")
        self.dump_tags()

    # -- navigating object and patch ------------------------------------------

    def oget(self, *path):
        cur = self.obj
        for p in path:
            if isinstance(cur, dict) and p in cur:
                cur = cur[p]
            elif isinstance(cur, list) and isinstance(p, int) and p < len(cur):
                cur = cur[p]
            else:
                return MISSING
        return cur

    def pmap(self, *path):
        """The dict at `path` in the patch, created on demand."""
        cur = self.patch
        for p in path:
            nxt = cur.get(p, MISSING)
            if nxt is MISSING:
                nxt = {}
                cur[p] = nxt
            if not isinstance(nxt, dict) or "$patch" in nxt:
                raise Abort()
            cur = nxt
        return cur

    def plist(self, parent, name):
        nxt = parent.get(name, MISSING)
        if nxt is MISSING:
            nxt = []
            parent[name] = nxt
        if not isinstance(nxt, list):
            raise Abort()
        return nxt

    def pentry(self, lst, key, value):
        for e in lst:
            if isinstance(e, dict) and e.get(key, MISSING) == value and "$patch" not in e:
                return e
        e = {key: value}
        lst.append(e)
        return e

    @staticmethod
    def claim(parent, name):
        """Abort unless the patch map has neither the list nor a directive for it.

        kubectl applies `name` and `$deleteFromPrimitiveList/name` in Go map
        order; keeping one op per list keeps every case deterministic."""
        for k in (name, "$setElementOrder/" + name, "$deleteFromPrimitiveList/" + name):
            if k in parent:
                raise Abort()

    def spec_path(self):
        return ("template", "spec")

    def container_target(self, init=None):
        """(list name, container name, exists) of a container to patch."""
        if init is None:
            init = self.chance(0.25)
        lname = "initContainers" if init else "containers"
        self.tag("f.initContainers" if init else "f.containers")
        existing = self.oget("template", "spec", lname)
        names = [c.get("name") for c in existing if isinstance(c, dict)] \
            if isinstance(existing, list) else []
        names = [n for n in names if isinstance(n, str)]
        if names and self.chance(0.8):
            return lname, self.pick(names), True
        return lname, self.pick(["main", "extra", "new", "trainer", "init"]), False

    def pcontainer(self, init=None):
        lname, name, exists = self.container_target(init)
        lst = self.plist(self.pmap("template", "spec"), lname)
        c = self.pentry(lst, "name", name)
        self.tag("m.update" if exists else "m.add")
        ocont = MISSING
        olist = self.oget("template", "spec", lname)
        if isinstance(olist, list):
            for oc in olist:
                if isinstance(oc, dict) and oc.get("name") == name:
                    ocont = oc
                    break
        return c, ocont

    # -- operations -------------------------------------------------------------
    # Each op adds to self.patch (and may alter self.obj). Raising Abort undoes
    # nothing, so ops check their preconditions before writing.

    def op_map(self):
        where = self.pick([
            (("template", "metadata", "labels"), "f.labels"),
            (("template", "metadata", "annotations"), "f.annotations"),
            (("metadata", "labels"), "f.labels"),
            (("metadata", "annotations"), "f.annotations"),
            (("template", "spec", "nodeSelector"), "f.nodeSelector"),
            (("template", "spec", "nodeSelector"), "f.nodeSelector"),
        ])
        path, tag = where
        orig = self.oget(*path)
        m = self.pmap(*path)
        self.tag(tag)
        for _ in range(self.r.randrange(1, 4)):
            v = self.r.random()
            if isinstance(orig, dict) and orig and v < 0.5:
                k = self.pick(list(orig))
                if k in m:
                    continue
                if self.chance(0.4):
                    m[k] = None
                    self.tag("d.null.delete")
                else:
                    m[k] = self.text()
            elif v < 0.6:
                k = self.key()
                if k not in m and not (isinstance(orig, dict) and k in orig):
                    m[k] = None
                    self.tag("d.null.absent")
            else:
                k = self.key()
                if k not in m:
                    m[k] = self.text() if self.chance(0.95) else self.number()

    def op_scalar(self):
        choice = self.r.randrange(8)
        if choice == 0:
            sp = self.pmap("template", "spec")
            self.tag("f.serviceAccountName")
            self.scalar_write(sp, "serviceAccountName", self.text())
        elif choice == 1:
            sp = self.pmap("template", "spec")
            self.tag("f.terminationGracePeriodSeconds")
            self.scalar_write(sp, "terminationGracePeriodSeconds", self.number())
        elif choice == 2:
            m = self.pmap("metadata")
            self.tag("f.metadata.name")
            self.scalar_write(m, self.pick(["name", "namespace"]), self.text(0.2))
        elif choice == 3:
            m = self.pmap("template", "metadata")
            self.tag("f.metadata.name")
            self.scalar_write(m, self.pick(["name", "namespace", "generateName"]), self.text())
        elif choice == 4:
            c, _ = self.pcontainer()
            self.tag("f.image")
            self.scalar_write(c, self.pick(["image", "workingDir", "imagePullPolicy"]),
                              self.text())
        elif choice == 5:
            sp = self.pmap("template", "spec")
            self.tag("f.image")
            self.scalar_write(sp, self.pick(["restartPolicy", "priority",
                                             "activeDeadlineSeconds", "hostNetwork"]),
                              self.pick([self.text(), self.number(), True, False]))
        elif choice == 6:
            c, _ = self.pcontainer()
            self.tag("f.ports")
            lst = self.plist(c, "ports")
            lst.append(self.port_entry(self.number()))
        else:
            c, _ = self.pcontainer()
            self.tag("f.resources")
            res = self.pmap_in(c, "resources")
            lim = self.pmap_in(res, self.pick(["limits", "requests"]))
            k = self.pick(["cpu", "memory", "nvidia.com/gpu"])
            if k in lim:
                raise Abort()
            v = self.r.random()
            if v < 0.5:
                lim[k] = self.pick(["2", "250m", "4Gi", "0.5", "1000m"])
            elif v < 0.8:
                lim[k] = self.number()
            else:
                lim[k] = None
                self.tag("d.null.delete")

    def pmap_in(self, parent, key):
        nxt = parent.get(key, MISSING)
        if nxt is MISSING:
            nxt = {}
            parent[key] = nxt
        if not isinstance(nxt, dict) or "$patch" in nxt:
            raise Abort()
        return nxt

    def scalar_write(self, parent, key, value):
        if key in parent:
            raise Abort()
        if self.chance(0.2):
            parent[key] = None
            self.tag("d.null.delete")
        else:
            parent[key] = value

    def op_named_list(self):
        """containers / initContainers / volumes / imagePullSecrets / schedulingGates."""
        lname = self.pick(["containers", "containers", "initContainers", "volumes",
                           "volumes", "imagePullSecrets", "schedulingGates",
                           "topologySpreadConstraints"])
        key = "topologyKey" if lname == "topologySpreadConstraints" else "name"
        self.tag({"containers": "f.containers", "initContainers": "f.initContainers",
                  "volumes": "f.volumes", "imagePullSecrets": "f.imagePullSecrets",
                  "schedulingGates": "f.schedulingGates",
                  "topologySpreadConstraints": "f.topologySpreadConstraints"}[lname])
        sp = self.pmap("template", "spec")
        self.claim(sp, lname)
        orig = self.oget("template", "spec", lname)
        onames = [e.get(key) for e in orig if isinstance(e, dict)] \
            if isinstance(orig, list) else []
        pool = {"containers": ["main", "sidecar", "node", "extra", "new"],
                "initContainers": ["init", "setup", "extra"],
                "volumes": ["data", "cache", "logs", "config", "scratch", "extra"],
                "imagePullSecrets": ["reg", "ghcr", "quay", "new"],
                "schedulingGates": ["gate-a", "gate-b", "kueue", "new"],
                "topologySpreadConstraints": ["zone", "kubernetes.io/hostname"]}[lname]
        mode = self.pick(["update", "add", "reorder", "mixed", "empty"])
        names = []
        if mode == "update" and onames:
            names = self.r.sample(onames, self.r.randrange(1, len(onames) + 1))
            self.tag("m.update")
        elif mode == "reorder" and len(onames) >= 2:
            names = list(onames)
            while names == onames:
                self.r.shuffle(names)
            names = names[:self.r.randrange(2, len(names) + 1)]
            self.tag("m.reorder")
        elif mode == "empty":
            sp[lname] = []
            self.tag("m.empty")
            return
        else:
            new = [n for n in pool if n not in onames]
            if not new:
                new = ["zz-new"]
            names = self.r.sample(new, self.r.randrange(1, min(3, len(new)) + 1))
            if mode == "mixed" and onames:
                names = names + self.r.sample(onames, 1)
                self.r.shuffle(names)
                self.tag("m.mixed")
            else:
                self.tag("m.add")
        lst = []
        for n in names:
            exists = n in onames
            if lname in ("containers", "initContainers"):
                e = {"name": n}
                if not exists or self.chance(0.6):
                    e["image"] = self.pick(["busybox:2", "python:3.13"])
                if self.chance(0.3):
                    e["env"] = [self.env_entry(self.env_name())]
                    self.tag("f.env")
            elif lname == "volumes":
                e = self.volume(n)
            elif lname == "topologySpreadConstraints":
                e = {"topologyKey": n, "maxSkew": self.pick([1, 2])}
            else:
                e = {"name": n}
            lst.append(e)
        sp[lname] = lst

    def op_container_list(self):
        """env / volumeMounts / ports inside a (possibly new) container."""
        c, oc = self.pcontainer()
        which = self.pick(["env", "env", "volumeMounts", "ports"])
        key = {"env": "name", "volumeMounts": "mountPath", "ports": "containerPort"}[which]
        self.tag("f." + which)
        self.claim(c, which)
        orig = oc.get(which) if isinstance(oc, dict) else None
        okeys = [e.get(key) for e in orig if isinstance(e, dict)] \
            if isinstance(orig, list) else []
        mode = self.pick(["update", "add", "reorder", "mixed", "mixed"])
        if which == "env":
            pool = ["A", "B", "C", "PATH", "NEW_VALUE", "DATASET_PATH", "Z"]
        elif which == "volumeMounts":
            pool = ["/data", "/cache", "/var/log", "/etc/config", "/new", "/workspace"]
        else:
            pool = [80, 443, 8080, 9090, 29500, 5000]
        if mode == "update" and okeys:
            keys = self.r.sample(okeys, self.r.randrange(1, len(okeys) + 1))
            self.tag("m.update")
        elif mode == "reorder" and len(okeys) >= 2:
            keys = list(okeys)
            while keys == okeys:
                self.r.shuffle(keys)
            self.tag("m.reorder")
        else:
            new = [k for k in pool if k not in okeys]
            keys = self.r.sample(new, self.r.randrange(1, 3))
            if mode == "mixed" and okeys:
                keys += self.r.sample(okeys, 1)
                self.r.shuffle(keys)
                self.tag("m.mixed")
            else:
                self.tag("m.add")
        lst = []
        for k in keys:
            if which == "env":
                e = self.env_entry(k)
                if k in okeys and self.chance(0.3):
                    # value + valueFrom coexisting after a deep merge
                    e = {"name": k, "valueFrom": {"fieldRef": {"fieldPath": "status.podIP"}}}
            elif which == "volumeMounts":
                e = self.mount_entry(k)
            else:
                e = self.port_entry(k)
            lst.append(e)
        c[which] = lst

    def op_replace_list(self):
        kind = self.r.randrange(7)
        if kind == 0:
            sp = self.pmap("template", "spec")
            self.tag("f.tolerations")
            self.replace_list(sp, "tolerations", lambda: self.toleration())
        elif kind in (1, 2):
            c, _ = self.pcontainer()
            name = "args" if kind == 1 else "command"
            self.tag("f." + name)
            self.replace_list(c, name, lambda: self.text(0.5))
        elif kind == 3:
            c, _ = self.pcontainer()
            self.tag("f.envFrom")
            self.replace_list(c, "envFrom",
                              lambda: {"secretRef": {"name": self.word()}})
        elif kind == 4:
            sp = self.pmap("template", "spec")
            sc = self.pmap_in(sp, "securityContext")
            self.tag("f.podSecurityContext")
            if self.chance(0.5):
                self.replace_list(sc, "supplementalGroups", lambda: self.pick([3, 4, 1]))
            else:
                self.replace_list(sc, "sysctls",
                                  lambda: {"name": "kernel.shm_rmid_forced", "value": "1"})
            if self.chance(0.3) and "runAsUser" not in sc:
                sc["runAsUser"] = self.number("n.int")
        elif kind == 5:
            c, _ = self.pcontainer()
            sc = self.pmap_in(c, "securityContext")
            self.tag("f.containerSecurityContext")
            caps = self.pmap_in(sc, "capabilities")
            self.replace_list(caps, self.pick(["add", "drop"]),
                              lambda: self.pick(["SYS_TIME", "NET_RAW", "ALL", "CHOWN"]))
            if self.chance(0.3) and "privileged" not in sc:
                sc["privileged"] = self.chance(0.5)
        else:
            self.op_affinity(terms=True)

    def replace_list(self, parent, name, make):
        self.claim(parent, name)
        v = self.r.random()
        if v < 0.12:
            parent[name] = []
            self.tag("m.empty")
        elif v < 0.22:
            parent[name] = None
            self.tag("d.null.delete")
        else:
            parent[name] = [make() for _ in range(self.r.randrange(1, 3))]

    def op_affinity(self, terms=False):
        sp = self.pmap("template", "spec")
        aff = self.pmap_in(sp, "affinity")
        self.tag("f.affinity")
        part = self.pick(["nodeAffinity", "podAffinity", "podAntiAffinity"])
        if part in aff:
            raise Abort()
        v = self.r.random()
        if v < 0.1 and not terms:
            aff[part] = None
            self.tag("d.null.delete")
            return
        if part == "nodeAffinity":
            sub = {}
            if terms or self.chance(0.6):
                sub["requiredDuringSchedulingIgnoredDuringExecution"] = {
                    "nodeSelectorTerms": [{"matchExpressions": [self.match_expr()]}]}
                self.tag("f.affinity.terms")
            if self.chance(0.4):
                sub["preferredDuringSchedulingIgnoredDuringExecution"] = [
                    {"weight": self.pick([1, 10]),
                     "preference": {"matchExpressions": [self.match_expr()]}}]
                self.tag("f.affinity.terms")
        else:
            sub = {}
            field = self.pick(["requiredDuringSchedulingIgnoredDuringExecution",
                               "preferredDuringSchedulingIgnoredDuringExecution"])
            if field.startswith("required"):
                sub[field] = [self.pod_term()]
            else:
                sub[field] = [{"weight": 5, "podAffinityTerm": self.pod_term()}]
            if self.chance(0.2):
                sub[field] = []
                self.tag("m.empty")
            self.tag("f.affinity.terms")
        aff[part] = sub

    def op_finalizers(self):
        path = self.pick([("metadata",), ("template", "metadata")])
        m = self.pmap(*path)
        self.tag("f.finalizers")
        if "finalizers" in m or any(k.endswith("/finalizers") for k in m):
            raise Abort()
        orig = self.oget(*path, "finalizers")
        olist = orig if isinstance(orig, list) else []
        pool = ["a/x", "b/y", "c", "d", "e/z", "new"]
        mode = self.r.randrange(7)
        if mode <= 2:
            items = self.r.sample(pool, self.r.randrange(1, 4))
            if self.chance(0.2) and items:
                items.append(items[0])
                self.tag("e.dup.scalar")
            m["finalizers"] = items
            if set(items) & set(olist):
                self.tag("m.mixed")
            else:
                self.tag("m.add")
        elif mode == 3:
            # $deleteFromPrimitiveList alone; items may or may not exist.
            dels = self.r.sample(pool + olist, self.r.randrange(1, 3))
            m["$deleteFromPrimitiveList/finalizers"] = dels
            self.tag("d.delprim.ok" if orig is not MISSING else "d.delprim.absent")
        elif mode == 4:
            # Delete list together with the list: kubectl applies the two in Go
            # map order, so they are only deterministic when no patched item is
            # also deleted. Keep them disjoint.
            dels = self.r.sample(pool + olist, self.r.randrange(1, 3))
            adds = [x for x in self.r.sample(pool, 2) if x not in dels]
            m["$deleteFromPrimitiveList/finalizers"] = dels
            m["finalizers"] = adds
            self.tag("d.delprim.withmerge", "d.delprim.ok")
        elif mode == 5:
            items = self.r.sample(pool, self.r.randrange(1, 3))
            order = list(dict.fromkeys(items + (olist if self.chance(0.6) else [])))
            self.r.shuffle(order) if self.chance(0.3) else None
            m["finalizers"] = items
            m["$setElementOrder/finalizers"] = order
            self.tag("d.order.primitive")
            self.tag("d.order.consistent" if self.order_consistent(items, order)
                     else "d.order.contradicting")
        else:
            if olist and self.chance(0.5):
                # duplicates in the original list
                self.obj_set_path(path + ("finalizers",), olist + [olist[0]])
                self.tag("e.dup.scalar")
            m["finalizers"] = self.pick([[], ["c"], [1, "c"], ["c", None]])
            if m["finalizers"] == []:
                self.tag("m.empty")
            elif 1 in m["finalizers"]:
                self.tag("e.type.mixed-list")
            else:
                self.tag("m.add")

    def obj_set_path(self, path, value):
        cur = self.obj
        for p in path[:-1]:
            cur = cur[p]
        cur[path[-1]] = value

    @staticmethod
    def order_consistent(items, order):
        it = iter(order)
        return all(any(x == y for y in it) for x in items)

    def op_map_directive(self):
        target = self.pick([
            (("template", "metadata", "labels"), "f.labels"),
            (("metadata", "annotations"), "f.annotations"),
            (("template", "spec", "nodeSelector"), "f.nodeSelector"),
            (("template", "spec", "affinity"), "f.affinity"),
            (("template", "spec", "securityContext"), "f.podSecurityContext"),
            (("template", "metadata"), "f.labels"),
            (("template", "spec", "affinity", "nodeAffinity"), "f.affinity"),
            (None, "f.resources"),
        ])
        path, tag = target
        self.tag(tag)
        if path is None:
            c, oc = self.pcontainer()
            parent, key = c, "resources"
            orig = oc.get("resources", MISSING) if isinstance(oc, dict) else MISSING
        else:
            parent = self.pmap(*path[:-1])
            key = path[-1]
            orig = self.oget(*path)
        if key in parent:
            raise Abort()
        directive = self.pick(["replace", "replace", "delete", "delete", "merge", "bogus"])
        if directive == "replace":
            if tag in ("f.labels", "f.annotations", "f.nodeSelector"):
                val = {self.key(): self.text()}
            elif key == "metadata":
                val = {"labels": {"x": "y"}}
            elif key == "resources":
                val = {"limits": {"cpu": "3"}}
            elif key == "securityContext":
                val = {"runAsNonRoot": True}
            elif key == "nodeAffinity":
                val = {"preferredDuringSchedulingIgnoredDuringExecution": []}
            else:
                val = self.affinity(partial=True)
            if self.chance(0.2):
                val = {}
            val["$patch"] = "replace"
            self.tag("d.patch.replace.map")
        elif directive == "delete":
            val = {"$patch": "delete"}
            if self.chance(0.3):
                val[self.key()] = self.text()
            self.tag("d.patch.delete.map")
        elif directive == "merge":
            val = {"$patch": "merge", self.key(): self.text()}
            self.tag("d.patch.merge.map")
        else:
            val = {"$patch": self.pick(["Replace", "remove", "", "retainKeys"])}
            self.tag("d.patch.bad.map")
        if orig is MISSING or not isinstance(orig, dict):
            self.tag("d.patch.absent.map")
        parent[key] = val

    def op_list_directive(self):
        which = self.pick(["containers", "env", "volumes", "imagePullSecrets",
                           "volumeMounts", "ports", "schedulingGates", "initContainers"])
        if which in ("env", "volumeMounts", "ports"):
            c, oc = self.pcontainer()
            parent = c
            orig = oc.get(which) if isinstance(oc, dict) else None
            self.tag("f." + which)
        else:
            parent = self.pmap("template", "spec")
            orig = self.oget("template", "spec", which)
            self.tag("f." + which)
        key = {"volumeMounts": "mountPath", "ports": "containerPort"}.get(which, "name")
        self.claim(parent, which)
        okeys = [e.get(key) for e in orig if isinstance(e, dict) and key in e] \
            if isinstance(orig, list) else []
        directive = self.pick(["replace", "delete", "delete", "merge", "bogus", "nokey"])
        lst = []

        def fresh():
            if which == "volumeMounts":
                return self.mount_entry(self.pick(["/x", "/y", "/data"]))
            if which == "ports":
                return self.port_entry(self.pick([81, 8443, 80]))
            if which == "volumes":
                return self.volume(self.pick(["x", "data", "y"]))
            if which in ("containers", "initContainers"):
                return {"name": self.pick(["x", "main", "init"]), "image": "img"}
            return {"name": self.pick(["X", "A", "gate-a", "reg"])}

        if directive == "replace":
            lst = [fresh() for _ in range(self.r.randrange(0, 3))]
            lst.insert(self.r.randrange(len(lst) + 1), {"$patch": "replace"})
            self.tag("d.patch.replace.list")
        elif directive == "delete":
            targets = list(okeys)
            if not targets or self.chance(0.3):
                targets.append(fresh()[key])
            for k in self.r.sample(targets, min(len(targets), self.r.randrange(1, 3))):
                lst.append({key: k, "$patch": "delete"})
            if self.chance(0.4):
                lst.insert(self.r.randrange(len(lst) + 1), fresh())
            self.tag("d.patch.delete.list")
        elif directive == "merge":
            lst = [fresh(), {"$patch": "merge"}]
            self.tag("d.patch.merge.list")
        elif directive == "bogus":
            e = fresh()
            e["$patch"] = self.pick(["remove", "Delete", "retain"])
            lst = [e]
            self.tag("d.patch.bad.list")
        else:
            lst = [{"$patch": "delete"}]
            self.tag("d.patch.delete.nokey")
        parent[which] = lst

    def op_retain_keys(self):
        sp = self.pmap("template", "spec")
        if self.chance(0.75):
            self.tag("f.volumes")
            lst = self.plist(sp, "volumes")
            orig = self.oget("template", "spec", "volumes")
            onames = [v.get("name") for v in orig if isinstance(v, dict)] \
                if isinstance(orig, list) else []
            name = self.pick(onames) if onames and self.chance(0.8) else "fresh"
            if any(isinstance(e, dict) and e.get("name") == name for e in lst):
                raise Abort()
            src = self.pick([("emptyDir", {}), ("hostPath", {"path": "/tmp"}),
                             ("persistentVolumeClaim", {"claimName": "pvc"}),
                             ("secret", {"secretName": "s"})])
            entry = {"name": name, src[0]: src[1]}
            mode = self.r.randrange(4)
            if mode <= 1:
                entry["$retainKeys"] = ["name", src[0]]
                self.tag("d.retainKeys.ok")
            elif mode == 2:
                entry["$retainKeys"] = ["name"]
                self.tag("d.retainKeys.violating")
            else:
                entry["$retainKeys"] = self.pick(["name", {"name": 1}, None])
                self.tag("d.retainKeys.badtype")
            lst.append(entry)
        else:
            self.tag("d.retainKeys.other")
            c, oc = self.pcontainer()
            if "$retainKeys" in c:
                raise Abort()
            keep = ["name"] + self.r.sample(["image", "env", "args", "ports"], 1)
            c["$retainKeys"] = keep
            if "image" in keep and "image" not in c:
                c["image"] = "kept"

    def op_set_element_order(self):
        which = self.pick(["containers", "env", "volumes", "ports", "args"])
        if which in ("env", "ports", "args"):
            c, oc = self.pcontainer()
            parent = c
            orig = oc.get(which) if isinstance(oc, dict) else None
        else:
            parent = self.pmap("template", "spec")
            orig = self.oget("template", "spec", which)
        self.tag("f." + which)
        key = {"ports": "containerPort", "args": None}.get(which, "name")
        okey = "$setElementOrder/" + which
        self.claim(parent, which)
        if key is None:
            # args has no merge strategy: the order list must hold scalars,
            # anything else makes kubectl panic.
            oitems = orig if isinstance(orig, list) else []
            items = [self.word() for _ in range(self.r.randrange(1, 3))]
            order = list(items)
            if oitems and self.chance(0.5):
                order = order + [x for x in oitems if x not in order]
            if self.chance(0.3):
                order.reverse()
            parent[which] = items
            parent[okey] = order
            self.tag("d.order.primitive")
            self.tag("d.order.consistent" if self.order_consistent(items, order)
                     else "d.order.contradicting")
            return
        okeys = [e.get(key) for e in orig if isinstance(e, dict) and key in e] \
            if isinstance(orig, list) else []
        pool = {"containers": ["main", "sidecar", "node", "new"],
                "env": ["A", "B", "C", "NEW"],
                "volumes": ["data", "cache", "logs", "new"],
                "ports": [80, 443, 8080, 7000]}[which]
        mode = self.r.randrange(6)
        if mode == 5:
            parent[okey] = self.pick(["main", [1, 2], {"name": "x"}, [["a"]]])
            parent[which] = [{key: pool[0]}]
            self.tag("d.order.badtype")
            return
        patch_keys = self.r.sample(pool, self.r.randrange(1, 3))
        if mode == 4:
            # order list only, no patch list
            order = list(okeys)
            self.r.shuffle(order)
            parent[okey] = [{key: k} for k in order]
            self.tag("d.order.nolist")
            return
        entries = []
        for k in patch_keys:
            if which == "containers":
                entries.append({"name": k, "image": "ordered"})
            elif which == "env":
                entries.append({"name": k, "value": self.text()})
            elif which == "volumes":
                entries.append({"name": k, "emptyDir": {}})
            else:
                entries.append({"containerPort": k})
        order = list(patch_keys)
        if mode in (1, 2):
            extra = [k for k in okeys if k not in order]
            for k in extra:
                order.insert(self.r.randrange(len(order) + 1), k)
            self.tag("d.order.superset")
        if mode == 3 and len(order) >= 2:
            order.reverse()
        elif mode == 3:
            order = order + order  # duplicated order entries
        parent[which] = entries
        parent[okey] = [{key: k} for k in order]
        self.tag("d.order.consistent" if self.order_consistent(patch_keys, order)
                 else "d.order.contradicting")

    def op_delete_primitive(self):
        mode = self.r.randrange(4)
        if mode == 0:
            c, oc = self.pcontainer()
            self.tag("f.args")
            self.claim(c, "args")
            oargs = oc.get("args") if isinstance(oc, dict) else None
            if isinstance(oc, dict) and oargs is None and self.chance(0.6):
                oargs = oc["args"] = ["--x", self.word()]
            pool = (oargs if isinstance(oargs, list) and oargs else []) + ["x"]
            c["$deleteFromPrimitiveList/args"] = self.r.sample(pool, 1)
            self.tag("d.delprim.nostrategy" if oargs not in (None, MISSING)
                     else "d.delprim.absent")
        elif mode == 1:
            sp = self.pmap("template", "spec")
            self.tag("f.containers")
            self.claim(sp, "containers")
            sp["$deleteFromPrimitiveList/containers"] = self.pick(
                [[{"name": "main"}], [{"name": "new", "image": "i"}], ["main"]])
            self.tag("d.delprim.maplist")
        elif mode == 2:
            m = self.pmap("metadata")
            self.tag("f.finalizers")
            if any("finalizers" in k for k in m):
                raise Abort()
            m["$deleteFromPrimitiveList/finalizers"] = self.pick(["c", {"a": 1}, None, 3])
            self.tag("d.delprim.badtype")
        else:
            m = self.pmap("template", "metadata")
            self.tag("f.finalizers")
            if any("finalizers" in k for k in m):
                raise Abort()
            m[self.pick(["$deleteFromPrimitiveList", "$deleteFromPrimitiveList/",
                         "$deleteFromPrimitiveList/finalizers"])] = ["c", "d"]
            self.tag("d.delprim.badtype" if not m.get(
                "$deleteFromPrimitiveList/finalizers") else "d.delprim.ok")

    def op_duplicates(self):
        mode = self.r.randrange(4)
        if mode == 0:
            # duplicate names in the patch list
            c, _ = self.pcontainer()
            self.tag("f.env", "e.dup.patch")
            self.claim(c, "env")
            n = self.env_name()
            c["env"] = [{"name": n, "value": "first"}, {"name": n, "value": "second"}]
            if self.chance(0.5):
                c["env"].insert(1, {"name": "OTHER", "value": self.text()})
        elif mode == 1:
            sp = self.pmap("template", "spec")
            self.tag("f.containers", "e.dup.patch")
            lst = self.plist(sp, "containers")
            n = self.pick(["main", "dup"])
            lst.append({"name": n, "image": "one"})
            lst.append({"name": n, "args": ["two"]})
        else:
            # duplicates in the original list, then patch that list
            conts = self.oget("template", "spec", "containers")
            if not isinstance(conts, list) or not conts:
                raise Abort()
            oc = self.pick(conts)
            which = self.pick(["env", "volumeMounts"])
            entries = oc.get(which)
            if not isinstance(entries, list) or not entries:
                raise Abort()
            sp = self.pmap("template", "spec")
            lst = self.plist(sp, "containers")
            pc = self.pentry(lst, "name", oc["name"])
            self.claim(pc, which)
            dup = dict(entries[0])
            if which == "env":
                dup["value"] = "duplicate"
                dup.pop("valueFrom", None)
            else:
                dup["name"] = "dupvol"
            entries.insert(self.r.randrange(len(entries) + 1), dup)
            self.tag("e.dup.original", "f." + which)
            key = "name" if which == "env" else "mountPath"
            k = entries[0][key]
            if mode == 2:
                pe = {key: k}
                pe["value" if which == "env" else "readOnly"] = \
                    "patched" if which == "env" else True
                pc[which] = [pe]
            else:
                pc[which] = [{key: k, "$patch": "delete"}]
                self.tag("d.patch.delete.list")

    def op_missing_key(self):
        if self.chance(0.5):
            c, _ = self.pcontainer()
            which = self.pick(["env", "volumeMounts", "ports"])
            self.claim(c, which)
            self.tag("f." + which, "e.nokey.patch")
            c[which] = [self.pick([{"value": "x"}, {"readOnly": True}, {"protocol": "UDP"},
                                   {}])]
        else:
            conts = self.oget("template", "spec", "containers")
            if not isinstance(conts, list) or not conts:
                raise Abort()
            oc = self.pick(conts)
            if not isinstance(oc.get("env"), list):
                oc["env"] = []
            oc["env"].insert(0, {"value": "no-name"})
            self.tag("e.nokey.original", "f.env")
            sp = self.pmap("template", "spec")
            lst = self.plist(sp, "containers")
            pc = self.pentry(lst, "name", oc["name"])
            self.claim(pc, "env")
            pc["env"] = self.pick([[{"name": "A", "value": "1"}], []])

    def op_type_mismatch(self):
        mode = self.r.randrange(8)
        sp = self.pmap("template", "spec")
        if mode == 0:
            self.claim(sp, "nodeSelector")
            sp["nodeSelector"] = self.pick([["a", "b"], [], [{"a": "b"}]])
            self.tag("e.type.map-list", "f.nodeSelector")
        elif mode == 1:
            self.claim(sp, "containers")
            sp["containers"] = self.pick([{"name": "main", "image": "x"}, {}])
            self.tag("e.type.map-list", "f.containers")
        elif mode == 2:
            if "affinity" in sp:
                raise Abort()
            sp["affinity"] = self.pick(["none", 5, True, ""])
            self.tag("e.type.scalar-map", "f.affinity")
        elif mode == 3:
            # original has a scalar where the schema has a map
            self.obj["template"]["spec"]["nodeSelector"] = self.pick(["zone-a", 3, ["x"]])
            if "nodeSelector" in sp:
                raise Abort()
            sp["nodeSelector"] = {"zone": "b", "$patch": "replace"} if self.chance(0.3) \
                else {"zone": "b", "gone": None}
            self.tag("e.type.scalar-map", "f.nodeSelector", "d.null.nested")
        elif mode == 4:
            lst = self.plist(sp, "containers")
            lst.append({"name": self.pick([1, 1.5, True]), "image": "numkey"})
            self.tag("e.type.keynum", "f.containers")
        elif mode == 5:
            lst = self.plist(sp, "containers")
            lst.append(self.pick(["main", 7, ["main"]]))
            self.tag("e.type.elem", "f.containers")
        elif mode == 6:
            self.claim(sp, "imagePullSecrets")
            sp["imagePullSecrets"] = [{"name": "a"}, "b"]
            self.tag("e.type.mixed-list", "f.imagePullSecrets")
        else:
            c, _ = self.pcontainer()
            self.claim(c, "ports")
            c["ports"] = [{"containerPort": "80"}, {"containerPort": 80.0}]
            self.tag("e.type.keynum", "f.ports")

    def op_unknown(self):
        mode = self.r.randrange(5)
        if mode == 0:
            sp = self.pmap("template", "spec")
            k = self.pick(["fooBar", "x-unknown", "$weird", "zzz"])
            if k in sp:
                raise Abort()
            sp[k] = self.pick([self.text(), self.number(), True, None])
            self.tag("e.unknown.scalar")
        elif mode == 1:
            self.obj["template"]["spec"]["customThing"] = {"a": 1}
            sp = self.pmap("template", "spec")
            if "customThing" in sp:
                raise Abort()
            sp["customThing"] = {"b": 2}
            self.tag("e.unknown.map-both")
        elif mode == 2:
            c, _ = self.pcontainer()
            if "extraStuff" in c:
                raise Abort()
            c["extraStuff"] = {"nested": {"deep": self.text(), "gone": None}}
            self.tag("e.unknown.map-new", "d.null.nested")
        elif mode == 3:
            m = self.pmap()
            if "status" in m:
                raise Abort()
            m["status"] = {"phase": "Running"}
            if self.chance(0.5):
                self.obj["status"] = {"phase": "Pending", "x": [1]}
                self.tag("e.unknown.map-both")
            else:
                self.tag("e.unknown.map-new")
        else:
            sp = self.pmap("template", "spec")
            self.claim(sp, "extraList")
            if self.chance(0.5):
                self.obj["template"]["spec"]["extraList"] = ["a", "b"]
            sp["extraList"] = self.pick([["c"], [{"name": "n"}], []])
            self.tag("e.unknown.list")

    def op_numbers(self):
        mode = self.r.randrange(4)
        if mode == 0:
            m = self.pmap("template", "metadata", "annotations")
            k = self.key()
            if k in m:
                raise Abort()
            m[k] = self.number()
            self.tag("f.annotations")
        elif mode == 1:
            sp = self.pmap("template", "spec")
            if "priority" in sp:
                raise Abort()
            sp["priority"] = self.number()
            self.tag("f.image")
        elif mode == 2:
            # numbers already in the original travel through float64 too
            spec = self.obj["template"]["spec"]
            spec["activeDeadlineSeconds"] = self.number()
            sp = self.pmap("template", "spec")
            if "terminationGracePeriodSeconds" in sp:
                raise Abort()
            sp["terminationGracePeriodSeconds"] = self.number()
            self.tag("f.terminationGracePeriodSeconds")
        else:
            sc = self.pmap("template", "spec", "securityContext")
            if "runAsUser" in sc:
                raise Abort()
            sc["runAsUser"] = self.number()
            self.tag("f.podSecurityContext")

    def op_strings(self):
        # force odd strings into a map and into a list
        path = self.pick([("template", "metadata", "annotations"),
                          ("template", "metadata", "labels"),
                          ("metadata", "labels")])
        m = self.pmap(*path)
        tag, pool = self.pick(STRING_CLASSES)
        self.tag(tag, "f." + path[-1])
        k = self.key() if self.chance(0.7) else self.pick(pool)
        if k in m:
            raise Abort()
        m[k] = self.pick(pool)

    def op_kind(self):
        if any(k in self.patch for k in ("kind", "apiVersion", "metadata")):
            raise Abort()
        v = self.r.randrange(4)
        if v == 0:
            self.patch["kind"] = None
        elif v == 1:
            self.patch["kind"] = self.pick(["Pod", "PodTemplate", ""])
        elif v == 2:
            self.patch["apiVersion"] = self.pick(["v2", None, "apps/v1"])
        else:
            self.patch["metadata"] = self.pick([None, {"$patch": "delete"}])
        self.tag("q.kind")

    def op_top_directive(self):
        if self.patch:
            raise Abort()
        v = self.r.randrange(3)
        if v == 0:
            self.patch = {"$patch": "replace", "apiVersion": "v1", "kind": "PodTemplate",
                          "metadata": {"name": "replaced"}}
        elif v == 1:
            self.patch = {"$patch": "delete"}
        else:
            self.patch = {"$retainKeys": ["apiVersion", "kind", "metadata"],
                          "metadata": {"labels": {"kept": "yes"}}}
            self.tag("d.retainKeys.other")
        self.tag("d.patch.top")

    def op_managed_fields(self):
        self.obj["metadata"]["managedFields"] = [
            {"manager": "m", "operation": "Apply", "apiVersion": "v1"}]
        m = self.pmap("metadata")
        if "labels" not in m and self.chance(0.5):
            m["labels"] = {"touched": "yes"}
        self.tag("q.managedFields")

    OPS = [
        ("op_map", 14), ("op_scalar", 8), ("op_named_list", 14),
        ("op_container_list", 14), ("op_replace_list", 9), ("op_affinity", 4),
        ("op_finalizers", 5), ("op_map_directive", 6), ("op_list_directive", 6),
        ("op_retain_keys", 3), ("op_set_element_order", 4), ("op_delete_primitive", 2),
        ("op_duplicates", 3), ("op_missing_key", 2), ("op_type_mismatch", 3),
        ("op_unknown", 2), ("op_numbers", 3), ("op_strings", 4), ("op_kind", 0.6),
        ("op_top_directive", 0.4), ("op_managed_fields", 0.5),
    ]

    def build(self):
        self.make_object()
        if self.chance(0.015):
            self.tag("q.noop")
            self.dump_tags()
            return
        names = [n for n, _ in self.OPS]
        weights = [w for _, w in self.OPS]
        want = self.r.choice([1, 1, 2, 2, 2, 3, 3, 4])
        done = 0
        attempts = 0
        while done < want and attempts < 40:
            attempts += 1
            name = self.r.choices(names, weights)[0]
            snapshot_patch = json.dumps(self.patch)
            snapshot_obj = json.dumps(self.obj)
            self.pending = set()
            try:
                getattr(self, name)()
            except Abort:
                self.patch = json.loads(snapshot_patch)
                self.obj = json.loads(snapshot_obj)
                self.pending = set()
                continue
            self.dump_tags()
            done += 1
        if not self.patch:
            self.tag("q.noop")
        self.dump_tags()


# ---------------------------------------------------------------------------
# Serialisation of the inputs.

_PLAIN_KEY = re.compile(r"^[A-Za-z][A-Za-z0-9_./-]*$")
_YAML_WORDS = {"y", "n", "yes", "no", "on", "off", "true", "false", "null"}


def _yaml_string(s):
    out = json.dumps(s, ensure_ascii=False)
    # characters libyaml does not accept raw (or reads as line breaks)
    return "".join(c if c.isprintable() or c in " " else "\\u%04x" % ord(c)
                   if ord(c) < 0x10000 else c for c in out)


def _yaml_scalar(v):
    if v is None:
        return "null"
    if v is True:
        return "true"
    if v is False:
        return "false"
    if isinstance(v, (int, float)):
        return json.dumps(v)
    return _yaml_string(v)


def _yaml_key(k):
    if _PLAIN_KEY.match(k) and k.lower() not in _YAML_WORDS:
        return k
    return _yaml_string(k)


def to_yaml(v, ind=0):
    """Block YAML for a JSON value (strings always double-quoted)."""
    sp = " " * ind
    if isinstance(v, dict) and v:
        lines = []
        for k, val in v.items():
            if isinstance(val, (dict, list)) and val:
                lines.append(f"{sp}{_yaml_key(k)}:")
                lines.append(to_yaml(val, ind + 2))
            else:
                lines.append(f"{sp}{_yaml_key(k)}: {_inline(val)}")
        return "\n".join(lines)
    if isinstance(v, list) and v:
        lines = []
        for item in v:
            if isinstance(item, (dict, list)) and item:
                sub = to_yaml(item, ind + 2)
                lines.append(sp + "- " + sub.lstrip(" "))
            else:
                lines.append(f"{sp}- {_inline(item)}")
        return "\n".join(lines)
    return sp + _inline(v)


def _inline(v):
    if isinstance(v, dict):
        return "{}"
    if isinstance(v, list):
        return "[]"
    return _yaml_scalar(v)


def render(value, fmt):
    """Text of an input file in the given format (see choose_format)."""
    if fmt == "yaml":
        return to_yaml(value) + "\n"
    if fmt == "json-indent":
        return json.dumps(value, indent=2, ensure_ascii=False) + "\n"
    if fmt == "json-ascii":
        return json.dumps(value, ensure_ascii=True) + "\n"
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")) + "\n"


def _contains_raw_breaks(value):
    """True if a string holds characters YAML reads as line breaks/non-printable."""
    if isinstance(value, str):
        return any(not c.isprintable() and c not in "\n\t" for c in value)
    if isinstance(value, dict):
        return any(_contains_raw_breaks(k) or _contains_raw_breaks(v) for k, v in value.items())
    if isinstance(value, list):
        return any(_contains_raw_breaks(v) for v in value)
    return False


def choose_format(r, value):
    """Format of one input file. kubectl reads the patch (always) and a
    non-JSON object file through a YAML parser, so raw control and
    line-separator characters are only written \\u-escaped."""
    v = r.random()
    if v < 0.15:
        return "yaml"
    if v < 0.25:
        return "json-indent" if not _contains_raw_breaks(value) else "json-ascii"
    if v < 0.45 or _contains_raw_breaks(value):
        return "json-ascii"
    return "json"


def generate(base_seed, index):
    """One case: dict with seed, object/patch values, formats, texts and tags."""
    seed = base_seed * 100000 + index
    c = Case(seed)
    c.build()
    fr = random.Random(seed ^ 0x5EED)
    ofmt = choose_format(fr, c.obj)
    pfmt = choose_format(fr, c.patch)
    tags = set(c.tags)
    for f, t in ((ofmt, "object"), (pfmt, "patch")):
        if f == "yaml":
            tags.add("fmt.yaml." + t)
        elif f == "json-indent":
            tags.add("fmt.json.indented")
        elif f == "json-ascii" and _has_non_ascii(c.obj if t == "object" else c.patch):
            tags.add("fmt.json.ascii")
    # numbers and strings are tagged where drawn; also scan what was built
    return {
        "seed": seed,
        "index": index,
        "object_format": ofmt,
        "patch_format": pfmt,
        "object_value": c.obj,
        "patch_value": c.patch,
        "object": render(c.obj, ofmt),
        "patch": render(c.patch, pfmt),
        "tags": sorted(tags),
    }


def _has_non_ascii(value):
    return any(ord(ch) > 127 for ch in json.dumps(value, ensure_ascii=False))


def coverage(cases):
    counts = {t: 0 for t in TAG_NAMES}
    for case in cases:
        for t in case["tags"]:
            counts[t] += 1
    return counts


def print_stats(cases, out=sys.stdout):
    counts = coverage(cases)
    out.write(f"{len(cases)} cases\n")
    width = max(len(t) for t in TAG_NAMES)
    for t, desc in TAGS:
        out.write(f"{t:<{width}}  {counts[t]:6d}  {desc}\n")
    missing = [t for t in TAG_NAMES if counts[t] == 0]
    if missing:
        out.write("NOT COVERED: " + ", ".join(missing) + "\n")
    return not missing


DEFAULT_SEED = 7


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=DEFAULT_SEED, help="base seed")
    ap.add_argument("--count", type=int, default=2400)
    ap.add_argument("--index", type=int, help="print only this case")
    ap.add_argument("--stats", action="store_true", help="print the coverage table")
    ap.add_argument("--jsonl", action="store_true", help="print cases as JSON lines")
    args = ap.parse_args(argv)
    if args.index is not None:
        case = generate(args.seed, args.index)
        sys.stdout.write(f"# seed {case['seed']}  tags: {' '.join(case['tags'])}\n")
        sys.stdout.write(f"# object ({case['object_format']}):\n{case['object']}")
        sys.stdout.write(f"# patch ({case['patch_format']}):\n{case['patch']}")
        return 0
    cases = [generate(args.seed, i) for i in range(args.count)]
    if args.jsonl:
        for case in cases:
            sys.stdout.write(json.dumps(case, ensure_ascii=False) + "\n")
    if args.stats:
        return 0 if print_stats(cases) else 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
