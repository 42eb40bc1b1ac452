#include "integrate/item_origin.h"

#include <algorithm>
#include <limits>
#include <map>

#include "integrate/krm.h"
#include "yaml/reader.h"

namespace tjr::integrate {
namespace {

// Line starts of a text, for offset -> line. A lone CR ends a line as it
// does for the YAML readers whose span lines index these; a line past the
// last one (a break they count and this does not: YAML 1.1's NEL, LS, PS)
// is empty, at the end of the text.
class Lines {
 public:
  explicit Lines(std::string_view text) : text_(text) {
    starts_.push_back(0);
    for (std::size_t i = 0; i < text.size(); ++i) {
      if (text[i] == '\n' || (text[i] == '\r' && (i + 1 == text.size() || text[i + 1] != '\n'))) {
        starts_.push_back(i + 1);
      }
    }
  }
  /// 1-based line of the byte at `offset`.
  std::uint32_t LineOf(std::size_t offset) const {
    auto it = std::upper_bound(starts_.begin(), starts_.end(), offset);
    return static_cast<std::uint32_t>(it - starts_.begin());
  }
  /// 1-based column (in characters, as the readers count) of `offset`.
  std::uint32_t ColumnOf(std::size_t offset) const {
    std::size_t start = starts_[LineOf(offset) - 1];
    std::uint32_t column = 1;
    for (std::size_t i = start; i < offset && i < text_.size(); ++i) {
      if ((static_cast<unsigned char>(text_[i]) & 0xC0) != 0x80) ++column;
    }
    return column;
  }
  std::string_view Line(std::uint32_t line) const {
    if (line == 0 || line > starts_.size()) return text_.substr(text_.size());
    std::size_t start = starts_[line - 1];
    std::size_t end = line < starts_.size() ? starts_[line] : text_.size();
    return text_.substr(start, end - start);
  }
  std::size_t Start(std::uint32_t line) const {
    return line == 0 || line > starts_.size() ? text_.size() : starts_[line - 1];
  }

 private:
  std::string_view text_;
  std::vector<std::size_t> starts_;
};

std::string Annotation(const doc::Node& item, std::string_view key) {
  const doc::Node* metadata = item.is_mapping() ? item.Find("metadata") : nullptr;
  const doc::Node* annotations = metadata != nullptr && metadata->is_mapping() ? metadata->Find("annotations") : nullptr;
  const doc::Node* value = annotations != nullptr && annotations->is_mapping() ? annotations->Find(key) : nullptr;
  return value != nullptr && value->is_string() ? value->string_value() : std::string();
}

std::string_view TrimLeft(std::string_view s) {
  std::size_t i = s.find_first_not_of(" \t");
  return i == std::string_view::npos ? std::string_view() : s.substr(i);
}

// A block item begins at the line of its `-`: the item's node starts
// there, or below it after a head comment ("- # comment\n  apiVersion:").
std::uint32_t DashLine(const Lines& lines, std::uint32_t node_line, std::uint32_t floor) {
  for (std::uint32_t line = node_line; line > floor; --line) {
    std::string_view text = TrimLeft(lines.Line(line));
    if (!text.empty() && text[0] == '-') return line;
  }
  return node_line;
}

// Lines of the annotations the orchestrator added to a block item; the
// `annotations:` line too when nothing else is in it (kyaml's writer drops
// the emptied mapping).
std::vector<std::uint32_t> AddedLines(const Lines& lines, const yaml::SpanNode& item) {
  std::vector<std::uint32_t> added;
  const yaml::SpanNode::Entry* metadata = item.Find("metadata");
  if (metadata == nullptr || metadata->value.flow) return added;
  const yaml::SpanNode::Entry* annotations = metadata->value.Find("annotations");
  if (annotations == nullptr || annotations->value.kind != yaml::SpanNode::Kind::kMapping ||
      annotations->value.flow) {
    return added;
  }
  std::size_t kept = 0;
  for (const yaml::SpanNode::Entry& entry : annotations->value.entries) {
    if (!IsOrchestratorAnnotation(entry.key.text)) {
      ++kept;
      continue;
    }
    std::size_t end = std::max(entry.key.end, entry.value.end);
    std::uint32_t last = lines.LineOf(end > entry.key.begin ? end - 1 : entry.key.begin);
    for (std::uint32_t line = entry.key.line; line <= last; ++line) added.push_back(line);
  }
  if (kept == 0 && !added.empty()) added.push_back(annotations->key.line);
  std::sort(added.begin(), added.end());
  added.erase(std::unique(added.begin(), added.end()), added.end());
  return added;
}

// The block lists under a mapping key that the ResourceList writes compact
// (`-` in the key's column): a wide document has them 2 columns further in.
void CompactLists(const Lines& lines, const yaml::SpanNode& node, std::vector<ItemOrigin::Span>* out) {
  for (const yaml::SpanNode::Entry& entry : node.entries) {
    const yaml::SpanNode& value = entry.value;
    if (value.kind == yaml::SpanNode::Kind::kSequence && !value.flow && value.column == entry.key.column) {
      std::size_t last = value.end > value.begin ? value.end - 1 : value.begin;
      out->push_back({value.line, value.column, lines.LineOf(last), lines.ColumnOf(last)});
    }
    CompactLists(lines, value, out);
  }
  for (const yaml::SpanNode& item : node.items) CompactLists(lines, item, out);
}

// Fills file_line: a document starts after the documents before it in its
// file and their `---` lines, when all of those are block items.
void PlaceInFiles(std::vector<ItemOrigin>* origins) {
  std::map<std::string, std::map<long, ItemOrigin*>> files;
  std::map<std::string, bool> ambiguous;
  for (ItemOrigin& origin : *origins) {
    if (origin.path.empty()) continue;
    auto [it, inserted] = files[origin.path].emplace(origin.index, &origin);
    if (!inserted) ambiguous[origin.path] = true;
  }
  for (auto& [path, documents] : files) {
    if (ambiguous[path]) continue;
    std::uint32_t next_line = 1;
    long expected = 0;
    for (auto& [index, origin] : documents) {
      if (index != expected++ || !origin->block) break;
      origin->file_line = next_line;
      next_line += origin->line_count() + 1;
    }
  }
}

bool Before(std::uint32_t line, std::uint32_t column, std::uint32_t other_line,
            std::uint32_t other_column) {
  return line < other_line || (line == other_line && column < other_column);
}

}  // namespace

bool IsOrchestratorAnnotation(std::string_view key) {
  // `kpt fn eval --match-*` marks the items it selects with kpt-resource-id
  // (kpt pkg/fn/runtime/utils.go SetResourceIDs): internal.config.k8s.io/ in
  // kpt 1.0.0-beta.56, internal.config.kubernetes.io/ in later releases.
  return key.starts_with("internal.config.kubernetes.io/") || key.starts_with("internal.config.k8s.io/") ||
         key == "config.kubernetes.io/path" ||
         key == "config.kubernetes.io/index" || key == "config.k8s.io/id";
}

std::vector<ItemOrigin> LocateItems(std::string_view text, const yaml::SpanNode& items,
                                    const std::vector<doc::Node>& nodes, std::size_t items_end) {
  Lines lines(text);
  std::vector<ItemOrigin> origins(items.items.size());
  std::uint32_t floor = items.line;  // no item starts above the sequence
  if (!items.flow && floor > 0) --floor;
  for (std::size_t k = 0; k < origins.size(); ++k) {
    const yaml::SpanNode& span = items.items[k];
    ItemOrigin& origin = origins[k];
    if (k < nodes.size()) {
      origin.path = ItemPath(nodes[k]);
      origin.index = std::max(ItemIndex(nodes[k]), 0L);
    }
    origin.name = origin.path.empty() ? "items[" + std::to_string(k) + "]" : origin.path;
    origin.block = !items.flow && !span.flow && span.kind == yaml::SpanNode::Kind::kMapping;
    origin.node_line = span.line;
    std::size_t last_byte = span.end > span.begin ? span.end - 1 : span.begin;
    if (!items.flow) {
      origin.first_line = DashLine(lines, std::max<std::uint32_t>(span.line, 1), floor);
      origin.begin = lines.Start(origin.first_line);
    } else {
      origin.first_line = span.line;
      origin.begin = span.begin;
      origin.end = span.end;
    }
    if (origin.block) {
      origin.indent = span.column > 0 ? span.column - 1 : 0;
      origin.added_lines = AddedLines(lines, span);
      if (k < nodes.size() && Annotation(nodes[k], "internal.config.kubernetes.io/seqindent") == "wide") {
        CompactLists(lines, span, &origin.widened_lists);
      }
    } else {
      origin.first_column = span.column;
      origin.last_line = lines.LineOf(last_byte);
      origin.last_column = lines.ColumnOf(last_byte);
    }
    floor = lines.LineOf(last_byte);
  }
  if (!items.flow) {
    // In a block list an item runs to the next item's `-` line; the last
    // one to the end of the `items` entry.
    std::uint32_t end_line = lines.LineOf(items_end > 0 ? items_end - 1 : 0);
    for (std::size_t k = 0; k < origins.size(); ++k) {
      origins[k].end = k + 1 < origins.size() ? origins[k + 1].begin : std::max(items_end, origins[k].begin);
      if (!origins[k].block) continue;
      std::uint32_t last = k + 1 < origins.size() ? origins[k + 1].first_line - 1 : end_line;
      origins[k].last_line = std::max(last, origins[k].first_line);
      origins[k].last_column = std::numeric_limits<std::uint32_t>::max();
    }
  }
  PlaceInFiles(&origins);
  return origins;
}

void PlaceFromFiles(std::vector<ItemOrigin>* origins, const std::vector<doc::Node>& items,
                    const ItemFileReader& read) {
  std::map<std::string, std::optional<std::vector<doc::Node>>> files;  // documents by path, read once
  for (std::size_t k = 0; k < origins->size() && k < items.size(); ++k) {
    ItemOrigin& origin = (*origins)[k];
    if (origin.path.empty() || !origin.block || origin.node_line < origin.first_line) continue;
    auto [file, first_time] = files.try_emplace(origin.path);
    if (first_time) {
      std::optional<std::string> text = read(origin.path);
      Result<std::vector<doc::Node>> documents =
          text ? yaml::ReadStream(*text, origin.path) : Result<std::vector<doc::Node>>(std::vector<doc::Node>{});
      if (text && documents.ok()) {
        // kyaml counts the documents that are not empty (byteio_reader.go Read).
        std::erase_if(*documents, [](const doc::Node& d) { return d.is_null(); });
        file->second = std::move(*documents);
      }
    }
    if (!file->second || origin.index < 0 || static_cast<std::size_t>(origin.index) >= file->second->size()) {
      continue;
    }
    const doc::Node& document = (*file->second)[static_cast<std::size_t>(origin.index)];
    doc::Node item = items[k];
    if (doc::Node* metadata = item.FindMutable("metadata"); metadata != nullptr && metadata->is_mapping()) {
      if (doc::Node* annotations = metadata->FindMutable("annotations");
          annotations != nullptr && annotations->is_mapping()) {
        std::vector<std::string> added;
        for (const doc::Field& field : annotations->fields()) {
          if (IsOrchestratorAnnotation(field.key)) added.push_back(field.key);
        }
        for (const std::string& key : added) annotations->Erase(key);
        if (annotations->size() == 0 && document.Find("metadata") != nullptr &&
            document.Find("metadata")->Find("annotations") == nullptr) {
          metadata->Erase("annotations");
        }
      }
    }
    if (!(item == document)) continue;
    const std::uint32_t head = origin.node_line - origin.first_line;  // comment lines the item kept
    const std::uint32_t line = document.location().line;
    if (line > head) origin.file_line = line - head;
  }
}

const ItemOrigin* OriginAt(const std::vector<ItemOrigin>& origins, const Location& at) {
  if (at.line == 0) return nullptr;
  const ItemOrigin* found = nullptr;
  for (const ItemOrigin& origin : origins) {
    if (Before(at.line, at.column, origin.first_line, origin.first_column)) continue;
    if (Before(origin.last_line, origin.last_column, at.line, at.column)) continue;
    found = &origin;  // the last one that holds it: flow items can share a line
  }
  return found;
}

Location FileLocation(const std::vector<ItemOrigin>& origins, const std::string& list_file,
                      const Location& at) {
  if (!at.known() || *at.file != list_file) return at;
  const ItemOrigin* origin = OriginAt(origins, at);
  return origin == nullptr ? at : LocationInFile(*origin, at);
}

Location LocationInFile(const ItemOrigin& item, const Location& at) {
  const ItemOrigin* origin = &item;
  Location out{InternSourceName(origin->name)};
  if (!origin->block || (!origin->path.empty() && origin->file_line == 0)) return out;
  if (at.line < origin->first_line || at.line > origin->last_line) return out;
  auto added_before = std::lower_bound(origin->added_lines.begin(), origin->added_lines.end(), at.line);
  std::uint32_t added = static_cast<std::uint32_t>(added_before - origin->added_lines.begin());
  std::uint32_t offset = at.line - origin->first_line;
  offset = offset > added ? offset - added : 0;
  out.line = (origin->path.empty() ? 1 : origin->file_line) + offset;
  out.column = at.column > origin->indent ? at.column - origin->indent : at.column;
  for (const ItemOrigin::Span& list : origin->widened_lists) {
    bool inside = !Before(at.line, at.column, list.first_line, list.first_column) &&
                  !Before(list.last_line, list.last_column, at.line, at.column);
    if (inside) out.column += 2;
  }
  return out;
}

}  // namespace tjr::integrate
