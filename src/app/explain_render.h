#pragma once

#include <string>
#include <vector>

#include "app/findings.h"
#include "app/render_repository.h"
#include "explain/explain.h"

// The use case behind `tjrender explain`: one TrainJob or Flyte task of a
// repository rendered as `tjrender render` renders it, and the provenance
// of every rendered value.
namespace tjr::app {

struct ExplainRequest {
  /// Sources, target, namespace, admission and Flyte configuration, as for
  /// `render` (objects are not written; `keep_inputs` is set here).
  RenderRequest render;
  /// `namespace/name` or `name` of a TrainJob or Flyte task, or a file
  /// holding one TrainJob.
  std::string subject;
};

struct ExplainOutcome {
  RenderEnd end = RenderEnd::kRefused;
  bool input_error = false;
  /// The subject itself has errors (the other inputs' findings do not count).
  bool subject_has_errors = false;
  /// The subject's explanation; empty when it was not found or not rendered.
  std::vector<explain::Explanation> explanations;
};

/// Renders the request's sources (the subject's file added when the PATHs
/// do not hold it) and explains the subject. No match, or a subject that
/// names several TrainJobs, is a problem at the sink; the findings of the
/// run go to `findings` as `check` reports them.
ExplainOutcome ExplainRendered(ExplainRequest request, Findings& findings, RenderSink& sink);

}  // namespace tjr::app
