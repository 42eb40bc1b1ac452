#include "batch/output_tree.h"

#include <cctype>

#include <signal.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>

#include "base/file.h"

namespace tjr::batch {
namespace fs = std::filesystem;
namespace {

constexpr char kStagingPrefix[] = ".tjrender-staging-";
constexpr char kIndexHeader[] = "# tjrender output index 1: files tjrender wrote here\n";

std::string IndexText(const std::vector<std::string_view>& files) {
  std::string text = kIndexHeader;
  for (std::string_view file : files) {
    text += file;
    text += '\n';
  }
  return text;
}

Diagnostic PathError(const std::string& path, const std::string& what) {
  return AsInputError(MakeError(Location{InternSourceName(path)}, "", what));
}

// An index line names a file tjrender may delete only when it has the shape
// tjrender gives its files; anything else (a hand-edited index) is ignored.
bool IndexablePath(std::string_view relative) {
  std::size_t slash = relative.find('/');
  if (slash == std::string_view::npos) return false;
  std::string_view file = relative.substr(slash + 1);
  std::size_t dot = file.rfind('.');
  if (dot == std::string_view::npos) return false;
  std::string_view extension = file.substr(dot);
  return IsDns1123Label(relative.substr(0, slash)) && IsDns1123Label(file.substr(0, dot)) &&
         (extension == ".yaml" || extension == ".json");
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

bool IsDns1123Label(std::string_view name) {
  if (name.empty() || name.size() > 63) return false;
  auto alnum = [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); };
  if (!alnum(name.front()) || !alnum(name.back())) return false;
  return std::all_of(name.begin(), name.end(), [&](char c) { return alnum(c) || c == '-'; });
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

OutputTree::OutputTree(std::string dir) : dir_(std::move(dir)) {}

OutputTree::~OutputTree() {
  std::error_code ignored;
  if (!staging_.empty()) fs::remove_all(staging_, ignored);
}

Result<std::unique_ptr<OutputTree>> OutputTree::Open(const std::string& dir) {
  std::error_code error;
  fs::create_directories(dir, error);
  if (error || !fs::is_directory(dir, error)) {
    return PathError(dir, "cannot create output folder: " +
                              (error ? error.message() : std::string("not a folder")));
  }
  std::unique_ptr<OutputTree> tree(new OutputTree(dir));
  // Staging folders of runs that died (kill -9) hold nothing of value.
  for (const fs::directory_entry& entry : fs::directory_iterator(dir, error)) {
    std::string name = entry.path().filename().string();
    if (name.rfind(kStagingPrefix, 0) != 0) continue;
    long pid = std::strtol(name.c_str() + std::strlen(kStagingPrefix), nullptr, 10);
    if (!ProcessAlive(pid)) fs::remove_all(entry.path(), error);
  }
  Result<std::string> index = ReadFile(dir + "/" + kOutputIndexFile, std::size_t{256} << 20);
  if (index.ok()) {
    tree->index_text_ = std::move(*index);
    tree->old_index_ = IndexedFiles(tree->index_text_);
    tree->index_current_ = tree->index_text_ == IndexText(tree->old_index_);
  }
  tree->staging_ = dir + "/" + kStagingPrefix + std::to_string(::getpid());
  return tree;
}

std::set<std::string> ReadOutputIndex(const std::string& dir) {
  Result<std::string> index = ReadFile(dir + "/" + kOutputIndexFile, std::size_t{256} << 20);
  if (!index.ok()) return {};
  std::set<std::string> files;
  for (std::string_view file : IndexedFiles(*index)) files.emplace(file);
  return files;
}

Status OutputTree::Put(const std::string& relative, std::string_view bytes) {
  put_.insert(relative);
  const std::string namespace_ = relative.substr(0, relative.find('/'));
  auto [folder, first] = namespaces_.try_emplace(namespace_);
  if (first) {
    struct stat existing {};
    folder->second.is_new = ::lstat((dir_ + "/" + namespace_).c_str(), &existing) != 0 && errno == ENOENT;
  }
  // In a folder DIR lacks there is nothing to compare with (a cold run
  // would otherwise lstat every file in vain).
  if (!folder->second.is_new) {
    const std::string target = dir_ + "/" + relative;
    struct stat info {};
    if (::lstat(target.c_str(), &info) == 0 && S_ISREG(info.st_mode) &&
        static_cast<std::size_t>(info.st_size) == bytes.size()) {
      Result<std::string> existing = ReadFile(target, bytes.size() + 1);
      if (existing.ok() && *existing == bytes) {
        ++stats_.unchanged;
        return Ok();
      }
    }
  }
  if (!folder->second.staging) {
    // A namespace folder DIR lacks is staged whole and moved in with one
    // rename: creating files is the slow part on many file systems, moving
    // them one by one would double it.
    std::error_code error;
    fs::create_directories(staging_ + "/" + namespace_, error);
    if (error) return PathError(staging_, "cannot create staging folder: " + error.message());
    folder->second.staging = true;
  }
  // The staging folder is this process's own: no temporary name needed.
  const std::string staged = staging_ + "/" + relative;
  int fd = ::open(staged.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return PathError(staged, std::string("cannot create: ") + std::strerror(errno));
  std::size_t written = 0;
  while (written < bytes.size()) {
    ssize_t n = ::write(fd, bytes.data() + written, bytes.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      Diagnostic error = PathError(staged, std::string("cannot write: ") + std::strerror(errno));
      ::close(fd);
      return error;
    }
    written += static_cast<std::size_t>(n);
  }
  if (::close(fd) != 0) return PathError(staged, std::string("cannot write: ") + std::strerror(errno));
  staged_.push_back(relative);
  return Ok();
}

void OutputTree::Remove(const std::string& relative) { remove_.insert(relative); }

Status OutputTree::Install(const std::string& relative) {
  const std::string namespace_dir = dir_ + "/" + relative.substr(0, relative.find('/'));
  struct stat info {};
  if (::lstat(namespace_dir.c_str(), &info) != 0) {
    if (::mkdir(namespace_dir.c_str(), 0777) != 0 && errno != EEXIST) {
      return PathError(namespace_dir, std::string("cannot create folder: ") + std::strerror(errno));
    }
  } else if (!S_ISDIR(info.st_mode)) {
    // A link here could lead the file out of DIR.
    return PathError(namespace_dir, "not written: exists and is not a folder (a symbolic link "
                                    "is not followed out of the output folder)");
  }
  const std::string target = dir_ + "/" + relative;
  if (::rename((staging_ + "/" + relative).c_str(), target.c_str()) != 0) {
    return PathError(target, std::string("cannot install file: ") + std::strerror(errno));
  }
  ++stats_.written;
  return Ok();
}

Result<OutputStats> OutputTree::Commit(bool prune) {
  auto write_index = [&](const std::vector<std::string_view>& files) {
    return WriteFileAtomically(dir_ + "/" + kOutputIndexFile, IndexText(files));
  };
  // Files about to appear are indexed first, so a run killed while
  // installing still owns (and later prunes) them.
  std::vector<std::string_view> owned;
  owned.reserve(old_index_.size() + put_.size());
  std::set_union(old_index_.begin(), old_index_.end(), put_.begin(), put_.end(), std::back_inserter(owned));
  bool index_written = false;
  if (owned.size() != old_index_.size()) {
    Status status = write_index(owned);
    if (!status.ok()) return status.take_error();
    index_written = true;
  }
  Diagnostic failure;
  bool failed = false;
  std::set<std::string> moved;
  for (const auto& [namespace_, state] : namespaces_) {
    if (state.is_new && state.staging && ::rename((staging_ + "/" + namespace_).c_str(),
                           (dir_ + "/" + namespace_).c_str()) == 0) {
      moved.insert(namespace_);
    }
  }
  for (const std::string& relative : staged_) {
    if (moved.count(relative.substr(0, relative.find('/'))) != 0) {
      ++stats_.written;
      continue;
    }
    Status installed = Install(relative);
    if (!installed.ok() && !failed) {
      failure = installed.take_error();
      failed = true;
    }
  }
  std::vector<std::string_view> stale;
  if (prune) {
    std::set_difference(old_index_.begin(), old_index_.end(), put_.begin(), put_.end(), std::back_inserter(stale));
  } else {
    for (const std::string& relative : remove_) {
      if (std::binary_search(old_index_.begin(), old_index_.end(), relative) && put_.count(relative) == 0) {
        stale.push_back(relative);
      }
    }
  }
  for (std::string_view stale_file : stale) {
    const std::string relative(stale_file);
    const std::string target = dir_ + "/" + relative;
    struct stat info {};
    if (::lstat(target.c_str(), &info) == 0 && !S_ISDIR(info.st_mode)) {
      if (::unlink(target.c_str()) == 0) ++stats_.removed;
    }
    // Only succeeds when the namespace folder is now empty.
    ::rmdir((dir_ + "/" + relative.substr(0, relative.find('/'))).c_str());
    auto at = std::lower_bound(owned.begin(), owned.end(), relative);
    if (at != owned.end() && *at == relative) owned.erase(at);
  }
  // An index that already lists exactly these files is left as it is.
  Status status = index_written || !stale.empty() || !index_current_ ? write_index(owned) : Ok();
  std::error_code ignored;
  fs::remove_all(staging_, ignored);
  if (failed) return failure;
  if (!status.ok()) return status.take_error();
  return stats_;
}

}  // namespace tjr::batch
