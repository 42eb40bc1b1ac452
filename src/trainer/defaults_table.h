#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "base/diagnostic.h"
#include "doc/node.h"

namespace tjr::trainer {

/// One `default` of a CRD's structural schema, with where it was read.
struct CrdDefault {
  /// Schema path: `.`-separated properties, `[*]` for list items, `{*}` for
  /// additionalProperties ("spec.template.spec.replicatedJobs[*].replicas").
  std::string path;
  doc::Node value;
  /// "manifests/base/crds/trainer.kubeflow.org_trainingruntimes.yaml:892"
  /// (the file at the table's upstream tag and the line of `default:`).
  std::string source;
};

/// The part of a structural schema that leads to defaults. Structural
/// schemas never set both `properties` and `additionalProperties`, so a
/// mapping key is looked up in one or the other.
struct DefaultsNode {
  struct Property {
    std::string name;
    std::unique_ptr<DefaultsNode> node;
  };
  /// The default of the value this node describes, or null.
  const CrdDefault* default_value = nullptr;
  /// Properties with a default or with defaults below them, sorted by name.
  std::vector<Property> properties;
  std::unique_ptr<DefaultsNode> items;       ///< `[*]`
  std::unique_ptr<DefaultsNode> additional;  ///< `{*}`

  const DefaultsNode* Find(std::string_view name) const;
};

/// The defaults of one custom resource kind.
struct KindDefaults {
  std::string group;
  std::string version;
  std::string kind;
  std::string crd;  ///< the CRD file the defaults came from
  std::vector<std::unique_ptr<CrdDefault>> defaults;  ///< in table order
  DefaultsNode root;

  std::string api_version() const { return group + "/" + version; }
};

/// A tjrender-crd-defaults/v1 document (scripts/gen-crd-defaults).
class DefaultsTable {
 public:
  /// Reads a table; `source_name` names it in error locations.
  static Result<DefaultsTable> Parse(std::string_view json_text, std::string_view source_name);

  const std::string& name() const { return name_; }
  /// "github.com/kubeflow/trainer v2.1.0 (73c9bece741c)".
  const std::string& upstream() const { return upstream_; }
  const std::vector<std::unique_ptr<KindDefaults>>& kinds() const { return kinds_; }
  /// The kind with this apiVersion ("trainer.kubeflow.org/v1alpha1") and kind, or null.
  const KindDefaults* Find(std::string_view api_version, std::string_view kind) const;

 private:
  std::string name_;
  std::string upstream_;
  std::vector<std::unique_ptr<KindDefaults>> kinds_;
};

/// The built-in tables' names: the v2.1.0 CRDs, and HEAD's (runtimePatches
/// era; the v2.2/v2.3 targets).
inline constexpr std::string_view kV21DefaultsTable = "trainer-v2.1.0-defaults";
inline constexpr std::string_view kHeadDefaultsTable = "trainer-head-defaults";

/// A table compiled into the binary (policies/<name>.json), parsed once and
/// shared.
Result<const DefaultsTable*> BuiltinDefaults(std::string_view name);

}  // namespace tjr::trainer
