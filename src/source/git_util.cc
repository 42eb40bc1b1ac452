#include "source/git_util.h"

#include <filesystem>
#include <mutex>

// tjrender reads local repositories only and never opens a connection, yet
// libgit2 built with mbedTLS (Debian's, for one) parses the whole system CA
// bundle inside git_libgit2_init: 220 kB of base64, about 10 ms, a fifth of a
// `--since` run. Defining the loader here makes the dynamic linker bind
// libgit2's call to this one, which loads nothing; libgit2 then holds an
// empty CA chain, so TLS would fail verification rather than go unverified.
// With another TLS backend nothing calls it.
extern "C" int mbedtls_x509_crt_parse_file(void* /*chain*/, const char* /*path*/) { return 0; }

namespace tjr::source {
namespace {

Diagnostic GitError(const std::string& where, const std::string& what) {
  return AsInputError(MakeError(Location{InternSourceName(where)}, "", what + ": " + LastGitError()));
}

}  // namespace

std::string LastGitError() {
  const git_error* error = git_error_last();
  return error != nullptr && error->message != nullptr ? error->message : "unknown libgit2 error";
}

std::string OidHex(const git_oid* oid) {
  char hex[GIT_OID_HEXSZ + 1] = {};
  git_oid_tostr(hex, sizeof hex, oid);
  return hex;
}

Result<GitHandle<git_repository, git_repository_free>> OpenRepository(const std::string& path) {
  // Never shut down: other threads may still hold objects at exit.
  static std::once_flag once;
  std::call_once(once, [] {
    git_libgit2_init();
    // Objects are only read: hashing every blob again (SHA-1 with collision
    // detection) would cost more than parsing it; zlib's and the pack's
    // checksums still catch corruption.
    git_libgit2_opts(GIT_OPT_ENABLE_STRICT_HASH_VERIFICATION, 0);
  });
  git_repository* repo = nullptr;
  if (git_repository_open_ext(&repo, path.c_str(), 0, nullptr) != 0) {
    return GitError(path, "cannot open a Git repository here or above");
  }
  return GitHandle<git_repository, git_repository_free>(repo);
}

Result<PeeledTree> PeelToTree(git_repository* repo, const std::string& rev) {
  git_object* object = nullptr;
  if (rev.empty() || git_revparse_single(&object, repo, rev.c_str()) != 0) {
    return GitError(rev, "unknown revision");
  }
  GitHandle<git_object, git_object_free> named(object);
  PeeledTree peeled;
  git_object* tree = nullptr;
  if (git_object_peel(&tree, object, GIT_OBJECT_TREE) != 0) {
    return GitError(rev, "revision does not name a tree");
  }
  peeled.tree.reset(reinterpret_cast<git_tree*>(tree));
  git_object* commit = nullptr;
  if (git_object_peel(&commit, object, GIT_OBJECT_COMMIT) == 0) {
    peeled.id = OidHex(git_object_id(commit));
    git_object_free(commit);
  } else {
    peeled.id = OidHex(git_object_id(tree));
  }
  return peeled;
}

namespace {

// No empty, "." or ".." component and no leading or trailing '/': the
// common case, which needs no std::filesystem round trip.
bool AlreadyNormal(const std::string& path) {
  if (path.empty() || path.front() == '/' || path.back() == '/') return false;
  std::size_t start = 0;
  while (start <= path.size()) {
    std::size_t end = path.find('/', start);
    if (end == std::string::npos) end = path.size();
    std::size_t length = end - start;
    if (length == 0 || (length == 1 && path[start] == '.') ||
        (length == 2 && path[start] == '.' && path[start + 1] == '.')) {
      return false;
    }
    start = end + 1;
  }
  return true;
}

}  // namespace

Result<std::string> NormalizeRepoPath(const std::string& path) {
  if (AlreadyNormal(path)) return path;
  std::string normal = std::filesystem::path(path).lexically_normal().generic_string();
  while (!normal.empty() && normal.back() == '/') normal.pop_back();
  if (normal == ".") normal.clear();
  if (!path.empty() && path.front() == '/') {
    return AsInputError(MakeError(Location{InternSourceName(path)}, "",
                                  "absolute path: paths in a Git revision are relative to "
                                  "the repository root"));
  }
  if (normal == ".." || normal.rfind("../", 0) == 0) {
    return AsInputError(
        MakeError(Location{InternSourceName(path)}, "", "path leaves the repository"));
  }
  return normal;
}

}  // namespace tjr::source
