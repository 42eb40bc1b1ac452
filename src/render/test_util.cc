#include "render/test_util.h"

#include <gtest/gtest.h>

#include <vector>

#include "yaml/reader.h"
#include "yaml/writer.h"

namespace tjr::render::testing {

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
  std::size_t first = text.find_first_not_of(" \n");
  if (first == std::string_view::npos || (text[first] != '{' && text[first] != '[')) return Yaml(text);
  doc::Node wrapped = Yaml("v: " + std::string(text.substr(first)));
  const doc::Node* value = wrapped.Find("v");
  return value != nullptr ? *value : doc::Node();
}

std::string KeyOrder(const doc::Node& node) {
  std::string out;
  if (node.is_mapping()) {
    for (const doc::Field& f : node.fields()) out += f.key + "," + KeyOrder(f.value);
  } else if (node.is_sequence()) {
    for (const doc::Node& item : node.items()) out += KeyOrder(item);
  }
  return out;
}

std::string ToYaml(const doc::Node& node) { return yaml::Write(node); }

}  // namespace tjr::render::testing
