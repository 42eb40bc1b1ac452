#pragma once

#include <gtest/gtest.h>

#include <ostream>
#include <string>
#include <string_view>

#include "doc/node.h"

namespace tjr::yaml::testing {

/// A value printed by kubectl: placed at template.spec.x of a PodTemplate
/// and run through
///   kubectl patch --local -f OBJ.json --type strategic -p '{}' -o yaml
/// (kubectl v1.32.4). `expected_after_x` is the output that follows the
/// fixed "    x:" line prefix, pasted verbatim. The whole object is written,
/// so the value sits at kubectl's indentation and folds at its columns.
struct KubectlCase {
  std::string_view description;
  std::string_view json_value;
  std::string_view expected_after_x;
};

/// The PodTemplate around `json_value`, read with the JSON reader.
doc::Node PodTemplateWith(std::string_view json_value);

/// kubectl's whole output for the case.
std::string KubectlOutput(const KubectlCase& c);

/// A gtest parameter name made from the description.
std::string CaseName(const ::testing::TestParamInfo<KubectlCase>& info);

inline std::ostream& operator<<(std::ostream& out, const KubectlCase& c) {
  return out << c.description;
}

}  // namespace tjr::yaml::testing
