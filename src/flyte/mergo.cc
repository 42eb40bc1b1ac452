#include "flyte/mergo.h"

namespace tjr::flyte {
namespace {

bool IsZeroScalar(const doc::Node& value) {
  switch (value.kind()) {
    case doc::Kind::kNull:
      return true;
    case doc::Kind::kBool:
      return !value.bool_value();
    case doc::Kind::kInt:
      return value.int_value() == 0;
    case doc::Kind::kFloat:
      return value.float_value() == 0;
    case doc::Kind::kString:
      return value.string_value().empty();
    case doc::Kind::kSequence:
    case doc::Kind::kMapping:
      return value.empty();
  }
  return true;
}

void MergeValue(doc::Node* dst, const doc::Node& src, const schema::Type& type);

void MergeStruct(doc::Node* dst, const doc::Node& src, const schema::Type& type) {
  if (!src.is_mapping()) return;  // a zero struct changes nothing
  if (!dst->is_mapping()) *dst = doc::Node::Mapping(src.location());
  for (const schema::Field& field : type.fields) {
    const doc::Node* from = src.Find(field.json_name);
    if (from == nullptr || from->is_null() || field.type == nullptr) continue;
    doc::Node* into = dst->FindMutable(field.json_name);
    if (field.pointer) {
      // reflect.Ptr: a nil dst takes src as it is; two pointers merge deeply.
      if (into == nullptr || into->is_null()) {
        dst->Set(field.json_name, *from);
        continue;
      }
      MergeValue(into, *from, *field.type);
      continue;
    }
    if (into == nullptr) {
      doc::Node fresh;
      MergeValue(&fresh, *from, *field.type);
      if (!fresh.is_null()) dst->Set(field.json_name, std::move(fresh));
      continue;
    }
    MergeValue(into, *from, *field.type);
  }
}

void MergeValue(doc::Node* dst, const doc::Node& src, const schema::Type& type) {
  if (src.is_null()) return;
  switch (type.kind) {
    case schema::Type::Kind::kStruct:
      MergeStruct(dst, src, type);
      return;
    case schema::Type::Kind::kSlice: {
      // WithAppendSlice: dst = append(dst, src...), whatever the elements.
      if (!src.is_sequence() || src.empty()) return;
      if (!dst->is_sequence()) {
        *dst = src;
        return;
      }
      for (const doc::Node& item : src.items()) dst->push_back(item);
      return;
    }
    case schema::Type::Kind::kMap: {
      // WithOverride: every src key replaces dst's, empty values included.
      if (!src.is_mapping()) return;
      if (!dst->is_mapping()) *dst = doc::Node::Mapping(src.location());
      for (const doc::Field& entry : src.fields()) dst->Set(entry.key, entry.value);
      return;
    }
    case schema::Type::Kind::kCustomJson: {
      if (IsZeroScalar(src)) return;
      // intstr.IntOrString merges field by field: an int src (Type 0) leaves
      // a string dst's Type and StrVal in place. resource.Quantity's only
      // exported field is Format, so two quantities keep dst's value.
      if (dst->is_null()) {
        *dst = src;
      } else if (type.name.ends_with("intstr.IntOrString")) {
        if (src.is_string() || !dst->is_string()) *dst = src;
      } else if (!type.name.ends_with("resource.Quantity")) {
        *dst = src;
      }
      return;
    }
    case schema::Type::Kind::kAny:
      *dst = src;
      return;
    case schema::Type::Kind::kString:
    case schema::Type::Kind::kInt:
    case schema::Type::Kind::kFloat:
    case schema::Type::Kind::kBool:
      if (!IsZeroScalar(src)) *dst = src;
      return;
  }
}

}  // namespace

void MergoMerge(doc::Node* dst, const doc::Node& src, const schema::Type& type) {
  MergeValue(dst, src, type);
}

}  // namespace tjr::flyte
