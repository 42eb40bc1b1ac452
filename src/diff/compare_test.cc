#include "diff/compare.h"

#include <gtest/gtest.h>

#include "diff/test_util.h"

namespace tjr::diff {
namespace {
using testing::JobSet;
using testing::Refused;
using testing::Rendered;

RevisionRender Revision(std::vector<pipeline::TrainJobResult> train_jobs) {
  RevisionRender revision;
  revision.train_jobs = std::move(train_jobs);
  return revision;
}

TEST(Compare, IdenticalRevisionsHaveNoDifferences) {
  RevisionRender side = Revision({Rendered("default/a", JobSet("a", "default", "torch:1"))});
  DiffResult result = Compare(side, side);
  EXPECT_TRUE(result.changes.empty());
  EXPECT_EQ(result.unchanged, 1u);
  EXPECT_FALSE(result.HasDifferences());
  EXPECT_EQ(result.CountsText(), "0 added, 0 removed, 0 changed, 1 unchanged (1 TrainJob compared)");
}

TEST(Compare, ChangedObjectCarriesAUnifiedDiffOfItsYaml) {
  DiffResult result = Compare(Revision({Rendered("default/a", JobSet("a", "default", "torch:1"))}),
                              Revision({Rendered("default/a", JobSet("a", "default", "torch:2"))}),
                              {"main", "HEAD", 1});
  ASSERT_EQ(result.changes.size(), 1u);
  const ObjectChange& change = result.changes[0];
  EXPECT_EQ(change.type, ChangeType::kChanged);
  EXPECT_EQ(DisplayName(change.id), "JobSet default/a");
  EXPECT_EQ(change.train_job, "default/a");
  // kubectl's YAML: keys sorted, lists not indented under their key.
  EXPECT_EQ(change.diff,
            "--- main/JobSet/default/a\n"
            "+++ HEAD/JobSet/default/a\n"
            "@@ -14,3 +14,3 @@\n"
            "             containers:\n"
            "-            - image: torch:1\n"
            "+            - image: torch:2\n"
            "               name: node\n");
  EXPECT_TRUE(result.HasDifferences());
}

TEST(Compare, TheResultDoesNotDependOnTheThreadCount) {
  // Enough pairs to fill several work windows: changed, unchanged, added
  // and removed objects interleaved by name.
  std::vector<pipeline::TrainJobResult> base;
  std::vector<pipeline::TrainJobResult> head;
  for (int i = 0; i < 300; ++i) {
    const std::string name = "job-" + std::to_string(i);
    if (i % 7 != 0) base.push_back(Rendered("default/" + name, JobSet(name, "default", "torch:1")));
    if (i % 11 != 0) {
      head.push_back(Rendered("default/" + name, JobSet(name, "default", i % 3 == 0 ? "torch:2" : "torch:1")));
    }
  }
  CompareOptions one;
  one.threads = 1;
  CompareOptions four;
  four.threads = 4;
  DiffResult serial = Compare(Revision(base), Revision(head), one);
  DiffResult parallel = Compare(Revision(base), Revision(head), four);
  EXPECT_EQ(serial.CountsText(), parallel.CountsText());
  ASSERT_EQ(serial.changes.size(), parallel.changes.size());
  for (std::size_t i = 0; i < serial.changes.size(); ++i) {
    EXPECT_EQ(serial.changes[i].type, parallel.changes[i].type);
    EXPECT_EQ(serial.changes[i].id.name, parallel.changes[i].id.name);
    EXPECT_EQ(serial.changes[i].diff, parallel.changes[i].diff);
  }
  EXPECT_GT(serial.Count(ChangeType::kAdded), 0u);
  EXPECT_GT(serial.Count(ChangeType::kRemoved), 0u);
  EXPECT_GT(serial.Count(ChangeType::kChanged), 0u);
  EXPECT_GT(serial.unchanged, 0u);
}

TEST(Compare, AddedAndRemovedObjectsDiffAgainstDevNull) {
  DiffResult result = Compare(Revision({Rendered("default/old", JobSet("old", "default", "x"))}),
                              Revision({Rendered("default/new", JobSet("new", "default", "x"))}));
  ASSERT_EQ(result.changes.size(), 2u);
  EXPECT_EQ(result.changes[0].type, ChangeType::kAdded);
  EXPECT_EQ(result.changes[0].id.name, "new");
  EXPECT_TRUE(result.changes[0].diff.starts_with("--- /dev/null\n+++ head/JobSet/default/new\n@@ -0,0 +1,16 @@\n"
                                                 "+apiVersion: jobset.x-k8s.io/v1alpha2\n"))
      << result.changes[0].diff;
  EXPECT_EQ(result.changes[1].type, ChangeType::kRemoved);
  EXPECT_TRUE(result.changes[1].diff.starts_with("--- base/JobSet/default/old\n+++ /dev/null\n@@ -1,16 +0,0 @@\n"))
      << result.changes[1].diff;
  EXPECT_EQ(result.CountsText(), "1 added, 1 removed, 0 changed, 0 unchanged (2 TrainJobs compared)");
}

TEST(Compare, ChangesAreSortedByKindNamespaceAndName) {
  const std::string config_map = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: z-mpi-hostfile\n"
                                 "  namespace: b\ndata:\n  hostfile: x\n";
  DiffResult result = Compare(Revision({}), Revision({
                                                Rendered("b/z", JobSet("z", "b", "x") + "---\n" + config_map),
                                                Rendered("a/yy", JobSet("yy", "a", "x")),
                                                Rendered("b/a", JobSet("a", "b", "x")),
                                            }));
  std::vector<std::string> names;
  for (const ObjectChange& change : result.changes) names.push_back(DisplayName(change.id));
  EXPECT_EQ(names, (std::vector<std::string>{"ConfigMap b/z-mpi-hostfile", "JobSet a/yy", "JobSet b/a",
                                             "JobSet b/z"}));
}

TEST(Compare, AVersionChangeIsAChangeNotARemovalAndAnAddition) {
  std::string v2 = JobSet("a", "default", "x");
  std::string v3 = v2;
  v3.replace(v3.find("v1alpha2"), 8, "v1beta1");
  DiffResult result = Compare(Revision({Rendered("default/a", v2)}), Revision({Rendered("default/a", v3)}));
  ASSERT_EQ(result.changes.size(), 1u);
  EXPECT_EQ(result.changes[0].type, ChangeType::kChanged);
  EXPECT_EQ(result.changes[0].id.api_version, "jobset.x-k8s.io/v1beta1");
}

TEST(Compare, DataThatPrintsAlikeIsUnchanged) {
  // An int and a float of the same value are different nodes but one text.
  DiffResult result = Compare(Revision({Rendered("default/a", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n"
                                                              "  name: a\n  namespace: default\nx: 1\n")}),
                              Revision({Rendered("default/a", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n"
                                                              "  name: a\n  namespace: default\nx: 1.0\n")}));
  EXPECT_TRUE(result.changes.empty());
  EXPECT_EQ(result.unchanged, 1u);
}

TEST(Compare, TrainJobRefusedAtHeadKeepsItsObjectsOutOfTheDiff) {
  // The cluster refuses the update and keeps the old JobSet: not a removal.
  DiffResult result = Compare(Revision({Rendered("default/a", JobSet("a", "default", "x"))}),
                              Revision({Refused("default/a", "runtimeRef is immutable")}));
  EXPECT_TRUE(result.changes.empty());
  EXPECT_EQ(result.unchanged, 0u);
  EXPECT_EQ(result.Refused(Side::kHead), std::vector<std::string>{"default/a"});
  EXPECT_EQ(result.ErrorCount(Side::kHead), 1u);
  // HEAD's error is `check`'s finding, not a difference; but with the only
  // TrainJob refused, nothing was compared, which "no differences" would hide.
  EXPECT_FALSE(result.HasDifferences());
  EXPECT_TRUE(result.NothingCompared());
  ASSERT_EQ(result.findings.size(), 1u);
  EXPECT_EQ(result.findings[0].side, Side::kHead);
  EXPECT_EQ(result.findings[0].train_job, "default/a");
}

TEST(Compare, ATrainJobRefusedAtHeadBesideOneComparedIsNoDifference) {
  DiffResult result = Compare(Revision({Rendered("default/a", JobSet("a", "default", "x")),
                                        Rendered("default/b", JobSet("b", "default", "x"))}),
                              Revision({Refused("default/a", "runtimeRef is immutable"),
                                        Rendered("default/b", JobSet("b", "default", "x"))}));
  EXPECT_TRUE(result.changes.empty());
  EXPECT_EQ(result.unchanged, 1u);
  EXPECT_FALSE(result.HasDifferences());
  EXPECT_FALSE(result.NothingCompared());
}

TEST(Compare, HeadErrorsAboutNoTrainJobWithNothingRenderedAreNothingCompared) {
  // Every copy of a TrainJob is a duplicate-object error: no TrainJob result.
  RevisionRender head = Revision({});
  head.diagnostics = {MakeError(Location{}, "", "[duplicate-object] duplicate TrainJob default/b")};
  DiffResult result = Compare(Revision({}), head);
  EXPECT_EQ(result.train_jobs, 0u);
  EXPECT_FALSE(result.HasDifferences());
  EXPECT_TRUE(result.NothingCompared());
  // Without errors, no TrainJob at all is simply no difference.
  EXPECT_FALSE(Compare(Revision({}), Revision({})).NothingCompared());
}

TEST(Compare, TrainJobRefusedAtBaseWasNeverCreatedSoHeadAddsItsObjects) {
  DiffResult result = Compare(Revision({Refused("default/a", "broken")}),
                              Revision({Rendered("default/a", JobSet("a", "default", "x"))}));
  ASSERT_EQ(result.changes.size(), 1u);
  EXPECT_EQ(result.changes[0].type, ChangeType::kAdded);
  EXPECT_EQ(result.Refused(Side::kBase), std::vector<std::string>{"default/a"});
  EXPECT_TRUE(result.Refused(Side::kHead).empty());
}

TEST(Compare, ErrorsAtBaseAloneAreNoDifference) {
  // A broken TrainJob deleted: nothing was created, nothing is removed.
  DiffResult result = Compare(Revision({Refused("default/a", "broken")}), Revision({}));
  EXPECT_FALSE(result.HasDifferences());
  EXPECT_FALSE(result.NothingCompared());
  EXPECT_EQ(result.ErrorCount(Side::kBase), 1u);
  EXPECT_EQ(result.ErrorCount(Side::kHead), 0u);
}

TEST(Compare, AnErrorPresentAtBothRevisionsIsStillAnErrorAtHead) {
  RevisionRender both = Revision({Refused("default/a", "broken")});
  DiffResult result = Compare(both, both);
  EXPECT_TRUE(result.changes.empty());
  EXPECT_EQ(result.ErrorCount(Side::kBase), 1u);
  EXPECT_EQ(result.ErrorCount(Side::kHead), 1u);
  EXPECT_FALSE(result.HasDifferences());
  EXPECT_TRUE(result.NothingCompared());
}

TEST(Compare, RevisionFindingsAreKeptWithoutTrainJobAndWarningsAreNoDifference) {
  RevisionRender head = Revision({Rendered("default/a", JobSet("a", "default", "x"))});
  Diagnostic warning = MakeError(Location{}, "", "runtime is deprecated");
  warning.severity = Severity::kWarning;
  Diagnostic note = warning;
  note.severity = Severity::kNote;
  head.diagnostics = {warning, note};
  DiffResult result = Compare(Revision({Rendered("default/a", JobSet("a", "default", "x"))}), head);
  ASSERT_EQ(result.findings.size(), 1u) << "notes are left out";
  EXPECT_EQ(result.findings[0].train_job, "");
  EXPECT_FALSE(result.HasDifferences());
}

TEST(Compare, WarningsAtBaseAreLeftOut) {
  RevisionRender base = Revision({Rendered("default/a", JobSet("a", "default", "x"))});
  Diagnostic warning = MakeError(Location{}, "", "runtime is deprecated");
  warning.severity = Severity::kWarning;
  base.diagnostics = {warning};
  base.train_jobs[0].diagnostics = {warning};
  DiffResult result = Compare(base, base);
  ASSERT_EQ(result.findings.size(), 2u);
  EXPECT_EQ(result.findings[0].side, Side::kHead);
  EXPECT_EQ(result.findings[1].side, Side::kHead);
}

TEST(Compare, ObjectsWithOneKeyArePairedInOrder) {
  std::string twice = JobSet("a", "default", "x") + "---\n" + JobSet("a", "default", "y");
  DiffResult result = Compare(Revision({Rendered("default/a", twice)}),
                              Revision({Rendered("default/a", JobSet("a", "default", "x"))}));
  ASSERT_EQ(result.changes.size(), 1u);
  EXPECT_EQ(result.changes[0].type, ChangeType::kRemoved);
  EXPECT_EQ(result.unchanged, 1u);
}

}  // namespace
}  // namespace tjr::diff
