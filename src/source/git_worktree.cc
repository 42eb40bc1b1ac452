#include "source/git_worktree.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <functional>
#include <iterator>
#include <string_view>
#include <thread>

#include "source/git_util.h"
#include "source/walk.h"

namespace tjr::source {
namespace {

enum class Verdict : std::uint8_t { kUnchanged, kChanged, kHash };

constexpr std::uint32_t kModeLink = 0120000;
constexpr std::uint32_t kModeExecutable = 0100755;
constexpr std::uint32_t kModeSubmodule = 0160000;

bool SameTime(std::uint32_t seconds, std::uint32_t nanoseconds, const struct timespec& stat_time) {
  return seconds == static_cast<std::uint32_t>(stat_time.tv_sec) &&
         nanoseconds == static_cast<std::uint32_t>(stat_time.tv_nsec);
}

// No earlier than the index file itself: the file may have changed in the
// same tick after it was indexed ("racily clean", as git calls it). Seconds
// compare as the 32-bit signed values libgit2 keeps.
bool Racy(const IndexEntry& entry, const struct timespec& index_mtime) {
  const auto seconds = static_cast<std::int32_t>(index_mtime.tv_sec);
  const auto entry_seconds = static_cast<std::int32_t>(entry.mtime_seconds);
  return entry_seconds > seconds ||
         (entry_seconds == seconds && entry.mtime_nanoseconds >= static_cast<std::uint32_t>(index_mtime.tv_nsec));
}

// An lstat that matches every field git compares (and more: any doubt
// leads to hashing, which decides) means the bytes are the indexed ones.
// `dir` is the open folder of the entry, -1 when it could not be opened
// (gone, or not a folder any more).
Verdict Check(int dir, const char* name, const IndexEntry& tracked, const struct timespec& index_mtime) {
  struct stat info {};
  if (dir < 0 || ::fstatat(dir, name, &info, AT_SYMLINK_NOFOLLOW) != 0) return Verdict::kChanged;
  const bool link = tracked.mode == kModeLink;
  if (link != S_ISLNK(info.st_mode) || (!link && !S_ISREG(info.st_mode))) return Verdict::kChanged;
  // A link's target is short and is what changed when its lstat did.
  const Verdict differs = link ? Verdict::kChanged : Verdict::kHash;
  const bool executable = (info.st_mode & S_IXUSR) != 0;
  if (!link && executable != (tracked.mode == kModeExecutable)) return differs;
  if (tracked.file_size != static_cast<std::uint32_t>(info.st_size) ||
      !SameTime(tracked.mtime_seconds, tracked.mtime_nanoseconds, info.st_mtim) ||
      !SameTime(tracked.ctime_seconds, tracked.ctime_nanoseconds, info.st_ctim) ||
      tracked.ino != static_cast<std::uint32_t>(info.st_ino) || tracked.uid != info.st_uid ||
      tracked.gid != info.st_gid || Racy(tracked, index_mtime)) {
    return differs;
  }
  return Verdict::kUnchanged;
}

// A descriptor of one folder under the working tree, reopened when the
// folder changes: index entries are sorted, so a folder's files mostly come
// together. O_PATH needs only search permission, as lstat does, and
// follows links in the folder's path, as lstat of the whole path did.
class FolderCursor {
 public:
  explicit FolderCursor(int root) : root_(root) {}
  FolderCursor(const FolderCursor&) = delete;
  FolderCursor& operator=(const FolderCursor&) = delete;
  ~FolderCursor() { Close(); }

  // The descriptor of `folder` ("" for the root), -1 when it cannot be opened.
  int Open(std::string_view folder) {
    if (folder.empty()) return root_;
    if (open_ && folder == folder_) return fd_;
    Close();
    folder_.assign(folder);
    open_ = true;
    fd_ = ::openat(root_, folder_.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
    return fd_;
  }

 private:
  void Close() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
    open_ = false;
  }
  int root_;
  int fd_ = -1;
  bool open_ = false;
  std::string folder_;
};

// The index's paths in an open-addressing table of entry numbers: one
// allocation, where a std::unordered_set made a node per path, and one
// hash per name the untracked walk reads, where a binary search made a
// dozen comparisons of paths sharing long prefixes.
class IndexedPaths {
 public:
  explicit IndexedPaths(const std::vector<IndexEntry>& entries) : entries_(entries) {
    std::size_t capacity = 16;
    while (capacity < 2 * entries.size()) capacity *= 2;
    slots_.assign(capacity, kEmpty);
    mask_ = capacity - 1;
    for (std::size_t i = 0; i < entries.size(); ++i) {
      std::size_t slot = std::hash<std::string_view>{}(entries[i].path) & mask_;
      while (slots_[slot] != kEmpty && entries_[slots_[slot]].path != entries[i].path) slot = (slot + 1) & mask_;
      if (slots_[slot] == kEmpty) slots_[slot] = static_cast<std::uint32_t>(i);  // the first stage stays
    }
  }
  // The first entry of `path`, or null.
  const IndexEntry* Find(std::string_view path) const {
    std::size_t slot = std::hash<std::string_view>{}(path) & mask_;
    for (; slots_[slot] != kEmpty; slot = (slot + 1) & mask_) {
      if (entries_[slots_[slot]].path == path) return &entries_[slots_[slot]];
    }
    return nullptr;
  }
  bool IsSubmodule(std::string_view path) const {
    const IndexEntry* entry = Find(path);
    return entry != nullptr && entry->mode == kModeSubmodule;
  }

 private:
  static constexpr std::uint32_t kEmpty = UINT32_MAX;
  const std::vector<IndexEntry>& entries_;
  std::vector<std::uint32_t> slots_;
  std::size_t mask_ = 0;
};

// Files under `folder` the index does not list. Folders the index holds as
// submodules, `.git` and nested repositories are not entered.
void AddUntracked(int root, const std::string& folder, const IndexedPaths& indexed, std::vector<std::string>* out) {
  std::vector<std::string> pending{folder};
  std::string path;
  while (!pending.empty()) {
    const std::string current = std::move(pending.back());
    pending.pop_back();
    const int fd = ::openat(root, current.empty() ? "." : current.c_str(),
                            O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) continue;
    DIR* dir = ::fdopendir(fd);
    if (dir == nullptr) {
      ::close(fd);
      continue;
    }
    std::vector<std::pair<std::string, bool>> entries;  // (name, is a folder)
    bool nested_repository = false;
    while (const dirent* entry = ::readdir(dir)) {
      std::string_view name = entry->d_name;
      if (name == "." || name == "..") continue;
      if (name == ".git") {
        nested_repository = true;
        continue;
      }
      bool folder_entry = entry->d_type == DT_DIR;
      if (entry->d_type == DT_UNKNOWN) {
        struct stat info {};
        folder_entry = ::fstatat(::dirfd(dir), entry->d_name, &info, AT_SYMLINK_NOFOLLOW) == 0 &&
                       S_ISDIR(info.st_mode);
      }
      entries.emplace_back(std::string(name), folder_entry);
    }
    ::closedir(dir);
    if (nested_repository && !current.empty()) continue;  // its own repository's files
    path.assign(current);
    if (!current.empty()) path += '/';
    const std::size_t prefix = path.size();
    for (const auto& [name, folder_entry] : entries) {
      path.resize(prefix);
      path += name;
      if (folder_entry) {
        if (!indexed.IsSubmodule(path)) pending.push_back(path);
      } else if (indexed.Find(path) == nullptr) {
        out->push_back(path);
      }
    }
  }
}

}  // namespace

std::vector<IndexEntry> EntriesOf(git_index* index) {
  std::vector<IndexEntry> entries;
  const std::size_t count = git_index_entrycount(index);
  entries.reserve(count);
  for (std::size_t i = 0; i < count; ++i) {
    const git_index_entry* entry = git_index_get_byindex(index, i);
    if (entry == nullptr || entry->path == nullptr) continue;
    IndexEntry& out = entries.emplace_back();
    out.path = entry->path;
    out.ctime_seconds = static_cast<std::uint32_t>(entry->ctime.seconds);
    out.ctime_nanoseconds = entry->ctime.nanoseconds;
    out.mtime_seconds = static_cast<std::uint32_t>(entry->mtime.seconds);
    out.mtime_nanoseconds = entry->mtime.nanoseconds;
    out.dev = entry->dev;
    out.ino = entry->ino;
    out.mode = entry->mode;
    out.uid = entry->uid;
    out.gid = entry->gid;
    out.file_size = entry->file_size;
    std::copy(std::begin(entry->id.id), std::begin(entry->id.id) + out.id.size(), out.id.begin());
    out.stage = static_cast<std::uint8_t>(git_index_entry_stage(entry));
    out.assume_valid = (entry->flags & GIT_INDEX_ENTRY_VALID) != 0;
    out.skip_worktree = (entry->flags_extended & GIT_INDEX_ENTRY_SKIP_WORKTREE) != 0;
    out.intent_to_add = (entry->flags_extended & GIT_INDEX_ENTRY_INTENT_TO_ADD) != 0;
  }
  return entries;
}

Result<std::vector<std::string>> WorktreeChanges(git_repository* repo, const std::vector<IndexEntry>& entries,
                                                 const struct timespec& index_mtime,
                                                 const std::vector<std::string>& scope, unsigned threads_wanted) {
  const char* workdir_text = git_repository_workdir(repo);
  if (workdir_text == nullptr) {
    return AsInputError(MakeError(Location{}, "", "a bare repository has no working tree to compare with"));
  }
  const std::string workdir = workdir_text;  // ends with '/'
  const int root = ::open(workdir.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
  if (root < 0) {
    return AsInputError(MakeError(Location{InternSourceName(workdir)}, "", "cannot open the working tree"));
  }
  struct RootFd {
    int fd;
    ~RootFd() { ::close(fd); }
  } root_fd{root};

  const std::vector<std::string> everything{""};
  const std::vector<std::string>& in = scope.empty() ? everything : scope;
  std::vector<std::string> changed;
  std::vector<const IndexEntry*> tracked;  // the entries the lstat pass compares
  tracked.reserve(entries.size());
  for (const IndexEntry& entry : entries) {
    if (entry.mode == kModeSubmodule || !InScope(entry.path, in)) continue;
    if (entry.stage > 0) {
      changed.emplace_back(entry.path);  // once per stage; made unique below
      continue;
    }
    // Sparse checkouts leave these out of the working tree on purpose.
    if (entry.skip_worktree) continue;
    tracked.push_back(&entry);
  }

  // The lstat pass, in blocks taken by whichever thread is free: several
  // threads for a large index, the calling one joining once it has walked
  // the folders for untracked files.
  std::vector<Verdict> verdicts(tracked.size(), Verdict::kUnchanged);
  constexpr std::size_t kBlock = 256;
  std::atomic<std::size_t> next_block{0};
  auto check_blocks = [&] {
    FolderCursor folder(root);
    std::string name;
    for (std::size_t begin; (begin = next_block.fetch_add(kBlock)) < tracked.size();) {
      for (std::size_t i = begin; i < std::min(begin + kBlock, tracked.size()); ++i) {
        const std::string_view path = tracked[i]->path;
        const std::size_t slash = path.rfind('/');
        const int dir = folder.Open(slash == std::string_view::npos ? std::string_view() : path.substr(0, slash));
        name.assign(slash == std::string_view::npos ? path : path.substr(slash + 1));
        verdicts[i] = Check(dir, name.c_str(), *tracked[i], index_mtime);
      }
    }
  };
  const unsigned available = threads_wanted != 0 ? threads_wanted : std::max(1u, std::thread::hardware_concurrency());
  const std::size_t threads = tracked.size() < 1024 ? 1 : std::min<std::size_t>(available, 8);
  std::vector<std::jthread> workers;
  for (std::size_t t = 1; t < threads; ++t) workers.emplace_back(check_blocks);

  // Files the index does not list, found meanwhile on this thread.
  std::vector<std::string> untracked;
  const IndexedPaths indexed(entries);
  std::vector<std::string> folders;
  if (InScope("", in)) {  // the whole repository
    folders.emplace_back();
  } else {
    for (const std::string& s : in) {
      struct stat info {};
      if (::fstatat(root, s.c_str(), &info, AT_SYMLINK_NOFOLLOW) != 0) continue;
      if (S_ISDIR(info.st_mode)) {
        if (!indexed.IsSubmodule(s)) folders.push_back(s);
      } else if (indexed.Find(s) == nullptr) {
        untracked.push_back(s);
      }
    }
  }
  for (const std::string& folder : folders) AddUntracked(root, folder, indexed, &untracked);

  check_blocks();
  workers.clear();  // joins

  for (std::size_t i = 0; i < tracked.size(); ++i) {
    if (verdicts[i] == Verdict::kUnchanged) continue;
    const std::string path(tracked[i]->path);
    if (verdicts[i] == Verdict::kHash) {
      // Through the filters .gitattributes selects, as the index was built.
      git_oid now{};
      if (git_repository_hashfile(&now, repo, path.c_str(), GIT_OBJECT_BLOB, nullptr) == 0 &&
          std::equal(tracked[i]->id.begin(), tracked[i]->id.end(), std::begin(now.id))) {
        continue;
      }
    }
    changed.push_back(path);
  }

  changed.insert(changed.end(), std::make_move_iterator(untracked.begin()), std::make_move_iterator(untracked.end()));

  std::sort(changed.begin(), changed.end());
  changed.erase(std::unique(changed.begin(), changed.end()), changed.end());
  return changed;
}

}  // namespace tjr::source
