#include "migrate/plan.h"

#include <algorithm>
#include <string_view>
#include <utility>

#include "base/field_path.h"
#include "base/object_name.h"
#include "pipeline/target.h"
#include "trainer/api_types.h"

namespace tjr::migrate {
namespace {

// The releases a migration reads and writes: their API types (policies/
// trainer-<tag>.json) say which fields a v2.1 override has and which of them
// a RuntimePatch can carry.
constexpr std::string_view kFromTarget = "trainer-v2.1";
constexpr std::string_view kToTarget = "trainer-v2.3";

// Whether the Trainer API type `type` of the target's release has `field`.
bool HasField(std::string_view target_name, std::string_view type, std::string_view field) {
  const pipeline::TargetProfile* target = pipeline::FindTarget(target_name);
  if (target == nullptr) return false;
  Result<const schema::Schema*> schema = trainer::ReleaseSchema(target->version);
  if (!schema.ok()) return false;
  const schema::Type* owner = trainer::FindApiType(**schema, type);
  return owner != nullptr && owner->FindField(field) != nullptr;
}

Location KeyLocation(const doc::Node& mapping, std::string_view key) {
  for (const doc::Field& field : mapping.fields()) {
    if (field.key == key) return field.key_location.known() ? field.key_location
                                                            : field.value.location();
  }
  return mapping.location();
}

class Planner {
 public:
  Planner(const doc::Node& spec, const std::string& manager, Shape shape)
      : spec_(spec), manager_(manager), shape_(shape) {
    plan_.shape = shape;
  }

  Plan Run() {
    const doc::Node* overrides = spec_.Find("podTemplateOverrides");
    const doc::Node* labels = spec_.Find("labels");
    const doc::Node* annotations = spec_.Find("annotations");
    plan_.has_v21_fields = overrides != nullptr || labels != nullptr || annotations != nullptr;
    if (!plan_.has_v21_fields) return std::move(plan_);
    const char* field = FieldName(shape_);
    if (spec_.Find(field) != nullptr) {
      Fail(KeyLocation(spec_, field), spec_path_.Field(field),
           std::string("the TrainJob already has ") + field +
               " next to podTemplateOverrides or spec.labels/annotations; merge them by hand");
    }
    for (const char* name : {"labels", "annotations"}) {
      const doc::Node* value = spec_.Find(name);
      if (value != nullptr && !value->is_mapping() && !value->is_null()) {
        Fail(value->location(), spec_path_.Field(name), "must be a map of strings");
      }
    }
    if (overrides != nullptr) PlanOverrides(*overrides);
    // RuntimePatches has MaxItems 16 (trainjob_types.go:118-124).
    if (plan_.patches.size() > 16) {
      Fail(KeyLocation(spec_, "podTemplateOverrides"), spec_path_.Field("podTemplateOverrides"),
           "needs " + std::to_string(plan_.patches.size()) +
               " RuntimePatches (overrides patch the same job again and again); at most 16 fit");
    }
    const bool metadata = (labels != nullptr && !labels->empty()) ||
                          (annotations != nullptr && !annotations->empty());
    if (metadata) {
      if (plan_.patches.empty()) plan_.patches.push_back({manager_, true, {}});
      plan_.patches.front().jobset_metadata = true;
    }
    if (plan_.errors.empty()) {
      if (shape_ == Shape::kRuntimePatches) {
        BuildData(overrides, labels, annotations);
      } else {
        BuildPreviewData(overrides, labels, annotations);
      }
    }
    return std::move(plan_);
  }

 private:
  void Fail(Location at, const FieldPath& path, std::string message) {
    plan_.errors.push_back(AsInputError(MakeError(at, path.Upstream(), std::move(message))));
  }

  void NoPlace(Location at, const FieldPath& path, const char* where) {
    Fail(at, path, std::string("cannot migrate: ") + where + " has no such field");
  }

  void CheckPodSpec(const doc::Node& spec, const FieldPath& path) {
    if (!spec.is_mapping()) {
      if (!spec.is_null()) Fail(spec.location(), path, "must be an object");
      return;
    }
    for (const doc::Field& field : spec.fields()) {
      const FieldPath at = path.Field(field.key);
      if (!HasField(kToTarget, "PodSpecPatch", field.key)) {
        NoPlace(field.key_location, at, "runtimePatches' PodSpecPatch");
        continue;
      }
      if (field.key != "containers" && field.key != "initContainers") continue;
      if (!field.value.is_sequence()) continue;
      for (std::size_t i = 0; i < field.value.size(); ++i) {
        const doc::Node& container = field.value[i];
        if (!container.is_mapping()) continue;
        for (const doc::Field& inner : container.fields()) {
          if (!HasField(kToTarget, "ContainerPatch", inner.key)) {
            NoPlace(inner.key_location, at.Index(i).Field(inner.key),
                    "runtimePatches' ContainerPatch");
          }
        }
      }
    }
  }

  void PlanOverrides(const doc::Node& overrides) {
    const FieldPath path = spec_path_.Field("podTemplateOverrides");
    if (overrides.is_null()) return;
    if (!overrides.is_sequence()) {
      Fail(overrides.location(), path, "must be a list");
      return;
    }
    std::vector<std::string> current_jobs;
    for (std::size_t i = 0; i < overrides.size(); ++i) {
      const doc::Node& override = overrides[i];
      const FieldPath at = path.Index(i);
      if (!override.is_mapping()) {
        Fail(override.location(), at, "must be an object");
        continue;
      }
      for (const doc::Field& field : override.fields()) {
        if (!HasField(kFromTarget, "PodTemplateOverride", field.key)) {
          NoPlace(field.key_location, at.Field(field.key), "a RuntimePatch's replicatedJobs entry");
        }
      }
      if (const doc::Node* spec = override.Find("spec")) CheckPodSpec(*spec, at.Field("spec"));
      const doc::Node* targets = override.Find("targetJobs");
      if (targets == nullptr || !targets->is_sequence() || targets->empty()) {
        Fail(targets != nullptr ? targets->location() : override.location(), at.Field("targetJobs"),
             "an override without targetJobs patches no job; remove it or name the jobs");
        continue;
      }
      std::vector<PlannedJob> jobs;
      for (std::size_t t = 0; t < targets->size(); ++t) {
        const doc::Node* name = (*targets)[t].is_mapping() ? (*targets)[t].Find("name") : nullptr;
        const FieldPath target_path = at.Field("targetJobs").Index(t);
        if (name == nullptr || !name->is_string() || name->string_value().empty()) {
          Fail((*targets)[t].location(), target_path.Field("name"), "must be a job name");
          continue;
        }
        for (const doc::Field& field : (*targets)[t].fields()) {
          if (field.key != "name") NoPlace(field.key_location, target_path.Field(field.key), "a replicatedJobs entry");
        }
        bool repeated = false;
        for (const PlannedJob& job : jobs) repeated = repeated || job.name == name->string_value();
        if (repeated) {
          Fail(name->location(), target_path.Field("name"),
               "names a job twice; the override would apply to it twice");
          continue;
        }
        jobs.push_back({name->string_value(), i, t});
      }
      bool clash = plan_.patches.empty() || shape_ == Shape::kTemplateOverridesPreview;
      for (const PlannedJob& job : jobs) {
        clash = clash ||
                std::find(current_jobs.begin(), current_jobs.end(), job.name) != current_jobs.end();
      }
      if (clash) {
        const std::size_t number = plan_.patches.size() + 1;
        plan_.patches.push_back(
            {number == 1 ? manager_ : manager_ + "-" + std::to_string(number), false, {}});
        current_jobs.clear();
      }
      for (PlannedJob& job : jobs) {
        current_jobs.push_back(job.name);
        plan_.patches.back().jobs.push_back(std::move(job));
      }
    }
  }

  void BuildData(const doc::Node* overrides, const doc::Node* labels,
                 const doc::Node* annotations) {
    plan_.runtime_patches = doc::Node::Sequence();
    for (const PlannedPatch& patch : plan_.patches) {
      doc::Node template_patch = doc::Node::Mapping();
      if (patch.jobset_metadata) {
        doc::Node metadata = doc::Node::Mapping();
        if (labels != nullptr && !labels->empty()) metadata.Set("labels", *labels);
        if (annotations != nullptr && !annotations->empty()) {
          metadata.Set("annotations", *annotations);
        }
        template_patch.Set("metadata", std::move(metadata));
      }
      if (!patch.jobs.empty()) {
        doc::Node jobs = doc::Node::Sequence();
        for (const PlannedJob& job : patch.jobs) jobs.push_back(JobEntry(job, *overrides));
        doc::Node spec = doc::Node::Mapping();
        spec.Set("replicatedJobs", std::move(jobs));
        template_patch.Set("spec", std::move(spec));
      }
      doc::Node runtime_spec = doc::Node::Mapping();
      runtime_spec.Set("template", std::move(template_patch));
      doc::Node entry = doc::Node::Mapping();
      entry.Set("manager", doc::Node::String(patch.manager));
      entry.Set("trainingRuntimeSpec", std::move(runtime_spec));
      plan_.runtime_patches.push_back(std::move(entry));
    }
  }

  // templateOverrides (PR #3199): one pod item per entry, as the override
  // was written (targetJobs, metadata, spec).
  void BuildPreviewData(const doc::Node* overrides, const doc::Node* labels,
                        const doc::Node* annotations) {
    plan_.runtime_patches = doc::Node::Sequence();
    for (const PlannedPatch& patch : plan_.patches) {
      doc::Node entry = doc::Node::Mapping();
      entry.Set("manager", doc::Node::String(patch.manager));
      if (patch.jobset_metadata) {
        doc::Node metadata = doc::Node::Mapping();
        if (labels != nullptr && !labels->empty()) metadata.Set("labels", *labels);
        if (annotations != nullptr && !annotations->empty()) {
          metadata.Set("annotations", *annotations);
        }
        doc::Node job = doc::Node::Mapping();
        job.Set("metadata", std::move(metadata));
        doc::Node jobs = doc::Node::Sequence();
        jobs.push_back(std::move(job));
        entry.Set("job", std::move(jobs));
      }
      if (!patch.jobs.empty()) {
        const doc::Node& override = (*overrides)[patch.jobs.front().override_index];
        doc::Node pod = doc::Node::Mapping();
        for (const char* part : {"targetJobs", "metadata", "spec"}) {
          if (const doc::Node* value = override.Find(part)) pod.Set(part, *value);
        }
        doc::Node pods = doc::Node::Sequence();
        pods.push_back(std::move(pod));
        entry.Set("pod", std::move(pods));
      }
      plan_.runtime_patches.push_back(std::move(entry));
    }
  }

  static doc::Node JobEntry(const PlannedJob& job, const doc::Node& overrides) {
    const doc::Node& override = overrides[job.override_index];
    doc::Node entry = doc::Node::Mapping();
    entry.Set("name", doc::Node::String(job.name));
    doc::Node pod = doc::Node::Mapping();
    if (const doc::Node* metadata = override.Find("metadata")) pod.Set("metadata", *metadata);
    if (const doc::Node* spec = override.Find("spec")) pod.Set("spec", *spec);
    if (pod.empty()) return entry;
    doc::Node job_spec = doc::Node::Mapping();
    job_spec.Set("template", std::move(pod));
    doc::Node job_template = doc::Node::Mapping();
    job_template.Set("spec", std::move(job_spec));
    entry.Set("template", std::move(job_template));
    return entry;
  }

  const doc::Node& spec_;
  const std::string& manager_;
  const Shape shape_;
  const FieldPath spec_path_ = FieldPath().Field("spec");
  Plan plan_;
};

}  // namespace

std::string CheckManager(const std::string& manager) {
  const std::size_t slash = manager.find('/');
  if (slash == std::string::npos || slash == 0 || slash + 1 == manager.size()) {
    return "must be a domain-prefixed path (such as \"acme.io/foo\")";
  }
  if (!IsDns1123Subdomain(std::string_view(manager).substr(0, slash))) {
    return "the part before '/' must be a lowercase RFC 1123 subdomain";
  }
  for (char c : std::string_view(manager).substr(slash + 1)) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    std::string_view("/-._~%!$&'()*+,;=:").find(c) != std::string_view::npos;
    if (!ok) return "the path after '/' may hold only [A-Za-z0-9/-._~%!$&'()*+,;=:]";
  }
  // The longest suffix the planner adds ("-16": RuntimePatches has MaxItems 16).
  if (manager.size() + 3 > 253) return "must be at most 250 characters (253 with a suffix)";
  return {};
}

const char* FieldName(Shape shape) {
  return shape == Shape::kRuntimePatches ? "runtimePatches" : "templateOverrides";
}

Plan PlanTrainJob(const doc::Node& trainjob, const std::string& manager, Shape shape) {
  const doc::Node* spec = trainjob.is_mapping() ? trainjob.Find("spec") : nullptr;
  if (spec == nullptr || !spec->is_mapping()) {
    Plan plan;
    plan.shape = shape;
    return plan;
  }
  return Planner(*spec, manager, shape).Run();
}

}  // namespace tjr::migrate
