#include "typed/unmarshal.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "base/field_path.h"
#include "gocompat/strconv.h"
#include "gocompat/type_name.h"
#include "gocompat/utf8.h"
#include "typed/go_text.h"
#include "typed/json_values.h"

namespace tjr::typed {
namespace {

using detail::InterfaceValue;
using detail::RawJsonValue;
using detail::SortedFields;
using schema::Type;

constexpr std::string_view kQuantityType = "k8s.io/apimachinery/pkg/api/resource.Quantity";
constexpr std::string_view kIntOrStringType = "k8s.io/apimachinery/pkg/util/intstr.IntOrString";
constexpr std::string_view kTimeType = "k8s.io/apimachinery/pkg/apis/meta/v1.Time";
constexpr std::string_view kFieldsV1Type = "k8s.io/apimachinery/pkg/apis/meta/v1.FieldsV1";

// How a builtin integer type stores its value.
struct IntShape {
  bool is_unsigned = false;
  int bits = 64;
};

std::optional<IntShape> ShapeOf(std::string_view name) {
  static constexpr std::pair<std::string_view, IntShape> kShapes[] = {
      {"int", {false, 64}},   {"int8", {false, 8}},   {"int16", {false, 16}},
      {"int32", {false, 32}}, {"int64", {false, 64}}, {"uint", {true, 64}},
      {"uint8", {true, 8}},   {"uint16", {true, 16}}, {"uint32", {true, 32}},
      {"uint64", {true, 64}},
  };
  for (const auto& [shape_name, shape] : kShapes) {
    if (shape_name == name) return shape;
  }
  return std::nullopt;
}

class Decoder {
 public:
  Decoder() = default;
  explicit Decoder(const UnmarshalOptions& options)
      : case_sensitive_(options.case_sensitive),
        struct_type_(options.outer_struct),
        field_stack_(options.outer_fields) {}

  std::optional<Diagnostic> Run(const doc::Node& json, const Type& type, const doc::Node* base,
                                GoValue* out) {
    Status status = Decode(json, type, false, *out, PathFrame(), base);
    if (!status.ok()) return status.take_error();
    return saved_;
  }

 private:
  bool case_sensitive_ = false;
  // encoding/json's errorContext: the struct whose field is being decoded
  // and the JSON names of the fields from the root.
  // Both name schema strings (or the caller's), which outlive the decoder.
  std::string_view struct_type_;  // its qualified name; GoTypeName when an error needs it
  std::vector<std::string_view> field_stack_;
  std::optional<Diagnostic> saved_;

  std::string TypeErrorText(std::string_view what, std::string_view go_type) const {
    std::string text = "json: cannot unmarshal " + std::string(what);
    if (struct_type_.empty() && field_stack_.empty()) {
      return text + " into Go value of type " + std::string(go_type);
    }
    text += " into Go struct field " + std::string(gocompat::GoTypeName(struct_type_)) + ".";
    for (std::size_t i = 0; i < field_stack_.size(); ++i) {
      if (i > 0) text += '.';
      text += field_stack_[i];
    }
    return text + " of type " + std::string(go_type);
  }

  // A value of the wrong kind: skipped, the first one reported at the end.
  void SaveTypeError(std::string_view what, const Type& type, const doc::Node& json,
                     const PathFrame& path) {
    if (saved_) return;
    saved_ = MakeError(json.location(), path.Build().Upstream(), TypeErrorText(what, gocompat::GoTypeString(type.name)));
  }

  static Diagnostic Fatal(const doc::Node& json, const PathFrame& path, std::string message) {
    return MakeError(json.location(), path.Build().Upstream(), std::move(message));
  }

  static std::string_view KindWord(const doc::Node& json) {
    switch (json.kind()) {
      case doc::Kind::kBool: return "bool";
      case doc::Kind::kString: return "string";
      case doc::Kind::kSequence: return "array";
      case doc::Kind::kMapping: return "object";
      default: return "number";
    }
  }

  // Whether a value of this type in this position may be kept verbatim.
  static bool VerbatimPosition(const Type& type, bool pointer, bool omitzero) {
    return !pointer && !omitzero &&
           (type.kind == Type::Kind::kStruct || type.kind == Type::Kind::kSlice ||
            type.kind == Type::Kind::kMap);
  }

  // Keeps `json` as it is when it is the base's own node and nothing was
  // decoded into `target` yet.
  static bool KeepVerbatim(const doc::Node& json, const doc::Node* base, GoValue& target) {
    if (base == nullptr || !json.SharesRepresentationWith(*base) || json.is_scalar() ||
        !target.is_zero_value()) {
      return false;
    }
    target.value.emplace<GoVerbatim>(GoVerbatim{json});
    target.at = json.location();
    return true;
  }

  // `base`: the node at the same place of Unmarshal's typed_base, or null.
  Status Decode(const doc::Node& json, const Type& type, bool pointer, GoValue& target,
                const PathFrame& path, const doc::Node* base = nullptr) {
    if (GoVerbatim* kept = std::get_if<GoVerbatim>(&target.value)) {
      // A second key decodes into this value: decode the kept node for real
      // first, so that encoding/json's merge into the existing value holds.
      doc::Node node = std::move(kept->node);
      target.value = {};
      if (Status status = Decode(node, type, pointer, target, path); !status.ok()) return status;
    }
    target.at = json.location();
    if (pointer) {
      GoPointer& p = target.As<GoPointer>();
      if (json.is_null()) {
        p.target.reset();
        return Ok();
      }
      if (!p.target) p.target = std::make_unique<GoValue>();
      return Decode(json, type, false, *p.target, path, base);
    }
    if (type.kind == Type::Kind::kCustomJson) return DecodeCustom(json, type, target, path);
    if (type.kind == Type::Kind::kAny) {
      target.As<GoInterface>().value = InterfaceValue(json);
      return Ok();
    }
    switch (json.kind()) {
      case doc::Kind::kNull:
        if (type.kind == Type::Kind::kSlice || type.kind == Type::Kind::kMap) target.value = {};
        return Ok();
      case doc::Kind::kMapping:
        if (type.kind == Type::Kind::kStruct) return DecodeStruct(json, type, target, path, base);
        if (type.kind == Type::Kind::kMap) return DecodeMap(json, type, target, path, base);
        break;
      case doc::Kind::kSequence:
        if (type.kind == Type::Kind::kSlice) return DecodeSlice(json, type, target, path, base);
        break;
      case doc::Kind::kString:
        if (type.kind == Type::Kind::kString) {
          target.As<std::string>() = gocompat::CoerceToValidUtf8(json.string_value());
          return Ok();
        }
        break;
      case doc::Kind::kBool:
        if (type.kind == Type::Kind::kBool) {
          target.As<bool>() = json.bool_value();
          return Ok();
        }
        break;
      case doc::Kind::kInt:
      case doc::Kind::kFloat:
        return DecodeNumber(json, type, target, path);
    }
    SaveTypeError(KindWord(json), type, json, path);
    return Ok();
  }

  Status DecodeNumber(const doc::Node& json, const Type& type, GoValue& target,
                      const PathFrame& path) {
    Result<std::string> text = JsonNumberText(json);
    if (!text) return Fatal(json, path, text.error().message);
    const std::string& s = *text;
    if (type.kind == Type::Kind::kFloat) {
      if (type.name != "float64") {
        return Fatal(json, path, "tjrender: no typed round trip for float type " + type.name);
      }
      target.As<double>() = std::strtod(s.c_str(), nullptr);  // Go's own text: always valid
      return Ok();
    }
    if (type.kind != Type::Kind::kInt) {
      SaveTypeError("number", type, json, path);
      return Ok();
    }
    std::optional<IntShape> shape = ShapeOf(type.name);
    if (!shape) return Fatal(json, path, "tjrender: no typed round trip for integer type " + type.name);
    // strconv.ParseInt/ParseUint(s, 10, 64), then reflect's Overflow check.
    bool ok;
    if (shape->is_unsigned) {
      std::optional<std::uint64_t> value = gocompat::ParseUint(s, 10);
      ok = value && (shape->bits == 64 || *value < (std::uint64_t{1} << shape->bits));
      if (ok) target.As<std::uint64_t>() = *value;
    } else {
      std::optional<std::int64_t> value = gocompat::ParseInt(s, 10);
      std::int64_t limit = shape->bits == 64 ? std::numeric_limits<std::int64_t>::max()
                                             : (std::int64_t{1} << (shape->bits - 1)) - 1;
      ok = value && *value <= limit && *value >= -limit - 1;
      if (ok) target.As<std::int64_t>() = *value;
    }
    if (!ok) SaveTypeError("number " + s, type, json, path);
    return Ok();
  }

  // The base's value for `key` where it may stand in for a decode.
  static const doc::Node* BaseChild(const doc::Node* base, const doc::Node& value,
                                    std::string_view key) {
    if (base == nullptr || value.is_scalar()) return nullptr;  // scalars decode cheaply
    return base->Find(key);
  }

  Status DecodeStruct(const doc::Node& json, const Type& type, GoValue& target,
                      const PathFrame& path, const doc::Node* base) {
    GoStruct& st = target.As<GoStruct>();
    st.set.reserve(st.set.size() + json.size());  // at most one field per member
    for (const doc::Field* member : SortedFields(json)) {
      std::optional<std::size_t> index =
          gocompat::IsValidUtf8(member->key) ? FindField(type, member->key)
                                             : FindField(type, gocompat::CoerceToValidUtf8(member->key));
      if (!index) continue;
      const schema::Field& field = type.fields[*index];
      const doc::Node* base_child = BaseChild(base, member->value, member->key);
      if (VerbatimPosition(*field.type, field.pointer, field.omitzero) &&
          KeepVerbatim(member->value, base_child, st.Field(*index))) {
        continue;
      }
      std::string_view saved_struct = struct_type_;
      std::size_t saved_depth = field_stack_.size();
      // Go >= 1.24 first pushes the Go name of each embedded struct a
      // promoted field comes through ("VolumeSource" before "hostPath");
      // schema::Field does not record it yet, so those paths lack it.
      field_stack_.push_back(field.json_name);
      struct_type_ = type.name;
      Status status = Decode(member->value, *field.type, field.pointer, st.Field(*index),
                             path.Field(member->key), base_child);
      if (!status.ok()) return status;
      field_stack_.resize(saved_depth);
      struct_type_ = saved_struct;
    }
    return Ok();
  }

  std::optional<std::size_t> FindField(const Type& type, std::string_view key) const {
    const schema::Field* field = case_sensitive_ ? type.FindField(key) : schema::MatchJsonField(type.fields, key);
    if (field == nullptr) return std::nullopt;
    return static_cast<std::size_t>(field - type.fields.data());
  }

  Status DecodeMap(const doc::Node& json, const Type& type, GoValue& target,
                   const PathFrame& path, const doc::Node* base) {
    GoMap& map = target.As<GoMap>();
    map.nil = false;
    const bool verbatim_elements = VerbatimPosition(*type.elem, false, false);
    for (const doc::Field* member : SortedFields(json)) {
      GoValue element;  // each element starts from zero, never the old entry
      const doc::Node* base_child = BaseChild(base, member->value, member->key);
      if (!verbatim_elements || !KeepVerbatim(member->value, base_child, element)) {
        Status status = Decode(member->value, *type.elem, false, element, path.Field(member->key),
                               base_child);
        if (!status.ok()) return status;
      }
      std::string key = gocompat::CoerceToValidUtf8(member->key);
      auto it = std::lower_bound(map.entries.begin(), map.entries.end(), key,
                                 [](const auto& entry, const std::string& k) { return entry.first < k; });
      if (it != map.entries.end() && it->first == key) {
        it->second = std::move(element);
      } else {
        map.entries.emplace(it, std::move(key), std::move(element));
      }
    }
    return Ok();
  }

  Status DecodeSlice(const doc::Node& json, const Type& type, GoValue& target,
                     const PathFrame& path, const doc::Node* base) {
    GoSlice& slice = target.As<GoSlice>();
    slice.nil = false;
    const std::vector<doc::Node>& items = json.items();
    // Existing elements are decoded into, not replaced (encoding/json
    // reuses the backing array), then the slice is cut to the new length.
    if (slice.items.size() < items.size()) slice.items.resize(items.size());
    const bool verbatim_elements = VerbatimPosition(*type.elem, false, false);
    const std::vector<doc::Node>& base_items = base != nullptr ? base->items() : items;
    for (std::size_t i = 0; i < items.size(); ++i) {
      // Merged lists keep the base's elements, but not always at the same
      // index; an element elsewhere is simply decoded.
      const doc::Node* base_item = base != nullptr && i < base_items.size() ? &base_items[i] : nullptr;
      if (verbatim_elements && KeepVerbatim(items[i], base_item, slice.items[i])) continue;
      Status status = Decode(items[i], *type.elem, false, slice.items[i], path.Index(i), base_item);
      if (!status.ok()) return status;
    }
    slice.items.resize(items.size());
    return Ok();
  }

  Status DecodeCustom(const doc::Node& json, const Type& type, GoValue& target,
                      const PathFrame& path) {
    if (type.name == kQuantityType) {
      Status status = target.As<Quantity>().UnmarshalJson(json);
      if (!status.ok()) return Fatal(json, path, status.error().message);
      return Ok();
    }
    if (type.name == kIntOrStringType) {
      GoIntOrString& value = target.As<GoIntOrString>();
      value.is_string = json.is_string();
      if (json.is_string()) {
        value.string_value = gocompat::CoerceToValidUtf8(json.string_value());
        return Ok();
      }
      if (json.is_null()) return Ok();  // json.Unmarshal(null, &IntVal) keeps IntVal
      // json.Unmarshal(raw, &IntVal): its error comes back through
      // UnmarshalJSON and so stops decoding, with this field's context.
      std::string what(KindWord(json));
      if (json.is_int() || json.is_float()) {
        Result<std::string> text = JsonNumberText(json);
        if (!text) return Fatal(json, path, text.error().message);
        // strconv.ParseInt(s, 10, 32).
        std::optional<std::int64_t> parsed = gocompat::ParseInt(*text, 10);
        if (parsed && *parsed >= std::numeric_limits<std::int32_t>::min() &&
            *parsed <= std::numeric_limits<std::int32_t>::max()) {
          value.int_value = static_cast<std::int32_t>(*parsed);
          return Ok();
        }
        what = "number " + *text;
      }
      return Fatal(json, path, TypeErrorText(what, "int32"));
    }
    if (type.name == kTimeType) {
      GoTime& time = target.As<GoTime>();
      if (json.is_null()) {
        time = GoTime();
        return Ok();
      }
      if (!json.is_string()) return Fatal(json, path, TypeErrorText(KindWord(json), "string"));
      Result<GoTime> parsed = ParseRfc3339(gocompat::CoerceToValidUtf8(json.string_value()));
      if (!parsed) return Fatal(json, path, parsed.error().message);
      time = *parsed;
      return Ok();
    }
    if (type.name == kFieldsV1Type) {
      if (!json.is_null()) target.As<GoRawJson>().raw = RawJsonValue(json);
      else target.As<GoRawJson>();
      return Ok();
    }
    return Fatal(json, path, "tjrender: no typed round trip for custom JSON type " + type.name);
  }
};

}  // namespace

std::optional<Diagnostic> Unmarshal(const doc::Node& json, const schema::Type& type, GoValue* out) {
  return Decoder().Run(json, type, nullptr, out);
}

std::optional<Diagnostic> Unmarshal(const doc::Node& json, const schema::Type& type,
                                    const UnmarshalOptions& options, GoValue* out) {
  return Decoder(options).Run(json, type, nullptr, out);
}

std::optional<Diagnostic> Unmarshal(const doc::Node& json, const schema::Type& type,
                                    const doc::Node& typed_base, GoValue* out) {
  return Decoder().Run(json, type, &typed_base, out);
}

}  // namespace tjr::typed
