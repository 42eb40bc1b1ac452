"""The pieces github_workflow_test.py runs the workflow with: a machine
(World: fakes on PATH for `gh` and `curl`, which serves release tarballs
whose tjrender logs its arguments and runs argv[1]), a repository laid
out as actions/checkout leaves it (Repository), one replay of the job and what
it left (Run), and the github contexts of the events."""
import json
import os
import shutil
import sys

import yaml

from actions_replay import run_job
from common import LONELY_TRAINJOB, SOURCE_ROOT, copy_sample, run, tjrender

WORKFLOW = os.path.join(SOURCE_ROOT, "integrations", "github", "tjrender.yml")
INTEGRATIONS_DOC = os.path.join(SOURCE_ROOT, "docs", "integrations.md")
FAKE_GH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fake_gh.py")
REPOSITORY = "ml-team/manifests"
PR = 7
MARKER = "<!-- tjrender diff -->"
ZEROS = "0" * 40
FOREIGN_ID = 1200           # another bot's comment, posted last
MARKER_ON_PAGE_2_ID = 1104  # an earlier tjrender comment, past the first 100
TAMPERED_VERSION = "0.0.0-tampered"  # a release whose .sha256 does not match


def canned_comments(with_tjrender_comment):
    comments = [{"id": 1000 + i, "body": f"review note {i}", "user": {"login": "reviewer", "type": "User"}}
                for i in range(120)]
    comments[3]["body"] = "Why does the bot's comment start with " + MARKER + "?"
    if with_tjrender_comment:
        comments[104] = {"id": MARKER_ON_PAGE_2_ID, "body": MARKER + "\n### an old diff\n",
                         "user": {"login": "github-actions[bot]", "type": "Bot"}}
    comments.append({"id": FOREIGN_ID, "body": "<!-- coverage -->\nCoverage: 81%",
                     "user": {"login": "github-actions[bot]", "type": "Bot"}})
    return comments


class World:
    """The machine a run happens on: fakes on PATH, git identity, logs."""

    def __init__(self, work):
        self.work = work
        self.bin = os.path.join(work, "bin")
        self.fakes = os.path.join(work, "fakes")
        os.makedirs(self.bin)
        os.makedirs(self.fakes)
        real_git = shutil.which("git")
        self.env = {
            "PATH": self.bin + ":" + os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": os.path.join(work, "home"),
            "LANG": "C.UTF-8",
            "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com",
            "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com",
            "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1",
        }
        os.makedirs(self.env["HOME"])
        self.write(self.bin, "gh", f'#!/bin/sh\nexec "{sys.executable}" "{FAKE_GH}" "$@"\n')
        # curl serves what is in fakes/release/ (404 otherwise) and logs the URLs.
        self.release = os.path.join(self.fakes, "release")
        os.makedirs(self.release)
        self.write(self.bin, "curl", f"""#!/bin/sh
for url; do :; done
printf '%s\\n' "$url" >> "$FAKE_LOGS/curl.log"
file="{self.release}/${{url##*/}}"
[ -f "$file" ] || {{ echo "curl: (22) The requested URL returned error: 404" >&2; exit 22; }}
cp "$file" .
""")
        self.write(self.fakes, "tjrender", f"""#!/bin/sh
printf '%s\\037' "$@" >> "$FAKE_LOGS/tjrender.log"; printf '\\n' >> "$FAKE_LOGS/tjrender.log"
exec "{tjrender()}" "$@"
""")
        with open(WORKFLOW) as f:
            version = yaml.safe_load(f)["env"]["TJRENDER_VERSION"]
        self.add_release(version)
        self.add_release(TAMPERED_VERSION, tamper=True)

    def add_release(self, version, tamper=False):
        """fakes/release/tjrender-VERSION-linux-amd64.tar.gz (bin/tjrender: the
        logging tjrender) and its .sha256, which `tamper` makes wrong."""
        name = f"tjrender-{version}-linux-amd64"
        stage = os.path.join(self.fakes, "stage-" + version)
        os.makedirs(os.path.join(stage, name, "bin"))
        shutil.copy2(os.path.join(self.fakes, "tjrender"), os.path.join(stage, name, "bin", "tjrender"))
        tarball = os.path.join(self.release, name + ".tar.gz")
        run(["tar", "-czf", tarball, "-C", stage, name])
        digest = run(["sha256sum", name + ".tar.gz"], cwd=self.release).stdout
        if tamper:
            digest = ("0" if digest[0] != "0" else "1") + digest[1:]
        with open(tarball + ".sha256", "w") as f:
            f.write(digest)

    @staticmethod
    def write(folder, name, text):
        path = os.path.join(folder, name)
        with open(path, "w") as f:
            f.write(text)
        os.chmod(path, 0o755)

    def git(self, repo, *args):
        out = run(["git", "-c", "init.defaultBranch=main", *args], cwd=repo, env=self.env)
        if out.returncode != 0:
            raise RuntimeError(f"git {' '.join(args)}: {out.stderr}")
        return out.stdout.strip()


class Repository:
    """fixtures/trainer-repo with the workflow copied in and its rendered
    tree committed, as `main`."""

    def __init__(self, world, path, clone=False):
        self.world = world
        self.path = path
        if clone:  # an existing clone
            return
        copy_sample(path)
        os.makedirs(os.path.join(path, ".github", "workflows"))
        shutil.copy(WORKFLOW, os.path.join(path, ".github", "workflows", "tjrender.yml"))
        self.render()
        self.git("init", "-q")
        self.commit("manifests")
        self.base = self.git("rev-parse", "HEAD")

    def git(self, *args):
        return self.world.git(self.path, *args)

    def render(self):
        out = run([tjrender(), "render", ".", "--out", "rendered"], cwd=self.path, env=self.world.env)
        if out.returncode != 0:
            raise RuntimeError("tjrender render . --out rendered: " + out.stderr)

    def write(self, relative, text):
        with open(os.path.join(self.path, relative), "w") as f:
            f.write(text)

    def edit(self, relative, old, new):
        path = os.path.join(self.path, relative)
        with open(path) as f:
            text = f.read()
        if old not in text:
            raise RuntimeError(f"{old!r} not in {relative}")
        self.write(relative, text.replace(old, new))

    def commit(self, message):
        self.git("add", "-A")
        self.git("commit", "-qm", message)
        return self.git("rev-parse", "HEAD")

    def as_pull_request_checkout(self, change, base_moves=False):
        """What actions/checkout with fetch-depth 0 leaves for a pull request
        (src/ref-helper.ts getRefSpecForAllHistory): the branches as origin/*,
        HEAD detached at GitHub's merge of the head into the base."""
        self.git("checkout", "-qb", "feature")
        change(self)
        head = self.commit("the pull request")
        self.git("checkout", "-q", "main")
        if base_moves:
            self.write("NOTES.md", "the base branch moved on\n")
            self.commit("meanwhile on main")
        main = self.git("rev-parse", "HEAD")
        self.git("checkout", "-q", "--detach", self.base)
        self.git("merge", "-q", "--no-ff", "-m", "Merge feature into main", head)
        merge = self.git("rev-parse", "HEAD")
        self.git("update-ref", "refs/remotes/origin/main", main)
        self.git("update-ref", "refs/remotes/origin/feature", head)
        self.git("update-ref", f"refs/remotes/pull/{PR}/merge", merge)
        self.git("branch", "-qD", "main", "feature")
        return {"head": head, "main": main, "merge": merge}

    def as_push_checkout(self, change):
        """A push to main: HEAD on main at the new commit, as origin/main."""
        before = self.git("rev-parse", "HEAD")
        change(self)
        after = self.commit("the push")
        self.git("update-ref", "refs/remotes/origin/main", after)
        return {"before": before, "after": after}


class Run:
    """One replay of the workflow's job, with what it left behind."""

    def __init__(self, world, repo, github, comments, workflow_edit=None, cancel_after=None, name="run"):
        self.dir = os.path.join(os.path.dirname(repo.path), name)
        self.runner_temp = os.path.join(self.dir, "runner-temp")
        self.logs = os.path.join(self.dir, "logs")
        self.state = os.path.join(self.dir, "gh")
        for d in (self.runner_temp, self.logs, self.state):
            os.makedirs(d)
        with open(os.path.join(self.state, "comments.json"), "w") as f:
            json.dump(comments, f)
        event_path = os.path.join(self.dir, "event.json")
        with open(event_path, "w") as f:
            json.dump(github["event"], f)
        env = dict(world.env)
        env.update({
            "CI": "true", "GITHUB_ACTIONS": "true", "GITHUB_WORKSPACE": repo.path,
            "GITHUB_EVENT_NAME": github["event_name"], "GITHUB_EVENT_PATH": event_path,
            "GITHUB_SHA": github["sha"], "GITHUB_REF": github["ref"],
            "GITHUB_BASE_REF": github["base_ref"], "GITHUB_HEAD_REF": github["head_ref"],
            "GITHUB_REPOSITORY": REPOSITORY, "GITHUB_REPOSITORY_OWNER": REPOSITORY.split("/")[0],
            "GITHUB_SERVER_URL": "https://github.com", "GITHUB_API_URL": "https://api.github.com",
            "RUNNER_TEMP": self.runner_temp, "RUNNER_OS": "Linux",
            "FAKE_LOGS": self.logs, "FAKE_GH_STATE": self.state, "FAKE_GH_REPO": REPOSITORY,
            "FAKE_GH_PR": str(PR),
        })
        with open(WORKFLOW) as f:
            workflow = yaml.safe_load(f)
        if workflow_edit:
            workflow_edit(workflow)
        self.status, self.results = run_job(workflow, github, repo.path, self.runner_temp, env,
                                            cancel_after=cancel_after)
        self.steps = {r.id: r for r in self.results if r.id}
        self.by_uses = {r.uses.split("@")[0]: r for r in self.results if r.uses}

    def step(self, key):
        """A step by id, or a `uses:` step by action name."""
        return self.steps.get(key) or self.by_uses[key]

    def log(self, name):
        path = os.path.join(self.logs, name)
        if not os.path.exists(path):
            return []
        with open(path) as f:
            return f.read().splitlines()

    def tjrender_calls(self):
        return [line.split("\x1f")[:-1] for line in self.log("tjrender.log")]

    def calls_of(self, command):
        return [c for c in self.tjrender_calls() if c and c[0] == command]

    def gh_calls(self):
        path = os.path.join(self.state, "calls.jsonl")
        if not os.path.exists(path):
            return []
        with open(path) as f:
            return [json.loads(line) for line in f]

    def comments(self):
        with open(os.path.join(self.state, "comments.json")) as f:
            return json.load(f)

    def output(self):
        return "\n".join(f"--- {r.id or r.name}: {r.outcome} rc={r.returncode}\n{r.stdout}{r.stderr}"
                         for r in self.results if r.ran and not r.uses)

    def outcomes(self):
        return {r.id or r.uses.split("@")[0] if r.uses else r.name: r.outcome for r in self.results}


def pr_context(checkout, head_repo=REPOSITORY):
    return {
        "event_name": "pull_request", "repository": REPOSITORY, "token": "ghs_faketoken",
        "ref": f"refs/pull/{PR}/merge", "sha": checkout["merge"], "base_ref": "main", "head_ref": "feature",
        "event": {"number": PR, "pull_request": {
            "number": PR,
            "head": {"ref": "feature", "sha": checkout["head"], "repo": {"full_name": head_repo}},
            "base": {"ref": "main", "sha": checkout["main"], "repo": {"full_name": REPOSITORY}}}},
    }


def push_context(after, before):
    return {
        "event_name": "push", "repository": REPOSITORY, "token": "ghs_faketoken",
        "ref": "refs/heads/main", "sha": after, "base_ref": "", "head_ref": "",
        "event": {"before": before, "after": after, "ref": "refs/heads/main"},
    }


def new_torch_image(repo):
    """A valid change: the torch runtime's image, so three JobSets change."""
    repo.edit("runtimes/torch_distributed.yaml", "pytorch/pytorch:2.7.1-cuda12.8-cudnn9-runtime",
              "pytorch/pytorch:2.8.0-cuda12.8-cudnn9-runtime")


def refused_and_changed(repo):
    """A TrainJob the webhook refuses (its runtime does not exist) and a valid
    change, without refreshing the rendered tree."""
    repo.write("trainjobs/lonely.yaml", LONELY_TRAINJOB)
    new_torch_image(repo)


def valid_change_rendered(repo):
    new_torch_image(repo)
    repo.render()
