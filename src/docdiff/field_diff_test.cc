#include "docdiff/field_diff.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "yaml/reader.h"

namespace tjr::docdiff {
namespace {

doc::Node Yaml(std::string_view text) {
  auto documents = yaml::ReadStream(text, "test.yaml");
  EXPECT_TRUE(documents.ok());
  return documents.ok() && !documents->empty() ? documents->front() : doc::Node();
}

std::vector<std::string> Lines(std::string_view before, std::string_view after) {
  std::vector<std::string> lines;
  for (const FieldDifference& difference : DiffFields(Yaml(before), Yaml(after))) {
    lines.push_back(FormatFieldDifference(difference));
  }
  return lines;
}

TEST(DiffFields, EqualDocumentsHaveNoDifferenceWhateverTheKeyOrder) {
  EXPECT_TRUE(Lines("a: 1\nb: {c: x}\n", "b: {c: x}\na: 1\n").empty());
}

TEST(DiffFields, MappingsReportAddedRemovedAndChangedFields) {
  EXPECT_EQ(Lines("a: 1\nb: 2\nc: {d: x}\n", "a: \"1\"\nc: {d: z}\ne: [1]\n"),
            (std::vector<std::string>{"~ a: 1 -> \"1\"", "- b: 2", "~ c.d: \"x\" -> \"z\"",
                                      "+ e: [1]"}));
}

TEST(DiffFields, NamedItemsMatchByNameAndAReorderingIsOneDifference) {
  const char* before =
      "env:\n- {name: A, value: \"1\"}\n- {name: B, value: \"2\"}\n- {name: C, value: \"3\"}\n";
  const char* after =
      "env:\n- {name: X, value: \"0\"}\n- {name: B, value: \"2\"}\n- {name: A, value: \"9\"}\n";
  EXPECT_EQ(Lines(before, after),
            (std::vector<std::string>{"~ env[name=A].value: \"1\" -> \"9\"",
                                      "- env[name=C]: {\"name\":\"C\",\"value\":\"3\"}",
                                      "+ env[name=X]: {\"name\":\"X\",\"value\":\"0\"}",
                                      "~ env: order [A, B] -> [B, A]"}));
}

TEST(DiffFields, MountsMatchByMountPathWhenNamesRepeat) {
  const char* before = "m:\n- {name: v, mountPath: /a}\n- {name: v, mountPath: /b}\n";
  const char* after = "m:\n- {name: v, mountPath: /b}\n";
  EXPECT_EQ(Lines(before, after),
            (std::vector<std::string>{"- m[mountPath=/a]: {\"mountPath\":\"/a\",\"name\":\"v\"}"}));
}

TEST(DiffFields, UnkeyedListsCompareByIndexAndScalarListsAsOneValue) {
  EXPECT_EQ(Lines("l: [{a: 1}, {a: 2}]\ns: [x, w]\n", "l: [{a: 1}, {a: 3}, {a: 4}]\ns: [w, x]\n"),
            (std::vector<std::string>{"~ l[1].a: 2 -> 3", "+ l[2]: {\"a\":4}",
                                      "~ s: [\"x\",\"w\"] -> [\"w\",\"x\"]"}));
}

TEST(DiffFields, AChangeOfKindIsOneChangeAndPrefixesJoin) {
  auto differences = DiffFields(Yaml("a: {b: 1}\n"), Yaml("a: [1]\n"));
  ASSERT_EQ(differences.size(), 1u);
  EXPECT_EQ(FormatFieldDifference(differences[0], "JobSet ns/x"),
            "~ JobSet ns/x.a: {\"b\":1} -> [1]");
  EXPECT_EQ(FormatFieldDifference(DiffFields(Yaml("1\n"), Yaml("2\n"))[0]), "~ (document): 1 -> 2");
}

}  // namespace
}  // namespace tjr::docdiff
