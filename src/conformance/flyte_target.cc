#include "conformance/flyte_target.h"

#include "flyte/render.h"
#include "source/loader.h"

namespace tjr::conformance {
namespace {

Diagnostic CommandError(std::string message) {
  return AsInputError(MakeError(Location{}, "command", std::move(message)));
}

}  // namespace

Result<TargetOutput> RunFlyteTarget(const std::vector<InputFile>& inputs,
                                    const std::vector<std::string>& command) {
  flyte::FlyteOptions options;
  std::string config_file;
  bool namespace_given = false;
  for (std::size_t i = 0; i < command.size(); ++i) {
    const std::string& argument = command[i];
    if (argument == "--strict") {
      options.strict = true;
      continue;
    }
    if (argument != "--target" && argument != "--namespace" && argument != "--flyte-config") {
      return CommandError("unknown option '" + argument +
                          "' for target flyte (known: --target T, --namespace NS, "
                          "--flyte-config FILE, --strict)");
    }
    if (i + 1 == command.size()) return CommandError(argument + " needs a value");
    const std::string& value = command[++i];
    if (argument == "--target") {
      std::optional<flyte::Version> version = flyte::VersionForTarget(value);
      if (!version) return CommandError("unknown Flyte target '" + value + "'");
      options.version = *version;
    } else if (argument == "--namespace") {
      options.default_namespace = value;
      namespace_given = true;
    } else {
      config_file = "input/" + value;
    }
  }
  std::vector<source::ParsedFile> files;
  bool config_found = config_file.empty();
  for (const InputFile& input : inputs) {
    if (input.name == config_file) {
      config_found = true;
      if (!input.documents.empty()) options.config_document = input.documents.front();
      continue;
    }
    files.push_back({input.name, input.documents});
  }
  if (!config_found) return CommandError("--flyte-config: no such file " + config_file);
  source::LoadOptions load;
  load.types = flyte::FlyteObjectTypes();
  load.default_namespace = options.default_namespace;
  load.enforce_namespace = namespace_given;
  flyte::AcceptFlyteTasks(&load);
  source::ManifestSet manifests = source::AdmitDocuments(files, load);
  TargetOutput output;
  output.diagnostics = std::move(manifests.diagnostics);
  flyte::FlyteOutcome outcome = flyte::RenderFlyte(manifests, options);
  output.diagnostics.insert(output.diagnostics.end(), outcome.diagnostics.begin(),
                            outcome.diagnostics.end());
  for (flyte::TaskResult& task : outcome.tasks) {
    for (doc::Node& object : task.objects) output.objects.push_back(std::move(object));
    output.diagnostics.insert(output.diagnostics.end(), task.diagnostics.begin(),
                              task.diagnostics.end());
  }
  return output;
}

}  // namespace tjr::conformance
