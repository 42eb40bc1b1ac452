#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace tjr {

/// A path from a document root to one value. Each list step remembers both
/// its index and, where the list is keyed, the merge key and its value, so
/// the path can be printed in either form:
///   upstream: spec.replicatedJobs[0].template.spec
///   keyed:    spec.replicatedJobs[name=node].template.spec
///
/// Paths are persistent lists sharing their prefixes: extending one is a
/// single allocation, whatever its depth, because decoders extend a path at
/// every field they visit and print it only when something is wrong.
class FieldPath {
 public:
  struct Step {
    enum class Type { kField, kIndex } type = Type::kField;
    std::string field;      // kField: the map key
    std::size_t index = 0;  // kIndex: position in the list
    std::string key_name;   // kIndex, keyed lists only: "name"
    std::string key_value;  // kIndex, keyed lists only: "node"
  };

  FieldPath() = default;

  FieldPath Field(std::string_view name) const;
  FieldPath Index(std::size_t index) const;
  FieldPath Keyed(std::size_t index, std::string_view key_name, std::string_view key_value) const;

  bool empty() const { return tail_ == nullptr; }
  /// The steps from the root.
  std::vector<Step> steps() const;

  /// Kubernetes validation form: `a.b[0].c`.
  std::string Upstream() const;
  /// Merge-key form: `a.b[name=x].c`; unkeyed steps print as `[0]`.
  std::string Keyed() const;

 private:
  struct Link {
    Step step;
    std::shared_ptr<const Link> parent;
  };
  FieldPath Extend(Step step) const;

  std::shared_ptr<const Link> tail_;
};

/// A FieldPath being walked, as a chain of frames on the caller's stack.
/// Decoders and walkers extend their path at every value they visit but
/// report one only when something is wrong, so the FieldPath (an allocation
/// per step) is built only then. A frame refers to its parent and to the
/// field name it was given: use it only while both are alive, that is,
/// pass it down a recursion and never store it.
class PathFrame {
 public:
  PathFrame() = default;  ///< the root

  PathFrame Field(std::string_view name) const { return PathFrame(this, name, 0, false); }
  PathFrame Index(std::size_t index) const { return PathFrame(this, {}, index, true); }

  FieldPath Build() const;

 private:
  PathFrame(const PathFrame* parent, std::string_view field, std::size_t index, bool is_index)
      : parent_(parent), field_(field), index_(index), is_index_(is_index) {}

  const PathFrame* parent_ = nullptr;
  std::string_view field_;
  std::size_t index_ = 0;
  bool is_index_ = false;
};

}  // namespace tjr
