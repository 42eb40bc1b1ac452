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

std::string YamlStream(const std::vector<doc::Node>& objects) { return yaml::WriteStream(objects); }

}  // namespace tjr::cli
