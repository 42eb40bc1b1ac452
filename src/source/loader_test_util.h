#pragma once
// Test-only helpers shared by the loader's tests.

#include <string>
#include <vector>

#include "source/loader.h"

namespace tjr::source {

inline std::vector<std::string> Messages(const ManifestSet& set) {
  std::vector<std::string> messages;
  for (const Diagnostic& d : set.diagnostics) messages.push_back(d.ToString());
  return messages;
}

inline std::vector<std::string> Ids(const ManifestSet& set) {
  std::vector<std::string> ids;
  for (const Manifest& m : set.manifests) ids.push_back(m.id.ToString());
  return ids;
}

inline std::string NamespaceOf(const Manifest& manifest) {
  const doc::Node* metadata = manifest.object.Find("metadata");
  const doc::Node* ns = metadata != nullptr ? metadata->Find("namespace") : nullptr;
  return ns == nullptr ? "<none>" : ns->string_value();
}

inline constexpr char kJob[] = R"(apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata:
  name: job
spec:
  runtimeRef:
    name: torch
)";

}  // namespace tjr::source
