#include "source/git_util.h"

#include <algorithm>
#include <filesystem>
#include <mutex>

#include "source/git_object_guard.h"
#include "source/walk.h"

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
  GitHandle<git_repository, git_repository_free> owned(repo);
  // Its packs checked and its loose objects guarded before libgit2 reads them.
  git_odb* odb = nullptr;
  if (git_repository_odb(&odb, repo) != 0) return GitError(path, "cannot open the object database");
  GitHandle<git_odb, git_odb_free> database(odb);
  Status guarded = GuardObjectDatabase(odb, {std::string(git_repository_commondir(repo)) + "objects"});
  if (!guarded.ok()) return guarded.take_error();
  return owned;
}

int TreeOrder(const TreeItem& a, const TreeItem& b) {
  const std::size_t n = std::min(a.name.size(), b.name.size());
  if (const int order = a.name.compare(0, n, b.name.substr(0, n)); order != 0) return order;
  const auto next = [n](const TreeItem& item) -> int {
    return n < item.name.size() ? static_cast<unsigned char>(item.name[n]) : item.folder() ? '/' : 0;
  };
  return next(a) - next(b);
}

std::vector<TreeItem> TreeItemsInOrder(const git_tree* tree) {
  std::vector<TreeItem> items;
  if (tree == nullptr) return items;
  const std::size_t count = git_tree_entrycount(tree);
  items.reserve(count);
  for (std::size_t i = 0; i < count; ++i) {
    const git_tree_entry* entry = git_tree_entry_byindex(tree, i);
    items.push_back({entry, git_tree_entry_name(entry), static_cast<std::uint32_t>(git_tree_entry_filemode_raw(entry))});
  }
  auto before = [](const TreeItem& a, const TreeItem& b) { return TreeOrder(a, b) < 0; };
  if (!std::is_sorted(items.begin(), items.end(), before)) std::stable_sort(items.begin(), items.end(), before);
  return items;
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
    // libgit2's message hides why a commit's tree cannot be read (missing,
    // damaged): reading it again says.
    if (git_object_type(object) == GIT_OBJECT_COMMIT) {
      const git_oid* id = git_commit_tree_id(reinterpret_cast<git_commit*>(object));
      git_tree* own = nullptr;
      if (git_tree_lookup(&own, repo, id) != 0) return GitError(rev, "cannot read the tree " + OidHex(id) + " of its commit");
      git_tree_free(own);
    }
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

Result<std::string> NormalizeRepoPath(const std::string& path) {
  // The common case needs no std::filesystem round trip.
  if (!path.empty() && path.front() != '/' && IsLexicallyNormal(path)) return path;
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
