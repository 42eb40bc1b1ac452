"""`meson install --destdir`: the binary, a man page per command that groff
renders without a warning and that documents every option the command's
--help lists, and bash, zsh and fish completions the shells accept."""
import json
import os
import re
import shutil
import sys
import tempfile

from common import Checks, run, skip, tjrender


def installed_files(build_dir):
    """meson's map of built file -> install path (under the prefix)."""
    result = run(["meson", "introspect", "--installed", build_dir])
    if result.returncode != 0:
        skip("meson introspect failed: " + result.stderr)
    return json.loads(result.stdout)


def command_names(binary):
    listing = run([binary, "--help"]).stdout
    return re.findall(r"^  (\S+)\s", listing.split("commands:", 1)[1], re.M)


def main():
    checks = Checks()
    binary = tjrender()
    build_dir = os.path.dirname(binary)
    if shutil.which("meson") is None:
        skip("meson not on PATH")
    installed = installed_files(build_dir)
    with tempfile.TemporaryDirectory() as destdir:
        result = run(["meson", "install", "--no-rebuild", "--quiet", "-C", build_dir, "--destdir", destdir],
                     timeout=300)
        checks.expect(result.returncode == 0, "meson install --destdir succeeds", result.stdout + result.stderr)

        def staged(path):
            return os.path.join(destdir, path.lstrip("/"))

        by_name = {os.path.basename(path): staged(path) for path in installed.values()}
        exe = next((staged(p) for p in installed.values() if p.endswith("/bin/tjrender")), None)
        checks.expect(exe is not None and os.access(exe, os.X_OK), "bin/tjrender is installed", str(installed))
        if exe:
            version = run([exe, "--version"])
            checks.expect(version.returncode == 0 and version.stdout.startswith("tjrender "),
                          "the installed binary runs", version.stderr)
        checks.expect(not any("docgen" in p for p in installed.values()), "the generator is not installed")

        # A page per command `tjrender --help` lists, plus tjrender(1).
        commands = command_names(binary)
        checks.expect(len(commands) >= 10, "tjrender --help lists the commands", str(commands))
        groff = shutil.which("groff")
        for page in ["tjrender"] + ["tjrender-" + c for c in commands]:
            path = by_name.get(page + ".1")
            checks.expect(path is not None and os.path.isfile(path) and "/man/man1/" in path,
                          "man1/%s.1 is installed" % page)
            if path is None or groff is None:
                continue
            rendered = run([groff, "-man", "-Tutf8", "-ww", "-rLL=250n", "-rHY=0", path], env=dict(os.environ, LC_ALL="C.UTF-8"))
            checks.expect(rendered.returncode == 0 and rendered.stderr == "",
                          "groff renders %s.1 without warnings" % page, rendered.stderr)
            text = re.sub(r".\x08", "", rendered.stdout).replace("\u2010", "-").replace("\u2212", "-")
            if page == "tjrender":
                for command in commands:
                    checks.expect("tjrender-" + command + "(1)" in text, "tjrender(1) refers to " + command)
                continue
            command = page[len("tjrender-"):]
            help_text = run([binary, command, "--help"]).stdout
            checks.expect(text.split("DESCRIPTION")[0].count(command) >= 2, page + ": NAME and SYNOPSIS")
            flags = set(re.findall(r"^  (?:-\w \[ )?(--[\w-]+)", help_text, re.M))
            missing = sorted(f for f in flags if f not in text)
            checks.expect(flags and not missing, page + " documents every option of --help", str(missing))
        if groff is None:
            print("skip groff rendering: groff not installed")

        bash_file = next((staged(p) for p in installed.values()
                          if p.endswith("/bash-completion/completions/tjrender")), None)
        checks.expect(bash_file is not None and os.path.isfile(bash_file), "bash completion is installed")
        if bash_file:
            probe = run(["bash", "-c", 'source "$1"; complete -p tjrender; '
                         'COMP_WORDS=(tjrender render --tar); COMP_CWORD=2; _tjrender; echo "${COMPREPLY[*]}"; '
                         'COMP_WORDS=(tjrender diff --format ""); COMP_CWORD=3; _tjrender; echo "${COMPREPLY[*]}"',
                         "bash", bash_file])
            lines = probe.stdout.splitlines()
            checks.expect(probe.returncode == 0 and lines[:1] == ["complete -o filenames -F _tjrender tjrender"],
                          "bash: complete -p tjrender", probe.stdout + probe.stderr)
            checks.expect(lines[1:3] == ["--target", "text markdown json"],
                          "bash completes options and their values", probe.stdout)
        zsh_file = next((staged(p) for p in installed.values() if p.endswith("/zsh/site-functions/_tjrender")), None)
        checks.expect(zsh_file is not None and os.path.isfile(zsh_file), "zsh completion is installed")
        if zsh_file and shutil.which("zsh"):
            probe = run(["zsh", "-n", zsh_file])
            checks.expect(probe.returncode == 0, "zsh -n accepts _tjrender", probe.stderr)
        else:
            print("skip zsh syntax check: zsh not installed")
        fish_file = next((staged(p) for p in installed.values()
                          if p.endswith("/fish/vendor_completions.d/tjrender.fish")), None)
        checks.expect(fish_file is not None and os.path.isfile(fish_file), "fish completion is installed")
        if fish_file and shutil.which("fish"):
            probe = run(["fish", "--no-config", "-c", 'source $argv[1]; complete -C "tjrender render --tar"',
                         fish_file])
            checks.expect(probe.returncode == 0 and probe.stdout.startswith("--target\t"),
                          "fish loads the completions and completes --target", probe.stdout + probe.stderr)
        else:
            print("skip fish check: fish not installed")
    sys.exit(1 if checks.failed else 0)


if __name__ == "__main__":
    main()
