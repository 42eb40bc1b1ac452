#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <boost/program_options.hpp>

#include "app/render_config.h"

namespace tjr::cli {

/// Parses a command's arguments: the `named` options (a `--help,-h` switch
/// is expected among them) and any number of positional arguments, which
/// go to `positional`. Returns nothing when the command should go on, or
/// the exit code to return at once: 0 after printing `usage` and the table
/// of `named` options for --help, 2 after reporting a usage error.
std::optional<int> ParseCommandLine(const std::vector<std::string>& args,
                                    const boost::program_options::options_description& named,
                                    std::vector<std::string>* positional, const char* usage);

/// Called by ParseCommandLine in place of printing --help, with the same
/// usage text and option table: how the man pages and shell completions are
/// generated from what --help prints (command_docs.h). Empty: print.
using HelpObserver = std::function<void(const char* usage,
                                        const boost::program_options::options_description& named)>;
void SetHelpObserver(HelpObserver observer);

/// Whether `target` names one of pipeline::SupportedTargets() (in any
/// spelling app::CanonicalTarget knows; it is then replaced by the canonical
/// name); otherwise reports a usage error that lists them, then `also`
/// (other targets the command takes, e.g. ", flyte-v1.16, flyte-v2").
bool CheckTarget(std::string* target, std::string_view also = "");

}  // namespace tjr::cli
