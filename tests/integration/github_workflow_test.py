#!/usr/bin/env python3
"""integrations/github/tjrender.yml replayed as GitHub runs it, in a copy of
fixtures/trainer-repo with the workflow at .github/workflows/tjrender.yml as
docs/integrations.md says: every `if:` evaluated (actions_expressions), `run:` steps
executed with the runner's bash options and GITHUB_* files, `uses:` steps
recorded (actions_replay), a fake `gh` over a pull request's comments
(fake_gh), `curl` faked for the install step, serving release tarballs whose
tjrender logs its arguments and runs argv[1] (workflow_harness).

Scenarios: a same-repository pull request with a TrainJob the webhook
refuses (the check fails, the later steps still run, the sticky comment is
created, then updated, never another bot's), a fork pull request, pushes
with the previous commit / a new branch / a commit not in the clone, a diff
that exits 2, a base branch that moved on, a cancelled run, a failed install
(a missing release, a checksum that does not match),
and the CI recipe of docs/integrations.md. Needs git and jq; skips (77) without them."""
import json
import os
import re
import shutil

import yaml

from actions_expressions import ExpressionError, evaluate, step_condition, truthy
from common import Checks, copy_sample, run, skip, temp_dir, tjrender
from workflow_harness import (FOREIGN_ID, MARKER, MARKER_ON_PAGE_2_ID, PR, INTEGRATIONS_DOC, REPOSITORY, TAMPERED_VERSION,
                              WORKFLOW, ZEROS,
                              Repository, Run, World, canned_comments, pr_context, push_context,
                              refused_and_changed, valid_change_rendered)


def main():
    for tool in ("git", "jq", "bash"):
        if not shutil.which(tool):
            skip(f"{tool} is not installed")
    checks = Checks()
    work = temp_dir("tjrender-ghflow-")
    try:
        world = World(work)
        check_static(checks)
        check_workflow_file_is_skipped(checks, world)
        scenarios = [pull_request_with_refused_trainjob, fork_pull_request, push_after_previous_commit,
                     push_of_new_branch, push_after_unknown_commit, diff_input_error, malformed_file_in_pull_request,
                     base_branch_moved,
                     cancelled_after_check, install_fails, readme_recipe]
        for scenario in scenarios:
            print(f"## {scenario.__name__}")
            scenario(checks, world, os.path.join(work, scenario.__name__))
    finally:
        if checks.failed == 0:
            shutil.rmtree(work, ignore_errors=True)
        else:
            print("kept " + work)
    checks.done()


def check_static(checks):
    with open(WORKFLOW) as f:
        text = f.read()
    uses = [line.strip() for line in text.splitlines() if re.match(r"\s*(- )?uses:", line)]
    checks.expect(len(uses) == 3, "three actions: checkout, upload-artifact, upload-sarif", "\n".join(uses))
    for line in uses:
        checks.expect(re.fullmatch(r"(- )?uses: [\w.-]+/[\w./-]+@[0-9a-f]{40} # v\d+\.\d+\.\d+", line) is not None,
                      f"pinned by commit with its release in a comment: {line}")
    for banned, why in (("--edit-last", "edits whichever bot comment is last"),
                        ("head -c", "cuts inside a line; diff bounds itself"),
                        ("always()", "runs after a cancellation")):
        checks.expect(banned not in text, f"no {banned} ({why})")
    # The replay refuses what it does not understand, so the workflow cannot
    # outgrow its test.
    for unknown in ("hashFiles('x') != ''", "github.event.number == 7", "contains(github.ref, 'x')",
                    "vars.X == 'y'", "github.ref == 'a' && ", "github['ref'] == 'a'", "x ${{ success() }}"):
        try:
            step_condition(unknown)
            checks.expect(False, f"the replay refuses {unknown!r}")
        except ExpressionError:
            checks.expect(True, f"the replay refuses {unknown!r}")
    ctx = {"github": {"repository": "Org/Repo", "event": {}}, "steps": {}}
    for expression, status, expected in (
            ("github.repository == 'org/repo'", "success", True),      # case-insensitive
            ("steps.base.outputs.base != ''", "success", False),       # null == ''
            ("github.event.pull_request.head.repo.full_name != github.repository", "success", True),
            ("github.repository == 'Org/Repo'", "failure", False),     # implicit success() &&
            ("${{ !cancelled() && github.repository != '' }}", "failure", True),
            ("${{ !cancelled() }}", "cancelled", False)):
        got = truthy(evaluate(step_condition(expression), ctx, status))
        checks.expect(got == expected, f"if: {expression} with the job {status} is {expected}")
    # action.yml installs with the workflow's script, so this replay covers it.
    with open(os.path.join(os.path.dirname(WORKFLOW), "..", "..", "action.yml")) as f:
        action = yaml.safe_load(f)
    with open(WORKFLOW) as f:
        workflow = yaml.safe_load(f)
    install = next(step for step in workflow["jobs"]["check"]["steps"] if step.get("id") == "install")
    action_steps = action["runs"]["steps"]
    checks.expect(action["runs"]["using"] == "composite" and len(action_steps) == 1 and
                  action_steps[0]["run"] == install["run"] and action_steps[0]["shell"] == "bash",
                  "action.yml runs the workflow's install script")
    checks.expect({k: str(v["default"]) for k, v in action["inputs"].items()} ==
                  {"release-url": workflow["env"]["TJRENDER_RELEASE_URL"],
                   "version": str(workflow["env"]["TJRENDER_VERSION"])} and
                  action_steps[0]["env"] == {"TJRENDER_RELEASE_URL": "${{ inputs.release-url }}",
                                             "TJRENDER_VERSION": "${{ inputs.version }}"},
                  "action.yml's inputs are the workflow's settings", str(action["inputs"]))
    with open(INTEGRATIONS_DOC) as f:
        readme = f.read()
    checks.expect(".github/workflows/tjrender.yml" in readme_section(readme, "## CI gate"),
                  "the CI gate of docs/integrations.md says where to copy the workflow")


def readme_section(readme, heading):
    start = readme.index(heading + "\n")
    end = readme.find("\n#", start + len(heading))
    return readme[start:end if end >= 0 else len(readme)]


def check_workflow_file_is_skipped(checks, world):
    """The workflow copied where docs/integrations.md says is not a Kubernetes object:
    tjrender check must not report it (a skipped file, not an error)."""
    repo = copy_sample(os.path.join(world.work, "loader"))
    os.makedirs(os.path.join(repo, ".github", "workflows"))
    shutil.copy(WORKFLOW, os.path.join(repo, ".github", "workflows", "tjrender.yml"))
    out = run([tjrender(), "check", "."], cwd=repo, env=world.env)
    skipped = out.returncode == 0 and ".github" not in out.stderr
    checks.expect(skipped, "tjrender check . passes with the workflow at .github/workflows/tjrender.yml",
                  out.stderr[-2000:])


def expect_pr_comment_steps(checks, run, action, target_id=None):
    """The comment step listed every page and then POSTed or PATCHed once."""
    calls = run.gh_calls()
    listing = [c for c in calls if c.get("method") == "GET"]
    writes = [c for c in calls if c.get("method") in ("POST", "PATCH")]
    checks.expect(all(c["token"] for c in calls) and all(not c.get("exit") for c in calls),
                  "every gh call had GH_TOKEN and succeeded", json.dumps(calls)[:2000])
    checks.expect(len(listing) == 1 and "--paginate" in listing[0]["argv"]
                  and listing[0]["endpoint"].startswith(f"repos/{REPOSITORY}/issues/{PR}/comments"),
                  "the PR's comments are listed, every page", json.dumps(listing)[:1000])
    checks.expect(len(writes) == 1 and writes[0]["method"] == action,
                  f"one {action} of the sticky comment", json.dumps(writes)[:1000])
    if not writes:
        return
    with open(os.path.join(run.runner_temp, "tjrender-diff.md")) as f:
        diff = f.read()
    checks.expect(writes[0]["fields"].get("body") == diff and diff.startswith(MARKER + "\n"),
                  "the comment body is diff --format markdown, whole")
    if action == "PATCH":
        checks.expect(writes[0]["endpoint"] == f"repos/{REPOSITORY}/issues/comments/{target_id}",
                      f"PATCH the comment that starts with the marker ({target_id})", writes[0]["endpoint"])
    comments = run.comments()
    ours = [c for c in comments if c["body"].startswith(MARKER)]
    checks.expect(len(ours) == 1 and ours[0]["body"] == diff, "exactly one tjrender comment, current")
    foreign = [c for c in comments if c["id"] == FOREIGN_ID]
    checks.expect(foreign and foreign[0]["body"] == "<!-- coverage -->\nCoverage: 81%",
                  "the other bot's comment is untouched")
    checks.expect(comments[3]["body"].startswith("Why does"), "a comment quoting the marker is untouched")


def pull_request_with_refused_trainjob(checks, world, work):
    os.makedirs(work)
    repo = Repository(world, os.path.join(work, "workspace"))
    checkout = repo.as_pull_request_checkout(refused_and_changed)
    github = pr_context(checkout)
    first = Run(world, repo, github, canned_comments(False), name="first")
    out = first.output()

    checks.expect(first.step("actions/checkout").ran and
                  str(first.step("actions/checkout").with_.get("fetch-depth")) == "0",
                  "checkout with fetch-depth 0 (the base revision is read from git)")
    with open(WORKFLOW) as f:
        settings = yaml.safe_load(f)["env"]
    name = f"tjrender-{settings['TJRENDER_VERSION']}-linux-amd64.tar.gz"
    checks.expect(first.log("curl.log") == [f"{settings['TJRENDER_RELEASE_URL']}/{name}",
                                            f"{settings['TJRENDER_RELEASE_URL']}/{name}.sha256"],
                  "install downloads the release tarball and its sha256 from TJRENDER_RELEASE_URL",
                  "\n".join(first.log("curl.log")))
    checks.expect(first.step("install").outcome == "success", "install succeeds", out)
    checks.expect(first.step("base").outputs.get("base") == "origin/main", "the base is origin/main", out)

    check = first.step("check")
    checks.expect(check.outcome == "failure" and check.returncode == 1, "check fails with findings (exit 1)", out)
    checks.expect(re.search(r"^::error file=trainjobs/lonely\.yaml,line=\d+", check.stdout, re.M) is not None,
                  "check annotates the refused TrainJob", check.stdout)
    junit = os.path.join(first.runner_temp, "tjrender-junit.xml")
    checks.expect(first.calls_of("check")[:1] == [["check", "--since", "origin/main", ".", "--format", "github",
                                                   "--report", "junit=" + junit]],
                  "check --since origin/main with the JUnit report", repr(first.calls_of("check")))

    rendered = first.step("rendered")
    checks.expect(rendered.ran and rendered.outcome == "failure" and
                  "rendered/ml-team/labelled-gpu-job.yaml: error: stale:" in rendered.stderr,
                  "the stale-tree step runs after the failed check and refuses the stale tree", out)
    diff = first.step("diff")
    checks.expect(diff.ran and diff.outcome == "success" and diff.outputs.get("differences") == "true",
                  "the diff step runs after the failed check; differences", out)
    checks.expect(first.calls_of("diff") == [["diff", "origin/main", "--format", "markdown"]],
                  "diff origin/main --format markdown", repr(first.calls_of("diff")))
    checks.expect(diff.summary.startswith(MARKER + "\n") and "lonely" in diff.summary,
                  "the job summary holds the diff, the refused TrainJob named", diff.summary[:2000])
    expect_pr_comment_steps(checks, first, "POST")
    fork_notice = [r for r in first.results if r.name == "Pull request from a fork"]
    checks.expect(fork_notice and not fork_notice[0].ran, "no fork notice for a same-repository PR")

    artifact = first.step("actions/upload-artifact")
    checks.expect(artifact.ran and artifact.with_.get("path") == junit and os.path.exists(junit),
                  "the JUnit report is uploaded as an artifact", repr(artifact.with_))
    if os.path.exists(junit):
        with open(junit) as f:
            report = f.read()
        checks.expect("<testsuite" in report and "lonely" in report and "<failure" in report,
                      "the JUnit report has the refused TrainJob as a failure", report[:1500])
    sarif_step = first.step("github/codeql-action/upload-sarif")
    sarif_path = sarif_step.with_.get("sarif_file", "")
    checks.expect(first.step("sarif").outcome == "success" and sarif_step.ran and os.path.exists(sarif_path),
                  "SARIF of the whole repository, uploaded", out)
    checks.expect(first.calls_of("check")[1:] == [["check", ".", "--format", "sarif"]],
                  "the SARIF check has no --since (code scanning closes what an upload leaves out)",
                  repr(first.calls_of("check")))
    if os.path.exists(sarif_path):
        with open(sarif_path) as f:
            sarif = json.load(f)
        results = sarif["runs"][0]["results"]
        checks.expect(sarif.get("version") == "2.1.0" and any("lonely" in json.dumps(r) for r in results),
                      "the SARIF has the refused TrainJob")
    checks.expect(first.status == "failure", "the job fails")

    # Pushed again: the same comment is updated, nothing new is posted.
    second = Run(world, repo, github, first.comments(), name="second")
    created = [c["id"] for c in first.comments() if c["body"].startswith(MARKER)]
    expect_pr_comment_steps(checks, second, "PATCH", created[0] if created else None)
    # A comment from an earlier run, past the first page of 100.
    third = Run(world, repo, github, canned_comments(True), name="third")
    expect_pr_comment_steps(checks, third, "PATCH", MARKER_ON_PAGE_2_ID)


def fork_pull_request(checks, world, work):
    os.makedirs(work)
    repo = Repository(world, os.path.join(work, "workspace"))
    checkout = repo.as_pull_request_checkout(refused_and_changed)
    fork = Run(world, repo, pr_context(checkout, head_repo="contributor/manifests"), canned_comments(True))
    checks.expect(fork.gh_calls() == [], "no gh call from a fork PR", json.dumps(fork.gh_calls())[:1000])
    notice = [r for r in fork.results if r.name == "Pull request from a fork"]
    checks.expect(notice and notice[0].outcome == "success" and
                  re.search(r"^::notice title=tjrender::Pull request from a fork.*no PR comment and no SARIF upload",
                            notice[0].stdout, re.M) is not None,
                  "a notice says why there is no comment and no SARIF upload", notice[0].stdout if notice else "")
    checks.expect(not fork.step("github/codeql-action/upload-sarif").ran and not fork.step("sarif").ran,
                  "no SARIF step and no upload for a fork", repr(fork.outcomes()))
    checks.expect(fork.step("actions/upload-artifact").ran, "the JUnit artifact is still uploaded")
    checks.expect(fork.step("diff").outcome == "success" and fork.step("diff").summary.startswith(MARKER),
                  "the diff is in the job summary")
    checks.expect(fork.step("check").outcome == "failure" and fork.status == "failure",
                  "the check still gates the fork PR")


def push_after_previous_commit(checks, world, work):
    os.makedirs(work)
    repo = Repository(world, os.path.join(work, "workspace"))
    push = repo.as_push_checkout(valid_change_rendered)
    done = Run(world, repo, push_context(push["after"], push["before"]), canned_comments(False))
    out = done.output()
    checks.expect(done.step("base").outputs.get("base") == push["before"], "a push compares with github.event.before",
                  out)
    checks.expect(done.calls_of("check")[:1] and done.calls_of("check")[0][:3] == ["check", "--since", push["before"]],
                  "check --since the previous commit", repr(done.calls_of("check")))
    checks.expect(done.calls_of("diff") == [["diff", push["before"], "--format", "markdown"]],
                  "the diff against the previous commit goes to the job summary", repr(done.calls_of("diff")))
    checks.expect("changed" in done.step("diff").summary, "the summary shows the changed JobSet",
                  done.step("diff").summary[:1500])
    checks.expect(done.gh_calls() == [], "no gh call on a push")
    checks.expect(done.step("github/codeql-action/upload-sarif").ran, "the SARIF is uploaded on a push")
    checks.expect(done.status == "success", "a clean push passes", out)


def push_of_new_branch(checks, world, work):
    os.makedirs(work)
    repo = Repository(world, os.path.join(work, "workspace"))
    push = repo.as_push_checkout(valid_change_rendered)
    done = Run(world, repo, push_context(push["after"], ZEROS), canned_comments(False))
    out = done.output()
    checks.expect("::notice title=tjrender::New branch: no previous commit to compare with, so every TrainJob "
                  "is checked" in done.step("base").stdout, "a new branch says everything is checked", out)
    checks.expect(done.calls_of("check")[:1] == [["check", ".", "--format", "github", "--report",
                                                  "junit=" + os.path.join(done.runner_temp, "tjrender-junit.xml")]],
                  "check without --since", repr(done.calls_of("check")))
    checks.expect(not done.step("diff").ran and done.calls_of("diff") == [], "no diff without a base")
    checks.expect(done.status == "success", "a clean new branch passes", out)


def push_after_unknown_commit(checks, world, work):
    os.makedirs(work)
    repo = Repository(world, os.path.join(work, "workspace"))
    push = repo.as_push_checkout(valid_change_rendered)
    gone = "1234567890abcdef1234567890abcdef12345678"
    done = Run(world, repo, push_context(push["after"], gone), canned_comments(False))
    checks.expect(f"::notice title=tjrender::The previous commit {gone} is not in the clone" in done.step("base").stdout
                  and done.calls_of("check")[:1] and "--since" not in done.calls_of("check")[0],
                  "a previous commit missing from the clone (force push): everything checked, with a notice",
                  done.output())
    checks.expect(done.status == "success", "and the push passes", done.output())


def diff_input_error(checks, world, work):
    """The base's .tjrender.yaml names a target that does not exist; the pull
    request fixes it. diff reads each side with its own config: exit 2."""
    os.makedirs(work)
    repo = Repository(world, os.path.join(work, "workspace"))
    with open(os.path.join(repo.path, ".tjrender.yaml")) as f:
        config = f.read()
    repo.write(".tjrender.yaml", config.replace("target: trainer-v2.1", "target: trainer-v0.9"))
    repo.base = repo.commit("a broken config on main")

    def fix(r):
        r.write(".tjrender.yaml", config)

    checkout = repo.as_pull_request_checkout(fix)
    done = Run(world, repo, pr_context(checkout), canned_comments(True))
    diff = done.step("diff")
    checks.expect(diff.ran and diff.outcome == "failure" and diff.returncode == 2 and
                  "::error title=tjrender::tjrender diff origin/main failed (exit 2)" in diff.stdout,
                  "diff exiting 2 fails its step with an error", done.output())
    checks.expect([c for c in done.gh_calls() if c.get("method") != "GET"] == [] and
                  not [r for r in done.results if r.name == "Rendered diff as the PR comment"][0].ran,
                  "and nothing is commented", json.dumps(done.gh_calls())[:1000])
    checks.expect(done.status == "failure", "the job fails")


def malformed_file_in_pull_request(checks, world, work):
    """One malformed file beside a valid change: tjrender exits 2 yet writes
    the whole markdown and SARIF (that file one finding among the others).
    The summary, the comment and the SARIF upload must still carry every
    other file's results; before, each step dropped them all."""
    os.makedirs(work)
    repo = Repository(world, os.path.join(work, "workspace"))

    def change(r):
        refused_and_changed(r)
        r.write("trainjobs/broken.yaml", "kind: [\n")

    checkout = repo.as_pull_request_checkout(change)
    done = Run(world, repo, pr_context(checkout), canned_comments(False))
    out = done.output()
    check = done.step("check")
    checks.expect(check.outcome == "failure" and check.returncode == 2,
                  "check exits 2 on the malformed file and fails the job's gate", out)
    checks.expect(re.search(r"^::error file=trainjobs/broken\.yaml,line=\d+", check.stdout, re.M) is not None and
                  re.search(r"^::error file=trainjobs/lonely\.yaml,line=\d+", check.stdout, re.M) is not None,
                  "and still annotates the other files' findings", check.stdout)
    diff = done.step("diff")
    checks.expect(diff.ran and diff.outcome == "success" and diff.returncode == 0 and
                  diff.outputs.get("differences") == "true",
                  "the diff step keeps diff's exit-2 markdown and succeeds", out)
    checks.expect("::error title=tjrender::tjrender diff origin/main could not read every file (exit 2)" in diff.stdout,
                  "with an error saying which files could not be read is in the diff", diff.stdout)
    checks.expect(diff.summary.startswith(MARKER + "\n") and "trainjobs/broken.yaml" in diff.summary and
                  "lonely" in diff.summary and "changed" in diff.summary,
                  "the job summary holds the diff of the other files and names the malformed one", diff.summary[:2000])
    expect_pr_comment_steps(checks, done, "POST")
    sarif_step = done.step("github/codeql-action/upload-sarif")
    sarif_path = sarif_step.with_.get("sarif_file", "")
    checks.expect(done.step("sarif").outcome == "success" and sarif_step.ran and os.path.exists(sarif_path),
                  "the SARIF is uploaded despite the malformed file", out)
    if os.path.exists(sarif_path):
        with open(sarif_path) as f:
            results = json.load(f)["runs"][0]["results"]
        rules = {r["ruleId"] for r in results}
        checks.expect("input" in rules and any("lonely" in json.dumps(r) for r in results),
                      "the SARIF holds the malformed file (rule input) and the other findings", json.dumps(results)[:1500])
    checks.expect(done.status == "failure", "the job fails (the check step)")


def base_branch_moved(checks, world, work):
    os.makedirs(work)
    repo = Repository(world, os.path.join(work, "workspace"))
    checkout = repo.as_pull_request_checkout(valid_change_rendered, base_moves=True)
    done = Run(world, repo, pr_context(checkout), canned_comments(False))
    checks.expect(done.step("base").outputs.get("base") == repo.base,
                  "when main moved on after GitHub's merge, compare with the merge's base", done.output())
    checks.expect("NOTES.md" not in done.step("diff").summary and done.status == "success",
                  "the diff holds the pull request's changes only", done.output())


def cancelled_after_check(checks, world, work):
    os.makedirs(work)
    repo = Repository(world, os.path.join(work, "workspace"))
    checkout = repo.as_pull_request_checkout(refused_and_changed)
    done = Run(world, repo, pr_context(checkout), canned_comments(False), cancel_after="check")
    later = [r for r in done.results if r.index > done.step("check").index]
    checks.expect(all(not r.ran for r in later), "nothing runs after a cancellation", repr(done.outcomes()))


def install_fails(checks, world, work):
    os.makedirs(work)
    repo = Repository(world, os.path.join(work, "workspace"))
    checkout = repo.as_pull_request_checkout(refused_and_changed)

    for version, what in (("9.9.9", "a release that is not there"),
                          (TAMPERED_VERSION, "a tarball whose sha256 does not match")):
        def edit(workflow, version=version):
            workflow["env"]["TJRENDER_VERSION"] = version

        done = Run(world, repo, pr_context(checkout), canned_comments(False), workflow_edit=edit,
                   name="install-" + version)
        checks.expect(done.step("install").outcome == "failure" and done.tjrender_calls() == [] and
                      done.gh_calls() == [] and not done.step("github/codeql-action/upload-sarif").ran,
                      f"{what}: install fails, no tjrender step runs, nothing is uploaded", repr(done.outcomes()))
    checks.expect("FAILED" in done.step("install").stdout + done.step("install").stderr,
                  "sha256sum says the checksum failed", done.step("install").stdout + done.step("install").stderr)


def readme_recipe(checks, world, work):
    """The CI gate recipe of docs/integrations.md, line by line, in a clone of a repository
    whose main has moved on by a clean, re-rendered change."""
    os.makedirs(work)
    origin_work = Repository(world, os.path.join(work, "upstream"))
    origin = os.path.join(work, "origin.git")
    world.git(work, "clone", "-q", "--bare", origin_work.path, origin)
    clone = os.path.join(work, "clone")
    world.git(work, "clone", "-q", origin, clone)
    world.git(clone, "checkout", "-qb", "feature")
    local = Repository(world, clone, clone=True)
    valid_change_rendered(local)
    local.commit("feature")
    with open(INTEGRATIONS_DOC) as f:
        section = readme_section(f.read(), "## CI gate")
    block = re.search(r"```sh\n(.*?)```", section, re.S)
    checks.expect(block is not None, "the CI gate section has a sh block")
    if not block:
        return
    os.symlink(tjrender(), os.path.join(work, "tjrender"))
    env = dict(world.env, PATH=work + ":" + world.env["PATH"])
    for line in block.group(1).splitlines():
        command = line.split("  #")[0].strip()
        if not command:
            continue
        out = run(["bash", "--noprofile", "--norc", "-e", "-o", "pipefail", "-c", command], cwd=clone, env=env)
        expected = 1 if command.startswith("tjrender diff") else 0   # diff: 1 means differences
        checks.expect(out.returncode == expected, f"docs/integrations.md: {command} exits {expected}",
                      f"exit {out.returncode}\n{out.stdout[-1500:]}{out.stderr[-1500:]}")


if __name__ == "__main__":
    main()
