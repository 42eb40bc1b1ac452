#pragma once

#include <string>
#include <string_view>

namespace tjr::yaml::detail {

/// Whether kubectl's printer changes `s` on its way through encoding/json
/// and goyaml (sigs.k8s.io/yaml's JSONToYAML); never for ASCII.
bool ChangedByJsonRoundTrip(std::string_view s);

/// The string goyaml holds after encoding/json wrote `s` and goyaml read
/// that JSON back: each byte of invalid UTF-8 becomes U+FFFD, and a raw NEL
/// (U+0085, which encoding/json does not escape) is a line break inside the
/// double-quoted scalar, so it folds with the spaces around it.
std::string JsonRoundTrip(std::string_view s);

}  // namespace tjr::yaml::detail
