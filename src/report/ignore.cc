#include "report/ignore.h"

namespace tjr::report {
namespace {

std::string_view Trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return text;
}

const doc::Node* Annotation(const doc::Node& object, std::string_view key) {
  const doc::Node* metadata = object.Find("metadata");
  if (metadata == nullptr || !metadata->is_mapping()) return nullptr;
  const doc::Node* annotations = metadata->Find("annotations");
  if (annotations == nullptr || !annotations->is_mapping()) return nullptr;
  const doc::Node* value = annotations->Find(key);
  return value != nullptr && value->is_string() ? value : nullptr;
}

bool AnyMatches(const std::vector<IgnoreRule>& rules, std::string_view rule) {
  for (const IgnoreRule& ignore : rules) {
    if (Matches(ignore, rule)) return true;
  }
  return false;
}

}  // namespace

bool Matches(const IgnoreRule& ignore, std::string_view rule) {
  if (!ignore.rule.empty() && ignore.rule.back() == '*') {
    std::string_view prefix(ignore.rule.data(), ignore.rule.size() - 1);
    return rule.substr(0, prefix.size()) == prefix;
  }
  return ignore.rule == rule;
}

std::vector<std::string> SplitRuleList(std::string_view text) {
  std::vector<std::string> rules;
  while (!text.empty()) {
    std::size_t comma = text.find(',');
    std::string_view item = Trim(text.substr(0, comma));
    if (!item.empty()) rules.emplace_back(item);
    if (comma == std::string_view::npos) break;
    text.remove_prefix(comma + 1);
  }
  return rules;
}

std::vector<IgnoreRule> ObjectIgnores(const doc::Node& object, Diagnostics* problems) {
  std::vector<IgnoreRule> rules;
  const doc::Node* list = Annotation(object, kIgnoreAnnotation);
  if (list == nullptr) return rules;
  const doc::Node* reason = Annotation(object, kIgnoreReasonAnnotation);
  std::string why = reason != nullptr ? std::string(Trim(reason->string_value())) : "";
  for (std::string& rule : SplitRuleList(list->string_value())) {
    rules.push_back({std::move(rule), why});
  }
  if (why.empty() && problems != nullptr) {
    Diagnostic d = MakeError(list->location(), "metadata.annotations[" + std::string(kIgnoreAnnotation) + "]",
                             "findings are ignored without a reason: add the annotation " +
                                 std::string(kIgnoreReasonAnnotation) + " saying why");
    d.severity = Severity::kWarning;
    d.rule = kRuleIgnoreWithoutReason;
    problems->push_back(std::move(d));
  }
  return rules;
}

bool Ignored(const Ignores& ignores, const Finding& finding) {
  if (finding.diagnostic.severity != Severity::kWarning) return false;
  if (finding.diagnostic.category != Category::kFinding) return false;
  if (finding.rule == kRuleIgnoreWithoutReason) return false;
  if (AnyMatches(ignores.global, finding.rule)) return true;
  if (!finding.object.known()) return false;
  auto it = ignores.by_object.find(finding.object.Key());
  return it != ignores.by_object.end() && AnyMatches(it->second, finding.rule);
}

}  // namespace tjr::report
