#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "base/diagnostic.h"
#include "doc/node.h"
#include "yaml/scalar_resolver.h"

namespace tjr::yaml::input {

struct BuilderLimits {
  std::size_t max_depth = 1000;
  std::size_t max_alias_expanded_nodes = 1'000'000;
  /// Nodes per document, aliases expanded (goyaml's decode count). The API
  /// server takes request bodies of at most 3 MiB, so no object it accepts
  /// holds 2,000,000; the bound keeps memory near 250 MB.
  std::size_t max_document_nodes = 2'000'000;
};

/// Where a node starts (its anchor or tag included) and its anchor name.
struct NodeStart {
  Location at;
  std::string_view anchor;
};

/// Assembles one YAML document from parser events into the tree Kubernetes
/// would see: goyaml v2's decoding into interface{} (anchors, aliases, merge
/// keys with v2's precedence, its alias-ratio guard), sigs.k8s.io/yaml's key
/// conversion, and util/json's number types. Explicit duplicate keys in one
/// mapping are an error here, unlike in goyaml's non-strict mode.
///
/// Every event method returns false once the document is in error; the
/// first error is kept.
class TreeBuilder {
 public:
  /// `alias_nodes_used` is shared by the documents of one stream.
  TreeBuilder(const BuilderLimits& limits, std::size_t* alias_nodes_used);

  bool Scalar(const ScalarInput& scalar, const NodeStart& start);
  bool StartMapping(const NodeStart& start);
  bool StartSequence(const NodeStart& start);
  /// Ends the innermost open mapping or sequence.
  bool End();
  bool Alias(std::string_view name, Location at);

  /// Starts a new document: anchors and the alias-ratio counts are per
  /// document in goyaml. Buffers are kept for speed.
  void Reset();

  /// Leaves values out of the tree without changing what is accepted: in
  /// the mapping under the root mapping's `key`, the values of every key
  /// but `keep` are checked, not built. What the check cannot vouch for (a
  /// merge key, an alias, a key of another type, a repeated key, a float
  /// JSON cannot hold, nesting past the limit) fails the document, so the
  /// caller reads it again in full and gets the usual tree or error. An
  /// empty `key` prunes nothing. Kept across Reset.
  void SetPrune(std::string_view key, std::string_view keep) {
    prune_key_ = key;
    prune_keep_ = keep;
  }

  /// Whether the next node is the key of an open mapping.
  bool expecting_key() const {
    return depth_ > 0 && frames_[depth_ - 1].type == FrameType::kMapping &&
           frames_[depth_ - 1].expect == Expect::kKey;
  }

  bool complete() const { return complete_; }
  doc::Node TakeRoot() { return std::move(root_); }
  Diagnostic TakeError() { return std::move(error_); }

 private:
  enum class Expect : std::uint8_t { kKey, kValue, kMergeValue };
  enum class FrameType : std::uint8_t { kMapping, kSequence, kMergeList };

  // Finds keys of one mapping: a scan while small, a hash map once large.
  class KeyIndex {
   public:
    int Find(const std::vector<doc::Field>& fields, std::string_view key);
    void Clear() { map_.clear(); }

   private:
    std::unordered_map<std::string, int> map_;
  };

  // An open mapping or sequence. Frames are reused from one container to
  // the next at the same depth, so their buffers keep their capacity and a
  // finished node gets storage of exactly its size.
  struct Frame {
    FrameType type = FrameType::kMapping;
    Expect expect = Expect::kKey;
    Location at;
    std::vector<doc::Field> fields;
    std::vector<doc::Node> items;
    std::string anchor;
    // goyaml unmarshal calls one decoding of this subtree makes.
    std::uint64_t decodes = 0;
    std::uint32_t height = 1;
    // Pending key.
    std::string key;
    Location key_location;
    int key_slot = -1;  // index of the pending key when a merge set it already
    KeyIndex index;
    // Parallel to *fields once a merge happened: whether a key came from a merge.
    std::vector<bool> merged;
    // kMergeList: the mappings to merge, in document order.
    std::vector<doc::Node> merge_sources;
  };

  struct Anchor {
    bool in_progress = false;
    bool is_scalar = false;
    GoScalar scalar;
    std::string source_text;
    Location at;
    doc::Node node;
    bool node_ready = false;
    std::uint64_t decodes = 1;
    std::uint32_t height = 0;
  };

  bool Fail(Location at, std::string message, std::string_view key = {});
  std::string CurrentPath(std::string_view key) const;
  bool Count(Location at, std::uint64_t decodes, std::uint64_t aliased);
  bool Open(FrameType type, const NodeStart& start, bool counted);
  bool Deliver(doc::Node node, Location at, std::uint64_t decodes, std::uint32_t height);
  bool SetKey(Frame& frame, std::string key, Location at);
  void SetValue(Frame& frame, doc::Node value);
  void MergeInto(Frame& frame, const doc::Node& source);
  bool AliasValue(Anchor& anchor, Location at, doc::Node* out);

  // Pruning (SetPrune): an open container inside a pruned value.
  struct SkipFrame {
    bool mapping = false;
    bool expect_key = true;
    std::vector<std::string> keys;  // for repeated keys
  };
  bool Skipping() const { return pruning_value_ || skip_depth_ > 0; }
  bool PruneKey(std::string& key, Location at, bool* pruned);
  bool SkipScalar(const ScalarInput& scalar, Location at);
  bool SkipOpen(bool mapping, Location at);
  bool SkipEnd();
  void SkipValueDone();

  std::string_view prune_key_;
  std::string_view prune_keep_;
  std::size_t prune_depth_ = 0;  // depth of the mapping pruned in; 0: none open
  bool pruning_value_ = false;   // the next value is a pruned key's
  std::vector<std::string> pruned_keys_;
  std::vector<SkipFrame> skipped_;  // [0, skip_depth_) are open
  std::size_t skip_depth_ = 0;

  BuilderLimits limits_;
  std::size_t* alias_nodes_used_;
  Frame& top() { return frames_[depth_ - 1]; }

  std::vector<Frame> frames_;
  std::size_t depth_ = 0;  // frames_[0, depth_) are open
  std::unordered_map<std::string, Anchor> anchors_;
  std::uint64_t decode_count_ = 1;  // goyaml counts the document node too
  std::uint64_t alias_count_ = 0;
  doc::Node root_;
  bool complete_ = false;
  bool failed_ = false;
  Diagnostic error_;
};

}  // namespace tjr::yaml::input
