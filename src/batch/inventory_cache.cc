#include "batch/inventory_cache.h"

#include <algorithm>
#include <string_view>

#include "base/file.h"

namespace tjr::batch {
namespace {

// Bump when Entry or its meaning changes.
constexpr std::string_view kMagic = "tjrender-inventory 1\t";

std::vector<std::string_view> SplitTabs(std::string_view line) {
  std::vector<std::string_view> fields;
  std::size_t start = 0;
  for (;;) {
    std::size_t tab = line.find('\t', start);
    fields.push_back(line.substr(start, tab == std::string_view::npos ? tab : tab - start));
    if (tab == std::string_view::npos) return fields;
    start = tab + 1;
  }
}

bool Storable(const std::string& text) {
  return text.find_first_of("\t\n\r") == std::string::npos;
}

}  // namespace

std::string InventoryCachePath(const std::string& git_dir) {
  return git_dir + "/tjrender-inventory";
}

InventoryCache InventoryCache::Load(const std::string& path, const std::string& context) {
  InventoryCache cache;
  cache.path_ = path;
  cache.context_ = context;
  Result<std::string> text = ReadFile(path, std::size_t{512} << 20);
  if (text.ok()) cache.text_ = std::move(*text);
  return cache;
}

void InventoryCache::Index() {
  if (indexed_) return;
  indexed_ = true;
  const std::string text = std::move(text_);
  text_.clear();
  std::string_view rest = text;
  std::size_t end = rest.find('\n');
  if (end == std::string_view::npos ||
      rest.substr(0, end) != std::string(kMagic) + context_) {
    return;
  }
  rest.remove_prefix(end + 1);
  // Lines: "<blob>" alone (no objects) or "<blob>\tkind\tns\tname\tline\truntime".
  while (!rest.empty()) {
    end = rest.find('\n');
    if (end == std::string_view::npos) break;  // a torn last line: ignore it
    std::vector<std::string_view> fields = SplitTabs(rest.substr(0, end));
    rest.remove_prefix(end + 1);
    std::vector<Entry>& entries = blobs_[std::string(fields[0])].entries;
    if (fields.size() != 6) continue;
    Entry entry;
    entry.kind = fields[1];
    entry.namespace_ = fields[2];
    entry.name = fields[3];
    entry.line = static_cast<std::uint32_t>(std::strtoul(std::string(fields[4]).c_str(), nullptr, 10));
    entry.runtime_key = fields[5];
    entries.push_back(std::move(entry));
  }
}

const std::vector<Entry>* InventoryCache::Find(const std::string& blob_id) {
  Index();
  auto found = blobs_.find(blob_id);
  if (found == blobs_.end()) return nullptr;
  if (!found->second.used) {
    found->second.used = true;
    ++used_;
  }
  return &found->second.entries;
}

void InventoryCache::Put(const std::string& blob_id, const std::vector<Entry>& entries) {
  if (blob_id.empty() || !Storable(blob_id)) return;
  Index();
  for (const Entry& entry : entries) {
    if (!Storable(entry.kind) || !Storable(entry.namespace_) || !Storable(entry.name) ||
        !Storable(entry.runtime_key)) {
      return;
    }
  }
  auto [found, inserted] = blobs_.try_emplace(blob_id);
  Blob& stored = found->second;
  if (!stored.used) {
    stored.used = true;
    ++used_;
  }
  // A blob id names the bytes, so a known blob's entries are these already.
  if (!inserted) return;
  stored.entries = entries;
  for (Entry& entry : stored.entries) entry.file.clear();
  dirty_ = true;
}

Status InventoryCache::Save() const {
  // Unchanged, or only forgetting blobs of other revisions: not worth a write.
  if (!dirty_ || path_.empty()) return Ok();
  std::vector<const std::pair<const std::string, Blob>*> sorted;
  sorted.reserve(used_);
  for (const auto& blob : blobs_) {
    if (blob.second.used) sorted.push_back(&blob);
  }
  std::sort(sorted.begin(), sorted.end(), [](auto* a, auto* b) { return a->first < b->first; });
  std::string text = std::string(kMagic) + context_ + "\n";
  for (const auto* blob : sorted) {
    if (blob->second.entries.empty()) text += blob->first + "\n";
    for (const Entry& e : blob->second.entries) {
      text += blob->first + "\t" + e.kind + "\t" + e.namespace_ + "\t" + e.name + "\t" +
              std::to_string(e.line) + "\t" + e.runtime_key + "\n";
    }
  }
  return WriteFileAtomically(path_, text);
}

std::string CacheContext(const source::LoadOptions& options) {
  return options.default_namespace + (options.enforce_namespace ? "\tenforced" : "\tdefault");
}

}  // namespace tjr::batch
