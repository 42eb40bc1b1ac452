#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "base/diagnostic.h"
#include "doc/node.h"

namespace tjr::validate::testing {

/// The one YAML document in `text` (read as "test.yaml"); a parse error
/// fails the test.
doc::Node Yaml(std::string_view text);

/// A YAML flow value (`{a: 1}`, `[x]`), which the reader would take for
/// JSON at the start of a document.
doc::Node Value(std::string_view text);

/// The messages of `diagnostics`, in order.
std::vector<std::string> Messages(const Diagnostics& diagnostics);

/// "LINE:COL" of a diagnostic, for location checks.
std::string LineCol(const Diagnostic& diagnostic);

}  // namespace tjr::validate::testing
