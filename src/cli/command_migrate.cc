// `tjrender migrate`: rewrites TrainJobs written for Trainer v2.1
// (podTemplateOverrides, spec.labels/annotations) into runtimePatches, then
// shows what the upgrade changes in the rendered objects.
#include <boost/program_options.hpp>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "base/file.h"
#include "cli/command.h"
#include "cli/commands.h"
#include "cli/options.h"
#include "cli/output.h"
#include "app/render_config.h"
#include "app/target_name.h"
#include "docdiff/unified_diff.h"
#include "migrate/compare.h"
#include "migrate/rewrite.h"
#include "app/manifest_tree.h"
#include "source/disk_tree.h"
#include "source/helm_chart.h"
#include "source/loader.h"
#include "source/walk.h"

namespace tjr::cli {
namespace po = boost::program_options;

namespace {

const char kUsage[] =
    "usage: tjrender migrate PATH... [--manager NAME] [--write] [--accept-differences]\n"
    "                        [--target trainer-v2.3|trainer-pr3199-preview] [--namespace NS]\n"
    "                        [--threads N] [--repo DIR]\n\n"
    "Rewrites every TrainJob under PATH (files, directories, '-') from Trainer v2.1's\n"
    "spec.podTemplateOverrides and spec.labels/annotations into spec.runtimePatches, editing\n"
    "only those blocks: comments, key order, quoting and other documents stay as they are.\n"
    "Without --write it prints a unified diff; with --write it rewrites the files.\n"
    "Then it renders every TrainJob as written at trainer-v2.1 and as migrated at\n"
    "trainer-v2.3 and reports each difference of the rendered objects by field path.\n"
    "Runtimes come from the PATHs and, with --repo DIR, from the rest of DIR (as check\n"
    "--repo finds them). Helm chart templates are left alone.\n\n"
    "Overrides become RuntimePatches in order; an override that patches a job the current\n"
    "patch already patches starts the next one, managed by NAME-2, NAME-3, ...\n\n"
    "--target trainer-pr3199-preview (EXPERIMENTAL) writes spec.templateOverrides in the\n"
    "shape proposed by kubeflow/trainer PR #3199 instead (never released: one entry per\n"
    "override, keyed by manager, with job and pod lists); nothing is rendered for it.\n\n"
    "Exit codes: 0 nothing differs, 1 rendered differences (0 with --accept-differences),\n"
    "2 usage or input errors, including fields runtimePatches has no place for.\n";

struct MigratedFile {
  std::string name;
  std::string read_path;
  bool is_stdin = false;
  std::string text;
  migrate::FileRewrite rewrite;
};

// --repo DIR: the runtimes of DIR that the migrated files do not hold
// themselves, one ParsedFile per file, for both renders.
std::vector<source::ParsedFile> RepositoryRuntimes(const std::string& repo, const std::vector<MigratedFile>& files,
                                                   const std::vector<source::ParsedFile>& before,
                                                   const std::string& default_namespace) {
  namespace fs = std::filesystem;
  std::error_code error;
  std::set<std::string> migrated;
  for (const MigratedFile& file : files) migrated.insert(fs::weakly_canonical(file.read_path, error).string());
  source::LoadOptions options;
  options.default_namespace = default_namespace;
  std::set<doc::ObjectId> present;
  for (const source::Manifest& m : source::AdmitDocuments(before, options).manifests) present.insert(m.id);
  std::erase_if(options.types, [](const source::ObjectType& type) { return type.kind == "TrainJob"; });
  source::ManifestSet repository = source::LoadManifests(app::ManifestTree(), {repo}, options);
  std::map<std::string, source::ParsedFile> by_file;
  std::vector<std::string> order;
  for (source::Manifest& m : repository.manifests) {
    if (migrated.count(fs::weakly_canonical(m.file, error).string()) != 0 || present.count(m.id) != 0) continue;
    auto [at, inserted] = by_file.try_emplace(m.file, source::ParsedFile{m.file, {}});
    if (inserted) order.push_back(m.file);
    at->second.documents.push_back(std::move(m.object));
  }
  std::vector<source::ParsedFile> runtimes;
  for (const std::string& file : order) runtimes.push_back(std::move(by_file[file]));
  return runtimes;
}

std::string TrainJobKey(const migrate::TrainJobMigration& trainjob, const std::string& fallback) {
  return (trainjob.namespace_.empty() ? fallback : trainjob.namespace_) + "/" + trainjob.name;
}

}  // namespace

int RunMigrate(const std::vector<std::string>& args) {
  migrate::RewriteOptions rewrite_options;
  migrate::CompareOptions compare_options;
  bool write = false;
  bool accept = false;
  std::string target = "trainer-v2.3";
  std::string repo;
  std::vector<std::string> paths;
  po::options_description named("options");
  named.add_options()("help,h", "show this help")(
      "manager", po::value(&rewrite_options.manager),
      "manager of the first RuntimePatch (trainer.kubeflow.org/kubeflow-sdk)")(
      "write", po::bool_switch(&write), "rewrite the files instead of printing a diff")(
      "accept-differences", po::bool_switch(&accept),
      "exit 0 even when the rendered objects differ")(
      "namespace", po::value(&compare_options.default_namespace),
      "namespace of objects written without one")(
      "threads", po::value(&compare_options.threads), "render threads (0: one per core)")(
      "repo", po::value(&repo), "also find the runtimes TrainJobs reference in this folder")(
      "target", po::value(&target),
      "trainer-v2.3 (runtimePatches, the default) or trainer-pr3199-preview (experimental)");
  if (auto exit_code = ParseCommandLine(args, named, &paths, kUsage)) return *exit_code;
  if (paths.empty()) {
    ReportUsageError("migrate needs PATH... (see tjrender migrate --help)");
    return kExitUsage;
  }
  target = app::CanonicalTarget(target);
  if (target == "trainer-pr3199-preview") {
    rewrite_options.shape = migrate::Shape::kTemplateOverridesPreview;
  } else if (target != compare_options.after_target) {
    ReportUsageError("--target " + target + ": migrate writes trainer-v2.3 (runtimePatches) or "
                     "trainer-pr3199-preview (experimental templateOverrides)");
    return kExitUsage;
  }
  if (std::string problem = migrate::CheckManager(rewrite_options.manager); !problem.empty()) {
    ReportUsageError("--manager " + rewrite_options.manager + ": " + problem);
    return kExitUsage;
  }

  bool input_errors = false;
  source::DiskTree tree;
  source::ExpandedPaths expanded = source::ExpandPaths(tree, paths, {".json", ".yaml", ".yml"});
  for (const Diagnostic& diagnostic : expanded.diagnostics) {
    Report(diagnostic);
    input_errors = input_errors || diagnostic.severity == Severity::kError;
  }
  // .tjrender.yaml has a manifest extension but is no manifest.
  std::erase_if(expanded.files, [&](const source::InputFile& input) {
    const std::size_t slash = input.name.find_last_of('/');
    const std::string base = slash == std::string::npos ? input.name : input.name.substr(slash + 1);
    return base == app::kRepoConfigFile &&
           std::find(paths.begin(), paths.end(), input.name) == paths.end();
  });
  std::vector<MigratedFile> files;
  for (const source::InputFile& input : expanded.files) {
    if (input.is_stdin && write) {
      ReportUsageError("--write cannot rewrite stdin");
      return kExitUsage;
    }
    auto text = tree.Read(input.read_path, std::size_t{64} << 20);
    if (!text.ok()) {
      Report(text.error());
      input_errors = true;
      continue;
    }
    // A chart's file with template actions is helm's input, no manifest.
    if (!input.chart.empty() && source::HasTemplateActions(*text)) continue;
    auto rewrite = migrate::RewriteFile(*text, input.name, rewrite_options);
    if (!rewrite.ok()) {
      Report(rewrite.error());
      input_errors = true;
      continue;
    }
    Report(rewrite->errors);
    input_errors = input_errors || !rewrite->errors.empty();
    files.push_back({input.name, input.read_path, input.is_stdin, std::move(text).value(),
                     std::move(rewrite).value()});
  }

  std::string patch;
  for (const MigratedFile& file : files) {
    if (file.rewrite.text == file.text) continue;
    if (write) {
      // A symbolic link is written through, as editors write: the link
      // stays and its target gets the new text (replacing the link with a
      // file would leave the target, which the link shares, unmigrated).
      std::error_code unresolved;
      const std::filesystem::path target = std::filesystem::canonical(file.read_path, unresolved);
      if (Status written = WriteFileAtomically(unresolved ? file.read_path : target.string(), file.rewrite.text);
          !written.ok()) {
        Report(written.error());
        input_errors = true;
      }
    } else {
      patch += docdiff::UnifiedDiff(file.text, file.rewrite.text, "a/" + file.name,
                                        "b/" + file.name);
    }
  }
  WriteStdout(patch);

  if (rewrite_options.shape == migrate::Shape::kTemplateOverridesPreview) {
    Diagnostic note;
    note.severity = Severity::kNote;
    note.message = "trainer-pr3199-preview is experimental: no Trainer release reads "
                   "templateOverrides, so nothing was rendered or compared";
    Report(note);
    return input_errors ? kExitUsage : kExitClean;
  }
  std::vector<source::ParsedFile> before;
  std::vector<source::ParsedFile> after;
  std::set<std::string> skip;
  for (const MigratedFile& file : files) {
    before.push_back({file.name, file.rewrite.before});
    after.push_back({file.name, file.rewrite.after});
    for (const migrate::TrainJobMigration& trainjob : file.rewrite.trainjobs) {
      // Not migrated, or written for v2.2+ already: a trainer-v2.1 rendering
      // says nothing about them.
      const doc::Node* spec = trainjob.before.Find("spec");
      const bool modern = spec != nullptr && spec->is_mapping() &&
                          spec->Find("runtimePatches") != nullptr;
      if (trainjob.failed || modern) {
        skip.insert(TrainJobKey(trainjob, compare_options.default_namespace));
      }
    }
  }
  if (!repo.empty()) {
    for (source::ParsedFile& runtimes : RepositoryRuntimes(repo, files, before, compare_options.default_namespace)) {
      before.push_back(runtimes);
      after.push_back(std::move(runtimes));
    }
  }
  migrate::Comparison comparison = migrate::CompareRenders(before, after, skip, compare_options);
  Report(comparison.errors);
  for (const migrate::TrainJobComparison& trainjob : comparison.trainjobs) {
    for (const std::string& difference : trainjob.differences) {
      Diagnostic line;
      line.severity = accept ? Severity::kNote : Severity::kWarning;
      line.location = trainjob.location;
      line.message = compare_options.after_target + " renders differently: " + difference;
      Report(line);
    }
  }
  if (auto config = app::ReadRepoConfig(app::RepoConfigPath(paths));
      config.ok() && config->target && *config->target != compare_options.after_target) {
    Diagnostic note;
    note.severity = Severity::kNote;
    note.location.file = InternSourceName(app::RepoConfigPath(paths));
    note.message = "target: " + *config->target + " pins the repository to a release without "
                   "runtimePatches; set it to " + compare_options.after_target +
                   " once the files are migrated";
    Report(note);
  }
  if (input_errors) return kExitUsage;
  if (comparison.Count() > 0 && !accept) return kExitFindings;
  return kExitClean;
}

}  // namespace tjr::cli
