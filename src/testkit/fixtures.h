#pragma once

// Test-only: named Trainer objects the unit tests share, so a test says
// which one it renders instead of carrying its own copy. A test that
// asserts lines, columns or bytes of its input keeps its text inline.
namespace tjr::testkit {

/// A ClusterTrainingRuntime without an ML policy: one replicated job
/// `node` (the trainer step) whose Pod has one container `node`, busybox.
/// What renders from it is only what the TrainJob and its patches do.
inline constexpr char kPlainRuntime[] = R"(apiVersion: trainer.kubeflow.org/v1alpha1
kind: ClusterTrainingRuntime
metadata:
  name: plain
spec:
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
                  image: busybox
)";

/// TrainJob team/job on kPlainRuntime, nothing else set: renders clean at
/// every Trainer target.
inline constexpr char kPlainTrainJob[] = R"(apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata:
  name: job
  namespace: team
spec:
  runtimeRef:
    name: plain
)";

}  // namespace tjr::testkit
