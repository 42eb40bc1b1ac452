#include "integrate/krm_function.h"

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "app/integration_render.h"
#include "app/target_name.h"
#include "integrate/krm.h"
#include "integrate/resource_list_edit.h"
#include "pipeline/pipeline.h"
#include "source/loader.h"

namespace tjr::integrate {
namespace {

Diagnostic UsageError(std::string message) {
  return AsInputError(MakeError(Location{}, "", std::move(message)));
}

constexpr char kKrmNamespaceWho[] =
    "kustomize and kpt do not tell a KRM function the namespace they apply objects in: write the TrainJob's "
    "metadata.namespace";

// A rendered object's origin: beside the TrainJob's file, one index each.
void Annotate(const std::string& trainjob_path, std::size_t index, doc::Node* object) {
  if (trainjob_path.empty() || !object->is_mapping()) return;
  std::string dir;
  std::size_t slash = trainjob_path.rfind('/');
  if (slash != std::string::npos) dir = trainjob_path.substr(0, slash + 1);
  std::string name;
  if (const doc::Node* metadata = object->Find("metadata")) {
    if (const doc::Node* n = metadata->Find("name"); n != nullptr && n->is_string()) name = n->string_value();
  }
  doc::Node* metadata = object->FindMutable("metadata");
  if (metadata == nullptr) metadata = &object->Set("metadata", doc::Node::Mapping());
  doc::Node* annotations = metadata->FindMutable("annotations");
  if (annotations == nullptr || !annotations->is_mapping()) {
    annotations = &metadata->Set("annotations", doc::Node::Mapping());
  }
  std::string path = dir + "rendered_" + name + ".yaml";
  annotations->Set("config.kubernetes.io/path", doc::Node::String(path));
  annotations->Set("internal.config.kubernetes.io/path", doc::Node::String(path));
  annotations->Set("config.kubernetes.io/index", doc::Node::String(std::to_string(index)));
  annotations->Set("internal.config.kubernetes.io/index", doc::Node::String(std::to_string(index)));
}

}  // namespace

KrmOutcome RunKrmFunction(const KrmRequest& request, app::Findings& findings) {
  KrmOutcome outcome;
  Result<ResourceList> list = ReadResourceList(request.resource_list, "<stdin>");
  if (!list.ok()) {
    outcome.refused = list.take_error();
    return outcome;
  }
  std::string mode = request.mode;
  if (mode.empty()) mode = FunctionConfigValue(*list, "mode");
  if (mode.empty()) mode = "validate";
  if (mode != "validate" && mode != "render") {
    outcome.refused = UsageError("mode must be validate or render, not '" + mode + "'");
    return outcome;
  }
  const bool render = mode == "render";
  Result<app::RepoConfig> config = app::ReadRepoConfig(request.config_path);
  if (!config.ok()) {
    outcome.refused = config.take_error();
    return outcome;
  }
  Result<std::string> target =
      app::ChooseTarget(!request.target.empty() ? request.target : FunctionConfigValue(*list, "target"), *config);
  if (!target.ok()) {
    outcome.refused = target.take_error();
    return outcome;
  }
  pipeline::PipelineOptions pipeline_options;
  pipeline_options.target = std::move(*target);

  // kustomize and kpt apply namespace-less objects in a namespace they do
  // not tell a function (a kustomization's `namespace:`, kpt's inventory or
  // the kubectl context): render those in the stand-in and write the
  // objects without one, as the TrainJob was written.
  pipeline_options.default_namespace = app::kUntoldNamespace;
  source::LoadOptions load_options;
  load_options.default_namespace = app::kUntoldNamespace;

  // One file per item, named by its origin, so loader messages name it.
  std::vector<source::ParsedFile> files;
  for (std::size_t i = 0; i < list->items.size(); ++i) {
    files.push_back({list->origins[i].name, {list->items[i]}});
  }
  source::ManifestSet manifests = source::AdmitDocuments(files, load_options);
  // Findings name the user's files and lines, not lines of stdin.
  findings.SetLocationMap([&list](const Location& at) { return FileLocation(list->origins, list->source_name, at); });
  std::map<std::string, std::vector<doc::Node>> rendered =
      app::ValidateAndRender(manifests, *config, pipeline_options, &findings, render);

  std::vector<ItemEdit> edits;
  if (render) {
    edits.resize(list->items.size());
    for (std::size_t i = 0; i < list->items.size(); ++i) {
      const doc::Node& item = list->items[i];
      if (app::IsRuntime(item)) edits[i].keep = false;
      if (!app::IsTrainJob(item)) continue;
      edits[i].keep = false;
      auto it = rendered.find(app::TrainJobKey(item, pipeline_options.default_namespace));
      if (it == rendered.end()) continue;
      if (!app::HasNamespace(item)) {
        if (std::optional<Diagnostic> d = app::LeaveNamespaceUnset(item, kKrmNamespaceWho, &it->second)) {
          findings.Add(*d, app::RefOf(doc::ObjectId::Of(item)));
          continue;
        }
      }
      std::size_t index = 0;
      for (doc::Node made : it->second) {
        Annotate(ItemPath(item), index++, &made);
        edits[i].added.push_back(std::move(made));
      }
    }
  }
  findings.SetLocationMap(nullptr);
  outcome.resource_list = EditResourceList(*list, edits, Results(*list, findings.findings()));
  return outcome;
}

}  // namespace tjr::integrate
