#pragma once

#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/diagnostic.h"
#include "doc/node.h"
#include "doc/objects.h"
#include "render/render.h"
#include "source/loader.h"
#include "trainer/release.h"

// The whole of `tjrender render` that is not the command line: a loaded
// manifest set in, the objects the Trainer controller would create and the
// findings the cluster would report out.
namespace tjr::pipeline {

struct TrainJobResult;

/// What one TrainJob was rendered from, kept for `tjrender explain`
/// (PipelineOptions::keep_inputs), so the render can be replayed layer by
/// layer.
struct RenderInputs {
  doc::Node written;   ///< the TrainJob as written
  doc::Node trainjob;  ///< as the controller reads it: defaulted and pruned
  doc::Node runtime;   ///< the runtime rendered against, defaulted (a kept snapshot's, when one applies)
  /// That runtime as written, before its defaults; null when it came from a
  /// snapshot the cluster holds.
  doc::Node runtime_written;
  trainer::TrainerVersion version = trainer::kDefaultRelease;
  std::string target;  ///< the target's name ("trainer-v2.3")
  /// The render's options; runtime_snapshot_text points into the copy below.
  render::RenderOptions options;
  std::string runtime_snapshot_text;
};

/// The rule id of the warning that an existing TrainJob renders against its
/// runtime snapshot, not the changed live runtime (PipelineOptions::runtime_snapshots).
inline constexpr std::string_view kRuntimeSnapshotKeptRule = "runtime-snapshot-kept";

/// The error that a TrainJob's runtime is defined more than once (the
/// loader keeps no copy: source::ManifestSet::duplicates), in place of
/// the webhook's "not found".
inline constexpr std::string_view kRuleDuplicateRuntime = "duplicate-runtime";

/// The warning beside the webhook's "not found" that a TrainJob's runtime is
/// among the inputs but refused by the API server's own checks (so never
/// stored).
inline constexpr std::string_view kRuleRuntimeRefused = "runtime-refused";

/// The note on a TrainJob written with generateName (source::Manifest::
/// generate_name): the placeholder it is rendered under and what holds it.
inline constexpr std::string_view kRuleGeneratedName = "generated-name";

struct PipelineOptions {
  /// The emulated Trainer version (see SupportedTargets(); target.h has the
  /// profile each name selects).
  std::string target = "trainer-v2.3";
  /// The namespace of objects written without one (the loader has already
  /// placed kept objects in it; runtime resolution needs it too).
  std::string default_namespace = "default";
  /// Warnings, ours and upstream's, become errors: the TrainJob renders
  /// nothing.
  bool strict = false;
  /// The cluster's admission of the rendered objects (admission/admission.h):
  /// a JobSet, Job, ConfigMap or PodGroup the cluster refuses is an error.
  bool admission = true;
  /// Warnings the repository ignores (about the object `id`) stay warnings
  /// under `strict`; unset, every warning becomes an error. Called from
  /// worker threads.
  std::function<bool(const doc::ObjectId& id, const Diagnostic& warning)> ignored_warning;
  /// Worker threads; 0 means std::thread::hardware_concurrency(). The output
  /// does not depend on it.
  unsigned threads = 0;
  /// At most this many finished TrainJobs wait for the sink at once, so
  /// memory stays flat however many TrainJobs there are.
  std::size_t window = 256;
  /// The cluster's state before this change, for updates: stored TrainJobs
  /// (API-server defaulted) and JobSets, by "namespace/name". A TrainJob
  /// with a previous version is validated as an update (the CRD's
  /// transition rules and the webhook's podTemplateOverrides checks); the
  /// JobSet's status feeds the active-job check. Empty: every TrainJob is a
  /// create.
  std::map<std::string, doc::Node> previous_trainjobs;
  std::map<std::string, doc::Node> previous_jobsets;
  /// The runtime snapshots the cluster already holds (v2.3+: ConfigMap
  /// `<trainjob>-runtime-snapshot`), by "namespace/name" of their TrainJob.
  /// A TrainJob with one renders against it, checked as the controller
  /// checks it (owner, `runtime` key, decoding, the runtime it names), while
  /// the webhook still validates against the live runtime; when the two
  /// differ a `runtime-snapshot-kept` warning says the runtime's change does
  /// not reach the TrainJob.
  std::map<std::string, doc::Node> runtime_snapshots;
  /// The cluster's PriorityClass names, for the Volcano plugin's lookup;
  /// nullopt (the cluster is unknown) skips that check.
  std::optional<std::vector<std::string>> priority_classes;
  /// Runs on the worker thread as soon as a TrainJob is rendered, before
  /// its result waits for its turn at the sink: a caller that serializes
  /// results does it here, on every core, rather than on the sink's thread
  /// (which would then take a third of the run). Must be thread-safe.
  std::function<void(TrainJobResult&)> finish;
  /// Reads a released TrainJob (source::Manifest::released) again, on the
  /// worker that renders it (source::ReloadObject). Must be thread-safe.
  std::function<Result<doc::Node>(const source::Manifest&)> reload;
  /// TrainJobs whose RenderInputs their result keeps (explain); unset, none
  /// does. Called from worker threads.
  std::function<bool(const source::Manifest& manifest)> keep_inputs;
};

/// What one TrainJob produced.
struct TrainJobResult {
  doc::ObjectId id;  ///< the TrainJob's apiVersion/kind/namespace/name
  std::string file;  ///< the file it was read from
  /// The rendered objects in Render's order; empty when an error stopped it.
  std::vector<doc::Node> objects;
  /// Errors, warnings and notes about this TrainJob, in the order found.
  Diagnostics diagnostics;
  /// What PipelineOptions::finish made of `objects` (the caller's own
  /// format), else empty.
  std::string encoded;
  /// What it was rendered from, when PipelineOptions::keep_inputs asked.
  std::shared_ptr<const RenderInputs> inputs;

  bool has_errors() const;
};

/// Receives each TrainJob's result, on the calling thread, in TrainJob order.
using TrainJobSink = std::function<void(TrainJobResult&&)>;

/// Findings that are not about one TrainJob.
struct PipelineSummary {
  /// An unsupported target, runtimes the API server would refuse (defaulting
  /// or webhook errors; such a runtime is not stored, so TrainJobs that
  /// reference it find nothing) and their warnings.
  Diagnostics diagnostics;
  std::size_t train_jobs = 0;
  std::size_t runtimes = 0;
  /// False when the target was refused (nothing was rendered).
  bool ran = false;
};

/// The targets RenderManifests emulates, by name, oldest first
/// ("trainer-v2.1", "trainer-v2.2", "trainer-v2.3").
const std::vector<std::string>& SupportedTargets();

/// SupportedTargets() as one comma-separated list, for messages.
std::string SupportedTargetList();

/// Renders every TrainJob of `manifests` as the cluster would handle it:
///  1. runtimes ((Cluster)TrainingRuntime) get the API server's CRD
///     defaults and the runtime webhook's checks, once, shared by all;
///  2. per TrainJob, ordered by (namespace, name): CRD defaults, schema and
///     CEL validation, runtimeRef resolution (the webhook's not-found text),
///     the webhook's plugin validation against the merged template, then
///     render::Render and the checks of warnings.h. An error stops that
///     TrainJob only; warnings are kept (errors under `strict`).
/// TrainJobs are rendered on `threads` workers; `sink` sees the results in
/// TrainJob order, so the output is the same for any thread count. The
/// loader's own diagnostics are not repeated here.
PipelineSummary RenderManifests(const source::ManifestSet& manifests,
                                const PipelineOptions& options, const TrainJobSink& sink);

/// Everything RenderManifests produced, held in memory.
struct PipelineResult {
  /// Rendered objects of all TrainJobs, TrainJob by TrainJob in order.
  std::vector<doc::Node> objects;
  /// The summary's diagnostics, then each TrainJob's in order.
  Diagnostics diagnostics;
  std::size_t train_jobs = 0;

  bool has_errors() const;
};

/// RenderManifests collecting every result (tests, conformance cases).
PipelineResult RenderManifests(const source::ManifestSet& manifests,
                               const PipelineOptions& options);

}  // namespace tjr::pipeline
