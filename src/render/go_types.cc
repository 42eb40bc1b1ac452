#include "render/go_types.h"

#include <string>

namespace tjr::render {
namespace {

Result<GoTypes> Resolve() {
  Result<const schema::Schema*> loaded = schema::BuiltinSchema({"kubernetes-v1.34", "jobset-v0.10.1"});
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

Result<const GoTypes*> LoadGoTypes() {
  // Function-local statics initialise once, thread-safely.
  static const Result<GoTypes> kTypes = Resolve();
  if (!kTypes.ok()) return kTypes.error();
  return &kTypes.value();
}

}  // namespace tjr::render
