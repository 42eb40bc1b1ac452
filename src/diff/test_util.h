#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "diff/compare.h"

namespace tjr::diff::testing {

/// A TrainJob result rendering the objects of the YAML stream `objects`.
pipeline::TrainJobResult Rendered(std::string_view train_job, std::string_view objects);

/// A TrainJob result refused with one error `message`.
pipeline::TrainJobResult Refused(std::string_view train_job, std::string_view message);

/// A JobSet named `name` in `namespace_` whose one container runs `image`.
std::string JobSet(std::string_view name, std::string_view namespace_, std::string_view image);

}  // namespace tjr::diff::testing
