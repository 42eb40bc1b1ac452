#!/usr/bin/env python3
"""Prints the Flux plugin's `<trainjob>-flux-entrypoint` ConfigMap for the
plugins-flux cases, independently of tjrender: the templates are read from
the upstream git tags (not from policies/) and filled as flux.go fills them
(fmt.Sprintf with %s verbs only, which Python's % operator matches).

Usage: configmap-oracle.py TAG NAME NAMESPACE NODES TASKS GPUS [DEVICE QUEUE]
  TAG v2.2.0 or v2.3.0; TRAINER_GIT (env) the upstream clone.
"""
import os
import subprocess
import sys

import yaml


def template(tag, name):
    repo = os.environ.get("TRAINER_GIT", "/work/.mirror/kubeflow+trainer/repo")
    path = "%s:pkg/runtime/framework/plugins/flux/templates/%s" % (tag, name)
    return subprocess.run(["git", "-C", repo, "show", path], check=True, capture_output=True).stdout.decode()


def generate_range(size, start):  # flux.go generateRange
    return "%d" % start if size == 1 else "%d-%d" % (start, start + size - 1)


def main(argv):
    tag, name, ns, nodes, tasks, gpus = argv[:6]
    device, queue = (argv[6], argv[7]) if len(argv) > 7 else ("eth0", "fcfs")
    nodes, tasks, gpus = int(nodes), int(tasks), int(gpus)
    flags = "-N %d -n %d" % (nodes, tasks * nodes)  # generateFluxEntrypoint
    main_host = "%s-node-0-0" % name
    if tag == "v2.2.0":
        if gpus > 0:
            flags += " -g %d" % gpus
        entrypoint = template(tag, "entrypoint.sh") % (main_host, flags)
    else:
        rspec = "--cores=%s" % generate_range(tasks, 0)
        if gpus > 0:
            flags += " -g %d" % gpus
            rspec += " --gpu=%s" % generate_range(gpus, 0)
        entrypoint = template(tag, "entrypoint.sh") % (rspec, main_host, flags)
    hosts = "%s-node-0-[%s]" % (name, generate_range(nodes, 0))  # generateHostlist
    broker = template(tag, "broker.toml") % (  # generateBrokerConfig
        "tcp://" + device + ":%p", "tcp://%h" + ".%s.%s.svc.cluster.local:" % (name, ns) + "%p", hosts, queue)
    init = template(tag, "init.sh") % ("/opt/view", "%s-0" % name, hosts, broker)  # generateInitEntrypoint
    cm = {
        "apiVersion": "v1",
        "kind": "ConfigMap",
        "metadata": {
            "name": "%s-flux-entrypoint" % name,
            "namespace": ns,
            "ownerReferences": [{"apiVersion": "trainer.kubeflow.org/v1alpha1", "kind": "TrainJob", "name": name,
                                 "controller": True, "blockOwnerDeletion": True}],
        },
        "data": {"entrypoint.sh": entrypoint, "init.sh": init},
    }

    class Literal(yaml.SafeDumper):
        pass

    def text(dumper, value):
        style = "|" if "\n" in value else None
        return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)

    Literal.add_representer(str, text)
    sys.stdout.write(yaml.dump(cm, Dumper=Literal, sort_keys=True, allow_unicode=True, width=10000))


if __name__ == "__main__":
    main(sys.argv[1:])
