#pragma once

#include <string>
#include <string_view>

#include "doc/node.h"
#include "yaml/reader.h"

namespace tjr::trainer::testing {

/// The single document of a YAML text; an empty tree when it does not parse
/// (the comparison that follows then fails).
inline doc::Node Yaml(std::string_view text, std::string_view name = "test.yaml") {
  Result<std::vector<doc::Node>> docs = yaml::ReadStream(text, name);
  if (!docs || docs->size() != 1) return doc::Node();
  return (*docs)[0];
}

}  // namespace tjr::trainer::testing
