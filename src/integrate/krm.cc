#include "integrate/krm.h"

#include "doc/objects.h"
#include "yaml/reader.h"
#include "yaml/writer.h"

namespace tjr::integrate {
namespace {

const doc::Node* Child(const doc::Node* node, std::string_view key) {
  return node != nullptr && node->is_mapping() ? node->Find(key) : nullptr;
}

std::string Annotation(const doc::Node& item, std::string_view key) {
  const doc::Node* value = Child(Child(Child(&item, "metadata"), "annotations"), key);
  return value != nullptr && value->is_string() ? value->string_value() : std::string();
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

// The item a finding is about: same apiVersion, kind, namespace and name.
const doc::Node* ItemOf(const ResourceList& list, const report::ObjectRef& object) {
  if (!object.known()) return nullptr;
  for (const doc::Node& item : list.items) {
    doc::ObjectId id = doc::ObjectId::Of(item);
    if (id.api_version == object.api_version && id.kind == object.kind && id.name == object.name &&
        (id.namespace_.empty() || id.namespace_ == object.namespace_)) {
      return &item;
    }
  }
  return nullptr;
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
    const doc::Node* value = Child(Child(&list.function_config, section), key);
    if (value != nullptr && value->is_string()) return value->string_value();
  }
  return {};
}

std::string WriteResourceList(const ResourceList& list, const std::vector<report::Finding>& findings) {
  doc::Node root = doc::Node::Mapping();
  root.Set("apiVersion", Str(list.api_version));
  root.Set("kind", Str("ResourceList"));
  doc::Node items = doc::Node::Sequence();
  for (const doc::Node& item : list.items) items.push_back(item);
  root.Set("items", items);
  if (!list.function_config.is_null()) root.Set("functionConfig", list.function_config);
  doc::Node results = doc::Node::Sequence();
  for (const report::Finding& f : findings) {
    const Diagnostic& d = f.diagnostic;
    doc::Node result = doc::Node::Mapping();
    std::string message = MessageWithoutRule(d);
    result.Set("message", Str("[" + f.rule + "] " + message));
    result.Set("severity", Str(Severity(d.severity)));
    if (f.object.known()) {
      doc::Node ref = doc::Node::Mapping();
      ref.Set("apiVersion", Str(f.object.api_version));
      ref.Set("kind", Str(f.object.kind));
      ref.Set("name", Str(f.object.name));
      if (!f.object.namespace_.empty()) ref.Set("namespace", Str(f.object.namespace_));
      result.Set("resourceRef", ref);
      if (!d.field_path.empty()) {
        doc::Node field = doc::Node::Mapping();
        field.Set("path", Str(d.field_path));
        result.Set("field", field);
      }
    }
    if (const doc::Node* item = ItemOf(list, f.object)) {
      std::string path = ItemPath(*item);
      if (!path.empty()) {
        doc::Node file = doc::Node::Mapping();
        file.Set("path", Str(path));
        long index = ItemIndex(*item);
        if (index >= 0) file.Set("index", doc::Node::Int(index));
        result.Set("file", file);
      }
    }
    doc::Node tags = doc::Node::Mapping();
    tags.Set("rule", Str(f.rule));
    result.Set("tags", tags);
    results.push_back(result);
  }
  if (!results.empty()) root.Set("results", results);
  return yaml::Write(root);
}

}  // namespace tjr::integrate
