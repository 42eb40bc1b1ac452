#pragma once

#include <string>

namespace tjr::cli {

/// meson.build's project version ("0.1.0").
const char* Version();

/// What `tjrender --version` prints: the version (meson.build's project
/// version), the Git commit the binary was built from ("unknown" outside a
/// checkout; "-dirty" when the tree had changes) and the releases each
/// target emulates.
std::string VersionText();

}  // namespace tjr::cli
