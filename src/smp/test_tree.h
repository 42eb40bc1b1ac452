#pragma once

#include <string>
#include <string_view>

#include "base/diagnostic.h"
#include "doc/node.h"

// Document trees for the unit tests, written in flow-style YAML: JSON plus
// plain (unquoted) scalars, resolved the way YAML 1.1 resolves the common
// ones (null, ~, true, false, integers, floats; everything else is a
// string). Integers that fit int64 are ints, other numbers floats, as
// apimachinery's util/json decodes them. Nodes carry line:column locations.
namespace tjr::smp::testing {

Result<doc::Node> ParseFlow(std::string_view text, std::string_view source_name = "test");

/// ParseFlow for literals in test code; a malformed literal aborts the test
/// binary with the parse error.
doc::Node Flow(std::string_view text, std::string_view source_name = "test");

/// A compact, deterministic rendering for test failure messages: mappings in
/// their own order, strings quoted, floats marked with a trailing 'f'.
std::string ToFlow(const doc::Node& node);

}  // namespace tjr::smp::testing
