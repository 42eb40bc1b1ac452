#pragma once

#include <cstddef>
#include <cstdint>
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
  /// Nodes per document, aliases expanded (see BuilderLimits).
  std::size_t max_document_nodes = 2'000'000;
  /// For a stream of one block-style document: the values of the keys of
  /// the mapping under the root mapping's `prune_key`, all but
  /// `prune_keep`'s, are checked and left out of the tree (a loader that
  /// needs only part of an object). The result is the tree that reading in
  /// full gives with those keys removed, or the same error; a document the
  /// check cannot vouch for is read in full. Empty: nothing left out.
  std::string prune_key;
  std::string prune_keep;
  /// Reads every document with libfyaml, never the hand-written block
  /// subset reader: for tests and the fuzz target that check the two agree.
  bool libfyaml_only = false;
  /// The line of text[0] in the stream the text was cut from (a document a
  /// Helm post-renderer reads on its own): every location and error counts
  /// lines from it, as if the lines before it were there and blank.
  std::uint32_t first_line = 1;
};

/// Reads every document of a YAML (or JSON) stream into trees typed exactly
/// as Kubernetes decodes YAML: sigs.k8s.io/yaml's YAMLToJSON (goyaml v2
/// resolution) followed by apimachinery's util/json number rules. Empty
/// documents are skipped. Errors carry FILE:LINE:COL.
Result<std::vector<doc::Node>> ReadStream(std::string_view text, std::string_view source_name,
                                          const ReadOptions& options = {});

/// Whether `text` holds a CR that no LF follows: a line break to goyaml.
bool HasLoneCarriageReturn(std::string_view text);
/// `text` with every such CR replaced by LF (the same length, so the same
/// offsets): what ReadStream reads.
std::string LoneCarriageReturnsAsLineFeeds(std::string_view text);

}  // namespace tjr::yaml
