#pragma once

#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "base/diagnostic.h"
#include "doc/node.h"
#include "gocompat/regexp.h"
#include "schema/schema.h"
#include "validate/report.h"
#include "validate/validate.h"

// The API server's checks of a Trainer object, driven by the table
// scripts/gen-crd-validation extracts from the release's CRD
// (policies/trainer-v2.{1,2,3}.0-validation.json for TrainJobs,
// trainer-v2.{1,2,3}.0-runtime-validation.json for TrainingRuntimes and
// ClusterTrainingRuntimes): structural pruning, the OpenAPI checks (type,
// enum, required, minLength, maxLength, minItems, maxItems, minimum,
// maximum, minProperties), list-map uniqueness, and the CEL rules,
// transition rules included. Messages are apiextensions-apiserver's
// (Kubernetes 1.34+: field.TooLong, field.TooMany, kube-openapi's
// "in body should ..." and "in body must be of type ..." texts, CEL
// failures as `Invalid value: "<type>"`).
namespace tjr::validate {

/// One CEL rule of a form the table may hold (see scripts/gen-crd-validation).
struct CelRule {
  enum class Form { kImmutable, kEmptyOrMatches, kIn, kAtLeast, kNameMatches, kNameSizeAtMost };
  Form form = Form::kImmutable;
  std::string rule;
  std::string message;
  std::string pattern;              ///< kEmptyOrMatches, kNameMatches
  std::shared_ptr<const gocompat::Regexp> regex;  ///< `pattern` compiled once, as cel-go compiles it (Go regexp)
  std::vector<std::string> values;  ///< kIn
  std::int64_t bound = 0;           ///< kAtLeast, kNameSizeAtMost
};

/// The constraints of one schema node.
struct NodeRules {
  std::string type;  ///< the OpenAPI type ("object", "array", "string", "integer", "number", "boolean")
  bool int_or_string = false;  ///< x-kubernetes-int-or-string (`type` is empty)
  std::vector<std::string> required;
  std::optional<std::int64_t> min_length, max_length, min_items, max_items, minimum, maximum, min_properties;
  std::optional<std::vector<std::string>> enum_values;
  /// "date-time" (strings), "int32"/"int64" (integers), "float"/"double"
  /// (numbers), or "": what the API server keeps of the schema's format.
  std::string format;
  std::string list_type;  ///< "map", "set" or ""
  std::vector<std::string> list_map_keys;
  std::vector<CelRule> cel;
  /// An object's properties: what structural pruning keeps. Only for an
  /// object without additionalProperties (`prunes`); may be empty, when
  /// pruning keeps nothing. Shortest first, then by bytes (see Keeps).
  std::vector<std::string> properties;
  bool prunes = false;
  /// Whether `key` is one of `properties`.
  bool Keeps(std::string_view key) const;
  std::string source;  ///< CRD file:line
};

/// One node of a CRD's schema as its table describes it: the rules at that
/// schema path, if any, and the nodes below it that lead to rules. Walking
/// an object follows these pointers beside the data.
class SchemaNode {
 public:
  /// The rules at this node; nullptr when the table has none here.
  const NodeRules* rules() const { return rules_ ? &*rules_ : nullptr; }
  /// A struct field's node (`.key`); nullptr when no rule lies at or below it.
  const SchemaNode* Property(std::string_view key) const;
  /// A list's items (`[*]`) and a map's values (`{*}`); nullptr likewise.
  const SchemaNode* item() const { return item_.get(); }
  const SchemaNode* value() const { return value_.get(); }
  /// The node of a mapping's entry `key`: the struct field of that name,
  /// else the map's value; nullptr when neither leads to a rule.
  const SchemaNode* Child(std::string_view key) const {
    const SchemaNode* field = Property(key);
    return field != nullptr ? field : value();
  }
  /// True when a CEL rule lies at or below this node.
  bool reaches_cel() const { return reaches_cel_; }

 private:
  friend class CrdRules;
  /// After the last rule is added: sorts the properties, sets reaches_cel.
  void Seal();
  struct Field {
    std::string key;
    std::unique_ptr<SchemaNode> node;
  };
  std::optional<NodeRules> rules_;
  std::vector<Field> properties_;  ///< shortest key first, then by bytes
  std::unique_ptr<SchemaNode> item_, value_;
  bool reaches_cel_ = false;
};

/// A CRD's table: the rules by schema path ("spec.runtimePatches[*].manager";
/// `{*}` for a map's values), compiled at load into a tree of SchemaNodes.
class CrdRules {
 public:
  /// Parses a tjrender-crd-validation/v1 document; an unknown CEL form, a
  /// malformed path or entry, or a path given twice is an error.
  static Result<CrdRules> Parse(std::string_view json_text, std::string_view source_name);

  /// The object's root node (path "").
  const SchemaNode& root() const { return *root_; }
  /// The rules at `schema_path`, or nullptr.
  const NodeRules* Find(std::string_view schema_path) const;
  /// The shallowest object below the root that has a property `key`, as a
  /// schema path ("spec", "spec.template.spec.replicatedJobs[*]"; the first
  /// in the table's order among equally deep ones), or nullopt: where a
  /// field misplaced at the top level probably belongs.
  std::optional<std::string> ShallowestOwnerOf(std::string_view key) const;

 private:
  std::unique_ptr<SchemaNode> root_ = std::make_unique<SchemaNode>();
};

/// The built-in TrainJob table of `version` (v2.2.0's CRD; v2.2.1's has the
/// same rules). Never nullptr unless the embedded table is broken.
const CrdRules* BuiltinCrdRules(trainer::TrainerVersion version);
/// The built-in table of `version`'s TrainingRuntime CRD, which the
/// ClusterTrainingRuntime CRD shares (the generator checks it).
const CrdRules* BuiltinRuntimeCrdRules(trainer::TrainerVersion version);

/// tjrender's warning rule for fields the API server prunes.
inline constexpr std::string_view kRuleFieldPruned = "field-pruned";

/// tjrender's error rule for integers the API server stores but the
/// controller's Go types cannot hold.
inline constexpr std::string_view kRuleGoIntRange = "go-int-range";

/// Which of a table's OpenAPI checks CheckCrdSchema runs.
enum class SchemaChecks {
  kTypes,  ///< the type and enum checks alone (kube-openapi's type and common validators)
  kAll,    ///< the whole OpenAPI schema, then list-map and list-set uniqueness
};

/// How CheckCrdSchema reports fields the API server prunes.
struct PruneOptions {
  std::string_view schema_name;  ///< names the schema in the message ("Trainer v2.3.0 TrainJob")
  /// Field paths (and what is below them) left out: reported elsewhere.
  std::span<const std::string_view> reported_elsewhere;
  /// metav1.ObjectMeta of the release's Kubernetes types, or nullptr: the
  /// root `metadata` of the table lists no properties, so a top-level
  /// `name` or `labels` is placed under `metadata` from these fields.
  const schema::Type* object_meta = nullptr;
};

/// What the API server checks before the CEL rules, in its order, from one
/// walk of the object: a `[field-pruned]` warning for every key the schema
/// does not have, top level included (the API server drops it silently;
/// apiVersion, kind, metadata and status are always kept there),
/// then the OpenAPI checks (`checks`), then list uniqueness (kAll).
void CheckCrdSchema(const CrdRules& rules, const doc::Node& object, const PruneOptions& prune, SchemaChecks checks,
                    DuplicateStyle style, Report* report);

/// The CEL rules of the table (transition rules against `old`, the stored
/// object, or none on create).
void CheckCrdCel(const CrdRules& rules, const doc::Node& object, const doc::Node* old, Report* report);

/// What the API server accepts but the controller cannot decode: an integer
/// outside int32 in a field whose schema says `format: int32` (a Go int32
/// field). `controller` names the decoder in the message ("the Trainer
/// v2.3.0 controller"). One `go-int-range` error per value.
void CheckGoIntRanges(const CrdRules& rules, const doc::Node& object, std::string_view controller, Report* report);

/// apiextensions-apiserver's customResourceStrategy.Validate runs the CEL
/// rules only when no error so far is Unsupported, Required, Too long, Too
/// many or a type error (hasBlockingErr); otherwise it adds this error at
/// the root instead. Returns whether the CEL rules may run.
bool CelMayRun(const doc::Node& object, Report* report);

/// CheckCrdSchema with SchemaChecks::kAll (pruning leaves
/// `spec.podTemplateOverrides`, `spec.labels` and `spec.annotations` of the
/// TrainJob to CheckRemovedFields), then CheckCrdCel when CelMayRun.
void CheckCrdRules(const CrdRules& rules, const doc::Node& trainjob, const doc::Node* old, DuplicateStyle style,
                   std::string_view release_tag, Report* report, const schema::Type* object_meta = nullptr);

}  // namespace tjr::validate
