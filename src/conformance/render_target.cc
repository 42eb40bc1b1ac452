#include "conformance/render_target.h"

#include <string_view>

#include "pipeline/target.h"
#include "render/runtime_snapshot.h"
#include "source/loader.h"
#include "trainer/defaulting.h"

namespace tjr::conformance {
namespace {

Diagnostic CommandError(std::string message) {
  return AsInputError(MakeError(Location{}, "command", std::move(message)));
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
    std::string name = argument;
    std::string value;
    if (std::size_t equals = argument.find('='); argument.starts_with("--") && equals != std::string::npos) {
      name = argument.substr(0, equals);
      value = argument.substr(equals + 1);
    } else if (argument == "--target" || argument == "--namespace" || argument == "--previous") {
      if (i + 1 == command.size()) return CommandError(argument + " needs a value");
      value = command[++i];
    }
    if (name == "--target") {
      parsed.pipeline.target = value;
    } else if (name == "--previous" && !value.empty()) {
      parsed.previous_file = value;
    } else if (name == "--namespace" && !value.empty()) {
      parsed.pipeline.default_namespace = value;
      parsed.namespace_given = true;
    } else {
      return CommandError("unknown option '" + argument +
                          "' for target render (known: --target T, --namespace NS, --previous FILE, --strict)");
    }
  }
  return parsed;
}

Result<TargetOutput> RunRenderTarget(const std::vector<InputFile>& inputs,
                                     const std::vector<std::string>& command) {
  auto parsed = ParseRenderCommand(command);
  if (!parsed.ok()) return parsed.take_error();
  std::vector<source::ParsedFile> files;
  std::vector<source::ParsedFile> previous;
  files.reserve(inputs.size());
  for (const InputFile& input : inputs) {
    bool is_previous = !parsed->previous_file.empty() && input.name == "input/" + parsed->previous_file;
    (is_previous ? previous : files).push_back({input.name, input.documents});
  }
  if (!parsed->previous_file.empty() && previous.empty()) {
    return CommandError("--previous " + parsed->previous_file + ": no such file in input/");
  }
  source::LoadOptions load;
  load.default_namespace = parsed->pipeline.default_namespace;
  load.enforce_namespace = parsed->namespace_given;
  source::ManifestSet manifests = source::AdmitDocuments(files, load);
  if (!previous.empty()) {
    source::LoadOptions stored = load;
    stored.types.push_back({"jobset.x-k8s.io/v1alpha2", "JobSet", true});
    stored.types.push_back({"scheduling.k8s.io/v1", "PriorityClass", false});
    stored.types.push_back({"v1", "ConfigMap", true});
    parsed->pipeline.priority_classes.emplace();
    for (source::Manifest& manifest : source::AdmitDocuments(previous, stored).manifests) {
      std::string key = manifest.id.namespace_ + "/" + manifest.id.name;
      if (manifest.id.kind == "TrainJob") {
        // What the cluster stored had the target's CRD defaults applied.
        doc::Node old = manifest.object;
        const pipeline::TargetProfile* target = pipeline::FindTarget(parsed->pipeline.target);
        const std::string_view table = target != nullptr ? target->crd_defaults : trainer::kV21DefaultsTable;
        if (auto defaulted = trainer::ApplyBuiltinDefaults(old, table); !defaulted.ok()) {
          return AsInputError(defaulted.take_error());
        }
        parsed->pipeline.previous_trainjobs[key] = std::move(old);
      } else if (manifest.id.kind == "JobSet") {
        parsed->pipeline.previous_jobsets[key] = std::move(manifest.object);
      } else if (manifest.id.kind == "ConfigMap") {
        // A runtime snapshot the controller took (Trainer v2.3+).
        const std::string_view suffix = render::kRuntimeSnapshotSuffix;
        const std::string& name = manifest.id.name;
        if (name.size() > suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0) {
          parsed->pipeline.runtime_snapshots[manifest.id.namespace_ + "/" +
                                             name.substr(0, name.size() - suffix.size())] = manifest.object;
        }
      } else if (manifest.id.kind == "PriorityClass") {
        parsed->pipeline.priority_classes->push_back(manifest.id.name);
      }
    }
  }

  TargetOutput output;
  output.diagnostics = std::move(manifests.diagnostics);
  pipeline::PipelineResult result = pipeline::RenderManifests(manifests, parsed->pipeline);
  output.objects = std::move(result.objects);
  output.diagnostics.insert(output.diagnostics.end(), result.diagnostics.begin(),
                            result.diagnostics.end());
  return output;
}

}  // namespace tjr::conformance
