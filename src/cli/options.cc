#include "cli/options.h"

#include <algorithm>
#include <sstream>
#include <utility>

#include "cli/command.h"
#include "cli/output.h"
#include "pipeline/pipeline.h"

namespace tjr::cli {
namespace po = boost::program_options;

namespace {
HelpObserver& Observer() {
  static HelpObserver observer;
  return observer;
}
}  // namespace

void SetHelpObserver(HelpObserver observer) { Observer() = std::move(observer); }

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
    if (Observer()) {
      Observer()(usage, named);
      return kExitClean;
    }
    std::ostringstream options;
    options << named;
    WriteStdout(std::string(usage) + "\n" + options.str());
    return kExitClean;
  }
  return std::nullopt;
}

std::string CanonicalTarget(std::string_view target) {
  std::string name(target);
  // "trainer-v2.3.0" and "v2.3.0" name the release the target emulates.
  auto strip_patch = [](std::string* version) {
    std::size_t first = version->find('.');
    std::size_t second = first == std::string::npos ? first : version->find('.', first + 1);
    if (second != std::string::npos && version->substr(second) == ".0") version->erase(second);
  };
  if (name.starts_with("trainer-v")) {
    std::string version = name.substr(9);
    strip_patch(&version);
    return "trainer-v" + version;
  }
  if (name.starts_with("v2.") || name.starts_with("2.")) {
    std::string version = name.starts_with("v") ? name.substr(1) : name;
    strip_patch(&version);
    return "trainer-v" + version;
  }
  return name;
}

bool CheckTarget(std::string* target, std::string_view also) {
  const std::vector<std::string>& targets = pipeline::SupportedTargets();
  const std::string canonical = CanonicalTarget(*target);
  if (std::find(targets.begin(), targets.end(), canonical) != targets.end()) {
    *target = canonical;
    return true;
  }
  ReportUsageError("unsupported target '" + *target + "' (supported: " + pipeline::SupportedTargetList() +
                   std::string(also) + ")");
  return false;
}

}  // namespace tjr::cli
