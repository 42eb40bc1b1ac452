#pragma once

#include "explain/explain.h"

// The terminal colours of the layer kinds, one palette for every format
// that colours a value by who wrote it.
namespace tjr::explain {

/// The ANSI SGR sequence for text a layer of `kind` wrote: eight colours,
/// one per group of kinds that play the same part (the template as written,
/// defaults, the typed round trip, the user's overrides and patches,
/// plugins, the controller's builder, Flyte's templates, Flyte's task and
/// execution).
const char* LayerColour(LayerKind kind);

/// Ends a coloured run.
inline constexpr const char kColourReset[] = "\033[0m";

}  // namespace tjr::explain
