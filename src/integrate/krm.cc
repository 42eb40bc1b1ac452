#include "integrate/krm.h"

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "doc/objects.h"
#include "doc/path.h"
#include "yaml/reader.h"

namespace tjr::integrate {
namespace {

std::string Annotation(const doc::Node& item, std::string_view key) {
  return doc::StringAtPath(item, {"metadata", "annotations", key});
}

const char* Severity(tjr::Severity severity) {
  switch (severity) {
    case tjr::Severity::kError: return "error";
    case tjr::Severity::kWarning: return "warning";
    case tjr::Severity::kNote: return "info";
  }
  return "error";
}

doc::Node Str(std::string text) { return doc::Node::String(std::move(text)); }

// Finds the items findings are about, each in O(log N) rather than by a
// pass over the list (a ResourceList of N TrainJobs, each with a finding,
// took N² steps).
class ItemFinder {
 public:
  explicit ItemFinder(const ResourceList& list) : list_(list) {
    for (std::size_t i = 0; i < list.items.size(); ++i) {
      doc::ObjectId id = doc::ObjectId::Of(list.items[i]);
      by_name_[IdKey(id.api_version, id.kind, id.name)].push_back({std::move(id.namespace_), i});
    }
    for (std::size_t i = 0; i < list.origins.size(); ++i) by_file_[list.origins[i].name].items.push_back(i);
    for (auto& [name, file] : by_file_) {
      file.by_line = file.items;
      std::stable_sort(file.by_line.begin(), file.by_line.end(),
                       [&](std::size_t a, std::size_t b) { return First(a) < First(b); });
      for (std::size_t k = 0; k + 1 < file.by_line.size(); ++k) {
        const ItemOrigin& origin = list.origins[file.by_line[k]];
        if (First(file.by_line[k]) == 0 || First(file.by_line[k]) + origin.line_count() > First(file.by_line[k + 1])) {
          file.disjoint = false;
        }
      }
    }
  }

  // The item with the object's apiVersion, kind, namespace and name.
  long Of(const report::ObjectRef& object) const {
    if (!object.known()) return -1;
    auto named = by_name_.find(IdKey(object.api_version, object.kind, object.name));
    if (named == by_name_.end()) return -1;
    for (const auto& [namespace_, i] : named->second) {
      if (namespace_.empty() || namespace_ == object.namespace_) return static_cast<long>(i);
    }
    return -1;
  }

  // The item a file location (FileLocation's) lies in: its file, and its
  // lines when the location has one; -1 when it names no single item.
  long At(const Location& at) const {
    if (!at.known()) return -1;
    auto file = by_file_.find(*at.file);
    if (file == by_file_.end()) return -1;
    const std::vector<std::size_t>& items = file->second.items;
    if (at.line == 0) return items.size() == 1 ? static_cast<long>(items[0]) : -1;  // no line: one document
    if (file->second.disjoint) {
      // The one item whose lines start at or before the line may hold it.
      const std::vector<std::size_t>& by_line = file->second.by_line;
      auto after = std::upper_bound(by_line.begin(), by_line.end(), at.line,
                                    [&](std::uint32_t line, std::size_t i) { return line < First(i); });
      if (after == by_line.begin()) return -1;
      return Holds(*std::prev(after), at.line) ? static_cast<long>(*std::prev(after)) : -1;
    }
    for (std::size_t i : items) {  // the first in list order
      if (Holds(i, at.line)) return static_cast<long>(i);
    }
    return -1;
  }

 private:
  struct File {
    std::vector<std::size_t> items;    // in list order
    std::vector<std::size_t> by_line;  // by first line
    bool disjoint = true;              // no two share a line, and each has one
  };

  static std::string IdKey(std::string_view api_version, std::string_view kind, std::string_view name) {
    std::string key(api_version);
    key.append(1, '\0').append(kind).append(1, '\0').append(name);
    return key;
  }

  std::uint32_t First(std::size_t i) const {
    const ItemOrigin& origin = list_.origins[i];
    return origin.path.empty() ? 1 : origin.file_line;
  }

  bool Holds(std::size_t i, std::uint32_t line) const {
    const std::uint32_t first = First(i);
    return first != 0 && line >= first && line < first + list_.origins[i].line_count();
  }

  const ResourceList& list_;
  std::unordered_map<std::string, std::vector<std::pair<std::string, std::size_t>>> by_name_;
  std::unordered_map<std::string, File> by_file_;
};

bool SameLocation(const Location& a, const Location& b) {
  return a.known() && b.known() && *a.file == *b.file && a.line == b.line && a.column == b.column;
}

std::string ChildPath(const std::string& path, const std::string& key) {
  if (key.find_first_of("./") != std::string::npos) return path + "[" + key + "]";
  return path.empty() ? key : path + "." + key;
}

// The field path (upstream form, spec.containers[0].env) of the node of
// an item that `at` (a file location) points at; empty when none is there.
// Pre-order, so a mapping wins over its first key, which starts with it.
std::optional<std::string> PathAt(const ItemOrigin& origin, const doc::Node& node, const std::string& path,
                                  const Location& at) {
  if (SameLocation(LocationInFile(origin, node.location()), at)) return path;
  if (node.is_mapping()) {
    for (const doc::Field& field : node.fields()) {
      std::string child = ChildPath(path, field.key);
      if (SameLocation(LocationInFile(origin, field.key_location), at)) return child;
      if (auto found = PathAt(origin, field.value, child, at)) return found;
    }
  } else if (node.is_sequence()) {
    for (std::size_t i = 0; i < node.size(); ++i) {
      if (auto found = PathAt(origin, node[i], path + "[" + std::to_string(i) + "]", at)) return found;
    }
  }
  return std::nullopt;
}

report::ObjectRef RefOfItem(const doc::Node& item) {
  doc::ObjectId id = doc::ObjectId::Of(item);
  return report::ObjectRef{id.api_version, id.kind, id.namespace_, id.name};
}

doc::Node RefNode(const report::ObjectRef& object) {
  doc::Node ref = doc::Node::Mapping();
  ref.Set("apiVersion", Str(object.api_version));
  ref.Set("kind", Str(object.kind));
  ref.Set("name", Str(object.name));
  if (!object.namespace_.empty()) ref.Set("namespace", Str(object.namespace_));
  return ref;
}

// Where the `items` entry of the root mapping ends: the line of the next
// key, or the end of the mapping's last line (its value, for a flow root).
std::size_t ItemsEnd(std::string_view text, const yaml::SpanNode& root, std::size_t items) {
  if (root.flow) return root.entries[items].value.end;
  if (items + 1 < root.entries.size()) {
    std::size_t next = root.entries[items + 1].key.begin;
    while (next > 0 && text[next - 1] != '\n') --next;
    return next;
  }
  std::size_t end = text.find('\n', root.end > 0 ? root.end - 1 : 0);
  return end == std::string_view::npos ? text.size() : end + 1;
}

}  // namespace

Result<ResourceList> ReadResourceList(std::string_view text, std::string_view source_name) {
  Result<std::vector<doc::Node>> documents = yaml::ReadStream(text, source_name);
  if (!documents.ok()) return AsInputError(documents.take_error());
  Location at{InternSourceName(source_name)};
  if (documents->size() != 1 || !(*documents)[0].is_mapping()) {
    return AsInputError(MakeError(at, "", "expected one ResourceList document"));
  }
  const doc::Node& root = (*documents)[0];
  const doc::Node* kind = root.Find("kind");
  const doc::Node* api_version = root.Find("apiVersion");
  if (kind == nullptr || !kind->is_string() || kind->string_value() != "ResourceList" ||
      api_version == nullptr || !api_version->is_string() ||
      (api_version->string_value() != "config.kubernetes.io/v1" &&
       api_version->string_value() != "config.kubernetes.io/v1beta1")) {
    return AsInputError(MakeError(root.location(), "",
                                  "expected kind ResourceList, apiVersion config.kubernetes.io/v1"));
  }
  ResourceList list;
  list.api_version = api_version->string_value();
  const doc::Node* items = root.Find("items");
  if (items == nullptr || !items->is_sequence()) {
    return AsInputError(MakeError(root.location(), "items", "Required value: a list of resources"));
  }
  list.items = items->items();
  if (const doc::Node* config = root.Find("functionConfig")) list.function_config = *config;

  Result<std::vector<yaml::SpanNode>> spans = yaml::ReadSpans(text, source_name);
  if (!spans.ok()) return AsInputError(spans.take_error());
  if (spans->size() != 1 || spans->front().kind != yaml::SpanNode::Kind::kMapping) {
    return AsInputError(MakeError(at, "", "expected one ResourceList document"));
  }
  list.spans = std::move(spans->front());
  std::size_t items_entry = 0;
  while (items_entry < list.spans.entries.size() && list.spans.entries[items_entry].key.text != "items") {
    ++items_entry;
  }
  const yaml::SpanNode* item_spans =
      items_entry < list.spans.entries.size() ? &list.spans.entries[items_entry].value : nullptr;
  if (item_spans == nullptr || item_spans->kind != yaml::SpanNode::Kind::kSequence ||
      item_spans->items.size() != list.items.size()) {
    // Aliases for whole items or `<<` merges: the tree and the text differ.
    return AsInputError(MakeError(root.location(), "items", "items must be written out, one per entry"));
  }
  list.text = std::string(text);
  list.source_name = std::string(source_name);
  list.origins = LocateItems(text, *item_spans, list.items, ItemsEnd(text, list.spans, items_entry));
  return list;
}

std::string ItemPath(const doc::Node& item) {
  std::string path = Annotation(item, "internal.config.kubernetes.io/path");
  return path.empty() ? Annotation(item, "config.kubernetes.io/path") : path;
}

long ItemIndex(const doc::Node& item) {
  std::string index = Annotation(item, "internal.config.kubernetes.io/index");
  if (index.empty()) index = Annotation(item, "config.kubernetes.io/index");
  if (index.empty() || index.size() > 9 || index.find_first_not_of("0123456789") != std::string::npos) {
    return -1;
  }
  return std::stol(index);
}

std::string FunctionConfigValue(const ResourceList& list, std::string_view key) {
  for (const char* section : {"data", "spec"}) {
    const doc::Node* value = doc::FindPath(list.function_config, {section, key});
    if (value != nullptr && value->is_string()) return value->string_value();
  }
  return {};
}

long ItemOfFinding(const ResourceList& list, const Location& at, const report::ObjectRef& object) {
  const ItemFinder items(list);
  long item = items.At(at);
  return item >= 0 ? item : items.Of(object);
}

doc::Node Results(const ResourceList& list, const std::vector<report::Finding>& findings) {
  doc::Node results = doc::Node::Sequence();
  const ItemFinder items(list);
  for (const report::Finding& f : findings) {
    const Diagnostic& d = f.diagnostic;
    // resourceRef, field.path and file describe one object: the finding's
    // own, or, for a finding that names no field (tjrender's warnings point
    // at a node instead), the item at its location and that node's path.
    report::ObjectRef object = f.object;
    std::string field_path = d.field_path;
    long item = items.Of(object);
    long at_item = items.At(d.location);
    if (field_path.empty() && at_item >= 0 && d.location.line != 0) {
      const doc::Node& node = list.items[static_cast<std::size_t>(at_item)];
      std::optional<std::string> path =
          PathAt(list.origins[static_cast<std::size_t>(at_item)], node, "", d.location);
      if (path && !path->empty()) {
        field_path = *path;
        object = RefOfItem(node);
        item = at_item;
      }
    }
    if (!object.known() && at_item >= 0) {
      object = RefOfItem(list.items[static_cast<std::size_t>(at_item)]);
      item = at_item;
    }
    if (item < 0) item = at_item;
    doc::Node result = doc::Node::Mapping();
    std::string where = d.location.known() ? d.location.ToString() + ": " : "";
    result.Set("message", Str(where + "[" + f.rule + "] " + MessageWithoutRule(d)));
    result.Set("severity", Str(Severity(d.severity)));
    // The spec ties `field` to `resourceRef`: both or neither.
    if (object.known()) {
      result.Set("resourceRef", RefNode(object));
      if (!field_path.empty()) {
        doc::Node field = doc::Node::Mapping();
        field.Set("path", Str(field_path));
        result.Set("field", field);
      }
    }
    if (item >= 0 && !list.origins[static_cast<std::size_t>(item)].path.empty()) {
      const ItemOrigin& origin = list.origins[static_cast<std::size_t>(item)];
      doc::Node file = doc::Node::Mapping();
      file.Set("path", Str(origin.path));
      file.Set("index", doc::Node::Int(origin.index));
      result.Set("file", file);
    }
    doc::Node tags = doc::Node::Mapping();
    tags.Set("rule", Str(f.rule));
    if (d.location.known() && d.location.line > 0) {
      tags.Set("line", Str(std::to_string(d.location.line)));
      if (d.location.column > 0) tags.Set("column", Str(std::to_string(d.location.column)));
    }
    result.Set("tags", tags);
    results.push_back(result);
  }
  return results;
}

}  // namespace tjr::integrate
