#include "validate/test_util.h"

#include <gtest/gtest.h>

#include "yaml/reader.h"

namespace tjr::validate::testing {

doc::Node Yaml(std::string_view text) {
  Result<std::vector<doc::Node>> docs = yaml::ReadStream(text, "test.yaml");
  if (!docs.ok()) {
    ADD_FAILURE() << docs.error().ToString();
    return {};
  }
  if (docs->size() != 1) {
    ADD_FAILURE() << "expected one document, got " << docs->size();
    return {};
  }
  return (*docs)[0];
}

doc::Node Value(std::string_view text) {
  doc::Node wrapped = Yaml("v: " + std::string(text));
  const doc::Node* value = wrapped.Find("v");
  return value != nullptr ? *value : doc::Node();
}

std::vector<std::string> Messages(const Diagnostics& diagnostics) {
  std::vector<std::string> out;
  for (const Diagnostic& d : diagnostics) out.push_back(d.message);
  return out;
}

std::string LineCol(const Diagnostic& diagnostic) {
  return std::to_string(diagnostic.location.line) + ":" + std::to_string(diagnostic.location.column);
}

}  // namespace tjr::validate::testing
