// `render --out DIR --check`: each way a committed rendering goes stale.
#include "app/out_check.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "testkit/temp_dir.h"

namespace tjr::app {
namespace {

std::vector<std::string> Lines(const Diagnostics& findings) {
  std::vector<std::string> lines;
  for (const Diagnostic& d : findings) lines.push_back(d.rule + " " + d.ToString());
  return lines;
}

TEST(OutTreeCheckTest, AnUpToDateTreeHasNoFindings) {
  testkit::TempDir out("out-check");
  out.Write("team/job.yaml", "a: 1\n");
  OutTreeCheck check(out.root(), "R");
  check.Expect(out / "team/job.yaml", "a: 1\n");
  EXPECT_TRUE(check.Finish().empty());
}

TEST(OutTreeCheckTest, MissingStaleRefusedAndExtraFiles) {
  testkit::TempDir out("out-check");
  out.Write("team/stale.yaml", "a: 1\n");
  out.Write("team/refused.yaml", "a: 1\n");
  out.Write("team/gone.yaml", "a: 1\n");           // written by tjrender, in the index
  out.Write("team/by-hand.yaml", "a: 1\n");        // never written by tjrender
  out.Write("team/notes.txt", "not a manifest\n");  // neither .yaml nor .json: not looked at
  out.Write(".tjrender-index", "# tjrender output index 1: files tjrender wrote here\nteam/gone.yaml\n");
  OutTreeCheck check(out.root(), "R");
  check.Expect(out / "team/missing.yaml", "a: 1\n");
  check.Expect(out / "team/stale.yaml", "a: 2\n");
  check.Refused(out / "team/refused.yaml", MakeError(Location{}, "", "no runtime"));
  check.Refused(out / "team/never-written.yaml", MakeError(Location{}, "", "no runtime"));
  const std::string at = out.root() + "/team/";
  EXPECT_EQ(Lines(check.Finish()),
            (std::vector<std::string>{
                "rendered-missing " + at + "missing.yaml: error: missing from the rendered tree: run R",
                "rendered-stale " + at + "stale.yaml: error: stale: the TrainJob renders differently now; run R",
                "rendered-stale " + at + "refused.yaml: error: stale: its TrainJob no longer renders, the cluster "
                    "would refuse it (error: no runtime); fix the TrainJob, then run R",
                "rendered-extra " + at + "by-hand.yaml: error: no TrainJob renders to this file, and tjrender did "
                    "not write it (it is not in " + out.root() + "/.tjrender-index): delete it or move it out of " +
                    out.root(),
                "rendered-extra " + at + "gone.yaml: error: its TrainJob is gone: run R, which removes the files "
                    "of TrainJobs that no longer exist",
            }));
}

TEST(OutTreeCheckTest, NoFolderMeansEveryFileIsMissing) {
  testkit::TempDir parent("out-check");
  OutTreeCheck check(parent / "absent", "R");
  check.Expect(parent / "absent/team/job.yaml", "a: 1\n");
  const Diagnostics findings = check.Finish();
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].rule, "rendered-missing");
}

}  // namespace
}  // namespace tjr::app
