#pragma once

#include "base/diagnostic.h"
#include "doc/node.h"
#include "flyte/config.h"

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

/// Rewrites `container`'s `resources` (Go form). Errors: a quantity that
/// does not parse.
Status CustomizeResources(doc::Node* container, ResourceMode mode, const ResourceInputs& inputs);

/// ExtractContainerResourcesFromPodTemplate: the resources of the template
/// container named `name`, else of "primary" ("primary-init"), else of
/// "default" ("default-init"); null when there is none.
doc::Node TemplateResources(const doc::Node& template_spec, const std::string& name, bool init);

}  // namespace tjr::flyte
