#include "cli/revision_source.h"

#include <filesystem>
#include <system_error>

#include "cli/render_config.h"
#include "source/disk_tree.h"
#include "source/filtered_tree.h"
#include "source/git_tree.h"

namespace tjr::cli {
namespace fs = std::filesystem;

namespace {

Diagnostic UsageError(std::string message) {
  return AsInputError(MakeError(Location{}, "", std::move(message)));
}

std::string Joined(const std::string& folder, const std::string& path) {
  if (path.empty() || path == ".") return folder;
  return (fs::path(folder) / path).lexically_normal().generic_string();
}

}  // namespace

Result<std::unique_ptr<RevisionSource>> OpenRevision(const std::string& spec,
                                                     const std::vector<std::string>& paths) {
  auto source = std::make_unique<RevisionSource>();
  std::error_code error;
  if (!spec.empty() && fs::is_directory(spec, error)) {
    source->type = RevisionSource::Type::kDirectory;
    source->label = spec;
    source->trees_.push_back(std::make_unique<source::DiskTree>());
    for (const std::string& path : paths) source->paths.push_back(Joined(spec, path));
    if (paths.empty()) source->paths.push_back(spec);
  } else {
    Result<source::GitRepository> repo = source::FindGitRepository(".");
    if (!repo.ok()) {
      return UsageError((spec.empty() ? std::string("no HEAD given") : "'" + spec + "' is no folder") +
                        " and the current directory is not in a Git repository (" + repo.error().message + ")");
    }
    if (spec.empty()) {
      if (repo->workdir.empty()) return UsageError("the repository is bare: it has no working tree, give HEAD");
      source->type = RevisionSource::Type::kWorkingTree;
      source->label = "worktree";
      source->trees_.push_back(std::make_unique<source::DiskTree>());
      source->trees_.push_back(std::make_unique<source::RootedTree>(*source->trees_.back(), repo->workdir));
    } else {
      Result<std::unique_ptr<source::Tree>> tree = source::OpenGitTree(".", spec);
      if (!tree.ok()) return AsInputError(tree.take_error());
      source->type = RevisionSource::Type::kGitRevision;
      source->label = spec;
      source->trees_.push_back(std::move(*tree));
    }
    source->paths = paths.empty() ? std::vector<std::string>{"."} : paths;
  }
  // The repository configuration is no manifest.
  source->trees_.push_back(std::make_unique<source::FilteredTree>(*source->trees_.back(), kRepoConfigFile, ".",
                                                                  source::PathFilter{}));
  return source;
}

source::ManifestSet LoadRevision(const RevisionSource& source, const source::LoadOptions& options) {
  return source::LoadManifests(source.tree(), source.paths, options);
}

}  // namespace tjr::cli
