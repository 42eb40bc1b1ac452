#include "validate/stored_object.h"

#include <optional>
#include <utility>

namespace tjr::validate {
namespace {

// The pruned copy of `node`, or nullopt when nothing below it is pruned.
// The recursion follows the schema tree beside the data, so its depth is
// the schema's (a structural schema is not recursive), not the input's.
std::optional<doc::Node> Pruned(const doc::Node& node, const SchemaNode& schema, bool root) {
  if (node.is_mapping()) {
    const NodeRules* rules = schema.rules();
    const bool prunes = rules != nullptr && rules->prunes;
    std::optional<doc::Node> out;
    const std::vector<doc::Field>& fields = node.fields();
    for (std::size_t i = 0; i < fields.size(); ++i) {
      const doc::Field& field = fields[i];
      std::optional<doc::Node> child;
      // The root keeps `status`, which the tables leave out (the CRDs have it).
      const bool dropped = prunes && !rules->Keeps(field.key) && !(root && field.key == "status");
      if (!dropped) {
        if (const SchemaNode* next = schema.Child(field.key)) child = Pruned(field.value, *next, false);
      }
      if ((dropped || child) && !out) {
        // The first change: copy what came before it.
        out = doc::Node::Mapping(node.location());
        for (std::size_t j = 0; j < i; ++j) out->Set(fields[j].key, fields[j].value, fields[j].key_location);
      }
      if (dropped) continue;
      if (out) out->Set(field.key, child ? *std::move(child) : field.value, field.key_location);
    }
    return out;
  }
  if (node.is_sequence()) {
    const SchemaNode* item = schema.item();
    if (item == nullptr) return std::nullopt;
    std::optional<doc::Node> out;
    const std::vector<doc::Node>& items = node.items();
    for (std::size_t i = 0; i < items.size(); ++i) {
      std::optional<doc::Node> child = Pruned(items[i], *item, false);
      if (child && !out) {
        out = doc::Node::Sequence(node.location());
        for (std::size_t j = 0; j < i; ++j) out->push_back(items[j]);
      }
      if (out) out->push_back(child ? *std::move(child) : items[i]);
    }
    return out;
  }
  return std::nullopt;
}

}  // namespace

doc::Node PrunedAsStored(const CrdRules& rules, const doc::Node& object) {
  std::optional<doc::Node> pruned = Pruned(object, rules.root(), true);
  return pruned ? *std::move(pruned) : object;
}

}  // namespace tjr::validate
