#include "source/walk.h"

#include <algorithm>
#include <filesystem>
#include <set>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "source/folder_facts.h"
#include "source/helm_chart.h"
#include "source/kustomize.h"

namespace tjr::source {
namespace {

constexpr char kStdinName[] = "<stdin>";

Diagnostic Note(const std::string& path, std::string message) {
  Diagnostic note = MakeError(Location{InternSourceName(path)}, "", std::move(message));
  note.severity = Severity::kNote;
  return note;
}

// The directory as it will prefix its files: "./a/" -> "a", "." stays ".".
std::string CleanDirectory(const std::string& path) {
  std::string clean = std::filesystem::path(path).lexically_normal().generic_string();
  while (clean.size() > 1 && clean.back() == '/') clean.pop_back();
  return clean.empty() ? "." : clean;
}

std::string Join(const std::string& directory, const std::string& name) {
  if (directory == ".") return name;
  if (directory == "/") return "/" + name;
  return directory + "/" + name;
}

// The folder holding `path` as written ("a/b.yaml" -> "a", "b.yaml" -> "."),
// or "" when `path` is the top ("." or "/").
std::string ParentOf(const std::string& path) {
  if (path == "." || path == "/" || path == ".." || path.ends_with("/..")) return std::string();
  std::size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

// Where a folder stands with respect to Helm charts.
struct ChartState {
  std::string root;        // the chart folder, "" outside charts
  bool templates = false;  // inside its templates/ folder
};

// Sorts `files` by name, given that each [runs[i], runs[i + 1]) holds the
// files of one folder: each run is sorted alone (a Git folder lists in name
// order already), then runs are merged pairwise. Sorting ten thousand long
// paths with shared prefixes from scratch costs several times more.
void SortByName(std::vector<InputFile>* files, std::vector<std::size_t> runs) {
  auto by_name = [](const InputFile& a, const InputFile& b) { return a.name < b.name; };
  auto at = [&](std::size_t index) { return files->begin() + static_cast<std::ptrdiff_t>(index); };
  for (std::size_t i = 0; i + 1 < runs.size(); ++i) {
    if (!std::is_sorted(at(runs[i]), at(runs[i + 1]), by_name)) {
      std::sort(at(runs[i]), at(runs[i + 1]), by_name);
    }
  }
  while (runs.size() > 2) {
    std::vector<std::size_t> merged;
    std::size_t i = 0;
    for (; i + 2 < runs.size(); i += 2) {
      std::inplace_merge(at(runs[i]), at(runs[i + 1]), at(runs[i + 2]), by_name);
      merged.push_back(runs[i]);
    }
    for (; i < runs.size(); ++i) merged.push_back(runs[i]);
    runs = std::move(merged);
  }
}

class Expander {
 public:
  // `deduplicate`: a file may be reached twice, which takes two paths (one
  // directory walk reaches each name once).
  Expander(const Tree& tree, const std::vector<std::string>& extensions, bool deduplicate)
      : tree_(tree), extensions_(extensions), deduplicate_(deduplicate) {}

  void AddPath(const std::string& path) {
    if (path == "-") {
      Add({kStdinName, "-", true});
      return;
    }
    Result<EntryType> type = tree_.Stat(path);
    if (!type.ok()) {
      out_.diagnostics.push_back(type.take_error());
      return;
    }
    if (*type == EntryType::kDirectory) {
      AddDirectory(path);
      return;
    }
    const std::string parent = ParentOf(path);
    if (!parent.empty()) FindKustomizationsAbove(parent);
    AddInChart({path, path, false}, parent.empty() ? ChartState{} : StateOf(parent), &out_.files);
  }

  ExpandedPaths Take() {
    SkipKustomizeReferences();
    std::sort(out_.skipped.begin(), out_.skipped.end(),
              [](const SkippedFile& a, const SkippedFile& b) { return a.name < b.name; });
    return std::move(out_);
  }

 private:
  bool Wanted(const std::string& path) const {
    return std::find(extensions_.begin(), extensions_.end(), Extension(path)) !=
           extensions_.end();
  }

  // A folder's chart state from the folder and its parents as written: the
  // nearest one holding Chart.yaml is the chart.
  ChartState StateOf(const std::string& directory) {
    std::vector<std::string> below;  // components from the chart down to `directory`
    for (std::string at = directory; !at.empty(); at = ParentOf(at)) {
      if (HasChartFile(at)) {
        return {at, !below.empty() && below.back() == kChartTemplatesFolder};
      }
      std::size_t slash = at.rfind('/');
      below.push_back(slash == std::string::npos ? at : at.substr(slash + 1));
    }
    return {};
  }

  // The kustomizations of `directory` and its parents as written: a named
  // file may be a patch of any of them.
  void FindKustomizationsAbove(const std::string& directory) {
    for (std::string at = directory; !at.empty(); at = ParentOf(at)) {
      FolderFacts::Folder& facts = folders_.At(at);
      if (facts.kustomizations_checked) return;  // and its parents
      facts.kustomizations_checked = true;
      for (const std::string& name : Listed(at, facts).kustomization_files) kustomizations_.insert(Join(at, name));
    }
  }

  // `facts` of the folder `directory` with its Chart.yaml and kustomization
  // files looked for in its listing: a Stat of each name would keep its
  // path for the error of every one missing (kilobytes at every level of a
  // deep tree).
  FolderFacts::Folder& Listed(const std::string& directory, FolderFacts::Folder& facts) {
    if (facts.listed) return facts;
    facts.listed = true;
    Result<std::vector<DirEntry>> entries = tree_.List(directory);
    if (!entries.ok()) return facts;
    for (const DirEntry& entry : *entries) {
      const bool chart = entry.name == kChartFile;
      const bool kustomization = std::find(std::begin(kKustomizationFileNames), std::end(kKustomizationFileNames),
                                           entry.name) != std::end(kKustomizationFileNames);
      if (!chart && !kustomization) continue;
      bool file = entry.type == EntryType::kFile;
      if (entry.type == EntryType::kSymlink) {  // a file if it leads to one
        Result<EntryType> type = tree_.Stat(Join(directory, entry.name));
        file = type.ok() && *type == EntryType::kFile;
      }
      if (file && chart) facts.has_chart_file = true;
      if (file && kustomization) facts.kustomization_files.push_back(entry.name);
    }
    return facts;
  }

  // Moves the files kustomizations name as patches or plugin configurations
  // from `files` to `skipped`.
  void SkipKustomizeReferences() {
    if (kustomizations_.empty()) return;
    std::unordered_map<std::string, std::string> why;  // normal path -> note
    std::unordered_set<std::string> patches;           // normal paths of patch files
    for (const std::string& kustomization : kustomizations_) {
      Result<std::string> text = tree_.Read(kustomization, std::size_t{1} << 20);
      if (!text.ok()) continue;
      const std::string folder = ParentOf(kustomization);
      for (KustomizeReference& reference : KustomizeReferences(*text, folder)) {
        if (reference.role == "patch") patches.insert(reference.path);
        why.try_emplace(std::move(reference.path), "a kustomize " + reference.role + " named by " + kustomization +
                                                       " (check what it builds with `kustomize build " + folder +
                                                       " | tjrender check -`)");
      }
    }
    std::erase_if(out_.files, [&](InputFile& file) {
      if (file.is_stdin) return false;
      auto found = why.find(IsLexicallyNormal(file.name)
                                ? file.name
                                : std::filesystem::path(file.name).lexically_normal().generic_string());
      if (found == why.end()) return false;
      out_.skipped.push_back({std::move(file.name), "", found->second, patches.count(found->first) > 0});
      return true;
    });
  }

  bool HasChartFile(const std::string& directory) {
    return Listed(directory, folders_.At(directory)).has_chart_file;
  }

  // A file of a chart's templates/ is skipped; others remember their chart.
  void AddInChart(InputFile file, const ChartState& state, std::vector<InputFile>* into) {
    if (state.templates) {
      out_.skipped.push_back({std::move(file.name), state.root, ""});
      return;
    }
    file.chart = state.root;
    if (into == &out_.files) {
      Add(std::move(file));
    } else {
      into->push_back(std::move(file));
    }
  }

  void Add(InputFile file) {
    if (!deduplicate_) {
      out_.files.push_back(std::move(file));
      return;
    }
    // The same file named twice (a directory and a file in it, say) would
    // otherwise report each of its objects as its own duplicate.
    std::string key = file.is_stdin || IsLexicallyNormal(file.name)
                          ? (file.is_stdin ? file.read_path : file.name)
                          : std::filesystem::path(file.name).lexically_normal().generic_string();
    if (seen_.insert(std::move(key)).second) out_.files.push_back(std::move(file));
  }

  void AddDirectory(const std::string& path) {
    Result<std::string> root = tree_.Resolve(path);
    if (!root.ok()) {
      out_.diagnostics.push_back(root.take_error());
      return;
    }
    std::vector<InputFile> found;
    std::vector<std::size_t> runs{0};  // where each folder's files start in `found`
    // An explicit stack: a hostile tree may nest deeper than the call stack.
    const std::string top = CleanDirectory(path);
    std::vector<std::pair<std::string, ChartState>> pending{{top, StateOf(top)}};
    while (!pending.empty()) {
      auto [directory, state] = std::move(pending.back());
      pending.pop_back();
      if (runs.back() != found.size()) runs.push_back(found.size());
      Result<std::vector<DirEntry>> entries = tree_.List(directory);
      if (!entries.ok()) {
        out_.diagnostics.push_back(entries.take_error());
        continue;
      }
      // A chart's own folder (a chart inside a chart is a subchart).
      if (std::any_of(entries->begin(), entries->end(), [](const DirEntry& e) {
            return e.type == EntryType::kFile && e.name == kChartFile;
          })) {
        state = {directory, false};
      }
      for (const DirEntry& entry : *entries) {
        if (entry.type == EntryType::kFile && IsKustomizationFileName(entry.name)) {
          kustomizations_.insert(Join(directory, entry.name));
        }
      }
      found.reserve(found.size() + entries->size());
      for (DirEntry& entry : *entries) {
        std::string child = Join(directory, entry.name);
        switch (entry.type) {
          case EntryType::kDirectory: {
            if (!entry.left_out.empty()) {
              out_.diagnostics.push_back(Note(child, "left out: " + entry.left_out));
              break;
            }
            ChartState below = state;
            below.templates = state.templates || (!state.root.empty() && directory == state.root &&
                                                  entry.name == kChartTemplatesFolder);
            pending.emplace_back(std::move(child), std::move(below));
            break;
          }
          case EntryType::kFile:
            if (!entry.left_out.empty()) {
              if (Wanted(child)) out_.diagnostics.push_back(Note(child, "left out: " + entry.left_out));
              break;
            }
            if (Wanted(child)) {
              AddInChart({child, child, false, std::move(entry.object_id)}, state, &found);
            }
            break;
          case EntryType::kSymlink:
            AddLink(child, *root, state, &found);
            break;
          case EntryType::kOther:
            AddOther(child);
            break;
        }
      }
    }
    runs.push_back(found.size());
    SortByName(&found, std::move(runs));
    if (!deduplicate_ && out_.files.empty()) {
      out_.files = std::move(found);
      return;
    }
    out_.files.reserve(out_.files.size() + found.size());
    for (InputFile& file : found) Add(std::move(file));
  }

  // Something neither file nor folder: the tree may say why it is skipped
  // (a Git submodule), which is worth a note whatever its name.
  void AddOther(const std::string& path) {
    Result<EntryType> type = tree_.Stat(path);
    if (!type.ok() && type.error().severity != Severity::kError) {
      out_.diagnostics.push_back(type.take_error());
    } else if (Wanted(path)) {
      out_.diagnostics.push_back(Note(path, "skipped: not a regular file"));
    }
  }

  void AddLink(const std::string& link, const std::string& root, const ChartState& state,
               std::vector<InputFile>* found) {
    Result<EntryType> target = tree_.Stat(link);
    if (!target.ok()) {
      // Broken links matter only where a file of that name would be read; a
      // link the tree does not follow (Git) is reported as the tree says,
      // and only noted when no manifest would have been read through it
      // (CLAUDE.md -> AGENTS.md, or a link to a folder).
      Diagnostic why = target.take_error();
      if (Wanted(link)) {
        out_.diagnostics.push_back(std::move(why));
      } else if (why.severity != Severity::kError) {
        why.severity = Severity::kNote;
        out_.diagnostics.push_back(std::move(why));
      }
      return;
    }
    if (*target == EntryType::kDirectory) {
      out_.diagnostics.push_back(
          Note(link, "skipped: symbolic link to a directory (not followed, so a tree cannot loop)"));
      return;
    }
    if (!Wanted(link)) return;
    if (*target != EntryType::kFile) {
      out_.diagnostics.push_back(Note(link, "skipped: symbolic link to something not a regular file"));
      return;
    }
    Result<std::string> resolved = tree_.Resolve(link);
    if (!resolved.ok()) {
      out_.diagnostics.push_back(resolved.take_error());
      return;
    }
    if (!InsideFolder(*resolved, root)) {
      out_.diagnostics.push_back(AsInputError(MakeError(
          Location{InternSourceName(link)}, "",
          "symbolic link resolves to " + *resolved + ", outside the directory " + root +
              " being read; name the file itself to read it")));
      return;
    }
    // Reading the resolved path reads what was checked.
    AddInChart({link, *resolved, false}, state, found);
  }

  const Tree& tree_;
  const std::vector<std::string>& extensions_;
  const bool deduplicate_;
  std::unordered_set<std::string> seen_;
  FolderFacts folders_;  // Chart.yaml and kustomizations looked for, by folder
  std::set<std::string> kustomizations_;  // sorted: the first to name a file explains it
  ExpandedPaths out_;
};

}  // namespace

bool InsideFolder(std::string_view path, std::string_view folder) {
  if (folder == "/") return true;
  return path.size() > folder.size() && path.compare(0, folder.size(), folder) == 0 && path[folder.size()] == '/';
}

bool IsLexicallyNormal(const std::string& path) {
  if (path.empty() || path.back() == '/') return false;
  std::size_t start = path.front() == '/' ? 1 : 0;
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

bool InScope(std::string_view path, const std::vector<std::string>& scope) {
  for (const std::string& s : scope) {
    if (s.empty() || s == "." || path == s ||
        (path.size() > s.size() && path.substr(0, s.size()) == s && path[s.size()] == '/')) {
      return true;
    }
  }
  return false;
}

bool ScopeReaches(std::string_view folder, const std::vector<std::string>& scope) {
  if (scope.empty() || InScope(folder, scope)) return true;
  return std::any_of(scope.begin(), scope.end(), [&](const std::string& s) {
    return s.size() > folder.size() && s.compare(0, folder.size(), folder) == 0 && s[folder.size()] == '/';
  });
}

std::string Extension(const std::string& path) {
  for (std::size_t i = path.size(); i > 0; --i) {
    char c = path[i - 1];
    if (c == '/') break;
    if (c == '.') return path.substr(i - 1);
  }
  return std::string();
}

ExpandedPaths ExpandPaths(const Tree& tree, const std::vector<std::string>& paths,
                          const std::vector<std::string>& extensions) {
  Expander expander(tree, extensions, paths.size() > 1);
  for (const std::string& path : paths) expander.AddPath(path);
  return expander.Take();
}

}  // namespace tjr::source
