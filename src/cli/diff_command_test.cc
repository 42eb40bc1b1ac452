// `tjrender diff` end to end: folders, throw-away Git repositories (built
// with the git command; skipped without it), every report format, colour,
// the update checks and the exit codes.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>


#include <filesystem>

#include "cli/commands.h"
#include "cli/test_support.h"
#include "testkit/git_repo.h"

namespace tjr::cli {
namespace {

// `check`'s text output without its closing summary line
// ("N objects rendered, N errors, N warnings").
std::string WithoutSummary(const std::string& err) {
  std::size_t end = err.size();
  if (end == 0 || err[end - 1] != '\n') return err;
  std::size_t start = err.rfind('\n', end - 2);
  start = start == std::string::npos ? 0 : start + 1;
  if (err.find(" objects rendered, ", start) == std::string::npos) return err;
  return err.substr(0, start);
}

using testing::Invoke;
using testing::Outcome;

Outcome Diff(const std::vector<std::string>& args) { return Invoke(RunDiff, args); }

using testkit::InDirectory;

const char kRuntime[] = R"(apiVersion: trainer.kubeflow.org/v1alpha1
kind: ClusterTrainingRuntime
metadata:
  name: plain
spec:
  template:
    spec:
      replicatedJobs:
        - name: node
          template:
            metadata:
              labels:
                trainer.kubeflow.org/trainjob-ancestor-step: trainer
            spec:
              template:
                spec:
                  containers:
                    - name: node
                      image: busybox:1.36
)";

std::string Runtime(const std::string& name, const std::string& image) {
  std::string text = kRuntime;
  text.replace(text.find("name: plain"), 11, "name: " + name);
  text.replace(text.find("busybox:1.36"), 12, image);
  return text;
}

std::string Replaced(std::string text, const std::string& from, const std::string& to) {
  text.replace(text.find(from), from.size(), to);
  return text;
}

std::string Job(const std::string& name, const std::string& runtime, const std::string& extra = "") {
  return "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nmetadata:\n  name: " + name +
         "\n  namespace: default\nspec:\n  runtimeRef:\n    name: " + runtime + "\n" + extra;
}

// A repository pinned to Trainer v2.1: two runtimes, three TrainJobs.
void WriteBase(const testkit::TempDir& repo) {
  repo.Write(".tjrender.yaml", "target: trainer-v2.1\n");
  repo.Write("runtimes/plain.yaml", Runtime("plain", "busybox:1.36"));
  repo.Write("runtimes/other.yaml", Runtime("other", "alpine:3"));
  repo.Write("jobs/a.yaml", Job("a", "plain"));
  repo.Write("jobs/b.yaml", Job("b", "plain"));
  repo.Write("jobs/c.yaml", Job("c", "other"));
}

TEST(DiffCommand, TwoFoldersWithoutGit) {
  testkit::TempDir dirs;
  dirs.Write("old/.tjrender.yaml", "target: trainer-v2.1\n");
  dirs.Write("new/.tjrender.yaml", "target: trainer-v2.1\n");
  dirs.Write("old/runtime.yaml", Runtime("plain", "busybox:1.36"));
  dirs.Write("old/jobs.yaml", Job("a", "plain") + "---\n" + Job("gone", "plain"));
  dirs.Write("new/runtime.yaml", Runtime("plain", "busybox:1.37"));
  dirs.Write("new/jobs.yaml", Job("a", "plain"));
  Outcome same = Diff({dirs.Path("old"), dirs.Path("old")});
  EXPECT_EQ(same.exit_code, 0) << same.err;
  EXPECT_EQ(same.out, "no differences (2 objects unchanged, 2 TrainJobs compared)\n");
  EXPECT_EQ(WithoutSummary(same.err), "");

  InDirectory here(dirs.root());
  Outcome run = Diff({"old/", "new", "-U", "1"});
  EXPECT_EQ(run.exit_code, 1) << run.err;
  EXPECT_EQ(WithoutSummary(run.err), "");
  // Read and checked by hand: the JobSet of TrainJob a takes the new image
  // at line 28 of kubectl's YAML; the JobSet of the deleted TrainJob goes.
  const std::string expected_start =
      "0 added, 1 removed, 1 changed, 0 unchanged (2 TrainJobs compared)\n"
      "  changed  JobSet default/a\n"
      "  removed  JobSet default/gone\n"
      "\n"
      "=== changed JobSet default/a (TrainJob default/a) ===\n"
      "--- old/JobSet/default/a\n"
      "+++ new/JobSet/default/a\n"
      "@@ -27,3 +27,3 @@\n"
      "             containers:\n"
      "-            - image: busybox:1.36\n"
      "+            - image: busybox:1.37\n"
      "               name: node\n"
      "\n"
      "=== removed JobSet default/gone (TrainJob default/gone) ===\n"
      "--- old/JobSet/default/gone\n"
      "+++ /dev/null\n"
      "@@ -1,";
  EXPECT_EQ(run.out.substr(0, expected_start.size()), expected_start) << run.out;
  EXPECT_NE(run.out.find("\n-kind: JobSet\n"), std::string::npos);
  EXPECT_NE(run.out.find("\n-          trainer.kubeflow.org/trainjob-ancestor-step: trainer\n"), std::string::npos) << run.out;
}

TEST(DiffCommand, RuntimeChangeBetweenCommits) {
  TJR_REQUIRE_GIT();
  testkit::GitRepo repo;
  WriteBase(repo);
  ASSERT_EQ(repo.Commit("base"), 0);
  repo.Write("runtimes/plain.yaml", Runtime("plain", "busybox:1.37"));
  ASSERT_EQ(repo.Commit("bump"), 0);
  InDirectory here(repo.root());
  Outcome run = Diff({"HEAD~1", "HEAD"});
  EXPECT_EQ(run.exit_code, 1) << run.err;
  EXPECT_TRUE(run.out.starts_with("0 added, 0 removed, 2 changed, 0 unchanged (2 TrainJobs compared)\n"
                                  "  changed  JobSet default/a\n"
                                  "  changed  JobSet default/b\n\n"
                                  "=== changed JobSet default/a (TrainJob default/a) ===\n"
                                  "--- HEAD~1/JobSet/default/a\n"
                                  "+++ HEAD/JobSet/default/a\n"))
      << run.out;
  Outcome back = Diff({"HEAD", "HEAD~1"});
  EXPECT_NE(back.out.find("-            - image: busybox:1.37\n+            - image: busybox:1.36\n"),
            std::string::npos)
      << back.out;
  // The working tree is HEAD when nothing is given.
  // Only affected TrainJobs are compared: none here; --all compares all.
  Outcome clean = Diff({"HEAD"});
  EXPECT_EQ(clean.exit_code, 0) << clean.err;
  EXPECT_EQ(clean.out, "no differences (0 objects unchanged, 0 TrainJobs compared)\n");
  Outcome all = Diff({"HEAD", "--all"});
  EXPECT_EQ(all.exit_code, 0) << all.err;
  EXPECT_EQ(all.out, "no differences (3 objects unchanged, 3 TrainJobs compared)\n");
  Outcome all_revisions = Diff({"HEAD~1", "HEAD", "--all"});
  EXPECT_TRUE(all_revisions.out.starts_with("0 added, 0 removed, 2 changed, 1 unchanged (3 TrainJobs compared)\n"));
}

TEST(DiffCommand, DeletedAndRenamedTrainJobFiles) {
  TJR_REQUIRE_GIT();
  testkit::GitRepo repo;
  WriteBase(repo);
  ASSERT_EQ(repo.Commit("base"), 0);
  ASSERT_EQ(repo.Git("rm -q jobs/b.yaml"), 0);
  ASSERT_EQ(repo.Git("mv jobs/c.yaml jobs/renamed.yaml"), 0);
  ASSERT_EQ(repo.Commit("delete and move"), 0);
  InDirectory here(repo.root());
  Outcome run = Diff({"HEAD~1", "HEAD"});
  EXPECT_EQ(run.exit_code, 1) << run.err;
  // The moved file holds the same TrainJob: nothing changes for it.
  EXPECT_TRUE(run.out.starts_with("0 added, 1 removed, 0 changed, 1 unchanged (2 TrainJobs compared)\n"
                                  "  removed  JobSet default/b\n\n"
                                  "=== removed JobSet default/b (TrainJob default/b) ===\n"
                                  "--- HEAD~1/JobSet/default/b\n+++ /dev/null\n"))
      << run.out;
}

// The findings of a diff go to the same report formats as check's: the
// refused update as a SARIF result and a JSON finding with its rule id.
TEST(DiffCommand, FindingsReportFiles) {
  TJR_REQUIRE_GIT();
  testkit::GitRepo repo;
  WriteBase(repo);
  ASSERT_EQ(repo.Commit("base"), 0);
  repo.Write("jobs/a.yaml", Job("a", "other"));  // runtimeRef changed
  InDirectory here(repo.root());
  const std::string json = repo.Path("findings.json");
  const std::string sarif = repo.Path("findings.sarif");
  Outcome run = Diff({"main", "--report", "json=" + json, "--report", "sarif=" + sarif});
  EXPECT_EQ(run.exit_code, 1) << run.err;
  std::ifstream json_in(json);
  std::string json_text((std::istreambuf_iterator<char>(json_in)), std::istreambuf_iterator<char>());
  EXPECT_NE(json_text.find("\"rule\": \"upstream/invalid-value\""), std::string::npos) << json_text;
  EXPECT_NE(json_text.find("runtimeRef is immutable"), std::string::npos) << json_text;
  std::ifstream sarif_in(sarif);
  std::string sarif_text((std::istreambuf_iterator<char>(sarif_in)), std::istreambuf_iterator<char>());
  EXPECT_NE(sarif_text.find("\"version\": \"2.1.0\""), std::string::npos);
  EXPECT_NE(sarif_text.find("jobs/a.yaml"), std::string::npos) << sarif_text;
  EXPECT_EQ(Diff({"main", "--findings-format", "tap"}).exit_code, 2);
}

TEST(DiffCommand, WorkingTreeAgainstARevisionFromASubfolder) {
  TJR_REQUIRE_GIT();
  testkit::GitRepo repo;
  WriteBase(repo);
  ASSERT_EQ(repo.Commit("base"), 0);
  repo.Write("jobs/d.yaml", Job("d", "other"));  // untracked: read too
  repo.Write("jobs/a.yaml", Job("a", "other"));  // runtimeRef changed
  InDirectory here(repo.Path("jobs"));
  Outcome run = Diff({"main"});
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_EQ(WithoutSummary(run.err),
            "jobs/a.yaml:8:5: error: spec.runtimeRef: Invalid value: \"object\": runtimeRef is immutable\n");
  EXPECT_EQ(run.out,
            run.out.substr(0, 0) +
                "1 added, 0 removed, 0 changed, 0 unchanged (2 TrainJobs compared)\n"
                "  added    JobSet default/d\n"
                "refused at head: TrainJob default/a (1 error)\n"
                "\n"
                "=== added JobSet default/d (TrainJob default/d) ===\n" +
                run.out.substr(run.out.find("--- /dev/null\n")))
      << run.out;
  EXPECT_NE(run.out.find("+++ worktree/JobSet/default/d\n"), std::string::npos);
}

// Each update rule of Trainer v2.1.0, as `tjrender diff` and its exit code
// report it: the message is upstream's, at the new file's location.
struct UpdateCase {
  const char* name;
  std::string before;
  std::string after;
  std::string error;  // "" when the update is admitted
  const char* target = "trainer-v2.1";
  bool admission = true;  // false: the rendered objects are partial by design
};

class UpdateRules : public ::testing::TestWithParam<UpdateCase> {};

TEST_P(UpdateRules, AsDiffReportsThem) {
  TJR_REQUIRE_GIT();
  const UpdateCase& c = GetParam();
  testkit::GitRepo repo;
  WriteBase(repo);
  repo.Write(".tjrender.yaml", std::string("target: ") + c.target + "\n");
  repo.Write("jobs/u.yaml", c.before);
  ASSERT_EQ(repo.Commit("base"), 0);
  repo.Write("jobs/u.yaml", c.after);
  ASSERT_EQ(repo.Commit("update"), 0);
  InDirectory here(repo.root());
  std::vector<std::string> args = {"HEAD~1", "HEAD", "--format", "json"};
  if (!c.admission) args.push_back("--no-admission");
  Outcome run = Diff(args);
  if (c.error.empty()) {
    EXPECT_EQ(WithoutSummary(run.err), "");
    EXPECT_NE(run.out.find("\"errorsAtHead\": 0"), std::string::npos) << run.out;
  } else {
    EXPECT_EQ(run.exit_code, 1);
    EXPECT_EQ(WithoutSummary(run.err), c.error + "\n");
    EXPECT_NE(run.out.find("\"head\": [\n            \"default/u\"\n        ]"), std::string::npos) << run.out;
  }
}

// `check --since BASE` on the working tree runs the same update checks.
TEST_P(UpdateRules, AsCheckSinceReportsThem) {
  TJR_REQUIRE_GIT();
  const UpdateCase& c = GetParam();
  testkit::GitRepo repo;
  WriteBase(repo);
  repo.Write(".tjrender.yaml", std::string("target: ") + c.target + "\n");
  repo.Write("jobs/u.yaml", c.before);
  ASSERT_EQ(repo.Commit("base"), 0);
  repo.Write("jobs/u.yaml", c.after);
  InDirectory here(repo.root());
  Outcome run = Invoke(RunCheck, {"--since", "HEAD"});
  EXPECT_EQ(run.exit_code, c.error.empty() ? 0 : 1);
  EXPECT_EQ(WithoutSummary(run.err), c.error.empty() ? "" : c.error + "\n");
  EXPECT_EQ(run.out, "");
  if (c.error.empty()) return;
  // Without --since every TrainJob is a create: no update error.
  Outcome create = Invoke(RunCheck, {"."});
  EXPECT_EQ(create.err.find(c.error), std::string::npos) << create.err;
  // BASE itself, checked as an update of BASE, is no change.
  Outcome committed = Invoke(RunCheck, {"--rev", "HEAD", "--since", "HEAD"});
  EXPECT_EQ(committed.exit_code, 0) << committed.err;
}

TEST(CheckSince, AllTrainJobsAreUpdatesWhenTheConfigurationChanged) {
  TJR_REQUIRE_GIT();
  testkit::GitRepo repo;
  WriteBase(repo);
  ASSERT_EQ(repo.Commit("base"), 0);
  repo.Write("jobs/a.yaml", Job("a", "other"));
  repo.Write(".tjrender.yaml", "target: trainer-v2.1\nexclude: [vendor]\n");
  InDirectory here(repo.root());
  Outcome run = Invoke(RunCheck, {"--since", "HEAD"});
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_EQ(WithoutSummary(run.err),
            "jobs/a.yaml:8:5: error: spec.runtimeRef: Invalid value: \"object\": runtimeRef is immutable\n");
}

// A copy of an unchanged file's TrainJob added in a changed file: the
// unchanged copy's location comes from the inventory (and, on the second
// run, its cache), and must say the column a full read says.
TEST(CheckSince, ObjectsOfUnchangedFilesKeepTheirColumnInEveryFormat) {
  TJR_REQUIRE_GIT();
  testkit::GitRepo repo;
  WriteBase(repo);
  ASSERT_EQ(repo.Commit("base"), 0);
  repo.Write("jobs/copy.yaml", Job("b", "plain"));
  InDirectory here(repo.root());
  const std::string full =
      "jobs/b.yaml:1:1: error: [duplicate-object] duplicate TrainJob default/b: also defined at "
      "jobs/copy.yaml:1:1; no copy is rendered or checked\n"
      "jobs/copy.yaml:1:1: error: [duplicate-object] duplicate TrainJob default/b: also defined at "
      "jobs/b.yaml:1:1; no copy is rendered or checked\n";
  Outcome whole = Invoke(RunCheck, {"."});
  EXPECT_EQ(WithoutSummary(whole.err), full);
  for (const char* run : {"first", "second (inventory cache)"}) {
    Outcome since = Invoke(RunCheck, {"--since", "HEAD"});
    EXPECT_EQ(since.exit_code, 1) << run;
    std::string lines = WithoutSummary(since.err);
    EXPECT_NE(lines.find("jobs/b.yaml:1:1: error: [duplicate-object] duplicate TrainJob default/b: also defined at "
                         "jobs/copy.yaml:1:1;"),
              std::string::npos)
        << run << "\n" << lines;
    EXPECT_NE(lines.find("also defined at jobs/b.yaml:1:1;"), std::string::npos) << run << "\n" << lines;
    Outcome github = Invoke(RunCheck, {"--since", "HEAD", "--format", "github"});
    EXPECT_NE(github.out.find("::error file=jobs/b.yaml,line=1,col=1,title=tjrender duplicate-object::"),
              std::string::npos)
        << run << "\n" << github.out;
  }
  // diff: both copies refused, no TrainJob left to compare.
  Outcome diff = Diff({"HEAD"});
  EXPECT_EQ(diff.exit_code, 1) << diff.out;
  EXPECT_NE(diff.err.find("jobs/b.yaml:1:1: error: [duplicate-object]"), std::string::npos) << diff.err;
  EXPECT_TRUE(diff.out.starts_with("nothing compared: no TrainJob rendered at head without errors (2 errors at head"))
      << diff.out;
}

const std::string kOverride =
    "  podTemplateOverrides:\n    - targetJobs:\n        - name: node\n      spec:\n"
    "        nodeSelector:\n          pool: POOL\n";

std::string Override(const std::string& pool) {
  std::string text = kOverride;
  text.replace(text.find("POOL"), 4, pool);
  return text;
}

INSTANTIATE_TEST_SUITE_P(
    TrainerV21, UpdateRules,
    ::testing::Values(
        UpdateCase{"runtime_ref", Job("u", "plain"), Job("u", "other"),
                   "jobs/u.yaml:8:5: error: spec.runtimeRef: Invalid value: \"object\": runtimeRef is immutable"},
        UpdateCase{"runtime_ref_kind", Job("u", "plain"),
                   Replaced(Job("u", "plain"), "    name: plain", "    name: plain\n    kind: TrainingRuntime"),
                   "jobs/u.yaml:8:5: error: spec.runtimeRef: Invalid value: \"object\": runtimeRef is immutable"},
        UpdateCase{"runtime_ref_defaults_written_out", Job("u", "plain"),
                   // The API server's defaults, written out: no change.
                   Replaced(Job("u", "plain"), "    name: plain",
                            "    name: plain\n    apiGroup: trainer.kubeflow.org\n    kind: ClusterTrainingRuntime"),
                   ""},
        UpdateCase{"managed_by", Job("u", "plain", "  managedBy: kueue.x-k8s.io/multikueue\n"),
                   Job("u", "plain", "  managedBy: trainer.kubeflow.org/trainjob-controller\n"),
                   "jobs/u.yaml:9:14: error: spec.managedBy: Invalid value: \"string\": ManagedBy value is "
                   "immutable"},
        UpdateCase{"managed_by_default_dropped", Job("u", "plain", "  managedBy: kueue.x-k8s.io/multikueue\n"),
                   Job("u", "plain"),
                   // The API server defaults the missing field, which changes it; the
                   // error is at spec, where the default was put.
                   "jobs/u.yaml:7:3: error: spec.managedBy: Invalid value: \"string\": ManagedBy value is "
                   "immutable"},
        UpdateCase{"overrides_not_suspended", Job("u", "plain", Override("a")), Job("u", "plain", Override("b")),
                   "jobs/u.yaml:10:5: error: spec.podTemplateOverrides: Forbidden: PodTemplateOverrides can only "
                   "be modified when the TrainJob is suspended"},
        UpdateCase{"overrides_removed_not_suspended", Job("u", "plain", Override("a")), Job("u", "plain"),
                   // At spec: the overrides are gone.
                   "jobs/u.yaml:7:3: error: spec.podTemplateOverrides: Forbidden: PodTemplateOverrides can only "
                   "be modified when the TrainJob is suspended"},
        UpdateCase{"overrides_suspended", Job("u", "plain", Override("a")),
                   Job("u", "plain", "  suspend: true\n" + Override("b")), ""},
        UpdateCase{"overrides_unchanged_other_field", Job("u", "plain", Override("a")),
                   Job("u", "plain", "  suspend: true\n" + Override("a")), ""}),
    [](const ::testing::TestParamInfo<UpdateCase>& info) { return std::string(info.param.name); });

// runtimePatches with one manager patching the node job's pod spec.
std::string Patch(const std::string& pod_spec) {
  return "  runtimePatches:\n"
         "    - manager: kueue.x-k8s.io/m\n"
         "      trainingRuntimeSpec:\n"
         "        template:\n"
         "          spec:\n"
         "            replicatedJobs:\n"
         "              - name: node\n"
         "                template:\n"
         "                  spec:\n"
         "                    template:\n"
         "                      spec:\n" +
         pod_spec;
}

// A runtime with the dataset initializer a TrainJob's initializer needs,
// written after the TrainJob in the same file.
const std::string kWithInitRuntime = R"(---
apiVersion: trainer.kubeflow.org/v1alpha1
kind: ClusterTrainingRuntime
metadata:
  name: init
spec:
  template:
    spec:
      replicatedJobs:
        - name: dataset-initializer
          template:
            metadata:
              labels:
                trainer.kubeflow.org/trainjob-ancestor-step: dataset-initializer
            spec:
              template:
                spec:
                  containers:
                    - name: dataset-initializer
                      image: ghcr.io/kubeflow/trainer/dataset-initializer
                      volumeMounts:
                        - name: initializer
                          mountPath: /workspace
                  volumes:
                    - name: initializer
                      emptyDir: {}
        - name: node
          template:
            metadata:
              labels:
                trainer.kubeflow.org/trainjob-ancestor-step: trainer
            spec:
              template:
                spec:
                  containers:
                    - name: node
                      image: busybox:1.36
)";

const std::string kSidecar =
    "                        containers:\n"
    "                          - name: sidecar\n"
    "                            volumeMounts:\n"
    "                              - name: data\n"
    "                                mountPath: ";

// Trainer v2.2/v2.3 rules (messages from the conformance suite
// restrictions-v2.3, which cites the CRDs and the JobSet plugin); line
// numbers of jobs/u.yaml: spec at 6, runtimeRef 7-8, then the extra lines
// from 9.
INSTANTIATE_TEST_SUITE_P(
    TrainerV22V23, UpdateRules,
    ::testing::Values(
        UpdateCase{"v23_runtime_ref", Job("u", "plain"), Job("u", "other"),
                   "jobs/u.yaml:8:5: error: spec.runtimeRef: Invalid value: \"object\": field is immutable",
                   "trainer-v2.3"},
        UpdateCase{"v23_trainer", Job("u", "plain", "  suspend: true\n  trainer:\n    numNodes: 1\n"),
                   Job("u", "plain", "  suspend: true\n  trainer:\n    numNodes: 2\n"),
                   "jobs/u.yaml:11:5: error: spec.trainer: Invalid value: \"object\": field is immutable",
                   "trainer-v2.3"},
        UpdateCase{"v23_initializer",
                   Job("u", "init", "  initializer:\n    dataset:\n      storageUri: hf://a\n") + kWithInitRuntime,
                   Job("u", "init", "  initializer:\n    dataset:\n      storageUri: hf://b\n") + kWithInitRuntime,
                   "jobs/u.yaml:10:5: error: spec.initializer: Invalid value: \"object\": field is immutable",
                   "trainer-v2.3"},
        UpdateCase{"v23_active_deadline", Job("u", "plain", "  activeDeadlineSeconds: 60\n"),
                   Job("u", "plain", "  activeDeadlineSeconds: 120\n"),
                   "jobs/u.yaml:9:26: error: spec.activeDeadlineSeconds: Invalid value: \"integer\": field is "
                   "immutable",
                   "trainer-v2.3"},
        UpdateCase{"v23_managed_by", Job("u", "plain"),
                   Job("u", "plain", "  managedBy: kueue.x-k8s.io/multikueue\n"),
                   "jobs/u.yaml:9:14: error: spec.managedBy: Invalid value: \"string\": field is immutable",
                   "trainer-v2.3"},
        UpdateCase{"v23_patches_not_suspended", Job("u", "plain", Patch("                        nodeSelector:\n                          pool: a\n")),
                   Job("u", "plain", Patch("                        nodeSelector:\n                          pool: b\n")),
                   "jobs/u.yaml:10:5: error: spec.runtimePatches: Forbidden: RuntimePatches can only be modified "
                   "when the TrainJob is suspended before or after the update",
                   "trainer-v2.3"},
        UpdateCase{"v23_patches_on_unsuspend",
                   Job("u", "plain", "  suspend: true\n" + Patch("                        nodeSelector:\n                          pool: a\n")),
                   Job("u", "plain", Patch("                        nodeSelector:\n                          pool: b\n")), "",
                   "trainer-v2.3"},
        UpdateCase{"v22_patches_on_unsuspend",
                   Job("u", "plain", "  suspend: true\n" + Patch("                        nodeSelector:\n                          pool: a\n")),
                   Job("u", "plain", Patch("                        nodeSelector:\n                          pool: b\n")),
                   "jobs/u.yaml:10:5: error: spec.runtimePatches: Forbidden: RuntimePatches can only be modified "
                   "when the TrainJob is suspended",
                   "trainer-v2.2"},
        UpdateCase{"v23_patch_containers_while_suspended",
                   Job("u", "plain", "  suspend: true\n" + Patch(kSidecar + "/data\n")),
                   Job("u", "plain", "  suspend: true\n" + Patch(kSidecar + "/data2\n")),
                   "jobs/u.yaml:22:27: error: spec.runtimePatches[0].trainingRuntimeSpec.template.spec."
                   "replicatedJobs[0].template.spec.template.spec.containers: Invalid value: \"array\": field is "
                   "immutable",
                   // The patched sidecar has no image (the TrainJob schema prunes
                   // it in a patch) and no volume: the cluster refuses the Job
                   // (rendered/job/image, volume-mounts); this case is the update rule.
                   "trainer-v2.3", false},
        UpdateCase{"v23_patch_grace_period_while_suspended",
                   Job("u", "plain", "  suspend: true\n" + Patch("                        terminationGracePeriodSeconds: 5\n")),
                   Job("u", "plain", "  suspend: true\n" + Patch("                        terminationGracePeriodSeconds: 6\n")),
                   "jobs/u.yaml:21:56: error: spec.runtimePatches[0].trainingRuntimeSpec.template.spec."
                   "replicatedJobs[0].template.spec.template.spec.terminationGracePeriodSeconds: Invalid value: "
                   "\"integer\": field is immutable",
                   "trainer-v2.3"},
        UpdateCase{"v23_patch_service_account_while_suspended", Job("u", "plain", "  suspend: true\n" + Patch("                        serviceAccountName: a\n")),
                   Job("u", "plain", "  suspend: true\n" + Patch("                        serviceAccountName: b\n")),
                   "jobs/u.yaml:21:45: error: spec.runtimePatches[0].trainingRuntimeSpec.template.spec.replicatedJobs[0].template.spec.template.spec."
                   "serviceAccountName: Invalid value: \"string\": field is immutable",
                   "trainer-v2.3"},
        UpdateCase{"v23_patch_security_context_while_suspended", Job("u", "plain", "  suspend: true\n" + Patch("                        securityContext:\n                          runAsUser: 1\n")),
                   Job("u", "plain", "  suspend: true\n" + Patch("                        securityContext:\n                          runAsUser: 2\n")),
                   "jobs/u.yaml:22:27: error: spec.runtimePatches[0].trainingRuntimeSpec.template.spec.replicatedJobs[0].template.spec.template.spec."
                   "securityContext: Invalid value: \"object\": field is immutable",
                   "trainer-v2.3"},
        UpdateCase{"v23_patch_volumes_while_suspended", Job("u", "plain", "  suspend: true\n" + Patch("                        volumes:\n                          - name: data\n                            emptyDir: {}\n")),
                   Job("u", "plain", "  suspend: true\n" + Patch("                        volumes:\n                          - name: data\n                            emptyDir:\n                              medium: Memory\n")),
                   "jobs/u.yaml:22:27: error: spec.runtimePatches[0].trainingRuntimeSpec.template.spec.replicatedJobs[0].template.spec.template.spec."
                   "volumes: Invalid value: \"array\": field is immutable",
                   "trainer-v2.3"},
        UpdateCase{"v23_patch_image_pull_secrets_while_suspended", Job("u", "plain", "  suspend: true\n" + Patch("                        imagePullSecrets:\n                          - name: a\n")),
                   Job("u", "plain", "  suspend: true\n" + Patch("                        imagePullSecrets:\n                          - name: b\n")),
                   "jobs/u.yaml:22:27: error: spec.runtimePatches[0].trainingRuntimeSpec.template.spec.replicatedJobs[0].template.spec.template.spec."
                   "imagePullSecrets: Invalid value: \"array\": field is immutable",
                   "trainer-v2.3"},
        UpdateCase{"v23_patch_init_containers_while_suspended", Job("u", "plain", "  suspend: true\n" + Patch("                        initContainers:\n                          - name: init\n                            env:\n                              - name: A\n                                value: \"1\"\n")),
                   Job("u", "plain", "  suspend: true\n" + Patch("                        initContainers:\n                          - name: init\n                            env:\n                              - name: A\n                                value: \"2\"\n")),
                   "jobs/u.yaml:22:27: error: spec.runtimePatches[0].trainingRuntimeSpec.template.spec.replicatedJobs[0].template.spec.template.spec."
                   "initContainers: Invalid value: \"array\": field is immutable",
                   // The patched init container has no image (a patch cannot set
                   // one): the cluster refuses the Job (rendered/job/image); this
                   // case is the update rule.
                   "trainer-v2.3", false},
        UpdateCase{"v23_patch_node_selector_while_suspended",
                   Job("u", "plain", "  suspend: true\n" + Patch("                        nodeSelector:\n                          pool: a\n")),
                   Job("u", "plain", "  suspend: true\n" + Patch("                        nodeSelector:\n                          pool: b\n")), "",
                   "trainer-v2.3"}),
    [](const ::testing::TestParamInfo<UpdateCase>& info) { return std::string(info.param.name); });

TEST(DiffCommand, ReportFormatsAndColour) {
  TJR_REQUIRE_GIT();
  testkit::GitRepo repo;
  WriteBase(repo);
  ASSERT_EQ(repo.Commit("base"), 0);
  repo.Write("runtimes/other.yaml", Runtime("other", "alpine:3.20"));
  ASSERT_EQ(repo.Commit("bump"), 0);
  InDirectory here(repo.root());

  Outcome plain = Diff({"HEAD~1", "HEAD"});
  EXPECT_EQ(plain.out.find('\x1b'), std::string::npos) << "auto: stdout is no terminal here";
  Outcome never = Diff({"HEAD~1", "HEAD", "--color", "never"});
  EXPECT_EQ(never.out, plain.out);
  Outcome always = Diff({"HEAD~1", "HEAD", "--color", "always"});
  EXPECT_NE(always.out.find("\x1b[31m-            - image: alpine:3\x1b[0m\n"
                            "\x1b[32m+            - image: alpine:3.20\x1b[0m\n"),
            std::string::npos)
      << always.out;

  Outcome markdown = Diff({"HEAD~1", "HEAD", "--format", "markdown"});
  EXPECT_EQ(markdown.exit_code, 1);
  EXPECT_TRUE(markdown.out.starts_with("<!-- tjrender diff -->\n"
                                       "### tjrender diff <code>HEAD~1</code> → <code>HEAD</code>\n\n"
                                       "**0 added, 0 removed, 1 changed**, 0 unchanged (1 TrainJob compared).\n\n"
                                       "<details><summary>changed <code>JobSet default/c</code> (TrainJob "
                                       "default/c)</summary>\n\n```diff\n--- HEAD~1/JobSet/default/c\n"))
      << markdown.out;
  EXPECT_TRUE(markdown.out.ends_with("```\n\n</details>\n\n"));

  Outcome json = Diff({"HEAD~1", "HEAD", "--format", "json"});
  EXPECT_EQ(json.exit_code, 1);
  EXPECT_NE(json.out.find("\"base\": \"HEAD~1\",\n    \"differences\": true,\n"), std::string::npos) << json.out;
  EXPECT_NE(json.out.find("\"changed\": 1,"), std::string::npos);
}

TEST(DiffCommand, MarkdownTruncatedBelowTheLimit) {
  TJR_REQUIRE_GIT();
  testkit::GitRepo repo;
  WriteBase(repo);
  for (int i = 0; i < 60; ++i) repo.Write("jobs/many-" + std::to_string(i) + ".yaml", Job("m" + std::to_string(i), "plain"));
  ASSERT_EQ(repo.Commit("base"), 0);
  repo.Write("runtimes/plain.yaml", Runtime("plain", "busybox:1.37"));
  InDirectory here(repo.root());
  Outcome full = Diff({"HEAD", "--format", "markdown"});
  EXPECT_LT(full.out.size(), 65536u);
  EXPECT_EQ(full.out.find("Truncated"), std::string::npos);
  Outcome cut = Diff({"HEAD", "--format", "markdown", "--max-bytes", "8000"});
  EXPECT_EQ(cut.exit_code, 1);
  EXPECT_LE(cut.out.size(), 8000u);
  EXPECT_NE(cut.out.find("**0 added, 0 removed, 62 changed**, 0 unchanged (62 TrainJobs compared)."), std::string::npos);
  EXPECT_NE(cut.out.find("> Truncated to fit GitHub's 8000-character comment limit: "), std::string::npos)
      << cut.out;
  Outcome small = Diff({"HEAD", "--format", "markdown", "--max-bytes", "100"});
  EXPECT_EQ(small.exit_code, 2);
}

TEST(DiffCommand, ErrorsAtBaseAreQualifiedAndNoDifferenceByThemselves) {
  TJR_REQUIRE_GIT();
  testkit::GitRepo repo;
  WriteBase(repo);
  repo.Write("jobs/x.yaml", Job("x", "missing"));
  ASSERT_EQ(repo.Commit("base"), 0);
  repo.Write("jobs/x.yaml", "");  // the broken TrainJob deleted
  InDirectory here(repo.root());
  Outcome run = Diff({"main"});
  EXPECT_EQ(run.exit_code, 0) << run.out;
  EXPECT_TRUE(run.err.starts_with("main:jobs/x.yaml:7:3: error: spec.RuntimeRef: Invalid value: "))
      << run.err;
  EXPECT_EQ(run.out, "no differences (0 objects unchanged, 1 TrainJob compared)\nrefused at base: TrainJob default/x (1 error)\n");
}

TEST(DiffCommand, ExitCodes) {
  testkit::TempDir dirs;
  dirs.Write("a/runtime.yaml", Runtime("plain", "busybox:1.36"));
  dirs.Write("a/jobs.yaml", Job("a", "plain"));
  dirs.Write("b/runtime.yaml", Runtime("plain", "busybox:1.36"));
  dirs.Write("b/jobs.yaml", Job("a", "plain") + "---\n" + Job("broken", "missing"));
  dirs.Write("c/jobs.yaml", "kind: [\n");
  EXPECT_EQ(Diff({dirs.Path("a"), dirs.Path("a")}).exit_code, 0);
  // HEAD's errors are `check`'s findings: the objects are the same, so the
  // diff says so and passes (the errors still go to stderr).
  Outcome refused = Diff({dirs.Path("a"), dirs.Path("b")});
  EXPECT_EQ(refused.exit_code, 0) << refused.out;
  EXPECT_EQ(refused.out, "no differences (2 objects unchanged, 2 TrainJobs compared)\n"
                         "refused at head: TrainJob default/broken (1 error)\n");
  EXPECT_NE(refused.err.find("b/jobs.yaml:16:3: error: spec.RuntimeRef: "), std::string::npos) << refused.err;
  // Every TrainJob refused at HEAD: nothing was compared, which is no pass.
  dirs.Write("d/runtime.yaml", Runtime("plain", "busybox:1.36"));
  dirs.Write("d/jobs.yaml", Job("a", "plain", "  suspend: maybe\n"));
  Outcome nothing = Diff({dirs.Path("a"), dirs.Path("d")});
  EXPECT_EQ(nothing.exit_code, 1) << nothing.err;
  // Two errors: the type, and the API server's "rules not checked" note.
  EXPECT_EQ(nothing.out, "nothing compared: no TrainJob rendered at head without errors (2 errors at head, on "
                         "stderr), so what this change does to the cluster is unknown\n"
                         "refused at head: TrainJob default/a (2 errors)\n");
  EXPECT_NE(nothing.err.find("d/jobs.yaml:9:12: error: spec.suspend: Invalid value: \"string\""), std::string::npos)
      << nothing.err;
  Outcome nothing_md = Diff({dirs.Path("a"), dirs.Path("d"), "--format", "markdown"});
  EXPECT_NE(nothing_md.out.find("**Nothing compared**: no TrainJob rendered at head without errors (2 at head, "
                                "below), so what this change does to the cluster is unknown.\n"),
            std::string::npos)
      << nothing_md.out;
  Outcome nothing_json = Diff({dirs.Path("a"), dirs.Path("d"), "--format", "json"});
  EXPECT_NE(nothing_json.out.find("\"nothingCompared\": true"), std::string::npos) << nothing_json.out;
  EXPECT_NE(nothing_json.out.find("\"differences\": false"), std::string::npos) << nothing_json.out;
  Outcome malformed = Diff({dirs.Path("a"), dirs.Path("c")});
  EXPECT_EQ(malformed.exit_code, 2);
  EXPECT_NE(malformed.err.find("c/jobs.yaml:"), std::string::npos) << malformed.err;
  EXPECT_EQ(Diff({dirs.Path("c"), dirs.Path("a")}).exit_code, 2) << "an input error at base too";
  EXPECT_EQ(Diff({}).exit_code, 2);
  EXPECT_EQ(Diff({dirs.Path("a"), dirs.Path("a"), dirs.Path("a")}).exit_code, 2);
  EXPECT_EQ(Diff({dirs.Path("a"), dirs.Path("a"), "--format", "yaml"}).exit_code, 2);
  EXPECT_EQ(Diff({dirs.Path("a"), dirs.Path("a"), "--color", "sometimes"}).exit_code, 2);
  EXPECT_EQ(Diff({dirs.Path("a"), dirs.Path("a"), "--target", "trainer-v1"}).exit_code, 2);
  InDirectory here(dirs.root());
  Outcome no_repo = Diff({"main"});
  EXPECT_EQ(no_repo.exit_code, 2);
  EXPECT_NE(no_repo.err.find("'main' is no folder and no Git repository holds this folder"),
            std::string::npos)
      << no_repo.err;
}

TEST(DiffCommand, UnknownRevisionIsAnInputError) {
  TJR_REQUIRE_GIT();
  testkit::GitRepo repo;
  WriteBase(repo);
  ASSERT_EQ(repo.Commit("base"), 0);
  InDirectory here(repo.root());
  Outcome run = Diff({"no-such-branch"});
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.err.find("no-such-branch"), std::string::npos) << run.err;
}

TEST(DiffCommand, OutputDoesNotDependOnThreads) {
  TJR_REQUIRE_GIT();
  testkit::GitRepo repo;
  WriteBase(repo);
  for (int i = 0; i < 30; ++i) repo.Write("jobs/n" + std::to_string(i) + ".yaml", Job("n" + std::to_string(i), i % 2 ? "plain" : "other"));
  ASSERT_EQ(repo.Commit("base"), 0);
  repo.Write("runtimes/plain.yaml", Runtime("plain", "busybox:1.37"));
  repo.Write("jobs/n3.yaml", Job("n3", "other"));
  InDirectory here(repo.root());
  for (const char* format : {"text", "markdown", "json"}) {
    Outcome one = Diff({"HEAD", "--jobs", "1", "--format", format});
    Outcome four = Diff({"HEAD", "-j", "4", "--format", format});
    Outcome two = Diff({"HEAD", "--threads", "2", "--format", format});
    EXPECT_EQ(one.out, two.out) << format;
    EXPECT_EQ(one.exit_code, 1);
    EXPECT_EQ(one.out, four.out) << format;
    EXPECT_EQ(one.err, four.err) << format;
  }
}

}  // namespace
}  // namespace tjr::cli
