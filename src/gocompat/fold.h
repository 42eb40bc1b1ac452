#pragma once

#include <string_view>

namespace tjr::gocompat {

/// Whether encoding/json matches the JSON key `key` to a struct field whose
/// JSON name is `field_name` without regard to case (bytes.EqualFold, the
/// fallback after an exact match). API field names are ASCII, so only two
/// non-ASCII runes can match: U+212A KELVIN SIGN folds with 'k' and U+017F
/// LATIN SMALL LETTER LONG S with 's'. A non-ASCII field name (no schema has
/// one) matches only exactly.
bool JsonNameEqualFold(std::string_view field_name, std::string_view key);

}  // namespace tjr::gocompat
