#include "validate/go_json.h"

#include <algorithm>

#include "gocompat/json_quote.h"
#include "json/json.h"
#include "schema/schema.h"
#include "typed/round_trip.h"

namespace tjr::validate {
namespace {

constexpr std::string_view kCore = "k8s.io/api/core/v1.";

bool Present(const doc::Node* node) { return node != nullptr && !node->is_null(); }

bool NonEmptyList(const doc::Node* node) { return node != nullptr && node->is_sequence() && !node->empty(); }

void Write(const doc::Node& value, std::string* out) {
  switch (value.kind()) {
    case doc::Kind::kNull: *out += "null"; return;
    case doc::Kind::kBool: *out += value.bool_value() ? "true" : "false"; return;
    case doc::Kind::kInt: *out += std::to_string(value.int_value()); return;
    case doc::Kind::kFloat: *out += json::Write(value, false); return;
    case doc::Kind::kString: gocompat::AppendJsonString(value.string_value(), out); return;
    case doc::Kind::kSequence: {
      *out += '[';
      bool first = true;
      for (const doc::Node& item : value.items()) {
        if (!first) *out += ',';
        first = false;
        Write(item, out);
      }
      *out += ']';
      return;
    }
    case doc::Kind::kMapping: {
      *out += '{';
      bool first = true;
      for (const doc::Field& field : value.fields()) {
        if (!first) *out += ',';
        first = false;
        gocompat::AppendJsonString(field.key, out);
        *out += ':';
        Write(field.value, out);
      }
      *out += '}';
      return;
    }
  }
}

// map[string]string: keys sorted bytewise, as encoding/json writes maps.
doc::Node SortedStringMap(const doc::Node& map) {
  std::vector<const doc::Field*> fields;
  for (const doc::Field& field : map.fields()) fields.push_back(&field);
  std::sort(fields.begin(), fields.end(),
            [](const doc::Field* a, const doc::Field* b) { return a->key < b->key; });
  doc::Node out = doc::Node::Mapping();
  for (const doc::Field* field : fields) out.Set(field->key, field->value);
  return out;
}

doc::Node TypedList(const doc::Node& list, std::string_view type_name) {
  doc::Node out = doc::Node::Sequence();
  for (const doc::Node& item : list.items()) out.push_back(Typed(item, type_name));
  return out;
}

// The `omitempty` string field `key` of `from`, copied when non-empty.
void CopyNonEmptyString(const doc::Node& from, std::string_view key, doc::Node* to) {
  const doc::Node* value = from.Find(key);
  if (value != nullptr && value->is_string() && !value->string_value().empty()) to->Set(std::string(key), *value);
}

// A `*string` field: kept whenever set, even to "".
void CopyPointerString(const doc::Node& from, std::string_view key, doc::Node* to) {
  const doc::Node* value = from.Find(key);
  if (Present(value)) to->Set(std::string(key), *value);
}

void CopyTypedList(const doc::Node& from, std::string_view key, std::string_view type_name, doc::Node* to) {
  const doc::Node* value = from.Find(key);
  if (NonEmptyList(value)) to->Set(std::string(key), TypedList(*value, type_name));
}

doc::Node ContainerOverride(const doc::Node& container) {
  doc::Node out = doc::Node::Mapping();
  CopyNonEmptyString(container, "name", &out);
  CopyTypedList(container, "env", std::string(kCore) + "EnvVar", &out);
  CopyTypedList(container, "volumeMounts", std::string(kCore) + "VolumeMount", &out);
  return out;
}

doc::Node ContainerOverrides(const doc::Node& list) {
  doc::Node out = doc::Node::Sequence();
  for (const doc::Node& item : list.items()) out.push_back(ContainerOverride(item));
  return out;
}

doc::Node PodTemplateSpecOverride(const doc::Node& spec) {
  doc::Node out = doc::Node::Mapping();
  CopyPointerString(spec, "serviceAccountName", &out);
  if (const doc::Node* selector = spec.Find("nodeSelector"); selector != nullptr && selector->is_mapping() &&
                                                             !selector->empty()) {
    out.Set("nodeSelector", SortedStringMap(*selector));
  }
  if (const doc::Node* affinity = spec.Find("affinity"); Present(affinity)) {
    out.Set("affinity", Typed(*affinity, std::string(kCore) + "Affinity"));
  }
  CopyTypedList(spec, "tolerations", std::string(kCore) + "Toleration", &out);
  CopyTypedList(spec, "volumes", std::string(kCore) + "Volume", &out);
  for (std::string_view key : {"initContainers", "containers"}) {
    const doc::Node* list = spec.Find(key);
    if (NonEmptyList(list)) out.Set(std::string(key), ContainerOverrides(*list));
  }
  CopyTypedList(spec, "schedulingGates", std::string(kCore) + "PodSchedulingGate", &out);
  CopyTypedList(spec, "imagePullSecrets", std::string(kCore) + "LocalObjectReference", &out);
  return out;
}

doc::Node PodTemplateOverride(const doc::Node& entry) {
  doc::Node out = doc::Node::Mapping();
  if (const doc::Node* targets = entry.Find("targetJobs"); NonEmptyList(targets)) {
    doc::Node list = doc::Node::Sequence();
    for (const doc::Node& target : targets->items()) {
      doc::Node job = doc::Node::Mapping();
      CopyNonEmptyString(target, "name", &job);
      list.push_back(job);
    }
    out.Set("targetJobs", list);
  }
  if (const doc::Node* metadata = entry.Find("metadata"); Present(metadata)) {
    out.Set("metadata", Typed(*metadata, "k8s.io/apimachinery/pkg/apis/meta/v1.ObjectMeta"));
  }
  if (const doc::Node* spec = entry.Find("spec"); Present(spec)) out.Set("spec", PodTemplateSpecOverride(*spec));
  return out;
}

const schema::Schema* CoreSchema() {
  static const schema::Schema* const kSchema = [] {
    Result<const schema::Schema*> loaded = schema::BuiltinSchema({"kubernetes-v1.34", "jobset-v0.10.1"});
    return loaded.ok() ? *loaded : nullptr;
  }();
  return kSchema;
}

}  // namespace

std::string WriteOrdered(const doc::Node& value) {
  std::string out;
  Write(value, &out);
  return out;
}

doc::Node Typed(const doc::Node& value, std::string_view type_name) {
  const schema::Schema* schema = CoreSchema();
  const schema::Type* type = schema != nullptr ? schema->FindType(type_name) : nullptr;
  if (type == nullptr) return value;
  Result<doc::Node> typed = typed::TypedRoundTrip(value, *type);
  return typed.ok() ? *typed : value;
}

std::string RuntimeRefJson(const doc::Node* runtime_ref) {
  doc::Node out = doc::Node::Mapping();
  if (runtime_ref != nullptr) {
    CopyNonEmptyString(*runtime_ref, "name", &out);
    CopyPointerString(*runtime_ref, "apiGroup", &out);
    CopyPointerString(*runtime_ref, "kind", &out);
  }
  return WriteOrdered(out);
}

std::string PodTemplateOverridesJson(const doc::Node& overrides) {
  if (!NonEmptyList(&overrides)) return "null";
  doc::Node out = doc::Node::Sequence();
  for (const doc::Node& entry : overrides.items()) out.push_back(PodTemplateOverride(entry));
  return WriteOrdered(out);
}

std::string EnvListJson(const doc::Node& env) {
  if (!NonEmptyList(&env)) return "null";
  return WriteOrdered(TypedList(env, std::string(kCore) + "EnvVar"));
}

std::string ResourcesJson(const doc::Node* resources) {
  if (!Present(resources)) return "null";
  return WriteOrdered(Typed(*resources, std::string(kCore) + "ResourceRequirements"));
}

std::string IntOrStringJson(const doc::Node& value) { return WriteOrdered(value); }

std::string ContainersJson(const doc::Node& containers) {
  if (!NonEmptyList(&containers)) return "null";
  return WriteOrdered(TypedList(containers, std::string(kCore) + "Container"));
}

}  // namespace tjr::validate
