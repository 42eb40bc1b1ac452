#include "render/upsert.h"

#include <algorithm>
#include <charconv>
#include <initializer_list>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

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

// The field `key` of an element as text that two elements share exactly
// when SameOptional finds them equal ("" for absent or null); nothing for
// a list or mapping, which only a full comparison matches.
std::optional<std::string> MatchText(const doc::Node& element, std::string_view key) {
  const doc::Node* x = element.Find(key);
  if (x == nullptr || x->is_null()) return std::string();
  switch (x->kind()) {
    case doc::Kind::kString: return "s" + x->string_value();
    case doc::Kind::kInt: return "i" + std::to_string(x->int_value());
    case doc::Kind::kBool: return x->bool_value() ? "t" : "f";
    case doc::Kind::kFloat: {
      if (x->float_value() == 0) return "d0";  // -0 == 0
      char text[32];
      const auto end = std::to_chars(text, text + sizeof text, x->float_value()).ptr;
      return "d" + std::string(text, end);
    }
    default: return std::nullopt;
  }
}

// Each item replaces the first element that matches it on one of `keys`
// (SameOptional), or is appended: Trainer's loops, which compare every
// item with every element. Elements are indexed by their keys' values, so
// N env vars over N cost O(N log N), not O(N²) (40,000 took minutes).
void Upsert(doc::Node* list, const doc::Node& items, std::initializer_list<std::string_view> keys) {
  // Upserting nothing leaves a nil slice nil (no empty list appears).
  if (items.empty()) return;
  if (!list->is_sequence()) *list = doc::Node::Sequence();
  auto texts_of = [&](const doc::Node& element) {
    std::vector<std::string> texts;
    for (std::string_view key : keys) {
      std::optional<std::string> text = MatchText(element, key);
      if (!text) return std::optional<std::vector<std::string>>();
      texts.push_back(std::move(*text));
    }
    return std::optional<std::vector<std::string>>(std::move(texts));
  };
  std::vector<std::vector<std::string>> element_texts;
  bool indexable = true;
  for (const doc::Node& element : list->items()) {
    std::optional<std::vector<std::string>> texts = texts_of(element);
    indexable = indexable && texts.has_value();
    if (!indexable) break;
    element_texts.push_back(std::move(*texts));
  }
  for (const doc::Node& item : items.items()) indexable = indexable && texts_of(item).has_value();
  if (!indexable) {
    // A key holds a list or mapping: compared in full, as Trainer does.
    for (const doc::Node& item : items.items()) {
      bool replaced = false;
      for (doc::Node& existing : list->mutable_items()) {
        bool same = false;
        for (std::string_view key : keys) same = same || SameOptional(existing, item, key);
        if (same) {
          existing = item;
          replaced = true;
          break;
        }
      }
      if (!replaced) list->push_back(item);
    }
    return;
  }
  // Per key: the positions of the elements with each value, in order.
  std::vector<std::unordered_map<std::string, std::set<std::size_t>>> at(keys.size());
  for (std::size_t i = 0; i < element_texts.size(); ++i) {
    for (std::size_t k = 0; k < keys.size(); ++k) at[k][element_texts[i][k]].insert(i);
  }
  for (const doc::Node& item : items.items()) {
    std::vector<std::string> texts = *texts_of(item);
    std::size_t first = element_texts.size();
    for (std::size_t k = 0; k < keys.size(); ++k) {
      auto same = at[k].find(texts[k]);
      if (same != at[k].end() && !same->second.empty()) first = std::min(first, *same->second.begin());
    }
    if (first == element_texts.size()) {
      list->push_back(item);
      element_texts.push_back(texts);
    } else {
      list->mutable_items()[first] = item;
      for (std::size_t k = 0; k < keys.size(); ++k) at[k][element_texts[first][k]].erase(first);
      element_texts[first] = texts;
    }
    for (std::size_t k = 0; k < keys.size(); ++k) at[k][texts[k]].insert(first);
  }
}

}  // namespace

void UpsertEnvVars(doc::Node* list, const doc::Node& items) {
  Upsert(list, items, {"name"});
}

void UpsertVolumes(doc::Node* list, const doc::Node& items) {
  Upsert(list, items, {"name"});
}

void UpsertVolumeMounts(doc::Node* list, const doc::Node& items) {
  Upsert(list, items, {"mountPath"});
}

void UpsertPorts(doc::Node* list, const doc::Node& items) {
  Upsert(list, items, {"containerPort", "name"});
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
