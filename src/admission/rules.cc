#include "admission/rules.h"

#include <vector>

#include "admission/rules_parts.h"

namespace tjr::admission {

std::span<const RuleInfo> Rules() {
  static const std::vector<RuleInfo> rows = [] {
    std::vector<RuleInfo> out;
    for (std::span<const RuleInfo> part :
         {JobSetRuleRows(), JobRuleRows(), PodSpecRuleRows(), ContainerRuleRows(), OtherObjectRuleRows()}) {
      out.insert(out.end(), part.begin(), part.end());
    }
    return out;
  }();
  return rows;
}

const RuleInfo* FindRule(std::string_view id) {
  for (const RuleInfo& rule : Rules()) {
    if (rule.id == id) return &rule;
  }
  return nullptr;
}

}  // namespace tjr::admission
