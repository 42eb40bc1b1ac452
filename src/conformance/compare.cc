#include "conformance/compare.h"

#include <algorithm>
#include <cstdio>
#include <map>

#include "docdiff/unified_diff.h"
#include "doc/objects.h"
#include "yaml/writer.h"

namespace tjr::conformance {
namespace {

std::string Describe(const doc::Node& node) {
  switch (node.kind()) {
    case doc::Kind::kNull: return "null";
    case doc::Kind::kBool: return node.bool_value() ? "bool true" : "bool false";
    case doc::Kind::kInt: return "int " + std::to_string(node.int_value());
    case doc::Kind::kFloat: {
      char buffer[32];
      std::snprintf(buffer, sizeof buffer, "%.17g", node.float_value());
      return std::string("float ") + buffer;
    }
    case doc::Kind::kString: return "string \"" + node.string_value() + "\"";
    case doc::Kind::kSequence: return "sequence of " + std::to_string(node.size()) + " items";
    case doc::Kind::kMapping: return "mapping of " + std::to_string(node.size()) + " fields";
  }
  return "?";
}

std::string Join(const std::string& path, const std::string& key) {
  return path.empty() ? key : path + "." + key;
}

std::string Difference(const std::string& path, const doc::Node& expected,
                       const doc::Node& actual) {
  const std::string where = path.empty() ? "(root)" : path;
  if (expected.kind() != actual.kind() || expected.is_scalar()) {
    if (expected == actual) return {};
    return where + ": expected " + Describe(expected) + ", got " + Describe(actual);
  }
  if (expected.is_sequence()) {
    std::size_t common = std::min(expected.size(), actual.size());
    for (std::size_t i = 0; i < common; ++i) {
      std::string found =
          Difference(path + "[" + std::to_string(i) + "]", expected[i], actual[i]);
      if (!found.empty()) return found;
    }
    if (expected.size() == actual.size()) return {};
    return where + ": expected " + Describe(expected) + ", got " + Describe(actual);
  }
  for (const doc::Field& field : expected.fields()) {
    const doc::Node* other = actual.Find(field.key);
    if (other == nullptr) {
      return Join(path, field.key) + ": expected " + Describe(field.value) + ", missing";
    }
    std::string found = Difference(Join(path, field.key), field.value, *other);
    if (!found.empty()) return found;
  }
  for (const doc::Field& field : actual.fields()) {
    if (expected.Find(field.key) == nullptr) {
      return Join(path, field.key) + ": not expected, got " + Describe(field.value);
    }
  }
  return {};
}

// Index of each object by id; ids seen twice are reported.
std::map<doc::ObjectId, std::size_t> IndexById(const std::vector<doc::Node>& objects,
                                               const char* side, std::string* report) {
  std::map<doc::ObjectId, std::size_t> index;
  for (std::size_t i = 0; i < objects.size(); ++i) {
    doc::ObjectId id = doc::ObjectId::Of(objects[i]);
    if (!index.emplace(id, i).second) {
      *report += std::string(side) + " has two objects " + id.ToString() + "\n";
    }
  }
  return index;
}

}  // namespace

std::string FirstDifference(const doc::Node& expected, const doc::Node& actual) {
  return Difference("", expected, actual);
}

std::string CompareObjects(const std::vector<doc::Node>& expected,
                           const std::vector<doc::Node>& actual) {
  std::string report;
  auto expected_index = IndexById(expected, "expected.yaml", &report);
  auto actual_index = IndexById(actual, "the output", &report);
  for (const auto& [id, i] : expected_index) {
    auto found = actual_index.find(id);
    if (found == actual_index.end()) {
      report += "missing object " + id.ToString() + "\n";
      continue;
    }
    const doc::Node& produced = actual[found->second];
    if (expected[i] == produced) continue;
    report += "object " + id.ToString() + " differs; first at " +
              FirstDifference(expected[i], produced) + "\n";
    report += docdiff::UnifiedDiff(yaml::Write(expected[i]), yaml::Write(produced), "expected",
                          "actual");
  }
  for (const auto& [id, i] : actual_index) {
    if (expected_index.count(id) == 0) {
      report += "unexpected object " + id.ToString() + ":\n" + yaml::Write(actual[i]);
    }
  }
  return report;
}

std::vector<std::string> MissingErrors(const std::vector<std::string>& expected,
                                       const Diagnostics& produced) {
  std::vector<std::string> texts;
  texts.reserve(produced.size());
  for (const Diagnostic& diagnostic : produced) texts.push_back(diagnostic.ToString());
  std::vector<std::string> missing;
  for (const std::string& line : expected) {
    bool found = std::any_of(texts.begin(), texts.end(), [&](const std::string& text) {
      return text.find(line) != std::string::npos;
    });
    if (!found) missing.push_back(line);
  }
  return missing;
}

std::vector<std::string> UnlistedErrors(const std::vector<std::string>& expected, const Diagnostics& produced) {
  std::vector<std::string> unlisted;
  for (const Diagnostic& diagnostic : produced) {
    if (diagnostic.severity != Severity::kError) continue;
    const std::string text = diagnostic.ToString();
    const bool listed = std::any_of(expected.begin(), expected.end(),
                                    [&](const std::string& line) { return text.find(line) != std::string::npos; });
    if (!listed) unlisted.push_back(text);
  }
  return unlisted;
}

std::vector<doc::Node> SortedById(std::vector<doc::Node> objects) {
  std::stable_sort(objects.begin(), objects.end(), [](const doc::Node& a, const doc::Node& b) {
    return doc::ObjectId::Of(a) < doc::ObjectId::Of(b);
  });
  return objects;
}

}  // namespace tjr::conformance
