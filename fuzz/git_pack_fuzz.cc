// A repository's object files on arbitrary bytes, read through tjrender's
// Git adapter as `render --rev` and `diff` read them (source/git_tree.h:
// OpenGitRevision, the folders listed, every file stat'ed and read;
// ChangedPaths between HEAD~1 and HEAD): the pack checks and the loose
// object guard made before libgit2 reads (git_pack_check.h,
// git_loose_guard.h), then libgit2 1.5's own readers on what passes. Never a
// crash or a hang; every error is a value located at a file.
//
// The repository is git_pack_base.h's (two commits, nine objects packed,
// one a delta). The first byte's bits 0-1 say what the rest of the input
// is: 0 the pack index (beside the base pack), 1 the pack (beside the base
// index), 2 both (a 2-byte big-endian index length, the index, the pack),
// 3 the loose object of HEAD's root tree (the other objects loose as
// stored). Unless bit 2 is set, the checksum the index holds of its pack is
// made to match (the index's bytes -40..-20, the pack's last 20), so
// mutations reach what follows that check.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "git_pack_base.h"
#include "source/git_tree.h"

namespace {

namespace fs = std::filesystem;

constexpr std::size_t kHash = 20;

void Trap(bool failed) {
  if (failed) __builtin_trap();
}

void Write(const fs::path& path, std::string_view bytes) {
  FILE* file = std::fopen(path.c_str(), "wb");
  Trap(file == nullptr || std::fwrite(bytes.data(), 1, bytes.size(), file) != bytes.size());
  std::fclose(file);
}

std::string_view Bytes(const unsigned char* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

// The repository's folder, made once per process (HEAD, refs, an empty
// object store), removed at exit.
struct Scratch {
  fs::path root;
  Scratch() {
    char name[] = "/tmp/tjr-git-pack-fuzz-XXXXXX";
    Trap(mkdtemp(name) == nullptr);
    root = name;
    const fs::path git = root / ".git";
    fs::create_directories(git / "refs" / "heads");
    fs::create_directories(git / "objects" / "pack");
    Write(git / "HEAD", "ref: refs/heads/main\n");
    Write(git / "config", "[core]\n\trepositoryformatversion = 0\n\tbare = false\n");
    Write(git / "refs" / "heads" / "main", std::string(tjr::fuzz::kBaseHead) + "\n");
  }
  ~Scratch() {
    std::error_code ignored;
    fs::remove_all(root, ignored);
  }
};

// Every error must say where: a file, a path of the revision, a revision.
template <class T>
bool Failed(const tjr::Result<T>& result) {
  if (result.ok()) return false;
  Trap(!result.error().location.known());
  return true;
}

// The revision's folders walked (an explicit stack, a bounded number of
// entries), each file stat'ed and read.
void ReadRevision(const std::string& root, const std::string& rev) {
  tjr::Result<std::unique_ptr<tjr::source::GitTree>> tree = tjr::source::OpenGitRevision(root, rev);
  if (Failed(tree)) return;
  std::vector<std::string> pending{""};
  std::size_t budget = 64;
  while (!pending.empty() && budget > 0) {
    const std::string folder = std::move(pending.back());
    pending.pop_back();
    tjr::Result<std::vector<tjr::source::DirEntry>> entries = (*tree)->List(folder);
    if (Failed(entries)) continue;
    for (const tjr::source::DirEntry& entry : *entries) {
      if (budget-- == 0) break;
      const std::string path = folder.empty() ? entry.name : folder + "/" + entry.name;
      (void)Failed((*tree)->Stat(path));
      if (entry.type == tjr::source::EntryType::kDirectory) pending.push_back(path);
      if (entry.type == tjr::source::EntryType::kFile) {
        tjr::Result<std::string> bytes = (*tree)->Read(path, 1 << 20);
        Trap(bytes.ok() && bytes->size() > (1 << 20));
        (void)Failed(bytes);
        (void)(*tree)->BlobId(path);
      }
    }
  }
}

}  // namespace

// libgit2 1.5.1's revparse leaks the reference it resolved when the object
// it names cannot be read (git_reference_dwim's allocation, freed on no
// error path): not ours to fix, and only that stack is excused.
// The suppression needs the whole stack of each allocation (libgit2 has no
// frame pointers for the fast unwinder).
extern "C" const char* __lsan_default_suppressions() { return "leak:git_revparse_ext\n"; }
extern "C" const char* __asan_default_options() { return "fast_unwind_on_malloc=0"; }

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const Scratch scratch;
  if (size == 0) return 0;
  const unsigned mode = data[0] & 3;
  const bool keep_checksums = (data[0] & 4) != 0;
  std::string_view input(reinterpret_cast<const char*>(data) + 1, size - 1);
  std::string index(Bytes(tjr::fuzz::kBaseIndex, sizeof tjr::fuzz::kBaseIndex));
  std::string pack(Bytes(tjr::fuzz::kBasePack, sizeof tjr::fuzz::kBasePack));
  if (mode == 0) index = input;
  if (mode == 1) pack = input;
  if (mode == 2) {
    if (input.size() < 2) return 0;
    const std::size_t length = (static_cast<unsigned char>(input[0]) << 8) | static_cast<unsigned char>(input[1]);
    input.remove_prefix(2);
    index = input.substr(0, length);
    pack = input.substr(std::min(length, input.size()));
  }
  if (!keep_checksums && mode != 3) {
    // The pack's checksum where the index keeps it, as a pack and its
    // index written together have it.
    const std::string_view base_sum = Bytes(tjr::fuzz::kBasePack + sizeof tjr::fuzz::kBasePack - kHash, kHash);
    if (mode == 0 && index.size() >= 2 * kHash) index.replace(index.size() - 2 * kHash, kHash, base_sum);
    if (mode != 0 && pack.size() >= kHash && index.size() >= 2 * kHash) {
      pack.replace(pack.size() - kHash, kHash, index.substr(index.size() - 2 * kHash, kHash));
    }
  }

  // A fresh object store each time, under names never used before: the
  // pack checks remember what they passed by path, size and time.
  static unsigned long run = 0;
  const fs::path objects = scratch.root / ".git" / "objects";
  std::error_code ignored;
  for (const fs::directory_entry& entry : fs::directory_iterator(objects, ignored)) {
    if (entry.path().filename() != "pack") fs::remove_all(entry.path(), ignored);
  }
  for (const fs::directory_entry& entry : fs::directory_iterator(objects / "pack", ignored)) {
    fs::remove(entry.path(), ignored);
  }
  if (mode == 3) {
    for (const tjr::fuzz::LooseObject& object : tjr::fuzz::kBaseLoose) {
      const std::string id = object.id;
      fs::create_directories(objects / id.substr(0, 2), ignored);
      Write(objects / id.substr(0, 2) / id.substr(2),
            id == tjr::fuzz::kBaseRootTree ? input : Bytes(object.bytes, object.size));
    }
  } else {
    const std::string name = "pack-" + std::to_string(++run);
    Write(objects / "pack" / (name + ".idx"), index);
    Write(objects / "pack" / (name + ".pack"), pack);
  }

  const std::string root = scratch.root.string();
  ReadRevision(root, "HEAD");
  ReadRevision(root, "HEAD~1");
  (void)Failed(tjr::source::ChangedPaths(root, "HEAD~1", "HEAD", {}, 1));
  return 0;
}
