#include "trainer/defaulting.h"

#include <optional>
#include <string>
#include <utility>

namespace tjr::trainer {
namespace {

// The walk rebuilds only the nodes on paths to a change and returns the
// replacement for `x`, or nothing when the subtree stays as it is: shared
// subtrees (a runtime's templates are often copies) are not copied for
// nothing.
class Walker {
 public:
  explicit Walker(std::vector<AppliedDefault>* applied) : applied_(applied) {}

  std::optional<doc::Node> Walk(const doc::Node& x, const DefaultsNode* s, const PathFrame& path,
                                bool root) {
    // Without a schema below, the walk can only drop null fields: most
    // subtrees (containers, env, resources) have none, which one read-only
    // pass finds out without the bookkeeping of a walk.
    if (s == nullptr && !root && !HasNullField(x)) return std::nullopt;
    if (x.is_mapping()) return WalkMapping(x, s, path, root);
    if (x.is_sequence()) return WalkSequence(x, s, path);
    return std::nullopt;
  }

 private:
  std::optional<doc::Node> WalkMapping(const doc::Node& x, const DefaultsNode* s,
                                       const PathFrame& path, bool root) {
    std::optional<doc::Node> out;
    auto mut = [&]() -> doc::Node& {
      if (!out) out = x;
      return *out;
    };
    // Defaults of absent or null properties.
    if (s != nullptr) {
      for (const DefaultsNode::Property& p : s->properties) {
        const CrdDefault* def = p.node->default_value;
        if (def == nullptr) continue;
        const doc::Node* v = x.Find(p.name);
        if (v != nullptr && !v->is_null()) continue;
        mut().Set(p.name, Copy(*def, x.location()));
        Record(path.Field(p.name), def);
      }
    }
    // Other nulls: an additionalProperties default replaces them, otherwise
    // they are dropped.
    std::vector<std::string> replace;
    std::vector<std::string> drop;
    for (const doc::Field& field : (out ? *out : x).fields()) {
      if (!field.value.is_null()) continue;
      const DefaultsNode* sub = Schema(s, field.key);
      bool defaulted = sub != nullptr && sub == s->additional.get() && sub->default_value != nullptr;
      (defaulted ? replace : drop).push_back(field.key);
    }
    for (const std::string& key : replace) {
      mut().Set(key, Copy(*s->additional->default_value, x.location()));
      Record(path.Field(key), s->additional->default_value);
    }
    for (const std::string& key : drop) mut().Erase(key);
    // Into every value, defaults just written included.
    std::size_t count = (out ? *out : x).size();
    for (std::size_t i = 0; i < count; ++i) {
      const doc::Field& field = (out ? *out : x).fields()[i];
      if (root && field.key == "metadata") continue;
      std::optional<doc::Node> changed =
          Walk(field.value, Schema(s, field.key), path.Field(field.key), false);
      if (changed) mut().mutable_fields()[i].value = std::move(*changed);
    }
    return out;
  }

  std::optional<doc::Node> WalkSequence(const doc::Node& x, const DefaultsNode* s,
                                        const PathFrame& path) {
    std::optional<doc::Node> out;
    const DefaultsNode* items = s != nullptr ? s->items.get() : nullptr;
    for (std::size_t i = 0; i < x.size(); ++i) {
      const doc::Node& item = x[i];
      std::optional<doc::Node> changed;
      if (item.is_null() && items != nullptr && items->default_value != nullptr) {
        changed = Copy(*items->default_value, item.location().known() ? item.location()
                                                                      : x.location());
        Record(path.Index(i), items->default_value);
        // A default is walked like a value the user wrote.
        if (auto again = Walk(*changed, items, path.Index(i), false)) changed = std::move(again);
      } else {
        changed = Walk(item, items, path.Index(i), false);
      }
      if (!changed) continue;
      if (!out) out = x;
      out->mutable_items()[i] = std::move(*changed);
    }
    return out;
  }

  void Record(const PathFrame& at, const CrdDefault* def) {
    if (applied_ != nullptr) applied_->push_back({at.Build(), def});
  }

  static bool HasNullField(const doc::Node& x) {
    for (const doc::Field& field : x.fields()) {
      if (field.value.is_null() || HasNullField(field.value)) return true;
    }
    for (const doc::Node& item : x.items()) {
      if (HasNullField(item)) return true;
    }
    return false;
  }

  static const DefaultsNode* Schema(const DefaultsNode* s, std::string_view key) {
    if (s == nullptr) return nullptr;
    if (const DefaultsNode* p = s->Find(key)) return p;
    return s->additional.get();
  }

  static doc::Node Copy(const CrdDefault& def, const Location& at) {
    doc::Node value = def.value;
    value.set_location(at);
    return value;
  }

  std::vector<AppliedDefault>* applied_;  // null: not recorded
};

// The table's defaults for `object`'s apiVersion and kind.
Result<const KindDefaults*> DefaultsFor(const doc::Node& object, std::string_view table_name) {
  Result<const DefaultsTable*> table = BuiltinDefaults(table_name);
  if (!table) return table.take_error();
  const doc::Node* api_version = object.Find("apiVersion");
  const doc::Node* kind = object.Find("kind");
  std::string api_version_text =
      api_version != nullptr && api_version->is_string() ? api_version->string_value() : "";
  std::string kind_text = kind != nullptr && kind->is_string() ? kind->string_value() : "";
  const KindDefaults* defaults = (*table)->Find(api_version_text, kind_text);
  if (defaults == nullptr) {
    return MakeError(object.location(), "",
                     "no CRD defaults for apiVersion \"" + api_version_text + "\", kind \"" +
                         kind_text + "\" in " + (*table)->name());
  }
  return defaults;
}

void Apply(const KindDefaults& kind, doc::Node& object, std::vector<AppliedDefault>* applied) {
  if (std::optional<doc::Node> changed = Walker(applied).Walk(object, &kind.root, PathFrame{}, true)) {
    object = std::move(*changed);
  }
}

}  // namespace

std::vector<AppliedDefault> ApplyDefaults(const KindDefaults& kind, doc::Node& object) {
  std::vector<AppliedDefault> applied;
  Apply(kind, object, &applied);
  return applied;
}

Result<std::vector<AppliedDefault>> ApplyBuiltinDefaults(doc::Node& object, std::string_view table_name) {
  Result<const KindDefaults*> defaults = DefaultsFor(object, table_name);
  if (!defaults) return defaults.take_error();
  return ApplyDefaults(**defaults, object);
}

Status DefaultBuiltin(doc::Node& object, std::string_view table_name) {
  Result<const KindDefaults*> defaults = DefaultsFor(object, table_name);
  if (!defaults) return defaults.take_error();
  Apply(**defaults, object, nullptr);
  return Ok();
}

}  // namespace tjr::trainer
