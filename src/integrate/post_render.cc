#include "integrate/post_render.h"

#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "app/integration_render.h"
#include "app/manifest_tree.h"
#include "app/target_name.h"
#include "doc/objects.h"
#include "doc/path.h"
#include "integrate/yaml_stream.h"
#include "pipeline/pipeline.h"
#include "source/confined_tree.h"
#include "source/disk_tree.h"
#include "source/loader.h"

namespace tjr::integrate {
namespace {

constexpr char kHelmFilename[] = "postrenderer.helm.sh/postrender-filename";

// Helm does not tell a post-renderer its release namespace (Helm 3 runs
// the binary with the stream alone, pkg/postrender/exec.go; Helm 4 hands a
// plugin the manifests and args, pkg/postrenderer/postrenderer.go) and
// applies it to namespace-less objects itself (pkg/kube/client.go,
// NamespaceParam(...).DefaultNamespace()): without --namespace, objects
// without one are rendered in app::kUntoldNamespace and written without one.
constexpr char kHelmNamespaceWho[] =
    "Helm does not tell a post-renderer its release namespace: pass --namespace with the release namespace";

// Copies Helm's file annotation from the TrainJob to an object it created,
// so Helm files the object with its template.
void CarryHelmFilename(const doc::Node& trainjob, doc::Node* object) {
  const doc::Node* metadata = trainjob.Find("metadata");
  const doc::Node* annotations = metadata != nullptr ? metadata->Find("annotations") : nullptr;
  const doc::Node* file = annotations != nullptr && annotations->is_mapping()
                              ? annotations->Find(kHelmFilename)
                              : nullptr;
  if (file == nullptr || !object->is_mapping()) return;
  doc::Node* out_metadata = object->FindMutable("metadata");
  if (out_metadata == nullptr) out_metadata = &object->Set("metadata", doc::Node::Mapping());
  doc::Node* out_annotations = out_metadata->FindMutable("annotations");
  if (out_annotations == nullptr || !out_annotations->is_mapping()) {
    out_annotations = &out_metadata->Set("annotations", doc::Node::Mapping());
  }
  out_annotations->Set(kHelmFilename, *file);
}

bool HoldsTrainerObjects(const std::vector<doc::Node>& documents) {
  for (const doc::Node& d : documents) {
    Result<std::vector<doc::Node>> flat = doc::FlattenLists({d});
    if (!flat.ok()) continue;
    for (const doc::Node& object : *flat) {
      if (app::IsTrainJob(object) || app::IsRuntime(object)) return true;
    }
  }
  return false;
}

// The output stream of --mode render: documents without Trainer objects
// byte for byte; a document with some written again from its objects,
// TrainJobs replaced by what they create, runtimes dropped.
std::string RenderStream(const std::vector<RawDocument>& raw,
                         const std::vector<std::vector<doc::Node>>& parsed,
                         const std::string& default_namespace, bool namespace_given,
                         std::map<std::string, std::vector<doc::Node>>* rendered, app::Findings* findings) {
  std::string out;
  for (std::size_t i = 0; i < raw.size(); ++i) {
    if (!HoldsTrainerObjects(parsed[i])) {
      out += raw[i].text;  // untouched, byte for byte
      continue;
    }
    std::vector<doc::Node> objects;
    for (const doc::Node& d : parsed[i]) {
      Result<std::vector<doc::Node>> flat = doc::FlattenLists({d});
      if (!flat.ok()) continue;
      for (const doc::Node& object : *flat) {
        if (app::IsRuntime(object)) continue;
        if (!app::IsTrainJob(object)) {
          objects.push_back(object);
          continue;
        }
        auto it = rendered->find(app::TrainJobKey(object, default_namespace));
        if (it == rendered->end()) continue;
        std::vector<doc::Node>& made = it->second;
        if (!namespace_given && !app::HasNamespace(object)) {
          if (std::optional<Diagnostic> d = app::LeaveNamespaceUnset(object, kHelmNamespaceWho, &made)) {
            findings->Add(*d, app::RefOf(doc::ObjectId::Of(object)));
          }
        }
        for (doc::Node& m : made) {
          CarryHelmFilename(object, &m);
          objects.push_back(m);
        }
      }
    }
    if (objects.empty()) continue;
    if (!out.empty() && out.back() != '\n') out += '\n';
    out += "---\n" + app::YamlStream(objects);
  }
  return out;
}

// Where a finding about a TrainJob's runtimeRef points: its key, else the TrainJob.
Location RuntimeRefLocation(const doc::Node& trainjob) {
  if (const doc::Node* spec = trainjob.Find("spec"); spec != nullptr && spec->is_mapping()) {
    for (const doc::Field& field : spec->fields()) {
      if (field.key == "runtimeRef" && field.key_location.known()) return field.key_location;
    }
  }
  return trainjob.location();
}

// The Trainer controller looks a TrainingRuntime up in the TrainJob's
// namespace only (v2.3.0 pkg/runtime/core/trainingruntime.go:97,
// client.ObjectKey{Namespace: trainJob.Namespace, ...}). Under Helm the
// TrainJob's namespace is usually the release namespace, which Helm does
// not tell a post-renderer: a TrainingRuntime of that name in another
// namespace (often one from --runtimes) is most likely the one meant, so
// its "not found" gets a warning naming it and --namespace.
void HintOtherNamespaces(const source::ManifestSet& manifests, bool namespace_given, app::Findings* findings) {
  // The TrainingRuntimes of each name: their namespaces, the first in
  // stream order and the first in another namespace than that one's (N
  // TrainJobs over N runtimes took N² steps).
  struct Named {
    std::unordered_set<std::string> namespaces;
    const source::Manifest* first = nullptr;
    const source::Manifest* first_elsewhere = nullptr;  // than first's
  };
  std::unordered_map<std::string, Named> runtimes;
  for (const source::Manifest& runtime : manifests.manifests) {
    if (runtime.id.kind != "TrainingRuntime") continue;
    Named& named = runtimes[runtime.id.name];
    named.namespaces.insert(runtime.id.namespace_);
    if (named.first == nullptr) {
      named.first = &runtime;
    } else if (named.first_elsewhere == nullptr && runtime.id.namespace_ != named.first->id.namespace_) {
      named.first_elsewhere = &runtime;
    }
  }
  for (const source::Manifest& trainjob : manifests.manifests) {
    if (!app::IsTrainJob(trainjob.object)) continue;
    if (doc::StringAtPath(trainjob.object, {"spec", "runtimeRef", "kind"}) != "TrainingRuntime") continue;
    const std::string name = doc::StringAtPath(trainjob.object, {"spec", "runtimeRef", "name"});
    auto named = runtimes.find(name);
    if (named == runtimes.end()) continue;
    const bool here = named->second.namespaces.contains(trainjob.id.namespace_);
    // The first runtime of the name in another namespace than the TrainJob's.
    const source::Manifest* elsewhere = named->second.first->id.namespace_ != trainjob.id.namespace_
                                            ? named->second.first
                                            : named->second.first_elsewhere;
    if (here || elsewhere == nullptr) continue;
    // A namespace no object names is Helm's release namespace, which
    // Helm does not tell a post-renderer (never printed as such).
    auto where = [](const std::string& ns) {
      return ns == app::kUntoldNamespace ? std::string("Helm's release namespace (written without one)")
                                         : "namespace " + ns;
    };
    const std::string& there = elsewhere->id.namespace_;
    const std::string& suggested = there != app::kUntoldNamespace ? there : trainjob.id.namespace_;
    Diagnostic hint = MakeWarning(
        RuntimeRefLocation(trainjob.object), "runtime-in-other-namespace",
        "TrainingRuntime \"" + name + "\" is defined in " + where(there) + " (" + elsewhere->location().ToString() +
            "), the TrainJob is in " + where(trainjob.id.namespace_) +
            "; the Trainer controller looks a TrainingRuntime up in the TrainJob's namespace only: " +
            (namespace_given || there == app::kUntoldNamespace || trainjob.id.namespace_ == app::kUntoldNamespace
                 ? "pass --namespace " + suggested +
                       " if the release is installed there (it names the namespace of objects written without one)"
                 : "put both in one namespace") +
            ", or refer to a ClusterTrainingRuntime");
    hint.field_path = "spec.runtimeRef";
    findings->Add(hint, app::RefOf(trainjob.id));
  }
}

}  // namespace

PostRenderOutcome PostRender(const PostRenderRequest& request, app::Findings& findings) {
  PostRenderOutcome outcome;
  // The working directory's, never a file a link there leads to elsewhere.
  const source::DiskTree disk;
  Result<app::RepoConfig> config =
      app::ReadRepoConfig(source::ConfinedTree(disk, ".", "the working directory"), request.config_path);
  if (!config.ok()) {
    outcome.refused = config.take_error();
    return outcome;
  }
  Result<std::string> target = app::ChooseTarget(request.target, *config);
  if (!target.ok()) {
    outcome.refused = target.take_error();
    return outcome;
  }
  pipeline::PipelineOptions pipeline_options;
  pipeline_options.target = std::move(*target);
  source::LoadOptions load_options;
  const bool namespace_given = !request.namespace_.empty();
  load_options.default_namespace = namespace_given ? request.namespace_ : app::kUntoldNamespace;
  pipeline_options.default_namespace = load_options.default_namespace;

  std::vector<RawDocument> raw = SplitDocuments(request.stream);
  std::vector<std::vector<doc::Node>> parsed(raw.size());
  source::ParsedFile file{"<stdin>", {}};
  for (std::size_t i = 0; i < raw.size(); ++i) {
    Result<std::vector<doc::Node>> documents = ParseDocument(raw[i], "<stdin>");
    if (!documents.ok()) {
      outcome.refused = AsInputError(documents.take_error());
      return outcome;
    }
    parsed[i] = std::move(*documents);
    for (const doc::Node& d : parsed[i]) file.documents.push_back(d);
  }
  source::ManifestSet manifests = source::AdmitDocuments({file}, load_options);
  if (!request.runtime_paths.empty()) {
    // Only their runtimes count: a TrainJob there is no part of the release.
    app::ManifestTree tree;
    source::ManifestSet runtimes = source::LoadManifests(tree, request.runtime_paths, load_options);
    manifests.files.insert(manifests.files.end(), runtimes.files.begin(), runtimes.files.end());
    manifests.diagnostics.insert(manifests.diagnostics.end(), runtimes.diagnostics.begin(),
                                 runtimes.diagnostics.end());
    for (source::Manifest& m : runtimes.manifests) {
      if (!app::IsTrainJob(m.object)) manifests.manifests.push_back(std::move(m));
    }
  }
  std::map<std::string, std::vector<doc::Node>> rendered =
      app::ValidateAndRender(manifests, *config, pipeline_options, &findings, request.render);
  HintOtherNamespaces(manifests, namespace_given, &findings);
  outcome.stream = request.render ? RenderStream(raw, parsed, pipeline_options.default_namespace, namespace_given,
                                                 &rendered, &findings)
                                  : request.stream;
  return outcome;
}

}  // namespace tjr::integrate
