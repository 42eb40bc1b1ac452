#include "conformance/render_target.h"

#include <string_view>

#include "source/loader.h"

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
    } else if (argument == "--target" || argument == "--namespace") {
      if (i + 1 == command.size()) return CommandError(argument + " needs a value");
      value = command[++i];
    }
    if (name == "--target") {
      parsed.pipeline.target = value;
    } else if (name == "--namespace" && !value.empty()) {
      parsed.pipeline.default_namespace = value;
      parsed.namespace_given = true;
    } else {
      return CommandError("unknown option '" + argument +
                          "' for target render (known: --target T, --namespace NS, --strict)");
    }
  }
  return parsed;
}

Result<TargetOutput> RunRenderTarget(const std::vector<InputFile>& inputs,
                                     const std::vector<std::string>& command) {
  auto parsed = ParseRenderCommand(command);
  if (!parsed.ok()) return parsed.take_error();
  std::vector<source::ParsedFile> files;
  files.reserve(inputs.size());
  for (const InputFile& input : inputs) files.push_back({input.name, input.documents});
  source::LoadOptions load;
  load.default_namespace = parsed->pipeline.default_namespace;
  load.enforce_namespace = parsed->namespace_given;
  source::ManifestSet manifests = source::AdmitDocuments(files, load);

  TargetOutput output;
  output.diagnostics = std::move(manifests.diagnostics);
  pipeline::PipelineResult result = pipeline::RenderManifests(manifests, parsed->pipeline);
  output.objects = std::move(result.objects);
  output.diagnostics.insert(output.diagnostics.end(), result.diagnostics.begin(),
                            result.diagnostics.end());
  return output;
}

}  // namespace tjr::conformance
