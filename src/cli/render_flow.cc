// `tjrender render` and `tjrender check`: the manifest set through the
// pipeline, objects to stdout or a folder, findings to stderr.
#include "cli/render_flow.h"

#include <boost/program_options.hpp>

#include <filesystem>
#include <system_error>

#include "base/file.h"
#include "cli/command.h"
#include "cli/options.h"
#include "cli/output.h"
#include "cli/render_config.h"
#include "flyte/render.h"
#include "json/json.h"
#include "pipeline/pipeline.h"
#include "source/disk_tree.h"
#include "source/loader.h"
#include "yaml/reader.h"
#include "yaml/writer.h"

namespace tjr::cli {
namespace po = boost::program_options;
namespace fs = std::filesystem;

namespace {

const char kRenderUsage[] =
    "usage: tjrender render PATH... [--target trainer-v2.1] [-o -|--out DIR] [--format yaml|json]\n"
    "                       [--namespace NS] [--strict] [--verbose] [--threads N]\n\n"
    "Renders every TrainJob under PATH (files or folders of *.yaml, *.yml, *.json; - is stdin)\n"
    "against its (Cluster)TrainingRuntime as the Kubeflow Trainer controller would: -o - prints\n"
    "every object as one stream, --out DIR writes DIR/<namespace>/<trainjob>.yaml. Errors go to\n"
    "stderr as FILE:LINE:COL: error: MESSAGE. Exit 0 clean, 1 validation errors, 2 usage or\n"
    "input errors. A .tjrender.yaml in the first PATH (or here) may set `target:`.\n"
    "Flyte tasks under PATH render into Pods (--out: DIR/<namespace>/<task>.pod.yaml) with the\n"
    "PodTemplates and the propeller ConfigMap found there, or --flyte-config FILE;\n"
    "--target flyte-v1.16 (default) or flyte-v2 selects the Flyte version.\n";

const char kCheckUsage[] =
    "usage: tjrender check PATH... [--target trainer-v2.1] [--namespace NS] [--strict]\n"
    "                      [--verbose] [--threads N]\n\n"
    "Validates every TrainJob under PATH as `tjrender render` does, without writing objects.\n";

struct FlowOptions {
  std::string target;
  std::string output;
  std::string out_dir;
  std::string format = "yaml";
  std::string namespace_;
  std::string flyte_config;
  bool strict = false;
  bool verbose = false;
  unsigned threads = 0;
  std::vector<std::string> paths;
};

// One path component of an output file: a Kubernetes name, never a way out
// of the output folder.
bool SafeComponent(const std::string& name) {
  if (name.empty() || name == "." || name == "..") return false;
  for (char c : name) {
    if (c == '/' || c == '\\' || c == '\0') return false;
  }
  return true;
}

// The file system minus the repository configuration: .tjrender.yaml has a
// manifest extension but is no manifest, so directory walks do not see it.
class ManifestTree : public source::Tree {
 public:
  Result<source::EntryType> Stat(const std::string& path) const override {
    return disk_.Stat(path);
  }
  Result<std::vector<source::DirEntry>> List(const std::string& path) const override {
    Result<std::vector<source::DirEntry>> entries = disk_.List(path);
    if (entries.ok()) {
      std::erase_if(*entries, [](const source::DirEntry& e) { return e.name == kRepoConfigFile; });
    }
    return entries;
  }
  Result<std::string> Resolve(const std::string& path) const override {
    return disk_.Resolve(path);
  }
  Result<std::string> Read(const std::string& path, std::size_t max_bytes) const override {
    return disk_.Read(path, max_bytes);
  }

 private:
  source::DiskTree disk_;
};

void AppendObject(const doc::Node& object, bool json, std::string* out) {
  if (json) {
    *out += json::Write(object, true);
  } else {
    yaml::Write(object, out);
  }
}

// Writes each TrainJob's objects as it arrives, so nothing is held longer
// than the pipeline's window.
class Output {
 public:
  Output(const FlowOptions& options, bool write) : options_(options), write_(write) {}

  /// Returns false when a file could not be written (reported).
  bool Add(const pipeline::TrainJobResult& result) {
    return Add(result.id.namespace_, result.id.name, result.file, result.objects, ".yaml");
  }

  bool Add(const flyte::TaskResult& result) {
    return Add(result.namespace_, result.name, result.file, result.objects, ".pod.yaml");
  }

  bool Add(const std::string& namespace_, const std::string& name, const std::string& file,
           const std::vector<doc::Node>& objects, const char* suffix) {
    if (!write_ || objects.empty()) return true;
    const bool json = options_.format == "json";
    if (options_.out_dir.empty()) {
      for (const doc::Node& object : objects) {
        if (wrote_any_ && !json) buffer_ += "---\n";
        AppendObject(object, json, &buffer_);
        wrote_any_ = true;
      }
      if (buffer_.size() >= (std::size_t{1} << 20)) Flush();
      return true;
    }
    return WriteFile(namespace_, name, file, objects, json, suffix);
  }

  void Flush() {
    if (!buffer_.empty()) WriteStdout(buffer_);
    buffer_.clear();
  }

 private:
  bool WriteFile(const std::string& namespace_, const std::string& name, const std::string& file,
                 const std::vector<doc::Node>& objects, bool json, const char* suffix) {
    Location at{InternSourceName(file)};
    if (!SafeComponent(namespace_) || !SafeComponent(name)) {
      Report(AsInputError(MakeError(at, "", "cannot write \"" + name + "\" in namespace \"" +
                                                namespace_ + "\": the name is not a safe file name")));
      return false;
    }
    fs::path dir = fs::path(options_.out_dir) / namespace_;
    std::error_code error;
    fs::create_directories(dir, error);
    if (error) {
      Report(AsInputError(MakeError(Location{InternSourceName(dir.string())}, "",
                                    "cannot create directory: " + error.message())));
      return false;
    }
    std::string bytes;
    for (std::size_t i = 0; i < objects.size(); ++i) {
      if (i > 0 && !json) bytes += "---\n";
      AppendObject(objects[i], json, &bytes);
    }
    std::string extension = suffix;
    if (json) extension = extension.substr(0, extension.size() - 5) + ".json";
    fs::path path = dir / (name + extension);
    Status written = WriteFileAtomically(path.string(), bytes);
    if (!written.ok()) {
      Report(AsInputError(written.take_error()));
      return false;
    }
    return true;
  }

  const FlowOptions& options_;
  bool write_;
  bool wrote_any_ = false;
  std::string buffer_;
};

std::optional<int> ParseFlowOptions(const std::vector<std::string>& args, bool write,
                                    FlowOptions* options) {
  po::options_description named("options");
  named.add_options()("help,h", "show this help")(
      "target", po::value(&options->target), "emulated Trainer version (trainer-v2.1)")(
      "namespace", po::value(&options->namespace_),
      "namespace of objects written without one (default: default)")(
      "flyte-config", po::value(&options->flyte_config),
      "propeller configuration file (plugins.k8s) for Flyte tasks")(
      "strict", po::bool_switch(&options->strict), "treat warnings as errors")(
      "verbose,v", po::bool_switch(&options->verbose), "print counts and notes")(
      "threads", po::value(&options->threads), "worker threads (default: the number of cores)");
  if (write) {
    named.add_options()("output,o", po::value(&options->output), "- prints every object to stdout")(
        "out", po::value(&options->out_dir), "write DIR/<namespace>/<trainjob>.yaml")(
        "format", po::value(&options->format), "yaml (default) or json");
  }
  if (auto exit_code =
          ParseCommandLine(args, named, &options->paths, write ? kRenderUsage : kCheckUsage)) {
    return exit_code;
  }
  if (options->paths.empty()) {
    ReportUsageError(std::string(write ? "render" : "check") + " needs at least one PATH");
    return kExitUsage;
  }
  if (!options->output.empty() && options->output != "-") {
    ReportUsageError("-o takes only - (stdout); use --out DIR to write files");
    return kExitUsage;
  }
  if (!options->output.empty() && !options->out_dir.empty()) {
    ReportUsageError("-o - and --out DIR cannot be used together");
    return kExitUsage;
  }
  if (options->format != "yaml" && options->format != "json") {
    ReportUsageError("--format must be yaml or json, not '" + options->format + "'");
    return kExitUsage;
  }
  return std::nullopt;
}

// The --flyte-config file: one YAML (or JSON) document.
Result<doc::Node> ReadFlyteConfig(const std::string& path) {
  Result<std::string> text = ReadFile(path, std::size_t{64} << 20);
  if (!text.ok()) return text.take_error();
  Result<std::vector<doc::Node>> documents = yaml::ReadStream(*text, path);
  if (!documents.ok()) return documents.take_error();
  if (documents->empty()) return doc::Node::Mapping();
  return (*documents)[0];
}

void ReportCounts(const source::ManifestSet& manifests, const pipeline::PipelineSummary& summary) {
  Note("read " + std::to_string(manifests.files.size()) + " file(s): " +
       std::to_string(summary.train_jobs) + " TrainJob(s), " + std::to_string(summary.runtimes) +
       " runtime(s)");
  for (const auto& [key, count] : manifests.ignored) {
    Note("ignored " + std::to_string(count) + " object(s) of kind " + key.kind + " (" +
         key.api_version + ")");
  }
}

}  // namespace

int RunRenderFlow(const std::vector<std::string>& args, bool write_objects) {
  FlowOptions options;
  if (auto exit_code = ParseFlowOptions(args, write_objects, &options)) return *exit_code;
  SetVerbose(options.verbose);

  // A Flyte target selects the Flyte version; Trainer keeps its own.
  flyte::FlyteOptions flyte_options;
  if (std::optional<flyte::Version> version = flyte::VersionForTarget(options.target)) {
    flyte_options.version = *version;
    options.target.clear();
  }
  pipeline::PipelineOptions pipeline_options;
  pipeline_options.strict = options.strict;
  pipeline_options.threads = options.threads;
  if (options.target.empty()) {
    std::string config_path = RepoConfigPath(options.paths);
    Result<RepoConfig> config = ReadRepoConfig(config_path);
    if (!config.ok()) {
      Report(config.error());
      return kExitUsage;
    }
    if (config->target) {
      options.target = *config->target;
      Note("target " + options.target + " from " + config_path);
    }
  }
  if (!options.target.empty()) pipeline_options.target = options.target;
  const std::vector<std::string>& targets = pipeline::SupportedTargets();
  if (std::find(targets.begin(), targets.end(), pipeline_options.target) == targets.end()) {
    std::string list;
    for (const std::string& t : targets) list += (list.empty() ? "" : ", ") + t;
    ReportUsageError("unsupported target '" + pipeline_options.target + "' (supported: " + list +
                     ")");
    return kExitUsage;
  }

  source::LoadOptions load_options;
  if (!options.namespace_.empty()) {
    load_options.default_namespace = options.namespace_;
    load_options.enforce_namespace = true;
    pipeline_options.default_namespace = options.namespace_;
  }
  for (const source::ObjectType& type : flyte::FlyteObjectTypes()) load_options.types.push_back(type);
  flyte::AcceptFlyteTasks(&load_options);
  flyte_options.strict = options.strict;
  flyte_options.default_namespace = load_options.default_namespace;
  if (!options.flyte_config.empty()) {
    Result<doc::Node> config = ReadFlyteConfig(options.flyte_config);
    if (!config.ok()) {
      Report(AsInputError(config.take_error()));
      return kExitUsage;
    }
    flyte_options.config_document = std::move(*config);
  }
  source::ManifestSet manifests = source::LoadManifests(ManifestTree(), options.paths, load_options);

  bool input_error = false;
  bool findings = false;
  auto report = [&](const Diagnostic& d) {
    if (d.severity == Severity::kNote) {
      if (options.verbose) Report(d);
      return;
    }
    Report(d);
    if (d.severity == Severity::kError) {
      (d.category == Category::kInput ? input_error : findings) = true;
    }
  };
  for (const Diagnostic& d : manifests.diagnostics) report(d);

  Output output(options, write_objects);
  pipeline::PipelineSummary summary = pipeline::RenderManifests(
      manifests, pipeline_options, [&](pipeline::TrainJobResult&& result) {
        for (const Diagnostic& d : result.diagnostics) report(d);
        if (!output.Add(result)) input_error = true;
      });
  flyte::FlyteOutcome flyte_outcome = flyte::RenderFlyte(manifests, flyte_options);
  for (const Diagnostic& d : flyte_outcome.diagnostics) report(d);
  for (const flyte::TaskResult& task : flyte_outcome.tasks) {
    for (const Diagnostic& d : task.diagnostics) report(d);
    if (!output.Add(task)) input_error = true;
  }
  if (options.verbose && !flyte_outcome.tasks.empty()) {
    Note("read " + std::to_string(flyte_outcome.tasks.size()) + " Flyte task(s)");
  }
  output.Flush();
  for (const Diagnostic& d : summary.diagnostics) report(d);
  if (options.verbose) ReportCounts(manifests, summary);
  if (input_error) return kExitUsage;
  return findings ? kExitFindings : kExitClean;
}

}  // namespace tjr::cli
