#pragma once

#include <cstddef>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "app/findings.h"
#include "app/render_source.h"
#include "base/diagnostic.h"
#include "batch/output_tree.h"
#include "doc/node.h"
#include "flyte/render.h"
#include "pipeline/pipeline.h"
#include "source/loader.h"

// The use case behind `tjrender render` and `tjrender check`: a repository
// (a working tree, a Git revision, or the TrainJobs changed since one) read,
// rendered as the Trainer controller and Flyte would, its findings
// collected under the repository's ignore rules, and the objects written
// where the request says. The CLI parses flags into a RenderRequest and
// prints what arrives at the sink and the findings.
namespace tjr::app {

/// Where RenderRepository puts the rendered objects.
enum class ObjectsTo {
  kNowhere,      ///< `check`: validate only
  kStream,       ///< one stream through RenderSink::Data (`render -o -`)
  kFolder,       ///< DIR/<namespace>/<trainjob>.yaml, atomically, stale files pruned (`--out DIR`)
  kFolderCheck,  ///< compare with DIR and write nothing; differences are findings (`--out DIR --check`)
};

struct RenderRequest {
  SourceRequest source;
  /// A Trainer target in any spelling CanonicalTarget knows, or a Flyte one
  /// (flyte-v1.16, flyte-v2: the Flyte version; Trainer then takes the
  /// repository's). Empty: `.tjrender.yaml`'s `target:`, else
  /// pipeline::kDefaultTarget.
  std::string target;
  /// The namespace of objects written without one; set, objects written
  /// with another are refused. Empty: "default", and objects keep theirs.
  std::string default_namespace;
  bool strict = false;         ///< warnings are errors
  bool admission = true;       ///< the cluster's admission of the rendered objects (PipelineOptions::admission)
  bool strict_inputs = false;  ///< files that hold no Kubernetes object are errors, not skipped
  unsigned threads = 0;        ///< 0: one per core; the output does not depend on it
  std::string flyte_config_file;  ///< propeller's configuration (plugins.k8s); empty: none
  /// The same configuration as the file's documents, for a caller that
  /// holds them (conformance keeps a case's files in memory); wins over
  /// the file.
  std::optional<std::vector<doc::Node>> flyte_config;
  ObjectsTo objects = ObjectsTo::kNowhere;
  std::string out_dir;  ///< for kFolder and kFolderCheck
  /// kFolder: how long to wait for another run writing out_dir.
  double out_lock_timeout_seconds = batch::OutputOptions{}.lock_timeout_seconds;
  bool json = false;    ///< objects as JSON texts instead of YAML documents
  bool for_apply = false;  ///< pipeline::PrepareForApply on every TrainJob's objects
  /// TrainJobs that the base revision (--since) has too are validated as
  /// updates of them, as the API server would (`check`).
  bool validate_as_updates = false;
  /// With source.since: send the affected TrainJobs ("namespace/name"
  /// lines) to RenderSink::Data and render nothing.
  bool list_affected = false;
  /// The command that brings out_dir up to date, for kFolderCheck's findings.
  std::string rerun_command;
  /// What the cluster holds already (pipeline::PipelineOptions has the
  /// details): stored TrainJobs, validated as updates; their JobSets; the
  /// runtime snapshots; the PriorityClass names (nullopt: unknown). Empty:
  /// a new cluster, or with validate_as_updates the base revision's TrainJobs.
  struct ClusterState {
    std::map<std::string, doc::Node> trainjobs;
    std::map<std::string, doc::Node> jobsets;
    std::map<std::string, doc::Node> runtime_snapshots;
    std::optional<std::vector<std::string>> priority_classes;
  } cluster;
  /// TrainJobs whose render inputs their results keep, for explain
  /// (pipeline::PipelineOptions::keep_inputs); unset, none.
  std::function<bool(const source::Manifest&)> keep_inputs;
  /// Flyte tasks keep their trace (flyte::FlyteOptions::keep_traces), for explain.
  bool keep_flyte_traces = false;
};

/// What a run shows besides its findings, on the calling thread, in order.
class RenderSink {
 public:
  virtual ~RenderSink() = default;
  /// Data for stdout: the objects of ObjectsTo::kStream in pieces, or the
  /// listing of list_affected.
  virtual void Data(std::string_view bytes) = 0;
  /// A problem outside the findings: a usage error, an input the run cannot
  /// use, an output it could not write.
  virtual void Problem(const Diagnostic& problem) = 0;
  /// What --verbose shows.
  virtual void Note(std::string_view text) = 0;
  /// What is shown without --verbose too: a choice the run made for the
  /// user that changes every result (the target a repository pin chose).
  virtual void Notice(std::string_view text) { Note(text); }
  /// Each TrainJob's result and each Flyte task's, in order, before its
  /// findings and its objects go anywhere (conformance compares them).
  virtual void Rendered(const pipeline::TrainJobResult& result) { (void)result; }
  virtual void Rendered(const flyte::TaskResult& task) { (void)task; }
  /// Progress: `total` TrainJobs to render; a pause before findings are
  /// shown; one TrainJob done.
  virtual void ProgressStart(std::size_t total) { (void)total; }
  virtual void ProgressPause() {}
  virtual void ProgressTick() {}
};

enum class RenderEnd {
  kRefused,   ///< a usage error or an unusable input stopped it before rendering (reported)
  kListed,    ///< list_affected: the listing went to RenderSink::Data
  kRendered,  ///< rendered: the findings are complete
};

struct RenderOutcome {
  RenderEnd end = RenderEnd::kRefused;
  /// A problem outside the findings spoils the result (an output not
  /// written, inputs that changed while read, a listing of unreadable input).
  bool input_error = false;
  /// What was read, for --verbose.
  std::size_t files = 0;
  std::size_t train_jobs = 0;
  std::size_t runtimes = 0;
  std::size_t skipped_files = 0;
  std::map<source::KindKey, std::size_t> ignored_kinds;
};

/// Runs the request: opens the source, finds the target and the affected
/// set, loads (keeping lone TrainJobs as skeletons read again by their
/// worker), renders every TrainJob and Flyte task, puts the objects where
/// `request.objects` says and adds every finding to `findings` (which must
/// outlive the call; the caller writes its reports).
RenderOutcome RenderRepository(const RenderRequest& request, Findings& findings, RenderSink& sink);

}  // namespace tjr::app
