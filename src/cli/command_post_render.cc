// `tjrender post-render`: a Helm post-renderer (`helm install|upgrade|template
// --post-renderer tjrender --post-renderer-args post-render`). The manifest
// stream comes on stdin and goes back on stdout; TrainJobs and runtimes are
// checked, and in --mode render TrainJobs are replaced by what the Trainer
// controller would create.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <boost/program_options.hpp>

#include "base/file.h"
#include "cli/command.h"
#include "cli/commands.h"
#include "cli/findings_output.h"
#include "app/integration_render.h"
#include "cli/options.h"
#include "cli/output.h"
#include "doc/objects.h"
#include "integrate/yaml_stream.h"

namespace tjr::cli {
namespace po = boost::program_options;

namespace {

const char kUsage[] =
    "usage: tjrender post-render [--mode validate|render] [--target T] [--namespace NS]\n"
    "                            [--findings-format FORMAT] [--report FORMAT=FILE]...\n\n"
    "Reads a manifest stream on stdin and writes it to stdout. --mode validate (default): the\n"
    "stream comes back byte for byte once its TrainJobs and runtimes check clean. --mode render:\n"
    "each TrainJob document is replaced by the objects the Trainer controller would create\n"
    "(carrying the TrainJob's postrenderer.helm.sh/postrender-filename annotation), runtime\n"
    "documents are left out, every other document is passed through byte for byte.\n"
    "Objects written without a namespace are rendered without one, as Helm applies its release\n"
    "namespace itself; --namespace NS (Helm's release namespace) writes NS into them instead.\n"
    "Findings go to stderr; any error exits 1 with nothing on stdout.\n";

constexpr char kHelmFilename[] = "postrenderer.helm.sh/postrender-filename";

// Helm does not tell a post-renderer its release namespace (Helm 3 runs
// the binary with the stream alone, pkg/postrender/exec.go; Helm 4 hands a
// plugin the manifests and args, pkg/postrenderer/postrenderer.go) and
// applies it to namespace-less objects itself (pkg/kube/client.go,
// NamespaceParam(...).DefaultNamespace()): without --namespace, objects
// without one are rendered in app::kUntoldNamespace and written without one.
constexpr char kHelmNamespaceWho[] =
    "Helm does not tell a post-renderer its release namespace: pass --namespace with the release namespace";

// Copies Helm's file annotation from the TrainJob to an object it created,
// so Helm files the object with its template.
void CarryHelmFilename(const doc::Node& trainjob, doc::Node* object) {
  const doc::Node* metadata = trainjob.Find("metadata");
  const doc::Node* annotations = metadata != nullptr ? metadata->Find("annotations") : nullptr;
  const doc::Node* file = annotations != nullptr && annotations->is_mapping()
                              ? annotations->Find(kHelmFilename)
                              : nullptr;
  if (file == nullptr || !object->is_mapping()) return;
  doc::Node* out_metadata = object->FindMutable("metadata");
  if (out_metadata == nullptr) out_metadata = &object->Set("metadata", doc::Node::Mapping());
  doc::Node* out_annotations = out_metadata->FindMutable("annotations");
  if (out_annotations == nullptr || !out_annotations->is_mapping()) {
    out_annotations = &out_metadata->Set("annotations", doc::Node::Mapping());
  }
  out_annotations->Set(kHelmFilename, *file);
}

bool HoldsTrainerObjects(const std::vector<doc::Node>& documents) {
  for (const doc::Node& d : documents) {
    Result<std::vector<doc::Node>> flat = doc::FlattenLists({d});
    if (!flat.ok()) continue;
    for (const doc::Node& object : *flat) {
      if (app::IsTrainJob(object) || app::IsRuntime(object)) return true;
    }
  }
  return false;
}

// The output stream of --mode render: documents without Trainer objects
// byte for byte; a document with some written again from its objects,
// TrainJobs replaced by what they create, runtimes dropped.
std::string RenderStream(const std::vector<integrate::RawDocument>& raw,
                         const std::vector<std::vector<doc::Node>>& parsed,
                         const std::string& default_namespace, bool namespace_given,
                         std::map<std::string, std::vector<doc::Node>>* rendered, FindingsOutput* findings) {
  std::string out;
  for (std::size_t i = 0; i < raw.size(); ++i) {
    if (!HoldsTrainerObjects(parsed[i])) {
      out += raw[i].text;  // untouched, byte for byte
      continue;
    }
    std::vector<doc::Node> objects;
    for (const doc::Node& d : parsed[i]) {
      Result<std::vector<doc::Node>> flat = doc::FlattenLists({d});
      if (!flat.ok()) continue;
      for (const doc::Node& object : *flat) {
        if (app::IsRuntime(object)) continue;
        if (!app::IsTrainJob(object)) {
          objects.push_back(object);
          continue;
        }
        auto it = rendered->find(app::TrainJobKey(object, default_namespace));
        if (it == rendered->end()) continue;
        std::vector<doc::Node>& made = it->second;
        if (!namespace_given && !app::HasNamespace(object)) {
          if (std::optional<Diagnostic> d = app::LeaveNamespaceUnset(object, kHelmNamespaceWho, &made)) {
            findings->Add(*d, RefOf(doc::ObjectId::Of(object)));
          }
        }
        for (doc::Node& m : made) {
          CarryHelmFilename(object, &m);
          objects.push_back(m);
        }
      }
    }
    if (objects.empty()) continue;
    if (!out.empty() && out.back() != '\n') out += '\n';
    out += "---\n" + app::YamlStream(objects);
  }
  return out;
}

}  // namespace

int RunPostRender(const std::vector<std::string>& args) {
  std::string mode = "validate";
  std::string target;
  std::string namespace_;
  ReportOptions report_options;
  std::vector<std::string> positional;
  po::options_description named("options");
  named.add_options()("help,h", "show this help")("mode", po::value(&mode), "validate or render")(
      "target", po::value(&target), "emulated Trainer version")(
      "namespace", po::value(&namespace_), "namespace of objects written without one")(
      "verbose,v", po::bool_switch(&report_options.verbose), "print notes");
  AddReportOptions(&named, &report_options, "findings-format");
  if (auto exit_code = ParseCommandLine(args, named, &positional, kUsage)) return *exit_code;
  if (!positional.empty() || (mode != "validate" && mode != "render")) {
    ReportUsageError("post-render reads stdin and takes --mode validate|render only");
    return kExitUsage;
  }
  SetVerbose(report_options.verbose);
  FindingsOutput findings;
  if (!findings.Init(report_options)) return kExitUsage;

  Result<app::RepoConfig> config = app::ReadRepoConfig(app::kRepoConfigFile);
  if (!config.ok()) {
    Report(config.error());
    return kExitUsage;
  }
  pipeline::PipelineOptions pipeline_options;
  if (auto exit_code = ChooseTarget(target, *config, &pipeline_options.target)) return *exit_code;
  source::LoadOptions load_options;
  const bool namespace_given = !namespace_.empty();
  load_options.default_namespace = namespace_given ? namespace_ : app::kUntoldNamespace;
  pipeline_options.default_namespace = load_options.default_namespace;

  Result<std::string> input = ReadFile("-");
  if (!input.ok()) {
    Report(input.error());
    return kExitUsage;
  }
  std::vector<integrate::RawDocument> raw = integrate::SplitDocuments(*input);
  std::vector<std::vector<doc::Node>> parsed(raw.size());
  source::ParsedFile file{"<stdin>", {}};
  for (std::size_t i = 0; i < raw.size(); ++i) {
    Result<std::vector<doc::Node>> documents = integrate::ParseDocument(raw[i], "<stdin>");
    if (!documents.ok()) {
      Report(AsInputError(documents.take_error()));
      return kExitUsage;
    }
    parsed[i] = std::move(*documents);
    for (const doc::Node& d : parsed[i]) file.documents.push_back(d);
  }
  source::ManifestSet manifests = source::AdmitDocuments({file}, load_options);
  std::map<std::string, std::vector<doc::Node>> rendered =
      app::ValidateAndRender(manifests, *config, pipeline_options, &findings, mode == "render");

  std::string out;
  if (mode == "render") {
    out = RenderStream(raw, parsed, pipeline_options.default_namespace, namespace_given, &rendered, &findings);
  }
  if (!findings.Finish() || findings.has_input_errors()) return kExitUsage;
  if (findings.has_errors()) return kExitFindings;
  WriteStdout(mode == "validate" ? *input : out);
  return kExitClean;
}

}  // namespace tjr::cli
