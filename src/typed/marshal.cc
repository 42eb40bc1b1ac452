#include "typed/marshal.h"

#include <cstdlib>
#include <cstring>
#include <optional>

#include "doc/number_format.h"
#include "gocompat/strconv.h"
#include "typed/unmarshal.h"

namespace tjr::typed {
namespace {

using schema::Type;

constexpr std::string_view kQuantityType = "k8s.io/apimachinery/pkg/api/resource.Quantity";
constexpr std::string_view kIntOrStringType = "k8s.io/apimachinery/pkg/util/intstr.IntOrString";
constexpr std::string_view kTimeType = "k8s.io/apimachinery/pkg/apis/meta/v1.Time";
constexpr std::string_view kFieldsV1Type = "k8s.io/apimachinery/pkg/apis/meta/v1.FieldsV1";

const GoValue& Zero() {
  static const GoValue zero;
  return zero;
}

template <class T>
const T* Get(const GoValue& value) {
  return std::get_if<T>(&value.value);
}

bool NilPointer(const GoValue& value) {
  const GoPointer* p = Get<GoPointer>(value);
  return p == nullptr || p->target == nullptr;
}

// A JSON number as util/json reads it back: an int64 literal is an int.
doc::Node NumberNode(const std::string& text, Location at) {
  if (std::optional<std::int64_t> value = gocompat::ParseInt(text, 10)) {
    return doc::Node::Int(*value, at);
  }
  return doc::Node::Float(std::strtod(text.c_str(), nullptr), at);
}

// A free-form value after one more encode/decode: floats re-read by text.
doc::Node ReadBack(const doc::Node& node) {
  switch (node.kind()) {
    case doc::Kind::kFloat:
      return NumberNode(doc::FormatFloatJson(node.float_value()), node.location());
    case doc::Kind::kSequence: {
      doc::Node out = doc::Node::Sequence(node.location());
      for (const doc::Node& item : node.items()) out.push_back(ReadBack(item));
      return out;
    }
    case doc::Kind::kMapping: {
      doc::Node out = doc::Node::Mapping(node.location());
      for (const doc::Field& field : node.fields()) {
        out.Set(field.key, ReadBack(field.value), field.key_location);
      }
      return out;
    }
    default:
      return node;
  }
}

// encoding/json's isEmptyValue, for omitempty.
bool IsEmpty(const GoValue& value, const schema::Field& field) {
  if (field.pointer) return NilPointer(value);
  if (const GoVerbatim* kept = Get<GoVerbatim>(value)) {
    // A kept slice or map is nil or empty exactly when its node is null or
    // has no elements; a struct is never empty.
    return field.type->kind != Type::Kind::kStruct && kept->node.empty();
  }
  if (value.is_zero_value()) return field.type->kind != Type::Kind::kStruct &&
                                    field.type->kind != Type::Kind::kCustomJson;
  switch (field.type->kind) {
    case Type::Kind::kSlice: return Get<GoSlice>(value)->items.empty();
    case Type::Kind::kMap: return Get<GoMap>(value)->entries.empty();
    case Type::Kind::kString: return Get<std::string>(value)->empty();
    case Type::Kind::kInt:
      return Get<std::int64_t>(value) ? *Get<std::int64_t>(value) == 0 : *Get<std::uint64_t>(value) == 0;
    case Type::Kind::kFloat: return *Get<double>(value) == 0;
    case Type::Kind::kBool: return !*Get<bool>(value);
    case Type::Kind::kAny: return Get<GoInterface>(value)->value.is_null();
    default: return false;  // structs, custom JSON types included, are never empty
  }
}

// reflect.Value.IsZero: the Go zero value, field by field.
bool IsGoZero(const GoValue& value, const Type& type, bool pointer) {
  if (pointer) return NilPointer(value);
  if (value.is_zero_value()) return true;
  if (const GoVerbatim* kept = Get<GoVerbatim>(value)) {
    // Only omitzero asks, for a struct around a kept value: rare enough to
    // decode the node for the answer.
    GoValue decoded;
    if (Unmarshal(kept->node, type, &decoded)) return false;  // a typed node decodes cleanly
    return IsGoZero(decoded, type, false);
  }
  switch (type.kind) {
    case Type::Kind::kStruct: {
      for (const auto& [index, field_value] : Get<GoStruct>(value)->set) {
        const schema::Field& field = type.fields[index];
        if (!IsGoZero(field_value, *field.type, field.pointer)) return false;
      }
      return true;  // fields never set hold their zero value
    }
    case Type::Kind::kSlice: return Get<GoSlice>(value)->nil;
    case Type::Kind::kMap: return Get<GoMap>(value)->nil;
    case Type::Kind::kString: return Get<std::string>(value)->empty();
    case Type::Kind::kInt:
      return Get<std::int64_t>(value) ? *Get<std::int64_t>(value) == 0 : *Get<std::uint64_t>(value) == 0;
    case Type::Kind::kFloat: {
      double d = *Get<double>(value);
      std::uint64_t bits;
      std::memcpy(&bits, &d, sizeof bits);
      return bits == 0;  // -0 is not the zero value
    }
    case Type::Kind::kBool: return !*Get<bool>(value);
    case Type::Kind::kAny: return Get<GoInterface>(value)->value.is_null();
    case Type::Kind::kCustomJson:
      if (const Quantity* q = Get<Quantity>(value)) {
        return q->is_zero() && q->format() == QuantityFormat::kNone && q->kept_text().empty();
      }
      if (const GoIntOrString* v = Get<GoIntOrString>(value)) {
        return !v->is_string && v->int_value == 0 && v->string_value.empty();
      }
      if (const GoTime* t = Get<GoTime>(value)) return t->IsZero() && !t->has_location;
      if (const GoRawJson* raw = Get<GoRawJson>(value)) return !raw->raw.has_value();
      return false;
  }
  return false;
}

// The IsZero method of metav1.Time and resource.Quantity (pointer
// receivers, so *T has it too); nullopt for types without one.
std::optional<bool> IsZeroMethod(const GoValue& value, const Type& type) {
  if (type.name == kTimeType) {
    const GoTime* t = Get<GoTime>(value);
    return t == nullptr || t->IsZero();
  }
  if (type.name == kQuantityType) {
    const Quantity* q = Get<Quantity>(value);
    return q == nullptr || q->is_zero();
  }
  return std::nullopt;
}

// omitzero: a type's own IsZero method when it has one (a nil pointer
// counts as zero), else reflect's zero value.
bool IsZeroForOmitZero(const GoValue& value, const schema::Field& field) {
  if (field.pointer) {
    if (NilPointer(value)) return true;
    return IsZeroMethod(*Get<GoPointer>(value)->target, *field.type).value_or(false);
  }
  if (std::optional<bool> zero = IsZeroMethod(value, *field.type)) return *zero;
  return IsGoZero(value, *field.type, false);
}

Result<doc::Node> Encode(const GoValue& value, const Type& type, bool pointer);

// IsEmpty and IsZeroForOmitZero of a field's zero value, without the value:
// omitzero always omits it; omitempty a nil pointer or a zero that is not a
// struct (custom JSON types are structs to encoding/json).
bool OmittedWhenZero(const schema::Field& field) {
  if (field.omitzero) return true;
  if (!field.omitempty) return false;
  return field.pointer ||
         (field.type->kind != Type::Kind::kStruct && field.type->kind != Type::Kind::kCustomJson);
}

Result<doc::Node> EncodeStruct(const GoValue& value, const Type& type) {
  doc::Node out = doc::Node::Mapping(value.at);
  // The schema loader rejects a struct with a JSON name twice, so fields
  // are appended without Set's search for an existing key.
  std::vector<doc::Field>& fields = out.mutable_fields();
  const GoStruct* st = Get<GoStruct>(value);
  std::size_t next = 0;  // the next set field, in st->set
  for (std::size_t i = 0; i < type.fields.size(); ++i) {
    const schema::Field& field = type.fields[i];
    const GoValue* set_value = nullptr;
    if (st != nullptr && next < st->set.size() && st->set[next].first == i) set_value = &st->set[next++].second;
    if (set_value == nullptr && OmittedWhenZero(field)) continue;  // most fields of most structs
    const GoValue& field_value = set_value != nullptr ? *set_value : Zero();
    if (field.omitempty && IsEmpty(field_value, field)) continue;
    if (field.omitzero && IsZeroForOmitZero(field_value, field)) continue;
    Result<doc::Node> encoded = Encode(field_value, *field.type, field.pointer);
    if (!encoded) return encoded;
    fields.push_back(doc::Field{field.json_name, std::move(encoded).value(), {}});
  }
  return out;
}

Result<doc::Node> EncodeCustom(const GoValue& value, const Type& type) {
  if (type.name == kQuantityType) {
    const Quantity* q = Get<Quantity>(value);
    return doc::Node::String(q ? q->String() : "0", value.at);
  }
  if (type.name == kIntOrStringType) {
    const GoIntOrString* v = Get<GoIntOrString>(value);
    if (v != nullptr && v->is_string) return doc::Node::String(v->string_value, value.at);
    return doc::Node::Int(v ? v->int_value : 0, value.at);
  }
  if (type.name == kTimeType) {
    const GoTime* t = Get<GoTime>(value);
    if (t == nullptr || t->IsZero()) return doc::Node::Null(value.at);
    return doc::Node::String(FormatRfc3339(*t), value.at);
  }
  if (type.name == kFieldsV1Type) {
    const GoRawJson* raw = Get<GoRawJson>(value);
    if (raw == nullptr || !raw->raw) return doc::Node::Null(value.at);
    return ReadBack(*raw->raw);
  }
  return MakeError(value.at, "", "tjrender: no typed round trip for custom JSON type " + type.name);
}

Result<doc::Node> Encode(const GoValue& value, const Type& type, bool pointer) {
  if (const GoVerbatim* kept = Get<GoVerbatim>(value)) return kept->node;
  if (pointer) {
    if (NilPointer(value)) return doc::Node::Null(value.at);
    return Encode(*Get<GoPointer>(value)->target, type, false);
  }
  switch (type.kind) {
    case Type::Kind::kStruct:
      return EncodeStruct(value, type);
    case Type::Kind::kSlice: {
      const GoSlice* slice = Get<GoSlice>(value);
      if (slice == nullptr || slice->nil) return doc::Node::Null(value.at);
      doc::Node out = doc::Node::Sequence(value.at);
      for (const GoValue& item : slice->items) {
        Result<doc::Node> encoded = Encode(item, *type.elem, false);
        if (!encoded) return encoded;
        out.push_back(std::move(encoded).value());
      }
      return out;
    }
    case Type::Kind::kMap: {
      const GoMap* map = Get<GoMap>(value);
      if (map == nullptr || map->nil) return doc::Node::Null(value.at);
      doc::Node out = doc::Node::Mapping(value.at);
      std::vector<doc::Field>& fields = out.mutable_fields();  // map keys are unique
      fields.reserve(map->entries.size());
      for (const auto& [key, element] : map->entries) {
        Result<doc::Node> encoded = Encode(element, *type.elem, false);
        if (!encoded) return encoded;
        fields.push_back(doc::Field{key, std::move(encoded).value(), {}});
      }
      return out;
    }
    case Type::Kind::kString: {
      const std::string* s = Get<std::string>(value);
      return doc::Node::String(s ? *s : std::string(), value.at);
    }
    case Type::Kind::kInt:
      if (const std::uint64_t* u = Get<std::uint64_t>(value)) {
        return NumberNode(std::to_string(*u), value.at);
      }
      return doc::Node::Int(Get<std::int64_t>(value) ? *Get<std::int64_t>(value) : 0, value.at);
    case Type::Kind::kFloat: {
      const double* d = Get<double>(value);
      return NumberNode(doc::FormatFloatJson(d ? *d : 0.0), value.at);
    }
    case Type::Kind::kBool:
      return doc::Node::Bool(Get<bool>(value) && *Get<bool>(value), value.at);
    case Type::Kind::kCustomJson:
      return EncodeCustom(value, type);
    case Type::Kind::kAny: {
      const GoInterface* any = Get<GoInterface>(value);
      return any ? ReadBack(any->value) : doc::Node::Null(value.at);
    }
  }
  return MakeError(value.at, "", "tjrender: unknown type kind of " + type.name);
}

}  // namespace

Result<doc::Node> Marshal(const GoValue& value, const schema::Type& type) {
  return Encode(value, type, false);
}

}  // namespace tjr::typed
