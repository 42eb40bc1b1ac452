#include "batch/output_tree.h"

#include <cctype>

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <system_error>

#include "base/file.h"
#include "base/stop_point.h"
#include "batch/folder_fd.h"

namespace tjr::batch {
namespace fs = std::filesystem;
namespace {

// The staging folder beside DIR: "." + DIR's name + this + the pid.
constexpr char kStagingInfix[] = ".tjrender-";
// Where versions before the whole-tree swap staged, inside DIR.
constexpr char kOldStagingPrefix[] = ".tjrender-staging-";
// Folders of DIR (the user's own, below the namespaces) deeper than this are
// not copied into the new tree: an error, not a stack of open folders.
constexpr int kMaxFolderDepth = 64;
// old_namespaces_: DIR has something in the namespace's place that is not a
// folder.
constexpr int kNotAFolder = -2;
constexpr char kIndexHeader[] = "# tjrender output index 1: files tjrender wrote here\n";

Diagnostic PathError(const std::string& path, const std::string& what) {
  return AsInputError(MakeError(Location{InternSourceName(path)}, "", what));
}

// An index line names a file tjrender may delete only when it has the shape
// tjrender gives its files (OutputFileFor: a TrainJob's objects, or a Flyte
// task's Pod with ".pod" before the extension); anything else (a
// hand-edited index) is ignored.
bool IndexablePath(std::string_view relative) {
  std::size_t slash = relative.find('/');
  if (slash == std::string_view::npos) return false;
  std::string_view file = relative.substr(slash + 1);
  std::size_t dot = file.rfind('.');
  if (dot == std::string_view::npos) return false;
  std::string_view extension = file.substr(dot);
  if (!IsDns1123Label(relative.substr(0, slash)) || (extension != ".yaml" && extension != ".json")) return false;
  std::string_view stem = file.substr(0, dot);
  constexpr std::string_view kPod = ".pod";
  if (stem.size() > kPod.size() && stem.substr(stem.size() - kPod.size()) == kPod &&
      IsTaskFileName(stem.substr(0, stem.size() - kPod.size()))) {
    return true;
  }
  return IsDns1123Label(stem);
}

// The files an index text lists, sorted and unique, as views into `text`.
std::vector<std::string_view> IndexedFiles(std::string_view text) {
  std::vector<std::string_view> files;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    if (IndexablePath(line)) files.push_back(line);
    start = end + 1;
  }
  // Written sorted, so normally this finds it sorted already.
  if (!std::is_sorted(files.begin(), files.end())) std::sort(files.begin(), files.end());
  files.erase(std::unique(files.begin(), files.end()), files.end());
  return files;
}

bool ProcessAlive(long pid) {
  return pid > 0 && (::kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM);
}

}  // namespace


bool IsTaskFileName(std::string_view name) {
  if (name.empty() || name.size() > 253 || !std::isalnum(static_cast<unsigned char>(name.front()))) {
    return false;
  }
  for (char c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '_' && c != '-') return false;
  }
  return true;
}

Result<std::string> OutputFileFor(const std::string& namespace_, const std::string& name,
                                  const std::string& extension, OutputKind kind) {
  const bool task = kind == OutputKind::kFlyteTask;
  const char* what = task ? "Flyte task" : "TrainJob";
  if (!IsDns1123Label(namespace_)) {
    return AsInputError(MakeError(
        Location{}, "", std::string("cannot write ") + what + " \"" + name + "\" in namespace \"" +
                            namespace_ + "\": its namespace is not a DNS-1123 label (lowercase "
                            "letters, digits and '-', at most 63), so it is not used as a file name"));
  }
  if (task ? !IsTaskFileName(name) : !IsDns1123Label(name)) {
    return AsInputError(MakeError(
        Location{}, "", std::string("cannot write ") + what + " \"" + name + "\" in namespace \"" +
                            namespace_ + "\": its name is not " +
                            (task ? "made of letters, digits, '.', '_' and '-' starting with a letter or digit"
                                  : "a DNS-1123 label (lowercase letters, digits and '-', at most 63)") +
                            ", so it is not used as a file name"));
  }
  return namespace_ + "/" + name + extension;
}

OutputTree::~OutputTree() {
  // A run that ends without Commit leaves DIR as it was.
  if (staging_fd_ >= 0 && !committed_) RemoveTreeAt(parent_fd_, staging_);
  for (auto& [namespace_, fd] : old_namespaces_) {
    if (fd >= 0) ::close(fd);
  }
  for (auto& [namespace_, fd] : staging_namespaces_) {
    if (fd >= 0) ::close(fd);
  }
  for (int fd : {staging_fd_, old_fd_, parent_fd_}) {
    if (fd >= 0) ::close(fd);
  }
}

Result<std::unique_ptr<OutputTree>> OutputTree::Open(const std::string& dir) {
  std::unique_ptr<OutputTree> tree(new OutputTree());
  tree->dir_ = dir;
  std::error_code error;
  // DIR as a folder path: itself resolved when it exists (a link to a
  // folder is followed, once, as named), else its parent resolved.
  fs::path path = fs::path(dir).lexically_normal();
  if (path.has_filename() == false && path.has_parent_path()) path = path.parent_path();
  fs::path resolved;
  struct stat info {};
  if (::stat(path.c_str(), &info) == 0) {
    if (!S_ISDIR(info.st_mode)) return PathError(dir, "cannot use as output folder: not a folder");
    resolved = fs::canonical(path, error);
  } else {
    const fs::path parent = path.has_parent_path() ? path.parent_path() : fs::path(".");
    fs::create_directories(parent, error);
    if (error) return PathError(dir, "cannot create the folder holding the output folder: " + error.message());
    resolved = fs::canonical(parent, error) / path.filename();
  }
  if (error || !resolved.has_parent_path() || resolved.filename().empty() || resolved == resolved.root_path()) {
    return PathError(dir, "cannot use as output folder" + (error ? ": " + error.message() : std::string()));
  }
  tree->name_ = resolved.filename().string();
  tree->parent_fd_ = ::open(resolved.parent_path().c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (tree->parent_fd_ < 0) return PathError(dir, std::string("cannot open the folder holding it: ") + std::strerror(errno));
  tree->old_fd_ = OpenFolderAt(tree->parent_fd_, tree->name_).release();
  if (tree->old_fd_ < 0 && errno != ENOENT) {
    return PathError(dir, std::string("cannot open output folder: ") + std::strerror(errno));
  }
  // Staging folders of runs that died (kill -9) hold nothing of value: this
  // run's name (a pid reused) included.
  const std::string prefix = "." + tree->name_ + kStagingInfix;
  if (DIR* listing = OpenListing(tree->parent_fd_)) {
    std::vector<std::string> dead;
    while (const dirent* entry = ::readdir(listing)) {
      const std::string name = entry->d_name;
      if (name.rfind(prefix, 0) != 0) continue;
      const long pid = std::strtol(name.c_str() + prefix.size(), nullptr, 10);
      if (pid == ::getpid() || !ProcessAlive(pid)) dead.push_back(name);
    }
    ::closedir(listing);
    for (const std::string& name : dead) RemoveTreeAt(tree->parent_fd_, name);
  }
  if (tree->old_fd_ >= 0) {
    // Earlier versions staged inside DIR.
    if (DIR* listing = OpenListing(tree->old_fd_)) {
      std::vector<std::string> dead;
      while (const dirent* entry = ::readdir(listing)) {
        const std::string name = entry->d_name;
        if (name.rfind(kOldStagingPrefix, 0) == 0 &&
            !ProcessAlive(std::strtol(name.c_str() + std::strlen(kOldStagingPrefix), nullptr, 10))) {
          dead.push_back(name);
        }
      }
      ::closedir(listing);
      for (const std::string& name : dead) RemoveTreeAt(tree->old_fd_, name);
    }
    Fd index(::openat(tree->old_fd_, kOutputIndexFile, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC));
    struct stat index_info {};
    if (index.valid() && ::fstat(index.get(), &index_info) == 0 && S_ISREG(index_info.st_mode)) {
      Result<std::string> text = ReadDescriptor(index.get(), dir + "/" + kOutputIndexFile, std::size_t{256} << 20);
      if (text.ok()) {
        tree->index_text_ = std::move(*text);
        tree->old_index_ = IndexedFiles(tree->index_text_);
      }
    }
  }
  tree->staging_ = prefix + std::to_string(::getpid());
  if (::mkdirat(tree->parent_fd_, tree->staging_.c_str(), 0700) != 0) {
    return PathError(dir, "cannot create the staging folder " + tree->staging_ + " beside it: " + std::strerror(errno));
  }
  tree->staging_fd_ = OpenFolderAt(tree->parent_fd_, tree->staging_).release();
  if (tree->staging_fd_ < 0) return PathError(dir, std::string("cannot open the staging folder: ") + std::strerror(errno));
  // The new DIR gets the old one's permissions (or the usual ones).
  mode_t mode = 0777;
  struct stat old_info {};
  if (tree->old_fd_ >= 0 && ::fstat(tree->old_fd_, &old_info) == 0) {
    mode = old_info.st_mode & 07777;
  } else {
    const mode_t mask = ::umask(0);
    ::umask(mask);
    mode &= ~mask;
  }
  ::fchmod(tree->staging_fd_, mode);
  return tree;
}

std::set<std::string> ReadOutputIndex(const std::string& dir) {
  Result<std::string> index = ReadFile(dir + "/" + kOutputIndexFile, std::size_t{256} << 20);
  if (!index.ok()) return {};
  std::set<std::string> files;
  for (std::string_view file : IndexedFiles(*index)) files.emplace(file);
  return files;
}

int OutputTree::StagingNamespace(const std::string& namespace_, Status* error) {
  auto [slot, fresh] = staging_namespaces_.try_emplace(namespace_, -1);
  if (!fresh) return slot->second;
  mode_t mode = 0777;
  struct stat info {};
  auto old = old_namespaces_.find(namespace_);
  if (old != old_namespaces_.end() && old->second >= 0 && ::fstat(old->second, &info) == 0) mode = info.st_mode & 07777;
  if (::mkdirat(staging_fd_, namespace_.c_str(), 0700) != 0 && errno != EEXIST) {
    *error = PathError(dir_ + "/" + namespace_, std::string("cannot create folder: ") + std::strerror(errno));
    return -1;
  }
  slot->second = OpenFolderAt(staging_fd_, namespace_).release();
  if (slot->second < 0) {
    *error = PathError(dir_ + "/" + namespace_, std::string("cannot open folder: ") + std::strerror(errno));
    return -1;
  }
  const mode_t mask = ::umask(0);
  ::umask(mask);
  ::fchmod(slot->second, old != old_namespaces_.end() && old->second >= 0 ? mode : (0777 & ~mask));
  return slot->second;
}

Status OutputTree::Put(const std::string& relative, std::string_view bytes) {
  const std::size_t slash = relative.find('/');
  const std::string namespace_ = relative.substr(0, slash);
  const std::string file = relative.substr(slash + 1);
  auto [old, first] = old_namespaces_.try_emplace(namespace_, -1);
  if (first && old_fd_ >= 0) {
    old->second = OpenFolderAt(old_fd_, namespace_).release();
    if (old->second < 0 && errno != ENOENT) old->second = kNotAFolder;
  }
  if (old->second == kNotAFolder) {
    // A link here could lead the file out of DIR.
    return PathError(dir_ + "/" + namespace_, "not written: exists and is not a folder (a symbolic link "
                                              "is not followed out of the output folder)");
  }
  put_.insert(relative);
  if (old->second >= 0 && RegularFileEquals(old->second, file, bytes)) {
    ++stats_.unchanged;  // linked into the new tree at Commit: inode and timestamps kept
    return Ok();
  }
  Status error = Ok();
  const int folder = StagingNamespace(namespace_, &error);
  if (folder < 0) return error;
  StopPoint("put");
  Status written = WriteFileAt(folder, file, bytes, dir_ + "/" + relative);
  if (!written.ok()) return written;
  written_.insert(relative);
  ++stats_.written;
  return Ok();
}

void OutputTree::Remove(const std::string& relative) { remove_.insert(relative); }

// Everything of the folder `from` (at `prefix` in DIR) that the new tree
// keeps, hard-linked into `to`: entries this run wrote anew and `stale`
// files are left out. `emptied`: something was left out and the folder is
// now empty.
Status OutputTree::CloneInto(int from, int to, const std::string& prefix, int depth,
                             const std::vector<std::string>& stale, bool* emptied) {
  DIR* listing = OpenListing(from);
  if (listing == nullptr) return PathError(dir_ + "/" + prefix, std::string("cannot list: ") + std::strerror(errno));
  std::vector<std::pair<std::string, unsigned char>> entries;
  while (const dirent* entry = ::readdir(listing)) {
    const std::string name = entry->d_name;
    if (name != "." && name != "..") entries.emplace_back(name, entry->d_type);
  }
  ::closedir(listing);
  bool dropped = false;
  std::size_t kept = 0;
  for (const auto& [name, type] : entries) {
    if (depth == 0 && (name == kOutputIndexFile || name.rfind(kOldStagingPrefix, 0) == 0)) continue;
    const std::string relative = prefix + name;
    bool folder = type == DT_DIR;
    if (type == DT_UNKNOWN) {
      struct stat info {};
      folder = ::fstatat(from, name.c_str(), &info, AT_SYMLINK_NOFOLLOW) == 0 && S_ISDIR(info.st_mode);
    }
    if (folder) {
      if (depth >= kMaxFolderDepth) return PathError(dir_ + "/" + relative, "folders nest too deeply to be kept");
      Fd child(OpenFolderAt(from, name));
      if (!child.valid()) return PathError(dir_ + "/" + relative, std::string("cannot open: ") + std::strerror(errno));
      int target = -1;
      Fd made;
      if (depth == 0) {
        Status error = Ok();
        auto known = staging_namespaces_.find(name);
        if (known != staging_namespaces_.end()) {
          target = known->second;
        } else {
          if (old_namespaces_.count(name) == 0) old_namespaces_[name] = ::dup(child.get());
          target = StagingNamespace(name, &error);
          if (target < 0) return error;
        }
      } else {
        struct stat info {};
        ::fstat(child.get(), &info);
        if (::mkdirat(to, name.c_str(), info.st_mode & 07777) != 0 && errno != EEXIST) {
          return PathError(dir_ + "/" + relative, std::string("cannot create folder: ") + std::strerror(errno));
        }
        made = OpenFolderAt(to, name);
        target = made.get();
        if (target < 0) return PathError(dir_ + "/" + relative, std::string("cannot open: ") + std::strerror(errno));
      }
      bool child_emptied = false;
      Status cloned = CloneInto(child.get(), target, relative + "/", depth + 1, stale, &child_emptied);
      if (!cloned.ok()) return cloned;
      if (child_emptied && depth == 0) {
        // A namespace folder whose last file went goes too.
        ::unlinkat(to, name.c_str(), AT_REMOVEDIR);
        dropped = true;
        continue;
      }
      ++kept;
      continue;
    }
    if (written_.count(relative) != 0) {
      ++kept;
      continue;
    }
    if (std::binary_search(stale.begin(), stale.end(), relative)) {
      ++stats_.removed;
      dropped = true;
      continue;
    }
    StopPoint("clone");
    if (::linkat(from, name.c_str(), to, name.c_str(), 0) != 0 && errno != EEXIST) {
      return PathError(dir_ + "/" + relative, std::string("cannot keep in the new tree (hard link): ") +
                                                  std::strerror(errno));
    }
    ++kept;
  }
  *emptied = dropped && kept == 0;
  return Ok();
}

Result<OutputStats> OutputTree::Commit(bool prune) {
  std::vector<std::string> stale;
  for (std::string_view indexed : old_index_) {
    const std::string relative(indexed);
    if (put_.count(relative) != 0) continue;
    if (prune || remove_.count(relative) != 0) stale.push_back(relative);
  }
  // The new index: what this run wrote or kept of what earlier runs wrote.
  std::vector<std::string> owned;
  for (std::string_view indexed : old_index_) {
    if (!std::binary_search(stale.begin(), stale.end(), std::string(indexed))) owned.emplace_back(indexed);
  }
  owned.insert(owned.end(), put_.begin(), put_.end());
  std::sort(owned.begin(), owned.end());
  owned.erase(std::unique(owned.begin(), owned.end()), owned.end());
  std::string index_text = kIndexHeader;
  for (const std::string& file : owned) index_text += file + "\n";
  // Nothing to change: DIR stays as it is (its inode too).
  bool stale_on_disk = false;
  for (const std::string& relative : stale) {
    const std::size_t slash = relative.find('/');
    Fd folder = old_fd_ >= 0 ? OpenFolderAt(old_fd_, relative.substr(0, slash)) : Fd();
    struct stat info {};
    if (folder.valid() && ::fstatat(folder.get(), relative.c_str() + slash + 1, &info, AT_SYMLINK_NOFOLLOW) == 0) {
      stale_on_disk = true;
      break;
    }
  }
  if (old_fd_ >= 0 && written_.empty() && !stale_on_disk && index_text == index_text_) {
    committed_ = true;
    RemoveTreeAt(parent_fd_, staging_);
    return stats_;
  }
  if (old_fd_ >= 0) {
    bool emptied = false;
    Status cloned = CloneInto(old_fd_, staging_fd_, "", 0, stale, &emptied);
    if (!cloned.ok()) return cloned.take_error();
  }
  StopPoint("index");
  if (old_fd_ >= 0 && index_text == index_text_ &&
      ::linkat(old_fd_, kOutputIndexFile, staging_fd_, kOutputIndexFile, 0) == 0) {
    // The same index: its inode kept.
  } else {
    Status written = WriteFileAt(staging_fd_, kOutputIndexFile, index_text, dir_ + "/" + kOutputIndexFile);
    if (!written.ok()) return written.take_error();
  }
  StopPoint("exchange");
  const unsigned flags = old_fd_ >= 0 ? RENAME_EXCHANGE : RENAME_NOREPLACE;
  if (::renameat2(parent_fd_, staging_.c_str(), parent_fd_, name_.c_str(), flags) != 0) {
    return PathError(dir_, std::string("cannot replace the output folder as a whole (renameat2 ") +
                               (old_fd_ >= 0 ? "RENAME_EXCHANGE" : "RENAME_NOREPLACE") + "): " + std::strerror(errno) +
                               "; it must be a folder (not a mount point) on a local file system such as ext4, "
                               "xfs, btrfs or tmpfs, in a folder tjrender may write to");
  }
  committed_ = true;
  StopPoint("exchanged");
  // The staging name now holds the previous tree.
  RemoveTreeAt(parent_fd_, staging_);
  return stats_;
}

}  // namespace tjr::batch
