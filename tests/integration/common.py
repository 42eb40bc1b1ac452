"""What the integration tests share: the binary, temporary repositories,
running commands, and meson's skip code."""
import os
import shutil
import subprocess
import sys
import tempfile

SKIP = 77  # meson: the test was skipped
SOURCE_ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
SAMPLE_REPO = os.path.join(SOURCE_ROOT, "fixtures", "trainer-repo")

LONELY_TRAINJOB = """apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata:
  name: lonely
  namespace: ml-team
spec:
  runtimeRef:
    name: absent
"""


def tjrender():
    """The binary under test: argv[1], else build/tjrender."""
    path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(SOURCE_ROOT, "build", "tjrender")
    return os.path.abspath(path)


def skip(reason):
    print("SKIP: " + reason)
    sys.exit(SKIP)


def copy_sample(into):
    """A copy of the sample repository at `into`."""
    shutil.copytree(SAMPLE_REPO, into)
    return into


def run(args, **kwargs):
    """Runs a command, text in and out, never raising on exit codes."""
    kwargs.setdefault("capture_output", True)
    kwargs.setdefault("text", True)
    kwargs.setdefault("timeout", 120)
    return subprocess.run(args, check=False, **kwargs)


class Checks:
    """Counts failed expectations; the test fails at the end if any did."""

    def __init__(self):
        self.failed = 0

    def expect(self, condition, what, detail=""):
        if condition:
            print("ok   " + what)
        else:
            self.failed += 1
            print("FAIL " + what + ("\n" + detail if detail else ""))

    def done(self):
        sys.exit(1 if self.failed else 0)


def temp_dir(prefix):
    return tempfile.mkdtemp(prefix=prefix)


# A ClusterTrainingRuntime torch-distributed with the Torch policy and one
# labelled trainer job `node`, the shape of upstream's runtime, for tests
# that need a runtime their TrainJobs render against and assert nothing of.
TORCH_RUNTIME = """apiVersion: trainer.kubeflow.org/v1alpha1
kind: ClusterTrainingRuntime
metadata:
  name: torch-distributed
spec:
  mlPolicy:
    numNodes: 1
    torch: {}
  template:
    spec:
      replicatedJobs:
        - name: node
          template:
            metadata:
              labels:
                trainer.kubeflow.org/trainjob-ancestor-step: trainer
            spec:
              template:
                spec:
                  containers:
                    - name: node
                      image: pytorch/pytorch:2.7.1-cuda12.8-cudnn9-runtime
"""
