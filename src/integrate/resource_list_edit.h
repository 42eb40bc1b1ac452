#pragma once

#include <string>
#include <vector>

#include "doc/node.h"
#include "integrate/krm.h"

// The output ResourceList of a KRM function, written as an edit of its
// input: kpt writes the items back into the user's files, so every byte the
// function does not mean to change (comments, quoting, key order, flow
// style, line breaks) must come back as it came.
namespace tjr::integrate {

/// What becomes of one input item.
struct ItemEdit {
  bool keep = true;              ///< the item, byte for byte
  std::vector<doc::Node> added;  ///< objects written after it (in its place when not kept)
};

/// `list.text` with its items edited as `edits` says (one per item; empty:
/// every item kept) and its top-level `results` replaced by `results` (a
/// sequence; none is written when it is empty). New text follows the
/// input's style: block YAML in a block list, JSON in a flow (JSON) one,
/// CRLF line breaks when the input has them.
std::string EditResourceList(const ResourceList& list, const std::vector<ItemEdit>& edits,
                             const doc::Node& results);

}  // namespace tjr::integrate
