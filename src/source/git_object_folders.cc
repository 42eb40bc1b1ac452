#include "source/git_object_folders.h"

#include <sys/stat.h>

#include <filesystem>
#include <set>

#include "base/file.h"

namespace tjr::source {
namespace {

// libgit2's GIT_ALTERNATES_MAX_DEPTH.
constexpr int kMaxAlternateDepth = 5;

class Finder {
 public:
  void Folder(const std::string& objects_dir, int depth) {
    struct stat info {};
    if (::stat(objects_dir.c_str(), &info) != 0 || !S_ISDIR(info.st_mode)) return;
    // libgit2 tells folders apart by device and inode: a loop ends.
    if (!seen_.insert({info.st_dev, info.st_ino}).second) return;
    found_.push_back(objects_dir);
    if (depth >= kMaxAlternateDepth) return;
    const std::string path = objects_dir + "/info/alternates";
    if (::stat(path.c_str(), &info) != 0 || !S_ISREG(info.st_mode)) return;
    Result<std::string> text = ReadFile(path);
    if (!text.ok()) return;  // libgit2 says what it cannot read
    for (std::size_t start = 0; start < text->size();) {
      std::size_t stop = text->find_first_of("\r\n", start);
      if (stop == std::string::npos) stop = text->size();
      std::string line = text->substr(start, stop - start);
      start = stop + 1;
      if (line.empty() || line[0] == '#') continue;
      if (line[0] == '.' && depth == 0) line = objects_dir + "/" + line;
      Folder(line, depth + 1);
    }
  }

  std::vector<std::string> found_;

 private:
  std::set<std::pair<dev_t, ino_t>> seen_;
};

}  // namespace

std::vector<std::string> ObjectFolders(const std::string& objects_dir) {
  Finder finder;
  finder.Folder(objects_dir, 0);
  return std::move(finder.found_);
}

}  // namespace tjr::source
