#include "integrate/yaml_stream.h"

#include <gtest/gtest.h>

namespace tjr::integrate {
namespace {

std::string Join(const std::vector<RawDocument>& documents) {
  std::string out;
  for (const RawDocument& d : documents) out += d.text;
  return out;
}

TEST(SplitDocuments, CutsAtMarkersAndKeepsEveryByte) {
  std::string stream = "# Source: a.yaml\na: 1\n---\nb: 2\n--- # c\nc: |\n  ---\n  x\n---\n";
  auto documents = SplitDocuments(stream);
  ASSERT_EQ(documents.size(), 4u);
  EXPECT_EQ(documents[0].text, "# Source: a.yaml\na: 1\n");
  EXPECT_EQ(documents[1].text, "---\nb: 2\n");
  EXPECT_EQ(documents[1].first_line, 3u);
  EXPECT_EQ(documents[2].text, "--- # c\nc: |\n  ---\n  x\n");
  EXPECT_EQ(documents[3].text, "---\n");
  EXPECT_EQ(Join(documents), stream);
}

TEST(SplitDocuments, NoTrailingNewlineAndEmptyInput) {
  EXPECT_EQ(Join(SplitDocuments("a: 1\n---\nb: 2")), "a: 1\n---\nb: 2");
  EXPECT_EQ(SplitDocuments("").size(), 1u);
  // "----" and "---x" are not markers.
  EXPECT_EQ(SplitDocuments("a: |\n----\n").size(), 1u);
}

TEST(ParseDocument, LocationsAreLinesOfTheWholeStream) {
  auto documents = SplitDocuments("a: 1\n---\nkind: X\nname: y\n");
  auto parsed = ParseDocument(documents[1], "<stdin>");
  ASSERT_TRUE(parsed.ok());
  ASSERT_EQ(parsed->size(), 1u);
  EXPECT_EQ((*parsed)[0].Find("name")->location().line, 4u);
  auto empty = ParseDocument({"---\n# only a comment\n", 1}, "<stdin>");
  ASSERT_TRUE(empty.ok());
  EXPECT_TRUE(empty->empty());
}

}  // namespace
}  // namespace tjr::integrate
