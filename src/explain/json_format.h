#pragma once

#include "doc/node.h"
#include "explain/explain.h"

// The document `explain --format json` writes (docs/manual.md, "explain
// --format json"), as a tree: the HTML page embeds it with what only the
// page needs added.
namespace tjr::explain {

/// {"format": "tjrender-explain/v1", "subject", "target", "layers",
/// "objects"}; the input files are not in it.
doc::Node ExplanationDocument(const Explanation& explanation);

/// {"file", "line", "column"} of a known location (line and column only
/// when the line is known); callers leave the key out for an unknown one.
doc::Node LocationDocument(const Location& at);

}  // namespace tjr::explain
