#include "batch/inventory_cache.h"

#include <algorithm>
#include <charconv>
#include <limits>

#include "base/file.h"

namespace tjr::batch {
namespace {

// Bump when Entry or its meaning changes.
constexpr std::string_view kMagic = "tjrender-inventory 2\t";  // 2: the column
// Offsets into the file are 32-bit.
constexpr std::size_t kMaxBytes = std::size_t{512} << 20;

bool Storable(std::string_view text) {
  return text.find_first_of("\t\n\r") == std::string_view::npos;
}

bool KnownKind(std::string_view kind) {
  return kind == "TrainJob" || kind == "TrainingRuntime" || kind == "ClusterTrainingRuntime";
}

bool ParseLineNumber(std::string_view text, std::uint32_t* value) {
  if (text.empty() || text.size() > 10) return false;
  std::uint64_t number = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return false;
    number = number * 10 + static_cast<std::uint64_t>(c - '0');
  }
  if (number > std::numeric_limits<std::uint32_t>::max()) return false;
  *value = static_cast<std::uint32_t>(number);
  return true;
}

// Appends the entries the lines of one blob hold ("<blob>" alone for a file
// without objects, else "<blob>\tkind\tns\tname\tline\tcolumn\truntime" per object,
// each ending in a newline). False, with nothing appended, when a line is
// not one Save writes.
bool ParseLines(std::string_view lines, const std::string& file, std::vector<Entry>* out) {
  const std::size_t start = out->size();
  std::size_t count = 0;
  bool bare = false;
  while (!lines.empty()) {
    const std::size_t newline = lines.find('\n');
    std::string_view line = lines.substr(0, newline);
    lines.remove_prefix(newline == std::string_view::npos ? lines.size() : newline + 1);
    ++count;
    std::string_view fields[7];
    std::size_t found = 0;
    for (;;) {
      const std::size_t tab = line.find('\t');
      if (found == 7) {
        found = 8;  // too many
        break;
      }
      fields[found++] = line.substr(0, tab);
      if (tab == std::string_view::npos) break;
      line.remove_prefix(tab + 1);
    }
    if (found == 1) {
      bare = true;
      continue;
    }
    Entry entry;
    if (found != 7 || !KnownKind(fields[1]) || !ParseLineNumber(fields[4], &entry.line) ||
        !ParseLineNumber(fields[5], &entry.column)) {
      out->erase(out->begin() + static_cast<std::ptrdiff_t>(start), out->end());
      return false;
    }
    entry.kind = fields[1];
    entry.namespace_ = fields[2];
    entry.name = fields[3];
    entry.file = file;
    entry.runtime_key = fields[6];
    out->push_back(std::move(entry));
  }
  if (bare && count != 1) {  // "no objects" beside objects
    out->erase(out->begin() + static_cast<std::ptrdiff_t>(start), out->end());
    return false;
  }
  return true;
}

// The first 8 bytes, big-endian and zero-padded: a < b implies
// OrderKey(a) <= OrderKey(b), so keys decide most comparisons.
std::uint64_t OrderKey(std::string_view text) {
  std::uint64_t key = 0;
  for (std::size_t i = 0; i < 8; ++i) {
    key = (key << 8) | (i < text.size() ? static_cast<unsigned char>(text[i]) : 0u);
  }
  return key;
}

}  // namespace

std::string InventoryCachePath(const std::string& git_dir) {
  return git_dir + "/tjrender-inventory";
}

InventoryCache InventoryCache::Load(const std::string& path, const std::string& context) {
  InventoryCache cache;
  cache.path_ = path;
  cache.context_ = context;
  Result<std::string> text = ReadFile(path, kMaxBytes);
  if (text.ok()) cache.text_ = std::move(*text);
  return cache;
}

void InventoryCache::Index() {
  if (indexed_) return;
  indexed_ = true;
  const std::string_view text = text_;
  std::size_t end = text.find('\n');
  if (end == std::string_view::npos || text.size() > kMaxBytes ||
      text.substr(0, end) != std::string(kMagic) + context_) {
    return;
  }
  // One record per run of lines with the same blob id.
  std::size_t position = end + 1;
  while (position < text.size()) {
    end = text.find('\n', position);
    const std::string_view line = text.substr(position, end == std::string_view::npos ? end : end - position);
    const std::string_view blob = line.substr(0, line.find('\t'));
    if (end == std::string_view::npos) {
      // A torn last line: its blob may have lost lines, so none of it counts.
      if (!records_.empty() && records_.back().end == position && BlobOf(records_.back()) == blob) {
        records_.pop_back();
      }
      break;
    }
    if (!blob.empty() && !records_.empty() && records_.back().end == position &&
        BlobOf(records_.back()) == blob) {
      records_.back().end = static_cast<std::uint32_t>(end + 1);
    } else if (!blob.empty()) {
      records_.push_back({OrderKey(blob), static_cast<std::uint32_t>(position),
                          static_cast<std::uint32_t>(end + 1), static_cast<std::uint32_t>(blob.size())});
    }
    position = end + 1;
  }
  // Save writes blobs sorted, each once. A file in another order is sorted
  // here; a blob whose lines are not together is dropped.
  auto less = [this](const Record& a, const Record& b) { return Less(a, b); };
  if (std::adjacent_find(records_.begin(), records_.end(), [&](const Record& a, const Record& b) {
        return !less(a, b);
      }) == records_.end()) {
    return;
  }
  std::stable_sort(records_.begin(), records_.end(), less);
  std::vector<Record> unique;
  unique.reserve(records_.size());
  for (std::size_t i = 0; i < records_.size();) {
    std::size_t next = i + 1;
    while (next < records_.size() && BlobOf(records_[next]) == BlobOf(records_[i])) ++next;
    if (next == i + 1) unique.push_back(records_[i]);
    i = next;
  }
  records_ = std::move(unique);
}

bool InventoryCache::Less(const Record& a, const Record& b) const {
  if (a.key != b.key) return a.key < b.key;
  return BlobOf(a) < BlobOf(b);
}

InventoryCache::Record* InventoryCache::Lookup(std::string_view blob_id) {
  Index();
  const std::uint64_t key = OrderKey(blob_id);
  auto found = std::lower_bound(records_.begin(), records_.end(), blob_id,
                                [&](const Record& record, std::string_view id) {
                                  if (record.key != key) return record.key < key;
                                  return BlobOf(record) < id;
                                });
  if (found == records_.end() || BlobOf(*found) != blob_id || found->bad) return nullptr;
  return &*found;
}

bool InventoryCache::Find(std::string_view blob_id, const std::string& file, std::vector<Entry>* out) {
  if (blob_id.empty()) return false;
  if (Record* record = Lookup(blob_id)) {
    if (!ParseLines(std::string_view(text_).substr(record->begin, record->end - record->begin), file, out)) {
      record->bad = true;
      return false;
    }
    record->used = true;
    return true;
  }
  if (added_.empty()) return false;
  auto added = added_.find(std::string(blob_id));
  return added != added_.end() && ParseLines(added->second, file, out);
}

void InventoryCache::Put(std::string_view blob_id, std::span<const Entry> entries) {
  if (blob_id.empty() || !Storable(blob_id)) return;
  for (const Entry& entry : entries) {
    if (!Storable(entry.kind) || !Storable(entry.namespace_) || !Storable(entry.name) ||
        !Storable(entry.runtime_key)) {
      return;
    }
  }
  // A blob id names the bytes, so a known blob's entries are these already.
  if (Record* record = Lookup(blob_id)) {
    record->used = true;
    return;
  }
  std::string lines;
  std::size_t size = blob_id.size() + 1;
  for (const Entry& e : entries) {
    size += blob_id.size() + e.kind.size() + e.namespace_.size() + e.name.size() + e.runtime_key.size() + 24;
  }
  lines.reserve(size);
  if (entries.empty()) {
    lines.append(blob_id).push_back('\n');
  }
  for (const Entry& e : entries) {
    char digits[16];
    char column_digits[16];
    const std::to_chars_result number = std::to_chars(digits, digits + sizeof digits, e.line);
    const std::to_chars_result column = std::to_chars(column_digits, column_digits + sizeof column_digits, e.column);
    lines.append(blob_id).append("\t").append(e.kind).append("\t").append(e.namespace_).append("\t");
    lines.append(e.name).append("\t").append(digits, number.ptr).append("\t");
    lines.append(column_digits, column.ptr).append("\t").append(e.runtime_key);
    lines.push_back('\n');
  }
  added_.try_emplace(std::string(blob_id), std::move(lines));  // the first put stays
}

Status InventoryCache::Save() const {
  // Unchanged, or only forgetting blobs of other revisions: not worth a write.
  if (added_.empty() || path_.empty()) return Ok();
  using Added = std::pair<const std::string, std::string>;
  std::vector<const Added*> added;
  added.reserve(added_.size());
  std::size_t size = kMagic.size() + context_.size() + 1;
  for (const Added& blob : added_) {
    added.push_back(&blob);
    size += blob.second.size();
  }
  std::sort(added.begin(), added.end(), [](const Added* a, const Added* b) { return a->first < b->first; });
  for (const Record& record : records_) size += record.used ? record.end - record.begin : 0;
  std::string text;
  text.reserve(size);
  text.append(kMagic).append(context_).push_back('\n');
  // Both are sorted by blob id and share none.
  auto next = added.begin();
  for (const Record& record : records_) {
    if (!record.used) continue;
    for (; next != added.end() && std::string_view((*next)->first) < BlobOf(record); ++next) {
      text += (*next)->second;
    }
    text.append(text_, record.begin, record.end - record.begin);
  }
  for (; next != added.end(); ++next) text += (*next)->second;
  return WriteFileAtomically(path_, text);
}

std::size_t InventoryCache::size() {
  Index();
  return static_cast<std::size_t>(std::count_if(records_.begin(), records_.end(),
                                                [](const Record& r) { return !r.bad; })) +
         added_.size();
}

std::string CacheContext(const source::LoadOptions& options) {
  return options.default_namespace + (options.enforce_namespace ? "\tenforced" : "\tdefault");
}

}  // namespace tjr::batch
