#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

#include "base/diagnostic.h"
#include "doc/node.h"

namespace tjr::yaml {

/// Limits against hostile input. Exceeding one is an error, never a crash.
struct ReadOptions {
  std::size_t max_document_bytes = std::size_t{64} << 20;
  std::size_t max_depth = 1000;
  /// Nodes that alias expansion may add across the stream (alias bombs).
  std::size_t max_alias_expanded_nodes = 1'000'000;
};

/// Reads every document of a YAML (or JSON) stream into trees typed exactly
/// as Kubernetes decodes YAML: sigs.k8s.io/yaml's YAMLToJSON (goyaml v2
/// resolution) followed by apimachinery's util/json number rules. Empty
/// documents are skipped. Errors carry FILE:LINE:COL.
Result<std::vector<doc::Node>> ReadStream(std::string_view text, std::string_view source_name,
                                          const ReadOptions& options = {});

}  // namespace tjr::yaml
