#include "conformance/migrate_target.h"

#include <set>
#include <string_view>

#include "migrate/compare.h"
#include "migrate/plan.h"
#include "migrate/rewrite.h"

namespace tjr::conformance {
namespace {

constexpr const char* kApiVersion = "conformance.tjrender/v1";

Diagnostic CommandError(std::string message) {
  return AsInputError(MakeError(Location{}, "command", std::move(message)));
}

doc::Node Metadata(const std::string& namespace_, const std::string& name) {
  doc::Node metadata = doc::Node::Mapping();
  metadata.Set("name", doc::Node::String(name));
  if (!namespace_.empty()) metadata.Set("namespace", doc::Node::String(namespace_));
  return metadata;
}

doc::Node Object(const char* kind, doc::Node metadata) {
  doc::Node object = doc::Node::Mapping();
  object.Set("apiVersion", doc::Node::String(kApiVersion));
  object.Set("kind", doc::Node::String(kind));
  object.Set("metadata", std::move(metadata));
  return object;
}

}  // namespace

Result<TargetOutput> RunMigrateTarget(const std::vector<InputFile>& inputs,
                                      const std::vector<std::string>& command) {
  migrate::RewriteOptions rewrite_options;
  migrate::CompareOptions compare_options;
  compare_options.threads = 1;
  for (std::size_t i = 0; i < command.size(); ++i) {
    const std::string& argument = command[i];
    if (argument == "--target" && i + 1 < command.size() &&
        (command[i + 1] == "trainer-v2.3" || command[i + 1] == "trainer-pr3199-preview")) {
      if (command[++i] == "trainer-pr3199-preview") {
        rewrite_options.shape = migrate::Shape::kTemplateOverridesPreview;
      }
      continue;
    }
    if ((argument == "--manager" || argument == "--namespace") && i + 1 < command.size()) {
      (argument == "--manager" ? rewrite_options.manager : compare_options.default_namespace) =
          command[++i];
      continue;
    }
    return CommandError("unknown option '" + argument +
                        "' for target migrate (known: --manager NAME, --namespace NS, "
                        "--target trainer-v2.3|trainer-pr3199-preview)");
  }
  if (std::string problem = migrate::CheckManager(rewrite_options.manager); !problem.empty()) {
    return CommandError("--manager " + rewrite_options.manager + ": " + problem);
  }

  TargetOutput output;
  std::vector<source::ParsedFile> before;
  std::vector<source::ParsedFile> after;
  std::set<std::string> skip;
  for (const InputFile& input : inputs) {
    auto rewrite = migrate::RewriteFile(input.text, input.name, rewrite_options);
    if (!rewrite.ok()) {
      output.diagnostics.push_back(rewrite.take_error());
      continue;
    }
    output.diagnostics.insert(output.diagnostics.end(), rewrite->errors.begin(),
                              rewrite->errors.end());
    if (rewrite->text != input.text) {
      doc::Node file = Object("MigratedFile",
                              Metadata("", std::string(std::string_view(input.name).substr(6))));
      file.Set("text", doc::Node::String(rewrite->text));
      output.objects.push_back(std::move(file));
    }
    for (const migrate::TrainJobMigration& trainjob : rewrite->trainjobs) {
      const doc::Node* spec = trainjob.before.Find("spec");
      const bool modern = spec != nullptr && spec->is_mapping() &&
                          spec->Find("runtimePatches") != nullptr;
      if (trainjob.failed || modern) {
        skip.insert((trainjob.namespace_.empty() ? compare_options.default_namespace
                                                 : trainjob.namespace_) +
                    "/" + trainjob.name);
      }
    }
    before.push_back({input.name, rewrite->before});
    after.push_back({input.name, rewrite->after});
  }
  // No Trainer release reads the preview's templateOverrides: nothing to render.
  if (rewrite_options.shape == migrate::Shape::kTemplateOverridesPreview) return output;
  migrate::Comparison comparison = migrate::CompareRenders(before, after, skip, compare_options);
  output.diagnostics.insert(output.diagnostics.end(), comparison.errors.begin(),
                            comparison.errors.end());
  for (const migrate::TrainJobComparison& trainjob : comparison.trainjobs) {
    const std::size_t slash = trainjob.train_job.find('/');
    doc::Node differences = doc::Node::Sequence();
    for (const std::string& line : trainjob.differences) {
      differences.push_back(doc::Node::String(line));
    }
    doc::Node object = Object("RenderDifferences", Metadata(trainjob.train_job.substr(0, slash),
                                                            trainjob.train_job.substr(slash + 1)));
    object.Set("differences", std::move(differences));
    output.objects.push_back(std::move(object));
  }
  return output;
}

}  // namespace tjr::conformance
