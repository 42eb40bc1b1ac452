#include "app/migrate_files.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <utility>

#include "app/manifest_tree.h"
#include "app/render_config.h"
#include "base/file.h"
#include "source/disk_tree.h"
#include "source/helm_chart.h"
#include "source/loader.h"
#include "source/walk.h"

namespace tjr::app {
namespace {

constexpr std::size_t kMaxFileBytes = std::size_t{64} << 20;

struct ReadFile {
  std::string name;
  std::string read_path;
  std::string text;
  migrate::FileRewrite rewrite;
};

Diagnostic UsageError(std::string message) {
  return AsInputError(MakeError(Location{}, "", std::move(message)));
}

// --repo DIR: the runtimes of DIR that the migrated files do not hold
// themselves, one ParsedFile per file, for both renders.
std::vector<source::ParsedFile> RepositoryRuntimes(const std::string& repo, const std::vector<ReadFile>& files,
                                                   const std::vector<source::ParsedFile>& before,
                                                   const std::string& default_namespace) {
  namespace fs = std::filesystem;
  std::error_code error;
  std::set<std::string> migrated;
  for (const ReadFile& file : files) migrated.insert(fs::weakly_canonical(file.read_path, error).string());
  source::LoadOptions options;
  options.default_namespace = default_namespace;
  std::set<doc::ObjectId> present;
  for (const source::Manifest& m : source::AdmitDocuments(before, options).manifests) present.insert(m.id);
  std::erase_if(options.types, [](const source::ObjectType& type) { return type.kind == "TrainJob"; });
  source::ManifestSet repository = source::LoadManifests(ManifestTree(), {repo}, options);
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

// Reads and rewrites every file the paths name; false when one could not be.
bool RewriteAll(const MigrateRequest& request, const source::Tree& tree, MigrateSink& sink,
                std::vector<ReadFile>* files) {
  bool clean = true;
  source::ExpandedPaths expanded = source::ExpandPaths(tree, request.paths, {".json", ".yaml", ".yml"});
  for (const Diagnostic& diagnostic : expanded.diagnostics) {
    sink.Problem(diagnostic);
    clean = clean && diagnostic.severity != Severity::kError;
  }
  // .tjrender.yaml has a manifest extension but is no manifest (unless named).
  std::erase_if(expanded.files, [&](const source::InputFile& input) {
    const std::size_t slash = input.name.find_last_of('/');
    const std::string base = slash == std::string::npos ? input.name : input.name.substr(slash + 1);
    return base == kRepoConfigFile &&
           std::find(request.paths.begin(), request.paths.end(), input.name) == request.paths.end();
  });
  for (const source::InputFile& input : expanded.files) {
    Result<std::string> text = tree.Read(input.read_path, kMaxFileBytes);
    if (!text.ok()) {
      sink.Problem(text.error());
      clean = false;
      continue;
    }
    // A chart's file with template actions is helm's input, no manifest.
    if (!input.chart.empty() && source::HasTemplateActions(*text)) continue;
    Result<migrate::FileRewrite> rewrite = migrate::RewriteFile(*text, input.name, request.rewrite);
    if (!rewrite.ok()) {
      sink.Problem(rewrite.error());
      clean = false;
      continue;
    }
    for (const Diagnostic& error : rewrite->errors) sink.Problem(error);
    clean = clean && rewrite->errors.empty();
    files->push_back({input.name, input.read_path, std::move(text).value(), std::move(rewrite).value()});
  }
  return clean;
}

// Hands each changed file to the sink, writing it first when asked; false
// when one could not be written.
bool Deliver(const MigrateRequest& request, const std::vector<ReadFile>& files, MigrateSink& sink) {
  bool clean = true;
  for (const ReadFile& file : files) {
    if (file.rewrite.text == file.text) continue;
    MigratedText migrated{file.name, file.text, file.rewrite.text};
    if (request.write) {
      // A symbolic link is written through, as editors write: the link
      // stays and its target gets the new text (replacing the link with a
      // file would leave the target, which the link shares, unmigrated).
      std::error_code unresolved;
      const std::filesystem::path target = std::filesystem::canonical(file.read_path, unresolved);
      Status written = WriteFileAtomically(unresolved ? file.read_path : target.string(), file.rewrite.text);
      if (!written.ok()) {
        sink.Problem(written.error());
        clean = false;
        continue;
      }
      migrated.written = true;
    }
    sink.Migrated(migrated);
  }
  return clean;
}

}  // namespace

MigrateOutcome MigrateFiles(const MigrateRequest& request, MigrateSink& sink) {
  MigrateOutcome outcome;
  if (std::string problem = migrate::CheckManager(request.rewrite.manager); !problem.empty()) {
    sink.Problem(UsageError("--manager " + request.rewrite.manager + ": " + problem));
    outcome.refused = true;
    return outcome;
  }
  if (request.write && request.tree != nullptr) {
    sink.Problem(UsageError("a tree in memory cannot be rewritten"));
    outcome.refused = true;
    return outcome;
  }
  if (request.write && std::find(request.paths.begin(), request.paths.end(), "-") != request.paths.end()) {
    sink.Problem(UsageError("--write cannot rewrite stdin"));
    outcome.refused = true;
    return outcome;
  }
  if (std::error_code error; !request.repo.empty() && !std::filesystem::is_directory(request.repo, error)) {
    // Its runtimes would be missing without a word, every TrainJob refused
    // as a difference of the upgrade.
    sink.Problem(UsageError("--repo " + request.repo + ": " +
                            (std::filesystem::exists(request.repo, error) ? "not a folder" : "no such folder")));
    outcome.refused = true;
    return outcome;
  }
  source::DiskTree disk;
  const source::Tree& tree = request.tree != nullptr ? *request.tree : disk;

  std::vector<ReadFile> files;
  outcome.input_errors = !RewriteAll(request, tree, sink, &files);
  outcome.input_errors = !Deliver(request, files, sink) || outcome.input_errors;
  // No Trainer release reads the preview's templateOverrides: nothing to render.
  if (request.rewrite.shape == migrate::Shape::kTemplateOverridesPreview) return outcome;

  std::vector<source::ParsedFile> before;
  std::vector<source::ParsedFile> after;
  std::set<std::string> skip;
  for (const ReadFile& file : files) {
    before.push_back({file.name, file.rewrite.before});
    after.push_back({file.name, file.rewrite.after});
    for (const migrate::TrainJobMigration& trainjob : file.rewrite.trainjobs) {
      const doc::Node* spec = trainjob.before.Find("spec");
      const bool modern = spec != nullptr && spec->is_mapping() && spec->Find("runtimePatches") != nullptr;
      if (trainjob.failed || modern) {
        skip.insert((trainjob.namespace_.empty() ? request.compare.default_namespace : trainjob.namespace_) + "/" +
                    trainjob.name);
      }
    }
  }
  if (!request.repo.empty()) {
    for (source::ParsedFile& runtimes :
         RepositoryRuntimes(request.repo, files, before, request.compare.default_namespace)) {
      before.push_back(runtimes);
      after.push_back(std::move(runtimes));
    }
  }
  migrate::Comparison comparison = migrate::CompareRenders(before, after, skip, request.compare);
  for (const Diagnostic& error : comparison.errors) {
    sink.Problem(error);
    // Input neither side could use (malformed, over a limit) is no
    // difference of the upgrade: exit 2, --accept-differences or not.
    if (error.category == Category::kInput) outcome.input_errors = true;
  }
  for (const migrate::TrainJobComparison& trainjob : comparison.trainjobs) sink.Compared(trainjob);
  outcome.compared = true;
  outcome.differences = comparison.Count();

  const std::string config_path = RepoConfigPath(tree, request.paths);
  if (Result<RepoConfig> config = ReadRepoConfig(tree, config_path);
      config.ok() && config->target && *config->target != request.compare.after_target) {
    Diagnostic note;
    note.severity = Severity::kNote;
    note.location.file = InternSourceName(config_path);
    note.message = "target: " + *config->target + " pins the repository to a release without "
                   "runtimePatches; set it to " + request.compare.after_target + " once the files are migrated";
    sink.Problem(note);
  }
  return outcome;
}

}  // namespace tjr::app
