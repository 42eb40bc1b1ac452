#include "batch/affected.h"

#include <algorithm>
#include <iterator>
#include <map>
#include <optional>
#include <set>
#include <span>
#include <thread>
#include <tuple>

#include "source/walk.h"

namespace tjr::batch {
namespace {

bool IsRuntime(const source::Manifest& manifest, std::string* key) {
  Entry entry;
  if (!SummarizeOne(manifest, &entry) || entry.is_trainjob()) return false;
  *key = entry.key();
  return true;
}

// Candidates that are regular files of `tree` with a manifest extension
// and accepted by its filter (unless named as a path themselves).
std::vector<std::string> ManifestFiles(const source::FilteredTree& tree,
                                       const std::vector<std::string>& candidates,
                                       const std::vector<std::string>& scope,
                                       const source::LoadOptions& options) {
  std::vector<std::string> files;
  for (const std::string& path : candidates) {
    if (!source::InScope(path, scope)) continue;
    bool named = std::find(scope.begin(), scope.end(), path) != scope.end();
    if (!named) {
      std::string extension = source::Extension(path);
      if (std::find(options.extensions.begin(), options.extensions.end(), extension) ==
              options.extensions.end() ||
          !tree.Accepts(path)) {
        continue;
      }
      // The walk hides the configuration file in every folder.
      std::size_t slash = path.rfind('/');
      if (path.substr(slash == std::string::npos ? 0 : slash + 1) == ".tjrender.yaml") continue;
    }
    Result<source::EntryType> type = tree.Stat(path);
    if (type.ok() && *type == source::EntryType::kFile) files.push_back(path);
  }
  return files;
}

// One file of the base revision and where its inventory entries are.
struct BaseFile {
  std::string name;
  std::string blob;
  std::size_t begin = 0;   // its entries in BaseInventory::entries
  std::size_t end = 0;
  bool parsed = false;     // not found in the cache
  bool cacheable = false;  // parsed without errors
};

struct BaseInventory {
  std::vector<BaseFile> files;
  std::vector<Entry> entries;  // of every file, in file order
};

// Every file of the base revision with its entries: from the cache by blob
// id, else parsed. Only lookups touch the cache here: what was parsed is put
// once the changed files are known, so a changed file's old bytes, which no
// later run asks for, do not make the cache worth rewriting.
BaseInventory ReadBaseInventory(const SinceSources& sources, const source::LoadOptions& options,
                                InventoryCache* cache) {
  BaseInventory base;
  source::ExpandedPaths listed = source::ExpandPaths(sources.base, sources.paths, options.extensions);
  base.files.reserve(listed.files.size());
  base.entries.reserve(listed.files.size() + 16);
  for (source::InputFile& file : listed.files) {
    BaseFile& read = base.files.emplace_back();
    read.name = file.name;
    read.blob = file.object_id.empty() ? sources.base_git.BlobId(file.read_path) : file.object_id;
    read.begin = base.entries.size();
    // A file of a Helm chart is a template or not by its bytes and place,
    // which a cache keyed by bytes alone cannot tell.
    if (cache == nullptr || !file.chart.empty() || !cache->Find(read.blob, read.name, &base.entries)) {
      const bool in_chart = !file.chart.empty();
      source::ExpandedPaths one_file;
      one_file.files.push_back(std::move(file));
      source::ManifestSet one = source::LoadExpanded(sources.base, std::move(one_file), options);
      read.parsed = true;
      read.cacheable = !one.has_errors() && !in_chart;
      for (Entry& entry : Summarize(one)) base.entries.push_back(std::move(entry));
    }
    read.end = base.entries.size();
  }
  return base;
}

void AppendDiagnostics(Diagnostics* to, const Diagnostics& from) {
  to->insert(to->end(), from.begin(), from.end());
}

}  // namespace

void CacheEntries(const source::ManifestSet& set, const source::GitTree& tree,
                  InventoryCache* cache) {
  std::set<std::string> broken;
  for (const Diagnostic& d : set.diagnostics) {
    if (d.severity == Severity::kError && d.location.known()) broken.insert(*d.location.file);
  }
  // A skipped file is skipped for its place as much as its bytes (a Helm
  // chart's template): never cached by bytes.
  broken.insert(set.skipped_files.begin(), set.skipped_files.end());
  std::map<std::string, std::vector<Entry>> by_file;
  for (const std::string& file : set.files) by_file[file];
  for (Entry& entry : Summarize(set)) by_file[entry.file].push_back(std::move(entry));
  for (const auto& [file, entries] : by_file) {
    if (broken.count(file) != 0) continue;
    std::string blob = tree.BlobId(file);
    if (!blob.empty()) cache->Put(blob, entries);
  }
}

Result<AffectedSet> FindAffected(const SinceSources& sources, const source::LoadOptions& options,
                                 InventoryCache* cache) {
  AffectedSet out;
  // The base inventory does not depend on what changed, so it is read while
  // another thread computes the changed paths and reads the changed files.
  // The base inventory is the longer task: it keeps the thread that already
  // runs (a new thread may wait for a core).
  BaseInventory base;
  std::optional<Result<std::vector<std::string>>> changed_paths;
  source::ManifestSet head_changed;
  source::ManifestSet base_changed;
  auto read_changed = [&] {
    changed_paths.emplace(sources.changed_paths());
    if (!changed_paths->ok()) return;
    const std::vector<std::string>& paths = changed_paths->value();
    head_changed = source::LoadManifests(sources.head, ManifestFiles(sources.head, paths, sources.paths, options),
                                         options);
    base_changed = source::LoadManifests(sources.base, ManifestFiles(sources.base, paths, sources.paths, options),
                                         options);
  };
  auto read_base = [&] {
    base = ReadBaseInventory(sources, options, cache);
  };
  if (options.threads != 1) {  // 0: one thread per core
    std::thread changer(read_changed);
    read_base();
    changer.join();
  } else {
    read_changed();
    read_base();
  }
  if (!changed_paths->ok()) return changed_paths->take_error();
  out.changed = std::move(changed_paths->value());
  const std::set<std::string> changed(out.changed.begin(), out.changed.end());

  // Unchanged files: the same bytes on both sides, so their entries at base
  // are their entries at head.
  std::vector<Entry> entries = std::move(base.entries);
  std::size_t kept = 0;  // entries of unchanged files, moved to the front
  for (const BaseFile& file : base.files) {
    const bool unchanged = changed.count(file.name) == 0;
    if (unchanged && file.parsed) ++out.files_parsed;
    if (unchanged && file.cacheable && cache != nullptr) {
      cache->Put(file.blob, std::span<const Entry>(entries).subspan(file.begin, file.end - file.begin));
    }
    if (!unchanged) continue;
    if (kept != file.begin) {
      std::move(entries.begin() + static_cast<std::ptrdiff_t>(file.begin),
                entries.begin() + static_cast<std::ptrdiff_t>(file.end),
                entries.begin() + static_cast<std::ptrdiff_t>(kept));
    }
    kept += file.end - file.begin;
  }
  entries.erase(entries.begin() + static_cast<std::ptrdiff_t>(kept), entries.end());

  out.files_parsed += head_changed.files.size() + base_changed.files.size();
  // The next run's base is likely this head.
  if (cache != nullptr && sources.head_git != nullptr) {
    CacheEntries(head_changed, *sources.head_git, cache);
  }

  // Unchanged objects that collide with changed ones: as the loader does
  // within one load, each copy is a finding and neither is kept. Only the
  // few ids of changed objects are looked up among the unchanged ones.
  using Id = std::tuple<std::string, std::string, std::string>;
  std::map<Id, const Entry*, std::less<>> unchanged_ids;
  for (const source::Manifest& manifest : head_changed.manifests) {
    Entry entry;
    if (SummarizeOne(manifest, &entry)) unchanged_ids.try_emplace({entry.kind, entry.namespace_, entry.name});
  }
  if (!unchanged_ids.empty()) {
    for (const Entry& entry : entries) {
      auto found = unchanged_ids.find(std::tie(entry.kind, entry.namespace_, entry.name));
      if (found != unchanged_ids.end() && found->second == nullptr) found->second = &entry;
    }
  }
  std::set<const source::Manifest*> dropped;
  std::set<std::string> dropped_files_ids;  // "file\tkind\tns\tname" of unchanged entries dropped
  for (const source::Manifest& manifest : head_changed.manifests) {
    Entry entry;
    if (!SummarizeOne(manifest, &entry)) continue;
    auto other = unchanged_ids.find({entry.kind, entry.namespace_, entry.name});
    if (other == unchanged_ids.end() || other->second == nullptr) continue;
    const Entry& unchanged = *other->second;
    std::string what = entry.kind + " " + (entry.namespace_.empty() ? "" : entry.namespace_ + "/") +
                       entry.name;
    const Location changed_at = manifest.location();
    const Location unchanged_at{InternSourceName(unchanged.file), unchanged.line, unchanged.column};
    for (auto [at, also] : {std::pair{changed_at, unchanged_at}, std::pair{unchanged_at, changed_at}}) {
      Diagnostic duplicate = MakeError(at, "", "[duplicate-object] duplicate " + what + ": also defined at " + also.ToString() +
                                                   "; no copy is rendered or checked");
      duplicate.rule = "duplicate-object";
      out.manifests.diagnostics.push_back(std::move(duplicate));
    }
    out.manifests.duplicates.push_back(
        {source::ApiGroup(manifest.id.api_version), entry.kind, entry.namespace_, entry.name, {changed_at, unchanged_at}});
    dropped.insert(&manifest);
    dropped_files_ids.insert(unchanged.file + "\t" + unchanged.kind + "\t" + unchanged.namespace_ + "\t" +
                             unchanged.name);
  }
  unchanged_ids.clear();
  if (!dropped_files_ids.empty()) {
    std::erase_if(entries, [&](const Entry& e) {
      return dropped_files_ids.count(e.file + "\t" + e.kind + "\t" + e.namespace_ + "\t" + e.name) !=
             0;
    });
  }

  // Runtimes that differ as data between the two sides.
  std::map<std::string, const doc::Node*> base_runtimes;
  std::map<std::string, const doc::Node*> head_runtimes;
  std::string key;
  for (const source::Manifest& m : base_changed.manifests) {
    if (IsRuntime(m, &key)) base_runtimes.try_emplace(key, &m.object);
  }
  for (const source::Manifest& m : head_changed.manifests) {
    if (dropped.count(&m) == 0 && IsRuntime(m, &key)) head_runtimes.try_emplace(key, &m.object);
  }
  std::set<std::string> changed_runtimes;
  for (const auto& [k, node] : base_runtimes) {
    auto other = head_runtimes.find(k);
    if (other == head_runtimes.end() || !(*other->second == *node)) changed_runtimes.insert(k);
  }
  for (const auto& [k, node] : head_runtimes) {
    if (base_runtimes.count(k) == 0) changed_runtimes.insert(k);
  }
  out.changed_runtimes.assign(changed_runtimes.begin(), changed_runtimes.end());

  // The head inventory, with its runtime -> TrainJob index.
  for (const source::Manifest& manifest : head_changed.manifests) {
    Entry entry;
    if (dropped.count(&manifest) == 0 && SummarizeOne(manifest, &entry)) entries.push_back(std::move(entry));
  }
  const Inventory head(std::move(entries));
  const std::vector<Entry>& trainjobs = head.trainjobs();
  out.total_trainjobs = trainjobs.size();

  // Affected: the TrainJobs of changed files and, through the index, those
  // of changed runtimes; in inventory order, then in pipeline order.
  std::set<std::string> changed_files(head_changed.files.begin(), head_changed.files.end());
  std::vector<std::size_t> picked;
  for (const std::string& runtime : changed_runtimes) {
    const std::vector<std::size_t>& users = head.ReferencesTo(runtime);
    picked.insert(picked.end(), users.begin(), users.end());
  }
  if (!changed_files.empty()) {
    for (std::size_t i = 0; i < trainjobs.size(); ++i) {
      if (changed_files.count(trainjobs[i].file) != 0) picked.push_back(i);
    }
  }
  std::sort(picked.begin(), picked.end());
  picked.erase(std::unique(picked.begin(), picked.end()), picked.end());
  std::stable_sort(picked.begin(), picked.end(), [&](std::size_t a, std::size_t b) {
    return std::tie(trainjobs[a].namespace_, trainjobs[a].name) <
           std::tie(trainjobs[b].namespace_, trainjobs[b].name);
  });
  std::set<std::string> affected_ids;
  std::set<std::string> needed_runtimes = changed_runtimes;
  for (std::size_t i : picked) {
    const Entry& job = trainjobs[i];
    out.affected.push_back(job);
    affected_ids.insert(job.id());
    if (!job.runtime_key.empty()) needed_runtimes.insert(job.runtime_key);
  }

  // Removed: TrainJobs of changed files at base whose id head lacks.
  std::vector<Entry> base_trainjobs = Summarize(base_changed);
  std::erase_if(base_trainjobs, [](const Entry& job) { return !job.is_trainjob(); });
  std::set<std::string> missing;
  for (const Entry& job : base_trainjobs) missing.insert(job.id());
  std::string id;  // one buffer for the ids of ten thousand TrainJobs
  for (std::size_t i = 0; i < trainjobs.size() && !missing.empty(); ++i) {
    const Entry& entry = trainjobs[i];
    id.assign(entry.namespace_).append("/").append(entry.name);
    auto found = missing.find(id);
    if (found != missing.end()) missing.erase(found);
  }
  for (const Entry& job : base_trainjobs) {
    if (missing.count(job.id()) != 0) out.removed.push_back(job);
  }
  std::sort(out.removed.begin(), out.removed.end(), [](const Entry& a, const Entry& b) {
    return std::tie(a.namespace_, a.name) < std::tie(b.namespace_, b.name);
  });

  // What to render: changed files' objects, plus the unchanged files that
  // hold affected TrainJobs or needed runtimes, each read once.
  std::set<std::string> unchanged_to_read;
  for (const Entry& job : out.affected) {
    if (changed_files.count(job.file) == 0) unchanged_to_read.insert(job.file);
  }
  for (const std::string& runtime : needed_runtimes) {
    auto found = head.runtimes().find(runtime);
    if (found != head.runtimes().end() && changed_files.count(found->second.file) == 0) {
      unchanged_to_read.insert(found->second.file);
    }
  }
  source::ManifestSet unchanged = source::LoadManifests(
      sources.head, std::vector<std::string>(unchanged_to_read.begin(), unchanged_to_read.end()),
      options);
  out.files_parsed += unchanged.files.size();

  auto keep = [&](const source::Manifest& manifest) {
    Entry entry;
    if (!SummarizeOne(manifest, &entry)) return false;
    if (entry.is_trainjob()) return affected_ids.count(entry.id()) != 0;
    return needed_runtimes.count(entry.key()) != 0;
  };
  source::ManifestSet& set = out.manifests;
  AppendDiagnostics(&set.diagnostics, head_changed.diagnostics);
  AppendDiagnostics(&set.diagnostics, unchanged.diagnostics);
  // A changed kustomize patch file's TrainJobs, for their types.
  set.trainjob_patches = std::move(head_changed.trainjob_patches);
  for (source::ManifestSet* part : {&head_changed, &unchanged}) {
    for (source::Manifest& manifest : part->manifests) {
      if (part == &head_changed ? dropped.count(&manifest) == 0 : keep(manifest)) {
        set.manifests.push_back(std::move(manifest));
      }
    }
    set.files.insert(set.files.end(), part->files.begin(), part->files.end());
    for (const auto& [kind, count] : part->ignored) set.ignored[kind] += count;
  }
  return out;
}

}  // namespace tjr::batch
