#pragma once

#include "base/diagnostic.h"
#include "doc/node.h"
#include "flyte/config.h"
#include "typed/quantity.h"

// Container resources, the path Flyte runs before the template merge
// (flytek8s/container_helper.go, AddFlyteCustomizationsToContainerWithPodTemplate).
namespace tjr::flyte {

enum class ResourceMode {
  /// Primary and init containers: node overrides overwrite, template keys
  /// fill gaps, cpu/memory (and ephemeral-storage, GPU when present) get a
  /// request and a limit, defaulted from the platform and clamped.
  kMergeExisting,
  /// Other containers: template keys fill gaps, values are only clamped; a
  /// missing cpu/memory is written back as "0".
  kEnsureInRange,
};

/// The inputs of the resource path besides the container.
struct ResourceInputs {
  const doc::Node* override_resources = nullptr;  ///< node override, Go form
  const doc::Node* platform_resources = nullptr;  ///< platform defaults/limits, Go form
  const doc::Node* template_resources = nullptr;  ///< ExtractContainerResourcesFromPodTemplate
  const PluginConfig* config = nullptr;
};

/// A quantity with the text it prints ("0" for Go's zero Quantity).
struct ResourceValue {
  typed::Quantity q;
  std::string text = "0";
};

/// A request and a limit of one resource.
struct ResourceRange {
  ResourceValue request, limit;
};

/// AdjustOrDefaultResource (flytek8s/container_helper.go:94-107): an unset
/// request takes the limit, else the platform default; an unset limit takes
/// the request; then EnsureResourceRange. flyteadmin calls the same function
/// when it launches an execution.
ResourceRange AdjustOrDefault(ResourceValue request, ResourceValue limit, const ResourceValue& platform_default,
                              const ResourceValue& platform_limit);

/// ensureResourceRange (container_helper.go:121-132): the request and the
/// limit lowered to the platform limit, the request to the limit (a zero
/// limit bounds nothing).
ResourceRange EnsureResourceRange(ResourceValue request, ResourceValue limit, const ResourceValue& platform_limit);

/// Rewrites `container`'s `resources` (Go form). Errors: a quantity that
/// does not parse.
Status CustomizeResources(doc::Node* container, ResourceMode mode, const ResourceInputs& inputs);

/// ExtractContainerResourcesFromPodTemplate: the resources of the template
/// container named `name`, else of "primary" ("primary-init"), else of
/// "default" ("default-init"); null when there is none.
doc::Node TemplateResources(const doc::Node& template_spec, const std::string& name, bool init);

}  // namespace tjr::flyte
