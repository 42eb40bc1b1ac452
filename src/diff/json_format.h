#pragma once

#include <string>

#include "diff/compare.h"

namespace tjr::diff {

struct JsonOptions {
  std::string base_label = "base";
  std::string head_label = "head";
};

/// The machine-readable report (schema in docs/manual.md, "tjrender diff"): one
/// JSON object in kubectl's 4-space layout with keys sorted, every key
/// always present.
std::string FormatJson(const DiffResult& result, const JsonOptions& options = {});

}  // namespace tjr::diff
