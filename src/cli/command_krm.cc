// `tjrender krm`: a KRM function (kustomize functions-spec, config.kubernetes.io/v1
// ResourceList) for kustomize's exec functions and `kpt fn eval --exec`.
#include <boost/program_options.hpp>

#include "base/file.h"
#include "cli/command.h"
#include "cli/commands.h"
#include "cli/findings_output.h"
#include "app/integration_render.h"
#include "cli/options.h"
#include "cli/output.h"
#include "integrate/krm.h"
#include "integrate/resource_list_edit.h"

namespace tjr::cli {
namespace po = boost::program_options;

namespace {

const char kUsage[] =
    "usage: tjrender krm [--mode validate|render] [--target T]\n\n"
    "A KRM function: reads a ResourceList on stdin and writes one on stdout with the items and\n"
    "a `results` entry per finding (severity, message led by FILE:LINE:COL, resourceRef,\n"
    "field.path, file.path / file.index from the items' config.kubernetes.io path annotations,\n"
    "tags.rule). validate (default) returns the ResourceList byte for byte with only `results`\n"
    "added; render replaces TrainJobs by the objects the Trainer controller would create and\n"
    "leaves runtimes out, every other item byte for byte. The functionConfig's data.mode /\n"
    "data.target (a ConfigMap, as `kpt fn eval -- mode=render` builds) work as the flags.\n"
    "Exit 1 when a result is an error.\n";

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

int RunKrm(const std::vector<std::string>& args) {
  std::string mode;
  std::string target;
  ReportOptions report_options;
  std::vector<std::string> positional;
  po::options_description named("options");
  named.add_options()("help,h", "show this help")("mode", po::value(&mode), "validate or render")(
      "target", po::value(&target), "emulated Trainer version");
  if (auto exit_code = ParseCommandLine(args, named, &positional, kUsage)) return *exit_code;
  if (!positional.empty()) {
    ReportUsageError("krm reads a ResourceList on stdin and takes no PATH");
    return kExitUsage;
  }
  Result<std::string> input = ReadFile("-");
  if (!input.ok()) {
    Report(input.error());
    return kExitUsage;
  }
  Result<integrate::ResourceList> list = integrate::ReadResourceList(*input, "<stdin>");
  if (!list.ok()) {
    Report(list.error());
    return kExitUsage;
  }
  if (mode.empty()) mode = integrate::FunctionConfigValue(*list, "mode");
  if (mode.empty()) mode = "validate";
  if (target.empty()) target = integrate::FunctionConfigValue(*list, "target");
  if (mode != "validate" && mode != "render") {
    ReportUsageError("mode must be validate or render, not '" + mode + "'");
    return kExitUsage;
  }
  Result<app::RepoConfig> config = app::ReadRepoConfig(app::kRepoConfigFile);
  if (!config.ok()) {
    Report(config.error());
    return kExitUsage;
  }
  pipeline::PipelineOptions pipeline_options;
  if (auto exit_code = ChooseTarget(target, *config, &pipeline_options.target)) return *exit_code;

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
  FindingsOutput findings;
  if (!findings.Init(report_options)) return kExitUsage;
  // Findings name the user's files and lines, not lines of stdin.
  findings.SetLocationMap([&list](const Location& at) {
    return integrate::FileLocation(list->origins, list->source_name, at);
  });
  std::map<std::string, std::vector<doc::Node>> rendered =
      app::ValidateAndRender(manifests, *config, pipeline_options, &findings, mode == "render");

  std::vector<integrate::ItemEdit> edits;
  if (mode == "render") {
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
          findings.Add(*d, RefOf(doc::ObjectId::Of(item)));
          continue;
        }
      }
      std::size_t index = 0;
      for (doc::Node made : it->second) {
        Annotate(integrate::ItemPath(item), index++, &made);
        edits[i].added.push_back(std::move(made));
      }
    }
  }
  if (!findings.Finish()) return kExitUsage;
  WriteStdout(integrate::EditResourceList(*list, edits, integrate::Results(*list, findings.findings())));
  if (findings.has_input_errors()) return kExitUsage;
  return findings.has_errors() ? kExitFindings : kExitClean;
}

}  // namespace tjr::cli
