#include "batch/inventory.h"

#include <algorithm>
#include <tuple>

#include "trainer/runtime_ref.h"

namespace tjr::batch {
namespace {

constexpr char kTrainingRuntime[] = "TrainingRuntime";
constexpr char kClusterTrainingRuntime[] = "ClusterTrainingRuntime";

// Where the API server's defaults of spec.runtimeRef (CRD lines 3981 and
// 3987 of trainer.kubeflow.org_trainjobs.yaml, v2.1.0) send the TrainJob.
std::string ReferencedKey(const doc::Node& trainjob, const std::string& namespace_) {
  Result<trainer::RuntimeRef> ref = trainer::ReadRuntimeRef(trainjob);
  if (!ref.ok()) return std::string();
  if (ref->api_group.value_or(std::string(trainer::kTrainerGroup)) != trainer::kTrainerGroup) {
    return std::string();
  }
  std::string kind = ref->kind.value_or(kClusterTrainingRuntime);
  if (kind == kClusterTrainingRuntime) return RuntimeKey(kind, "", ref->name);
  if (kind == kTrainingRuntime) return RuntimeKey(kind, namespace_, ref->name);
  return std::string();
}

}  // namespace

std::string RuntimeKey(const std::string& kind, const std::string& namespace_,
                       const std::string& name) {
  if (kind == kClusterTrainingRuntime) return kind + "/" + name;
  return kind + "/" + namespace_ + "/" + name;
}

bool SummarizeOne(const source::Manifest& manifest, Entry* entry) {
  if (manifest.id.api_version != trainer::kTrainerApiVersion) return false;
  const std::string& kind = manifest.id.kind;
  if (kind != "TrainJob" && kind != kTrainingRuntime && kind != kClusterTrainingRuntime) {
    return false;
  }
  entry->kind = kind;
  entry->namespace_ = manifest.id.namespace_;
  entry->name = manifest.id.name;
  entry->file = manifest.file;
  entry->line = manifest.location().line;
  entry->column = manifest.location().column;
  entry->runtime_key.clear();
  if (kind == "TrainJob") entry->runtime_key = ReferencedKey(manifest.object, entry->namespace_);
  return true;
}

std::vector<Entry> Summarize(const source::ManifestSet& set) {
  std::vector<Entry> entries;
  entries.reserve(set.manifests.size());
  for (const source::Manifest& manifest : set.manifests) {
    Entry entry;
    if (SummarizeOne(manifest, &entry)) entries.push_back(std::move(entry));
  }
  return entries;
}

Inventory::Inventory(std::vector<Entry> entries) {
  trainjobs_.reserve(entries.size());
  for (Entry& entry : entries) {
    if (entry.is_trainjob()) {
      trainjobs_.push_back(std::move(entry));
    } else {
      std::string key = entry.key();
      runtimes_.try_emplace(std::move(key), std::move(entry));  // the first one wins
    }
  }
  for (std::size_t i = 0; i < trainjobs_.size(); ++i) {
    if (!trainjobs_[i].runtime_key.empty()) references_[trainjobs_[i].runtime_key].push_back(i);
  }
}

const std::vector<std::size_t>& Inventory::ReferencesTo(const std::string& runtime_key) const {
  static const std::vector<std::size_t> kNone;
  auto found = references_.find(runtime_key);
  return found == references_.end() ? kNone : found->second;
}

}  // namespace tjr::batch
