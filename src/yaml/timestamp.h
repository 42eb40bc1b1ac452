#pragma once

#include <string_view>

namespace tjr::yaml::detail {

/// goyaml v2's parseTimestamp: `text` starts with four digits and a '-' and
/// Go's time.Parse accepts it with one of the layouts
/// "2006-1-2T15:4:5.999999999Z07:00" (also with a lower-case 't'),
/// "2006-1-2 15:4:5.999999999" (the space matches a run of spaces) or
/// "2006-1-2", including time.Parse's range checks.
bool IsYamlTimestamp(std::string_view text);

}  // namespace tjr::yaml::detail
