#pragma once

#include <string>
#include <vector>

// What each command's --help says, as data: the source of the man pages and
// shell completions `meson install` installs (src/docgen.cc), so that they
// cannot drift from --help.
namespace tjr::cli {

struct OptionDoc {
  std::string long_name;    ///< "target"
  std::string short_name;   ///< "o" for -o, else empty
  bool takes_value = false;
  std::string value_name;   ///< from the usage line: "DIR", "text|markdown|json"; else "ARG"
  std::vector<std::string> choices;  ///< the value's alternatives when the usage line lists them
  std::string description;  ///< the option table's text
};

struct CommandDoc {
  std::string name;     ///< "render"
  std::string summary;  ///< the line `tjrender --help` shows
  std::string usage;    ///< the text above the option table of `tjrender NAME --help`
  std::vector<OptionDoc> options;
};

/// Every command of Commands(), in order, as its --help describes it.
std::vector<CommandDoc> CollectCommandDocs();

/// The values `--target` takes: the Trainer targets, and the Flyte ones
/// when `with_flyte` (the option's description names them).
std::vector<std::string> TargetNames(bool with_flyte);

/// Whether the option's description names the Flyte targets.
bool TakesFlyteTargets(const OptionDoc& option);

}  // namespace tjr::cli
