#pragma once

#include <string>
#include <string_view>

#include "doc/node.h"

namespace tjr::render::testing {

/// The one YAML document in `text`; a parse error fails the test.
doc::Node Yaml(std::string_view text);

/// Like Yaml, but `text` may also be a flow collection ("{a: b}", "[x]"),
/// which the stream reader would take for JSON.
doc::Node Value(std::string_view text);

/// `node` as YAML text, for readable failure messages.
std::string ToYaml(const doc::Node& node);

/// Mapping keys in the order the node holds them, depth first, each
/// followed by ','; pins Go field order where document equality cannot.
std::string KeyOrder(const doc::Node& node);

}  // namespace tjr::render::testing
