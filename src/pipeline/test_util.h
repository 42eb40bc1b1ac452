#pragma once

#include <string>
#include <string_view>

#include "source/loader.h"
#include "pipeline/pipeline.h"
#include "testkit/fixtures.h"

namespace tjr::pipeline::testing {

/// A one-file manifest set from a YAML stream (a parse error fails the test).
source::ManifestSet Manifests(std::string_view yaml, std::string_view file = "repo.yaml");

using testkit::kTorchRuntime;

/// A TrainJob against torch-distributed with `extra` appended under spec
/// (indented by two spaces already).
std::string TrainJob(std::string_view name, std::string_view namespace_,
                     std::string_view extra = "");

/// Options pinned to the trainer-v2.1 target (podTemplateOverrides), which
/// these tests' TrainJobs are written for.
PipelineOptions V21Options();

/// Every diagnostic, one ToString() a line.
std::string Lines(const Diagnostics& diagnostics);

}  // namespace tjr::pipeline::testing
