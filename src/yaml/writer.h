#pragma once

#include <string>
#include <vector>

#include "doc/node.h"

namespace tjr::yaml {

/// Appends `root` as YAML, byte-identical to `kubectl ... -o yaml` for the
/// same data (sigs.k8s.io/yaml.Marshal: encoding/json, then goyaml v2's
/// encoder with sorted keys, its quoting rules and its 80-column folding).
void Write(const doc::Node& root, std::string* out);
std::string Write(const doc::Node& root);

/// Several objects as kubectl prints them: "---\n" before every object after
/// the first.
std::string WriteStream(const std::vector<doc::Node>& objects);

}  // namespace tjr::yaml
