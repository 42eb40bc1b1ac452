#pragma once

#include <initializer_list>
#include <string>
#include <string_view>

#include "base/diagnostic.h"
#include "trainer/release.h"

namespace tjr::render {

/// The Flux plugin's go:embed templates of one Trainer release
/// (pkg/runtime/framework/plugins/flux/templates/), byte for byte, from
/// policies/flux-templates.json (scripts/gen-flux-templates).
struct FluxTemplates {
  std::string broker;      ///< broker.toml
  std::string entrypoint;  ///< entrypoint.sh
  std::string init;        ///< init.sh
};

/// The templates `version` uses (v2.2.0 or v2.3.0); an error for v2.1,
/// which has no Flux plugin, or when the embedded data is unreadable.
Result<const FluxTemplates*> LoadFluxTemplates(trainer::TrainerVersion version);

/// fmt.Sprintf for formats whose only verbs are %s and %%, as the templates
/// are: each %s takes the next argument; a missing one prints
/// "%!s(MISSING)" and unused ones "%!(EXTRA string=...)", as Go does.
std::string SprintfS(std::string_view format, std::initializer_list<std::string_view> args);

}  // namespace tjr::render
