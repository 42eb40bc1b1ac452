#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace tjr::json {

/// encoding/json reads a `\uXXXX` escape of a UTF-16 surrogate that is not
/// the first half of a valid pair as U+FFFD, one per escape (unquoteBytes in
/// sigs.k8s.io/json internal/golang/encoding/json/decode.go:1377-1395 at
/// cfa47c3, as in the standard library): a lone high surrogate, a lone low one, each half
/// of a reversed pair. RapidJSON refuses the first and writes the second as
/// three bytes of CESU-8. Returns `json` with each such escape spelled
/// `\uFFFD` instead (the same six bytes long, so every offset stays where it
/// was), or nullopt when there is none. Escapes outside strings are left to
/// the parser to refuse.
std::optional<std::string> ReplaceLoneSurrogateEscapes(std::string_view json);

}  // namespace tjr::json
