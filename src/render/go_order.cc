#include "render/go_order.h"

#include <algorithm>
#include <vector>

namespace tjr::render {

doc::Node OrderAsGo(const doc::Node& node, const schema::Type& type) {
  using Kind = schema::Type::Kind;
  if (node.is_sequence() && type.kind == Kind::kSlice && type.elem != nullptr) {
    doc::Node out = node;
    for (doc::Node& item : out.mutable_items()) item = OrderAsGo(item, *type.elem);
    return out;
  }
  if (!node.is_mapping()) return node;
  if (type.kind == Kind::kMap) {
    std::vector<doc::Field> fields = node.fields();
    std::stable_sort(fields.begin(), fields.end(), [](const doc::Field& a, const doc::Field& b) { return a.key < b.key; });
    doc::Node out = doc::Node::Mapping(node.location());
    for (doc::Field& f : fields) {
      out.Set(f.key, type.elem != nullptr ? OrderAsGo(f.value, *type.elem) : f.value, f.key_location);
    }
    return out;
  }
  if (type.kind != Kind::kStruct) return node;
  doc::Node out = doc::Node::Mapping(node.location());
  for (const schema::Field& field : type.fields) {
    for (const doc::Field& f : node.fields()) {
      if (f.key == field.json_name) {
        out.Set(f.key, field.type != nullptr ? OrderAsGo(f.value, *field.type) : f.value, f.key_location);
        break;
      }
    }
  }
  for (const doc::Field& f : node.fields()) {
    if (out.Find(f.key) == nullptr) out.Set(f.key, f.value, f.key_location);
  }
  return out;
}

}  // namespace tjr::render
