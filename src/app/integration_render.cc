#include "cli/integration_flow.h"

#include <algorithm>

#include "cli/command.h"
#include "cli/options.h"
#include "cli/output.h"
#include "doc/objects.h"
#include "pipeline/for_apply.h"
#include "source/object_types.h"
#include "yaml/writer.h"

namespace tjr::cli {
namespace {

std::string StringAt(const doc::Node& object, std::string_view key) {
  const doc::Node* value = object.is_mapping() ? object.Find(key) : nullptr;
  return value != nullptr && value->is_string() ? value->string_value() : std::string();
}

}  // namespace

std::optional<int> ChooseTarget(const std::string& flag, const RepoConfig& config,
                                pipeline::PipelineOptions* options) {
  if (!flag.empty()) {
    options->target = flag;
  } else if (config.target) {
    options->target = *config.target;
  }
  if (CheckTarget(&options->target)) return std::nullopt;
  return kExitUsage;
}

std::map<std::string, std::vector<doc::Node>> ValidateAndRender(
    const source::ManifestSet& manifests, const RepoConfig& config,
    pipeline::PipelineOptions options, FindingsOutput* findings, bool render_mode) {
  findings->BeginRun(manifests, config.ignore, &options);
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
  return StringAt(object, "apiVersion") == source::kTrainerApiVersion &&
         StringAt(object, "kind") == "TrainJob";
}

bool IsRuntime(const doc::Node& object) {
  std::string kind = StringAt(object, "kind");
  return StringAt(object, "apiVersion") == source::kTrainerApiVersion &&
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

}  // namespace tjr::cli
