#include "app/integration_render.h"

#include <algorithm>

#include "doc/objects.h"
#include "doc/path.h"
#include "pipeline/for_apply.h"
#include "source/object_types.h"
#include "yaml/writer.h"

namespace tjr::app {

std::map<std::string, std::vector<doc::Node>> ValidateAndRender(
    const source::ManifestSet& manifests, const RepoConfig& config,
    pipeline::PipelineOptions options, Findings* findings, bool render_mode) {
  findings->BeginRun(manifests, config.ignore, &options);
  if (render_mode) {
    // What is rendered here is applied as it is, and a placeholder name
    // (source::Manifest::generate_name) must never reach a cluster.
    for (const source::Manifest& manifest : manifests.manifests) {
      if (manifest.generate_name.empty()) continue;
      const doc::Node* at = doc::At(doc::At(&manifest.object, "metadata"), "generateName");
      findings->Add(MakeError(at != nullptr ? at->location() : manifest.location(), "metadata.name",
                              "required: a TrainJob named by generateName cannot be rendered for apply: the API "
                              "server chooses its name on create, and every object the controller makes is named "
                              "after it; give it a name, or apply it in validate mode"),
                    RefOf(manifest.id));
    }
  }
  std::map<std::string, std::vector<doc::Node>> rendered;
  pipeline::PipelineSummary summary = pipeline::RenderManifests(
      manifests, options, [&](pipeline::TrainJobResult&& result) {
        if (render_mode) pipeline::PrepareForApply(&result);
        rendered[findings->AddResult(result).Key()] = std::move(result.objects);
      });
  findings->AddChecked(summary.runtimes);
  for (const Diagnostic& d : summary.diagnostics) findings->Add(d, ObjectAt(manifests, d));
  return rendered;
}

bool IsTrainJob(const doc::Node& object) {
  return doc::StringAt(object, "apiVersion") == source::kTrainerApiVersion &&
         doc::StringAt(object, "kind") == "TrainJob";
}

bool IsRuntime(const doc::Node& object) {
  std::string kind = doc::StringAt(object, "kind");
  return doc::StringAt(object, "apiVersion") == source::kTrainerApiVersion &&
         (kind == "TrainingRuntime" || kind == "ClusterTrainingRuntime");
}

std::string TrainJobKey(const doc::Node& trainjob, const std::string& default_namespace) {
  doc::ObjectId id = doc::ObjectId::Of(trainjob);
  return RefOf(id.api_version, id.kind, id.namespace_.empty() ? default_namespace : id.namespace_,
               id.name)
      .Key();
}

bool HasNamespace(const doc::Node& object) {
  const doc::Node* metadata = object.is_mapping() ? object.Find("metadata") : nullptr;
  const doc::Node* ns = metadata != nullptr && metadata->is_mapping() ? metadata->Find("namespace") : nullptr;
  return ns != nullptr && ns->is_string() && !ns->string_value().empty();
}

namespace {

// The field path of the first string under `node` that names the stand-in
// namespace. An explicit stack: rendered objects carry user content.
std::optional<std::string> NamespaceUse(const doc::Node& root) {
  std::vector<std::pair<const doc::Node*, std::string>> pending{{&root, ""}};
  while (!pending.empty()) {
    auto [node, path] = std::move(pending.back());
    pending.pop_back();
    if (node->is_string()) {
      if (node->string_value().find(kUntoldNamespace) != std::string::npos) return path;
    } else if (node->is_mapping()) {
      const std::vector<doc::Field>& fields = node->fields();
      for (auto field = fields.rbegin(); field != fields.rend(); ++field) {
        const bool plain = field->key.find_first_of("./") == std::string::npos;
        pending.emplace_back(&field->value, !plain ? path + "[" + field->key + "]"
                                            : path.empty() ? field->key
                                                           : path + "." + field->key);
      }
    } else if (node->is_sequence()) {
      for (std::size_t i = node->size(); i > 0; --i) {
        pending.emplace_back(&(*node)[i - 1], path + "[" + std::to_string(i - 1) + "]");
      }
    }
  }
  return std::nullopt;
}

}  // namespace

std::optional<Diagnostic> LeaveNamespaceUnset(const doc::Node& trainjob, std::string_view why_untold,
                                              std::vector<doc::Node>* objects) {
  for (doc::Node& object : *objects) {
    if (doc::Node* metadata = object.FindMutable("metadata"); metadata != nullptr && metadata->is_mapping()) {
      metadata->Erase("namespace");
    }
  }
  for (const doc::Node& object : *objects) {
    std::optional<std::string> use = NamespaceUse(object);
    if (!use) continue;
    doc::ObjectId id = doc::ObjectId::Of(object);
    Diagnostic error = MakeError(trainjob.location(), "metadata.namespace",
                                 "[namespace-required] the " + id.kind + " \"" + id.name +
                                     "\" names the TrainJob's namespace in " + *use + ", and " + std::string(why_untold));
    error.rule = "namespace-required";
    return error;
  }
  return std::nullopt;
}

std::string YamlStream(const std::vector<doc::Node>& objects) { return yaml::WriteStream(objects); }

}  // namespace tjr::app
