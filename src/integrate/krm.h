#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "base/diagnostic.h"
#include "doc/node.h"
#include "report/finding.h"

// The KRM function protocol (kustomize's functions-spec.md, apiVersion
// config.kubernetes.io/v1): a ResourceList in, a ResourceList with the
// items and structured `results` out.
namespace tjr::integrate {

struct ResourceList {
  std::string api_version = "config.kubernetes.io/v1";
  std::vector<doc::Node> items;
  doc::Node function_config;  ///< null when absent
};

/// Reads a ResourceList (YAML or JSON; v1 or v1beta1). Anything else
/// (another kind, no `items` list, several documents) is an input error.
Result<ResourceList> ReadResourceList(std::string_view text, std::string_view source_name);

/// Where an item came from, from its annotations: `internal.config.kubernetes.io/path`
/// (else the legacy `config.kubernetes.io/path`) and the matching `index`;
/// empty / -1 when absent.
std::string ItemPath(const doc::Node& item);
long ItemIndex(const doc::Node& item);

/// A string value of `functionConfig`: `data.<key>` of a ConfigMap (what
/// `kpt fn eval -- key=value` builds) or `spec.<key>` of a typed config.
std::string FunctionConfigValue(const ResourceList& list, std::string_view key);

/// The output ResourceList: `items` as given and one `results` entry per
/// finding (severity error|warning|info, message, resourceRef, field.path,
/// file.path and file.index from the item the finding is about).
std::string WriteResourceList(const ResourceList& list, const std::vector<report::Finding>& findings);

}  // namespace tjr::integrate
