#pragma once

#include <string>
#include <string_view>

#include "base/diagnostic.h"

namespace tjr::kubectl {

enum class OutputFormat { kYaml, kJson };

struct PatchLocalOptions {
  OutputFormat output = OutputFormat::kYaml;
  /// Policy sets that type the objects: built-in kinds use Kubernetes 1.34
  /// (the strategic-merge tags are identical back to 1.32, kubectl's
  /// version here); JobSet uses the JobSet version named here.
  std::string jobset_version = "v0.10";
  /// Not kubectl: after the merge, decode into the Go type and encode again,
  /// as the Trainer controller does with a merged template (unknown fields
  /// dropped, canonical quantities, Go field order).
  bool typed = false;
};

/// Emulates `kubectl patch --local -f OBJECT --type strategic --patch-file
/// PATCH -o yaml|json`: every object of `object_text` (a multi-document
/// stream; `kind: List` is flattened) is patched with the first document of
/// `patch_text` and printed as kubectl prints it, objects back to back.
/// A refusal is an error whose message carries kubectl's meaning.
Result<std::string> PatchLocal(std::string_view object_text, std::string_view object_name,
                               std::string_view patch_text, std::string_view patch_name,
                               const PatchLocalOptions& options);

}  // namespace tjr::kubectl
