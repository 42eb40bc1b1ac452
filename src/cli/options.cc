#include "cli/options.h"

#include <algorithm>

#include "cli/command.h"
#include "cli/output.h"
#include "pipeline/pipeline.h"

namespace tjr::cli {
namespace po = boost::program_options;

std::optional<int> ParseCommandLine(const std::vector<std::string>& args,
                                    const po::options_description& named,
                                    std::vector<std::string>* positional, const char* usage) {
  po::options_description hidden;
  hidden.add_options()("positional", po::value(positional));
  po::options_description all;
  all.add(named).add(hidden);
  po::positional_options_description order;
  order.add("positional", -1);
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(args).options(all).positional(order).run(), vm);
    po::notify(vm);
  } catch (const po::error& error) {
    ReportUsageError(error.what());
    return kExitUsage;
  }
  if (vm.count("help")) {
    WriteStdout(usage);
    return kExitClean;
  }
  return std::nullopt;
}

bool CheckTarget(const std::string& target, std::string_view also) {
  const std::vector<std::string>& targets = pipeline::SupportedTargets();
  if (std::find(targets.begin(), targets.end(), target) != targets.end()) return true;
  ReportUsageError("unsupported target '" + target + "' (supported: " + pipeline::SupportedTargetList() +
                   std::string(also) + ")");
  return false;
}

}  // namespace tjr::cli
