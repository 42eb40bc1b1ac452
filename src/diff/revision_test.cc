#include "diff/revision.h"

#include <gtest/gtest.h>

#include "pipeline/test_util.h"

namespace tjr::diff {
namespace {
using pipeline::testing::kTorchRuntime;
using pipeline::testing::Manifests;
using pipeline::testing::TrainJob;

const char kOtherRuntime[] = R"(apiVersion: trainer.kubeflow.org/v1alpha1
kind: ClusterTrainingRuntime
metadata:
  name: other
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

// The podTemplateOverrides rules are Trainer v2.1's (v2.2 replaced the
// field with runtimePatches).
pipeline::PipelineOptions Options(unsigned threads = 1) {
  pipeline::PipelineOptions options;
  options.target = "trainer-v2.1";
  options.threads = threads;
  return options;
}

std::string Stream(std::initializer_list<std::string> documents) {
  std::string out;
  for (const std::string& d : documents) out += (out.empty() ? "" : "---\n") + d;
  return out;
}

// BASE and HEAD as two one-file manifest sets; HEAD's TrainJobs are updates
// of BASE's.
DiffResult DiffOf(const std::string& base_yaml, const std::string& head_yaml) {
  source::ManifestSet base = Manifests(base_yaml, "base/jobs.yaml");
  source::ManifestSet head = Manifests(head_yaml, "head/jobs.yaml");
  pipeline::PipelineOptions base_options = Options();
  pipeline::PipelineOptions head_options = Options();
  head_options.previous_trainjobs = StoredTrainJobs(base, "trainer-v2.1", "trainer-v2.1");
  return Compare(RenderRevision(base, base_options), RenderRevision(head, head_options));
}

std::vector<std::string> HeadErrors(const DiffResult& result) {
  std::vector<std::string> lines;
  for (const RevisionFinding& f : result.findings) {
    if (f.side == Side::kHead && f.diagnostic.severity == Severity::kError) {
      lines.push_back(f.train_job + " " + f.diagnostic.ToString());
    }
  }
  return lines;
}

TEST(RenderRevision, RendersEveryTrainJobInOrder) {
  source::ManifestSet set =
      Manifests(Stream({kTorchRuntime, TrainJob("b", "default"), TrainJob("a", "default")}));
  RevisionRender revision = RenderRevision(set, Options());
  ASSERT_EQ(revision.train_jobs.size(), 2u);
  EXPECT_EQ(revision.train_jobs[0].id.name, "a");
  EXPECT_EQ(revision.train_jobs[1].id.name, "b");
  EXPECT_FALSE(revision.train_jobs[0].objects.empty());
}

TEST(RenderRevision, OnlyRendersTheNamedTrainJobsButKeepsRuntimeFindings) {
  std::string refused_runtime = kOtherRuntime;
  // The webhook refuses a runtime whose trainer job lacks its container.
  refused_runtime.replace(refused_runtime.find("- name: node\n                      image"), 12, "- name: main");
  source::ManifestSet set = Manifests(
      Stream({kTorchRuntime, refused_runtime, TrainJob("a", "default"), TrainJob("b", "default")}));
  std::set<std::string> only = {"default/b"};
  RevisionRender revision = RenderRevision(set, Options(), &only);
  ASSERT_EQ(revision.train_jobs.size(), 1u);
  EXPECT_EQ(revision.train_jobs[0].id.name, "b");
  EXPECT_FALSE(revision.diagnostics.empty()) << "the refused runtime is still reported";
}

TEST(RenderRevision, KeepsTheLoadersFindings) {
  source::ManifestSet set = Manifests(Stream({kTorchRuntime, TrainJob("a", "default"), TrainJob("a", "default")}));
  ASSERT_FALSE(set.diagnostics.empty()) << "a duplicate TrainJob";
  RevisionRender revision = RenderRevision(set, Options());
  EXPECT_EQ(revision.diagnostics.size(), set.diagnostics.size());
}

TEST(QualifyFiles, PrefixesEveryKnownFileName) {
  RevisionRender revision;
  revision.diagnostics.push_back(MakeError(Location{InternSourceName("a.yaml"), 1, 2}, "", "x"));
  revision.diagnostics.push_back(MakeError(Location{}, "", "no file"));
  revision.train_jobs.emplace_back();
  revision.train_jobs[0].diagnostics.push_back(MakeError(Location{InternSourceName("b.yaml"), 3, 4}, "", "y"));
  QualifyFiles(&revision, "main:");
  EXPECT_EQ(revision.diagnostics[0].ToString(), "main:a.yaml:1:2: error: x");
  EXPECT_FALSE(revision.diagnostics[1].location.known());
  EXPECT_EQ(revision.train_jobs[0].diagnostics[0].ToString(), "main:b.yaml:3:4: error: y");
}

TEST(StoredTrainJobs, TrainJobsWithTheApiServersDefaultsByNamespaceAndName) {
  source::ManifestSet set = Manifests(Stream({kTorchRuntime, TrainJob("a", "team")}));
  std::map<std::string, doc::Node> stored = StoredTrainJobs(set, "trainer-v2.1", "trainer-v2.3");
  ASSERT_EQ(stored.size(), 1u);
  const doc::Node& job = stored.at("team/a");
  const doc::Node* ref = job.Find("spec")->Find("runtimeRef");
  ASSERT_NE(ref->Find("kind"), nullptr);
  EXPECT_EQ(ref->Find("kind")->string_value(), "ClusterTrainingRuntime");
  ASSERT_NE(job.Find("spec")->Find("managedBy"), nullptr);
}

TEST(UpdateChecks, UnchangedTrainJobPassesAsAnUpdate) {
  std::string repo = Stream({kTorchRuntime, TrainJob("a", "default")});
  DiffResult result = DiffOf(repo, repo);
  EXPECT_TRUE(HeadErrors(result).empty());
  EXPECT_FALSE(result.HasDifferences());
}

TEST(UpdateChecks, RuntimeRefIsImmutableAtTheNewFilesLocation) {
  std::string head_job = TrainJob("a", "default");
  head_job.replace(head_job.find("torch-distributed"), 17, "other");
  DiffResult result = DiffOf(Stream({kTorchRuntime, kOtherRuntime, TrainJob("a", "default")}),
                             Stream({kTorchRuntime, kOtherRuntime, head_job}));
  // Line 54 of the head stream: the runtimeRef mapping of the TrainJob.
  EXPECT_EQ(HeadErrors(result),
            std::vector<std::string>{"default/a head/jobs.yaml:54:5: error: spec.runtimeRef: Invalid value: "
                                     "\"object\": runtimeRef is immutable"});
  EXPECT_TRUE(result.changes.empty()) << "the refused update keeps the old objects";
  EXPECT_FALSE(result.HasDifferences());
  EXPECT_TRUE(result.NothingCompared());
}

TEST(UpdateChecks, ManagedByIsImmutable) {
  DiffResult result = DiffOf(
      Stream({kTorchRuntime, TrainJob("a", "default", "  managedBy: kueue.x-k8s.io/multikueue\n")}),
      Stream({kTorchRuntime, TrainJob("a", "default", "  managedBy: trainer.kubeflow.org/trainjob-controller\n")}));
  EXPECT_EQ(HeadErrors(result),
            std::vector<std::string>{"default/a head/jobs.yaml:35:14: error: spec.managedBy: Invalid value: "
                                     "\"string\": ManagedBy value is immutable"});
}

TEST(UpdateChecks, ManagedByLeftToItsDefaultIsNoChange) {
  // BASE writes the default explicitly, HEAD leaves it out: the API server
  // defaults HEAD to the same value.
  DiffResult result = DiffOf(
      Stream({kTorchRuntime, TrainJob("a", "default", "  managedBy: trainer.kubeflow.org/trainjob-controller\n")}),
      Stream({kTorchRuntime, TrainJob("a", "default")}));
  EXPECT_TRUE(HeadErrors(result).empty());
}

const char kOverrides[] =
    "  podTemplateOverrides:\n"
    "    - targetJobs:\n"
    "        - name: node\n"
    "      spec:\n"
    "        nodeSelector:\n"
    "          pool: %s\n";

std::string Overrides(const std::string& pool) {
  std::string text = kOverrides;
  text.replace(text.find("%s"), 2, pool);
  return text;
}

TEST(UpdateChecks, OverridesCannotChangeWhileNotSuspended) {
  DiffResult result = DiffOf(Stream({kTorchRuntime, TrainJob("a", "default", Overrides("a"))}),
                             Stream({kTorchRuntime, TrainJob("a", "default", Overrides("b"))}));
  EXPECT_EQ(HeadErrors(result),
            std::vector<std::string>{"default/a head/jobs.yaml:36:5: error: spec.podTemplateOverrides: "
                                     "Forbidden: PodTemplateOverrides can only be modified when the TrainJob "
                                     "is suspended"});
}

TEST(UpdateChecks, OverridesAddedToARunningTrainJobAreAChangeToo) {
  DiffResult result = DiffOf(Stream({kTorchRuntime, TrainJob("a", "default")}),
                             Stream({kTorchRuntime, TrainJob("a", "default", Overrides("b"))}));
  ASSERT_EQ(HeadErrors(result).size(), 1u);
  EXPECT_NE(HeadErrors(result)[0].find("PodTemplateOverrides can only be modified"), std::string::npos);
}

TEST(UpdateChecks, OverridesMayChangeWhenTheNewVersionIsSuspended) {
  DiffResult result =
      DiffOf(Stream({kTorchRuntime, TrainJob("a", "default", Overrides("a"))}),
             Stream({kTorchRuntime, TrainJob("a", "default", "  suspend: true\n" + Overrides("b"))}));
  EXPECT_TRUE(HeadErrors(result).empty());
  ASSERT_EQ(result.changes.size(), 1u);
  EXPECT_NE(result.changes[0].diff.find("+              pool: b\n"), std::string::npos) << result.changes[0].diff;
}

TEST(UpdateChecks, SuspendedOnlyBeforeTheUpdateIsNotEnoughInV21) {
  // Trainer v2.1.0 looks at the new object's suspend only.
  DiffResult result =
      DiffOf(Stream({kTorchRuntime, TrainJob("a", "default", "  suspend: true\n" + Overrides("a"))}),
             Stream({kTorchRuntime, TrainJob("a", "default", Overrides("b"))}));
  ASSERT_EQ(HeadErrors(result).size(), 1u);
  EXPECT_NE(HeadErrors(result)[0].find("PodTemplateOverrides can only be modified"), std::string::npos);
}

TEST(UpdateChecks, NewTrainJobIsACreate) {
  std::string head_job = TrainJob("b", "default");
  head_job.replace(head_job.find("torch-distributed"), 17, "other");
  DiffResult result = DiffOf(Stream({kTorchRuntime, kOtherRuntime, TrainJob("a", "default")}),
                             Stream({kTorchRuntime, kOtherRuntime, TrainJob("a", "default"), head_job}));
  EXPECT_TRUE(HeadErrors(result).empty());
  EXPECT_EQ(result.Count(ChangeType::kAdded), 1u);
}

TEST(UpdateChecks, ResultDoesNotDependOnThreads) {
  std::string base = Stream({kTorchRuntime, TrainJob("a", "default", Overrides("a")), TrainJob("b", "x"),
                             TrainJob("c", "default")});
  std::string head = Stream({kTorchRuntime, TrainJob("a", "default", Overrides("b")), TrainJob("c", "default", Overrides("c")),
                             TrainJob("d", "default")});
  auto run = [&](unsigned threads) {
    source::ManifestSet b = Manifests(base, "base/jobs.yaml");
    source::ManifestSet h = Manifests(head, "head/jobs.yaml");
    pipeline::PipelineOptions head_options = Options(threads);
    head_options.previous_trainjobs = StoredTrainJobs(b, "trainer-v2.1", "trainer-v2.1");
    DiffResult result = Compare(RenderRevision(b, Options(threads)), RenderRevision(h, head_options));
    std::string text;
    for (const ObjectChange& c : result.changes) text += c.diff;
    for (const RevisionFinding& f : result.findings) text += f.train_job + f.diagnostic.ToString() + "\n";
    return text;
  };
  std::string one = run(1);
  EXPECT_EQ(one, run(2));
  EXPECT_EQ(one, run(4));
  EXPECT_NE(one.find("PodTemplateOverrides can only be modified"), std::string::npos);
}

// Trainer v2.3: a TrainJob BASE created keeps the runtime snapshot its
// controller took (pkg/runtime/core/trainingruntime.go:88-113 reads the
// snapshot first), so HEAD's change of the runtime does not reach it and a
// warning says so; a TrainJob new at HEAD renders against HEAD's runtime.
TEST(RuntimeSnapshots, ExistingTrainJobsKeepTheirSnapshotNewOnesTakeTheRuntime) {
  std::string changed = kTorchRuntime;
  const std::size_t image = changed.find("image: ");
  ASSERT_NE(image, std::string::npos);
  changed.insert(image + 7, "registry.example.com/");
  pipeline::PipelineOptions options;
  options.target = "trainer-v2.3";
  options.threads = 1;
  const source::ManifestSet base = Manifests(Stream({kTorchRuntime, TrainJob("old", "team")}), "base/jobs.yaml");
  const source::ManifestSet head =
      Manifests(Stream({changed, TrainJob("old", "team"), TrainJob("new", "team")}), "head/jobs.yaml");
  const RevisionRender base_render = RenderRevision(base, options);
  pipeline::PipelineOptions head_options = options;
  head_options.previous_trainjobs = StoredTrainJobs(base, "trainer-v2.3", "trainer-v2.3");
  head_options.runtime_snapshots = RuntimeSnapshots(base_render);
  ASSERT_EQ(head_options.runtime_snapshots.count("team/old"), 1u);
  EXPECT_EQ(head_options.runtime_snapshots["team/old"].Find("kind")->string_value(), "ConfigMap");
  const DiffResult result = Compare(base_render, RenderRevision(head, head_options));
  // Only the new TrainJob's objects differ: its snapshot and JobSet.
  ASSERT_EQ(result.changes.size(), 2u);
  for (const ObjectChange& change : result.changes) {
    EXPECT_EQ(change.type, ChangeType::kAdded);
    EXPECT_EQ(change.train_job, "team/new");
    EXPECT_NE(change.diff.find("registry.example.com/"), std::string::npos) << change.diff;
  }
  std::vector<std::string> warnings;
  for (const RevisionFinding& f : result.findings) {
    // (The runtime's own warnings, about no TrainJob, are not the subject.)
    if (f.diagnostic.severity == Severity::kWarning && !f.train_job.empty()) warnings.push_back(f.train_job + " " + f.diagnostic.message);
  }
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_EQ(warnings[0].rfind("team/old [runtime-snapshot-kept] spec.runtimeRef: ClusterTrainingRuntime ", 0), 0u)
      << warnings[0];

  // Unchanged runtime: the snapshot is the live runtime's, no warning.
  head_options.runtime_snapshots = RuntimeSnapshots(base_render);
  const DiffResult same = Compare(base_render, RenderRevision(base, head_options));
  EXPECT_TRUE(same.changes.empty());
  for (const RevisionFinding& f : same.findings) EXPECT_TRUE(f.train_job.empty()) << f.diagnostic.message;
}

}  // namespace
}  // namespace tjr::diff
