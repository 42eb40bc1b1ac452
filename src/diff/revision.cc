#include "diff/revision.h"

#include <utility>

#include "pipeline/target.h"
#include "render/runtime_snapshot.h"
#include "trainer/defaulting.h"
#include "trainer/runtime_ref.h"

namespace tjr::diff {
namespace {

bool IsTrainJob(const doc::ObjectId& id) {
  return id.api_version == trainer::kTrainerApiVersion && id.kind == "TrainJob";
}

std::string Key(const doc::ObjectId& id) { return id.namespace_ + "/" + id.name; }

}  // namespace

RevisionRender RenderRevision(const source::ManifestSet& manifests,
                              const pipeline::PipelineOptions& options,
                              const std::set<std::string>* only) {
  RevisionRender revision;
  revision.diagnostics = manifests.diagnostics;
  const source::ManifestSet* input = &manifests;
  source::ManifestSet selected;
  if (only != nullptr) {
    // Nodes are shared handles: the copy costs a reference count each.
    for (const source::Manifest& manifest : manifests.manifests) {
      if (!IsTrainJob(manifest.id) || only->count(Key(manifest.id)) != 0) {
        selected.manifests.push_back(manifest);
      }
    }
    input = &selected;
  }
  pipeline::PipelineSummary summary =
      pipeline::RenderManifests(*input, options, [&](pipeline::TrainJobResult&& result) {
        revision.train_jobs.push_back(std::move(result));
      });
  revision.diagnostics.insert(revision.diagnostics.end(), summary.diagnostics.begin(),
                              summary.diagnostics.end());
  return revision;
}

void QualifyFiles(RevisionRender* revision, const std::string& prefix) {
  auto qualify = [&](Diagnostic& d) {
    if (d.location.known()) d.location.file = InternSourceName(prefix + *d.location.file);
  };
  for (Diagnostic& d : revision->diagnostics) qualify(d);
  for (pipeline::TrainJobResult& result : revision->train_jobs) {
    for (Diagnostic& d : result.diagnostics) qualify(d);
  }
}

std::map<std::string, doc::Node> RuntimeSnapshots(const RevisionRender& base) {
  std::map<std::string, doc::Node> snapshots;
  for (const pipeline::TrainJobResult& result : base.train_jobs) {
    if (result.has_errors()) continue;
    for (const doc::Node& object : result.objects) {
      if (render::IsRuntimeSnapshotOf(object, result.id.name)) snapshots.emplace(Key(result.id), object);
    }
  }
  return snapshots;
}

std::map<std::string, doc::Node> StoredTrainJobs(const source::ManifestSet& base, std::string_view stored_by,
                                                 std::string_view read_by) {
  auto table = [](std::string_view target) {
    const pipeline::TargetProfile* profile = pipeline::FindTarget(target);
    // Targets are checked before; an unknown one renders nothing anyway.
    return trainer::ReleaseOf(profile != nullptr ? profile->version : trainer::kDefaultRelease).crd_defaults;
  };
  std::map<std::string, doc::Node> stored;
  for (const source::Manifest& manifest : base.manifests) {
    if (!IsTrainJob(manifest.id)) continue;
    doc::Node trainjob = manifest.object;
    if (!trainer::ApplyBuiltinDefaults(trainjob, table(stored_by)).ok()) continue;
    if (read_by != stored_by && !trainer::ApplyBuiltinDefaults(trainjob, table(read_by)).ok()) continue;
    stored.emplace(Key(manifest.id), std::move(trainjob));
  }
  return stored;
}

}  // namespace tjr::diff
