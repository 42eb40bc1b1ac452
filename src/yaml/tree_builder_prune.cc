// TreeBuilder::SetPrune: values checked as the builder would, not built.
#include <algorithm>
#include <cmath>

#include "yaml/tree_builder.h"

namespace tjr::yaml::input {

// A key of the pruned mapping: `keep` is built as usual; any other is
// checked against the keys pruned before it (the kept one differs by name)
// and its value skipped.
bool TreeBuilder::PruneKey(std::string& key, Location at, bool* pruned) {
  *pruned = false;
  if (key == prune_keep_) return true;
  if (std::find(pruned_keys_.begin(), pruned_keys_.end(), key) != pruned_keys_.end()) {
    return Fail(at, "pruned: repeated key");
  }
  pruned_keys_.push_back(std::move(key));
  top().expect = Expect::kValue;
  pruning_value_ = true;
  *pruned = true;
  return true;
}

bool TreeBuilder::SkipScalar(const ScalarInput& input, Location at) {
  // A skipped node counts as a built one: the limit is the document's,
  // however much of it is kept.
  if (!IsMergeKey(input) && !Count(at, 1, 0)) return false;
  GoScalar scalar;
  std::string message;
  if (skip_depth_ > 0 && skipped_[skip_depth_ - 1].mapping && skipped_[skip_depth_ - 1].expect_key) {
    SkipFrame& frame = skipped_[skip_depth_ - 1];
    if (IsMergeKey(input)) return Fail(at, "pruned: merge key");
    std::string key;
    if (!ResolveScalar(input, &scalar, &message) || !ToKeyString(std::move(scalar), &key, &message)) {
      return Fail(at, message);
    }
    if (std::find(frame.keys.begin(), frame.keys.end(), key) != frame.keys.end()) {
      return Fail(at, "pruned: repeated key");
    }
    frame.keys.push_back(std::move(key));
    frame.expect_key = false;
    return true;
  }
  // Only a float can fail as a value (JSON has no infinities), and only a
  // plain, untagged scalar starting with a sign, a dot or a digit resolves
  // to one (goyaml's float syntax and its .inf/.nan spellings).
  const char first = input.value.empty() ? '\0' : input.value.front();
  const bool could_be_float = !input.tag.empty() || (input.plain && (first == '+' || first == '-' || first == '.' ||
                                                                       (first >= '0' && first <= '9')));
  if (could_be_float) {
    if (!ResolveScalar(input, &scalar, &message)) return Fail(at, message);
    if (scalar.type == GoScalar::Type::kFloat && !std::isfinite(scalar.float_value)) {
      return Fail(at, "pruned: not a JSON number");
    }
  }
  SkipValueDone();
  return true;
}

bool TreeBuilder::SkipOpen(bool mapping, Location at) {
  if (skip_depth_ > 0 && skipped_[skip_depth_ - 1].mapping && skipped_[skip_depth_ - 1].expect_key) {
    return Fail(at, "invalid map key: a collection cannot be a key");
  }
  if (depth_ + skip_depth_ >= limits_.max_depth) return Fail(at, "pruned: nesting too deep");
  if (!Count(at, 1, 0)) return false;
  pruning_value_ = false;
  if (skip_depth_ == skipped_.size()) skipped_.emplace_back();
  SkipFrame& frame = skipped_[skip_depth_++];
  frame.mapping = mapping;
  frame.expect_key = true;
  frame.keys.clear();
  return true;
}

bool TreeBuilder::SkipEnd() {
  --skip_depth_;
  SkipValueDone();
  return true;
}

// A whole value ended: its parent expects a key (or the next item) again.
void TreeBuilder::SkipValueDone() {
  if (skip_depth_ == 0) {
    pruning_value_ = false;
    top().expect = Expect::kKey;
  } else if (skipped_[skip_depth_ - 1].mapping) {
    skipped_[skip_depth_ - 1].expect_key = true;
  }
}

}  // namespace tjr::yaml::input
