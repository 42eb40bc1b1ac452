#pragma once

#include <memory>
#include <optional>
#include <regex>
#include <span>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "base/diagnostic.h"
#include "doc/node.h"
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
  std::shared_ptr<const std::regex> regex;  ///< `pattern` compiled once (RE2's syntax subset std::regex shares)
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
  /// pruning keeps nothing.
  std::vector<std::string> properties;
  bool prunes = false;
  std::string source;  ///< CRD file:line
};

/// A CRD's table, by schema path ("spec.runtimePatches[*].manager";
/// `{*}` for a map's values).
class CrdRules {
 public:
  /// Parses a tjrender-crd-validation/v1 document; an unknown CEL form or
  /// a malformed entry is an error.
  static Result<CrdRules> Parse(std::string_view json_text, std::string_view source_name);

  const NodeRules* Find(const std::string& schema_path) const;
  /// True when some rule lies at or below `schema_path`.
  bool Reaches(const std::string& schema_path) const { return prefixes_.count(schema_path) != 0; }

 private:
  std::unordered_map<std::string, NodeRules> rules_;
  std::unordered_set<std::string> prefixes_;
};

/// The built-in TrainJob table of `version` (v2.2.0's CRD; v2.2.1's has the
/// same rules). Never nullptr unless the embedded table is broken.
const CrdRules* BuiltinCrdRules(render::TrainerVersion version);
/// The built-in table of `version`'s TrainingRuntime CRD, which the
/// ClusterTrainingRuntime CRD shares (the generator checks it).
const CrdRules* BuiltinRuntimeCrdRules(render::TrainerVersion version);

/// tjrender's warning rule for fields the API server prunes.
inline constexpr std::string_view kRuleFieldPruned = "field-pruned";

/// A `[field-pruned]` warning for every key below the root that the schema
/// of `rules` does not have: the API server drops it silently. `schema_name`
/// names the schema in the message ("Trainer v2.3.0 TrainJob"); field paths
/// in `reported_elsewhere` (and what is below them) are left out.
void CheckPrunedFields(const CrdRules& rules, const doc::Node& object, std::string_view schema_name,
                       std::span<const std::string_view> reported_elsewhere, Report* report);

/// The OpenAPI type and enum checks alone (kube-openapi's type and common
/// validators), for the v2.1 TrainJob whose other rules are schema_rules.cc.
void CheckTypes(const CrdRules& rules, const doc::Node& object, Report* report);

/// What the API server checks before the CEL rules, in its order: the
/// OpenAPI schema (type, enum and the other constraints), then list-map
/// and list-set uniqueness.
void CheckCrdSchema(const CrdRules& rules, const doc::Node& object, DuplicateStyle style, Report* report);

/// The CEL rules of the table (transition rules against `old`, the stored
/// object, or none on create).
void CheckCrdCel(const CrdRules& rules, const doc::Node& object, const doc::Node* old, Report* report);

/// apiextensions-apiserver's customResourceStrategy.Validate runs the CEL
/// rules only when no error so far is Unsupported, Required, Too long, Too
/// many or a type error (hasBlockingErr); otherwise it adds this error at
/// the root instead. Returns whether the CEL rules may run.
bool CelMayRun(const doc::Node& object, Report* report);

/// CheckPrunedFields (for the TrainJob: `spec.podTemplateOverrides`,
/// `spec.labels` and `spec.annotations` are left to CheckRemovedFields),
/// CheckCrdSchema, then CheckCrdCel when CelMayRun.
void CheckCrdRules(const CrdRules& rules, const doc::Node& trainjob, const doc::Node* old, DuplicateStyle style,
                   std::string_view release_tag, Report* report);

}  // namespace tjr::validate
