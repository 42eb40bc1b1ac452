"""The image scripts/image builds, run as integrations/argocd/sidecar.yaml
runs it: user 999, read-only root file system (no tmpfs either), the
plugin's discover and generate commands (integrations/argocd/plugin-discover.yaml, plugin.yaml)
in an application folder of an unpacked repository mounted read-only under
/tmp/_cmp_server, where argocd-cmp-server unpacks it.

With podman when it can run containers here; where it cannot (no cgroups,
no rlimits: some CI sandboxes), the image's own file system (podman export)
under chroot as the image's user, bind-mounted read-only, with the image's
PATH, so its contents, user and read-only root are still what is tested.
Skips without podman or a way to run either."""
import json
import os
import shutil
import subprocess
import sys
import tempfile

from common import SOURCE_ROOT, Checks, copy_sample, run, skip, tjrender
from ship import static_binary

ENV = {
    "ARGOCD_APP_NAME": "ml-trainjobs",
    "ARGOCD_APP_NAMESPACE": "ml-team",
    "ARGOCD_APP_SOURCE_PATH": "ml/trainjobs",
    "ARGOCD_APP_PARAMETERS": json.dumps([{"name": "runtime-paths", "array": ["ml/runtimes"]}]),
}
MOUNT = "/tmp/_cmp_server/0b1d"  # where the repository copy sits in the sidecar


def plugin_specs(tmp):
    """plugin.yaml's spec (generate), plugin-discover.yaml's (discover) and
    the one configmap.yaml carries for it, through tjrender fmt -o json (no
    YAML module here)."""
    def as_json(path):
        return json.loads(run([tjrender(), "fmt", "-o", "json", path]).stdout)
    folder = os.path.join(SOURCE_ROOT, "integrations", "argocd")
    embedded = os.path.join(tmp, "embedded-plugin.yaml")
    with open(embedded, "w", encoding="utf-8") as out:
        out.write(as_json(os.path.join(folder, "configmap.yaml"))["data"]["plugin-discover.yaml"])
    return (as_json(os.path.join(folder, "plugin.yaml"))["spec"],
            as_json(os.path.join(folder, "plugin-discover.yaml"))["spec"], as_json(embedded)["spec"])


def podman_runner(image, repo):
    def runner(argv, cwd):
        command = ["podman", "run", "--rm", "--user", "999", "--read-only", "--read-only-tmpfs=false",
                   "--network", "none", "-v", repo + ":" + MOUNT + ":ro", "-w", cwd]
        for key, value in ENV.items():
            command += ["-e", key + "=" + value]
        return run(command + ["--entrypoint", argv[0], image] + argv[1:], timeout=300)
    return runner


def chroot_runner(image, repo, tmp):
    """The image's file system, as its user, read-only (see the docstring)."""
    # Host tools by path: the commands run with the image's PATH.
    tools = {name: shutil.which(name) for name in ("unshare", "mount", "chroot")}
    if os.geteuid() != 0 or None in tools.values():
        return None
    config = json.loads(run(["podman", "image", "inspect", image]).stdout)[0]["Config"]
    root = os.path.join(tmp, "rootfs")
    os.makedirs(root)
    container = run(["podman", "create", image]).stdout.strip()
    try:
        exported = subprocess.run(["podman", "export", container], capture_output=True, check=True).stdout
    finally:
        run(["podman", "rm", container])
    subprocess.run(["tar", "-x", "-C", root], input=exported, check=True)
    os.makedirs(root + MOUNT)
    env = dict(ENV)
    env.update(entry.split("=", 1) for entry in config.get("Env", []))
    user = config.get("User", "0")

    def runner(argv, cwd):
        # A private mount namespace: the root bound read-only, the repository
        # read-only at MOUNT, then chroot as the image's user.
        script = ('"$4" --bind "$1" "$1" && "$4" --bind -o ro "$2" "$1$3" && '
                  '"$4" -o remount,bind,ro "$1" && shift 4 && exec "$@"')
        inner = [tools["chroot"], "--userspec=" + user, root, "/bin/sh", "-c", 'cd "$1" && shift && exec "$@"', "sh",
                 cwd] + argv
        return run([tools["unshare"], "-m", "/bin/sh", "-c", script, "sh", root, repo, MOUNT, tools["mount"]] + inner,
                   env=env, timeout=300)
    probe = runner(["tjrender", "--version"], "/")
    return runner if probe.returncode == 0 else None


def main():
    checks = Checks()
    binary = static_binary(tjrender())
    if not shutil.which("podman"):
        skip("podman is not installed")
    with tempfile.TemporaryDirectory() as tmp:
        tag = "localhost/tjrender-test:image-test"
        built = run([os.path.join(SOURCE_ROOT, "scripts", "image"), "--binary", binary, "--tag", tag,
                     "--archive", os.path.join(tmp, "image.tar")], timeout=600)
        if built.returncode != 0:
            raise SystemExit("scripts/image failed:\n" + built.stderr)
        checks.expect(built.stdout.strip() == tag, "scripts/image prints the image name", built.stdout)
        checks.expect(os.path.getsize(os.path.join(tmp, "image.tar")) > 1 << 20, "scripts/image --archive writes it")
        config = json.loads(run(["podman", "image", "inspect", tag]).stdout)[0]
        checks.expect(config["Config"].get("User") == "999:999", "the image runs as 999", str(config["Config"]))
        checks.expect(len(config.get("RootFS", {}).get("Layers", [])) == 1, "one layer (FROM scratch)")

        repo = os.path.join(tmp, "unpacked")
        copy_sample(os.path.join(repo, "ml"))
        with open(os.path.join(repo, ".tjrender.yaml"), "w", encoding="utf-8") as out:
            out.write("target: trainer-v2.1\n")  # the sample's TrainJobs use podTemplateOverrides
        os.makedirs(os.path.join(repo, "other"))
        with open(os.path.join(repo, "other", "cm.yaml"), "w", encoding="utf-8") as out:
            out.write("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n")
        probe = podman_runner(tag, repo)(["tjrender", "--version"], "/")
        if probe.returncode == 0:
            runner, how = podman_runner(tag, repo), "podman run"
        else:
            print("podman cannot run containers here (%s); using the image's file system under chroot"
                  % probe.stderr.strip().splitlines()[-1:])
            runner, how = chroot_runner(tag, repo, tmp), "chroot"
            if runner is None:
                skip("podman cannot run containers here and chroot is not available")
        spec, discover_spec, configmap_spec = plugin_specs(tmp)
        app = MOUNT + "/ml/trainjobs"
        for name, command in (("plugin-discover.yaml", discover_spec["discover"]["find"]["command"]),
                              ("configmap.yaml", configmap_spec["discover"]["find"]["command"])):
            found = runner(command, app)
            checks.expect(found.returncode == 0 and found.stdout.strip() != "",
                          how + ": %s's discover command matches the application" % name, found.stdout + found.stderr)
            elsewhere = runner(command, MOUNT + "/other")
            checks.expect(elsewhere.returncode == 0 and elsewhere.stdout == "",
                          how + ": %s's discover command passes over a folder without TrainJobs" % name,
                          elsewhere.stdout + elsewhere.stderr)
        generated = runner(spec["generate"]["command"] + spec["generate"].get("args", []), app)
        checks.expect(generated.returncode == 0 and generated.stdout.count("kind: TrainJob") == 4,
                      how + ": generate prints the 4 TrainJobs", generated.stderr)
        checks.expect("application ml-trainjobs: 4 object(s), mode validate" in generated.stderr,
                      how + ": generate's log line", generated.stderr)
        # .pre-commit-hooks.yaml's docker_image hooks: the image scripts/image
        # names, the system hooks' arguments, run where pre-commit mounts the
        # repository (here read-only: the hooks write nothing).
        hooks = json.loads(run([tjrender(), "fmt", "-o", "json",
                                os.path.join(SOURCE_ROOT, ".pre-commit-hooks.yaml")]).stdout)
        by_id = {hook["id"]: hook for hook in hooks}
        docker_hooks = [hook for hook in hooks if hook["language"] == "docker_image"]
        checks.expect(len(docker_hooks) == 2, "two docker_image hooks", str(list(by_id)))
        version = run([binary, "--version"]).stdout.split()[1]
        for hook in docker_hooks:
            image, *args = hook["entry"].split()
            system = by_id.get(hook["id"].removesuffix("-docker"), {})
            checks.expect(image == "localhost/tjrender:" + version, hook["id"] + " names scripts/image's image", image)
            checks.expect(["tjrender"] + args == system.get("entry", "").split() and
                          hook.get("args") == system.get("args"), hook["id"] + " runs what its system hook runs")
            files = ["ml/trainjobs/" + f for f in sorted(os.listdir(os.path.join(repo, "ml", "trainjobs")))]
            argv = ["tjrender"] + args + hook.get("args", [])
            if hook.get("pass_filenames", True):
                argv += files
            else:  # render --check: the rendered tree committed as render writes it
                written = run([binary] + [a for a in argv[1:] if a != "--check"], cwd=repo)
                checks.expect(written.returncode == 0, "the rendered tree is written", written.stderr)
            result = runner(argv, MOUNT)
            checks.expect(result.returncode == 0, how + ": " + hook["id"] + " passes on the sample",
                          " ".join(argv) + "\n" + result.stderr)
        user = runner(["busybox", "id", "-u"], "/")
        checks.expect(user.stdout.strip() == "999", how + ": runs as uid 999", user.stdout + user.stderr)
        write = runner(["sh", "-c", "echo x > /x"], "/")
        checks.expect(write.returncode != 0 and "Read-only file system" in write.stderr,
                      how + ": the root file system is read-only", write.stdout + write.stderr)
        run(["podman", "rmi", tag])
    sys.exit(1 if checks.failed else 0)


if __name__ == "__main__":
    main()
