#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "base/diagnostic.h"
#include "doc/node.h"
#include "integrate/item_origin.h"
#include "report/finding.h"
#include "yaml/reader_spans.h"

// The KRM function protocol (kustomize's functions-spec.md, apiVersion
// config.kubernetes.io/v1): a ResourceList in, a ResourceList with the
// items and structured `results` out.
namespace tjr::integrate {

struct ResourceList {
  std::string api_version = "config.kubernetes.io/v1";
  /// Locations are lines of `text`; FileLocation maps them to the items' files.
  std::vector<doc::Node> items;
  doc::Node function_config;  ///< null when absent
  /// The input, byte for byte, and where its parts lie: the output is this
  /// text with only the edited items and `results` changed.
  std::string text;
  std::string source_name;
  yaml::SpanNode spans;
  std::vector<ItemOrigin> origins;  ///< one per item
};

/// Reads a ResourceList (YAML or JSON; v1 or v1beta1). Anything else
/// (another kind, no `items` list, several documents) is an input error.
Result<ResourceList> ReadResourceList(std::string_view text, std::string_view source_name);

/// The item a finding is about: the one its location (as FileLocation
/// gives it) lies in, else the one with the finding's object's apiVersion,
/// kind, namespace and name; -1 when none.
long ItemOfFinding(const ResourceList& list, const Location& at, const report::ObjectRef& object);

/// Where an item came from, from its annotations: `internal.config.kubernetes.io/path`
/// (else the legacy `config.kubernetes.io/path`) and the matching `index`;
/// empty / -1 when absent.
std::string ItemPath(const doc::Node& item);
long ItemIndex(const doc::Node& item);

/// A string value of `functionConfig`: `data.<key>` of a ConfigMap (what
/// `kpt fn eval -- key=value` builds) or `spec.<key>` of a typed config.
std::string FunctionConfigValue(const ResourceList& list, std::string_view key);

/// One `results` entry per finding: severity (error, warning, info),
/// message (led by FILE:LINE:COL when the finding has a location), the
/// resourceRef and field.path, file.path and file.index of the item it is
/// about, tags.rule (and tags.line / tags.column when known). Findings keep
/// their locations as FindingsOutput shows them: already in the items'
/// files. A finding without an object takes the item it lies in.
doc::Node Results(const ResourceList& list, const std::vector<report::Finding>& findings);

}  // namespace tjr::integrate
