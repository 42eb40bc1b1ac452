#pragma once

#include <string>
#include <vector>

#include "doc/node.h"
#include "source/object_types.h"

// What a parsed YAML/JSON document of a repository is: a Kubernetes object
// the loader looks at, or one of the many other things a manifest
// repository holds (GitHub workflows, values.yaml, kustomize configuration,
// JSON6902 patch lists, linter configs), which are skipped, never errors.
namespace tjr::source {

enum class DocumentClass {
  /// A mapping with string apiVersion and kind, or one that claims to be a
  /// kind the loader keeps (so its flaws are reported, not skipped).
  kObject,
  /// Not a Kubernetes object at all: a sequence, a scalar, a mapping
  /// without apiVersion or kind.
  kNotAnObject,
  /// Shaped like an object but never sent to a cluster: configuration of
  /// the tools around it (kustomize's Kustomization, kpt's Kptfile, objects
  /// marked config.kubernetes.io/local-config).
  kConfigOnly,
};

struct DocumentVerdict {
  DocumentClass kind = DocumentClass::kObject;
  /// Why it is skipped, for the --verbose note ("a YAML sequence, not an
  /// object"); empty for objects.
  std::string why;
};

/// Classifies one non-null document. `kept` are the kinds the caller keeps:
/// a mapping that names one of their apiVersion groups or kinds counts as
/// an object even when its apiVersion or kind is missing or malformed, as
/// does one whose kind is PodTemplate.
DocumentVerdict ClassifyDocument(const doc::Node& document, const std::vector<ObjectType>& kept);

/// Whether an object (a mapping with apiVersion and kind) is configuration
/// that tools consume and never apply; `why` is set when it is.
bool IsConfigOnly(const doc::Node& object, std::string* why = nullptr);

}  // namespace tjr::source
