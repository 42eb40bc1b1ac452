#include "batch/output_tree.h"

#include <cctype>

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
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

Diagnostic PathWarning(const std::string& path, const std::string& what) {
  Diagnostic warning = MakeError(Location{InternSourceName(path)}, "", what);
  warning.severity = Severity::kWarning;
  return warning;
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

// DIR as the user named it, split into its parent folder (resolved, links
// followed) and its name there. `create_parent`: the parent is created when
// missing.
Result<std::pair<fs::path, std::string>> SplitOutputFolder(const std::string& dir, bool create_parent) {
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
    if (create_parent) {
      fs::create_directories(parent, error);
      if (error) return PathError(dir, "cannot create the folder holding the output folder: " + error.message());
    }
    resolved = fs::canonical(parent, error) / path.filename();
  }
  if (error || !resolved.has_parent_path() || resolved.filename().empty() || resolved == resolved.root_path()) {
    return PathError(dir, "cannot use as output folder" + (error ? ": " + error.message() : std::string()));
  }
  return std::make_pair(resolved.parent_path(), resolved.filename().string());
}

// What beside DIR belongs to tjrender: "." + DIR's name + this starts the
// names of the staging folders and of the lock.
constexpr char kBesideInfix[] = ".tjrender";
constexpr char kLockSuffix[] = ".tjrender.lock";

double Now() {
  timespec now{};
  ::clock_gettime(CLOCK_MONOTONIC, &now);
  return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) / 1e9;
}

// Takes the lock `name` in `parent` (flock: the kernel releases it when
// its holder dies, however it dies), waiting up to `timeout` seconds; the
// file then holds "PID HOST" for the message of the next one that waits.
// The holder removes the file when it is done, so a lock taken on a file
// that is no longer the one named is taken again.
Result<Fd> TakeLock(int parent, const std::string& name, const std::string& dir, const std::string& shown,
                    double timeout) {
  const double deadline = Now() + timeout;
  for (;;) {
    Fd lock(::openat(parent, name.c_str(), O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644));
    if (!lock.valid()) {
      return PathError(dir, "cannot create the lock " + shown + " beside it: " + std::strerror(errno));
    }
    if (::flock(lock.get(), LOCK_EX | LOCK_NB) == 0) {
      struct stat held {};
      struct stat named {};
      if (::fstat(lock.get(), &held) != 0 || ::fstatat(parent, name.c_str(), &named, AT_SYMLINK_NOFOLLOW) != 0 ||
          held.st_dev != named.st_dev || held.st_ino != named.st_ino) {
        continue;  // its last holder removed it as this run opened it
      }
      char host[256] = "";
      ::gethostname(host, sizeof host - 1);
      const std::string holder = std::to_string(::getpid()) + " " + host + "\n";
      // Only for the message of a run that waits: a full disk that refuses
      // these bytes must not stop a run that may have nothing to write.
      if (::ftruncate(lock.get(), 0) == 0) (void)!::pwrite(lock.get(), holder.data(), holder.size(), 0);
      return lock;
    }
    if (errno != EWOULDBLOCK && errno != EINTR) {
      return PathError(dir, "cannot lock " + shown + ": " + std::strerror(errno));
    }
    if (Now() >= deadline) {
      char text[300] = "";
      const ssize_t n = ::pread(lock.get(), text, sizeof text - 1, 0);
      std::string holder = n > 0 ? std::string(text, static_cast<std::size_t>(n)) : std::string();
      while (!holder.empty() && (holder.back() == '\n' || holder.back() == ' ')) holder.pop_back();
      const std::size_t space = holder.find(' ');
      std::string who = "another process";
      if (!holder.empty()) {
        who = "process " + holder.substr(0, space);
        if (space != std::string::npos) who += " on " + holder.substr(space + 1);
      }
      char waited[32];
      std::snprintf(waited, sizeof waited, "%g", timeout);
      return PathError(dir, "another tjrender is writing this output folder (" + who + ", holding " + shown +
                                "); waited " + waited + " s for it (" + kLockTimeoutVariable +
                                " sets how long): run again when it has finished");
    }
    ::usleep(20'000);
  }
}

mode_t WithoutUmask(mode_t mode) {
  const mode_t mask = ::umask(0);
  ::umask(mask);
  return mode & ~mask;
}

}  // namespace

std::vector<source::OutputFile> OutputFolderEntries(const std::string& dir) {
  Result<std::pair<fs::path, std::string>> split = SplitOutputFolder(dir, /*create_parent=*/false);
  if (!split.ok()) return {};
  struct stat info {};
  if (::stat(split->first.c_str(), &info) != 0) return {};
  source::OutputFile entries;
  entries.device = static_cast<std::uint64_t>(info.st_dev);
  entries.inode = static_cast<std::uint64_t>(info.st_ino);
  entries.name_prefix = "." + split->second + kBesideInfix;
  entries.what = "a staging folder or the lock of --out " + dir;
  return {entries};
}


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
  for (int fd : {staging_fd_, old_fd_}) {
    if (fd >= 0) ::close(fd);
  }
  // Removed while still held: a run waiting on this file takes it, sees it
  // is no longer the one named and takes the lock anew.
  if (lock_.valid()) ::unlinkat(parent_fd_, lock_name_.c_str(), 0);
  lock_ = Fd();
  if (parent_fd_ >= 0) ::close(parent_fd_);
}

// Staging folders of runs that died (kill -9) hold nothing of value: this
// run's name (a pid reused) included. One that cannot be removed entirely
// (a file of the old tree that is immutable) is a warning, and a later run
// tries again.
void OutputTree::RemoveStagingLeftovers(const std::string& prefix) {
  DIR* listing = OpenListing(parent_fd_);
  if (listing == nullptr) return;
  std::vector<std::string> dead;
  while (const dirent* entry = ::readdir(listing)) {
    const std::string name = entry->d_name;
    if (name.rfind(prefix, 0) != 0) continue;
    const long pid = std::strtol(name.c_str() + prefix.size(), nullptr, 10);
    if (pid == ::getpid() || !ProcessAlive(pid)) dead.push_back(name);
  }
  ::closedir(listing);
  for (const std::string& name : dead) {
    std::optional<std::string> left = RemoveTreeAt(parent_fd_, name);
    if (!left) continue;
    warnings_.push_back(PathWarning(dir_, "the staging folder " + name + " beside it, left by a run that ended, "
                                          "could not be removed entirely (" + *left + "); later runs try again"));
    if (name == staging_) {
      // This run needs the name: the leftover moves aside (a pid of 0 is
      // never alive, so later runs remove it).
      const std::string aside = prefix + "0-" + std::to_string(::getpid()) + "-" + std::to_string(::time(nullptr));
      ::renameat(parent_fd_, name.c_str(), parent_fd_, aside.c_str());
    }
  }
}

Result<std::unique_ptr<OutputTree>> OutputTree::Open(const std::string& dir, const OutputOptions& options) {
  std::unique_ptr<OutputTree> tree(new OutputTree());
  tree->dir_ = dir;
  Result<std::pair<fs::path, std::string>> split = SplitOutputFolder(dir, /*create_parent=*/true);
  if (!split.ok()) return split.take_error();
  tree->name_ = split->second;
  tree->parent_fd_ = ::open(split->first.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (tree->parent_fd_ < 0) return PathError(dir, std::string("cannot open the folder holding it: ") + std::strerror(errno));
  // The lock beside DIR, not inside: DIR's inode is swapped away by every
  // run, the name in its parent stays.
  tree->lock_name_ = "." + tree->name_ + kLockSuffix;
  Result<Fd> lock = TakeLock(tree->parent_fd_, tree->lock_name_, dir, (split->first / tree->lock_name_).string(),
                             options.lock_timeout_seconds);
  if (!lock.ok()) return lock.take_error();
  tree->lock_ = std::move(*lock);
  tree->old_fd_ = OpenFolderAt(tree->parent_fd_, tree->name_).release();
  if (tree->old_fd_ < 0 && errno != ENOENT) {
    return PathError(dir, std::string("cannot open output folder: ") + std::strerror(errno));
  }
  const std::string prefix = "." + tree->name_ + kStagingInfix;
  tree->staging_ = prefix + std::to_string(::getpid());
  tree->RemoveStagingLeftovers(prefix);
  if (tree->old_fd_ >= 0) {
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
  // Written 0700 and given DIR's owner and mode just before the swap: a
  // read-only DIR is filled first.
  if (::mkdirat(tree->parent_fd_, tree->staging_.c_str(), 0700) != 0) {
    return PathError(dir, "cannot create the staging folder " + tree->staging_ + " beside it: " + std::strerror(errno));
  }
  tree->staging_fd_ = OpenFolderAt(tree->parent_fd_, tree->staging_).release();
  if (tree->staging_fd_ < 0) return PathError(dir, std::string("cannot open the staging folder: ") + std::strerror(errno));
  if (tree->old_fd_ >= 0) {
    tree->dir_ownership_ = OwnershipOf(tree->old_fd_);
  } else {
    tree->dir_ownership_ = OwnershipOf(tree->staging_fd_);
    if (tree->dir_ownership_) tree->dir_ownership_->mode = WithoutUmask(0777);
  }
  return tree;
}

std::set<std::string> ReadOutputIndex(const std::string& dir) {
  Result<std::string> index = ReadFile(dir + "/" + kOutputIndexFile, std::size_t{256} << 20);
  if (!index.ok()) return {};
  std::set<std::string> files;
  for (std::string_view file : IndexedFiles(*index)) files.emplace(file);
  return files;
}

// A new entry in the folder `old_folder` of DIR (-1: none, then DIR itself):
// as root, the owner of that folder, so that a root run does not give the
// user's tree to root; the mode as created.
std::optional<Ownership> OutputTree::OwnerOfNew(int old_folder) const {
  const int folder = old_folder >= 0 ? old_folder : old_fd_;
  if (folder < 0) return std::nullopt;
  std::optional<Ownership> owner = OwnershipOf(folder);
  if (owner) owner->mode.reset();
  return owner;
}

int OutputTree::StagingNamespace(const std::string& namespace_, Status* error) {
  auto [slot, fresh] = staging_namespaces_.try_emplace(namespace_, -1);
  if (!fresh) return slot->second;
  auto old = old_namespaces_.find(namespace_);
  const bool existed = old != old_namespaces_.end() && old->second >= 0;
  if (::mkdirat(staging_fd_, namespace_.c_str(), 0700) != 0 && errno != EEXIST) {
    *error = PathError(dir_ + "/" + namespace_, std::string("cannot create folder: ") + std::strerror(errno));
    return -1;
  }
  slot->second = OpenFolderAt(staging_fd_, namespace_).release();
  if (slot->second < 0) {
    *error = PathError(dir_ + "/" + namespace_, std::string("cannot open folder: ") + std::strerror(errno));
    return -1;
  }
  // Applied before the swap, once the folder is filled.
  std::optional<Ownership> owned = existed ? OwnershipOf(old->second) : OwnerOfNew(-1);
  if (!owned) owned = OwnershipOf(slot->second);
  if (owned) {
    if (!existed) owned->mode = WithoutUmask(0777);
    namespace_ownership_[namespace_] = *owned;
  }
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
  // A file rewritten keeps the owner and mode of the one it replaces.
  std::optional<Ownership> owned;
  struct stat info {};
  if (old->second >= 0 && ::fstatat(old->second, file.c_str(), &info, AT_SYMLINK_NOFOLLOW) == 0 &&
      S_ISREG(info.st_mode)) {
    owned = Ownership{info.st_uid, info.st_gid, info.st_mode & 07777};
  } else {
    owned = OwnerOfNew(old->second);
  }
  StopPoint("put");
  Status written = WriteFileAt(folder, file, bytes, dir_ + "/" + relative, owned ? &*owned : nullptr);
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
  errno = 0;
  while (const dirent* entry = ::readdir(listing)) {
    const std::string name = entry->d_name;
    if (name != "." && name != "..") entries.emplace_back(name, entry->d_type);
  }
  const int list_error = errno;
  ::closedir(listing);
  if (list_error != 0) return PathError(dir_ + "/" + prefix, std::string("cannot list: ") + std::strerror(list_error));
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
        // 0700 until filled (a read-only folder of the user's too).
        if (::mkdirat(to, name.c_str(), 0700) != 0 && errno != EEXIST) {
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
        namespace_ownership_.erase(name);
        dropped = true;
        continue;
      }
      if (made.valid()) {
        std::optional<Ownership> owned = OwnershipOf(child.get());
        if (!owned) return PathError(dir_ + "/" + relative, std::string("cannot stat: ") + std::strerror(errno));
        Status applied = ApplyOwnership(made.get(), *owned, dir_ + "/" + relative);
        if (!applied.ok()) return applied;
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
      // A file that may not be linked (immutable, append-only, at the file
      // system's most links) is copied, owner, mode and time kept.
      if (errno != EPERM && errno != EMLINK) {
        return PathError(dir_ + "/" + relative, std::string("cannot keep in the new tree (hard link): ") +
                                                    std::strerror(errno));
      }
      Status copied = CopyFileAt(from, name, to, dir_ + "/" + relative);
      if (!copied.ok()) return copied;
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
    // Earlier versions staged inside DIR.
    if (DIR* listing = OpenListing(old_fd_)) {
      std::vector<std::string> dead;
      while (const dirent* entry = ::readdir(listing)) {
        const std::string name = entry->d_name;
        if (name.rfind(kOldStagingPrefix, 0) == 0 &&
            !ProcessAlive(std::strtol(name.c_str() + std::strlen(kOldStagingPrefix), nullptr, 10))) {
          dead.push_back(name);
        }
      }
      ::closedir(listing);
      for (const std::string& name : dead) RemoveTreeAt(old_fd_, name);
    }
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
    std::optional<Ownership> index_owner;
    struct stat info {};
    if (old_fd_ >= 0 && ::fstatat(old_fd_, kOutputIndexFile, &info, AT_SYMLINK_NOFOLLOW) == 0 &&
        S_ISREG(info.st_mode)) {
      index_owner = Ownership{info.st_uid, info.st_gid, info.st_mode & 07777};
    } else {
      index_owner = OwnerOfNew(-1);
    }
    Status written = WriteFileAt(staging_fd_, kOutputIndexFile, index_text, dir_ + "/" + kOutputIndexFile,
                                 index_owner ? &*index_owner : nullptr);
    if (!written.ok()) return written.take_error();
  }
  // The folders get their owners and modes now that they are filled.
  for (const auto& [namespace_, owner] : namespace_ownership_) {
    auto folder = staging_namespaces_.find(namespace_);
    if (folder == staging_namespaces_.end() || folder->second < 0) continue;
    Status applied = ApplyOwnership(folder->second, owner, dir_ + "/" + namespace_);
    if (!applied.ok()) return applied.take_error();
  }
  if (dir_ownership_) {
    Status applied = ApplyOwnership(staging_fd_, *dir_ownership_, dir_);
    if (!applied.ok()) return applied.take_error();
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
  if (std::optional<std::string> left = RemoveTreeAt(parent_fd_, staging_)) {
    warnings_.push_back(PathWarning(dir_, "replaced, but its previous tree, now " + staging_ +
                                              " beside it, could not be removed entirely (" + *left +
                                              "); later runs try again"));
  }
  return stats_;
}

}  // namespace tjr::batch
