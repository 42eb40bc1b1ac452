#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "base/diagnostic.h"
#include "conformance/case.h"
#include "doc/node.h"

namespace tjr::conformance {

/// What a target made of a case's inputs: objects, or the diagnostics that
/// stopped it (warnings may come with objects).
struct TargetOutput {
  std::vector<doc::Node> objects;
  Diagnostics diagnostics;
};

/// Runs one kind of case. An error return means the case cannot be run as
/// written (an unknown option, a missing input role): an input error, not a
/// diagnostic of the behaviour under test.
using TargetFunction = Result<TargetOutput> (*)(const std::vector<InputFile>& inputs,
                                                const std::vector<std::string>& command);

struct Target {
  std::string_view name;     ///< the `target` of case.yaml
  std::string_view summary;  ///< one line for error messages and docs
  TargetFunction run;
};

/// Every registered target, by name. A new target is one file with its
/// TargetFunction plus one line in the table of target.cc.
const std::vector<Target>& Targets();

/// The target called `name`, or nullptr.
const Target* FindTarget(std::string_view name);

}  // namespace tjr::conformance
