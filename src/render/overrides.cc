#include "render/overrides.h"

#include <cstddef>
#include <string>
#include <string_view>

#include "doc/path.h"
#include "render/go_types.h"
#include "render/stored_field.h"
#include "render/tree.h"
#include "render/typed_memo.h"
#include "smp/strategic_merge.h"
#include "typed/round_trip.h"

namespace tjr::render {
namespace {

// Each override is merged into the templates it targets in turn, and each
// merge copies the maps the earlier ones built up (a label per override
// makes the labels N long): N overrides cost N², upstream's loop as much
// as this one. Beyond this many (no TrainJob needs more than a few per
// replicated job; v2.3 caps its runtimePatches at 16) the TrainJob is
// refused instead of rendered in minutes.
constexpr std::size_t kMaxPodTemplateOverrides = 1000;

bool Targets(const doc::Node& override_entry, std::string_view job_name) {
  const doc::Node* targets = override_entry.Find("targetJobs");
  if (targets == nullptr) return false;
  for (const doc::Node& target : targets->items()) {
    if (doc::StringAtPath(target, {"name"}) == job_name) return true;
  }
  return false;
}

}  // namespace

Result<doc::Node> OverridePatch(const doc::Node& override_entry, trainer::TrainerVersion version) {
  Result<const GoTypes*> types = LoadGoTypes(version);
  if (!types.ok()) return types.take_error();
  const schema::Type* spec_type = (*types)->pod_template_spec_override;
  if (spec_type == nullptr) {
    return MakeError(override_entry.location(), "", "this Trainer release has no PodTemplateSpecOverride");
  }
  doc::Node patch = doc::Node::Mapping(override_entry.location());
  if (const doc::Node* meta = override_entry.Find("metadata"); meta != nullptr && meta->is_mapping()) {
    doc::Node metadata = doc::Node::Mapping(meta->location());
    // Upstream copies these two maps, and only when non-nil: `labels: {}` is kept.
    for (std::string_view key : {"labels", "annotations"}) {
      const doc::Node* value = meta->Find(key);
      if (value == nullptr || value->is_null()) continue;
      Result<doc::Node> typed_value = StoredField(*value, *(*types)->object_meta, key);
      if (!typed_value.ok()) return typed_value;
      metadata.Set(std::string(key), *std::move(typed_value));
    }
    if (!metadata.empty()) patch.Set("metadata", std::move(metadata));
  }
  // json.Marshal of the typed *PodTemplateSpecOverride.
  if (const doc::Node* spec = override_entry.Find("spec"); spec != nullptr && spec->is_mapping()) {
    Result<doc::Node> typed_spec = StoredValue(*spec, *spec_type);
    if (!typed_spec.ok()) return typed_spec;
    patch.Set("spec", *std::move(typed_spec));
  }
  return patch;
}

Result<doc::Node> MergePodTemplateOverrides(const doc::Node& trainjob, const doc::Node& jobset_spec,
                                            trainer::TrainerVersion version) {
  Result<const GoTypes*> types = LoadGoTypes(version);
  if (!types.ok()) return types.take_error();
  // Upstream decodes each targeted template, patches it and decodes the
  // result, then decodes the whole JobSetSpec. A typed round trip is
  // idempotent and field by field, so decoding the runtime's spec first
  // (once per runtime, see TypedRoundTripMemo) and each patched template
  // after its merge yields the same value with no further decode.
  Result<doc::Node> typed_spec = TypedRoundTripMemo(jobset_spec, *(*types)->job_set_spec);
  if (!typed_spec.ok()) return typed_spec;
  const doc::Node* overrides = doc::FindPath(trainjob, {"spec", "podTemplateOverrides"});
  if (overrides == nullptr || overrides->empty()) return typed_spec;
  if (overrides->size() > kMaxPodTemplateOverrides) {
    return MakeError(overrides->location(), "spec.podTemplateOverrides",
                     "holds " + std::to_string(overrides->size()) + " entries; tjrender merges at most " +
                         std::to_string(kMaxPodTemplateOverrides) +
                         " (each is a strategic merge over what the earlier ones left, so the work grows with the "
                         "square of their number)");
  }
  const schema::Type& template_type = *(*types)->pod_template_spec;

  doc::Node merged = *std::move(typed_spec);  // copy-on-write: only targeted jobs are copied
  const doc::Node* jobs = merged.Find("replicatedJobs");
  if (jobs == nullptr || !jobs->is_sequence()) return merged;
  const std::size_t job_count = jobs->size();
  for (const doc::Node& entry : overrides->items()) {
    doc::Node patch;
    bool have_patch = false;
    for (std::size_t i = 0; i < job_count; ++i) {
      const doc::Node& job = merged.Find("replicatedJobs")->items()[i];
      if (!Targets(entry, doc::StringAtPath(job, {"name"}))) continue;
      if (!have_patch) {
        Result<doc::Node> built = OverridePatch(entry, version);
        if (!built.ok()) return built;
        patch = *std::move(built);
        have_patch = true;
      }
      // The controller marshals its typed template (already typed here),
      // patches, and decodes the result back into corev1.PodTemplateSpec.
      const doc::Node* current = doc::FindPath(job, {"template", "spec", "template"});
      Result<doc::Node> patched = smp::StrategicMerge(current != nullptr ? *current : doc::Node(), patch, template_type);
      if (!patched.ok()) return patched;
      // What the merge left of the typed template is not decoded again.
      Result<doc::Node> decoded =
          typed::TypedRoundTrip(*patched, template_type, current != nullptr ? *current : doc::Node());
      if (!decoded.ok()) return decoded;
      doc::Node& job_slot = merged.FindMutable("replicatedJobs")->mutable_items()[i];
      ChildPath(&job_slot, {"template", "spec"}).Set("template", *std::move(decoded));
    }
  }
  return merged;
}

}  // namespace tjr::render
