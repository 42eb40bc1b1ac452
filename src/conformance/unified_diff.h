#pragma once

// UnifiedDiff moved to the diff module (diff/unified_diff.h), which
// `tjrender diff` and the conformance runner share; this name stays for
// code written against the old place.
#include "diff/unified_diff.h"

namespace tjr::conformance {

using diff::UnifiedDiff;

}  // namespace tjr::conformance
