#pragma once

#include <deque>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "base/diagnostic.h"
#include "doc/node.h"

namespace tjr::schema {

struct Field;

/// A Go type as encoding/json and apimachinery's strategic merge patch see
/// it (reflect kinds). Pointers are transparent: a field of type `*T` has
/// type T and `Field::pointer` set.
struct Type {
  enum class Kind {
    kStruct,
    kSlice,
    kMap,
    kString,
    kInt,
    kFloat,
    kBool,
    /// Types with their own MarshalJSON (resource.Quantity, intstr.IntOrString,
    /// metav1.Time, runtime.RawExtension...): a scalar or free-form JSON value
    /// on the wire, but reflect.Struct to strategic merge patch.
    kCustomJson,
    /// interface{} / json.RawMessage-like free-form values.
    kAny,
  };

  std::string name;  ///< "k8s.io/api/core/v1.Volume", "[]string", "map[string]string", "string"
  Kind kind = Kind::kString;
  const Type* elem = nullptr;   ///< kSlice, kMap: the element type
  std::vector<Field> fields;    ///< kStruct: inline (embedded) fields flattened, source order
  std::string source;           ///< provenance, "k8s.io/api/core/v1/types.go:4096"
  const Type* key = nullptr;    ///< kMap: the key type
  /// kStruct: the +structType marker ("atomic"); server-side apply reads it,
  /// strategic merge patch does not.
  std::string struct_type;

  /// kStruct: the field with exactly this JSON name, or nullptr.
  const Field* FindField(std::string_view json_name) const;

  /// kStruct: the field strategic merge patch uses for the patch key `key`:
  /// the exact match, or else the first field (in source order) whose name
  /// equals `key` under encoding/json's case folding, as apimachinery's
  /// LookupPatchMetadataForStruct does. nullptr when none matches.
  const Field* LookupPatchField(std::string_view key) const;
};

/// One struct field with the tags strategic merge patch reads.
struct Field {
  std::string json_name;
  const Type* type = nullptr;
  bool omitempty = false;
  bool pointer = false;
  std::vector<std::string> patch_strategies;  ///< struct tag, split on ','
  std::string patch_merge_key;
  std::string list_type;                      ///< +listType marker
  std::vector<std::string> list_map_keys;
  std::string map_type;
  std::string source;  ///< provenance, "k8s.io/api/core/v1/types.go:4096"
  bool omitzero = false;  ///< json tag option (Go 1.24 encoding/json)
};

/// The field of `fields` encoding/json decodes the JSON key `key` into: the
/// one named exactly `key`, or else the first (in source order) whose name
/// equals `key` under its case folding (gocompat::JsonNameEqualFold).
/// nullptr when none matches. Type::LookupPatchField over a field list.
const Field* MatchJsonField(const std::vector<Field>& fields, std::string_view key);

/// All Go types of one set of upstream API versions (for example Kubernetes
/// 1.34 together with JobSet v0.10.1), loaded from policies/ data.
class Schema {
 public:
  Schema() = default;
  Schema(const Schema&) = delete;
  Schema& operator=(const Schema&) = delete;
  Schema(Schema&&) = default;
  Schema& operator=(Schema&&) = default;

  const Type* FindType(std::string_view name) const;
  /// The root type for an object of this apiVersion/kind, or nullptr.
  const Type* ForKind(std::string_view api_version, std::string_view kind) const;
  /// Human-readable provenance of every policy file this schema was built from.
  const std::vector<std::string>& provenance() const { return provenance_; }
  /// Every type, named ones and the composite/builtin ones fields use.
  const std::deque<Type>& types() const { return types_; }
  /// The kind table: "apiVersion/Kind" ("batch/v1/Job") -> root type.
  const std::map<std::string, const Type*, std::less<>>& kinds() const { return by_kind_; }

 private:
  friend class SchemaBuilder;
  std::deque<Type> types_;  // stable addresses
  std::map<std::string, const Type*, std::less<>> by_name_;
  std::map<std::string, const Type*, std::less<>> by_kind_;  // "apiVersion/Kind"
  std::vector<std::string> provenance_;
};

/// Names of the built-in policy sets, e.g. "kubernetes-v1.34",
/// "jobset-v0.10.1"; they are compiled into the binary from policies/.
std::vector<std::string> BuiltinPolicyNames();

/// Builds a schema from built-in policy sets; sets may refer to each other's
/// types (JobSet refers to core/v1), so a JobSet set needs a Kubernetes set
/// beside it. Each distinct list of names is built once and cached for the
/// life of the process (thread-safe); the pointer stays valid.
Result<const Schema*> BuiltinSchema(const std::vector<std::string>& policy_names);

/// Builds a schema from policy documents (the JSON data in policies/, format
/// described in policies/README.md). Type references are linked across all
/// documents, so their order does not matter; a reference no document
/// defines, a type two documents define, or a malformed entry is an error.
Result<Schema> LoadSchema(const std::vector<doc::Node>& policy_documents);

}  // namespace tjr::schema
