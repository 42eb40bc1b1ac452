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
      {"fmt", "print YAML or JSON documents the way kubectl prints objects", RunFmt},
      {"merge", "strategic-merge a patch into objects, as kubectl patch --local does", RunMerge},
      {"conformance", "run golden-file conformance cases (folders with case.yaml)",
       RunConformance},
  };
  return commands;
}

}  // namespace tjr::cli
