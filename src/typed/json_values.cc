#include "typed/json_values.h"

#include <algorithm>

#include "gocompat/utf8.h"

namespace tjr::typed::detail {

std::vector<const doc::Field*> SortedFields(const doc::Node& object) {
  std::vector<const doc::Field*> fields;
  fields.reserve(object.size());
  for (const doc::Field& field : object.fields()) fields.push_back(&field);
  // Typed output is often in key order already: one comparison per field
  // then. Otherwise a sort (an insertion sort here made a map of N keys
  // written out of order cost N²); keys are unique, so stability does not matter.
  auto by_key = [](const doc::Field* a, const doc::Field* b) { return a->key < b->key; };
  if (!std::is_sorted(fields.begin(), fields.end(), by_key)) std::sort(fields.begin(), fields.end(), by_key);
  return fields;
}

doc::Node InterfaceValue(const doc::Node& json) {
  switch (json.kind()) {
    case doc::Kind::kInt:
      return doc::Node::Float(static_cast<double>(json.int_value()), json.location());
    case doc::Kind::kString:
      return doc::Node::String(gocompat::CoerceToValidUtf8(json.string_value()), json.location());
    case doc::Kind::kSequence: {
      doc::Node out = doc::Node::Sequence(json.location());
      for (const doc::Node& item : json.items()) out.push_back(InterfaceValue(item));
      return out;
    }
    case doc::Kind::kMapping: {
      doc::Node out = doc::Node::Mapping(json.location());
      for (const doc::Field* field : SortedFields(json)) {
        out.Set(gocompat::CoerceToValidUtf8(field->key), InterfaceValue(field->value), field->key_location);
      }
      return out;
    }
    default:
      return json;
  }
}

doc::Node RawJsonValue(const doc::Node& json) {
  switch (json.kind()) {
    case doc::Kind::kString:
      return doc::Node::String(gocompat::CoerceToValidUtf8(json.string_value()), json.location());
    case doc::Kind::kSequence: {
      doc::Node out = doc::Node::Sequence(json.location());
      for (const doc::Node& item : json.items()) out.push_back(RawJsonValue(item));
      return out;
    }
    case doc::Kind::kMapping: {
      doc::Node out = doc::Node::Mapping(json.location());
      for (const doc::Field* field : SortedFields(json)) {
        out.Set(gocompat::CoerceToValidUtf8(field->key), RawJsonValue(field->value), field->key_location);
      }
      return out;
    }
    default:
      return json;
  }
}

}  // namespace tjr::typed::detail
