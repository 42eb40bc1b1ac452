#pragma once

#include "base/diagnostic.h"
#include "trainer/api_types.h"
#include "trainer/release.h"
#include "schema/schema.h"

namespace tjr::render {

/// The Go types the Trainer controller decodes into, resolved once per
/// release from its schema (trainer::ReleaseSchema): its own API types and
/// those of the Kubernetes and JobSet modules it is built against (v2.1.0:
/// Kubernetes 1.34 + JobSet v0.10.1; v2.2.0: Kubernetes 1.35 + the pinned
/// JobSet v0.11.1, whose replicatedJobs has no merge key; v2.3.0:
/// Kubernetes 1.36 + JobSet v0.12.0) and cached for the life of the
/// process.
struct GoTypes {
  const schema::Type* pod_template_spec = nullptr;  ///< core/v1.PodTemplateSpec
  const schema::Type* pod_spec = nullptr;           ///< core/v1.PodSpec
  const schema::Type* container = nullptr;          ///< core/v1.Container
  const schema::Type* object_meta = nullptr;        ///< meta/v1.ObjectMeta
  const schema::Type* env_var = nullptr;            ///< core/v1.EnvVar
  const schema::Type* resource_requirements = nullptr;  ///< core/v1.ResourceRequirements
  const schema::Type* job_template_spec = nullptr;  ///< batch/v1.JobTemplateSpec
  const schema::Type* job_set_spec = nullptr;       ///< jobset v1alpha2.JobSetSpec
  /// The release's own patch types; nullptr where it has none.
  const schema::Type* pod_template_spec_override = nullptr;  ///< PodTemplateSpecOverride (v2.1.0)
  const schema::Type* job_set_spec_patch = nullptr;          ///< JobSetSpecPatch (v2.2.0+)
};

/// The Kubernetes policy set (policies/NAME.json) of the API types the
/// release is built against ("kubernetes-v1.36").
std::string_view KubernetesPolicy(trainer::TrainerVersion version);

/// The JobSet policy set of the release's JobSet types ("jobset-v0.12.0").
std::string_view JobSetPolicy(trainer::TrainerVersion version);

/// The cached types of `version`, or the error that prevented loading them.
Result<const GoTypes*> LoadGoTypes(trainer::TrainerVersion version);

}  // namespace tjr::render
