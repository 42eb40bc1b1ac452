#include "yaml/tree_builder.h"

#include <algorithm>
#include <utility>

#include "base/field_path.h"

namespace tjr::yaml::input {
namespace {

constexpr char kMergeNeedsMaps[] = "map merge requires map or sequence of maps as the value";

// goyaml's allowedAliasRatio: how much of a document may come from alias
// expansion, shrinking from 99% to 10% as documents grow.
double AllowedAliasRatio(std::uint64_t decodes) {
  constexpr double kLow = 400000;
  constexpr double kHigh = 4000000;
  const double d = static_cast<double>(decodes);
  if (d <= kLow) return 0.99;
  if (d >= kHigh) return 0.10;
  return 0.99 - 0.89 * ((d - kLow) / (kHigh - kLow));
}

std::string Quote(std::string_view key) { return "\"" + std::string(key) + "\""; }

}  // namespace

int TreeBuilder::KeyIndex::Find(const std::vector<doc::Field>& fields, std::string_view key) {
  constexpr std::size_t kLinearLimit = 12;
  if (fields.size() <= kLinearLimit) {
    for (std::size_t i = 0; i < fields.size(); ++i) {
      if (fields[i].key == key) return static_cast<int>(i);
    }
    return -1;
  }
  // Keys are only ever appended, so the map catches up with the new ones.
  for (std::size_t i = map_.size(); i < fields.size(); ++i) {
    map_.emplace(fields[i].key, static_cast<int>(i));
  }
  auto it = map_.find(std::string(key));
  return it == map_.end() ? -1 : it->second;
}

TreeBuilder::TreeBuilder(const BuilderLimits& limits, std::size_t* alias_nodes_used)
    : limits_(limits), alias_nodes_used_(alias_nodes_used) {
  // Manifests nest about ten deep: room for that up front, instead of
  // moving the open frames (and their buffers) as the stack grows.
  frames_.reserve(16);
}

void TreeBuilder::Reset() {
  depth_ = 0;
  anchors_.clear();
  decode_count_ = 1;
  alias_count_ = 0;
  root_ = doc::Node();
  complete_ = false;
  failed_ = false;
  error_ = Diagnostic();
  prune_depth_ = 0;
  pruning_value_ = false;
  pruned_keys_.clear();
  skip_depth_ = 0;
}

std::string TreeBuilder::CurrentPath(std::string_view key) const {
  FieldPath path;
  for (std::size_t i = 0; i < depth_; ++i) {
    const Frame& frame = frames_[i];
    if (frame.type == FrameType::kMapping) {
      if (frame.expect == Expect::kValue) path = path.Field(frame.key);
    } else {
      path = path.Index(frame.items.size());
    }
  }
  if (!key.empty()) path = path.Field(key);
  return path.Upstream();
}

bool TreeBuilder::Fail(Location at, std::string message, std::string_view key) {
  if (!failed_) {
    failed_ = true;
    error_ = AsInputError(MakeError(at, CurrentPath(key), std::move(message)));
  }
  return false;
}

bool TreeBuilder::Count(Location at, std::uint64_t decodes, std::uint64_t aliased) {
  decode_count_ += decodes;
  alias_count_ += aliased;
  if (decode_count_ > limits_.max_document_nodes) {
    if (!failed_) {
      failed_ = true;
      error_ = MakeTooLarge(at, CurrentPath(""),
                            "the document holds more than " + std::to_string(limits_.max_document_nodes) +
                                " nodes, tjrender's limit per document (aliases expanded)");
    }
    return false;
  }
  if (alias_count_ > 100 && decode_count_ > 1000 &&
      static_cast<double>(alias_count_) / static_cast<double>(decode_count_) >
          AllowedAliasRatio(decode_count_)) {
    return Fail(at, "document contains excessive aliasing");
  }
  return true;
}

bool TreeBuilder::SetKey(Frame& frame, std::string key, Location at) {
  const int slot = frame.index.Find(frame.fields, key);
  if (slot >= 0 && (frame.merged.empty() || !frame.merged[static_cast<std::size_t>(slot)])) {
    const Location& first = (frame.fields)[static_cast<std::size_t>(slot)].key_location;
    // The path names the mapping, not the key, which is in the message.
    return Fail(at, "key " + Quote(key) + " already set in map (first set at " + first.ToString() + ")");
  }
  frame.key = std::move(key);
  frame.key_location = at;
  frame.key_slot = slot;
  frame.expect = Expect::kValue;
  return true;
}

void TreeBuilder::SetValue(Frame& frame, doc::Node value) {
  if (frame.key_slot >= 0) {
    // An explicit key replaces what an earlier merge put there.
    const auto slot = static_cast<std::size_t>(frame.key_slot);
    doc::Field& field = (frame.fields)[slot];
    field.value = std::move(value);
    field.key_location = frame.key_location;
    frame.merged[slot] = false;
  } else {
    frame.fields.push_back(doc::Field{std::move(frame.key), std::move(value), frame.key_location});
    if (!frame.merged.empty()) frame.merged.push_back(false);
  }
  frame.key_slot = -1;
  frame.expect = Expect::kKey;
}

void TreeBuilder::MergeInto(Frame& frame, const doc::Node& source) {
  // goyaml v2 decodes the merged mapping into the same Go map: its keys
  // overwrite whatever is there, and later explicit keys overwrite them.
  if (frame.merged.empty()) frame.merged.assign(frame.fields.size(), false);
  for (const doc::Field& field : source.fields()) {
    const int slot = frame.index.Find(frame.fields, field.key);
    if (slot >= 0) {
      (frame.fields)[static_cast<std::size_t>(slot)].value = field.value;
    } else {
      frame.fields.push_back(field);
      frame.merged.push_back(true);
    }
  }
}

bool TreeBuilder::Scalar(const ScalarInput& input, const NodeStart& start) {
  if (failed_) return false;
  if (Skipping()) return SkipScalar(input, start.at);
  Frame* top = depth_ == 0 ? nullptr : &this->top();
  const bool key_position =
      top != nullptr && top->type == FrameType::kMapping && top->expect == Expect::kKey;
  GoScalar scalar;
  std::string message;
  const bool pruning_here = prune_depth_ != 0 && depth_ == prune_depth_;
  if (key_position && pruning_here && IsMergeKey(input)) return Fail(start.at, "pruned: merge key");
  if (key_position && IsMergeKey(input)) {
    // goyaml does not decode the merge key itself, so it is not counted.
    top->expect = Expect::kMergeValue;
    scalar.type = GoScalar::Type::kString;
    scalar.string_value = "<<";
  } else {
    if (!Count(start.at, 1, 0)) return false;
    if (!ResolveScalar(input, &scalar, &message)) return Fail(start.at, message);
  }
  if (!start.anchor.empty()) {
    Anchor& anchor = anchors_[std::string(start.anchor)];
    anchor = Anchor();
    anchor.is_scalar = true;
    anchor.scalar = scalar;
    anchor.source_text = std::string(input.value);
    anchor.at = start.at;
  }
  if (key_position) {
    if (top->expect == Expect::kMergeValue) return true;
    std::string key;
    if (!ToKeyString(std::move(scalar), &key, &message)) return Fail(start.at, message);
    top->decodes += 1;
    if (pruning_here) {
      bool pruned = false;
      if (!PruneKey(key, start.at, &pruned)) return false;
      if (pruned) return true;
    }
    return SetKey(*top, std::move(key), start.at);
  }
  doc::Node node;
  if (!ToJsonValue(std::move(scalar), start.at, input.value, &node, &message)) {
    return Fail(start.at, message);
  }
  return Deliver(std::move(node), start.at, 1, 0);
}

bool TreeBuilder::Open(FrameType type, const NodeStart& start, bool counted) {
  if (failed_) return false;
  if (depth_ >= limits_.max_depth) {
    return Fail(start.at, "YAML nesting exceeds the maximum depth of " +
                              std::to_string(limits_.max_depth));
  }
  if (depth_ > 0) {
    const Frame& parent = top();
    if (parent.type == FrameType::kMapping && parent.expect == Expect::kKey) {
      return Fail(start.at, std::string("invalid map key: a ") +
                                (type == FrameType::kMapping ? "mapping" : "sequence") +
                                " cannot be a key");
    }
    if (parent.type == FrameType::kMergeList && type != FrameType::kMapping) {
      return Fail(start.at, kMergeNeedsMaps);
    }
  }
  if (counted && !Count(start.at, 1, 0)) return false;
  if (depth_ == frames_.size()) frames_.emplace_back();
  Frame& frame = frames_[depth_++];
  frame.type = type;
  frame.expect = Expect::kKey;
  frame.at = start.at;
  frame.fields.clear();
  frame.items.clear();
  frame.anchor.clear();
  frame.decodes = counted ? 1 : 0;
  frame.height = type == FrameType::kMergeList ? 0 : 1;
  frame.key_slot = -1;
  frame.index.Clear();
  frame.merged.clear();
  frame.merge_sources.clear();
  if (!start.anchor.empty()) {
    frame.anchor = std::string(start.anchor);
    Anchor& anchor = anchors_[frame.anchor];
    anchor = Anchor();
    anchor.in_progress = true;
  }
  return true;
}

bool TreeBuilder::StartMapping(const NodeStart& start) {
  if (!failed_ && Skipping()) return SkipOpen(/*mapping=*/true, start.at);
  // The mapping under the root's prune key.
  const bool prune_here = !prune_key_.empty() && depth_ == 1 && frames_[0].type == FrameType::kMapping &&
                          frames_[0].expect == Expect::kValue && frames_[0].key == prune_key_;
  if (!Open(FrameType::kMapping, start, true)) return false;
  if (prune_here) {
    prune_depth_ = depth_;
    pruned_keys_.clear();
  }
  return true;
}

bool TreeBuilder::StartSequence(const NodeStart& start) {
  if (!failed_ && Skipping()) return SkipOpen(/*mapping=*/false, start.at);
  // A sequence as a merge value is a list of mappings to merge; goyaml
  // decodes its items but not the sequence itself.
  const bool merge_list = depth_ > 0 && top().type == FrameType::kMapping &&
                          top().expect == Expect::kMergeValue;
  return Open(merge_list ? FrameType::kMergeList : FrameType::kSequence, start, !merge_list);
}

bool TreeBuilder::End() {
  if (failed_) return false;
  if (skip_depth_ > 0) return SkipEnd();
  if (prune_depth_ != 0 && depth_ == prune_depth_) prune_depth_ = 0;
  Frame& frame = frames_[--depth_];
  doc::Node node;
  if (frame.type == FrameType::kMapping) {
    node = doc::Node::Mapping(frame.at);
    std::vector<doc::Field>& fields = node.mutable_fields();
    fields.reserve(frame.fields.size());
    for (doc::Field& field : frame.fields) fields.push_back(std::move(field));
  } else {
    node = doc::Node::Sequence(frame.at);
    std::vector<doc::Node>& items = node.mutable_items();
    items.reserve(frame.items.size());
    for (doc::Node& item : frame.items) items.push_back(std::move(item));
  }
  if (!frame.anchor.empty()) {
    Anchor& anchor = anchors_[frame.anchor];
    anchor.in_progress = false;
    anchor.node = node;
    anchor.node_ready = true;
    anchor.decodes = frame.decodes;
    anchor.height = frame.height;
  }
  if (frame.type == FrameType::kMergeList) {
    Frame& parent = top();
    // Earlier mappings in the list take precedence, so apply them last.
    for (auto it = frame.merge_sources.rbegin(); it != frame.merge_sources.rend(); ++it) {
      MergeInto(parent, *it);
    }
    parent.expect = Expect::kKey;
    parent.decodes += frame.decodes;
    parent.height = std::max(parent.height, frame.height);
    return true;
  }
  return Deliver(std::move(node), frame.at, frame.decodes, frame.height);
}

bool TreeBuilder::Deliver(doc::Node node, Location at, std::uint64_t decodes,
                          std::uint32_t height) {
  if (depth_ == 0) {
    root_ = std::move(node);
    complete_ = true;
    return true;
  }
  Frame& frame = top();
  frame.decodes += decodes;
  switch (frame.type) {
    case FrameType::kSequence:
      frame.items.push_back(std::move(node));
      frame.height = std::max(frame.height, height + 1);
      return true;
    case FrameType::kMergeList:
      if (!node.is_mapping()) return Fail(at, kMergeNeedsMaps);
      frame.items.push_back(node);
      frame.merge_sources.push_back(std::move(node));
      frame.height = std::max(frame.height, height);
      return true;
    case FrameType::kMapping:
      break;
  }
  switch (frame.expect) {
    case Expect::kValue:
      SetValue(frame, std::move(node));
      frame.height = std::max(frame.height, height + 1);
      return true;
    case Expect::kMergeValue:
      if (!node.is_mapping()) return Fail(at, kMergeNeedsMaps);
      MergeInto(frame, node);
      frame.expect = Expect::kKey;
      frame.height = std::max(frame.height, height);
      return true;
    case Expect::kKey:
      break;
  }
  return Fail(at, "invalid map key: a collection cannot be a key");
}

bool TreeBuilder::AliasValue(Anchor& anchor, Location at, doc::Node* out) {
  if (anchor.is_scalar && !anchor.node_ready) {
    GoScalar scalar = anchor.scalar;
    std::string message;
    if (!ToJsonValue(std::move(scalar), anchor.at, anchor.source_text, &anchor.node, &message)) {
      return Fail(at, message);
    }
    anchor.node_ready = true;
  }
  *out = anchor.node;
  return true;
}

bool TreeBuilder::Alias(std::string_view name, Location at) {
  if (failed_) return false;
  if (Skipping()) return Fail(at, "pruned: alias");
  auto it = anchors_.find(std::string(name));
  if (it == anchors_.end()) return Fail(at, "unknown anchor '" + std::string(name) + "' referenced");
  Anchor& anchor = it->second;
  if (anchor.in_progress) {
    return Fail(at, "anchor '" + std::string(name) + "' value contains itself");
  }
  if (!Count(at, 1 + anchor.decodes, anchor.decodes)) return false;
  *alias_nodes_used_ += anchor.decodes;
  if (*alias_nodes_used_ > limits_.max_alias_expanded_nodes) {
    return Fail(at, "alias expansion exceeds the limit of " +
                        std::to_string(limits_.max_alias_expanded_nodes) + " nodes");
  }
  if (depth_ + anchor.height > limits_.max_depth) {
    return Fail(at, "YAML nesting exceeds the maximum depth of " +
                        std::to_string(limits_.max_depth) + " through alias '" +
                        std::string(name) + "'");
  }
  if (depth_ > 0 && top().type == FrameType::kMapping && top().expect == Expect::kKey) {
    if (!anchor.is_scalar) return Fail(at, "invalid map key: a collection cannot be a key");
    std::string key;
    std::string message;
    if (!ToKeyString(GoScalar(anchor.scalar), &key, &message)) return Fail(at, message);
    top().decodes += 1 + anchor.decodes;
    return SetKey(top(), std::move(key), at);
  }
  doc::Node node;
  if (!AliasValue(anchor, at, &node)) return false;
  return Deliver(std::move(node), at, 1 + anchor.decodes, anchor.height);
}

}  // namespace tjr::yaml::input
