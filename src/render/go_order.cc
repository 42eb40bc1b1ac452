#include "render/go_order.h"

#include <algorithm>
#include <cstddef>
#include <string_view>
#include <utility>
#include <vector>

namespace tjr::render {
namespace {

using Kind = schema::Type::Kind;

constexpr std::size_t kUnknownField = static_cast<std::size_t>(-1);

// A struct field's declaration index, or kUnknownField.
std::size_t FieldIndex(const schema::Type& type, std::string_view key) {
  const schema::Field* field = type.FindField(key);
  return field != nullptr ? static_cast<std::size_t>(field - type.fields.data()) : kUnknownField;
}

// Struct fields in declaration order; keys the type lacks after all of
// them, in the order they came (kUnknownField sorts last).
void SortStructFields(const std::vector<std::size_t>& ranks, std::vector<doc::Field>* fields) {
  std::vector<std::size_t> order(fields->size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return ranks[a] < ranks[b]; });
  std::vector<doc::Field> sorted;
  sorted.reserve(fields->size());
  for (std::size_t position : order) sorted.push_back(std::move((*fields)[position]));
  *fields = std::move(sorted);
}

}  // namespace

// Most of a rendered spec is already in Go order (it comes out of a typed
// round trip); only what the plugins inserted is not. A subtree that needs
// no change is returned as the same shared representation, so the cost is a
// walk, not a copy.
doc::Node OrderAsGo(const doc::Node& node, const schema::Type& type) {
  if (node.is_sequence()) {
    if (type.kind != Kind::kSlice || type.elem == nullptr) return node;
    doc::Node out = node;
    const std::size_t count = node.size();
    for (std::size_t i = 0; i < count; ++i) {
      const doc::Node& item = node.items()[i];
      doc::Node ordered = OrderAsGo(item, *type.elem);
      if (!ordered.SharesRepresentationWith(item)) out.mutable_items()[i] = std::move(ordered);
    }
    return out;
  }
  if (!node.is_mapping() || (type.kind != Kind::kMap && type.kind != Kind::kStruct)) return node;
  const bool is_map = type.kind == Kind::kMap;
  doc::Node out = node;
  const std::size_t count = node.size();
  std::vector<std::size_t> ranks;
  if (!is_map) ranks.resize(count);
  bool in_order = true;
  for (std::size_t i = 0; i < count; ++i) {
    const doc::Field& field = node.fields()[i];
    const schema::Type* value_type = type.elem;
    if (!is_map) {
      ranks[i] = FieldIndex(type, field.key);
      value_type = ranks[i] != kUnknownField ? type.fields[ranks[i]].type : nullptr;
      if (i > 0 && ranks[i] < ranks[i - 1]) in_order = false;
    } else if (i > 0 && field.key < node.fields()[i - 1].key) {
      in_order = false;
    }
    if (value_type == nullptr) continue;
    doc::Node ordered = OrderAsGo(field.value, *value_type);
    if (!ordered.SharesRepresentationWith(field.value)) out.mutable_fields()[i].value = std::move(ordered);
  }
  if (in_order) return out;
  if (is_map) {
    std::stable_sort(out.mutable_fields().begin(), out.mutable_fields().end(),
                     [](const doc::Field& a, const doc::Field& b) { return a.key < b.key; });
  } else {
    SortStructFields(ranks, &out.mutable_fields());
  }
  return out;
}

}  // namespace tjr::render
