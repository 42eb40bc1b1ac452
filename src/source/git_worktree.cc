#include "source/git_worktree.h"

#include <dirent.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstdint>
#include <string_view>
#include <thread>
#include <unordered_set>

#include "source/git_util.h"
#include "source/walk.h"

namespace tjr::source {
namespace {

// What the lstat pass needs of an index entry (libgit2's entries are not
// to be read from several threads: the index sorts itself lazily).
struct Tracked {
  std::string path;
  std::uint32_t mode = 0;
  std::uint32_t file_size = 0;
  git_index_time mtime{};
  git_index_time ctime{};
  std::uint32_t ino = 0;
  std::uint32_t uid = 0;
  std::uint32_t gid = 0;
  git_oid id{};
};

enum class Verdict : std::uint8_t { kUnchanged, kChanged, kHash };

bool SameTime(const git_index_time& time, const struct timespec& stat_time) {
  return time.seconds == static_cast<std::int32_t>(stat_time.tv_sec) &&
         time.nanoseconds == static_cast<std::uint32_t>(stat_time.tv_nsec);
}

// No earlier than the index file itself: the file may have changed in the
// same tick after it was indexed ("racily clean", as git calls it).
bool Racy(const git_index_time& mtime, const struct timespec& index_mtime) {
  const auto seconds = static_cast<std::int32_t>(index_mtime.tv_sec);
  return mtime.seconds > seconds ||
         (mtime.seconds == seconds && mtime.nanoseconds >= static_cast<std::uint32_t>(index_mtime.tv_nsec));
}

// An lstat that matches every field git compares (and more: any doubt
// leads to hashing, which decides) means the bytes are the indexed ones.
Verdict Check(const std::string& full_path, const Tracked& tracked, const struct timespec& index_mtime) {
  struct stat info {};
  if (::lstat(full_path.c_str(), &info) != 0) return Verdict::kChanged;  // gone, or unreachable
  const bool link = tracked.mode == GIT_FILEMODE_LINK;
  if (link != S_ISLNK(info.st_mode) || (!link && !S_ISREG(info.st_mode))) return Verdict::kChanged;
  // A link's target is short and is what changed when its lstat did.
  const Verdict differs = link ? Verdict::kChanged : Verdict::kHash;
  const bool executable = (info.st_mode & S_IXUSR) != 0;
  if (!link && executable != (tracked.mode == GIT_FILEMODE_BLOB_EXECUTABLE)) return differs;
  if (tracked.file_size != static_cast<std::uint32_t>(info.st_size) || !SameTime(tracked.mtime, info.st_mtim) ||
      !SameTime(tracked.ctime, info.st_ctim) || tracked.ino != static_cast<std::uint32_t>(info.st_ino) ||
      tracked.uid != info.st_uid || tracked.gid != info.st_gid || Racy(tracked.mtime, index_mtime)) {
    return differs;
  }
  return Verdict::kUnchanged;
}

std::string Join(const std::string& folder, std::string_view name) {
  return folder.empty() ? std::string(name) : folder + "/" + std::string(name);
}

// Files under `folder` the index does not list. Folders the index holds as
// submodules, `.git` and nested repositories are not entered.
void AddUntracked(const std::string& workdir, const std::string& folder,
                  const std::unordered_set<std::string_view>& tracked,
                  const std::unordered_set<std::string_view>& submodules, std::vector<std::string>* out) {
  std::vector<std::string> pending{folder};
  while (!pending.empty()) {
    const std::string current = std::move(pending.back());
    pending.pop_back();
    DIR* dir = ::opendir((workdir + current).c_str());
    if (dir == nullptr) continue;
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
        folder_entry = ::lstat((workdir + Join(current, name)).c_str(), &info) == 0 && S_ISDIR(info.st_mode);
      }
      entries.emplace_back(std::string(name), folder_entry);
    }
    ::closedir(dir);
    if (nested_repository && !current.empty()) continue;  // its own repository's files
    for (const auto& [name, folder_entry] : entries) {
      std::string path = Join(current, name);
      if (folder_entry) {
        if (submodules.count(path) == 0) pending.push_back(std::move(path));
      } else if (tracked.count(path) == 0) {
        out->push_back(std::move(path));
      }
    }
  }
}

}  // namespace

Result<std::vector<std::string>> WorktreeChanges(git_repository* repo, git_index* index,
                                                 const std::vector<std::string>& scope, unsigned threads_wanted) {
  const char* workdir_text = git_repository_workdir(repo);
  if (workdir_text == nullptr) {
    return AsInputError(MakeError(Location{}, "", "a bare repository has no working tree to compare with"));
  }
  const std::string workdir = workdir_text;  // ends with '/'
  struct stat index_info {};
  const char* index_path = git_index_path(index);
  if (index_path == nullptr || ::stat(index_path, &index_info) != 0) index_info = {};

  const std::vector<std::string> everything{""};
  const std::vector<std::string>& in = scope.empty() ? everything : scope;
  std::vector<std::string> changed;
  std::vector<Tracked> tracked;
  std::vector<std::string> indexed;  // every path the index lists
  std::vector<std::string> submodule_paths;
  const std::size_t count = git_index_entrycount(index);
  tracked.reserve(count);
  indexed.reserve(count);
  for (std::size_t i = 0; i < count; ++i) {
    const git_index_entry* entry = git_index_get_byindex(index, i);
    if (entry == nullptr || entry->path == nullptr) continue;
    indexed.emplace_back(entry->path);
    if (entry->mode == GIT_FILEMODE_COMMIT) {
      submodule_paths.emplace_back(entry->path);
      continue;
    }
    if (!InScope(entry->path, in)) continue;
    if (git_index_entry_is_conflict(entry)) {
      changed.emplace_back(entry->path);  // once per stage; made unique below
      continue;
    }
    // Sparse checkouts leave these out of the working tree on purpose.
    if ((entry->flags_extended & GIT_INDEX_ENTRY_SKIP_WORKTREE) != 0) continue;
    tracked.push_back({entry->path, entry->mode, entry->file_size, entry->mtime, entry->ctime, entry->ino,
                       entry->uid, entry->gid, entry->id});
  }

  // The lstat pass, on several threads for a large index.
  std::vector<Verdict> verdicts(tracked.size(), Verdict::kUnchanged);
  auto check_range = [&](std::size_t begin, std::size_t end) {
    std::string full = workdir;
    for (std::size_t i = begin; i < end; ++i) {
      full.resize(workdir.size());
      full += tracked[i].path;
      verdicts[i] = Check(full, tracked[i], index_info.st_mtim);
    }
  };
  const unsigned available = threads_wanted != 0 ? threads_wanted : std::max(1u, std::thread::hardware_concurrency());
  const std::size_t threads = tracked.size() < 1024 ? 1 : std::min<std::size_t>(available, 8);
  std::vector<std::jthread> workers;
  const std::size_t chunk = (tracked.size() + threads - 1) / threads;
  for (std::size_t t = 1; t < threads; ++t) {
    workers.emplace_back(check_range, std::min(t * chunk, tracked.size()), std::min((t + 1) * chunk, tracked.size()));
  }
  check_range(0, std::min(chunk, tracked.size()));
  workers.clear();  // joins

  for (std::size_t i = 0; i < tracked.size(); ++i) {
    if (verdicts[i] == Verdict::kUnchanged) continue;
    if (verdicts[i] == Verdict::kHash) {
      // Through the filters .gitattributes selects, as the index was built.
      git_oid now{};
      if (git_repository_hashfile(&now, repo, tracked[i].path.c_str(), GIT_OBJECT_BLOB, nullptr) == 0 &&
          git_oid_equal(&now, &tracked[i].id)) {
        continue;
      }
    }
    changed.push_back(tracked[i].path);
  }

  // Files the index does not list.
  const std::unordered_set<std::string_view> known(indexed.begin(), indexed.end());
  const std::unordered_set<std::string_view> submodules(submodule_paths.begin(), submodule_paths.end());
  std::vector<std::string> folders;
  if (InScope("", in)) {  // the whole repository
    folders.emplace_back();
  } else {
    for (const std::string& s : in) {
      struct stat info {};
      if (::lstat((workdir + s).c_str(), &info) != 0) continue;
      if (S_ISDIR(info.st_mode)) {
        if (submodules.count(s) == 0) folders.push_back(s);
      } else if (known.count(s) == 0) {
        changed.push_back(s);
      }
    }
  }
  for (const std::string& folder : folders) AddUntracked(workdir, folder, known, submodules, &changed);

  std::sort(changed.begin(), changed.end());
  changed.erase(std::unique(changed.begin(), changed.end()), changed.end());
  return changed;
}

}  // namespace tjr::source
