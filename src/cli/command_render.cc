// `tjrender render`: TrainJobs in, the objects the Trainer controller would
// create out (see render_flow.cc).
#include "cli/commands.h"
#include "cli/render_flow.h"

namespace tjr::cli {

int RunRender(const std::vector<std::string>& args) { return RunRenderFlow(args, true); }

}  // namespace tjr::cli
