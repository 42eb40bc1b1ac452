#include "diff/base_side.h"

#include <map>
#include <utility>

#include "batch/inventory.h"
#include "source/walk.h"

namespace tjr::diff {

source::ManifestSet LoadBaseSide(const BaseSource& base, const std::set<std::string>& train_jobs,
                                 const source::LoadOptions& options, batch::InventoryCache* cache) {
  const std::set<std::string> changed(base.changed.begin(), base.changed.end());
  source::ExpandedPaths files = source::ExpandPaths(base.tree, base.paths, options.extensions);

  // BASE's inventory: changed files parsed, unchanged ones from the cache.
  std::vector<std::string> changed_files;
  std::vector<batch::Entry> entries;
  for (const source::InputFile& file : files.files) {
    if (changed.count(file.name) != 0) {
      changed_files.push_back(file.name);
      continue;
    }
    std::string blob = base.git.BlobId(file.read_path);
    const std::vector<batch::Entry>* cached = cache != nullptr ? cache->Find(blob) : nullptr;
    if (cached != nullptr) {
      for (const batch::Entry& entry : *cached) {
        entries.push_back(entry);
        entries.back().file = file.name;
      }
      continue;
    }
    source::ManifestSet one = source::LoadManifests(base.tree, {file.name}, options);
    std::vector<batch::Entry> summary = batch::Summarize(one);
    if (cache != nullptr && !one.has_errors() && !blob.empty()) cache->Put(blob, summary);
    entries.insert(entries.end(), summary.begin(), summary.end());
  }
  source::ManifestSet changed_set = source::LoadManifests(base.tree, changed_files, options);
  for (batch::Entry& entry : batch::Summarize(changed_set)) entries.push_back(std::move(entry));

  // The files of the wanted TrainJobs and of their runtimes at BASE.
  std::map<std::string, const batch::Entry*> jobs;
  std::map<std::string, const batch::Entry*> runtimes;
  for (const batch::Entry& entry : entries) {
    if (entry.is_trainjob()) {
      jobs.try_emplace(entry.id(), &entry);
    } else {
      runtimes.try_emplace(entry.key(), &entry);
    }
  }
  std::set<std::string> needed_runtimes;
  std::set<std::string> to_read;
  for (const std::string& id : train_jobs) {
    auto job = jobs.find(id);
    if (job == jobs.end()) continue;
    to_read.insert(job->second->file);
    if (job->second->runtime_key.empty()) continue;
    needed_runtimes.insert(job->second->runtime_key);
    if (auto runtime = runtimes.find(job->second->runtime_key); runtime != runtimes.end()) {
      to_read.insert(runtime->second->file);
    }
  }
  std::vector<std::string> unchanged_files;
  for (const std::string& file : to_read) {
    if (changed.count(file) == 0) unchanged_files.push_back(file);
  }
  source::ManifestSet unchanged_set = source::LoadManifests(base.tree, unchanged_files, options);

  source::ManifestSet set;
  set.diagnostics = files.diagnostics;
  auto keep = [&](const source::Manifest& manifest) {
    batch::Entry entry;
    if (!batch::SummarizeOne(manifest, &entry)) return false;
    return entry.is_trainjob() ? train_jobs.count(entry.id()) != 0 : needed_runtimes.count(entry.key()) != 0;
  };
  for (source::ManifestSet* part : {&changed_set, &unchanged_set}) {
    set.diagnostics.insert(set.diagnostics.end(), part->diagnostics.begin(), part->diagnostics.end());
    for (source::Manifest& manifest : part->manifests) {
      if (keep(manifest)) set.manifests.push_back(std::move(manifest));
    }
    set.files.insert(set.files.end(), part->files.begin(), part->files.end());
  }
  return set;
}

}  // namespace tjr::diff
