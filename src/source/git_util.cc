#include "source/git_util.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <optional>
#include <utility>

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

namespace {

// The commits .git/shallow lists: where a shallow clone's history is cut
// (their parents are not in the clone). None for a full clone.
std::vector<std::string> ShallowCommits(git_repository* repo) {
  std::vector<std::string> commits;
  std::ifstream file(std::string(git_repository_commondir(repo)) + "shallow");
  for (std::string line; std::getline(file, line);) {
    if (line.size() >= GIT_OID_HEXSZ) commits.push_back(line.substr(0, GIT_OID_HEXSZ));
  }
  return commits;
}

Diagnostic BeyondShallowCut(const std::string& rev, const std::string& cut, const std::string& deepen) {
  return AsInputError(MakeError(Location{InternSourceName(rev)}, "",
                                rev + " is not in this shallow clone (the history is cut at " + cut +
                                    "); fetch more history: git fetch --deepen=" + deepen +
                                    " or git fetch --unshallow"));
}

// Why `rev`, which libgit2 could not resolve, is not in a shallow clone,
// if that is why: a name followed by ~N / ^N steps that walk past a
// commit whose parents the clone lacks, or a commit id whose object is
// missing. Null otherwise (a revision that exists nowhere keeps libgit2's
// message).
std::optional<Diagnostic> ExplainShallow(git_repository* repo, const std::string& rev) {
  const std::vector<std::string> cut = ShallowCommits(repo);
  if (cut.empty()) return std::nullopt;
  // The trailing ancestry steps: (~|^) followed by digits or nothing.
  std::size_t name_end = rev.size();
  std::vector<std::pair<char, unsigned long>> steps;
  while (name_end > 0) {
    std::size_t digits = name_end;
    while (digits > 0 && std::isdigit(static_cast<unsigned char>(rev[digits - 1]))) --digits;
    if (digits == 0 || (rev[digits - 1] != '~' && rev[digits - 1] != '^')) break;
    const std::string number = rev.substr(digits, name_end - digits);
    if (number.size() > 9) return std::nullopt;
    steps.insert(steps.begin(), {rev[digits - 1], number.empty() ? 1 : std::stoul(number)});
    name_end = digits - 1;
  }
  const std::string name = rev.substr(0, name_end);
  git_object* object = nullptr;
  if (name.empty() || git_revparse_single(&object, repo, name.c_str()) != 0) {
    // A commit id (or its prefix) that is not here may lie beyond the cut,
    // as may the commit a branch or tag names.
    const bool hex = name.size() >= 4 && name.size() <= GIT_OID_HEXSZ &&
                     name.find_first_not_of("0123456789abcdefABCDEF") == std::string::npos;
    git_reference* ref = nullptr;
    const bool named = !name.empty() && git_reference_dwim(&ref, repo, name.c_str()) == 0;
    git_reference_free(ref);
    if (!hex && !named) return std::nullopt;
    std::string at = cut.front().substr(0, 12);
    if (cut.size() > 1) at += " and " + std::to_string(cut.size() - 1) + " other commit(s)";
    return BeyondShallowCut(rev, at, "N");
  }
  GitHandle<git_object, git_object_free> named(object);
  git_object* peeled = nullptr;
  if (git_object_peel(&peeled, object, GIT_OBJECT_COMMIT) != 0) return std::nullopt;
  GitHandle<git_commit, git_commit_free> commit(reinterpret_cast<git_commit*>(peeled));
  // Walk the steps; the first parent the clone lacks is the cut.
  for (std::size_t s = 0; s < steps.size(); ++s) {
    const auto [op, count] = steps[s];
    const unsigned long moves = op == '~' ? count : count == 0 ? 0 : 1;
    for (unsigned long m = 0; m < moves; ++m) {
      const unsigned parent = op == '~' ? 0 : static_cast<unsigned>(count - 1);
      if (parent >= git_commit_parentcount(commit.get())) return std::nullopt;  // no such parent anywhere
      git_commit* next = nullptr;
      if (git_commit_parent(&next, commit.get(), parent) != 0) {
        // First-parent steps still to go: how much deeper the clone must be.
        unsigned long missing = moves - m;
        for (std::size_t t = s + 1; t < steps.size(); ++t) missing += steps[t].first == '~' ? steps[t].second : 1;
        return BeyondShallowCut(rev, OidHex(git_commit_id(commit.get())).substr(0, 12), std::to_string(missing));
      }
      commit.reset(next);
    }
  }
  return std::nullopt;
}

// The reference a revision starts from: what comes before its first
// operator (~ ^ : @{). Reference names cannot hold ~ ^ : or @{.
std::string RevisionBase(const std::string& rev) {
  std::size_t end = rev.find_first_of("~^:");
  const std::size_t reflog = rev.find("@{");
  if (reflog < end) end = reflog;
  return rev.substr(0, end);
}

// libgit2 (1.5 and still upstream) leaks the reference in
// revparse_lookup_object when the object it names cannot be read: a damaged
// loose object leaked 800 bytes per run, and LeakSanitizer said so. Reading
// the base reference's object first, with every handle freed here, reports
// that damage before git_revparse_single can take its leaking path.
std::optional<Diagnostic> CheckBaseObjectReadable(git_repository* repo, const std::string& rev) {
  const std::string base = RevisionBase(rev);
  if (base.empty()) return std::nullopt;
  git_reference* named = nullptr;
  if (git_reference_dwim(&named, repo, base.c_str()) != 0) return std::nullopt;  // not a reference: revparse decides
  GitHandle<git_reference, git_reference_free> named_handle(named);
  git_reference* direct = nullptr;
  if (git_reference_resolve(&direct, named) != 0) return std::nullopt;
  GitHandle<git_reference, git_reference_free> direct_handle(direct);
  const git_oid* target = git_reference_target(direct);
  if (target == nullptr) return std::nullopt;
  git_object* object = nullptr;
  if (git_object_lookup(&object, repo, target, GIT_OBJECT_ANY) != 0) {
    Diagnostic unknown = GitError(rev, "unknown revision");
    if (std::optional<Diagnostic> shallow = ExplainShallow(repo, rev)) return shallow;
    return unknown;
  }
  git_object_free(object);
  return std::nullopt;
}

}  // namespace

Result<PeeledTree> PeelToTree(git_repository* repo, const std::string& rev) {
  if (!rev.empty()) {
    if (std::optional<Diagnostic> unreadable = CheckBaseObjectReadable(repo, rev)) return *unreadable;
  }
  git_object* object = nullptr;
  if (rev.empty() || git_revparse_single(&object, repo, rev.c_str()) != 0) {
    Diagnostic unknown = GitError(rev, "unknown revision");
    if (!rev.empty()) {
      if (std::optional<Diagnostic> shallow = ExplainShallow(repo, rev)) return *shallow;
    }
    return unknown;
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
