#include "pipeline/test_util.h"

#include <gtest/gtest.h>

#include "yaml/reader.h"

namespace tjr::pipeline::testing {

source::ManifestSet Manifests(std::string_view yaml, std::string_view file) {
  Result<std::vector<doc::Node>> documents = yaml::ReadStream(yaml, file);
  if (!documents.ok()) {
    ADD_FAILURE() << documents.error().ToString();
    return {};
  }
  return source::AdmitDocuments({source::ParsedFile{std::string(file), *documents}});
}

std::string TrainJob(std::string_view name, std::string_view namespace_, std::string_view extra) {
  return "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nmetadata:\n  name: " +
         std::string(name) + "\n  namespace: " + std::string(namespace_) +
         "\nspec:\n  runtimeRef:\n    name: torch-distributed\n" + std::string(extra);
}

PipelineOptions V21Options() {
  PipelineOptions options;
  options.target = "trainer-v2.1";
  return options;
}

std::string Lines(const Diagnostics& diagnostics) {
  std::string out;
  for (const Diagnostic& d : diagnostics) out += d.ToString() + "\n";
  return out;
}

}  // namespace tjr::pipeline::testing
