#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "base/diagnostic.h"
#include "pipeline/pipeline.h"
#include "report/finding.h"
#include "report/ignore.h"
#include "source/loader.h"

// A run's findings as the use cases collect them: the repository's ignore
// rules applied, counted, and kept for the reports. Printing is the
// caller's (cli::FindingsOutput shows them as they arrive).
namespace tjr::app {

class Findings {
 public:
  /// Shown as each one arrives, on the calling thread: `kept` gets every
  /// finding the ignore rules let through, `ignored` the others, `note`
  /// the notes (which are never findings). Unset: nothing is shown.
  struct Observers {
    std::function<void(const Diagnostic&)> kept;
    std::function<void(const Diagnostic&, const report::Finding&)> ignored;
    std::function<void(const Diagnostic&)> note;
  };
  void SetObservers(Observers observers) { observers_ = std::move(observers); }

  void SetIgnores(report::Ignores ignores) { ignores_ = std::move(ignores); }
  /// Where findings are shown: every finding's location goes through `map`
  /// first (the KRM function maps lines of its ResourceList to the items'
  /// files). The objects findings are about are found before, from the
  /// locations as read.
  void SetLocationMap(std::function<Location(const Location&)> map) { location_map_ = std::move(map); }
  /// Every finding's message goes through `map` too (the KRM function names
  /// the items' files where a message names another object's location, and
  /// drops its stand-in namespace).
  void SetMessageMap(std::function<std::string(const std::string&)> map) { message_map_ = std::move(map); }
  /// Whether the ignore rules silence `diagnostic` about `object` (only
  /// reads the rules: safe from worker threads).
  bool Ignores(const report::ObjectRef& object, const Diagnostic& diagnostic) const {
    return report::Ignored(ignores_, report::MakeFinding(diagnostic, object));
  }

  /// One finding (a note is only shown).
  void Add(const Diagnostic& diagnostic, const report::ObjectRef& object = {});
  void Add(const Diagnostics& diagnostics, const report::ObjectRef& object = {});
  /// Keeps a finding for the reports without showing it (a command that
  /// prints its own findings, such as conformance).
  void Record(const Diagnostic& diagnostic, const report::ObjectRef& object = {});
  /// An object that was checked (JUnit lists clean ones too).
  void AddSubject(report::ObjectRef subject) { results_.subjects.push_back(std::move(subject)); }
  void AddRendered(std::size_t objects) { results_.objects_rendered += objects; }
  /// Objects validated besides the TrainJobs AddResult counts (runtimes).
  void AddChecked(std::size_t objects) { results_.objects_checked += objects; }

  /// Before a pipeline run over `manifests`: takes the loader's findings and
  /// its count of skipped files, the ignore rules (`global` and the
  /// manifests' annotations) and makes `options` skip the warnings they
  /// silence.
  void BeginRun(const source::ManifestSet& manifests, const std::vector<report::IgnoreRule>& global,
                pipeline::PipelineOptions* options);
  /// One TrainJob's result: a subject, its objects counted, its findings;
  /// returns its ObjectRef.
  report::ObjectRef AddResult(const pipeline::TrainJobResult& result);

  /// Everything kept so far, for the report formats.
  const report::Results& results() const { return results_; }
  /// The findings kept so far (after ignore rules).
  const std::vector<report::Finding>& findings() const { return results_.findings; }
  bool has_errors() const { return errors_ > 0; }
  bool has_input_errors() const { return input_errors_ > 0; }
  /// Errors of unusable input kept so far (exit 2).
  std::size_t input_errors() const { return input_errors_; }

 private:
  Observers observers_;
  report::Ignores ignores_;
  std::function<Location(const Location&)> location_map_;
  std::function<std::string(const std::string&)> message_map_;
  report::Results results_;
  std::size_t errors_ = 0;
  std::size_t input_errors_ = 0;
};

/// The ObjectRef of a TrainJob or runtime id.
report::ObjectRef RefOf(const std::string& api_version, const std::string& kind,
                        const std::string& namespace_, const std::string& name);
report::ObjectRef RefOf(const doc::ObjectId& id);

/// The object a pipeline-summary finding (a runtime's) is about: the
/// manifest of the finding's file that starts last at or before its line;
/// unknown when none does.
report::ObjectRef ObjectAt(const source::ManifestSet& manifests, const Diagnostic& diagnostic);

/// The repository's ignore rules (`global`) and every manifest's ignore
/// annotations; an annotation without a reason is itself a finding.
report::Ignores CollectIgnores(const std::vector<report::IgnoreRule>& global,
                               const source::ManifestSet& manifests, Findings* findings);

}  // namespace tjr::app
