#pragma once

#include "trainer/release.h"
#include "validate/validate.h"

namespace tjr::validate {

/// Options for tests written against Trainer v2.1.0's rules (ValidateOptions
/// defaults to the product's release, trainer::kDefaultRelease).
inline ValidateOptions V21Options() {
  ValidateOptions options;
  options.version = trainer::TrainerVersion::kV2_1;
  return options;
}

}  // namespace tjr::validate
