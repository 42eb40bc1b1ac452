#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "explain/explain.h"

// The engine under every explanation: an object as successive layers left
// it, turned into the chain of each of its values. A value's step is
// recorded where it first appears, where its value changes, where a layer
// writes it again from another place, and where it disappears.
namespace tjr::explain {

/// The object as one layer left it (null: not there yet).
struct Stage {
  std::size_t layer = 0;
  doc::Node object;
};

/// Fills in a step's detail and, where the value itself does not carry
/// one, its location; `path` is the field's, `value` the node at that stage
/// (null for a deletion). Returns false to drop the step (a layer that
/// only carried the value along). Optional.
using Annotate = std::function<bool(const Stage& stage, const std::string& path, const doc::Node& value, Step* step)>;

/// Where a list item came from and whether a later layer moved it.
struct ItemHistory {
  std::string list_path;            ///< the list's field path
  std::size_t arrived = 0;          ///< index into the stages
  std::optional<std::size_t> moved;  ///< the last stage that changed its place among the others
  std::size_t index = 0;            ///< its index in the rendered list
  /// The paths of its neighbours in the rendered list ("" at either end).
  std::string previous;
  std::string next;
};

/// The reason a list item sits where it sits, from its history. Optional.
using OrderReason = std::function<std::string(const std::string& path, const ItemHistory& history)>;

/// The fields of `stages.back().object` (every node, in document order),
/// then those an earlier stage had and a later one deleted (the topmost of
/// each deleted subtree only).
std::vector<Field> ChainsFromStages(const std::vector<Stage>& stages, const Annotate& annotate = {},
                                    const OrderReason& order = {});

/// Whether a node is one value for provenance: a scalar, an empty mapping,
/// or a list whose items are all scalars.
bool IsLeaf(const doc::Node& node);

/// Every node of `root` with its field path, in document order; `on` gets
/// the path, the node and, for a list item, the list's path and its index.
void WalkFields(const doc::Node& root,
                const std::function<void(const std::string& path, const doc::Node& node,
                                         const std::string* list_path, std::size_t index)>& on);

}  // namespace tjr::explain
