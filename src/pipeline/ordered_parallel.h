#pragma once
// OrderedParallelFor moved to base (the loader parses files with it too).
#include "base/ordered_parallel.h"

namespace tjr::pipeline {
using tjr::OrderedParallelFor;
}  // namespace tjr::pipeline
