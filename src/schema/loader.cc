// Builds a Schema from tjrender-policy/v1 documents (policies/README.md).

#include <cstddef>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "schema/policy_object.h"
#include "schema/schema.h"

namespace tjr::schema {
namespace {

constexpr std::string_view kFormat = "tjrender-policy/v1";

bool ParseKind(std::string_view text, Type::Kind* kind) {
  static constexpr std::pair<std::string_view, Type::Kind> kKinds[] = {
      {"struct", Type::Kind::kStruct}, {"slice", Type::Kind::kSlice},
      {"map", Type::Kind::kMap},       {"string", Type::Kind::kString},
      {"int", Type::Kind::kInt},       {"float", Type::Kind::kFloat},
      {"bool", Type::Kind::kBool},     {"customJson", Type::Kind::kCustomJson},
      {"any", Type::Kind::kAny},
  };
  for (const auto& [name, value] : kKinds) {
    if (name == text) {
      *kind = value;
      return true;
    }
  }
  return false;
}

// Go builtin types a policy may name directly.
bool BuiltinKind(std::string_view name, Type::Kind* kind) {
  static constexpr std::string_view kInts[] = {"int",  "int8",  "int16",  "int32",  "int64",
                                               "uint", "uint8", "uint16", "uint32", "uint64"};
  if (name == "string") {
    *kind = Type::Kind::kString;
  } else if (name == "bool") {
    *kind = Type::Kind::kBool;
  } else if (name == "float32" || name == "float64") {
    *kind = Type::Kind::kFloat;
  } else if (name == "any") {
    *kind = Type::Kind::kAny;
  } else {
    for (std::string_view int_name : kInts) {
      if (name == int_name) {
        *kind = Type::Kind::kInt;
        return true;
      }
    }
    return false;
  }
  return true;
}

bool IsComposite(std::string_view expr) {
  return expr.starts_with("[]") || expr.starts_with("map[");
}

bool IsAscii(std::string_view text) {
  for (char c : text) {
    if (static_cast<unsigned char>(c) >= 0x80) return false;
  }
  return true;
}

std::vector<std::string> SplitStrategies(const std::string& tag) {
  std::vector<std::string> out;
  if (tag.empty()) return out;
  std::size_t start = 0;
  while (true) {
    std::size_t comma = tag.find(',', start);
    out.push_back(tag.substr(start, comma - start));
    if (comma == std::string::npos) return out;
    start = comma + 1;
  }
}

}  // namespace

/// Collects the types of several policy documents, then links the type
/// expressions of fields once every document is in.
class SchemaBuilder {
 public:
  Status Add(const doc::Node& document);
  Result<Schema> Finish() &&;

 private:
  struct PendingType {
    Type* type;
    doc::Node entry;
    std::string document;
  };
  struct PendingName {
    std::string key;  // "apiVersion/Kind", or the external type name
    std::string type_name;
    Location at;
    std::string document;
  };

  Type& NewType(std::string name, Type::Kind kind);
  Status AddType(const std::string& name, const doc::Node& entry, const Location& key_at,
                 const std::string& document);
  Result<const Type*> Resolve(std::string_view expr, const Location& at, const std::string& context);
  Status FillStruct(Type& type, const doc::Node& entry);
  Status FillNamed(Type& type, const doc::Node& entry);
  Status ReadField(const doc::Node& node, const std::string& owner, Field* field);

  Schema schema_;
  std::set<std::string, std::less<>> documents_;
  std::map<std::string, std::string, std::less<>> defined_in_;  // type name -> policy set
  std::vector<PendingType> pending_types_;
  std::vector<PendingName> pending_kinds_;
  std::vector<PendingName> externals_;
};

Type& SchemaBuilder::NewType(std::string name, Type::Kind kind) {
  Type& type = schema_.types_.emplace_back();
  type.name = std::move(name);
  type.kind = kind;
  schema_.by_name_.emplace(type.name, &type);
  return type;
}

Status SchemaBuilder::Add(const doc::Node& document) {
  PolicyObject top(document, "policy document");
  const std::string format = top.String("format");
  const std::string name = top.String("name");
  const doc::Node* provenance = top.Child("provenance", doc::Kind::kMapping);
  const doc::Node* kinds = top.Child("kinds", doc::Kind::kSequence);
  const doc::Node* external = top.Child("external", doc::Kind::kSequence, /*required=*/false);
  const doc::Node* types = top.Child("types", doc::Kind::kMapping);
  if (Status status = top.Finish(); !status) return status;
  if (format != kFormat) {
    return MakeError(document.location(), "",
                     "policy format \"" + format + "\" is not " + std::string(kFormat));
  }
  if (!documents_.insert(name).second) {
    return MakeError(document.location(), "", "policy set " + name + " is given twice");
  }

  Result<std::string> summary = SummarizeProvenance(name, *provenance);
  if (!summary) return summary.take_error();
  schema_.provenance_.push_back(std::move(summary.value()));

  for (const doc::Node& row : kinds->items()) {
    PolicyObject kind(row, name + " kind");
    std::string api_version = kind.String("apiVersion");
    std::string kind_name = kind.String("kind");
    std::string type_name = kind.String("type");
    kind.Allow("synthesized");
    if (Status status = kind.Finish(); !status) return status;
    pending_kinds_.push_back(
        {api_version + "/" + kind_name, std::move(type_name), row.location(), name});
  }
  if (external != nullptr) {
    for (const doc::Node& item : external->items()) {
      if (!item.is_string()) {
        return MakeError(item.location(), "", name + ": external entries must be type names");
      }
      externals_.push_back({item.string_value(), item.string_value(), item.location(), name});
    }
  }
  for (const doc::Field& field : types->fields()) {
    if (Status status = AddType(field.key, field.value, field.key_location, name); !status) {
      return status;
    }
  }
  return Ok();
}

Status SchemaBuilder::AddType(const std::string& name, const doc::Node& entry,
                              const Location& key_at, const std::string& document) {
  Type::Kind builtin;
  if (name.empty() || IsComposite(name) || BuiltinKind(name, &builtin)) {
    return MakeError(key_at, "", document + ": \"" + name + "\" cannot name a defined type");
  }
  if (auto [it, added] = defined_in_.emplace(name, document); !added) {
    return MakeError(key_at, "", document + ": type " + name + " is already defined by " +
                                     (it->second == document ? "this policy set" : it->second));
  }
  const doc::Node* kind_node = entry.is_mapping() ? entry.Find("kind") : nullptr;
  Type::Kind kind;
  if (kind_node == nullptr || !kind_node->is_string() ||
      !ParseKind(kind_node->string_value(), &kind)) {
    return MakeError(entry.location(), "", document + ": type " + name + " needs a valid \"kind\"");
  }
  Type& type = NewType(name, kind);
  pending_types_.push_back({&type, entry, document});
  return Ok();
}

Result<const Type*> SchemaBuilder::Resolve(std::string_view expr, const Location& at,
                                           const std::string& context) {
  if (const Type* found = schema_.FindType(expr)) return found;
  Type::Kind kind;
  if (BuiltinKind(expr, &kind)) return &NewType(std::string(expr), kind);
  if (expr.starts_with("[]")) {
    Result<const Type*> elem = Resolve(expr.substr(2), at, context);
    if (!elem) return elem;
    Type& slice = NewType(std::string(expr), Type::Kind::kSlice);
    slice.elem = elem.value();
    return &slice;
  }
  if (expr.starts_with("map[")) {
    // Keys are type names or builtins, so the first ']' closes the key.
    std::size_t close = expr.find(']');
    if (close == std::string_view::npos || close == 4) {
      return MakeError(at, "", context + ": malformed map type \"" + std::string(expr) + "\"");
    }
    Result<const Type*> key = Resolve(expr.substr(4, close - 4), at, context);
    if (!key) return key;
    if (key.value()->kind != Type::Kind::kString) {
      return MakeError(at, "", context + ": map key type " + key.value()->name +
                                   " is not a string type");
    }
    Result<const Type*> elem = Resolve(expr.substr(close + 1), at, context);
    if (!elem) return elem;
    Type& map = NewType(std::string(expr), Type::Kind::kMap);
    map.key = key.value();
    map.elem = elem.value();
    return &map;
  }
  return MakeError(at, "", context + " refers to type \"" + std::string(expr) +
                               "\", which no loaded policy set defines");
}

Status SchemaBuilder::ReadField(const doc::Node& node, const std::string& owner, Field* field) {
  PolicyObject object(node, owner + " field");
  field->json_name = object.String("name");
  const std::string type_expr = object.String("type");
  field->pointer = object.Bool("pointer");
  field->omitempty = object.Bool("omitempty");
  field->omitzero = object.Bool("omitzero");
  field->patch_strategies = SplitStrategies(object.String("patchStrategy", false));
  field->patch_merge_key = object.String("patchMergeKey", false);
  field->list_type = object.String("listType", false);
  field->list_map_keys = object.Strings("listMapKeys");
  field->map_type = object.String("mapType", false);
  field->source = object.String("source");
  object.Allow("promotedFrom");
  if (Status status = object.Finish(); !status) return status;
  const std::string context = owner + " field \"" + field->json_name + "\"";
  if (field->json_name.empty() || !IsAscii(field->json_name)) {
    return MakeError(node.location(), "", owner + ": field names must be non-empty ASCII");
  }
  Result<const Type*> type = Resolve(type_expr, node.location(), context);
  if (!type) return type.take_error();
  field->type = type.value();
  return Ok();
}

Status SchemaBuilder::FillStruct(Type& type, const doc::Node& entry) {
  PolicyObject object(entry, "type " + type.name);
  object.String("kind");
  type.source = object.String("source");
  type.struct_type = object.String("structType", false);
  const doc::Node* fields = object.Child("fields", doc::Kind::kSequence);
  object.Allow("synthesized");
  object.Allow("mapType");
  if (Status status = object.Finish(); !status) return status;
  type.fields.resize(fields->size());
  std::set<std::string, std::less<>> seen;
  for (std::size_t i = 0; i < fields->size(); ++i) {
    if (Status status = ReadField((*fields)[i], type.name, &type.fields[i]); !status) return status;
    if (!seen.insert(type.fields[i].json_name).second) {
      return MakeError((*fields)[i].location(), "",
                       type.name + ": field \"" + type.fields[i].json_name + "\" appears twice");
    }
  }
  return Ok();
}

Status SchemaBuilder::FillNamed(Type& type, const doc::Node& entry) {
  PolicyObject object(entry, "type " + type.name);
  object.String("kind");
  type.source = object.String("source");
  std::string underlying;
  if (type.kind != Type::Kind::kCustomJson) underlying = object.String("underlying");
  object.Allow("synthesized");
  object.Allow("listType");
  object.Allow("mapType");
  if (Status status = object.Finish(); !status) return status;
  if (type.kind == Type::Kind::kCustomJson) return Ok();
  Type::Kind builtin;
  if (!IsComposite(underlying) && !BuiltinKind(underlying, &builtin)) {
    return MakeError(entry.location(), "", "type " + type.name +
                                               ": underlying must be a builtin or composite "
                                               "type, not \"" + underlying + "\"");
  }
  Result<const Type*> resolved = Resolve(underlying, entry.location(), "type " + type.name);
  if (!resolved) return resolved.take_error();
  if (resolved.value()->kind != type.kind) {
    return MakeError(entry.location(), "",
                     "type " + type.name + ": kind does not match underlying " + underlying);
  }
  type.elem = resolved.value()->elem;
  type.key = resolved.value()->key;
  return Ok();
}

Result<Schema> SchemaBuilder::Finish() && {
  for (PendingType& pending : pending_types_) {
    Status status = pending.type->kind == Type::Kind::kStruct
                        ? FillStruct(*pending.type, pending.entry)
                        : FillNamed(*pending.type, pending.entry);
    if (!status) return status.take_error();
  }
  for (const PendingName& external : externals_) {
    if (schema_.FindType(external.type_name) == nullptr) {
      return MakeError(external.at, "",
                       external.document + " needs external type " + external.type_name +
                           ", which no loaded policy set defines");
    }
  }
  for (const PendingName& kind : pending_kinds_) {
    const Type* root = schema_.FindType(kind.type_name);
    if (root == nullptr || root->kind != Type::Kind::kStruct) {
      return MakeError(kind.at, "", kind.document + ": kind " + kind.key +
                                        " names no struct type (" + kind.type_name + ")");
    }
    if (!schema_.by_kind_.emplace(kind.key, root).second) {
      return MakeError(kind.at, "", kind.document + ": kind " + kind.key +
                                        " is already defined by another policy set");
    }
  }
  return std::move(schema_);
}

Result<Schema> LoadSchema(const std::vector<doc::Node>& policy_documents) {
  SchemaBuilder builder;
  for (const doc::Node& document : policy_documents) {
    if (Status status = builder.Add(document); !status) return status.take_error();
  }
  return std::move(builder).Finish();
}

}  // namespace tjr::schema
