// OpenRepository: the repository git itself would read, from git's
// environment (git(1) ENVIRONMENT, gitrepository-layout(5)). libgit2's
// GIT_REPOSITORY_OPEN_FROM_ENV is not enough: in 1.5.1 it ignores GIT_DIR
// whenever a start path is given, refuses GIT_WORK_TREE and GIT_COMMON_DIR
// ("unimplemented"), and applies GIT_NAMESPACE to every ref lookup, which
// git does only when serving fetches and pushes. Its ownership check reads
// neither GIT_CONFIG_GLOBAL nor GIT_CONFIG_NOSYSTEM, takes no
// `safe.directory=*`, and without any safe.directory entry fails with
// "config value 'safe.directory' was not found"; git 2.39's check
// (setup.c ensure_valid_ownership) is done here instead.
#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include <git2/sys/repository.h>

#include "source/git_object_guard.h"
#include "source/git_index_file.h"
#include "source/git_util.h"

namespace tjr::source {
namespace {
namespace fs = std::filesystem;

// A variable of git's environment; unset and empty alike give "".
std::string Env(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr ? value : "";
}

// A boolean as git reads one (git_env_bool: a config boolean, unset false).
bool EnvBool(const char* name) {
  const std::string value = Env(name);
  int parsed = 0;
  return !value.empty() && git_config_parse_bool(&parsed, value.c_str()) == 0 && parsed != 0;
}

// `path` made absolute against `base`, lexically normal, no trailing '/'.
std::string Absolute(const std::string& path, const std::string& base) {
  fs::path full = fs::path(path).is_absolute() ? fs::path(path) : fs::path(base) / path;
  std::string normal = full.lexically_normal().generic_string();
  while (normal.size() > 1 && normal.back() == '/') normal.pop_back();
  return normal;
}

// The real path of `path` ("" when it cannot be resolved), as getcwd and
// git's real_path give it.
std::string RealPath(const std::string& path) {
  char* real = ::realpath(path.c_str(), nullptr);
  if (real == nullptr) return "";
  std::string out = real;
  std::free(real);
  return out;
}

std::string WithoutSlash(const char* dir) {
  std::string text = dir != nullptr ? dir : "";
  while (text.size() > 1 && text.back() == '/') text.pop_back();
  return text;
}

Diagnostic OpenError(const std::string& where, const std::string& what) {
  return AsInputError(MakeError(Location{InternSourceName(where)}, "", what));
}

// git-compat-util.h is_path_owned_by_current_uid: owned by the effective
// user; for root, also by root or by SUDO_UID (a `sudo git` keeps working
// on the caller's repository). A path that cannot be stat'ed is not owned.
bool OwnedByCurrentUser(const std::string& path, uid_t* owner) {
  struct stat info {};
  if (::lstat(path.c_str(), &info) != 0) return false;
  *owner = info.st_uid;
  uid_t uid = ::geteuid();
  if (uid == 0) {
    if (info.st_uid == 0) return true;
    const std::string sudo = Env("SUDO_UID");
    char* end = nullptr;
    errno = 0;
    const unsigned long id = sudo.empty() ? 0 : std::strtoul(sudo.c_str(), &end, 10);
    if (!sudo.empty() && *end == '\0' && errno == 0) uid = static_cast<uid_t>(id);
  }
  return info.st_uid == uid;
}

// git_config_pathname: "~/" is $HOME, "~user/" that user's home,
// "%(prefix)/" git's installation prefix (/usr on Debian).
std::string ExpandPathname(const std::string& value) {
  if (value.rfind("%(prefix)/", 0) == 0) return "/usr" + value.substr(9);
  if (value.empty() || value[0] != '~') return value;
  const std::size_t slash = value.find('/');
  const std::string user = value.substr(1, slash == std::string::npos ? std::string::npos : slash - 1);
  const std::string rest = slash == std::string::npos ? "" : value.substr(slash);
  if (user.empty()) return Env("HOME") + rest;
  const struct passwd* entry = ::getpwnam(user.c_str());
  return entry != nullptr && entry->pw_dir != nullptr ? entry->pw_dir + rest : value;
}

// One safe.directory value on `path` (safe_directory_cb): empty resets
// what came before, "*" allows every path, anything else allows that path
// exactly (byte for byte: a trailing '/' or a symbolic link does not match).
void ApplySafeDirectory(const std::string& value, const std::string& path, bool* safe) {
  if (value.empty()) {
    *safe = false;
  } else if (value == "*" || ExpandPathname(value) == path) {
    *safe = true;
  }
}

// The safe.directory values of one configuration file, includes followed.
void ReadSafeDirectories(const std::string& file, const std::string& path, bool* safe) {
  if (file.empty() || ::access(file.c_str(), R_OK) != 0) return;
  git_config* config = nullptr;
  if (git_config_open_ondisk(&config, file.c_str()) != 0) return;
  GitHandle<git_config, git_config_free> owned(config);
  struct Payload {
    const std::string& path;
    bool* safe;
  } payload{path, safe};
  git_config_get_multivar_foreach(
      config, "safe.directory", nullptr,
      [](const git_config_entry* entry, void* data) {
        auto* p = static_cast<Payload*>(data);
        ApplySafeDirectory(entry->value != nullptr ? entry->value : "", p->path, p->safe);
        return 0;
      },
      &payload);
}

// The 'key'='value' (or old-style 'key=value') words of
// GIT_CONFIG_PARAMETERS, which `git -c` passes to the commands and hooks it
// runs: each word single-quoted, a ' or ! in it as '\'' or '\!' (quote.c
// sq_quote_buf).
std::vector<std::pair<std::string, std::string>> ConfigParameters(const std::string& text) {
  std::vector<std::pair<std::string, std::string>> out;
  std::size_t i = 0;
  auto quoted = [&](std::string* word) {
    if (i >= text.size() || text[i] != '\'') return false;
    ++i;
    while (true) {
      const std::size_t end = text.find('\'', i);
      if (end == std::string::npos) return false;
      word->append(text, i, end - i);
      i = end + 1;
      if (i + 2 >= text.size() || text[i] != '\\' || text[i + 2] != '\'') return true;
      word->push_back(text[i + 1]);
      i += 3;
    }
  };
  while (i < text.size()) {
    if (text[i] == ' ') {
      ++i;
      continue;
    }
    std::string key;
    if (!quoted(&key)) break;
    std::string value;
    if (i < text.size() && text[i] == '=') {
      ++i;
      if (!quoted(&value)) break;
    } else if (const std::size_t equals = key.find('='); equals != std::string::npos) {
      value = key.substr(equals + 1);
      key.resize(equals);
    }
    out.emplace_back(std::move(key), std::move(value));
  }
  return out;
}

bool IsSafeDirectoryKey(std::string key) {
  for (char& c : key) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return key == "safe.directory";
}

// Whether safe.directory allows `path`, read as git reads it: from the
// system, global and command-line configuration only (a repository's own
// configuration could allow itself), in git's order.
bool SafeDirectory(const std::string& path) {
  bool safe = false;
  if (!EnvBool("GIT_CONFIG_NOSYSTEM")) {
    const std::string system = Env("GIT_CONFIG_SYSTEM");
    ReadSafeDirectories(std::getenv("GIT_CONFIG_SYSTEM") != nullptr ? system : "/etc/gitconfig", path, &safe);
  }
  if (std::getenv("GIT_CONFIG_GLOBAL") != nullptr) {
    ReadSafeDirectories(Env("GIT_CONFIG_GLOBAL"), path, &safe);
  } else {
    const std::string home = Env("HOME");
    const std::string xdg = Env("XDG_CONFIG_HOME");
    ReadSafeDirectories(!xdg.empty() ? xdg + "/git/config" : home.empty() ? "" : home + "/.config/git/config",
                        path, &safe);
    if (!home.empty()) ReadSafeDirectories(home + "/.gitconfig", path, &safe);
  }
  const std::string count_text = Env("GIT_CONFIG_COUNT");
  const long count = count_text.empty() ? 0 : std::strtol(count_text.c_str(), nullptr, 10);
  for (long i = 0; i < count && i < 100000; ++i) {
    const std::string n = std::to_string(i);
    if (IsSafeDirectoryKey(Env(("GIT_CONFIG_KEY_" + n).c_str()))) {
      ApplySafeDirectory(Env(("GIT_CONFIG_VALUE_" + n).c_str()), path, &safe);
    }
  }
  for (const auto& [key, value] : ConfigParameters(Env("GIT_CONFIG_PARAMETERS"))) {
    if (IsSafeDirectoryKey(key)) ApplySafeDirectory(value, path, &safe);
  }
  return safe;
}

// git's sq_quote_buf_pretty: bare when only these characters appear.
std::string ShellQuoted(const std::string& text) {
  const bool plain = !text.empty() && text.find_first_not_of(
                                          "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                          "0123456789+,-./:=@_^") == std::string::npos;
  if (plain) return text;
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// git's ownership check of a repository it discovered: the .git file (a
// linked worktree's), the work tree's top and the git directory must be
// the current user's, unless safe.directory names the top (the git
// directory of a bare repository). `start` is where discovery began.
Status CheckOwnership(git_repository* repo, const std::string& start) {
  const std::string git_dir = RealPath(WithoutSlash(git_repository_path(repo)));
  std::string top;
  std::string git_file;
  // Which folder holds the .git that was found: the first one at or above
  // `start`, as discovery went; the git directory itself when bare.
  for (fs::path dir = RealPath(start); !dir.empty();) {
    struct stat info {};
    const std::string here = dir.generic_string();
    if (here == git_dir) {
      top = here;
      break;
    }
    if (::lstat((dir / ".git").c_str(), &info) == 0) {
      top = here;
      if (S_ISREG(info.st_mode)) git_file = (dir / ".git").string();
      break;
    }
    if (dir == dir.root_path()) break;
    dir = dir.parent_path();
  }
  if (top.empty()) top = git_dir;
  uid_t owner = 0;
  std::string checked;
  for (const std::string& path : {git_file, top == git_dir ? std::string() : top, git_dir}) {
    if (path.empty()) continue;
    checked = path;
    if (!OwnedByCurrentUser(path, &owner)) break;
    checked.clear();
  }
  if (checked.empty() || SafeDirectory(top)) return Ok();
  return OpenError(top, "detected dubious ownership in repository at '" + top + "' (" + checked +
                            " is owned by uid " + std::to_string(owner) + ", tjrender runs as uid " +
                            std::to_string(::geteuid()) +
                            "); git refuses it too. To add an exception for this directory, call: "
                            "git config --global --add safe.directory " + ShellQuoted(top));
}

// A path of git's environment that is relative to where git runs: the top
// of the work tree (git moves there, and runs hooks there), else the
// current folder.
std::string FromEnvironment(git_repository* repo, const std::string& value) {
  const char* workdir = git_repository_workdir(repo);
  std::error_code error;
  return Absolute(value, workdir != nullptr ? WithoutSlash(workdir) : fs::current_path(error).string());
}

}  // namespace

Result<GitHandle<git_repository, git_repository_free>> OpenRepository(const std::string& path) {
  // Never shut down: other threads may still hold objects at exit.
  static std::once_flag once;
  std::call_once(once, [] {
    git_libgit2_init();
    // Objects are only read: hashing every blob again (SHA-1 with collision
    // detection) would cost more than parsing it; zlib's and the pack's
    // checksums still catch corruption.
    git_libgit2_opts(GIT_OPT_ENABLE_STRICT_HASH_VERIFICATION, 0);
    // Ownership is checked below, as git checks it.
    git_libgit2_opts(GIT_OPT_SET_OWNER_VALIDATION, 0);
  });
  if (!Env("GIT_COMMON_DIR").empty()) {
    return OpenError(Env("GIT_COMMON_DIR"),
                     "GIT_COMMON_DIR is set: tjrender cannot read a repository split that way (libgit2 takes "
                     "the common folder only from $GIT_DIR/commondir); unset it");
  }
  std::error_code error;
  // `path` is where git would run (`git -C path`).
  const std::string start = Absolute(path, fs::current_path(error).string());
  const std::string git_dir_env = Env("GIT_DIR");
  git_repository* raw = nullptr;
  if (!git_dir_env.empty()) {
    // The repository named, no discovery, no ownership check (git makes none).
    const std::string git_dir = Absolute(git_dir_env, start);
    if (git_repository_open_ext(&raw, git_dir.c_str(),
                                GIT_REPOSITORY_OPEN_NO_SEARCH | GIT_REPOSITORY_OPEN_NO_DOTGIT, nullptr) != 0) {
      return OpenError(git_dir_env, "GIT_DIR=" + git_dir_env + ": not a Git repository (" + LastGitError() + ")");
    }
  } else {
    const unsigned flags = EnvBool("GIT_DISCOVERY_ACROSS_FILESYSTEM") ? unsigned{GIT_REPOSITORY_OPEN_CROSS_FS} : 0u;
    const std::string ceilings = Env("GIT_CEILING_DIRECTORIES");
    if (git_repository_open_ext(&raw, start.c_str(), flags, ceilings.empty() ? nullptr : ceilings.c_str()) != 0) {
      return OpenError(path, "cannot open a Git repository here or above: " + LastGitError());
    }
  }
  GitHandle<git_repository, git_repository_free> repo(raw);
  if (git_dir_env.empty()) {
    Status owned = CheckOwnership(repo.get(), start);
    if (!owned.ok()) return owned.take_error();
  }

  // The work tree: GIT_WORK_TREE; under GIT_DIR, else core.worktree, else
  // none for core.bare, else the folder git runs in.
  std::string work_tree = Env("GIT_WORK_TREE");
  if (work_tree.empty() && !git_dir_env.empty()) {
    git_config* config = nullptr;
    int bare = 0;
    git_config_entry* worktree_entry = nullptr;
    if (git_repository_config_snapshot(&config, repo.get()) == 0) {
      GitHandle<git_config, git_config_free> owned(config);
      if (git_config_get_bool(&bare, config, "core.bare") != 0) bare = 0;
      if (git_config_get_entry(&worktree_entry, config, "core.worktree") == 0) {
        git_config_entry_free(worktree_entry);
      } else {
        worktree_entry = nullptr;
      }
    }
    if (worktree_entry == nullptr && bare == 0) work_tree = start;
  }
  if (!work_tree.empty()) {
    const std::string top = Absolute(work_tree, start);
    if (git_repository_set_workdir(repo.get(), top.c_str(), 0) != 0) {
      return OpenError(work_tree, "the work tree " + top + " (GIT_WORK_TREE, or where GIT_DIR is used) cannot be "
                                  "used: " + LastGitError());
    }
  }

  if (const std::string index_env = Env("GIT_INDEX_FILE"); !index_env.empty()) {
    // A missing file is an empty index, as in git.
    const std::string index_path = FromEnvironment(repo.get(), index_env);
    git_index* index = nullptr;
    if (git_index_open(&index, index_path.c_str()) != 0) {
      // libgit2 says "no longer exists" of a file it cannot parse; the
      // index reader says what is wrong with it.
      const std::string libgit2 = LastGitError();
      Result<ReadIndex> read = ReadIndexFile(index_path);
      return OpenError(index_path, "GIT_INDEX_FILE=" + index_env + ": cannot read the index (" +
                                       (read.ok() ? libgit2 : read.error().message) + ")");
    }
    git_repository_set_index(repo.get(), index);
    git_index_free(index);
  }
  // Always an object database of OpenObjectDatabase's: its packs are
  // checked and its loose objects guarded before libgit2 reads them.
  Result<GitHandle<git_odb, git_odb_free>> odb = OpenObjectDatabase(repo.get(), ObjectsPath(repo.get()));
  if (!odb.ok()) return odb.take_error();
  git_repository_set_odb(repo.get(), odb->get());
  return repo;
}

std::string IndexFilePath(git_repository* repo) {
  std::string path;
  if (!Env("GIT_INDEX_FILE").empty()) {
    git_index* index = nullptr;
    if (git_repository_index(&index, repo) == 0) {
      if (const char* set = git_index_path(index)) path = set;
      git_index_free(index);
    }
    return path;
  }
  git_buf buffer = GIT_BUF_INIT;
  if (git_repository_item_path(&buffer, repo, GIT_REPOSITORY_ITEM_INDEX) == 0 && buffer.ptr != nullptr) {
    path = buffer.ptr;
  }
  git_buf_dispose(&buffer);
  return path;
}

std::string ObjectsPath(git_repository* repo) {
  const std::string env = Env("GIT_OBJECT_DIRECTORY");
  if (!env.empty()) return FromEnvironment(repo, env);
  // Linked worktrees keep their objects in the common folder.
  return std::string(git_repository_commondir(repo)) + "objects";
}

Result<GitHandle<git_odb, git_odb_free>> OpenObjectDatabase(git_repository* repo, const std::string& objects_path) {
  git_odb* raw = nullptr;
  if (git_odb_open(&raw, objects_path.c_str()) != 0) {
    return OpenError(objects_path, "cannot open the object database: " + LastGitError());
  }
  GitHandle<git_odb, git_odb_free> odb(raw);
  std::vector<std::string> folders{objects_path};
  // GIT_ALTERNATE_OBJECT_DIRECTORIES: more object folders, ':'-separated;
  // one that does not exist is skipped, as git skips it.
  const std::string alternates = Env("GIT_ALTERNATE_OBJECT_DIRECTORIES");
  for (std::size_t begin = 0; begin < alternates.size();) {
    std::size_t end = alternates.find(':', begin);
    if (end == std::string::npos) end = alternates.size();
    const std::string folder = FromEnvironment(repo, alternates.substr(begin, end - begin));
    struct stat info {};
    if (end > begin && ::stat(folder.c_str(), &info) == 0 && S_ISDIR(info.st_mode) &&
        git_odb_add_disk_alternate(odb.get(), folder.c_str()) != 0) {
      return OpenError(folder, "GIT_ALTERNATE_OBJECT_DIRECTORIES: cannot read " + folder + ": " + LastGitError());
    }
    if (end > begin) folders.push_back(folder);
    begin = end + 1;
  }
  Status guarded = GuardObjectDatabase(odb.get(), folders);
  if (!guarded.ok()) return guarded.take_error();
  return odb;
}

}  // namespace tjr::source
