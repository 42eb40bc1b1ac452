#pragma once

#include "base/diagnostic.h"
#include "schema/schema.h"

namespace tjr::render {

/// The Go types the Trainer controller decodes into, resolved once from the
/// built-in Kubernetes 1.34 + JobSet v0.10.1 schema (the versions Trainer
/// v2.1.0 is built against) and cached for the life of the process.
struct GoTypes {
  const schema::Type* pod_template_spec = nullptr;  ///< core/v1.PodTemplateSpec
  const schema::Type* pod_spec = nullptr;           ///< core/v1.PodSpec
  const schema::Type* container = nullptr;          ///< core/v1.Container
  const schema::Type* object_meta = nullptr;        ///< meta/v1.ObjectMeta
  const schema::Type* env_var = nullptr;            ///< core/v1.EnvVar
  const schema::Type* resource_requirements = nullptr;  ///< core/v1.ResourceRequirements
  const schema::Type* job_set_spec = nullptr;       ///< jobset v1alpha2.JobSetSpec
};

/// The cached types, or the error that prevented loading them.
Result<const GoTypes*> LoadGoTypes();

}  // namespace tjr::render
