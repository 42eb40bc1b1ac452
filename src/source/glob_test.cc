#include "source/glob.h"

#include <fnmatch.h>
#include <gtest/gtest.h>

#include <string>

namespace tjr::source {
namespace {

TEST(GlobMatchTest, ComponentsAndDoubleStar) {
  EXPECT_TRUE(GlobMatch("*.yaml", "a.yaml"));
  EXPECT_TRUE(GlobMatch("*.yaml", "deep/er/a.yaml"));  // unanchored: any depth
  EXPECT_FALSE(GlobMatch("*.yaml", "a.json"));
  EXPECT_TRUE(GlobMatch("jobs/*.yaml", "jobs/a.yaml"));
  EXPECT_FALSE(GlobMatch("jobs/*.yaml", "x/jobs/a.yaml"));  // anchored
  EXPECT_FALSE(GlobMatch("jobs/*.yaml", "jobs/sub/a.yaml"));  // * stays in one component
  EXPECT_TRUE(GlobMatch("jobs/**/*.yaml", "jobs/a.yaml"));
  EXPECT_TRUE(GlobMatch("jobs/**/*.yaml", "jobs/x/y/a.yaml"));
  EXPECT_TRUE(GlobMatch("/jobs/?.yaml", "jobs/a.yaml"));
  EXPECT_TRUE(GlobMatch("./jobs/[ab].yaml", "jobs/b.yaml"));
  EXPECT_FALSE(GlobMatch("./jobs/[ab].yaml", "jobs/c.yaml"));
  EXPECT_TRUE(GlobMatch("*", ".hidden.yaml"));
  EXPECT_FALSE(GlobMatch("", "a.yaml"));
}

TEST(GlobMatchTest, AFolderCoversItsContents) {
  for (const char* pattern : {"vendor", "vendor/", "vendor/**", "/vendor"}) {
    EXPECT_TRUE(GlobMatch(pattern, "vendor/a/b.yaml")) << pattern;
    EXPECT_FALSE(GlobMatch(pattern, "vendors/a.yaml")) << pattern;
  }
  EXPECT_TRUE(GlobMatch("vendor", "x/vendor/b.yaml"));
  EXPECT_FALSE(GlobMatch("/vendor", "x/vendor/b.yaml"));
}

TEST(PathFilterTest, IncludeThenExclude) {
  PathFilter none;
  EXPECT_TRUE(none.Accepts("anything.yaml"));
  PathFilter filter{{"jobs/**", "runtimes/*.yaml"}, {"**/*-draft.yaml", "jobs/old"}};
  EXPECT_TRUE(filter.Accepts("jobs/a.yaml"));
  EXPECT_TRUE(filter.Accepts("runtimes/torch.yaml"));
  EXPECT_FALSE(filter.Accepts("other/a.yaml"));
  EXPECT_FALSE(filter.Accepts("jobs/b-draft.yaml"));
  EXPECT_FALSE(filter.Accepts("jobs/old/c.yaml"));
  PathFilter exclude_only{{}, {"tests"}};
  EXPECT_FALSE(exclude_only.Accepts("a/tests/x.yaml"));
  EXPECT_TRUE(exclude_only.Accepts("a/x.yaml"));
}

// A repository's own .tjrender.yaml once made matching exponential: 22
// `**` components against a 22-deep path ran for minutes. The work is now
// bounded by pattern components x path components.
TEST(GlobMatchTest, ManyDoubleStarsAreLinearInPatternTimesPath) {
  for (std::size_t depth : {8u, 12u, 22u, 200u}) {
    std::string pattern;
    std::string path;
    for (std::size_t i = 0; i < depth; ++i) {
      pattern += "**/";
      path += "d/";
    }
    pattern += "x";  // never there: every way of spreading the ** is tried in vain
    path += "y.yaml";
    GlobWork work;
    EXPECT_FALSE(GlobMatch(pattern, path, &work)) << depth;
    // (depth + 1) pattern parts x (depth + 1) path components at most.
    EXPECT_LE(work.component_matches, (depth + 2) * (depth + 2)) << depth;
    EXPECT_TRUE(GlobMatch(pattern.substr(0, pattern.size() - 1) + "y.yaml", path)) << depth;
  }
}

TEST(GlobMatchTest, ManyStarsInOneComponentAreLinear) {
  // glibc's fnmatch backtracks over each '*': O(n^k).
  std::string pattern;
  for (int i = 0; i < 40; ++i) pattern += "*a";
  pattern += "*b";
  const std::string text(250, 'a');
  GlobWork work;
  EXPECT_FALSE(MatchComponent(pattern, text, &work));
  EXPECT_LE(work.character_steps, (pattern.size() + 1) * text.size());
}

// Well-formed component patterns read as fnmatch(3) (no flags, C locale)
// reads them.
TEST(GlobMatchTest, ComponentsMatchAsFnmatch) {
  const char* patterns[] = {"*", "a*", "*a", "a?c", "[abc]", "[!abc]", "[^abc]", "[a-c]x", "[]]", "[]a]",
                            "[!]]", "[a-]", "[-a]", "\\*", "a\\?", "[[:digit:]]*", "[[:alpha:][:digit:]]",
                            "[[:upper:]]", "[z-a]", "[\\]]", "[[.a.]]", "[[=b=]]", "*.y*ml", "[", "[a", "a[",
                            "[!", "x[]", "\\", "[[:nope:]]", "[a-\\z]", "**", "?*?", "[[]", "[\\"};
  const char* texts[] = {"", "a", "b", "abc", "x", "]", "-", "*", "a?", "9z", "Z", "[", "a[", "ax", "cx", "x.yaml",
                         "\\", "b9", "[a", "z", "[x"};
  for (const char* pattern : patterns) {
    for (const char* text : texts) {
      EXPECT_EQ(MatchComponent(pattern, text), ::fnmatch(pattern, text, 0) == 0)
          << "pattern " << pattern << " text " << text;
    }
  }
}

}  // namespace
}  // namespace tjr::source
