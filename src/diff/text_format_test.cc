#include "diff/text_format.h"

#include <gtest/gtest.h>

#include "diff/test_util.h"

namespace tjr::diff {
namespace {
using testing::JobSet;
using testing::Refused;
using testing::Rendered;

DiffResult Example() {
  RevisionRender base;
  base.train_jobs.push_back(Rendered("default/a", JobSet("a", "default", "torch:1")));
  base.train_jobs.push_back(Rendered("default/gone", JobSet("gone", "default", "x")));
  base.train_jobs.push_back(Rendered("default/same", JobSet("same", "default", "x")));
  RevisionRender head;
  head.train_jobs.push_back(Rendered("default/a", JobSet("a", "default", "torch:2")));
  head.train_jobs.push_back(Refused("default/bad", "runtimeRef is immutable"));
  head.train_jobs.push_back(Rendered("default/same", JobSet("same", "default", "x")));
  return Compare(base, head, {"main", "HEAD", 1});
}

TEST(FormatText, SummaryThenEachObjectsDiff) {
  EXPECT_EQ(FormatText(Example()),
            "0 added, 1 removed, 1 changed, 1 unchanged (4 TrainJobs compared)\n"
            "  changed  JobSet default/a\n"
            "  removed  JobSet default/gone\n"
            "refused at head: TrainJob default/bad (1 error)\n"
            "\n"
            "=== changed JobSet default/a (TrainJob default/a) ===\n"
            "--- main/JobSet/default/a\n"
            "+++ HEAD/JobSet/default/a\n"
            "@@ -14,3 +14,3 @@\n"
            "             containers:\n"
            "-            - image: torch:1\n"
            "+            - image: torch:2\n"
            "               name: node\n"
            "\n"
            "=== removed JobSet default/gone (TrainJob default/gone) ===\n"
            "--- main/JobSet/default/gone\n"
            "+++ /dev/null\n"
            "@@ -1,16 +0,0 @@\n"
            "-apiVersion: jobset.x-k8s.io/v1alpha2\n"
            "-kind: JobSet\n"
            "-metadata:\n"
            "-  name: gone\n"
            "-  namespace: default\n"
            "-spec:\n"
            "-  replicatedJobs:\n"
            "-  - name: node\n"
            "-    replicas: 1\n"
            "-    template:\n"
            "-      spec:\n"
            "-        template:\n"
            "-          spec:\n"
            "-            containers:\n"
            "-            - image: x\n"
            "-              name: node\n");
}

TEST(FormatText, ColourMarksChangesHunksAndHeaders) {
  const std::string text = FormatText(Example(), {.color = true});
  EXPECT_NE(text.find("  \x1b[31mremoved\x1b[0m  JobSet default/gone\n"), std::string::npos) << text;
  EXPECT_NE(text.find("\x1b[31m-apiVersion: jobset.x-k8s.io/v1alpha2\x1b[0m\n"), std::string::npos);
  EXPECT_NE(text.find("  \x1b[33mchanged\x1b[0m  JobSet default/a\n"), std::string::npos);
  EXPECT_NE(text.find("\x1b[31mrefused at head\x1b[0m: TrainJob default/bad"), std::string::npos);
  EXPECT_NE(text.find("\x1b[1m=== changed JobSet default/a (TrainJob default/a) ===\x1b[0m\n"), std::string::npos);
  EXPECT_NE(text.find("\x1b[1m--- main/JobSet/default/a\x1b[0m\n\x1b[1m+++ HEAD/JobSet/default/a\x1b[0m\n"),
            std::string::npos);
  EXPECT_NE(text.find("\x1b[36m@@ -14,3 +14,3 @@\x1b[0m\n"), std::string::npos);
  EXPECT_NE(text.find("\x1b[31m-            - image: torch:1\x1b[0m\n\x1b[32m+            - image: torch:2\x1b[0m\n"),
            std::string::npos);
  EXPECT_NE(text.find("\n               name: node\n"), std::string::npos) << "context lines stay plain";
}

TEST(FormatText, NoDifferences) {
  RevisionRender side;
  side.train_jobs.push_back(Rendered("default/a", JobSet("a", "default", "x")));
  EXPECT_EQ(FormatText(Compare(side, side)), "no differences (1 object unchanged, 1 TrainJob compared)\n");
  EXPECT_EQ(FormatText(Compare({}, {})), "no differences (0 objects unchanged, 0 TrainJobs compared)\n");
}

TEST(FormatText, RefusedAtBaseIsListedAfterHead) {
  RevisionRender base;
  base.train_jobs.push_back(Refused("default/a", "one"));
  base.train_jobs.back().diagnostics.push_back(base.train_jobs.back().diagnostics.back());
  EXPECT_EQ(FormatText(Compare(base, {})),
            "no differences (0 objects unchanged, 1 TrainJob compared)\nrefused at base: TrainJob default/a (2 errors)\n");
}

}  // namespace
}  // namespace tjr::diff
