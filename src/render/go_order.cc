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

// A struct field's declaration index, or kUnknownField. The search starts
// at `from`, where the next key of a mapping in Go order is found at once.
std::size_t FieldIndex(const schema::Type& type, std::string_view key, std::size_t from) {
  const std::size_t count = type.fields.size();
  if (from > count) from = count;
  for (std::size_t i = from; i < count; ++i) {
    if (type.fields[i].json_name == key) return i;
  }
  for (std::size_t i = 0; i < from; ++i) {
    if (type.fields[i].json_name == key) return i;
  }
  return kUnknownField;
}

// Struct fields in declaration order; keys the type lacks after all of
// them, in the order they came (kUnknownField sorts last).
void SortStructFields(const std::size_t* ranks, std::vector<doc::Field>* fields) {
  std::vector<std::size_t> order(fields->size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return ranks[a] < ranks[b]; });
  std::vector<doc::Field> sorted;
  sorted.reserve(fields->size());
  for (std::size_t position : order) sorted.push_back(std::move((*fields)[position]));
  *fields = std::move(sorted);
}

// The ranks of the mappings being walked, one run per depth: a stack
// shared by the recursion instead of a vector per mapping.
thread_local std::vector<std::size_t> rank_stack;

// Sets *out to `node` in Go order and returns true, or returns false when
// `node` is in order already. Most of a rendered spec is (it comes out of a
// typed round trip); only what the plugins inserted is not. A subtree that
// needs no change is not touched, not even its reference count, and a
// changed one is copied on write along its path only.
bool Reordered(const doc::Node& node, const schema::Type& type, doc::Node* out) {
  bool changed = false;
  if (node.is_sequence()) {
    if (type.kind != Kind::kSlice || type.elem == nullptr) return false;
    const std::size_t count = node.size();
    for (std::size_t i = 0; i < count; ++i) {
      doc::Node ordered;
      if (!Reordered(node.items()[i], *type.elem, &ordered)) continue;
      if (!changed) *out = node;
      changed = true;
      out->mutable_items()[i] = std::move(ordered);
    }
    return changed;
  }
  if (!node.is_mapping() || (type.kind != Kind::kMap && type.kind != Kind::kStruct)) return false;
  const bool is_map = type.kind == Kind::kMap;
  const std::size_t count = node.size();
  const std::size_t base = rank_stack.size();
  if (!is_map) rank_stack.resize(base + count);  // indexed, not referenced: children grow it
  bool in_order = true;
  std::size_t previous = kUnknownField;
  for (std::size_t i = 0; i < count; ++i) {
    const doc::Field& field = node.fields()[i];
    const schema::Type* value_type = type.elem;
    if (!is_map) {
      const std::size_t rank = FieldIndex(type, field.key, previous == kUnknownField ? 0 : previous + 1);
      rank_stack[base + i] = rank;
      value_type = rank != kUnknownField ? type.fields[rank].type : nullptr;
      if (i > 0 && rank < rank_stack[base + i - 1]) in_order = false;
      previous = rank;
    } else if (i > 0 && field.key < node.fields()[i - 1].key) {
      in_order = false;
    }
    if (value_type == nullptr) continue;
    doc::Node ordered;
    if (!Reordered(field.value, *value_type, &ordered)) continue;
    if (!changed) *out = node;
    changed = true;
    out->mutable_fields()[i].value = std::move(ordered);
  }
  if (!in_order) {
    if (!changed) *out = node;
    changed = true;
    if (is_map) {
      std::stable_sort(out->mutable_fields().begin(), out->mutable_fields().end(),
                       [](const doc::Field& a, const doc::Field& b) { return a.key < b.key; });
    } else {
      SortStructFields(rank_stack.data() + base, &out->mutable_fields());
    }
  }
  rank_stack.resize(base);
  return changed;
}

}  // namespace

doc::Node OrderAsGo(const doc::Node& node, const schema::Type& type) {
  doc::Node out;
  return Reordered(node, type, &out) ? out : node;
}

}  // namespace tjr::render
