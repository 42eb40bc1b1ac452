#include "app/findings.h"

#include "doc/objects.h"
#include "pipeline/target.h"
#include "validate/validate.h"

namespace tjr::app {

void Findings::Add(const Diagnostic& found, const report::ObjectRef& object) {
  Diagnostic diagnostic = found;
  if (location_map_) diagnostic.location = location_map_(found.location);
  if (message_map_) diagnostic.message = message_map_(found.message);
  if (diagnostic.severity == Severity::kNote) {
    if (observers_.note) observers_.note(diagnostic);
    return;
  }
  report::Finding finding = report::MakeFinding(diagnostic, object);
  if (report::Ignored(ignores_, finding)) {
    ++results_.ignored;
    if (observers_.ignored) observers_.ignored(diagnostic, finding);
    return;
  }
  if (diagnostic.severity == Severity::kError) {
    ++(diagnostic.category == Category::kInput ? input_errors_ : errors_);
  }
  if (observers_.kept) observers_.kept(diagnostic);
  results_.findings.push_back(std::move(finding));
}

void Findings::Add(const Diagnostics& diagnostics, const report::ObjectRef& object) {
  for (const Diagnostic& d : diagnostics) Add(d, object);
}

void Findings::BeginRun(const source::ManifestSet& manifests, const std::vector<report::IgnoreRule>& global,
                        pipeline::PipelineOptions* options) {
  Add(manifests.diagnostics);
  // kustomize patch files are no objects, but what they set gets the
  // TrainJob's types once kustomize merges them.
  if (const pipeline::TargetProfile* target = pipeline::FindTarget(options->target)) {
    for (const doc::Node& patch : manifests.trainjob_patches) {
      Add(validate::ValidateTrainJobPatchTypes(patch, target->version), RefOf(doc::ObjectId::Of(patch)));
    }
  }
  results_.files_skipped += manifests.skipped_files.size();
  SetIgnores(CollectIgnores(global, manifests, this));
  // Only reads the rules: safe from the pipeline's worker threads.
  options->ignored_warning = [this](const doc::ObjectId& id, const Diagnostic& d) {
    return Ignores(RefOf(id), d);
  };
}

report::ObjectRef Findings::AddResult(const pipeline::TrainJobResult& result) {
  report::ObjectRef ref = RefOf(result.id);
  AddSubject(ref);
  AddChecked(1);
  AddRendered(result.objects.size());
  Add(result.diagnostics, ref);
  return ref;
}

void Findings::Record(const Diagnostic& diagnostic, const report::ObjectRef& object) {
  results_.findings.push_back(report::MakeFinding(diagnostic, object));
}

report::ObjectRef RefOf(const std::string& api_version, const std::string& kind,
                        const std::string& namespace_, const std::string& name) {
  return report::ObjectRef{api_version, kind, namespace_, name};
}

report::ObjectRef RefOf(const doc::ObjectId& id) {
  return RefOf(id.api_version, id.kind, id.namespace_, id.name);
}

report::ObjectRef ObjectAt(const source::ManifestSet& manifests, const Diagnostic& diagnostic) {
  const Location& at = diagnostic.location;
  const source::Manifest* best = nullptr;
  if (!at.known() || at.line == 0) return {};
  for (const source::Manifest& m : manifests.manifests) {
    const Location& start = m.location();
    if (!start.known() || *start.file != *at.file || start.line > at.line) continue;
    if (best == nullptr || start.line >= best->location().line) best = &m;
  }
  if (best == nullptr) return {};
  return RefOf(best->id);
}

report::Ignores CollectIgnores(const std::vector<report::IgnoreRule>& global,
                               const source::ManifestSet& manifests, Findings* findings) {
  report::Ignores ignores;
  ignores.global = global;
  for (const source::Manifest& manifest : manifests.manifests) {
    Diagnostics problems;
    std::vector<report::IgnoreRule> rules = report::ObjectIgnores(manifest.object, &problems);
    report::ObjectRef ref = RefOf(manifest.id);
    findings->Add(problems, ref);
    if (!rules.empty()) ignores.by_object[ref.Key()] = std::move(rules);
  }
  return ignores;
}

}  // namespace tjr::app
