#include "app/render_source.h"

#include <filesystem>
#include <system_error>

namespace tjr::app {
namespace fs = std::filesystem;
namespace {

Diagnostic UsageError(const std::string& message) {
  return AsInputError(MakeError(Location{}, "", message));
}

std::string Folder(const std::string& config_path) {
  std::size_t slash = config_path.rfind('/');
  return slash == std::string::npos ? "." : config_path.substr(0, slash);
}

// The repository path of a command-line PATH.
Result<std::string> RepoPath(const std::string& path, const std::optional<fs::path>& cwd_in_repo,
                             const fs::path& workdir) {
  fs::path given(path);
  fs::path relative;
  if (given.is_absolute()) {
    if (workdir.empty()) return UsageError("'" + path + "': a bare repository takes repository paths");
    std::error_code error;
    fs::path canonical = fs::weakly_canonical(given, error);
    relative = canonical.lexically_relative(workdir);
  } else {
    relative = cwd_in_repo ? *cwd_in_repo / given : given;
  }
  std::string normal = relative.lexically_normal().generic_string();
  while (normal.size() > 1 && normal.back() == '/') normal.pop_back();
  if (normal.empty() || normal == "." || normal == "./") normal = ".";
  if (normal == ".." || normal.rfind("../", 0) == 0 || relative.empty()) {
    return UsageError("'" + path + "' is outside the repository");
  }
  return normal;
}

Result<std::string> ConfigText(const source::Tree& tree, const std::string& path) {
  if (!tree.Stat(path).ok()) return std::string();
  return tree.Read(path, std::size_t{1} << 20);
}

}  // namespace

Result<std::unique_ptr<RenderSource>> OpenRenderSource(const SourceRequest& request) {
  auto source = std::make_unique<RenderSource>();
  // Remembers what it read, so a file changed during the run is caught.
  source->disk_ = std::make_unique<source::DiskTree>(/*remember_reads=*/true, request.outputs);
  const source::Tree* tree = source->disk_.get();
  source->paths = request.paths;

  const bool git = !request.rev.empty() || !request.since.empty();
  if (git && request.tree != nullptr) return UsageError("a tree in memory has no Git revisions");
  // Without --rev/--since, --repo only tells where the PATHs' runtimes are
  // (see render_flow.cc); the files come from disk as given.
  if (git) {
    Result<source::GitRepository> repo =
        source::FindGitRepository(request.repo.empty() ? "." : request.repo);
    if (!repo.ok()) return repo.take_error();
    source->repo = *repo;
    std::error_code error;
    fs::path workdir =
        repo->workdir.empty() ? fs::path() : fs::weakly_canonical(repo->workdir, error);
    std::optional<fs::path> cwd_in_repo;
    if (!workdir.empty()) {
      fs::path cwd = fs::weakly_canonical(fs::current_path(error), error);
      fs::path inside = cwd.lexically_relative(workdir);
      if (!inside.empty() && inside.generic_string().rfind("..", 0) != 0) cwd_in_repo = inside;
    }
    if (source->paths.empty()) source->paths.push_back(".");
    for (std::string& path : source->paths) {
      if (path == "-") return UsageError("- (stdin) cannot be read with --rev or --since");
      Result<std::string> mapped = RepoPath(path, cwd_in_repo, workdir);
      if (!mapped.ok()) return mapped.take_error();
      path = *mapped;
    }
    const std::string& repo_dir = repo->opened_from;
    if (!request.rev.empty()) {
      Result<std::unique_ptr<source::GitTree>> head = source::OpenGitRevision(repo_dir, request.rev);
      if (!head.ok()) return head.take_error();
      source->head_git = std::move(*head);
      tree = source->head_git.get();
    } else if (repo->workdir.empty()) {
      return UsageError("a bare repository has no working tree: name a revision with --rev");
    } else {
      source->rooted_ = std::make_unique<source::RootedTree>(*source->disk_, repo->workdir);
      tree = source->rooted_.get();
    }
    if (!request.since.empty()) {
      Result<std::unique_ptr<source::GitTree>> base =
          source::OpenGitRevision(repo_dir, request.since);
      if (!base.ok()) return base.take_error();
      source->base_git = std::move(*base);
    }
  } else if (source->paths.empty()) {
    return UsageError("needs at least one PATH");
  } else if (request.tree != nullptr) {
    tree = request.tree;
  }

  source->config_path = RepoConfigPath(*tree, source->paths);
  Result<RepoConfig> config = ReadRepoConfig(*tree, source->config_path);
  if (!config.ok()) return config.take_error();
  source->config = std::move(*config);
  source->filtered_ = std::make_unique<source::FilteredTree>(
      *tree, kRepoConfigFile, Folder(source->config_path), source->config.filter);
  if (source->base_git != nullptr) {
    // include/exclude are read from each side's own revision; when the
    // configuration differs, every TrainJob may render differently.
    Result<std::string> head_text = ConfigText(*tree, source->config_path);
    Result<std::string> base_text = ConfigText(*source->base_git, source->config_path);
    source->config_unchanged_since =
        head_text.ok() && base_text.ok() && *head_text == *base_text;
    Result<RepoConfig> base_config = ReadRepoConfig(*source->base_git, source->config_path);
    source->base_filtered_ = std::make_unique<source::FilteredTree>(
        *source->base_git, kRepoConfigFile, Folder(source->config_path),
        base_config.ok() ? base_config->filter : source::PathFilter());
  }
  return source;
}

}  // namespace tjr::app
