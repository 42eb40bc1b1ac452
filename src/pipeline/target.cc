#include "pipeline/target.h"

#include <algorithm>

#include "render/go_types.h"
#include "render/template_overrides_preview.h"
#include "trainer/defaults_table.h"
#include "validate/crd_rules.h"
#include "validate/removed_api.h"

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

namespace {

// "v2.1.0" -> "v2.1"; "2.1" -> "v2.1"; "" when `tag` is no release
// version (a pre-release "v2.3.0-rc.1", "latest", "v2").
std::string MinorVersion(std::string_view tag) {
  if (tag.starts_with('v')) tag.remove_prefix(1);
  std::size_t at = 0;
  int dots = 0;
  std::string minor = "v";
  while (at < tag.size()) {
    const char c = tag[at];
    if (c >= '0' && c <= '9') {
      minor += c;
    } else if (c == '.' && dots == 0 && minor.size() > 1 && minor.back() != '.') {
      ++dots;
      minor += c;
    } else {
      break;
    }
    ++at;
  }
  if (dots == 0 || minor.back() == '.') return "";
  // A third part, when there is one, is a number too ("v2.1.x" is none).
  if (at < tag.size() && tag[at] == '.') {
    std::size_t patch = at + 1;
    while (patch < tag.size() && tag[patch] >= '0' && tag[patch] <= '9') ++patch;
    if (patch == at + 1 || patch != tag.size()) return "";
  } else if (at < tag.size()) {
    return "";
  }
  return minor;
}

}  // namespace

std::string ReleaseMinorOf(const TargetProfile& target) {
  return MinorVersion(trainer::ReleaseOf(target.version).tag);
}

const TargetProfile* TargetOfReleaseTag(std::string_view tag) {
  const std::string minor = MinorVersion(tag);
  if (minor.empty()) return nullptr;
  for (const TargetProfile& target : Targets()) {
    if (!target.experimental && ReleaseMinorOf(target) == minor) return &target;
  }
  return nullptr;
}

bool AddOlderTargetHint(Diagnostics* diagnostics) {
  Diagnostic* first = nullptr;
  for (Diagnostic& d : *diagnostics) {
    if (d.severity != Severity::kError) continue;
    if (!validate::IsRemovedFieldError(d)) return false;
    if (first == nullptr) first = &d;
  }
  if (first == nullptr) return false;
  const TargetProfile* older = nullptr;
  for (const TargetProfile& target : Targets()) {
    if (!target.experimental && !trainer::ReleaseOf(target.version).runtime_patches) older = &target;
  }
  if (older == nullptr) return false;
  first->message += ", or pass `--target " + std::string(older->name) + "` if the cluster runs " +
                    ReleaseMinorOf(*older);
  return true;
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
