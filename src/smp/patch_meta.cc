#include "smp/patch_meta.h"

#include "gocompat/type_name.h"
#include "smp/go_value.h"

namespace tjr::smp {
namespace {

using schema::Type;

bool IsStruct(const Type& type) {
  return type.kind == Type::Kind::kStruct || type.kind == Type::Kind::kCustomJson;
}

// reflect.Kind.String() of a non-pointer type.
std::string ReflectKindName(const Type& type) {
  switch (type.kind) {
    case Type::Kind::kStruct:
    case Type::Kind::kCustomJson: return "struct";
    case Type::Kind::kSlice: return "slice";
    case Type::Kind::kMap: return "map";
    case Type::Kind::kString: return "string";
    case Type::Kind::kBool: return "bool";
    case Type::Kind::kAny: return "interface";
    case Type::Kind::kInt:
    case Type::Kind::kFloat: {
      // Builtin numeric types name their kind; a named type (`type Foo int32`)
      // does not say which width it has, and int64 is by far the most common.
      static constexpr std::string_view kBuiltins[] = {
          "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64",
          "float32", "float64"};
      for (std::string_view builtin : kBuiltins) {
        if (type.name == builtin) return std::string(builtin);
      }
      return type.kind == Type::Kind::kInt ? "int64" : "float64";
    }
  }
  return "invalid";
}

const Type* NewScalar(std::string name, Type::Kind kind) {
  auto* type = new Type();  // lives for the process, like the tables below
  type->name = std::move(name);
  type->kind = kind;
  return type;
}

// Exported Go fields of custom-JSON types. encoding/json never uses them
// (the types marshal themselves), so the schema lists none, but the
// strategic merge lookup walks the Go struct and finds them:
// resource.Quantity embeds `Format`, intstr.IntOrString has `Type`,
// `IntVal` and `StrVal`, metav1.Duration embeds `time.Duration`. None has
// a json tag, so the Go name is the JSON name (matched case-insensitively).
const std::vector<schema::Field>& GoOnlyFields(const Type& type) {
  static const std::vector<schema::Field> kNone;
  if (type.kind != Type::Kind::kCustomJson || !type.fields.empty()) return type.fields;
  static const Type* const kString = NewScalar("string", Type::Kind::kString);
  static const Type* const kInt32 = NewScalar("int32", Type::Kind::kInt);
  static const Type* const kInt64 = NewScalar("int64", Type::Kind::kInt);
  const auto fields = [](std::initializer_list<std::pair<const char*, const Type*>> list) {
    std::vector<schema::Field> out;
    for (const auto& [name, field_type] : list) {
      schema::Field field;
      field.json_name = name;
      field.type = field_type;
      out.push_back(std::move(field));
    }
    return out;
  };
  static const std::vector<schema::Field> kQuantity = fields({{"Format", kString}});
  static const std::vector<schema::Field> kIntOrString =
      fields({{"Type", kInt64}, {"IntVal", kInt32}, {"StrVal", kString}});
  static const std::vector<schema::Field> kDuration = fields({{"Duration", kInt64}});
  if (type.name == "k8s.io/apimachinery/pkg/api/resource.Quantity") return kQuantity;
  if (type.name == "k8s.io/apimachinery/pkg/util/intstr.IntOrString") return kIntOrString;
  if (type.name == "k8s.io/apimachinery/pkg/apis/meta/v1.Duration") return kDuration;
  return kNone;
}

}  // namespace

std::string TypeRef::KindName() const {
  if (pointer) return "ptr";
  return type == nullptr ? "invalid" : ReflectKindName(*type);
}

LookupResult LookupPatchMetadataForStruct(const TypeRef& parent, std::string_view json_name) {
  const Type& type = *parent.type;
  if (!IsStruct(type)) {
    return LookupResult::Fail("merging an object in json but data type is not struct, instead is: " +
           ReflectKindName(type));
  }
  const schema::Field* found = schema::MatchJsonField(GoOnlyFields(type), json_name);
  if (found == nullptr) {
    return LookupResult::Fail("unable to find api field in struct " +
                              std::string(gocompat::GoTypeName(type.name)) + " for the json field " +
                              gocompat::Quote(json_name));
  }
  return PatchLookup{TypeRef{found->type, found->pointer},
                     PatchMeta{found->patch_strategies, found->patch_merge_key}};
}

LookupResult LookupPatchMetadataForSlice(const TypeRef& parent, std::string_view json_name) {
  LookupResult field = LookupPatchMetadataForStruct(parent, json_name);
  if (!field.ok()) return field;
  PatchLookup lookup = std::move(field).value();
  const Type& type = *lookup.type.type;
  if (lookup.type.pointer) {
    // *[]T yields T; a pointer to anything else yields the pointee itself.
    if (type.kind == Type::Kind::kSlice && type.elem != nullptr) {
      lookup.type = TypeRef{type.elem, false};
    } else {
      lookup.type.pointer = false;
    }
    return lookup;
  }
  if (type.kind != Type::Kind::kSlice) {
    return LookupResult::Fail("expected slice or array type, but got: " + parent.KindName());
  }
  if (type.elem == nullptr) {
    return LookupResult::Fail("schema error: slice type " + type.name + " has no element type");
  }
  if (type.elem->kind == Type::Kind::kSlice) return LookupResult::Fail("unexpected slice of slice");
  lookup.type = TypeRef{type.elem, false};
  return lookup;
}

}  // namespace tjr::smp
