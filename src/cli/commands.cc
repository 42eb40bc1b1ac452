#include "cli/command.h"
#include "cli/commands.h"

namespace tjr::cli {

const std::vector<Command>& Commands() {
  static const std::vector<Command> commands = {
      {"render", "render TrainJobs into the objects the Kubeflow Trainer controller creates",
       RunRender},
      {"check", "validate TrainJobs and runtimes as the cluster would, writing nothing", RunCheck},
      {"diff", "render two revisions (Git or folders) and show what changes, with update checks",
       RunDiff},
      {"explain", "show where each value of a TrainJob's (or Flyte task's) rendered objects came from",
       RunExplain},
      {"fmt", "print YAML or JSON documents the way kubectl prints objects", RunFmt},
      {"migrate", "rewrite podTemplateOverrides into runtimePatches and show what the upgrade changes",
       RunMigrate},
      {"merge", "strategic-merge a patch into objects, as kubectl patch --local does", RunMerge},
      {"conformance", "run golden-file conformance cases (folders with case.yaml)",
       RunConformance},
      {"argocd-generate", "Argo CD plugin: check (or render) an application's manifests",
       RunArgocdGenerate},
      {"post-render", "Helm post-renderer: check (or render) TrainJobs in a stream", RunPostRender},
      {"krm", "KRM function: check (or render) the TrainJobs of a ResourceList", RunKrm},
  };
  return commands;
}

}  // namespace tjr::cli
