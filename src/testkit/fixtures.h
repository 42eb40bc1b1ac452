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

/// Upstream's torch-distributed ClusterTrainingRuntime (Trainer v2.1.0,
/// manifests/base/runtimes/torch_distributed.yaml): byte for byte the
/// sample repository's fixtures/trainer-repo/runtimes/torch_distributed.yaml
/// (fixtures_test.cc holds them together).
inline constexpr char kTorchRuntime[] = R"(apiVersion: trainer.kubeflow.org/v1alpha1
kind: ClusterTrainingRuntime
metadata:
  name: torch-distributed
  labels:
    trainer.kubeflow.org/framework: torch
spec:
  mlPolicy:
    numNodes: 1
    torch:
      numProcPerNode: auto
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
)";;

/// A ClusterTrainingRuntime `torch` with the Torch policy on one node and
/// one trainer-labelled job `node` (container `node`, pytorch/pytorch:2.7.1):
/// what the CLI tests render their TrainJobs against.
inline constexpr char kTorchOneNodeRuntime[] = R"(apiVersion: trainer.kubeflow.org/v1alpha1
kind: ClusterTrainingRuntime
metadata:
  name: torch
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
                      image: pytorch/pytorch:2.7.1
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
