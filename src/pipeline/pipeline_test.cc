#include "pipeline/pipeline.h"

#include <gtest/gtest.h>

#include "doc/objects.h"
#include "pipeline/target.h"
#include "pipeline/test_util.h"
#include "render/go_types.h"
#include "source/disk_tree.h"
#include "testkit/temp_dir.h"
#include "trainer/skeleton.h"
#include "yaml/writer.h"

namespace tjr::pipeline {
namespace {

using testing::Lines;
using testing::Manifests;
using testing::V21Options;
using testing::TrainJob;

std::string Stream(const std::string& yaml, const PipelineOptions& options) {
  PipelineResult result = RenderManifests(Manifests(yaml), options);
  return yaml::WriteStream(result.objects) + "#\n" + Lines(result.diagnostics);
}

// Every error names its place (found by the render_pipeline fuzz target,
// fuzz/corpus/render_pipeline/resources-per-node-bad-quantity-unlocated).
TEST(Pipeline, AQuantityThatDoesNotParseIsLocated) {
  for (const char* target : {"trainer-v2.1", "trainer-v2.3"}) {
    PipelineOptions options = V21Options();
    options.target = target;
    const std::string yaml = std::string(testing::kTorchRuntime) + "---\n" +
                             TrainJob("tj", "ns", "  trainer:\n    resourcesPerNode:\n      requests: {cpu: o}\n");
    PipelineResult result = RenderManifests(Manifests(yaml), options);
    ASSERT_TRUE(result.has_errors()) << target;
    for (const Diagnostic& d : result.diagnostics) {
      if (d.severity != Severity::kError) continue;
      EXPECT_TRUE(d.location.known()) << target << ": " << d.ToString();
      EXPECT_EQ(d.field_path, "spec.trainer.resourcesPerNode.requests[cpu]") << target;
    }
  }
}

TEST(Pipeline, RendersTrainJobsOrderedByNamespaceThenName) {
  std::string yaml = TrainJob("b", "team-a") + "---\n" + TrainJob("a", "team-b") + "---\n" +
                     std::string(testing::kTorchRuntime) + "---\n" + TrainJob("a", "team-a");
  PipelineResult result = RenderManifests(Manifests(yaml), V21Options());
  ASSERT_FALSE(result.has_errors()) << Lines(result.diagnostics);
  ASSERT_EQ(result.objects.size(), 3u);
  EXPECT_EQ(result.train_jobs, 3u);
  std::vector<std::string> ids;
  for (const doc::Node& object : result.objects) ids.push_back(doc::ObjectId::Of(object).ToString());
  EXPECT_EQ(ids, (std::vector<std::string>{"jobset.x-k8s.io/v1alpha2/JobSet team-a/a",
                                           "jobset.x-k8s.io/v1alpha2/JobSet team-a/b",
                                           "jobset.x-k8s.io/v1alpha2/JobSet team-b/a"}));
}

TEST(Pipeline, ReleasedTrainJobsAreReadAgainAndRenderTheSame) {
  // One file per TrainJob (released as skeletons), clean, failing and
  // warning ones, and the runtime in a file of its own.
  testkit::TempDir dir;
  dir.Write("runtime.yaml", testing::kTorchRuntime);
  for (int n = 0; n < 12; ++n) {
    std::string extra;
    if (n % 3 == 1) extra = "  trainer:\n    numNodes: 3\n";
    if (n % 3 == 2) {
      extra = "  podTemplateOverrides:\n  - targetJobs:\n    - name: node\n    spec:\n"
              "      containers:\n      - name: sidecar\n";
    }
    dir.Write("jobs/j" + std::to_string(n) + ".yaml", TrainJob("job-" + std::to_string(n), "ns", extra));
  }
  source::LoadOptions load;
  load.threads = 2;
  source::ManifestSet whole = source::LoadManifests({dir.root()}, load);
  source::LoadOptions releasing = load;
  releasing.release = trainer::TrainJobSkeleton;
  source::ManifestSet released = source::LoadManifests({dir.root()}, releasing);
  std::size_t skeletons = 0;
  for (const source::Manifest& m : released.manifests) skeletons += m.released() ? 1 : 0;
  EXPECT_EQ(skeletons, 12u);
  PipelineOptions options = V21Options();
  options.threads = 2;
  PipelineResult expected = RenderManifests(whole, options);
  options.reload = [&](const source::Manifest& m) { return source::ReloadObject(source::DiskTree(), m, load); };
  PipelineResult got = RenderManifests(released, options);
  EXPECT_EQ(yaml::WriteStream(got.objects), yaml::WriteStream(expected.objects));
  EXPECT_EQ(Lines(got.diagnostics), Lines(expected.diagnostics));
  EXPECT_NE(Lines(expected.diagnostics).find("override-container-unknown"), std::string::npos);
  // Without a way to read them again, released TrainJobs are errors, not crashes.
  options.reload = nullptr;
  EXPECT_TRUE(RenderManifests(released, options).has_errors());
}

TEST(Pipeline, TargetsArePreparedInTheBackgroundUnlessOneThreadIsAsked) {
  EXPECT_FALSE(PrepareInBackground({"trainer-v2.1"}, 1).joinable());
  std::jthread prepared = PrepareInBackground({"trainer-v2.1", "no-such-target", "trainer-v2.1"}, 0);
  EXPECT_TRUE(prepared.joinable());
  prepared.join();
  EXPECT_TRUE(render::LoadGoTypes(trainer::TrainerVersion::kV2_1).ok());
}

TEST(Pipeline, OutputIsIdenticalForEveryThreadCount) {
  std::string yaml = std::string(testing::kTorchRuntime);
  for (int i = 0; i < 40; ++i) {
    // A mix of clean jobs, warnings and errors, in scrambled input order.
    int n = (i * 17) % 40;
    std::string extra;
    if (n % 5 == 1) extra = "  trainer:\n    numNodes: " + std::to_string(n % 3 + 1) + "\n";
    if (n % 5 == 2) extra = "  runtimeRef:\n    name: missing\n";
    if (n % 5 == 3) {
      extra = "  podTemplateOverrides:\n  - targetJobs:\n    - name: node\n    spec:\n"
              "      containers:\n      - name: sidecar-" + std::to_string(n) + "\n";
    }
    std::string job = TrainJob("job-" + std::to_string(n), "ns-" + std::to_string(n % 3), extra);
    if (n % 5 == 2) job = job.substr(0, job.find("  runtimeRef:")) + extra;
    yaml += "---\n" + job;
  }
  PipelineOptions one = V21Options();
  one.threads = 1;
  std::string expected = Stream(yaml, one);
  EXPECT_NE(expected.find("not found"), std::string::npos);
  EXPECT_NE(expected.find("override-container-unknown"), std::string::npos);
  for (unsigned threads : {2u, 3u, 8u}) {
    for (std::size_t window : {std::size_t{1}, std::size_t{3}, std::size_t{256}}) {
      PipelineOptions options = V21Options();
      options.threads = threads;
      options.window = window;
      EXPECT_EQ(Stream(yaml, options), expected) << threads << " threads, window " << window;
    }
  }
}

TEST(Pipeline, StreamingSinkSeesTrainJobsInOrder) {
  std::string yaml = std::string(testing::kTorchRuntime);
  for (int i = 9; i >= 0; --i) yaml += "---\n" + TrainJob("j" + std::to_string(i), "ns");
  std::vector<std::string> names;
  PipelineOptions options = V21Options();
  options.threads = 4;
  options.window = 2;
  PipelineSummary summary = RenderManifests(Manifests(yaml), options, [&](TrainJobResult&& r) {
    names.push_back(r.id.name);
    EXPECT_EQ(r.objects.size(), 1u);
    EXPECT_EQ(r.file, "repo.yaml");
  });
  EXPECT_TRUE(summary.ran);
  EXPECT_EQ(summary.runtimes, 1u);
  EXPECT_EQ(names, (std::vector<std::string>{"j0", "j1", "j2", "j3", "j4", "j5", "j6", "j7",
                                             "j8", "j9"}));
}

TEST(Pipeline, RefusesAnUnknownTargetListingTheSupportedOnes) {
  PipelineOptions options = V21Options();
  options.target = "trainer-v2.0";
  int calls = 0;
  PipelineSummary summary = RenderManifests(
      Manifests(std::string(testing::kTorchRuntime) + "---\n" + TrainJob("a", "ns")), options,
      [&](TrainJobResult&&) { ++calls; });
  EXPECT_FALSE(summary.ran);
  EXPECT_EQ(calls, 0);
  ASSERT_EQ(summary.diagnostics.size(), 1u);
  EXPECT_EQ(summary.diagnostics[0].category, Category::kInput);
  EXPECT_EQ(summary.diagnostics[0].message,
            "unsupported target \"trainer-v2.0\" (supported: trainer-v2.1, trainer-v2.2, trainer-v2.3, trainer-pr3199-preview)");
}

TEST(Pipeline, MissingRuntimeIsTheWebhookErrorAtRuntimeRef) {
  PipelineResult result = RenderManifests(Manifests(TrainJob("a", "ns")), V21Options());
  EXPECT_TRUE(result.objects.empty());
  EXPECT_EQ(Lines(result.diagnostics),
            "repo.yaml:7:3: error: spec.RuntimeRef: Invalid value: "
            "{\"name\":\"torch-distributed\",\"apiGroup\":\"trainer.kubeflow.org\","
            "\"kind\":\"ClusterTrainingRuntime\"}: ClusterTrainingRuntime.trainer.kubeflow.org "
            "\"torch-distributed\" not found: specified clusterTrainingRuntime must be created "
            "before the TrainJob is created\n");
}

TEST(Pipeline, ValidationErrorStopsOnlyThatTrainJob) {
  std::string bad = TrainJob("bad", "ns", "  podTemplateOverrides:\n  - targetJobs:\n"
                                          "    - name: nope\n");
  PipelineResult result = RenderManifests(
      Manifests(std::string(testing::kTorchRuntime) + "---\n" + bad + "---\n" + TrainJob("good", "ns")),
      V21Options());
  ASSERT_EQ(result.objects.size(), 1u);
  EXPECT_EQ(doc::ObjectId::Of(result.objects[0]).name, "good");
  std::string lines = Lines(result.diagnostics);
  EXPECT_NE(lines.find("error: spec.podTemplateOverrides: Invalid value: "), std::string::npos)
      << lines;
  EXPECT_NE(lines.find("must not have targetJob that doesn't exist in the runtime job template"),
            std::string::npos)
      << lines;
}

TEST(Pipeline, RuntimeRefusedByItsWebhookIsNotStored) {
  std::string runtime = testing::kTorchRuntime;
  runtime.replace(runtime.find("        - name: node\n"), 21, "        - name: node\n          replicas: 2\n");
  PipelineResult result =
      RenderManifests(Manifests(runtime + "---\n" + TrainJob("a", "ns")), V21Options());
  EXPECT_TRUE(result.objects.empty());
  std::string lines = Lines(result.diagnostics);
  EXPECT_NE(lines.find("error: spec.template.spec.replicatedJobs[0].replicas: Invalid value: 2: "
                       "always must be 1"),
            std::string::npos)
      << lines;
  EXPECT_NE(lines.find("\"torch-distributed\" not found"), std::string::npos) << lines;
}

TEST(Pipeline, DeprecatedRuntimeWarnsAndStrictMakesItAnError) {
  std::string runtime = testing::kTorchRuntime;
  runtime.replace(runtime.find("    trainer.kubeflow.org/framework: torch\n"), 0,
                  "    trainer.kubeflow.org/support: deprecated\n");
  std::string yaml = runtime + "---\n" + TrainJob("a", "ns");
  PipelineResult relaxed = RenderManifests(Manifests(yaml), V21Options());
  EXPECT_FALSE(relaxed.has_errors());
  EXPECT_EQ(relaxed.objects.size(), 1u);
  EXPECT_NE(Lines(relaxed.diagnostics).find("warning: "), std::string::npos);
  PipelineOptions strict = V21Options();
  strict.strict = true;
  PipelineResult strict_result = RenderManifests(Manifests(yaml), strict);
  EXPECT_TRUE(strict_result.has_errors());
  EXPECT_TRUE(strict_result.objects.empty());
  EXPECT_EQ(Lines(strict_result.diagnostics).find("warning: "), std::string::npos);
}

TEST(Pipeline, StrictTurnsOurWarningsIntoErrorsAndDropsTheObjects) {
  std::string yaml = std::string(testing::kTorchRuntime) + "---\n" +
                     TrainJob("a", "ns", "  podTemplateOverrides:\n  - targetJobs:\n"
                                         "    - name: node\n    spec:\n      containers:\n"
                                         "      - name: trainer\n");
  PipelineOptions strict = V21Options();
  strict.strict = true;
  PipelineResult result = RenderManifests(Manifests(yaml), strict);
  EXPECT_TRUE(result.objects.empty());
  EXPECT_NE(Lines(result.diagnostics).find("error: [override-container-unknown]"),
            std::string::npos);
}

TEST(Pipeline, MpiSecretNoteIsANote) {
  std::string runtime = R"(apiVersion: trainer.kubeflow.org/v1alpha1
kind: ClusterTrainingRuntime
metadata:
  name: mpi
spec:
  mlPolicy:
    numNodes: 1
    mpi:
      numProcPerNode: 1
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
                      image: mpi
)";
  std::string job = TrainJob("a", "ns");
  job.replace(job.find("torch-distributed"), 17, "mpi");
  PipelineResult result = RenderManifests(Manifests(runtime + "---\n" + job), V21Options());
  ASSERT_FALSE(result.has_errors()) << Lines(result.diagnostics);
  ASSERT_EQ(result.diagnostics.size(), 1u);
  EXPECT_EQ(result.diagnostics[0].severity, Severity::kNote);
  EXPECT_NE(result.diagnostics[0].message.find("a-mpi-ssh-auth is not rendered"), std::string::npos);
}

}  // namespace
}  // namespace tjr::pipeline

namespace tjr::pipeline {
namespace {

// A runtimePatches entry naming a job the runtime lacks: v2.2 skips it in
// the merge, so its webhook refuses the TrainJob (§3.4); v2.3 adds it before
// the runtime's jobs (runtimepatches spec §2.3).
std::string PatchedJob() {
  return testing::TrainJob("p", "ns",
                           "  runtimePatches:\n"
                           "  - manager: example.com/a\n"
                           "    trainingRuntimeSpec:\n"
                           "      template:\n"
                           "        metadata: {labels: {team: a}}\n"
                           "        spec:\n"
                           "          replicatedJobs:\n"
                           "          - name: extra\n"
                           "            template: {spec: {template: {spec: {nodeSelector: {pool: x}}}}}\n");
}

std::vector<std::string> JobNames(const PipelineResult& result) {
  std::vector<std::string> names;
  for (const doc::Node& object : result.objects) {
    const doc::Node* spec = object.Find("spec");
    const doc::Node* jobs = spec != nullptr ? spec->Find("replicatedJobs") : nullptr;
    if (jobs == nullptr) continue;
    for (const doc::Node& job : jobs->items()) names.push_back(job.Find("name")->string_value());
  }
  return names;
}

TEST(PipelineTargets, DefaultIsV23AndEachTargetMergesItsWay) {
  EXPECT_EQ(PipelineOptions{}.target, "trainer-v2.3");
  const source::ManifestSet manifests = testing::Manifests(std::string(testing::kTorchRuntime) + "---\n" + PatchedJob());
  // Admission off: v2.3's added job `extra` has no containers (a patch cannot
  // give it an image: the TrainJob schema prunes it), so the cluster refuses
  // the JobSet (rendered/jobset/schema); this test is about the merge.
  PipelineOptions v23_options;
  v23_options.admission = false;
  PipelineResult v23 = RenderManifests(manifests, v23_options);
  EXPECT_EQ(JobNames(v23), (std::vector<std::string>{"extra", "node"})) << testing::Lines(v23.diagnostics);
  EXPECT_NE(testing::Lines(RenderManifests(manifests, PipelineOptions{}).diagnostics)
                .find("spec.replicatedJobs[0].template.spec.template.spec.containers: Required value"),
            std::string::npos);
  PipelineOptions v22_options;
  v22_options.target = "trainer-v2.2";
  PipelineResult v22 = RenderManifests(manifests, v22_options);
  EXPECT_TRUE(v22.objects.empty());
  EXPECT_NE(testing::Lines(v22.diagnostics)
                .find("must not have replicated job that doesn't exist in the runtime job template"),
            std::string::npos);
  // Without the unknown job v2.2 patches `node` only.
  std::string known = PatchedJob();
  known.replace(known.find("name: extra"), 11, "name: node");
  PipelineResult v22_known =
      RenderManifests(testing::Manifests(std::string(testing::kTorchRuntime) + "---\n" + known), v22_options);
  EXPECT_EQ(JobNames(v22_known), (std::vector<std::string>{"node"})) << testing::Lines(v22_known.diagnostics);
  // JobSet-level patch labels reach the JobSet under both.
  for (const PipelineResult* r : {&v22_known, &v23}) {
    ASSERT_FALSE(r->objects.empty());
    const doc::Node* labels = r->objects.back().Find("metadata")->Find("labels");
    ASSERT_NE(labels, nullptr);
    EXPECT_EQ(labels->Find("team")->string_value(), "a");
  }
}

TEST(PipelineTargets, TheWebhookValidatesTheMergedTemplate) {
  // trainer-v2.1: an override's new containers are in the template the
  // webhook checks (the merge added them), so the TrainJob is admitted and
  // renders, with tjrender's own warning about the containers' missing image.
  const std::string trainjob = testing::TrainJob("job", "team", R"(  podTemplateOverrides:
  - targetJobs: [{name: node}]
    spec:
      containers: [{name: sidecar}]
      initContainers: [{name: init}]
)");
  // Admission off: the new containers have no image, so the cluster refuses
  // the Job (rendered/job/image); this test is about the Trainer's webhook.
  PipelineOptions options = testing::V21Options();
  options.admission = false;
  PipelineResult result =
      RenderManifests(testing::Manifests(std::string(testing::kTorchRuntime) + "---\n" + trainjob), options);
  for (const Diagnostic& d : result.diagnostics) EXPECT_NE(d.severity, Severity::kError) << d.ToString();
  ASSERT_EQ(result.objects.size(), 1u);
  EXPECT_NE(testing::Lines(result.diagnostics).find("[override-container-unknown]"), std::string::npos);
}

}  // namespace
}  // namespace tjr::pipeline
