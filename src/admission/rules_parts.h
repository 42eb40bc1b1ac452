#pragma once

#include <span>

#include "admission/rules.h"

// Each part's rows of the catalogue, defined beside its checks.
namespace tjr::admission {

std::span<const RuleInfo> JobSetRuleRows();      // rules_jobset.cc
std::span<const RuleInfo> JobRuleRows();         // rules_job.cc
std::span<const RuleInfo> PodSpecRuleRows();     // rules_pod_spec.cc
std::span<const RuleInfo> ContainerRuleRows();   // rules_containers.cc
std::span<const RuleInfo> OtherObjectRuleRows(); // rules_other_objects.cc

}  // namespace tjr::admission
