#include "source/glob.h"

#include <fnmatch.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

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
  PathMatcher none(PathFilter{});
  EXPECT_TRUE(none.Accepts("anything.yaml"));
  PathMatcher filter(PathFilter{{"jobs/**", "runtimes/*.yaml"}, {"**/*-draft.yaml", "jobs/old"}});
  EXPECT_TRUE(filter.Accepts("jobs/a.yaml"));
  EXPECT_TRUE(filter.Accepts("runtimes/torch.yaml"));
  EXPECT_FALSE(filter.Accepts("other/a.yaml"));
  EXPECT_FALSE(filter.Accepts("jobs/b-draft.yaml"));
  EXPECT_FALSE(filter.Accepts("jobs/old/c.yaml"));
  PathMatcher exclude_only(PathFilter{{}, {"tests"}});
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

// A GlobSet answers as trying every pattern with GlobMatch does, for
// patterns filed under a whole component, a literal start or end, or none
// (and patterns that match nothing).
TEST(GlobSetTest, MatchesAsEveryPatternTriedInTurn) {
  const std::vector<std::string> patterns = {
      "jobs",      "jobs/",          "/runtimes/*.yaml", "**/*-draft.yaml", "a*/b?/c",   "x/**/y",
      "*",         "*mid*",          "[ab]*[cd]",        "\\*.yaml",        "lit[",       "./team-*/job.yaml",
      "[[:nope:]]", "vendor/**",     "deep/er/a.yaml",   "*.json",          "pre*",      "**"};
  const std::vector<std::string> paths = {
      "jobs/a.yaml",   "x/jobs/b.yaml", "runtimes/t.yaml", "runtimes/sub/t.yaml", "j/a-draft.yaml", "ab/bc/c/d",
      "x/q/r/y",       "x/y",           "amid.yaml",       "bzzc",                "*.yaml",         "lit[",
      "team-1/job.yaml", "vendor",      "deep/er/a.yaml",  "deep/er/b.yaml",      "c.json",         "prefix.yaml",
      "nothing.yaml",  "a/b"};
  // Every single pattern, and every list of the first N.
  std::vector<std::vector<std::string>> lists;
  for (std::size_t n = 0; n <= patterns.size(); ++n) {
    lists.emplace_back(patterns.begin(), patterns.begin() + static_cast<std::ptrdiff_t>(n));
    if (n < patterns.size()) lists.push_back({patterns[n]});
  }
  for (const std::vector<std::string>& list : lists) {
    const GlobSet set(list);
    for (const std::string& path : paths) {
      bool any = false;
      for (const std::string& pattern : list) any = any || GlobMatch(pattern, path);
      EXPECT_EQ(set.MatchesAny(path), any) << path << " against " << list.size() << " patterns, the last "
                                            << (list.empty() ? "" : list.back());
    }
  }
}

// 50,000 include patterns over 2,000 files took 31 s: every file was
// matched against every pattern, each parsed again. A path is now tried
// against the few patterns its components select.
TEST(GlobSetTest, APathIsTriedOnlyAgainstThePatternsItSelects) {
  std::vector<std::string> patterns;
  for (int i = 0; i < 50'000; ++i) {
    patterns.push_back("jobs/job-" + std::to_string(i) + ".yaml");
    patterns.push_back("team-" + std::to_string(i) + "-*/**");
    patterns.push_back("**/*.v" + std::to_string(i));
  }
  const GlobSet set(patterns);
  GlobWork work;
  EXPECT_TRUE(set.MatchesAny("jobs/job-4711.yaml", &work));
  EXPECT_TRUE(set.MatchesAny("team-7-a/x.yaml", &work));
  EXPECT_TRUE(set.MatchesAny("a/b.v99", &work));
  EXPECT_FALSE(set.MatchesAny("jobs/job-50000.yaml", &work));
  EXPECT_LE(work.component_matches, 40u);
}

}  // namespace
}  // namespace tjr::source
