// `tjrender check`: the validation of `tjrender render`, nothing written.
#include "cli/commands.h"
#include "cli/render_flow.h"

namespace tjr::cli {

int RunCheck(const std::vector<std::string>& args) { return RunRenderFlow(args, false); }

}  // namespace tjr::cli
