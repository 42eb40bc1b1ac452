#include "pipeline/target.h"

#include <algorithm>

#include "render/go_types.h"
#include "render/template_overrides_preview.h"
#include "trainer/defaults_table.h"
#include "validate/crd_rules.h"

namespace tjr::pipeline {

const std::vector<TargetProfile>& Targets() {
  // trainer-v2.0 (podSpecOverrides) merges a different patch against
  // PodSpec and validates differently: not emulated. HEAD renders as v2.3.0
  // (runtimepatches spec §5.16-§5.17: no JobSet-building change), so it has
  // no target of its own; its CRD defaults are the ones v2.2/v2.3 use (the
  // release rows' crd_defaults).
  // The validation entry points take the version from ValidateOptions.
  static const std::vector<TargetProfile> targets = {
      {"trainer-v2.1", trainer::TrainerVersion::kV2_1, &validate::ValidateTrainJobSchema,
       &validate::ValidateTrainJobWebhook, &validate::ValidateRuntime, nullptr, false},
      {"trainer-v2.2", trainer::TrainerVersion::kV2_2, &validate::ValidateTrainJobSchema,
       &validate::ValidateTrainJobWebhook, &validate::ValidateRuntime, nullptr, false},
      {"trainer-v2.3", trainer::TrainerVersion::kV2_3, &validate::ValidateTrainJobSchema,
       &validate::ValidateTrainJobWebhook, &validate::ValidateRuntime, nullptr, false},
      // PR #3199's TemplateOverrides, read as v2.3.0 reads the equivalent
      // runtimePatches (render/template_overrides_preview.h).
      {"trainer-pr3199-preview", trainer::TrainerVersion::kV2_3,
       &validate::ValidateTrainJobSchema, &validate::ValidateTrainJobWebhook, &validate::ValidateRuntime,
       &render::TemplateOverridesAsRuntimePatches, true},
  };
  return targets;
}

const TargetProfile* FindTarget(std::string_view name) {
  for (const TargetProfile& t : Targets()) {
    if (t.name == name) return &t;
  }
  return nullptr;
}

void PrepareTarget(const TargetProfile& target) {
  (void)render::LoadGoTypes(target.version);
  (void)trainer::BuiltinDefaults(trainer::ReleaseOf(target.version).crd_defaults);
  (void)validate::BuiltinCrdRules(target.version);
  (void)validate::BuiltinRuntimeCrdRules(target.version);
}

std::jthread PrepareInBackground(std::vector<std::string> target_names, unsigned threads) {
  if (threads == 1) return {};
  std::vector<const TargetProfile*> targets;
  for (const std::string& name : target_names) {
    const TargetProfile* target = FindTarget(name);
    if (target != nullptr && std::find(targets.begin(), targets.end(), target) == targets.end()) {
      targets.push_back(target);
    }
  }
  return std::jthread([targets] {
    for (const TargetProfile* target : targets) PrepareTarget(*target);
  });
}

}  // namespace tjr::pipeline
