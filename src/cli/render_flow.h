#pragma once

#include <string>
#include <vector>

namespace tjr::cli {

/// What `tjrender render` and `tjrender check` share: loading, the pipeline,
/// reporting and the exit code. `check` passes `write_objects = false` and
/// takes no output options.
int RunRenderFlow(const std::vector<std::string>& args, bool write_objects);

}  // namespace tjr::cli
