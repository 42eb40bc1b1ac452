#include "source/git_tree.h"

#include <git2.h>
#include <git2/sys/mempack.h>
#include <git2/sys/odb_backend.h>

#include <filesystem>
#include <mutex>
#include <optional>
#include <utility>
#include <vector>

#include "source/git_folder_cache.h"
#include "source/git_tree_depth.h"
#include "source/git_util.h"

namespace tjr::source {

struct GitTree::Impl {
  GitHandle<git_repository, git_repository_free> repo;
  GitHandle<git_tree, git_tree_free> root;
  std::string revision;
  std::string revision_id;
  // libgit2 objects of one repository are not meant for concurrent use:
  // `mutex` guards `repo`, `root` and `folders`.
  mutable std::mutex mutex;
  // Blob bytes are read outside `mutex`, each through an object database
  // handle that one thread borrows at a time: inflating loose objects under
  // the one lock made the rendering threads take turns.
  std::string objects_path;
  mutable std::mutex readers_mutex;
  mutable std::vector<GitHandle<git_odb, git_odb_free>> idle_readers;
  mutable std::unique_ptr<FolderCache> folders;

  // The tree of the folder at a normalised path; nullptr when there is none.
  const git_tree* Folder(const std::string& path) const { return folders->Folder(path); }

  // The entry at a normalised, non-root path (owned by its folder's tree);
  // nullptr when there is none.
  const git_tree_entry* Entry(const std::string& path) const { return folders->Entry(path); }

  // An input error when the folder `path` is, or a file's folder, nests
  // deeper than Git reads.
  std::optional<Diagnostic> TooDeep(const std::string& path, bool folder) const {
    const std::string_view in = folder ? std::string_view(path) : std::string_view(path).substr(0, path.rfind('/'));
    if (path.find('/') == std::string::npos && !folder) return std::nullopt;
    if (FolderDepth(in) <= kMaxTreeDepth) return std::nullopt;
    return TreeTooDeep(in, revision);
  }

  // An object database of the caller's own (alternates included); give it
  // back with ReturnReader. Null when it cannot be opened.
  GitHandle<git_odb, git_odb_free> BorrowReader() const {
    {
      std::lock_guard lock(readers_mutex);
      if (!idle_readers.empty()) {
        GitHandle<git_odb, git_odb_free> reader = std::move(idle_readers.back());
        idle_readers.pop_back();
        return reader;
      }
    }
    Result<GitHandle<git_odb, git_odb_free>> reader = OpenObjectDatabase(repo.get(), objects_path);
    return reader.ok() ? std::move(*reader) : nullptr;
  }

  void ReturnReader(GitHandle<git_odb, git_odb_free> reader) const {
    std::lock_guard lock(readers_mutex);
    idle_readers.push_back(std::move(reader));
  }

  Diagnostic Missing(const std::string& path) const {
    return AsInputError(
        MakeError(Location{InternSourceName(path)}, "", "no such file or directory in " + revision));
  }

  // A link's blob holds its target (a path: at most PATH_MAX bytes are
  // worth showing, and no more are inflated).
  std::string LinkTarget(const git_tree_entry* entry) const {
    git_odb* odb = nullptr;
    std::size_t size = 0;
    git_object_t type = GIT_OBJECT_INVALID;
    if (git_repository_odb(&odb, repo.get()) != 0) return "?";
    const int sized = git_odb_read_header(&size, &type, odb, git_tree_entry_id(entry));
    git_odb_free(odb);
    if (sized != 0 || size > 4096) return "?";
    git_blob* blob = nullptr;
    if (git_blob_lookup(&blob, repo.get(), git_tree_entry_id(entry)) != 0) return "?";
    GitHandle<git_blob, git_blob_free> owned(blob);
    return std::string(static_cast<const char*>(git_blob_rawcontent(blob)),
                       static_cast<std::size_t>(git_blob_rawsize(blob)));
  }
};

GitTree::GitTree(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
GitTree::~GitTree() = default;

Result<EntryType> GitTree::Stat(const std::string& path) const {
  Result<std::string> normal = NormalizeRepoPath(path);
  if (!normal.ok()) return normal.take_error();
  if (normal->empty()) return EntryType::kDirectory;
  if (std::optional<Diagnostic> deep = impl_->TooDeep(*normal, false)) return *deep;
  std::lock_guard lock(impl_->mutex);
  const git_tree_entry* entry = impl_->Entry(*normal);
  if (entry == nullptr) return impl_->Missing(path);
  Location at{InternSourceName(path)};
  switch (git_tree_entry_filemode(entry)) {
    case GIT_FILEMODE_TREE:
      return EntryType::kDirectory;
    case GIT_FILEMODE_BLOB:
    case GIT_FILEMODE_BLOB_EXECUTABLE:
      return EntryType::kFile;
    case GIT_FILEMODE_LINK: {
      Diagnostic warning =
          MakeError(at, "", "skipped: symbolic link to " + impl_->LinkTarget(entry) +
                                " not followed (a Git revision is read as stored)");
      warning.severity = Severity::kWarning;
      warning.rule = "git-link-not-followed";
      return warning;
    }
    case GIT_FILEMODE_COMMIT: {
      // The working tree has the submodule's files and renders its
      // TrainJobs; a revision holds only a commit id: say what is missing.
      Diagnostic warning = MakeError(at, "", "skipped: submodule: a Git revision holds only its commit, so "
                                             "no file of it is read (render the submodule's repository itself)");
      warning.severity = Severity::kWarning;
      warning.rule = "git-submodule-not-read";
      return warning;
    }
    default:
      return EntryType::kOther;
  }
}

Result<std::vector<DirEntry>> GitTree::List(const std::string& path) const {
  Result<std::string> normal = NormalizeRepoPath(path);
  if (!normal.ok()) return normal.take_error();
  if (std::optional<Diagnostic> deep = impl_->TooDeep(*normal, true)) return *deep;
  std::lock_guard lock(impl_->mutex);
  const git_tree* tree = impl_->Folder(*normal);
  if (tree == nullptr) {
    if (impl_->Entry(*normal) == nullptr) return impl_->Missing(path);
    return AsInputError(MakeError(Location{InternSourceName(path)}, "",
                                  "cannot list directory: not a directory in " + impl_->revision));
  }
  std::vector<DirEntry> entries;
  const std::size_t count = git_tree_entrycount(tree);
  entries.reserve(count);
  for (std::size_t i = 0; i < count; ++i) {
    const git_tree_entry* entry = git_tree_entry_byindex(tree, i);
    EntryType type = EntryType::kOther;
    switch (git_tree_entry_filemode(entry)) {
      case GIT_FILEMODE_TREE: type = EntryType::kDirectory; break;
      case GIT_FILEMODE_BLOB:
      case GIT_FILEMODE_BLOB_EXECUTABLE: type = EntryType::kFile; break;
      case GIT_FILEMODE_LINK: type = EntryType::kSymlink; break;
      default: break;  // submodules: Stat says why they are skipped
    }
    DirEntry& listed = entries.emplace_back();
    listed.name = git_tree_entry_name(entry);
    listed.type = type;
    if (type == EntryType::kFile) {  // written in place: ten thousand per large folder
      listed.object_id.resize(GIT_OID_HEXSZ);
      git_oid_fmt(listed.object_id.data(), git_tree_entry_id(entry));
    }
  }
  return entries;
}

Result<std::string> GitTree::Resolve(const std::string& path) const {
  Result<EntryType> type = Stat(path);
  if (!type.ok()) return type.take_error();
  Result<std::string> normal = NormalizeRepoPath(path);
  if (!normal.ok()) return normal.take_error();
  return "/" + *normal;
}

Result<std::string> GitTree::Read(const std::string& path, std::size_t max_bytes) const {
  Result<std::string> normal = NormalizeRepoPath(path);
  if (!normal.ok()) return normal.take_error();
  if (std::optional<Diagnostic> deep = impl_->TooDeep(*normal, false)) return *deep;
  Location at{InternSourceName(path)};
  git_oid id{};
  {
    std::lock_guard lock(impl_->mutex);
    const git_tree_entry* entry = normal->empty() ? nullptr : impl_->Entry(*normal);
    if (entry == nullptr) return impl_->Missing(path);
    if (git_tree_entry_type(entry) != GIT_OBJECT_BLOB) {
      return AsInputError(MakeError(at, "", "cannot read: not a file in " + impl_->revision));
    }
    git_oid_cpy(&id, git_tree_entry_id(entry));
  }
  GitHandle<git_odb, git_odb_free> reader = impl_->BorrowReader();
  if (reader == nullptr) {
    return AsInputError(MakeError(at, "", "cannot open the object database to read: " + LastGitError()));
  }
  // The size from the object's header first: a blob over the limit is
  // refused before it is inflated (a 200 MB blob took 200 MB to refuse).
  std::size_t header_size = 0;
  git_object_t header_type = GIT_OBJECT_INVALID;
  const bool sized = git_odb_read_header(&header_size, &header_type, reader.get(), &id) == 0;
  git_odb_object* object = nullptr;
  Result<std::string> bytes = std::string();
  if (sized && header_size > max_bytes) {
    bytes = AsInputError(
        MakeError(at, "", "file is larger than the limit of " + std::to_string(max_bytes) + " bytes"));
  } else if (git_odb_read(&object, reader.get(), &id) != 0) {
    bytes = AsInputError(MakeError(at, "", "cannot read blob: " + LastGitError()));
  } else if (const auto size = git_odb_object_size(object); size > max_bytes) {
    bytes = AsInputError(
        MakeError(at, "", "file is larger than the limit of " + std::to_string(max_bytes) + " bytes"));
  } else {
    bytes = std::string(static_cast<const char*>(git_odb_object_data(object)), size);
  }
  git_odb_object_free(object);  // before its database goes back
  impl_->ReturnReader(std::move(reader));
  return bytes;
}

std::string GitTree::BlobId(const std::string& path) const {
  Result<std::string> normal = NormalizeRepoPath(path);
  if (!normal.ok() || normal->empty()) return std::string();
  std::lock_guard lock(impl_->mutex);
  const git_tree_entry* entry = impl_->Entry(*normal);
  if (entry == nullptr) return std::string();
  git_filemode_t mode = git_tree_entry_filemode(entry);
  if (mode != GIT_FILEMODE_BLOB && mode != GIT_FILEMODE_BLOB_EXECUTABLE) return std::string();
  return OidHex(git_tree_entry_id(entry));
}

const std::string& GitTree::revision_id() const { return impl_->revision_id; }

namespace {

// The index as a tree, as `git write-tree` builds it, with the tree objects
// kept in memory: the repository's object database gets a mempack backend
// of top priority, so reading the index writes nothing to disk. Staged
// blobs are in the object database already (`git add` wrote them).
Result<PeeledTree> StagedTree(git_repository* repo) {
  auto fail = [](const std::string& what) {
    return AsInputError(MakeError(Location{}, "", "the staged files (Git's index): " + what + ": " + LastGitError()));
  };
  git_odb* odb = nullptr;
  if (git_repository_odb(&odb, repo) != 0) return fail("cannot open the object database");
  GitHandle<git_odb, git_odb_free> database(odb);
  git_odb_backend* memory = nullptr;
  if (git_mempack_new(&memory) != 0) return fail("cannot keep trees in memory");
  if (git_odb_add_backend(odb, memory, 1000) != 0) {
    memory->free(memory);
    return fail("cannot keep trees in memory");
  }
  git_index* raw_index = nullptr;
  if (git_repository_index(&raw_index, repo) != 0) return fail("cannot read the index");
  GitHandle<git_index, git_index_free> index(raw_index);
  git_oid id{};
  if (git_index_write_tree(&id, index.get()) != 0) {
    return fail("cannot make a tree of it (unresolved merge conflicts?)");
  }
  git_tree* tree = nullptr;
  if (git_tree_lookup(&tree, repo, &id) != 0) return fail("cannot read its tree");
  PeeledTree peeled;
  peeled.tree.reset(tree);
  peeled.id = OidHex(&id);
  return peeled;
}

}  // namespace

Result<std::unique_ptr<GitTree>> OpenGitRevision(const std::string& repo_dir,
                                                 const std::string& rev) {
  Result<GitHandle<git_repository, git_repository_free>> repo = OpenRepository(repo_dir);
  if (!repo.ok()) return repo.take_error();
  Result<PeeledTree> peeled = rev == kStagedRevision ? StagedTree(repo->get()) : PeelToTree(repo->get(), rev);
  if (!peeled.ok()) return peeled.take_error();
  auto impl = std::make_unique<GitTree::Impl>();
  impl->objects_path = ObjectsPath(repo->get());
  impl->repo = std::move(*repo);
  impl->root = std::move(peeled->tree);
  impl->folders = std::make_unique<FolderCache>(impl->repo.get(), impl->root.get());
  impl->revision = rev == kStagedRevision ? std::string("the staged files") : "revision " + rev;
  impl->revision_id = std::move(peeled->id);
  return std::make_unique<GitTree>(std::move(impl));
}

Result<std::unique_ptr<Tree>> OpenGitTree(const std::string& repo_dir, const std::string& rev) {
  Result<std::unique_ptr<GitTree>> tree = OpenGitRevision(repo_dir, rev);
  if (!tree.ok()) return tree.take_error();
  return std::unique_ptr<Tree>(std::move(*tree));
}

Result<GitRepository> FindGitRepository(const std::string& path) {
  Result<GitHandle<git_repository, git_repository_free>> repo = OpenRepository(path);
  if (!repo.ok()) return repo.take_error();
  GitRepository found;
  auto clean = [](const char* dir) {
    std::string text = dir != nullptr ? dir : "";
    while (text.size() > 1 && text.back() == '/') text.pop_back();
    return text;
  };
  found.git_dir = clean(git_repository_path(repo->get()));
  if (!git_repository_is_bare(repo->get())) found.workdir = clean(git_repository_workdir(repo->get()));
  found.opened_from = path;
  return found;
}

}  // namespace tjr::source
