#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "base/diagnostic.h"
#include "doc/node.h"
#include "report/finding.h"

// `--ignore` rules: findings silenced by rule id, repository-wide
// (.tjrender.yaml `ignore:`) or per object (annotations).
namespace tjr::report {

/// The annotation listing the rule ids to ignore for one object
/// ("volume-two-sources, env-value-and-valuefrom") and the one saying why.
inline constexpr char kIgnoreAnnotation[] = "tjrender.dev/ignore";
inline constexpr char kIgnoreReasonAnnotation[] = "tjrender.dev/ignore-reason";
/// The rule id of the warning about an ignore annotation without a reason.
inline constexpr char kRuleIgnoreWithoutReason[] = "ignore-without-reason";

/// One ignore rule: a rule id, or a prefix ending in '*' ("upstream/*").
struct IgnoreRule {
  std::string rule;
  std::string reason;
};

/// Whether `ignore` names `rule`.
bool Matches(const IgnoreRule& ignore, std::string_view rule);

/// "a, b,c" -> {"a", "b", "c"} (empty items dropped).
std::vector<std::string> SplitRuleList(std::string_view text);

/// The rules an object's annotations ignore. An ignore annotation without
/// a reason still applies, and adds a warning to `problems`.
std::vector<IgnoreRule> ObjectIgnores(const doc::Node& object, Diagnostics* problems);

/// Repository-wide rules and per-object rules (by ObjectRef::Key()).
struct Ignores {
  std::vector<IgnoreRule> global;
  std::map<std::string, std::vector<IgnoreRule>> by_object;
};

/// Whether `finding` is silenced. Only warnings can be: an error is what
/// the API server or the webhook refuses, whatever the repository says,
/// and unusable input is never a matter of taste.
bool Ignored(const Ignores& ignores, const Finding& finding);

}  // namespace tjr::report
