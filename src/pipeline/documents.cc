#include "pipeline/documents.h"

#include <algorithm>
#include <map>
#include <tuple>

#include "doc/objects.h"
#include "source/object_types.h"

namespace tjr::pipeline {
namespace {

Diagnostic InputError(const Location& at, std::string field, std::string message) {
  return AsInputError(MakeError(at, std::move(field), std::move(message)));
}

const std::string* StringField(const doc::Node& object, std::string_view key) {
  const doc::Node* value = object.Find(key);
  return value != nullptr && value->is_string() && !value->string_value().empty()
             ? &value->string_value()
             : nullptr;
}

class Collector {
 public:
  Collector(const source::LoadOptions& options, source::ManifestSet* set)
      : options_(options), set_(set) {}

  void Admit(doc::Node object, const std::string& file) {
    const std::string* kind = StringField(object, "kind");
    const std::string* api_version = StringField(object, "apiVersion");
    if (kind == nullptr || api_version == nullptr) {
      set_->diagnostics.push_back(InputError(object.location(), kind == nullptr ? "kind" : "apiVersion",
                                             "required: the object has no " +
                                                 std::string(kind == nullptr ? "kind" : "apiVersion")));
      return;
    }
    auto type = std::find_if(options_.types.begin(), options_.types.end(),
                             [&](const source::ObjectType& t) {
                               return t.api_version == *api_version && t.kind == *kind;
                             });
    if (type == options_.types.end()) {
      ++set_->ignored[{*api_version, *kind}];
      return;
    }
    source::Manifest manifest;
    manifest.file = file;
    manifest.id.api_version = *api_version;
    manifest.id.kind = *kind;
    doc::Node* metadata = object.FindMutable("metadata");
    const std::string* name = metadata != nullptr && metadata->is_mapping()
                                  ? StringField(*metadata, "name")
                                  : nullptr;
    if (name == nullptr) {
      set_->diagnostics.push_back(
          InputError(object.location(), "metadata.name", "required: the object has no name"));
      return;
    }
    manifest.id.name = *name;
    if (!Place(*type, metadata, &manifest.id.namespace_)) return;
    auto key = std::make_tuple(source::ApiGroup(*api_version), *kind, manifest.id.namespace_,
                               manifest.id.name);
    auto [first, inserted] = first_seen_.try_emplace(key, object.location());
    if (!inserted) {
      set_->diagnostics.push_back(InputError(
          object.location(), "",
          "duplicate " + *kind + " " +
              (manifest.id.namespace_.empty() ? "" : manifest.id.namespace_ + "/") +
              manifest.id.name + ": already defined at " + first->second.ToString()));
      return;
    }
    manifest.object = std::move(object);
    set_->manifests.push_back(std::move(manifest));
  }

 private:
  bool Place(const source::ObjectType& type, doc::Node* metadata, std::string* namespace_) {
    const doc::Node* written = metadata->Find("namespace");
    std::string value = written != nullptr && written->is_string() ? written->string_value() : "";
    if (!type.namespaced) {
      if (written != nullptr) metadata->Erase("namespace");
      namespace_->clear();
      return true;
    }
    if (value.empty()) {
      Location at = written != nullptr ? written->location() : metadata->location();
      metadata->Set("namespace", doc::Node::String(options_.default_namespace, at), at);
      *namespace_ = options_.default_namespace;
      return true;
    }
    if (options_.enforce_namespace && value != options_.default_namespace) {
      set_->diagnostics.push_back(InputError(
          written->location(), "metadata.namespace",
          "the namespace from the provided object \"" + value +
              "\" does not match the namespace \"" + options_.default_namespace +
              "\". You must pass '--namespace=" + value + "' to perform this operation."));
      return false;
    }
    *namespace_ = value;
    return true;
  }

  const source::LoadOptions& options_;
  source::ManifestSet* set_;
  std::map<std::tuple<std::string, std::string, std::string, std::string>, Location> first_seen_;
};

}  // namespace

source::ManifestSet ManifestsFromDocuments(const std::vector<ParsedFile>& files,
                                           const source::LoadOptions& options) {
  source::ManifestSet set;
  Collector collector(options, &set);
  for (const ParsedFile& file : files) {
    set.files.push_back(file.name);
    for (const doc::Node& document : file.documents) {
      if (document.is_null()) continue;
      Result<std::vector<doc::Node>> objects = doc::FlattenLists({document});
      if (!objects.ok()) {
        set.diagnostics.push_back(AsInputError(objects.take_error()));
        continue;
      }
      for (doc::Node& object : *objects) collector.Admit(std::move(object), file.name);
    }
  }
  return set;
}

}  // namespace tjr::pipeline
