#include "source/glob.h"

#include <fnmatch.h>

#include <string_view>

namespace tjr::source {
namespace {

std::vector<std::string> Split(std::string_view text) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t slash = text.find('/', start);
    if (slash == std::string_view::npos) slash = text.size();
    if (slash > start) parts.emplace_back(text.substr(start, slash - start));
    start = slash + 1;
  }
  return parts;
}

// Components pattern[p..] against path[s..], where matching the whole of
// the pattern against a prefix of the path suffices (a folder match covers
// what is under it).
bool MatchFrom(const std::vector<std::string>& pattern, std::size_t p,
               const std::vector<std::string>& path, std::size_t s) {
  while (p < pattern.size()) {
    if (pattern[p] == "**") {
      for (std::size_t skip = s; skip <= path.size(); ++skip) {
        if (MatchFrom(pattern, p + 1, path, skip)) return true;
      }
      return false;
    }
    if (s == path.size()) return false;
    if (::fnmatch(pattern[p].c_str(), path[s].c_str(), 0) != 0) return false;
    ++p;
    ++s;
  }
  return true;
}

}  // namespace

bool GlobMatch(const std::string& pattern, const std::string& path) {
  std::string_view text = pattern;
  if (text.rfind("./", 0) == 0) text.remove_prefix(2);
  bool anchored = text.find('/') != std::string_view::npos &&
                  text.find('/') != text.size() - 1;  // "dir/" is still unanchored
  std::vector<std::string> parts = Split(text);
  std::vector<std::string> components = Split(path);
  if (parts.empty()) return false;
  if (anchored) return MatchFrom(parts, 0, components, 0);
  for (std::size_t start = 0; start < components.size(); ++start) {
    if (MatchFrom(parts, 0, components, start)) return true;
  }
  return false;
}

bool PathFilter::Accepts(const std::string& relative_path) const {
  bool included = include.empty();
  for (const std::string& pattern : include) {
    if (GlobMatch(pattern, relative_path)) {
      included = true;
      break;
    }
  }
  if (!included) return false;
  for (const std::string& pattern : exclude) {
    if (GlobMatch(pattern, relative_path)) return false;
  }
  return true;
}

}  // namespace tjr::source
