#include "pipeline/pipeline.h"

#include <algorithm>
#include <thread>
#include <unordered_map>
#include <utility>

#include "admission/admission.h"
#include "base/ordered_parallel.h"
#include "gocompat/strconv.h"
#include "pipeline/ignored_fields.h"
#include "pipeline/kept_runtime.h"
#include "pipeline/patch_warnings.h"
#include "pipeline/target.h"
#include "pipeline/warnings.h"
#include "render/runtime_patches.h"
#include "render/render.h"
#include "render/runtime_snapshot.h"
#include "doc/path.h"
#include "render/tree.h"
#include "trainer/defaulting.h"
#include "trainer/runtime_ref.h"
#include "validate/crd_rules.h"
#include "validate/stored_object.h"
#include "validate/validate.h"
#include "yaml/reader.h"

namespace tjr::pipeline {
namespace {

void Append(Diagnostics* to, Diagnostics from) {
  to->insert(to->end(), std::make_move_iterator(from.begin()),
             std::make_move_iterator(from.end()));
}

// Under --strict a warning is an error; notes stay notes, and so do
// warnings the repository ignores.
void ApplyStrict(Diagnostics* diagnostics, const PipelineOptions& options,
                 const doc::ObjectId& id) {
  if (!options.strict) return;
  for (Diagnostic& d : *diagnostics) {
    if (d.severity != Severity::kWarning) continue;
    if (options.ignored_warning && options.ignored_warning(id, d)) continue;
    d.severity = Severity::kError;
  }
}

bool IsRuntimeKind(const std::string& kind) {
  return kind == "TrainingRuntime" || kind == "ClusterTrainingRuntime";
}

// What every TrainJob shares: the runtimes as the API server stores them.
struct SharedRuntimes {
  std::vector<doc::Node> stored;
  /// v2.3+: the snapshot text of each stored runtime that names its
  /// namespace (or is cluster-scoped), made once for all its TrainJobs;
  /// "" where the text depends on the TrainJob (a namespace-less
  /// TrainingRuntime) or the target takes no snapshots.
  std::vector<std::string> snapshot_texts;
  /// The objects the loader dropped as defined more than once.
  const std::vector<source::DuplicateObject>* duplicates = nullptr;
  /// The runtimes among the inputs the API server would refuse, each with
  /// where its first error is.
  struct Refused {
    doc::ObjectId id;
    Location first_error;
  };
  std::vector<Refused> refused;
  /// Each stored runtime as written, before its defaults (explain).
  std::vector<doc::Node> written;
  /// Where in `stored` the runtimes of each key (Key) are, in order: a
  /// TrainJob looks among those it may find only (N TrainJobs over N
  /// runtimes of their own namespaces took N² steps).
  std::unordered_map<std::string, std::vector<std::size_t>> by_key;

  // metadata.name, then the namespace (as trainer::ResolveRuntime reads
  // it), or none for a ClusterTrainingRuntime, which has no namespace.
  static std::string Key(const std::string& name, const std::string* namespace_) {
    std::string key = name;
    key += namespace_ == nullptr ? std::string(1, '\1') : '\0' + *namespace_;
    return key;
  }
  static std::string KeyOf(const doc::Node& runtime, const std::string& default_namespace) {
    const std::string name = doc::StringAtPath(runtime, {"metadata", "name"});
    if (doc::StringAtPath(runtime, {"kind"}) == "ClusterTrainingRuntime") return Key(name, nullptr);
    std::string ns = doc::StringAtPath(runtime, {"metadata", "namespace"});
    if (ns.empty()) ns = default_namespace;
    return Key(name, &ns);
  }

  // The stored runtimes a TrainJob in `namespace_` may find under `name`, in order.
  std::vector<doc::Node> Candidates(const std::string& name, const std::string& namespace_) const {
    std::vector<std::size_t> at;
    for (const std::string& key : {Key(name, nullptr), Key(name, &namespace_)}) {
      if (auto it = by_key.find(key); it != by_key.end()) at.insert(at.end(), it->second.begin(), it->second.end());
    }
    std::sort(at.begin(), at.end());
    std::vector<doc::Node> out;
    for (std::size_t i : at) out.push_back(stored[i]);
    return out;
  }

  // The runtime as written for `runtime` (a shared copy of a stored one), or null.
  doc::Node WrittenOf(const doc::Node& runtime) const {
    for (std::size_t i = 0; i < stored.size() && i < written.size(); ++i) {
      if (stored[i].SharesRepresentationWith(runtime)) return written[i];
    }
    return {};
  }

  // The text for `runtime` (a shared copy of a stored one), or "".
  std::string_view SnapshotTextOf(const doc::Node& runtime, const std::string& default_namespace) const {
    auto it = by_key.find(KeyOf(runtime, default_namespace));
    if (it == by_key.end()) return {};
    for (std::size_t i : it->second) {
      if (i < snapshot_texts.size() && stored[i].SharesRepresentationWith(runtime)) return snapshot_texts[i];
    }
    return {};
  }
};

SharedRuntimes PrepareRuntimes(const source::ManifestSet& manifests, const PipelineOptions& options,
                               const TargetProfile& target, PipelineSummary* summary) {
  SharedRuntimes shared;
  shared.duplicates = &manifests.duplicates;
  for (const source::Manifest& manifest : manifests.manifests) {
    if (manifest.id.api_version != trainer::kTrainerApiVersion || !IsRuntimeKind(manifest.id.kind)) {
      continue;
    }
    ++summary->runtimes;
    doc::Node runtime = manifest.object;
    const std::string_view defaults = trainer::ReleaseOf(target.version).crd_defaults;
    if (Status defaulted = trainer::DefaultBuiltin(runtime, defaults); !defaulted.ok()) {
      shared.refused.push_back({manifest.id, defaulted.error().location});
      summary->diagnostics.push_back(defaulted.take_error());
      continue;
    }
    Diagnostics findings = target.validate_runtime(runtime, target.version);
    bool refused = HasErrors(findings);
    if (refused) {
      for (const Diagnostic& finding : findings) {
        if (finding.severity != Severity::kError) continue;
        shared.refused.push_back({manifest.id, finding.location});
        break;
      }
    }
    ApplyStrict(&findings, options, manifest.id);
    Append(&summary->diagnostics, std::move(findings));
    // The API server would not have stored it: TrainJobs find no runtime.
    if (refused) continue;
    Diagnostics unwired = CheckMpiRuntime(runtime);
    ApplyStrict(&unwired, options, manifest.id);
    Append(&summary->diagnostics, std::move(unwired));
    shared.stored.push_back(std::move(runtime));
    shared.written.push_back(manifest.object);
  }
  for (std::size_t i = 0; i < shared.stored.size(); ++i) {
    shared.by_key[SharedRuntimes::KeyOf(shared.stored[i], options.default_namespace)].push_back(i);
  }
  if (trainer::ReleaseOf(target.version).runtime_snapshot) {
    for (const doc::Node& runtime : shared.stored) {
      // The TrainJob only lends its namespace, which such a runtime has.
      const bool own_namespace = doc::StringAtPath(runtime, {"kind"}) == "ClusterTrainingRuntime" ||
                                 !doc::StringAtPath(runtime, {"metadata", "namespace"}).empty();
      Result<std::string> text = own_namespace ? render::SnapshotText(doc::Node::Mapping(), runtime, target.version)
                                               : Result<std::string>(std::string());
      shared.snapshot_texts.push_back(text.ok() ? *std::move(text) : std::string());
    }
  }
  return shared;
}

// Where a finding about the TrainJob's runtimeRef points: its key.
Location RuntimeRefLocation(const doc::Node& trainjob) {
  if (const doc::Node* spec = trainjob.Find("spec"); spec != nullptr && spec->is_mapping()) {
    for (const doc::Field& field : spec->fields()) {
      if (field.key == "runtimeRef" && field.key_location.known()) return field.key_location;
    }
  }
  return trainjob.location();
}

// A runtime the TrainJob references but the loader dropped because it is
// defined more than once: the cluster holds whichever copy was applied
// last, so "not found" would send the user the wrong way.
std::optional<Diagnostic> DuplicatedRuntime(const doc::Node& trainjob, const std::string& trainjob_namespace,
                                            const SharedRuntimes& shared) {
  if (shared.duplicates == nullptr || shared.duplicates->empty()) return std::nullopt;
  Result<trainer::RuntimeRef> ref = trainer::ReadRuntimeRef(trainjob);
  if (!ref.ok() || ref->api_group.value_or("") != trainer::kTrainerGroup) return std::nullopt;
  const std::string kind = ref->kind.value_or("");
  const bool cluster = kind == "ClusterTrainingRuntime";
  for (const source::DuplicateObject& duplicate : *shared.duplicates) {
    if (duplicate.group != trainer::kTrainerGroup || duplicate.kind != kind || duplicate.name != ref->name ||
        (!cluster && duplicate.namespace_ != trainjob_namespace)) {
      continue;
    }
    std::string copies;
    for (const Location& copy : duplicate.copies) copies += (copies.empty() ? "" : ", ") + copy.ToString();
    const std::string what = kind + " " + (cluster ? "" : duplicate.namespace_ + "/") + duplicate.name;
    Diagnostic error = MakeError(RuntimeRefLocation(trainjob), "spec.runtimeRef",
                                 "[" + std::string(kRuleDuplicateRuntime) + "] the runtime " + what +
                                     " is defined more than once (" + copies +
                                     "; see the duplicate-object errors there): the cluster keeps whichever copy "
                                     "is applied last, so this TrainJob is not rendered or checked against either; "
                                     "keep one copy");
    error.rule = std::string(kRuleDuplicateRuntime);
    return error;
  }
  return std::nullopt;
}

// A runtime the TrainJob references that is among the inputs but refused
// by the API server's checks (its schema, CEL rules, the webhook): never
// stored, so the webhook's "not found" (kept: it is the cluster's answer)
// gets a warning beside it that says why.
std::optional<Diagnostic> RefusedRuntime(const doc::Node& trainjob, const std::string& trainjob_namespace,
                                         const SharedRuntimes& shared) {
  if (shared.refused.empty()) return std::nullopt;
  Result<trainer::RuntimeRef> ref = trainer::ReadRuntimeRef(trainjob);
  if (!ref.ok() || ref->api_group.value_or("") != trainer::kTrainerGroup) return std::nullopt;
  const std::string kind = ref->kind.value_or("");
  const bool cluster = kind == "ClusterTrainingRuntime";
  for (const SharedRuntimes::Refused& refused : shared.refused) {
    if (refused.id.kind != kind || refused.id.name != ref->name ||
        (!cluster && refused.id.namespace_ != trainjob_namespace)) {
      continue;
    }
    const std::string what = kind + " " + (cluster ? "" : refused.id.namespace_ + "/") + refused.id.name;
    return MakeWarning(RuntimeRefLocation(trainjob), kRuleRuntimeRefused,
                       "the runtime " + what +
                           " is among the inputs, but the API server refuses it (" + refused.first_error.ToString() +
                           "), so it is never stored and the TrainJob finds none; fix the runtime's error");
  }
  return std::nullopt;
}

// The field paths of `node` whose string values hold `name`, in document
// order, list items by their `name` where they have one.
void PathsHolding(const doc::Node& node, std::string_view name, const std::string& path,
                  std::vector<std::string>* out) {
  if (node.is_string()) {
    if (node.string_value().find(name) != std::string::npos) out->push_back(path);
  } else if (node.is_mapping()) {
    for (const doc::Field& field : node.fields()) {
      PathsHolding(field.value, name, path.empty() ? field.key : path + "." + field.key, out);
    }
  } else if (node.is_sequence()) {
    for (std::size_t i = 0; i < node.items().size(); ++i) {
      const doc::Node& item = node.items()[i];
      const std::string item_name = doc::StringAt(&item, "name");
      PathsHolding(item, name, path + (item_name.empty() ? "[" + std::to_string(i) + "]" : "[name=" + item_name + "]"),
                   out);
    }
  }
}

// A TrainJob written with generateName: which of what it renders to holds
// the placeholder name, and so differs in the cluster.
Diagnostic GeneratedNameNote(const source::Manifest& manifest, const doc::Node& original,
                             const std::vector<doc::Node>& objects) {
  constexpr std::size_t kShown = 12;
  std::vector<std::string> depend;
  std::size_t total = 0;
  for (const doc::Node& object : objects) {
    std::vector<std::string> paths;
    PathsHolding(object, manifest.id.name, "", &paths);
    if (paths.empty()) continue;
    total += paths.size();
    std::string line = doc::StringAt(&object, "kind") + " " + doc::StringAt(doc::At(&object, "metadata"), "name") + " ";
    for (std::size_t i = 0; i < paths.size() && depend.size() < kShown; ++i) depend.push_back(line + paths[i]);
  }
  std::string message = "[" + std::string(kRuleGeneratedName) + "] the API server names this TrainJob on create (\"" +
                        manifest.generate_name + "\" and 5 random characters), so it is checked and rendered as " +
                        manifest.id.name + ", the longest name it can get";
  if (total == 0) {
    message += "; what the controller creates is named after the real name";
  } else {
    message += "; these values hold that name and differ in the cluster: ";
    for (std::size_t i = 0; i < depend.size(); ++i) message += (i == 0 ? "" : ", ") + depend[i];
    if (total > depend.size()) message += " and " + std::to_string(total - depend.size()) + " more";
  }
  const doc::Node* at = doc::FindPath(original, {"metadata", "generateName"});
  Diagnostic note = MakeError(at != nullptr ? at->location() : original.location(), "metadata.generateName",
                              std::move(message));
  note.severity = Severity::kNote;
  note.rule = std::string(kRuleGeneratedName);
  return note;
}

TrainJobResult RenderOne(const source::Manifest& manifest, const SharedRuntimes& shared,
                         const PipelineOptions& options, const TargetProfile& target) {
  TrainJobResult result;
  result.id = manifest.id;
  result.file = manifest.file;
  Diagnostics& out = result.diagnostics;
  const doc::Node* written = &manifest.object;  // the TrainJob as read, once reloaded
  auto finish = [&]() -> TrainJobResult {
    ApplyStrict(&out, options, manifest.id);
    if (result.has_errors()) result.objects.clear();
    if (!manifest.generate_name.empty()) out.push_back(GeneratedNameNote(manifest, *written, result.objects));
    return std::move(result);
  };

  // A released TrainJob (LoadOptions::release) is read again here, on the
  // worker, and let go of with the result.
  doc::Node whole;
  if (manifest.released()) {
    Result<doc::Node> reloaded = options.reload ? options.reload(manifest)
                                                : Result<doc::Node>(AsInputError(MakeError(
                                                      manifest.location(), "", "internal: no way to read "
                                                      "a released object again")));
    if (!reloaded.ok()) {
      out.push_back(reloaded.take_error());
      return finish();
    }
    whole = *std::move(reloaded);
  }
  const doc::Node& original = manifest.released() ? whole : manifest.object;
  written = &original;
  doc::Node trainjob = original;
  if (target.translate != nullptr) {
    Result<doc::Node> translated = target.translate(trainjob);
    if (!translated.ok()) {
      out.push_back(translated.take_error());
      return finish();
    }
    trainjob = *std::move(translated);
  }
  const std::string_view defaults = trainer::ReleaseOf(target.version).crd_defaults;
  if (Status defaulted = trainer::DefaultBuiltin(trainjob, defaults); !defaulted.ok()) {
    out.push_back(defaulted.take_error());
    return finish();
  }
  const std::string key = manifest.id.namespace_ + "/" + manifest.id.name;
  validate::ValidateOptions validate_options;
  validate_options.version = target.version;
  validate_options.priority_classes = options.priority_classes;
  if (auto old = options.previous_trainjobs.find(key); old != options.previous_trainjobs.end()) {
    validate_options.old = &old->second;
  }
  if (auto jobset = options.previous_jobsets.find(key); jobset != options.previous_jobsets.end()) {
    validate_options.existing_jobset = &jobset->second;
  }
  // The API server's schema and CEL rules come before any webhook.
  Append(&out, target.validate_schema(trainjob, validate_options));
  if (HasErrors(out)) return finish();
  // What it stores, and the webhook and the controller read: the keys its
  // schema has not (the `[field-pruned]` warnings above) are gone.
  if (const validate::CrdRules* rules = validate::BuiltinCrdRules(target.version)) {
    trainjob = validate::PrunedAsStored(*rules, trainjob);
  }

  // ResolveRuntime looks for a runtime of the reference's name: only those
  // are handed to it (all of them when the reference cannot be read).
  Result<trainer::RuntimeRef> ref = trainer::ReadRuntimeRef(trainjob);
  std::string trainjob_namespace = doc::StringAtPath(trainjob, {"metadata", "namespace"});
  if (trainjob_namespace.empty()) trainjob_namespace = options.default_namespace;
  const std::vector<doc::Node> candidates =
      ref.ok() ? shared.Candidates(ref->name, trainjob_namespace) : shared.stored;
  Result<trainer::ResolvedRuntime> resolved =
      trainer::ResolveRuntime(trainjob, candidates, trainer::Reporter::kWebhook,
                              trainer::ClientForm::kCachedClient, options.default_namespace);
  if (!resolved.ok()) {
    std::optional<Diagnostic> twice = DuplicatedRuntime(trainjob, manifest.id.namespace_, shared);
    out.push_back(twice ? *std::move(twice) : resolved.take_error());
    // The webhook's "not found" is what the cluster says; why is beside it.
    if (!twice) {
      if (std::optional<Diagnostic> why = RefusedRuntime(trainjob, manifest.id.namespace_, shared)) {
        out.push_back(*std::move(why));
      }
    }
    return finish();
  }
  // One patches merge serves the webhook and the renderer (it is most of
  // the work per TrainJob); a failed merge is left to each to report.
  const doc::Node* template_spec = resolved->runtime.Find("spec");
  if (template_spec != nullptr) template_spec = template_spec->Find("template");
  if (template_spec != nullptr) template_spec = template_spec->Find("spec");
  // (A runtime without a template is merged as an empty one for the
  // webhook; the renderer computes its own from the runtime.)
  Result<doc::Node> merged = render::MergeJobSetTemplate(
      trainjob, template_spec != nullptr ? *template_spec : doc::Node::Mapping(), target.version);
  const doc::Node* shared_merge = template_spec != nullptr && merged.ok() ? &merged.value() : nullptr;

  // The webhook repeats the deprecation warning of ResolvedRuntime::warnings.
  validate_options.merged_jobset_spec = merged.ok() ? &merged.value() : nullptr;
  validate_options.merge_error = merged.ok() ? nullptr : &merged.error();
  Append(&out, target.validate_webhook(trainjob, resolved->runtime, validate_options));
  if (HasErrors(out)) return finish();

  render::RenderOptions render_options;
  render_options.version = target.version;
  render_options.merged_jobset_spec = shared_merge;
  render_options.runtime_snapshot = trainer::ReleaseOf(target.version).runtime_snapshot;
  render_options.runtime_snapshot_text = shared.SnapshotTextOf(resolved->runtime, options.default_namespace);
  const doc::Node* runtime = &resolved->runtime;
  doc::Node snapshot_runtime;
  const doc::Node* stored_snapshot = nullptr;  // the cluster's snapshot ConfigMap, kept as it is
  if (auto snapshot = options.runtime_snapshots.find(key);
      trainer::ReleaseOf(target.version).runtime_snapshot && snapshot != options.runtime_snapshots.end()) {
    Result<doc::Node> kept =
        KeptRuntime(trainjob, *resolved, snapshot->second, render_options.runtime_snapshot_text, target, &out);
    if (!kept.ok()) {
      out.push_back(kept.take_error());
      return finish();
    }
    stored_snapshot = &snapshot->second;
    render_options.runtime_snapshot = false;  // the controller does not apply it again
    if (!kept->is_null()) {
      snapshot_runtime = *std::move(kept);
      runtime = &snapshot_runtime;
      render_options.runtime_snapshot_text = {};
      render_options.merged_jobset_spec = nullptr;  // the snapshot's template, merged by Render
    }
  }
  Result<render::RenderedObjects> rendered = render::Render(trainjob, *runtime, render_options);
  if (options.keep_inputs && options.keep_inputs(manifest)) {
    auto inputs = std::make_shared<RenderInputs>();
    inputs->written = original;
    inputs->trainjob = trainjob;
    inputs->runtime = *runtime;
    if (runtime == &resolved->runtime) inputs->runtime_written = shared.WrittenOf(resolved->runtime);
    inputs->version = target.version;
    inputs->target = std::string(target.name);
    inputs->options = render_options;
    inputs->options.merged_jobset_spec = nullptr;
    inputs->runtime_snapshot_text = std::string(render_options.runtime_snapshot_text);
    inputs->options.runtime_snapshot_text = {};
    result.inputs = std::move(inputs);
  }
  if (!rendered.ok()) {
    out.push_back(rendered.take_error());
    return finish();
  }
  if (stored_snapshot != nullptr && !rendered->objects.empty()) {
    rendered->objects.insert(rendered->objects.begin(), *stored_snapshot);
  }
  Diagnostics rendered_warnings = CheckRendered(original, *runtime, rendered->objects);
  Diagnostics patch_warnings = CheckRuntimePatches(original, *runtime, target.version, validate_options.old);
  SupersedeRendered(&rendered_warnings, patch_warnings);
  Append(&out, std::move(rendered_warnings));
  Append(&out, std::move(patch_warnings));
  // As the API server stored the runtime: a field its release's CRD lacks
  // (mlPolicy.torch.numProcPerNode after v2.1) asks the plugins nothing.
  // Only the check of a TrainJob without spec.trainer reads such a field,
  // so the others skip the walk.
  const validate::CrdRules* runtime_rules = validate::BuiltinRuntimeCrdRules(target.version);
  if (runtime_rules != nullptr && doc::AtPath(&trainjob, {"spec", "trainer"}) == nullptr) {
    Append(&out, CheckIgnoredTrainerFields(trainjob, validate::PrunedAsStored(*runtime_rules, *runtime)));
  } else {
    Append(&out, CheckIgnoredTrainerFields(trainjob, *runtime));
  }
  Append(&out, std::move(rendered->notes));
  // What the cluster does next: the JobSet webhook, the API server's Job
  // validation... A refused object is not created, so nothing renders.
  const trainer::Release& release = trainer::ReleaseOf(target.version);
  Diagnostics refused =
      options.admission ? admission::AdmitRendered(original, rendered->objects,
                                                   admission::AdmissionRulesOf(release.kubernetes_release,
                                                                               release.jobset_release))
                        : Diagnostics{};
  if (HasErrors(refused)) {
    Append(&out, std::move(refused));
    return finish();
  }
  result.objects = std::move(rendered->objects);
  return finish();
}

}  // namespace

bool TrainJobResult::has_errors() const { return HasErrors(diagnostics); }

bool PipelineResult::has_errors() const { return HasErrors(diagnostics); }

const std::vector<std::string>& SupportedTargets() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const TargetProfile& t : Targets()) out.emplace_back(t.name);
    return out;
  }();
  return names;
}

std::string SupportedTargetList() {
  std::string list;
  for (const std::string& t : SupportedTargets()) list += (list.empty() ? "" : ", ") + t;
  return list;
}

PipelineSummary RenderManifests(const source::ManifestSet& manifests,
                                const PipelineOptions& options, const TrainJobSink& sink) {
  PipelineSummary summary;
  const TargetProfile* target = FindTarget(options.target);
  if (target == nullptr) {
    summary.diagnostics.push_back(AsInputError(MakeError(
        Location{}, "", "unsupported target \"" + options.target + "\" (supported: " + SupportedTargetList() + ")")));
    return summary;
  }
  summary.ran = true;
  SharedRuntimes shared = PrepareRuntimes(manifests, options, *target, &summary);

  std::vector<const source::Manifest*> jobs;
  for (const source::Manifest& manifest : manifests.manifests) {
    if (manifest.id.api_version == trainer::kTrainerApiVersion && manifest.id.kind == "TrainJob") {
      jobs.push_back(&manifest);
    }
  }
  // The loader refuses duplicates, so (namespace, name) is a total order.
  std::sort(jobs.begin(), jobs.end(), [](const source::Manifest* a, const source::Manifest* b) {
    return std::tie(a->id.namespace_, a->id.name) < std::tie(b->id.namespace_, b->id.name);
  });
  summary.train_jobs = jobs.size();
  unsigned threads = options.threads != 0 ? options.threads : std::thread::hardware_concurrency();
  // Once a run, in TrainJob order: the first TrainJob refused only for
  // fields its target removed hears of the target that has them.
  bool older_target_hinted = false;
  OrderedParallelFor(
      jobs.size(), std::max(threads, 1u), options.window,
      [&](std::size_t i) {
        TrainJobResult result = RenderOne(*jobs[i], shared, options, *target);
        if (options.finish) options.finish(result);
        return result;
      },
      [&](TrainJobResult&& result) {
        if (!older_target_hinted) older_target_hinted = AddOlderTargetHint(&result.diagnostics);
        sink(std::move(result));
      });
  return summary;
}

PipelineResult RenderManifests(const source::ManifestSet& manifests,
                               const PipelineOptions& options) {
  PipelineResult collected;
  Diagnostics per_job;
  PipelineSummary summary = RenderManifests(manifests, options, [&](TrainJobResult&& result) {
    for (doc::Node& object : result.objects) collected.objects.push_back(std::move(object));
    Append(&per_job, std::move(result.diagnostics));
  });
  collected.diagnostics = std::move(summary.diagnostics);
  Append(&collected.diagnostics, std::move(per_job));
  collected.train_jobs = summary.train_jobs;
  return collected;
}

}  // namespace tjr::pipeline
