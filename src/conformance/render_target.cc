#include "conformance/render_target.h"

#include <string_view>

#include "app/render_repository.h"
#include "pipeline/target.h"
#include "render/runtime_snapshot.h"
#include "source/loader.h"
#include "source/memory_tree.h"
#include "trainer/defaulting.h"

namespace tjr::conformance {
namespace {

Diagnostic CommandError(std::string message) {
  return AsInputError(MakeError(Location{}, "command", std::move(message)));
}

// What the target keeps of a run: every TrainJob's objects in order, and
// every finding, note and problem as it arrives.
class Collector final : public app::RenderSink {
 public:
  void Data(std::string_view) override {}
  void Problem(const Diagnostic& problem) override { output.diagnostics.push_back(problem); }
  void Note(std::string_view) override {}
  void Rendered(const pipeline::TrainJobResult& result) override {
    output.objects.insert(output.objects.end(), result.objects.begin(), result.objects.end());
  }
  void Rendered(const flyte::TaskResult& task) override {
    output.objects.insert(output.objects.end(), task.objects.begin(), task.objects.end());
  }

  TargetOutput output;
};

// The --previous file as the cluster holds it: stored TrainJobs (with the
// target's CRD defaults), JobSets, runtime snapshots, PriorityClass names.
Result<app::RenderRequest::ClusterState> ReadClusterState(const std::vector<source::ParsedFile>& previous,
                                                         const RenderCommand& command) {
  app::RenderRequest::ClusterState cluster;
  source::LoadOptions stored;
  stored.default_namespace = command.pipeline.default_namespace;
  stored.enforce_namespace = command.namespace_given;
  stored.types.push_back({"jobset.x-k8s.io/v1alpha2", "JobSet", true});
  stored.types.push_back({"scheduling.k8s.io/v1", "PriorityClass", false});
  stored.types.push_back({"v1", "ConfigMap", true});
  cluster.priority_classes.emplace();
  for (source::Manifest& manifest : source::AdmitDocuments(previous, stored).manifests) {
    std::string key = manifest.id.namespace_ + "/" + manifest.id.name;
    if (manifest.id.kind == "TrainJob") {
      // What the cluster stored had the target's CRD defaults applied.
      doc::Node old = manifest.object;
      const pipeline::TargetProfile* target = pipeline::FindTarget(command.pipeline.target);
      // An unknown target renders nothing (the run reports it).
      const std::string_view table =
          trainer::ReleaseOf(target != nullptr ? target->version : trainer::kDefaultRelease).crd_defaults;
      if (auto defaulted = trainer::ApplyBuiltinDefaults(old, table); !defaulted.ok()) {
        return AsInputError(defaulted.take_error());
      }
      cluster.trainjobs[key] = std::move(old);
    } else if (manifest.id.kind == "JobSet") {
      cluster.jobsets[key] = std::move(manifest.object);
    } else if (manifest.id.kind == "ConfigMap") {
      // A runtime snapshot the controller took (Trainer v2.3+).
      const std::string_view suffix = render::kRuntimeSnapshotSuffix;
      const std::string& name = manifest.id.name;
      if (name.size() > suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0) {
        cluster.runtime_snapshots[manifest.id.namespace_ + "/" + name.substr(0, name.size() - suffix.size())] =
            manifest.object;
      }
    } else if (manifest.id.kind == "PriorityClass") {
      cluster.priority_classes->push_back(manifest.id.name);
    }
  }
  return cluster;
}

}  // namespace

Result<RenderCommand> ParseRenderCommand(const std::vector<std::string>& command) {
  RenderCommand parsed;
  parsed.pipeline.threads = 1;
  for (std::size_t i = 0; i < command.size(); ++i) {
    const std::string& argument = command[i];
    if (argument == "--strict") {
      parsed.pipeline.strict = true;
      continue;
    }
    if (argument == "--no-admission") {
      parsed.pipeline.admission = false;
      continue;
    }
    std::string name = argument;
    std::string value;
    if (std::size_t equals = argument.find('='); argument.starts_with("--") && equals != std::string::npos) {
      name = argument.substr(0, equals);
      value = argument.substr(equals + 1);
    } else if (argument == "--target" || argument == "--namespace" || argument == "--previous" ||
               argument == "--flyte-config") {
      if (i + 1 == command.size()) return CommandError(argument + " needs a value");
      value = command[++i];
    }
    if (name == "--target") {
      parsed.pipeline.target = value;
    } else if (name == "--previous" && !value.empty()) {
      parsed.previous_file = value;
    } else if (name == "--flyte-config" && !value.empty()) {
      parsed.flyte_config_file = value;
    } else if (name == "--namespace" && !value.empty()) {
      parsed.pipeline.default_namespace = value;
      parsed.namespace_given = true;
    } else {
      return CommandError("unknown option '" + argument +
                          "' (known: --target T, --namespace NS, --previous FILE, --flyte-config FILE, --strict, --no-admission)");
    }
  }
  return parsed;
}

Result<TargetOutput> RunRenderTarget(const std::vector<InputFile>& inputs,
                                     const std::vector<std::string>& command) {
  auto parsed = ParseRenderCommand(command);
  if (!parsed.ok()) return parsed.take_error();
  // The case's files are read as `tjrender render input/` reads a
  // repository, through the same entry point; the --previous file is the
  // cluster's state and the --flyte-config file propeller's, not part of it.
  source::MemoryTree tree;
  std::vector<std::string> paths;
  std::vector<source::ParsedFile> previous;
  std::optional<std::vector<doc::Node>> flyte_config;
  bool flyte_config_found = parsed->flyte_config_file.empty();
  for (const InputFile& input : inputs) {
    if (!parsed->previous_file.empty() && input.name == "input/" + parsed->previous_file) {
      previous.push_back({input.name, input.documents});
    } else if (!parsed->flyte_config_file.empty() && input.name == "input/" + parsed->flyte_config_file) {
      flyte_config_found = true;
      flyte_config = input.documents;
    } else {
      tree.Put(input.name, input.text);
      paths.push_back(input.name);
    }
  }
  if (!parsed->previous_file.empty() && previous.empty()) {
    return CommandError("--previous " + parsed->previous_file + ": no such file in input/");
  }
  if (!flyte_config_found) return CommandError("--flyte-config " + parsed->flyte_config_file + ": no such file in input/");
  app::RenderRequest request;
  request.source.tree = &tree;
  request.source.paths = previous.empty() ? std::vector<std::string>{"input"} : paths;
  request.flyte_config = std::move(flyte_config);
  if (request.flyte_config) request.flyte_config_file = "input/" + parsed->flyte_config_file;
  request.target = parsed->pipeline.target;
  if (parsed->namespace_given) request.default_namespace = parsed->pipeline.default_namespace;
  request.strict = parsed->pipeline.strict;
  request.admission = parsed->pipeline.admission;
  request.threads = 1;
  if (!previous.empty()) {
    Result<app::RenderRequest::ClusterState> cluster = ReadClusterState(previous, *parsed);
    if (!cluster.ok()) return cluster.take_error();
    request.cluster = std::move(*cluster);
  }

  Collector collector;
  app::Findings findings;
  findings.SetObservers({[&](const Diagnostic& d) { collector.output.diagnostics.push_back(d); }, nullptr,
                         [&](const Diagnostic& d) { collector.output.diagnostics.push_back(d); }});
  app::RenderRepository(request, findings, collector);
  return std::move(collector.output);
}

}  // namespace tjr::conformance
