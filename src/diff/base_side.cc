#include "diff/base_side.h"

#include <algorithm>
#include <map>
#include <utility>

#include "batch/inventory.h"
#include "source/walk.h"

namespace tjr::diff {
namespace {

// The changed paths BASE has as manifest files in scope, as a directory
// walk of BASE would have read them.
std::vector<std::string> ChangedManifestFiles(const BaseSource& base, const source::LoadOptions& options) {
  std::vector<std::string> files;
  for (const std::string& path : base.changed) {
    if (!source::InScope(path, base.paths)) continue;
    const bool named = std::find(base.paths.begin(), base.paths.end(), path) != base.paths.end();
    if (!named) {
      const std::string extension = source::Extension(path);
      if (std::find(options.extensions.begin(), options.extensions.end(), extension) == options.extensions.end() ||
          !base.tree.Accepts(path)) {
        continue;
      }
      // Walks hide the repository configuration in every folder.
      std::size_t slash = path.rfind('/');
      if (path.compare(slash == std::string::npos ? 0 : slash + 1, std::string::npos, ".tjrender.yaml") == 0) continue;
    }
    Result<source::EntryType> type = base.tree.Stat(path);
    if (type.ok() && *type == source::EntryType::kFile) files.push_back(path);
  }
  return files;
}

// The file of each runtime in BASE's inventory, built from the cache and
// by parsing what it lacks.
std::map<std::string, std::string> RuntimeFilesAtBase(const BaseSource& base, const std::set<std::string>& changed,
                                                      const source::LoadOptions& options,
                                                      batch::InventoryCache* cache) {
  std::map<std::string, std::string> files;
  source::ExpandedPaths walked = source::ExpandPaths(base.tree, base.paths, options.extensions);
  std::vector<batch::Entry> entries;
  for (const source::InputFile& file : walked.files) {
    if (changed.count(file.name) != 0) continue;  // parsed already
    const std::string blob = file.object_id.empty() ? base.git.BlobId(file.read_path) : file.object_id;
    entries.clear();
    if (cache == nullptr || !file.chart.empty() || !cache->Find(blob, file.name, &entries)) {
      source::ExpandedPaths one_file;
      one_file.files.push_back(file);
      source::ManifestSet one = source::LoadExpanded(base.tree, std::move(one_file), options);
      entries = batch::Summarize(one);
      if (cache != nullptr && !one.has_errors() && !blob.empty() && file.chart.empty()) cache->Put(blob, entries);
    }
    for (const batch::Entry& entry : entries) {
      if (!entry.is_trainjob()) files.try_emplace(entry.key(), file.name);
    }
  }
  return files;
}

}  // namespace

source::ManifestSet LoadBaseSide(const BaseSource& base, const std::set<std::string>& train_jobs,
                                 const source::ManifestSet& head, const source::LoadOptions& options,
                                 batch::InventoryCache* cache) {
  const std::set<std::string> changed(base.changed.begin(), base.changed.end());
  source::ManifestSet changed_set = source::LoadManifests(base.tree, ChangedManifestFiles(base, options), options);

  // Unchanged files hold the same objects at BASE as at HEAD.
  std::map<std::string, std::string> head_runtime_files;
  std::set<std::string> to_read;
  for (const source::Manifest& manifest : head.manifests) {
    batch::Entry entry;
    if (!batch::SummarizeOne(manifest, &entry) || changed.count(manifest.file) != 0) continue;
    if (entry.is_trainjob()) {
      if (train_jobs.count(entry.id()) != 0) to_read.insert(manifest.file);
    } else {
      head_runtime_files.try_emplace(entry.key(), manifest.file);
    }
  }
  std::set<std::string> have_runtimes;
  std::set<std::string> needed_runtimes;
  auto note = [&](const source::Manifest& manifest) {
    batch::Entry entry;
    if (!batch::SummarizeOne(manifest, &entry)) return;
    if (!entry.is_trainjob()) {
      have_runtimes.insert(entry.key());
    } else if (train_jobs.count(entry.id()) != 0 && !entry.runtime_key.empty()) {
      needed_runtimes.insert(entry.runtime_key);
    }
  };
  for (const source::Manifest& manifest : changed_set.manifests) note(manifest);
  source::ManifestSet unchanged_set =
      source::LoadManifests(base.tree, std::vector<std::string>(to_read.begin(), to_read.end()), options);
  for (const source::Manifest& manifest : unchanged_set.manifests) note(manifest);

  // Runtimes the BASE versions reference that were not read yet: from the
  // files HEAD read them from, else from BASE's inventory.
  std::set<std::string> more_files;
  std::vector<std::string> unknown;
  for (const std::string& key : needed_runtimes) {
    if (have_runtimes.count(key) != 0) continue;
    auto at = head_runtime_files.find(key);
    if (at != head_runtime_files.end() && to_read.count(at->second) == 0) {
      more_files.insert(at->second);
    } else if (at == head_runtime_files.end()) {
      unknown.push_back(key);
    }
  }
  if (!unknown.empty()) {
    std::map<std::string, std::string> inventory = RuntimeFilesAtBase(base, changed, options, cache);
    for (const std::string& key : unknown) {
      auto at = inventory.find(key);
      if (at != inventory.end() && to_read.count(at->second) == 0) more_files.insert(at->second);
    }
  }
  source::ManifestSet more_set =
      source::LoadManifests(base.tree, std::vector<std::string>(more_files.begin(), more_files.end()), options);

  source::ManifestSet set;
  auto keep = [&](const source::Manifest& manifest) {
    batch::Entry entry;
    if (!batch::SummarizeOne(manifest, &entry)) return false;
    return entry.is_trainjob() ? train_jobs.count(entry.id()) != 0 : needed_runtimes.count(entry.key()) != 0;
  };
  for (source::ManifestSet* part : {&changed_set, &unchanged_set, &more_set}) {
    set.diagnostics.insert(set.diagnostics.end(), part->diagnostics.begin(), part->diagnostics.end());
    for (source::Manifest& manifest : part->manifests) {
      if (keep(manifest)) set.manifests.push_back(std::move(manifest));
    }
    set.files.insert(set.files.end(), part->files.begin(), part->files.end());
  }
  return set;
}

}  // namespace tjr::diff
