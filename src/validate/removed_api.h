#pragma once

#include "base/diagnostic.h"

namespace tjr::validate {

/// Whether `diagnostic` is CheckRemovedFields' error: a field of the v2.1
/// API (spec.podTemplateOverrides, spec.labels, spec.annotations) that the
/// target's release removed. It comes from the target alone: the same
/// TrainJob is valid at a release that still has the field.
bool IsRemovedFieldError(const Diagnostic& diagnostic);

}  // namespace tjr::validate
