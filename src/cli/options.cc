#include "cli/options.h"

#include <algorithm>
#include <sstream>
#include <utility>

#include "app/target_name.h"
#include "cli/command.h"
#include "cli/output.h"

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
    // Boost guesses an option from a prefix by default (`--repo` read as
    // `--report`); an option is the one it names, or an error naming it.
    const int style = po::command_line_style::default_style & ~po::command_line_style::allow_guessing;
    po::store(po::command_line_parser(args).options(all).positional(order).style(style).run(), vm);
    po::notify(vm);
  } catch (const po::unknown_option& error) {
    // Boost names `--repo=.` whole; the option is the part before '='.
    std::string name = error.get_option_name();
    ReportUsageError("unrecognised option '" + name.substr(0, name.find('=')) + "'");
    return kExitUsage;
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

bool CheckTarget(std::string* target, std::string_view also) {
  Result<std::string> supported = app::SupportedTarget(*target, also);
  if (!supported.ok()) {
    Report(supported.error());
    return false;
  }
  *target = std::move(*supported);
  return true;
}

}  // namespace tjr::cli
