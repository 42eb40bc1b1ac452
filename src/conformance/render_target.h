#pragma once

#include <string>
#include <vector>

#include "base/diagnostic.h"
#include "conformance/target.h"
#include "pipeline/pipeline.h"

namespace tjr::conformance {

/// The `command` of a render or flyte case: `--target T`, `--namespace NS`,
/// `--strict`, `--previous FILE`, `--flyte-config FILE` (also as
/// `--target=T`, `--namespace=NS`).
struct RenderCommand {
  pipeline::PipelineOptions pipeline;
  bool namespace_given = false;
  /// `--previous FILE`: the input file (name below input/) that holds the
  /// cluster's state before the change: stored TrainJobs, JobSets and the
  /// cluster's PriorityClasses (all of them: other names are unknown). Its
  /// objects are not rendered; the other TrainJobs are validated as updates
  /// of them.
  std::string previous_file;
  /// `--flyte-config FILE`: the input file (name below input/) that holds
  /// propeller's configuration; it is not part of the repository.
  std::string flyte_config_file;
};

Result<RenderCommand> ParseRenderCommand(const std::vector<std::string>& command);

/// The `render` and `flyte` targets: every input file is part of one
/// manifest repository (as `tjrender render input/` reads it, through
/// app::RenderRepository); the output is every object rendered, TrainJob by
/// TrainJob and then Flyte task by task, and the diagnostics are every
/// error, warning and note of loading and rendering.
Result<TargetOutput> RunRenderTarget(const std::vector<InputFile>& inputs,
                                     const std::vector<std::string>& command);

}  // namespace tjr::conformance
