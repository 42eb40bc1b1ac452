#include "conformance/migrate_target.h"

#include <string_view>
#include <utility>

#include "app/migrate_files.h"
#include "migrate/compare.h"
#include "migrate/plan.h"
#include "migrate/rewrite.h"
#include "source/memory_tree.h"

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

// What the target keeps of a run: each changed file and each TrainJob that
// renders differently as an object, every diagnostic as it arrives.
class Collector final : public app::MigrateSink {
 public:
  void Problem(const Diagnostic& problem) override { output.diagnostics.push_back(problem); }
  void Migrated(const app::MigratedText& migrated) override {
    doc::Node file = Object("MigratedFile", Metadata("", std::string(std::string_view(migrated.name).substr(6))));
    file.Set("text", doc::Node::String(migrated.after));
    output.objects.push_back(std::move(file));
  }
  void Compared(const migrate::TrainJobComparison& trainjob) override {
    const std::size_t slash = trainjob.train_job.find('/');
    doc::Node differences = doc::Node::Sequence();
    for (const std::string& line : trainjob.differences) differences.push_back(doc::Node::String(line));
    doc::Node object = Object("RenderDifferences", Metadata(trainjob.train_job.substr(0, slash),
                                                            trainjob.train_job.substr(slash + 1)));
    object.Set("differences", std::move(differences));
    output.objects.push_back(std::move(object));
  }

  TargetOutput output;
};

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

  // The case's files are read as `tjrender migrate input/` reads them,
  // through the same entry point.
  source::MemoryTree tree;
  for (const InputFile& input : inputs) tree.Put(input.name, input.text);
  app::MigrateRequest request;
  request.paths = {"input"};
  request.tree = &tree;
  request.rewrite = rewrite_options;
  request.compare = compare_options;
  Collector collector;
  app::MigrateFiles(request, collector);
  return std::move(collector.output);
}

}  // namespace tjr::conformance
