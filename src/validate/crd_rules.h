#pragma once

#include <memory>
#include <optional>
#include <regex>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "base/diagnostic.h"
#include "doc/node.h"
#include "validate/report.h"
#include "validate/validate.h"

// The API server's checks of a TrainJob from Trainer v2.2.0 on, driven by
// the table scripts/gen-crd-validation extracts from the release's CRD
// (policies/trainer-v2.2.0-validation.json, trainer-v2.3.0-validation.json):
// the OpenAPI constraints (required, minLength, maxLength, minItems,
// maxItems, minimum, maximum), list-map uniqueness, and the CEL rules,
// transition rules included. Messages are apiextensions-apiserver's
// (Kubernetes 1.34+: field.TooLong, field.TooMany, kube-openapi's
// "in body should ..." texts, CEL failures as `Invalid value: "<type>"`).
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
  std::string type;  ///< the OpenAPI type ("object", "array", "string", "integer")
  std::vector<std::string> required;
  std::optional<std::int64_t> min_length, max_length, min_items, max_items, minimum, maximum;
  std::string format;     ///< "date-time" or ""
  std::string list_type;  ///< "map", "set" or ""
  std::vector<std::string> list_map_keys;
  std::vector<CelRule> cel;
  /// An object's properties: what structural pruning keeps (empty for
  /// maps and scalars).
  std::vector<std::string> properties;
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

/// The built-in table of `version` (v2.2.0's CRD; v2.2.1's has the same
/// rules); nullptr for v2.1, whose rules are schema_rules.cc.
const CrdRules* BuiltinCrdRules(render::TrainerVersion version);

/// tjrender's warning rule for fields the API server prunes.
inline constexpr std::string_view kRuleFieldPruned = "field-pruned";

/// Checks `trainjob` (and, for the transition rules, the stored `old`)
/// against `rules` in the API server's order: OpenAPI constraints, list
/// uniqueness, CEL. Before them, a `[field-pruned]` warning for every key
/// under `spec` that the schema does not have (the API server drops it
/// silently, kubectl only prints `unknown field`); `spec.podTemplateOverrides`,
/// `spec.labels` and `spec.annotations` are left to CheckRemovedFields.
void CheckCrdRules(const CrdRules& rules, const doc::Node& trainjob, const doc::Node* old, DuplicateStyle style,
                   std::string_view release_tag, Report* report);

}  // namespace tjr::validate
