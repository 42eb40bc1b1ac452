#include "source/kustomize.h"

#include <algorithm>
#include <filesystem>

#include "yaml/reader.h"

namespace tjr::source {
namespace {

// A file entry of a kustomization: relative, local, not an inline document
// (patchesStrategicMerge takes inline patches too) and not a remote URL.
bool IsLocalFile(const std::string& entry) {
  return !entry.empty() && entry.find('\n') == std::string::npos && entry.find("://") == std::string::npos &&
         entry.front() != '/' && !entry.starts_with("github.com/");
}

std::string Resolve(const std::string& folder, const std::string& entry) {
  std::filesystem::path joined = folder.empty() || folder == "." ? std::filesystem::path(entry)
                                                                   : std::filesystem::path(folder) / entry;
  return joined.lexically_normal().generic_string();
}

}  // namespace

bool IsKustomizationFileName(std::string_view name) {
  return std::find(std::begin(kKustomizationFileNames), std::end(kKustomizationFileNames), name) !=
         std::end(kKustomizationFileNames);
}

std::vector<KustomizeReference> KustomizeReferences(std::string_view text, const std::string& folder) {
  std::vector<KustomizeReference> out;
  yaml::ReadOptions options;
  options.max_document_bytes = std::size_t{1} << 20;
  Result<std::vector<doc::Node>> documents = yaml::ReadStream(text, "kustomization", options);
  if (!documents.ok() || documents->empty() || !documents->front().is_mapping()) return out;
  const doc::Node& kustomization = documents->front();
  auto add = [&](const doc::Node* entry, const char* role) {
    if (entry != nullptr && entry->is_string() && IsLocalFile(entry->string_value())) {
      out.push_back({Resolve(folder, entry->string_value()), role});
    }
  };
  auto each = [&](const char* field, auto&& visit) {
    const doc::Node* list = kustomization.Find(field);
    if (list == nullptr || !list->is_sequence()) return;
    for (const doc::Node& item : list->items()) visit(item);
  };
  for (const char* field : {"patches", "patchesJson6902"}) {
    each(field, [&](const doc::Node& item) {
      if (item.is_mapping()) add(item.Find("path"), "patch");
    });
  }
  each("patchesStrategicMerge", [&](const doc::Node& item) { add(&item, "patch"); });
  for (const char* field : {"generators", "transformers", "validators"}) {
    each(field, [&](const doc::Node& item) { add(&item, "plugin configuration"); });
  }
  return out;
}

}  // namespace tjr::source
