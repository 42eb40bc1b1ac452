#include "admission/rules.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

namespace tjr::admission {
namespace {

std::string ManualText() {
  const char* root = std::getenv("TJRENDER_SOURCE_ROOT");
  std::ifstream in(std::string(root != nullptr ? root : "..") + "/docs/manual.md");
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// The table the manual's "Rendered-object rules" section holds, one row per
// catalogue entry in catalogue order.
std::string ExpectedTable() {
  std::string table = "| rule | objects | what the cluster checks | upstream |\n| --- | --- | --- | --- |\n";
  for (const RuleInfo& rule : Rules()) {
    table += "| `" + std::string(rule.id) + "` | " + std::string(rule.kinds) + " | " + std::string(rule.covers) +
             " | " + std::string(rule.upstream) + " |\n";
  }
  return table;
}

TEST(RuleCatalogueTest, EveryRowIsWholeAndItsIdUnique) {
  std::set<std::string_view> ids;
  for (const RuleInfo& rule : Rules()) {
    EXPECT_TRUE(ids.insert(rule.id).second) << "twice: " << rule.id;
    EXPECT_FALSE(rule.kinds.empty()) << rule.id;
    EXPECT_FALSE(rule.covers.empty()) << rule.id;
    EXPECT_FALSE(rule.upstream.empty()) << rule.id;
    for (char c : rule.id) EXPECT_TRUE((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-') << rule.id;
    EXPECT_EQ(FindRule(rule.id), &rule);
  }
  EXPECT_EQ(FindRule("no-such-rule"), nullptr);
}

// The manual lists the catalogue as it is: the test prints the table to
// paste when they differ.
TEST(RuleCatalogueTest, TheManualListsTheCatalogue) {
  const std::string expected = ExpectedTable();
  EXPECT_NE(ManualText().find(expected), std::string::npos)
      << "docs/manual.md, section \"Rendered-object rules\", must hold this table:\n"
      << expected;
}

}  // namespace
}  // namespace tjr::admission
