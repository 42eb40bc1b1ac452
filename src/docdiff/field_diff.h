#pragma once

#include <optional>
#include <string>
#include <vector>

#include "base/field_path.h"
#include "doc/node.h"

// The structural difference of two documents, field by field, for reviewers:
// which values a change adds, removes, changes or reorders.
namespace tjr::docdiff {

enum class FieldChangeType { kAdded, kRemoved, kChanged, kReordered };

/// One difference between two documents.
struct FieldDifference {
  FieldChangeType type = FieldChangeType::kChanged;
  /// Where: list items matched by a key print keyed
  /// (`spec.replicatedJobs[name=node].template`), others by index.
  FieldPath path;
  /// The values on either side: null for the missing side of an addition or
  /// removal; for a reordering, the keys of the matched items in their order
  /// (sequences of scalars).
  doc::Node before;
  doc::Node after;
};

/// The key that identifies the items of a list on both sides, if one does:
/// the first of "name", "mountPath", "containerPort" and "key" that every
/// item (a mapping) holds as a non-null scalar distinct (by JSON text) from
/// every other item's of its side; nullopt when none does or both are empty.
std::optional<std::string> ListKey(const doc::Node& before, const doc::Node& after);

/// Compares `before` with `after`. Mappings compare key by key (key order is
/// no difference). Lists of mappings whose items all carry a distinct
/// `name` (else `mountPath`, `containerPort`, `key`) on both sides are
/// matched by that key: items only on one side are added or removed, common
/// items compare recursively, and a changed order of the common items is one
/// kReordered difference at the list. Other lists of mappings or lists
/// compare index by index; lists of scalars compare as one value. A value
/// that changes kind is one kChanged difference. Differences are listed in
/// document order (`before`'s, then what only `after` has).
std::vector<FieldDifference> DiffFields(const doc::Node& before, const doc::Node& after);

/// One line: `~ PATH: BEFORE -> AFTER`, `+ PATH: AFTER`, `- PATH: BEFORE`,
/// `~ PATH: order [a, b] -> [b, a]`, values as compact JSON. The path is
/// `prefix` joined to the difference's path with a '.' when both are set.
std::string FormatFieldDifference(const FieldDifference& difference,
                                  const std::string& prefix = {});

}  // namespace tjr::docdiff
