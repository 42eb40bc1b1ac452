#include "conformance/case.h"

#include <gtest/gtest.h>

#include "testkit/temp_dir.h"

namespace tjr::conformance {
namespace {

constexpr std::string_view kCaseYaml =
    "description: merges env\nsource: spec §2.3\ntarget: merge\n";

TEST(ParseCaseSpecTest, ReadsEveryField) {
  auto spec = ParseCaseSpec(
      "description: >-\n  one\n  two\nsource: s\ntarget: merge\nnotes: caveat\noracle: kubectl\n"
      "command: [--jobset-version, v0.12]\n",
      "case.yaml");
  ASSERT_TRUE(spec.ok()) << spec.error().ToString();
  EXPECT_EQ(spec->description, "one two");
  EXPECT_EQ(spec->source, "s");
  EXPECT_EQ(spec->target, "merge");
  EXPECT_EQ(spec->notes, "caveat");
  EXPECT_EQ(spec->oracle, "kubectl");
  EXPECT_EQ(spec->command, (std::vector<std::string>{"--jobset-version", "v0.12"}));
}

TEST(ParseCaseSpecTest, CommandMayBeOneString) {
  auto spec = ParseCaseSpec(std::string(kCaseYaml) + "command: --jobset-version  v0.10\n", "c");
  ASSERT_TRUE(spec.ok()) << spec.error().ToString();
  EXPECT_EQ(spec->command, (std::vector<std::string>{"--jobset-version", "v0.10"}));
}

TEST(ParseCaseSpecTest, RefusesUnknownMissingAndMistypedFields) {
  auto unknown = ParseCaseSpec(std::string(kCaseYaml) + "expected: x\n", "case.yaml");
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.error().category, Category::kInput);
  EXPECT_EQ(unknown.error().field_path, "expected");
  EXPECT_EQ(unknown.error().location.line, 4u);

  auto missing = ParseCaseSpec("description: d\ntarget: merge\n", "case.yaml");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().field_path, "source");
  EXPECT_NE(missing.error().message.find("required"), std::string::npos);

  EXPECT_FALSE(ParseCaseSpec("description: d\nsource: s\ntarget: 3\n", "c").ok());
  EXPECT_FALSE(ParseCaseSpec(std::string(kCaseYaml) + "command: [1]\n", "c").ok());
  EXPECT_FALSE(ParseCaseSpec(std::string(kCaseYaml) + "---\n" + std::string(kCaseYaml), "c").ok());
  EXPECT_FALSE(ParseCaseSpec("- a\n", "c").ok());
}

TEST(LoadCaseTest, ReadsInputsInNameOrderAndTheExpectedObjects) {
  testkit::TempDir tree;
  tree.Write("merge/env/case.yaml", kCaseYaml);
  tree.Write("merge/env/input/patch-2.yaml", "b: 1\n---\nc: 1\n");
  tree.Write("merge/env/input/object.json", R"({"kind": "Pod"})");
  tree.Write("merge/env/input/patch-1.yml", "a: 1\n");
  tree.Write("merge/env/input/.patch.yaml.swp", "ignored");
  tree.Write("merge/env/expected.yaml", "kind: Pod\n---\nkind: Job\n");
  auto loaded = LoadCase(tree / "merge/env");
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  EXPECT_EQ(loaded->name, "merge/env");
  EXPECT_EQ(loaded->spec.target, "merge");
  ASSERT_EQ(loaded->inputs.size(), 3u);
  EXPECT_EQ(loaded->inputs[0].name, "input/object.json");
  EXPECT_EQ(loaded->inputs[1].name, "input/patch-1.yml");
  EXPECT_EQ(loaded->inputs[2].name, "input/patch-2.yaml");
  EXPECT_EQ(loaded->inputs[2].documents.size(), 2u);
  EXPECT_TRUE(loaded->input_errors.empty());
  EXPECT_EQ(loaded->expectation, Expectation::kObjects);
  EXPECT_EQ(loaded->expected_objects.size(), 2u);
}

TEST(LoadCaseTest, InputParseErrorsAreKeptAsOutput) {
  testkit::TempDir tree;
  tree.Write("a/case.yaml", kCaseYaml);
  tree.Write("a/input/object.json", "{\"kind\": }");
  tree.Write("a/expected-errors.txt", "input/object.json:1\n\n   \nsecond line\r\n");
  auto loaded = LoadCase(tree / "a");
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  ASSERT_EQ(loaded->input_errors.size(), 1u);
  EXPECT_EQ(*loaded->input_errors[0].location.file, "input/object.json");
  EXPECT_EQ(loaded->expectation, Expectation::kErrors);
  EXPECT_EQ(loaded->expected_errors,
            (std::vector<std::string>{"input/object.json:1", "second line"}));
}

TEST(LoadCaseTest, RefusesMalformedCaseFolders) {
  testkit::TempDir tree;
  tree.Write("no-input/case.yaml", kCaseYaml);
  EXPECT_FALSE(LoadCase(tree / "no-input").ok());

  tree.Write("bad-ext/case.yaml", kCaseYaml);
  tree.Write("bad-ext/input/object.txt", "x");
  auto bad_ext = LoadCase(tree / "bad-ext");
  ASSERT_FALSE(bad_ext.ok());
  EXPECT_NE(bad_ext.error().message.find("*.yaml, *.yml or *.json"), std::string::npos);

  tree.Write("subdir/case.yaml", kCaseYaml);
  tree.MakeDir("subdir/input/more");
  EXPECT_FALSE(LoadCase(tree / "subdir").ok());

  tree.Write("both/case.yaml", kCaseYaml);
  tree.MakeDir("both/input");
  tree.Write("both/expected.yaml", "a: 1\n");
  tree.Write("both/expected-errors.txt", "x\n");
  auto both = LoadCase(tree / "both");
  ASSERT_FALSE(both.ok());
  EXPECT_NE(both.error().message.find("not both"), std::string::npos);

  tree.Write("blank-errors/case.yaml", kCaseYaml);
  tree.MakeDir("blank-errors/input");
  tree.Write("blank-errors/expected-errors.txt", "\n  \n");
  EXPECT_FALSE(LoadCase(tree / "blank-errors").ok());

  tree.Write("scalar-expected/case.yaml", kCaseYaml);
  tree.MakeDir("scalar-expected/input");
  tree.Write("scalar-expected/expected.yaml", "just text\n");
  EXPECT_FALSE(LoadCase(tree / "scalar-expected").ok());

  EXPECT_FALSE(LoadCase(tree / "missing").ok());
}

TEST(LoadCaseTest, NoExpectationIsNotAnErrorWhileLoading) {
  testkit::TempDir tree;
  tree.Write("new/case.yaml", kCaseYaml);
  tree.MakeDir("new/input");
  auto loaded = LoadCase(tree / "new");
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  EXPECT_EQ(loaded->expectation, Expectation::kNone);
}

TEST(FindCasesTest, FindsCaseFoldersSortedBelowEachRoot) {
  testkit::TempDir tree;
  tree.Write("suite/merge/b/case.yaml", kCaseYaml);
  tree.Write("suite/merge/a/case.yaml", kCaseYaml);
  tree.Write("suite/merge/a/input/nested/case.yaml", kCaseYaml);  // inside a case: not a case
  tree.Write("suite/render/c/case.yaml", kCaseYaml);
  tree.Write("suite/README.md", "x");
  auto found = FindCases({tree / "suite/render/c", tree / "suite"});
  ASSERT_TRUE(found.ok()) << found.error().ToString();
  // render/c is named twice and runs once, where it was first named.
  EXPECT_EQ(*found, (std::vector<std::filesystem::path>{
                        tree / "suite/render/c", tree / "suite/merge/a", tree / "suite/merge/b"}));
}

TEST(FindCasesTest, RefusesRootsWithoutCases) {
  testkit::TempDir tree;
  tree.MakeDir("empty");
  EXPECT_FALSE(FindCases({tree / "empty"}).ok());
  EXPECT_FALSE(FindCases({tree / "absent"}).ok());
}

}  // namespace
}  // namespace tjr::conformance
