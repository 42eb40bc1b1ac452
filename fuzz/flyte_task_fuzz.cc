// The Flyte task reader and the Pod it composes, as `tjrender render` runs
// them: the input after the first byte is a YAML stream of Flyte task
// documents, PodTemplates and a propeller ConfigMap (flyte/task.h,
// flyte/render.h); a line "%%" cuts off a --flyte-config document after
// it. The first byte picks the options: bit 0 the Flyte version (v1.16,
// v2), bit 1 --strict. Every kept task document is also read on its own
// (flyte::ParseTask). An error or a Pod, never a crash or a hang; every
// error names its file (FILE:LINE:COL); the same input gives the same
// bytes twice.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "flyte/render.h"
#include "flyte/task.h"
#include "source/loader.h"
#include "yaml/reader.h"
#include "yaml/writer.h"

namespace {

void Check(const tjr::Diagnostics& diagnostics, std::string* out) {
  for (const tjr::Diagnostic& diagnostic : diagnostics) {
    if (diagnostic.severity == tjr::Severity::kError && !diagnostic.location.known()) {
      __builtin_trap();  // an error that does not say where
    }
    *out += diagnostic.ToString() + "\n";
  }
}

std::string Render(const tjr::source::ManifestSet& manifests, const tjr::flyte::FlyteOptions& options) {
  std::string out;
  tjr::flyte::FlyteOutcome outcome = tjr::flyte::RenderFlyte(manifests, options);
  Check(outcome.diagnostics, &out);
  for (const tjr::flyte::TaskResult& task : outcome.tasks) {
    out += tjr::yaml::WriteStream(task.objects);
    Check(task.diagnostics, &out);
  }
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  tjr::flyte::FlyteOptions options;
  options.version = (data[0] & 1) != 0 ? tjr::flyte::Version::kV2 : tjr::flyte::Version::kV1_16;
  options.strict = (data[0] & 2) != 0;
  std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  if (const std::size_t cut = text.find("\n%%\n"); cut != std::string_view::npos) {
    tjr::Result<std::vector<tjr::doc::Node>> config = tjr::yaml::ReadStream(text.substr(cut + 4), "config.yaml");
    if (!config.ok()) {
      if (!config.error().location.known()) __builtin_trap();
      return 0;
    }
    if (!config->empty()) options.config_documents = *config;
    text = text.substr(0, cut + 1);
  }
  tjr::Result<std::vector<tjr::doc::Node>> documents = tjr::yaml::ReadStream(text, "task.yaml");
  if (!documents.ok()) {
    if (!documents.error().location.known()) __builtin_trap();
    return 0;
  }
  tjr::source::LoadOptions load;
  load.types = tjr::flyte::FlyteObjectTypes();
  load.threads = 1;
  tjr::flyte::AcceptFlyteTasks(&load);
  tjr::source::ManifestSet manifests = tjr::source::AdmitDocuments({{"task.yaml", *documents}}, load);
  std::string ignored;
  Check(manifests.diagnostics, &ignored);
  for (const tjr::source::UntypedDocument& untyped : manifests.untyped) {
    if (!tjr::flyte::IsFlyteTaskDocument(untyped.document)) continue;
    tjr::Result<tjr::flyte::Task> task = tjr::flyte::ParseTask(untyped.document, untyped.file, "default");
    if (!task.ok() && !task.error().location.known()) __builtin_trap();
  }
  if (Render(manifests, options) != Render(manifests, options)) __builtin_trap();  // not deterministic
  return 0;
}
