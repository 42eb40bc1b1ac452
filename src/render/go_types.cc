#include "render/go_types.h"

#include <array>
#include <mutex>
#include <optional>
#include <string>

namespace tjr::render {
namespace {

Result<GoTypes> Resolve(trainer::TrainerVersion version) {
  Result<const schema::Schema*> loaded = trainer::ReleaseSchema(version);
  if (!loaded.ok()) return loaded.take_error();
  const schema::Schema& s = **loaded;
  GoTypes types;
  struct Want {
    const schema::Type** slot;
    const char* name;
  };
  const Want wants[] = {
      {&types.pod_template_spec, "k8s.io/api/core/v1.PodTemplateSpec"},
      {&types.pod_spec, "k8s.io/api/core/v1.PodSpec"},
      {&types.container, "k8s.io/api/core/v1.Container"},
      {&types.object_meta, "k8s.io/apimachinery/pkg/apis/meta/v1.ObjectMeta"},
      {&types.env_var, "k8s.io/api/core/v1.EnvVar"},
      {&types.resource_requirements, "k8s.io/api/core/v1.ResourceRequirements"},
      {&types.job_template_spec, "k8s.io/api/batch/v1.JobTemplateSpec"},
      {&types.job_set_spec, "sigs.k8s.io/jobset/api/jobset/v1alpha2.JobSetSpec"},
  };
  for (const Want& want : wants) {
    *want.slot = s.FindType(want.name);
    if (*want.slot == nullptr) {
      return MakeError({}, "", std::string("built-in schema lacks the Go type ") + want.name);
    }
  }
  types.pod_template_spec_override = trainer::FindApiType(s, "PodTemplateSpecOverride");
  types.job_set_spec_patch = trainer::FindApiType(s, "JobSetSpecPatch");
  return types;
}

}  // namespace

std::string_view KubernetesPolicy(trainer::TrainerVersion version) {
  return trainer::ReleaseOf(version).kubernetes_schema;
}

std::string_view JobSetPolicy(trainer::TrainerVersion version) { return trainer::ReleaseOf(version).jobset_schema; }

Result<const GoTypes*> LoadGoTypes(trainer::TrainerVersion version) {
  // Each release's types are resolved on first use only (a run renders for
  // one release; building all three schemas cost three times the start-up),
  // and function-local statics initialise once, thread-safely.
  // One slot per release, resolved on first use.
  static const Result<GoTypes> kUnresolved = MakeError({}, "", "unknown Trainer version");
  static std::array<std::once_flag, trainer::kReleaseCount> once;
  static std::array<std::optional<Result<GoTypes>>, trainer::kReleaseCount> slots;
  const auto index = static_cast<std::size_t>(version);
  if (index >= slots.size()) return kUnresolved.error();
  std::call_once(once[index], [&] { slots[index].emplace(Resolve(version)); });
  const Result<GoTypes>* types = &*slots[index];
  if (types == nullptr) return MakeError({}, "", "unknown Trainer version");
  if (!types->ok()) return types->error();
  return &types->value();
}

}  // namespace tjr::render
