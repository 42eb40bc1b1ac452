"""Replays one job of a GitHub Actions workflow the way the runner does:
each step's `if` evaluated against the job status and the earlier steps'
outcomes, `${{ }}` substituted, `run:` scripts executed with the runner's
bash options and GITHUB_* files, `uses:` steps recorded instead of run.

Only what tjrender's workflow uses is understood; any other key raises
ReplayError, so the workflow cannot grow something its test skips over.
"""
import os
import re
import subprocess

from actions_expressions import evaluate, step_condition, substitute, to_string, truthy

# actions/runner v2.336.0 src/Runner.Worker/Handlers/ScriptHandlerHelpers.cs:18,
# the default for `shell: bash` and for `run:` on Linux without `shell:`.
BASH = ["bash", "--noprofile", "--norc", "-e", "-o", "pipefail"]

WORKFLOW_KEYS = {"name", "on", "permissions", "concurrency", "env", "jobs"}
JOB_KEYS = {"runs-on", "steps"}
STEP_KEYS = {"name", "id", "if", "run", "uses", "with", "env"}


class ReplayError(Exception):
    pass


class StepResult:
    def __init__(self, index, step):
        self.index = index
        self.id = step.get("id")
        self.name = step.get("name") or step.get("uses") or "run"
        self.uses = step.get("uses")
        self.with_ = {}
        self.ran = False
        self.outcome = "skipped"
        self.returncode = None
        self.stdout = ""
        self.stderr = ""
        self.summary = ""
        self.outputs = {}
        self.exported_env = {}

    def __repr__(self):
        return f"<step {self.id or self.name}: {self.outcome} rc={self.returncode}>"


def workflow_triggers(workflow):
    """`on:` (PyYAML reads the bare key `on` as the boolean true)."""
    return workflow.get("on", workflow.get(True))


def check_shape(workflow):
    keys = {"on" if k is True else k for k in workflow}
    if keys - WORKFLOW_KEYS:
        raise ReplayError(f"workflow keys the replay does not understand: {sorted(keys - WORKFLOW_KEYS)}")
    jobs = workflow["jobs"]
    if len(jobs) != 1:
        raise ReplayError("the replay runs a workflow with exactly one job")
    job = next(iter(jobs.values()))
    if set(job) - JOB_KEYS:
        raise ReplayError(f"job keys the replay does not understand: {sorted(set(job) - JOB_KEYS)}")
    for step in job["steps"]:
        if set(step) - STEP_KEYS:
            raise ReplayError(f"step keys the replay does not understand: {sorted(set(step) - STEP_KEYS)}")
        if ("run" in step) == ("uses" in step):
            raise ReplayError(f"a step needs exactly one of run/uses: {step}")
    return job


def _read_commands_file(path):
    """NAME=VALUE lines and NAME<<DELIMITER blocks (GITHUB_OUTPUT, GITHUB_ENV)."""
    values = {}
    if not os.path.exists(path):
        return values
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        i += 1
        if not line:
            continue
        heredoc = re.match(r"^([^=<]+)<<(.+)$", line)
        if heredoc:
            body = []
            while i < len(lines) and lines[i] != heredoc.group(2):
                body.append(lines[i])
                i += 1
            if i == len(lines):
                raise ReplayError(f"{path}: {heredoc.group(2)} never closes")
            i += 1
            values[heredoc.group(1)] = "\n".join(body)
        elif "=" in line:
            name, value = line.split("=", 1)
            values[name] = value
        else:
            raise ReplayError(f"{path}: unreadable line {line!r}")
    return values


def run_job(workflow, github, workspace, runner_temp, base_env, cancel_after=None):
    """Runs the workflow's job. `github` is the github context (event_name,
    event, repository, token, ...); `base_env` the environment the runner
    gives every step (PATH, GITHUB_*). `cancel_after`: a step id after which
    the run is cancelled. Returns (job status, [StepResult])."""
    job = check_shape(workflow)
    runner = {"temp": runner_temp, "os": "Linux"}
    context = {"github": github, "runner": runner, "steps": {}, "env": {}}
    substitute((workflow.get("concurrency") or {}).get("group", ""), context)  # understood, or ExpressionError
    workflow_env = {k: to_string(substitute(v, context)) for k, v in (workflow.get("env") or {}).items()}
    exported_env = {}   # GITHUB_ENV of earlier steps
    path_prepend = []   # GITHUB_PATH of earlier steps, newest first
    status = "success"
    results = []
    for index, step in enumerate(job["steps"]):
        result = StepResult(index, step)
        results.append(result)
        context["env"] = dict(workflow_env, **exported_env)
        condition = step_condition(step.get("if"))
        if truthy(evaluate(condition, context, status)):
            context["env"] = dict(context["env"], **{k: to_string(substitute(v, context))
                                                     for k, v in (step.get("env") or {}).items()})
            if "uses" in step:
                result.with_ = {k: to_string(substitute(v, context)) for k, v in (step.get("with") or {}).items()}
                result.ran = True
                result.outcome = "success"
            else:
                _run_script(step, result, context, workspace, runner_temp, base_env, path_prepend)
                exported_env.update(result.exported_env)
        if result.id:
            context["steps"][result.id] = {"outcome": result.outcome, "conclusion": result.outcome,
                                           "outputs": result.outputs}
        if result.outcome == "failure" and status == "success":
            status = "failure"
        if cancel_after is not None and result.id == cancel_after:
            status = "cancelled"
    return status, results


def _run_script(step, result, context, workspace, runner_temp, base_env, path_prepend):
    n = result.index
    files = {name: os.path.join(runner_temp, f"_runner_file_commands/{name.lower()}_{n}")
             for name in ("GITHUB_OUTPUT", "GITHUB_ENV", "GITHUB_PATH", "GITHUB_STEP_SUMMARY")}
    os.makedirs(os.path.join(runner_temp, "_runner_file_commands"), exist_ok=True)
    for path in files.values():
        open(path, "w").close()
    script = os.path.join(runner_temp, f"step_{n}.sh")
    with open(script, "w", encoding="utf-8") as f:
        f.write(substitute(step["run"], context))
    env = dict(base_env)
    env.update(context["env"])
    env.update(files)
    env["PATH"] = ":".join(path_prepend + [base_env["PATH"]])
    proc = subprocess.run(BASH + [script], cwd=workspace, env=env, capture_output=True, text=True,
                          timeout=300, check=False)
    result.ran = True
    result.returncode = proc.returncode
    result.stdout, result.stderr = proc.stdout, proc.stderr
    result.outcome = "success" if proc.returncode == 0 else "failure"
    result.outputs = _read_commands_file(files["GITHUB_OUTPUT"])
    result.exported_env = _read_commands_file(files["GITHUB_ENV"])
    with open(files["GITHUB_STEP_SUMMARY"], encoding="utf-8") as f:
        result.summary = f.read()
    with open(files["GITHUB_PATH"], encoding="utf-8") as f:
        for line in f.read().splitlines():
            if line:
                path_prepend.insert(0, line)
