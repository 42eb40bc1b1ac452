#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "source/loader.h"

// The repository at a glance: every TrainJob and runtime with where it is
// written, and which TrainJobs reference each runtime. Small records only,
// so an inventory of 10,000 TrainJobs costs a few megabytes.
namespace tjr::batch {

/// "ClusterTrainingRuntime/<name>" or "TrainingRuntime/<namespace>/<name>":
/// the identity a runtimeRef resolves to.
std::string RuntimeKey(const std::string& kind, const std::string& namespace_,
                       const std::string& name);

/// One TrainJob or (Cluster)TrainingRuntime.
struct Entry {
  std::string kind;        ///< TrainJob, TrainingRuntime or ClusterTrainingRuntime
  std::string namespace_;  ///< as the loader placed it ("" when cluster-scoped)
  std::string name;
  std::string file;        ///< the file it was read from, as the loader names it
  std::uint32_t line = 0;
  /// The object's column, as a full read reports it (a finding at an object
  /// of an unchanged file says `b.yaml:1:1` with --since as without).
  std::uint32_t column = 0;
  /// TrainJobs: the RuntimeKey its spec.runtimeRef resolves to once the API
  /// server has defaulted it (apiGroup trainer.kubeflow.org, kind
  /// ClusterTrainingRuntime; a TrainingRuntime is looked up in the
  /// TrainJob's namespace). Empty when it names no runtime kind Trainer
  /// serves (the pipeline reports why).
  std::string runtime_key;

  bool is_trainjob() const { return kind == "TrainJob"; }
  /// "namespace/name"
  std::string id() const { return namespace_ + "/" + name; }
  /// RuntimeKey of a runtime entry.
  std::string key() const { return RuntimeKey(kind, namespace_, name); }
};

/// The entries of the kept Trainer objects of `set`, in its order.
std::vector<Entry> Summarize(const source::ManifestSet& set);

/// The entry of one kept manifest, or nothing when it is not a TrainJob or
/// runtime of the Trainer API.
bool SummarizeOne(const source::Manifest& manifest, Entry* entry);

/// TrainJobs and runtimes with the reverse index.
class Inventory {
 public:
  explicit Inventory(std::vector<Entry> entries);

  /// TrainJobs in the order given (not sorted: a caller that needs the
  /// pipeline's (namespace, name) order usually needs it for a few of ten
  /// thousand, and sorting all of them cost more than the rest of a run).
  const std::vector<Entry>& trainjobs() const { return trainjobs_; }
  /// Runtimes by RuntimeKey.
  const std::map<std::string, Entry>& runtimes() const { return runtimes_; }
  /// Indexes into trainjobs() of the TrainJobs referencing `runtime_key`
  /// (found or not), in order.
  const std::vector<std::size_t>& ReferencesTo(const std::string& runtime_key) const;

 private:
  std::vector<Entry> trainjobs_;
  std::map<std::string, Entry> runtimes_;
  std::map<std::string, std::vector<std::size_t>> references_;
};

}  // namespace tjr::batch
