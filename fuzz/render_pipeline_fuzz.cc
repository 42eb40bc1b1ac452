// The render pipeline as `tjrender render` runs it on one repository of
// manifests, held in memory: the input after the first byte is a YAML
// stream (a TrainJob and its runtime, say), cut into two files
// (trainjob.yaml, runtime.yaml) at the first line "%%" if there is one.
// The first byte picks the options: bits 0-1 the emulated Trainer release
// (pipeline::SupportedTargets(), wrapping), bit 2 --strict, bit 3 the
// Flyte kinds loaded and the Flyte tasks rendered as the command line does
// (unset: the Trainer kinds only, as the conformance runner loads them).
// An error or a result, never a crash or a hang; every error names its
// file (FILE:LINE:COL); the same input renders to the same bytes twice.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "flyte/render.h"
#include "pipeline/pipeline.h"
#include "source/loader.h"
#include "yaml/reader.h"
#include "yaml/writer.h"

namespace {

struct Options {
  std::string target;
  bool strict = false;
  bool flyte = false;
};

void CheckLocated(const tjr::Diagnostics& diagnostics) {
  for (const tjr::Diagnostic& diagnostic : diagnostics) {
    if (diagnostic.severity == tjr::Severity::kError && !diagnostic.location.known()) {
      __builtin_trap();  // an error that does not say where
    }
  }
}

void Append(const tjr::Diagnostics& diagnostics, std::string* out) {
  for (const tjr::Diagnostic& diagnostic : diagnostics) *out += diagnostic.ToString() + "\n";
}

// Everything one run produces, as bytes: the objects as `render` writes
// them, then every diagnostic.
std::string Render(const std::vector<tjr::source::ParsedFile>& files, const Options& options) {
  tjr::source::LoadOptions load;
  load.threads = 1;
  if (options.flyte) {
    for (const tjr::source::ObjectType& type : tjr::flyte::FlyteObjectTypes()) load.types.push_back(type);
    tjr::flyte::AcceptFlyteTasks(&load);
  }
  tjr::source::ManifestSet manifests = tjr::source::AdmitDocuments(files, load);
  CheckLocated(manifests.diagnostics);
  tjr::pipeline::PipelineOptions pipeline;
  pipeline.target = options.target;
  pipeline.strict = options.strict;
  pipeline.threads = 1;
  tjr::pipeline::PipelineResult result = tjr::pipeline::RenderManifests(manifests, pipeline);
  CheckLocated(result.diagnostics);
  std::string out = tjr::yaml::WriteStream(result.objects);
  Append(manifests.diagnostics, &out);
  Append(result.diagnostics, &out);
  if (options.flyte) {
    tjr::flyte::FlyteOptions flyte;
    flyte.strict = options.strict;
    tjr::flyte::FlyteOutcome outcome = tjr::flyte::RenderFlyte(manifests, flyte);
    CheckLocated(outcome.diagnostics);
    Append(outcome.diagnostics, &out);
    for (const tjr::flyte::TaskResult& task : outcome.tasks) {
      CheckLocated(task.diagnostics);
      out += tjr::yaml::WriteStream(task.objects);
      Append(task.diagnostics, &out);
    }
  }
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::vector<std::string>& targets = tjr::pipeline::SupportedTargets();
  Options options;
  options.target = targets[(data[0] & 3) % targets.size()];
  options.strict = (data[0] & 4) != 0;
  options.flyte = (data[0] & 8) != 0;
  const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  std::vector<std::pair<std::string, std::string_view>> inputs;
  const std::size_t cut = text.starts_with("%%\n") ? 0 : text.find("\n%%\n");
  if (cut == std::string_view::npos) {
    inputs.emplace_back("trainjob.yaml", text);
  } else {
    const std::size_t rest = cut == 0 ? 3 : cut + 4;
    inputs.emplace_back("trainjob.yaml", text.substr(0, cut == 0 ? 0 : cut + 1));
    inputs.emplace_back("runtime.yaml", text.substr(rest));
  }
  std::vector<tjr::source::ParsedFile> files;
  for (const auto& [name, bytes] : inputs) {
    tjr::Result<std::vector<tjr::doc::Node>> documents = tjr::yaml::ReadStream(bytes, name);
    if (!documents.ok()) {
      if (!documents.error().location.known()) __builtin_trap();
      return 0;  // the loader reports the file and renders nothing of it
    }
    files.push_back({name, std::move(documents).value()});
  }
  if (Render(files, options) != Render(files, options)) __builtin_trap();  // not deterministic
  return 0;
}
