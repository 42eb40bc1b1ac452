// `tjrender render` and `tjrender check`: the manifest set through the
// pipeline, objects to stdout or a folder, findings to stderr.
#include "cli/render_flow.h"

#include <boost/program_options.hpp>

#include <filesystem>
#include <optional>
#include <set>
#include <system_error>

#include "base/file.h"
#include "cli/command.h"
#include "cli/findings_output.h"
#include "cli/manifest_tree.h"
#include "cli/out_check.h"
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
    "usage: tjrender render PATH... [--target TARGET] [-o -|--out DIR] [--format yaml|json]\n"
    "                       [--namespace NS] [--strict] [--verbose] [--threads N]\n"
    "                       [--findings-format FORMAT] [--report FORMAT=FILE]...\n\n"
    "Renders every TrainJob under PATH (files or folders of *.yaml, *.yml, *.json; - is stdin)\n"
    "against its (Cluster)TrainingRuntime as the Kubeflow Trainer controller would: -o - prints\n"
    "every object as one stream, --out DIR writes DIR/<namespace>/<trainjob>.yaml. Errors go to\n"
    "stderr as FILE:LINE:COL: error: MESSAGE. Exit 0 clean, 1 validation errors, 2 usage or\n"
    "input errors. A .tjrender.yaml in the first PATH (or a parent folder) may set `target:`\n"
    "and `ignore:` rules. --findings-format (text, json, junit, sarif, github) sets how findings\n"
    "are written to stderr; --report FORMAT=FILE also writes them to FILE.\n"
    "Flyte tasks under PATH render into Pods (--out: DIR/<namespace>/<task>.pod.yaml) with the\n"
    "PodTemplates and the propeller ConfigMap found there, or --flyte-config FILE;\n"
    "--target flyte-v1.16 (default) or flyte-v2 selects the Flyte version.\n";

const char kCheckUsage[] =
    "usage: tjrender check PATH... [--target TARGET] [--namespace NS] [--strict]\n"
    "                      [--verbose] [--threads N] [--format FORMAT] [--report FORMAT=FILE]...\n\n"
    "Validates every TrainJob under PATH as `tjrender render` does, without writing objects.\n"
    "--format text (default, on stderr) or json, junit, sarif, github (on stdout);\n"
    "--report FORMAT=FILE (repeatable) also writes the findings to FILE.\n";

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
  ReportOptions report;
  bool check_out = false;       ///< --check: compare with --out DIR, write nothing
  std::string repo;             ///< --repo DIR: runtimes for the entry-point PATHs
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
  Output(const FlowOptions& options, bool write, OutTreeCheck* check)
      : options_(options), write_(write), check_(check) {}

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
    std::string bytes;
    for (std::size_t i = 0; i < objects.size(); ++i) {
      if (i > 0 && !json) bytes += "---\n";
      AppendObject(objects[i], json, &bytes);
    }
    std::string extension = suffix;
    if (json) extension = extension.substr(0, extension.size() - 5) + ".json";
    fs::path path = dir / (name + extension);
    if (check_ != nullptr) {
      check_->Expect(path.string(), bytes);
      return true;
    }
    std::error_code error;
    fs::create_directories(dir, error);
    if (error) {
      Report(AsInputError(MakeError(Location{InternSourceName(dir.string())}, "",
                                    "cannot create directory: " + error.message())));
      return false;
    }
    Status written = WriteFileAtomically(path.string(), bytes);
    if (!written.ok()) {
      Report(AsInputError(written.take_error()));
      return false;
    }
    return true;
  }

  const FlowOptions& options_;
  bool write_;
  OutTreeCheck* check_;
  bool wrote_any_ = false;
  std::string buffer_;
};

std::optional<int> ParseFlowOptions(const std::vector<std::string>& args, bool write,
                                    FlowOptions* options) {
  po::options_description named("options");
  named.add_options()("help,h", "show this help")(
      "target", po::value(&options->target), "emulated Trainer version (trainer-v2.1, trainer-v2.2, trainer-v2.3; default trainer-v2.3)")(
      "namespace", po::value(&options->namespace_),
      "namespace of objects written without one (default: default)")(
      "flyte-config", po::value(&options->flyte_config),
      "propeller configuration file (plugins.k8s) for Flyte tasks")(
      "strict", po::bool_switch(&options->strict), "treat warnings as errors")(
      "verbose,v", po::bool_switch(&options->verbose), "print counts and notes")(
      "threads", po::value(&options->threads), "worker threads (default: the number of cores)");
  AddReportOptions(&named, &options->report, write ? "findings-format" : "format");
  named.add_options()("repo", po::value(&options->repo),
                      "PATHs are entry points; runtimes also come from DIR (pre-commit)");
  if (write) {
    named.add_options()("check", po::bool_switch(&options->check_out),
                        "with --out DIR: fail when DIR is not what render would write");
  }
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
  if (options->check_out && options->out_dir.empty()) {
    ReportUsageError("--check needs --out DIR (the rendered tree to compare)");
    return kExitUsage;
  }
  options->report.verbose = options->verbose;
  options->report.stream_is_stdout = !write && options->report.stream_format != "text";
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

// --repo DIR: the runtimes of DIR join the entry points' objects, so a
// pre-commit hook given only the staged TrainJobs resolves their runtimes.
// Files named as entry points and objects already loaded are not read twice;
// problems in DIR's other files are not the entry points' findings.
void AddRepositoryRuntimes(const std::string& repo, const source::LoadOptions& entry_options,
                           source::ManifestSet* manifests) {
  std::set<std::string> entry_files;
  std::set<doc::ObjectId> loaded;
  std::error_code error;
  for (const std::string& file : manifests->files) {
    entry_files.insert(fs::weakly_canonical(file, error).string());
  }
  for (const source::Manifest& m : manifests->manifests) loaded.insert(m.id);
  source::LoadOptions options = entry_options;
  options.enforce_namespace = false;
  std::erase_if(options.types, [](const source::ObjectType& t) { return t.kind == "TrainJob"; });
  source::ManifestSet runtimes = source::LoadManifests(ManifestTree(), {repo}, options);
  std::size_t added = 0;
  for (source::Manifest& m : runtimes.manifests) {
    if (entry_files.count(fs::weakly_canonical(m.file, error).string()) || loaded.count(m.id)) continue;
    manifests->manifests.push_back(std::move(m));
    ++added;
  }
  Note("--repo " + repo + ": " + std::to_string(added) + " runtime(s) added, " +
       std::to_string(runtimes.diagnostics.size()) + " message(s) about its other files not shown");
}

}  // namespace

int RunRenderFlow(const std::vector<std::string>& args, bool write_objects) {
  FlowOptions options;
  if (auto exit_code = ParseFlowOptions(args, write_objects, &options)) return *exit_code;
  SetVerbose(options.verbose);

  FindingsOutput findings;
  if (!findings.Init(options.report)) return kExitUsage;

  // A Flyte target selects the Flyte version; Trainer keeps its own.
  flyte::FlyteOptions flyte_options;
  if (std::optional<flyte::Version> version = flyte::VersionForTarget(options.target)) {
    flyte_options.version = *version;
    options.target.clear();
  }
  pipeline::PipelineOptions pipeline_options;
  pipeline_options.strict = options.strict;
  pipeline_options.threads = options.threads;
  std::string config_path = RepoConfigPath(options.paths);
  Result<RepoConfig> config = ReadRepoConfig(config_path);
  if (!config.ok()) {
    Report(config.error());
    return kExitUsage;
  }
  if (options.target.empty() && config->target) {
    options.target = *config->target;
    Note("target " + options.target + " from " + config_path);
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
  load_options.threads = options.threads;
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
  if (!options.repo.empty()) AddRepositoryRuntimes(options.repo, load_options, &manifests);

  bool input_error = false;
  findings.Add(manifests.diagnostics);
  findings.SetIgnores(CollectIgnores(config->ignore, manifests, &findings));
  pipeline_options.ignored_warning = [&findings](const doc::ObjectId& id, const Diagnostic& d) {
    return findings.Ignores(RefOf(id.api_version, id.kind, id.namespace_, id.name), d);
  };

  std::optional<OutTreeCheck> out_check;
  if (options.check_out) {
    std::string rerun = "`tjrender render";
    for (const std::string& p : options.paths) rerun += " " + p;
    out_check.emplace(options.out_dir, rerun + " --out " + options.out_dir + "`");
  }
  Output output(options, write_objects, out_check ? &*out_check : nullptr);
  pipeline::PipelineSummary summary = pipeline::RenderManifests(
      manifests, pipeline_options, [&](pipeline::TrainJobResult&& result) {
        report::ObjectRef ref =
            RefOf(result.id.api_version, result.id.kind, result.id.namespace_, result.id.name);
        findings.AddSubject(ref);
        findings.AddRendered(result.objects.size());
        findings.Add(result.diagnostics, ref);
        if (!output.Add(result)) input_error = true;
      });
  flyte::FlyteOutcome flyte_outcome = flyte::RenderFlyte(manifests, flyte_options);
  findings.Add(flyte_outcome.diagnostics);
  for (const flyte::TaskResult& task : flyte_outcome.tasks) {
    report::ObjectRef ref = RefOf("flyteidl.core", "TaskTemplate", task.namespace_, task.name);
    findings.AddSubject(ref);
    findings.AddRendered(task.objects.size());
    findings.Add(task.diagnostics, ref);
    if (!output.Add(task)) input_error = true;
  }
  if (options.verbose && !flyte_outcome.tasks.empty()) {
    Note("read " + std::to_string(flyte_outcome.tasks.size()) + " Flyte task(s)");
  }
  output.Flush();
  for (const Diagnostic& d : summary.diagnostics) findings.Add(d, ObjectAt(manifests, d));
  if (out_check) findings.Add(out_check->Finish());
  if (!findings.Finish()) input_error = true;
  if (options.verbose) ReportCounts(manifests, summary);
  if (input_error || findings.has_input_errors()) return kExitUsage;
  return findings.has_errors() ? kExitFindings : kExitClean;
}

}  // namespace tjr::cli
