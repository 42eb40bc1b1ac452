#pragma once

#include <string_view>

#include "base/diagnostic.h"
#include "schema/schema.h"
#include "trainer/release.h"

// A Trainer release's Go API types as data: its own (TrainJob,
// PodTemplateOverride, RuntimePatch, PodSpecPatch...; policies/trainer-<tag>.json,
// generated from the tag's trainjob_types.go) together with the Kubernetes
// and JobSet types it is built against. What a TrainJob field holds is then
// a typed round trip through these types, never a field list in code.
namespace tjr::trainer {

/// The Go package of the Trainer API types.
inline constexpr std::string_view kApiPackage = "github.com/kubeflow/trainer/v2/pkg/apis/trainer/v1alpha1";

/// The release's schema: the policy sets its Release row names
/// (kubernetes_schema, jobset_schema, trainer_schema), built once per
/// release and kept for the life of the process.
Result<const schema::Schema*> ReleaseSchema(TrainerVersion version);

/// The Trainer API type `name` ("PodSpecPatch") of `schema`, or nullptr
/// when the release has no such type (v2.1.0 has no RuntimePatch, v2.2.0 no
/// PodTemplateOverride).
const schema::Type* FindApiType(const schema::Schema& schema, std::string_view name);

}  // namespace tjr::trainer
