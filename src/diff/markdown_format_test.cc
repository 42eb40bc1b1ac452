#include "diff/markdown_format.h"

#include <gtest/gtest.h>

#include "diff/test_util.h"

namespace tjr::diff {
namespace {
using testing::JobSet;
using testing::Refused;
using testing::Rendered;

std::size_t Occurrences(const std::string& text, const std::string& what) {
  std::size_t count = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++count;
  return count;
}

TEST(FormatMarkdown, CountsFindingsThenOneCollapsedBlockPerObject) {
  RevisionRender base;
  base.train_jobs.push_back(Rendered("default/a", JobSet("a", "default", "torch:1")));
  RevisionRender head;
  head.train_jobs.push_back(Rendered("default/a", JobSet("a", "default", "torch:2")));
  head.train_jobs.push_back(Refused("default/bad", "runtimeRef is immutable"));
  const std::string md = FormatMarkdown(Compare(base, head, {"main", "HEAD", 0}), {"main", "HEAD"});
  EXPECT_EQ(md,
            "<!-- tjrender diff -->\n"
            "### tjrender diff <code>main</code> → <code>HEAD</code>\n"
            "\n"
            "**0 added, 0 removed, 1 changed**, 0 unchanged (2 TrainJobs compared).\n"
            "\n"
            "**Errors at head**: 1 TrainJob the cluster would refuse\n"
            "\n"
            "```text\n"
            "jobs.yaml:3:5: error: spec: runtimeRef is immutable\n"
            "```\n"
            "\n"
            "<details><summary>changed <code>JobSet default/a</code> (TrainJob default/a)</summary>\n"
            "\n"
            "```diff\n"
            "--- main/JobSet/default/a\n"
            "+++ HEAD/JobSet/default/a\n"
            "@@ -15 +15 @@\n"
            "-            - image: torch:1\n"
            "+            - image: torch:2\n"
            "```\n"
            "\n"
            "</details>\n"
            "\n");
}

TEST(FormatMarkdown, NoDifferencesAndFindingsAtBase) {
  RevisionRender base;
  base.train_jobs.push_back(Refused("default/a", "broken"));
  const std::string md = FormatMarkdown(Compare(base, {}));
  EXPECT_EQ(md,
            "<!-- tjrender diff -->\n"
            "### tjrender diff <code>base</code> → <code>head</code>\n"
            "\n"
            "**No differences** in the rendered objects (0 unchanged, 1 TrainJob compared).\n"
            "\n"
            "<details><summary>Findings at base (1, present before this change)</summary>\n"
            "\n"
            "```text\n"
            "jobs.yaml:3:5: error: spec: broken\n"
            "```\n"
            "\n"
            "</details>\n"
            "\n");
}

TEST(FormatMarkdown, TheHeadingSaysWhatHeadHas) {
  RevisionRender head;
  head.train_jobs.push_back(Rendered("default/a", JobSet("a", "default", "x")));
  Diagnostic warning = MakeError(Location{}, "", "deprecated");
  warning.severity = Severity::kWarning;
  head.train_jobs[0].diagnostics.push_back(warning);
  EXPECT_NE(FormatMarkdown(Compare({}, head)).find("\n**Warnings at head**\n"), std::string::npos);
  head.train_jobs.push_back(Refused("default/b", "broken"));
  EXPECT_NE(FormatMarkdown(Compare({}, head)).find("\n**Errors and warnings at head**: 1 TrainJob the cluster would refuse\n"),
            std::string::npos)
      << FormatMarkdown(Compare({}, head));
}

TEST(FormatMarkdown, LabelsAreEscapedAndFencesOutgrowBackticksInTheDiff) {
  RevisionRender base;
  base.train_jobs.push_back(Rendered("default/a", JobSet("a", "default", "x")));
  RevisionRender head;
  head.train_jobs.push_back(Rendered("default/a", JobSet("a", "default", "'````'")));
  const std::string md = FormatMarkdown(Compare(base, head), {"<b>", "a&b"});
  EXPECT_NE(md.find("<code>&lt;b&gt;</code> → <code>a&amp;b</code>"), std::string::npos) << md;
  EXPECT_NE(md.find("\n`````diff\n"), std::string::npos) << md;
  EXPECT_NE(md.find("\n`````\n"), std::string::npos);
}

// Many objects, each with a diff of about 1,300 bytes.
DiffResult Large(std::size_t objects) {
  RevisionRender base;
  RevisionRender head;
  for (std::size_t i = 0; i < objects; ++i) {
    std::string name = "job-" + std::to_string(1000 + i);
    std::string before = JobSet(name, "default", "x");
    std::string after = JobSet(name, "default", "y");
    for (int line = 0; line < 20; ++line) {
      before += "  l" + std::to_string(line) + ": " + std::string(20, 'a') + "\n";
      after += "  l" + std::to_string(line) + ": " + std::string(20, 'b') + "\n";
    }
    base.train_jobs.push_back(Rendered("default/" + name, before));
    head.train_jobs.push_back(Rendered("default/" + name, after));
  }
  return Compare(base, head);
}

TEST(FormatMarkdown, StaysUnderGitHubsLimitWithANotice) {
  const DiffResult result = Large(200);
  const std::string md = FormatMarkdown(result);
  EXPECT_LE(md.size(), kGitHubCommentLimit);
  EXPECT_GT(md.size(), kGitHubCommentLimit - 2048) << "the room is used";
  EXPECT_NE(md.find("**0 added, 0 removed, 200 changed**"), std::string::npos) << "counts stay complete";
  EXPECT_NE(md.find("> [!WARNING]\n> Truncated to fit GitHub's 65536-character comment limit: "),
            std::string::npos);
  EXPECT_EQ(Occurrences(md, "<details>"), Occurrences(md, "</details>"));
  EXPECT_EQ(Occurrences(md, "```diff\n") * 2, Occurrences(md, "```"));
  EXPECT_NE(md.find("\n- and "), std::string::npos);
  EXPECT_NE(md.find(" more\n"), std::string::npos) << "the list of left-out objects ends with a count";
}

TEST(FormatMarkdown, TruncationCutsTheOverflowingObjectAtALine) {
  const DiffResult result = Large(3);
  const std::size_t whole = FormatMarkdown(result).size();
  ASSERT_LT(whole, kGitHubCommentLimit);
  // Room for the first object and a good part of the second.
  const std::size_t limit = whole - 1000;
  const std::string md = FormatMarkdown(result, {"base", "head", limit});
  EXPECT_LE(md.size(), limit);
  EXPECT_EQ(Occurrences(md, "<details>"), 2u) << md;
  EXPECT_EQ(Occurrences(md, "*This diff is cut short to fit the comment.*"), 1u);
  EXPECT_NE(md.find(": 1 of 3 objects not shown, one cut short."), std::string::npos) << md;
  EXPECT_NE(md.find("\n- changed <code>JobSet default/job-1002</code>\n"), std::string::npos) << md;
  // The cut block still ends its code fence.
  EXPECT_EQ(Occurrences(md, "```diff\n") * 2, Occurrences(md, "```"));
}

TEST(FormatMarkdown, EveryLimitIsKept) {
  const DiffResult result = Large(40);
  for (std::size_t limit : {2048u, 3000u, 5000u, 9999u, 20000u, 40000u}) {
    const std::string md = FormatMarkdown(result, {"base", "head", limit});
    EXPECT_LE(md.size(), limit);
    EXPECT_NE(md.find("not shown"), std::string::npos);
    EXPECT_EQ(Occurrences(md, "<details>"), Occurrences(md, "</details>"));
  }
}

}  // namespace
}  // namespace tjr::diff
