#pragma once

// Helpers shared by the YAML reader's tests.

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include <string>
#include <string_view>
#include <vector>

#include "doc/number_format.h"
#include "json/json.h"
#include "yaml/reader.h"
#include "testkit/temp_dir.h"

namespace tjr::yaml::read_test {

// A value with its kind spelled out, so int 1 and float 1 differ.
inline std::string Typed(const doc::Node& node) {
  switch (node.kind()) {
    case doc::Kind::kNull: return "null";
    case doc::Kind::kBool: return node.bool_value() ? "bool:true" : "bool:false";
    case doc::Kind::kInt: return "int:" + std::to_string(node.int_value());
    case doc::Kind::kFloat: return "float:" + doc::FormatFloatJson(node.float_value());
    case doc::Kind::kString: return "str:" + node.string_value();
    default: return json::Write(node, false);
  }
}

inline Result<std::vector<doc::Node>> Read(std::string_view text, const ReadOptions& options = {}) {
  return ReadStream(text, "in.yaml", options);
}

inline doc::Node ReadOne(std::string_view text) {
  Result<std::vector<doc::Node>> docs = Read(text);
  EXPECT_TRUE(docs.ok()) << text << "\n" << docs.error().ToString();
  if (!docs.ok()) return doc::Node();
  EXPECT_EQ(docs->size(), 1u) << text;
  return docs->empty() ? doc::Node() : docs->front();
}

inline std::string ErrorOf(std::string_view text, const ReadOptions& options = {}) {
  Result<std::vector<doc::Node>> docs = Read(text, options);
  EXPECT_FALSE(docs.ok()) << text;
  if (docs.ok()) return "";
  EXPECT_EQ(docs.error().category, Category::kInput);
  return docs.error().ToString();
}

// The value of `v` in "v: TEXT".
inline std::string TypedValue(std::string_view text) {
  doc::Node root = ReadOne("v: " + std::string(text) + "\n");
  const doc::Node* v = root.Find("v");
  return v == nullptr ? "<missing>" : Typed(*v);
}

// The "cases" list of src/yaml/testdata/<name> (kubectl's answers, written
// by a scripts/gen-*-cases.py generator); empty when it cannot be read.
inline std::vector<doc::Node> KubectlCases(const std::string& name) {
  std::ifstream file(testkit::SourcePath("src/yaml/testdata/" + name));
  std::stringstream text;
  text << file.rdbuf();
  Result<std::vector<doc::Node>> data = json::ReadStream(text.str(), name);
  if (!data.ok() || data->size() != 1) return {};
  const doc::Node* list = data->front().Find("cases");
  return list != nullptr && list->is_sequence() ? list->items() : std::vector<doc::Node>();
}

}  // namespace tjr::yaml::read_test
