#include "render/upsert.h"

#include <string>
#include <string_view>

namespace tjr::render {
namespace {

// ptr.Equal on an optional string field: both absent, or both equal.
bool SameOptional(const doc::Node& a, const doc::Node& b, std::string_view key) {
  const doc::Node* x = a.Find(key);
  const doc::Node* y = b.Find(key);
  const bool x_set = x != nullptr && !x->is_null();
  const bool y_set = y != nullptr && !y->is_null();
  if (!x_set || !y_set) return x_set == y_set;
  return *x == *y;
}

template <class Match>
void Upsert(doc::Node* list, const doc::Node& items, Match match) {
  // Upserting nothing leaves a nil slice nil (no empty list appears).
  if (items.empty()) return;
  if (!list->is_sequence()) *list = doc::Node::Sequence();
  for (const doc::Node& item : items.items()) {
    bool replaced = false;
    for (doc::Node& existing : list->mutable_items()) {
      if (match(existing, item)) {
        existing = item;
        replaced = true;
        break;
      }
    }
    if (!replaced) list->push_back(item);
  }
}

}  // namespace

void UpsertEnvVars(doc::Node* list, const doc::Node& items) {
  Upsert(list, items, [](const doc::Node& a, const doc::Node& b) { return SameOptional(a, b, "name"); });
}

void UpsertVolumes(doc::Node* list, const doc::Node& items) {
  Upsert(list, items, [](const doc::Node& a, const doc::Node& b) { return SameOptional(a, b, "name"); });
}

void UpsertVolumeMounts(doc::Node* list, const doc::Node& items) {
  Upsert(list, items, [](const doc::Node& a, const doc::Node& b) { return SameOptional(a, b, "mountPath"); });
}

void UpsertPorts(doc::Node* list, const doc::Node& items) {
  Upsert(list, items, [](const doc::Node& a, const doc::Node& b) {
    return SameOptional(a, b, "containerPort") || SameOptional(a, b, "name");
  });
}

doc::Node EnvValue(std::string name, std::string value) {
  doc::Node env = doc::Node::Mapping();
  env.Set("name", doc::Node::String(std::move(name)));
  env.Set("value", doc::Node::String(std::move(value)));
  return env;
}

namespace {

doc::Node KeySelector(const doc::Node& ref) {
  doc::Node out = doc::Node::Mapping();
  const doc::Node* key = ref.Find("key");
  const doc::Node* name = ref.Find("name");
  out.Set("key", key != nullptr ? *key : doc::Node::String(""));
  out.Set("name", name != nullptr ? *name : doc::Node::String(""));
  if (const doc::Node* optional = ref.Find("optional"); optional != nullptr && !optional->is_null()) {
    out.Set("optional", *optional);
  }
  return out;
}

}  // namespace

doc::Node ConvertEnvVar(const doc::Node& env) {
  doc::Node out = doc::Node::Mapping();
  const doc::Node* name = env.Find("name");
  out.Set("name", name != nullptr ? *name : doc::Node::String(""));
  const doc::Node* from = env.Find("valueFrom");
  if (from == nullptr || from->is_null()) {
    const doc::Node* value = env.Find("value");
    out.Set("value", value != nullptr && value->is_string() ? *value : doc::Node::String(""));
    return out;
  }
  // EnvVarSourceApplyConfiguration field order.
  doc::Node source = doc::Node::Mapping();
  if (const doc::Node* ref = from->Find("fieldRef"); ref != nullptr && ref->is_mapping()) {
    doc::Node field = doc::Node::Mapping();
    const doc::Node* path = ref->Find("fieldPath");
    field.Set("fieldPath", path != nullptr ? *path : doc::Node::String(""));
    source.Set("fieldRef", std::move(field));
  }
  if (const doc::Node* ref = from->Find("resourceFieldRef"); ref != nullptr && ref->is_mapping()) {
    doc::Node field = doc::Node::Mapping();
    const doc::Node* container = ref->Find("containerName");
    const doc::Node* resource = ref->Find("resource");
    const doc::Node* divisor = ref->Find("divisor");
    field.Set("containerName", container != nullptr ? *container : doc::Node::String(""));
    field.Set("resource", resource != nullptr ? *resource : doc::Node::String(""));
    // A zero Quantity marshals as "0".
    field.Set("divisor", divisor != nullptr && divisor->is_string() ? *divisor : doc::Node::String("0"));
    source.Set("resourceFieldRef", std::move(field));
  }
  if (const doc::Node* ref = from->Find("configMapKeyRef"); ref != nullptr && ref->is_mapping()) {
    source.Set("configMapKeyRef", KeySelector(*ref));
  }
  if (const doc::Node* ref = from->Find("secretKeyRef"); ref != nullptr && ref->is_mapping()) {
    source.Set("secretKeyRef", KeySelector(*ref));
  }
  out.Set("valueFrom", std::move(source));
  return out;
}

doc::Node ConvertEnvVars(const doc::Node* envs) {
  doc::Node out = doc::Node::Sequence();
  if (envs == nullptr) return out;
  for (const doc::Node& env : envs->items()) out.push_back(ConvertEnvVar(env));
  return out;
}

}  // namespace tjr::render
