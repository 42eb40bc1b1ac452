// The API server's own checks of a TrainJob (trainer.kubeflow.org_trainjobs
// CRD at v2.1.0, apiextensions-apiserver v0.34). Upstream walks the schema's
// properties in Go map order; this file walks them in document order.
#include <string>
#include <string_view>

#include "base/object_name.h"
#include "gocompat/utf8.h"
#include "json/json.h"
#include "typed/object_meta_decode.h"
#include "validate/go_json.h"
#include "validate/rules.h"

namespace tjr::validate {
namespace {

// CEL: matches('^[a-z]([-a-z0-9]*[a-z0-9])?$').
bool IsRfc1035Label(std::string_view name) {
  return !name.empty() && name.front() >= 'a' && name.front() <= 'z' && MatchesDns1123Label(name);
}

// CEL size() of a string: code points.
std::size_t CodePoints(std::string_view text) {
  std::size_t count = 0;
  while (!text.empty()) {
    text.remove_prefix(std::max<std::size_t>(gocompat::DecodeRune(text).size, 1));
    ++count;
  }
  return count;
}

// --- OpenAPI schema: required properties and minLength --------------------

// A required string property with minLength 1.
void RequiredName(const doc::Node& object, const std::string& path, std::string_view key, bool min_length,
                  Report* report) {
  const doc::Node* value = object.Find(key);
  const bool empty = value != nullptr && min_length && value->is_string() && value->string_value().empty();
  if (value != nullptr && !empty) return;  // the field path is built for a finding only
  std::string field = path + "." + std::string(key);
  if (value == nullptr) {
    report->Add({ErrorType::kRequired, field, BadValue::Omit(), ""}, &object);
  } else {
    report->Add({ErrorType::kInvalid, field, BadValue::String(""), field + " in body should be at least 1 chars long"},
                value);
  }
}

void EnvNamesRequired(const doc::Node* env, const std::string& path, Report* report) {
  for (std::size_t i = 0; i < doc::Items(env).size(); ++i) {
    const doc::Node& item = doc::Items(env)[i];
    if (item.is_mapping()) RequiredName(item, path + "[" + std::to_string(i) + "]", "name", false, report);
  }
}

void ContainerOverridesSchema(const doc::Node* list, const std::string& path, Report* report) {
  for (std::size_t i = 0; i < doc::Items(list).size(); ++i) {
    const doc::Node& container = doc::Items(list)[i];
    if (!container.is_mapping()) continue;
    const std::string item_path = path + "[" + std::to_string(i) + "]";
    if (const doc::Node* name = container.Find("name"); name != nullptr && name->is_string() &&
                                                        name->string_value().empty()) {
      RequiredName(container, item_path, "name", true, report);
    }
    EnvNamesRequired(doc::At(&container, "env"), item_path + ".env", report);
    const doc::Node* mounts = doc::At(&container, "volumeMounts");
    for (std::size_t m = 0; m < doc::Items(mounts).size(); ++m) {
      const doc::Node& mount = doc::Items(mounts)[m];
      if (!mount.is_mapping()) continue;
      const std::string mount_path = item_path + ".volumeMounts[" + std::to_string(m) + "]";
      RequiredName(mount, mount_path, "mountPath", false, report);
      RequiredName(mount, mount_path, "name", false, report);
    }
    if (container.Find("name") == nullptr) RequiredName(container, item_path, "name", true, report);
  }
}

void OverrideSpecSchema(const doc::Node& spec, const std::string& path, Report* report) {
  for (std::string_view list_key : {"volumes", "schedulingGates"}) {
    const doc::Node* list = doc::At(&spec, list_key);
    for (std::size_t i = 0; i < doc::Items(list).size(); ++i) {
      const doc::Node& item = doc::Items(list)[i];
      if (item.is_mapping()) {
        RequiredName(item, path + "." + std::string(list_key) + "[" + std::to_string(i) + "]", "name", false, report);
      }
    }
  }
  ContainerOverridesSchema(doc::At(&spec, "initContainers"), path + ".initContainers", report);
  ContainerOverridesSchema(doc::At(&spec, "containers"), path + ".containers", report);
}

// --- list-map uniqueness ---------------------------------------------------

// The map[string]interface{} of the key, as the configured API server prints it.
std::string DuplicateKeyText(const doc::Node* key, DuplicateStyle style) {
  if (style == DuplicateStyle::kJson) {
    if (key == nullptr) return "{}";
    doc::Node map = doc::Node::Mapping();
    map.Set("name", *key);
    return json::Write(map, false);
  }
  std::string out = "map[string]interface {}{";
  if (key != nullptr) {
    out += "\"name\":";
    switch (key->kind()) {
      case doc::Kind::kString: out += gocompat::Quote(key->string_value()); break;
      case doc::Kind::kNull: out += "interface {}(nil)"; break;
      default: out += json::Write(*key, false); break;
    }
  }
  return out + "}";
}

// validateListMap with the single key `name`: the second appearance of each
// key value is reported (later ones are not); items without the key share
// one "unspecified" value.
// `path` + `suffix` names the list; it is put together only for a finding.
void UniqueNames(const doc::Node* list, std::string_view path, std::string_view suffix,
                 DuplicateStyle style, Report* report) {
  const std::vector<doc::Node>& items = doc::Items(list);
  if (items.size() <= 1) return;
  for (const doc::Node& item : items) {
    if (!item.is_mapping() && !item.is_null()) return;  // a different error upstream
  }
  for (std::size_t i = 0; i < items.size(); ++i) {
    const doc::Node* key = items[i].is_mapping() ? items[i].Find("name") : nullptr;
    std::size_t earlier = 0;
    for (std::size_t j = 0; j < i; ++j) {
      const doc::Node* other = items[j].is_mapping() ? items[j].Find("name") : nullptr;
      const bool same = (key == nullptr || other == nullptr) ? key == other : *key == *other;
      if (same) ++earlier;
    }
    if (earlier != 1) continue;
    const std::string field =
        std::string(path).append(suffix).append("[").append(std::to_string(i)).append("]");
    report->Add({ErrorType::kDuplicate, field, BadValue::Json(DuplicateKeyText(key, style)), ""}, &items[i]);
  }
}

void ContainerListMaps(const doc::Node* list, std::string_view path, std::string_view suffix,
                       DuplicateStyle style, Report* report) {
  UniqueNames(list, path, suffix, style, report);
  for (std::size_t i = 0; i < doc::Items(list).size(); ++i) {
    const doc::Node& container = doc::Items(list)[i];
    const std::string item_path =
        std::string(path).append(suffix).append("[").append(std::to_string(i)).append("]");
    UniqueNames(doc::At(&container, "env"), item_path, ".env", style, report);
    UniqueNames(doc::At(&container, "volumeMounts"), item_path, ".volumeMounts", style, report);
  }
}

// ValidateObjectMetaAccessor's namespace check (apimachinery
// pkg/api/validation/objectmeta.go, ValidateNamespaceName = IsDNS1123Label):
// after the name's. An empty namespace is the client's default, not an error.
void CheckObjectMetaNamespace(const doc::Node* metadata, Report* report) {
  const doc::Node* namespace_ = doc::At(metadata, "namespace");
  if (namespace_ == nullptr || !namespace_->is_string() || namespace_->string_value().empty()) return;
  const std::string& value = namespace_->string_value();
  if (value.size() > 63) {
    report->Add({ErrorType::kInvalid, "metadata.namespace", BadValue::String(value),
                 "must be no more than 63 characters"},
                namespace_);
  }
  if (!MatchesDns1123Label(value)) {
    report->Add({ErrorType::kInvalid, "metadata.namespace", BadValue::String(value),
                 std::string(kDns1123LabelMessage)},
                namespace_);
  }
}

void CheckObjectMetaNameAlone(const doc::Node& trainjob, Report* report) {
  const doc::Node* metadata = doc::At(&trainjob, "metadata");
  const doc::Node* name = doc::At(metadata, "name");
  if (name == nullptr || !name->is_string() || name->string_value().empty()) {
    report->Add({ErrorType::kRequired, "metadata.name", BadValue::Omit(), "name or generateName is required"},
                Either(metadata, &trainjob));
    return;
  }
  const std::string& value = name->string_value();
  if (value.size() > 253) {
    report->Add({ErrorType::kInvalid, "metadata.name", BadValue::String(value), "must be no more than 253 characters"},
                name);
  }
  if (!MatchesDns1123Subdomain(value)) {
    report->Add({ErrorType::kInvalid, "metadata.name", BadValue::String(value),
                 std::string(kDns1123SubdomainMessage)},
                name);
  }
}

}  // namespace

void CheckObjectMeta(const doc::Node& object, Report* report, bool namespaced) {
  CheckObjectMetaNameAlone(object, report);
  // A cluster-scoped object's namespace is cleared, not checked
  // (apiserver registry/rest EnsureObjectNamespaceMatchesRequestNamespace).
  if (namespaced) CheckObjectMetaNamespace(doc::At(&object, "metadata"), report);
}

bool CheckMetadataDecodes(const doc::Node& object, std::string_view kubernetes_policy, Report* report) {
  // customresource_handler.go unstructuredSchemaCoercer.apply ->
  // objectmeta.GetObjectMetaWithOptions (DropMalformedFields is false for a
  // request body); endpoints/handlers/rest.go transformDecodeError words it.
  std::optional<Diagnostic> error =
      typed::DecodeObjectMeta(object, typed::MetadataDecoder::kCustomResourceHandler, std::string(kubernetes_policy));
  if (!error) return true;
  const std::string kind = doc::StringAt(&object, "kind");
  const std::string api_version = doc::StringAt(&object, "apiVersion");
  const std::size_t slash = api_version.rfind('/');
  const std::string version = slash == std::string::npos ? api_version : api_version.substr(slash + 1);
  error->message = kind + " in version " + gocompat::Quote(version) + " cannot be handled as a " + kind + ": " + error->message;
  report->Append({std::move(*error)});
  return false;
}

void CheckOpenApiSchema(const doc::Node& trainjob, Report* report) {
  const doc::Node* spec = doc::At(&trainjob, "spec");
  if (spec == nullptr || !spec->is_mapping()) return;
  if (const doc::Node* runtime_ref = doc::At(spec, "runtimeRef"); runtime_ref != nullptr && runtime_ref->is_mapping()) {
    RequiredName(*runtime_ref, "spec.runtimeRef", "name", true, report);
  }
  EnvNamesRequired(doc::At(doc::At(doc::At(spec, "initializer"), "dataset"), "env"), "spec.initializer.dataset.env", report);
  EnvNamesRequired(doc::At(doc::At(doc::At(spec, "initializer"), "model"), "env"), "spec.initializer.model.env", report);
  EnvNamesRequired(doc::At(doc::At(spec, "trainer"), "env"), "spec.trainer.env", report);
  const doc::Node* overrides = doc::At(spec, "podTemplateOverrides");
  for (std::size_t i = 0; i < doc::Items(overrides).size(); ++i) {
    const doc::Node& entry = doc::Items(overrides)[i];
    if (!entry.is_mapping()) continue;
    const std::string path = "spec.podTemplateOverrides[" + std::to_string(i) + "]";
    if (const doc::Node* override_spec = doc::At(&entry, "spec"); override_spec != nullptr && override_spec->is_mapping()) {
      OverrideSpecSchema(*override_spec, path + ".spec", report);
    }
    const doc::Node* targets = doc::At(&entry, "targetJobs");
    for (std::size_t t = 0; t < doc::Items(targets).size(); ++t) {
      const doc::Node& target = doc::Items(targets)[t];
      if (target.is_mapping()) {
        RequiredName(target, path + ".targetJobs[" + std::to_string(t) + "]", "name", true, report);
      }
    }
    if (entry.Find("targetJobs") == nullptr) {
      report->Add({ErrorType::kRequired, path + ".targetJobs", BadValue::Omit(), ""}, &entry);
    }
  }
  if (spec->Find("runtimeRef") == nullptr) {
    report->Add({ErrorType::kRequired, "spec.runtimeRef", BadValue::Omit(), ""}, spec);
  }
}

void CheckListMapKeys(const doc::Node& trainjob, DuplicateStyle style, Report* report) {
  const doc::Node* spec = doc::At(&trainjob, "spec");
  const doc::Node* initializer = doc::At(spec, "initializer");
  UniqueNames(doc::At(doc::At(initializer, "dataset"), "env"), "spec.initializer.dataset.env", "", style, report);
  UniqueNames(doc::At(doc::At(initializer, "model"), "env"), "spec.initializer.model.env", "", style, report);
  const doc::Node* trainer = doc::At(spec, "trainer");
  UniqueNames(doc::At(trainer, "env"), "spec.trainer.env", "", style, report);
  UniqueNames(doc::At(doc::At(trainer, "resourcesPerNode"), "claims"), "spec.trainer.resourcesPerNode.claims", "",
              style, report);
  const doc::Node* overrides = doc::At(spec, "podTemplateOverrides");
  for (std::size_t i = 0; i < doc::Items(overrides).size(); ++i) {
    const doc::Node* override_spec = doc::At(&doc::Items(overrides)[i], "spec");
    const std::string path = "spec.podTemplateOverrides[" + std::to_string(i) + "].spec";
    UniqueNames(doc::At(override_spec, "volumes"), path, ".volumes", style, report);
    ContainerListMaps(doc::At(override_spec, "initContainers"), path, ".initContainers", style, report);
    ContainerListMaps(doc::At(override_spec, "containers"), path, ".containers", style, report);
    UniqueNames(doc::At(override_spec, "schedulingGates"), path, ".schedulingGates", style, report);
    UniqueNames(doc::At(override_spec, "imagePullSecrets"), path, ".imagePullSecrets", style, report);
  }
}

void CheckCelRules(const doc::Node& trainjob, const doc::Node* old, Report* report) {
  if (const doc::Node* name = doc::At(doc::At(&trainjob, "metadata"), "name"); name != nullptr && name->is_string()) {
    if (!IsRfc1035Label(name->string_value())) {
      report->Add({ErrorType::kInvalid, "<nil>", BadValue::String("object"),
                   "metadata.name must match RFC 1035 DNS label format"},
                  name);
    }
    if (CodePoints(name->string_value()) > 63) {
      report->Add({ErrorType::kInvalid, "<nil>", BadValue::String("object"),
                   "metadata.name must be no more than 63 characters"},
                  name);
    }
  }
  const doc::Node* spec = doc::At(&trainjob, "spec");
  const doc::Node* old_spec = doc::At(old, "spec");
  if (const doc::Node* runtime_ref = doc::At(spec, "runtimeRef"); runtime_ref != nullptr && old != nullptr) {
    const doc::Node* old_ref = doc::At(old_spec, "runtimeRef");
    if (old_ref != nullptr && *old_ref != *runtime_ref) {
      report->Add({ErrorType::kInvalid, "spec.runtimeRef", BadValue::String("object"), "runtimeRef is immutable"},
                  runtime_ref);
    }
  }
  if (const doc::Node* managed_by = doc::At(spec, "managedBy"); managed_by != nullptr) {
    const bool allowed = managed_by->is_string() &&
                         (managed_by->string_value() == "trainer.kubeflow.org/trainjob-controller" ||
                          managed_by->string_value() == "kueue.x-k8s.io/multikueue");
    if (!allowed) {
      report->Add({ErrorType::kInvalid, "spec.managedBy", BadValue::String("string"),
                   "ManagedBy must be trainer.kubeflow.org/trainjob-controller or kueue.x-k8s.io/multikueue if set"},
                  managed_by);
    }
    const doc::Node* old_managed_by = doc::At(old_spec, "managedBy");
    if (old_managed_by != nullptr && *old_managed_by != *managed_by) {
      report->Add({ErrorType::kInvalid, "spec.managedBy", BadValue::String("string"), "ManagedBy value is immutable"},
                  managed_by);
    }
  }
}

}  // namespace tjr::validate
