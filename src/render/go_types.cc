#include "render/go_types.h"

#include <string>

namespace tjr::render {
namespace {

Result<GoTypes> Resolve(TrainerVersion version) {
  const std::vector<std::string> policies = {
      std::string(KubernetesPolicy(version)),
      std::string(JobSetPolicy(version)),
  };
  Result<const schema::Schema*> loaded = schema::BuiltinSchema(policies);
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
  return types;
}

}  // namespace

std::string_view KubernetesPolicy(TrainerVersion version) {
  switch (version) {
    case TrainerVersion::kV2_1: return "kubernetes-v1.34";
    case TrainerVersion::kV2_2: return "kubernetes-v1.35";
    case TrainerVersion::kV2_3: return "kubernetes-v1.36";
  }
  return "kubernetes-v1.36";
}

std::string_view JobSetPolicy(TrainerVersion version) {
  return version == TrainerVersion::kV2_1 ? "jobset-v0.10.1" : "jobset-v0.12.0";
}

std::string_view VersionTag(TrainerVersion v) {
  switch (v) {
    case TrainerVersion::kV2_1: return "v2.1.0";
    case TrainerVersion::kV2_2: return "v2.2.0";
    case TrainerVersion::kV2_3: return "v2.3.0";
  }
  return "";
}

Result<const GoTypes*> LoadGoTypes(TrainerVersion version) {
  // Each release's types are resolved on first use only (a run renders for
  // one release; building all three schemas cost three times the start-up),
  // and function-local statics initialise once, thread-safely.
  const Result<GoTypes>* types = nullptr;
  switch (version) {
    case TrainerVersion::kV2_1: {
      static const Result<GoTypes> kV21 = Resolve(TrainerVersion::kV2_1);
      types = &kV21;
      break;
    }
    case TrainerVersion::kV2_2: {
      static const Result<GoTypes> kV22 = Resolve(TrainerVersion::kV2_2);
      types = &kV22;
      break;
    }
    case TrainerVersion::kV2_3: {
      static const Result<GoTypes> kV23 = Resolve(TrainerVersion::kV2_3);
      types = &kV23;
      break;
    }
  }
  if (types == nullptr) return MakeError({}, "", "unknown Trainer version");
  if (!types->ok()) return types->error();
  return &types->value();
}

}  // namespace tjr::render
