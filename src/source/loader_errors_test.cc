#include <gtest/gtest.h>

#include <filesystem>
#include <set>

#include "source/loader.h"
#include "source/loader_test_util.h"
#include "testkit/temp_dir.h"

namespace tjr::source {
namespace {

TEST(LoadManifestsTest, MalformedFileDoesNotHideTheOthers) {
  testkit::TempDir dir;
  dir.Write("a.yaml", kJob);
  dir.Write("b.yaml", "apiVersion: v1\nkind: [unclosed\n");
  dir.Write("c.yaml", R"(apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainingRuntime
metadata: {name: torch}
)");
  ManifestSet set = LoadManifests({dir.root()});
  EXPECT_EQ(Ids(set), (std::vector<std::string>{
                          "trainer.kubeflow.org/v1alpha1/TrainJob default/job",
                          "trainer.kubeflow.org/v1alpha1/TrainingRuntime default/torch"}));
  ASSERT_EQ(set.diagnostics.size(), 1u);
  EXPECT_EQ(set.diagnostics[0].location.file, InternSourceName(dir.Path("b.yaml")));
  EXPECT_GT(set.diagnostics[0].location.line, 0u);
  EXPECT_EQ(set.diagnostics[0].category, Category::kInput);
  EXPECT_EQ(set.files.size(), 3u);
}

// Documents that are no object are skipped (loader_inputs_test.cc); those
// that claim a kept kind or group stay errors, and so do bad List items.
TEST(LoadManifestsTest, DocumentsClaimingTrainerKindsNeedKindAndApiVersion) {
  testkit::TempDir dir;
  dir.Write("bad.yaml", R"(just a string
---
- a
- list
---
kind: TrainJob
metadata: {name: no-version}
---
apiVersion: trainer.kubeflow.org/v1alpha1
metadata: {name: no-kind}
---
apiVersion: trainer.kubeflow.org/v1alpha1
kind: 7
---
apiVersion: v1
kind: List
items: [3]
---
)" + std::string(kJob));
  ManifestSet set = LoadManifests({dir.root()});
  EXPECT_EQ(Ids(set),
            (std::vector<std::string>{"trainer.kubeflow.org/v1alpha1/TrainJob default/job"}));
  const std::string f = dir.Path("bad.yaml");
  EXPECT_EQ(Messages(set),
            (std::vector<std::string>{
                f + ":1:1: note: skipped: a string, not an object",
                f + ":3:1: note: skipped: a YAML sequence, not an object (a JSON 6902 patch list?)",
                f + ":6:1: error: apiVersion: required: the object has no apiVersion",
                f + ":9:1: error: kind: required: the object has no kind",
                f + ":13:7: error: kind: must be a string, found integer",
                f + ":17:9: error: expected an object (a YAML mapping), found integer"}));
  for (std::size_t i = 2; i < set.diagnostics.size(); ++i) {
    EXPECT_EQ(set.diagnostics[i].category, Category::kInput);
  }
  EXPECT_TRUE(set.skipped_files.empty());  // it holds objects
}

TEST(LoadManifestsTest, KeptObjectsNeedAName) {
  testkit::TempDir dir;
  dir.Write("names.yaml", R"(apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
---
apiVersion: trainer.kubeflow.org/v1alpha1
kind: ClusterTrainingRuntime
metadata: {generateName: job-}
---
apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata: {name: [x]}
---
apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata: {name: ok, namespace: 5}
---
apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata: text
---
apiVersion: apps/v1
kind: Deployment
)");
  ManifestSet set = LoadManifests({dir.root()});
  EXPECT_TRUE(set.manifests.empty());
  const std::string f = dir.Path("names.yaml");
  EXPECT_EQ(Messages(set),
            (std::vector<std::string>{
                f + ":1:1: error: metadata.name: required: the object has no name",
                f + ":4:1: error: metadata.name: required: generateName is supported for TrainJobs only: a "
                    "runtime is found by its name, which the API server would choose",
                f + ":10:18: error: metadata.name: must be a string, found array",
                f + ":14:33: error: metadata.namespace: must be a string, found integer",
                f + ":18:11: error: metadata: must be an object, found string"}));
  // Other kinds are not checked beyond kind and apiVersion.
  EXPECT_EQ(set.ignored, (std::map<KindKey, std::size_t>{{{"apps/v1", "Deployment"}, 1}}));
}

TEST(LoadManifestsTest, ATrainJobNamedByGenerateNameGetsAPlaceholderPerObject) {
  testkit::TempDir dir;
  dir.Write("created.yaml", R"(apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata: {generateName: sweep-}
---
apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata: {generateName: sweep-}
---
apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata: {generateName: sweep-, namespace: other}
)");
  ManifestSet set = LoadManifests({dir.root()});
  EXPECT_TRUE(set.diagnostics.empty()) << Messages(set).front();
  ASSERT_EQ(set.manifests.size(), 3u);
  EXPECT_EQ(set.manifests[0].id.name, "sweep-xxxxx");
  EXPECT_EQ(set.manifests[0].generate_name, "sweep-");
  EXPECT_EQ(set.manifests[0].object.Find("metadata")->Find("name")->string_value(), "sweep-xxxxx");
  EXPECT_EQ(set.manifests[1].id.name, "sweep-xxxxz");  // never a duplicate of the first
  EXPECT_EQ(set.manifests[2].id.name, "sweep-xxxxx");
  EXPECT_TRUE(set.duplicates.empty());
}

TEST(GeneratedNamePlaceholderTest, TheLongestNameTheApiServerCouldGenerate) {
  // k8s.io/apiserver pkg/storage/names/generate.go: the base is cut to 58
  // bytes, then 5 characters of "bcdfghjklmnpqrstvwxz2456789" follow.
  EXPECT_EQ(GeneratedNamePlaceholder("job-"), "job-xxxxx");
  EXPECT_EQ(GeneratedNamePlaceholder(std::string(70, 'a')), std::string(58, 'a') + "xxxxx");
  EXPECT_EQ(GeneratedNamePlaceholder("job-", 1), "job-xxxxz");
  EXPECT_EQ(GeneratedNamePlaceholder("job-", 27), "job-xxxzx");
  EXPECT_NE(GeneratedNamePlaceholder("job-", 9), GeneratedNamePlaceholder("job-", 0));
}

TEST(LoadManifestsTest, DuplicatesAreListedForWhatRefersToThem) {
  testkit::TempDir dir;
  const std::string runtime = "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainingRuntime\n"
                              "metadata: {name: torch, namespace: ml}\n";
  dir.Write("a.yaml", runtime);
  dir.Write("b.yaml", runtime);
  ManifestSet set = LoadManifests({dir.root()});
  EXPECT_TRUE(set.manifests.empty());
  ASSERT_EQ(set.duplicates.size(), 1u);
  EXPECT_EQ(set.duplicates[0].group, "trainer.kubeflow.org");
  EXPECT_EQ(set.duplicates[0].kind, "TrainingRuntime");
  EXPECT_EQ(set.duplicates[0].namespace_, "ml");
  EXPECT_EQ(set.duplicates[0].name, "torch");
  ASSERT_EQ(set.duplicates[0].copies.size(), 2u);
  EXPECT_EQ(set.duplicates[0].copies[0].ToString(), dir.Path("a.yaml") + ":1:1");
  EXPECT_EQ(set.duplicates[0].copies[1].ToString(), dir.Path("b.yaml") + ":1:1");
}

TEST(LoadManifestsTest, OversizedFileIsRefusedAndTheRestLoad) {
  testkit::TempDir dir;
  dir.Write("big.yaml", std::string(kJob) + "# " + std::string(300, 'x') + "\n");
  dir.Write("small.yaml", R"(apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainingRuntime
metadata: {name: torch}
)");
  LoadOptions options;
  options.max_file_bytes = 200;
  ManifestSet set = LoadManifests({dir.root()}, options);
  EXPECT_EQ(Ids(set), (std::vector<std::string>{
                          "trainer.kubeflow.org/v1alpha1/TrainingRuntime default/torch"}));
  std::size_t size = std::string(kJob).size() + 303;
  EXPECT_EQ(Messages(set), (std::vector<std::string>{
                               dir.Path("big.yaml") + ": error: file is " + std::to_string(size) +
                               " bytes, larger than the limit of 200 (tjrender's limit per file); the cluster "
                               "would refuse an object that large: kube-apiserver decodes request bodies of at most "
                               "3 MiB and etcd stores values of at most 1.5 MiB (its --max-request-bytes default)"}));
  EXPECT_EQ(set.diagnostics[0].category, Category::kInput);
  EXPECT_EQ(set.files, (std::vector<std::string>{dir.Path("small.yaml")}));
}

TEST(LoadManifestsTest, UnreadableFileIsAnErrorAndTheRestLoad) {
  if (testkit::RunningAsRoot()) GTEST_SKIP() << "permission bits do not stop root";
  testkit::TempDir dir;
  dir.Write("a.yaml", kJob);
  dir.Write("b.yaml", kJob);
  std::filesystem::permissions(dir.Path("b.yaml"), std::filesystem::perms::none);
  ManifestSet set = LoadManifests({dir.root()});
  EXPECT_EQ(set.manifests.size(), 1u);
  EXPECT_EQ(Messages(set), (std::vector<std::string>{dir.Path("b.yaml") +
                                                     ": error: cannot open: Permission denied"}));
}

TEST(LoadManifestsTest, HostileBytesGiveDiagnosticsNotCrashes) {
  testkit::TempDir dir;
  dir.Write("empty.yaml", "");
  dir.Write("separators.yaml", "---\n---\n...\n");
  dir.Write("binary.yaml", std::string("\0\xff\xfe\x01kind: \x80", 11));
  dir.Write("deep.json", std::string(100000, '[') + std::string(100000, ']'));
  dir.Write("alias.yaml", "a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a]\n"
                          "c: &c [*b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c]\n"
                          "e: &e [*d, *d, *d, *d, *d, *d, *d]\nf: &f [*e, *e, *e, *e, *e, *e, *e]\n"
                          "g: &g [*f, *f, *f, *f, *f, *f, *f]\nh: [*g, *g, *g, *g, *g, *g, *g]\n");
  dir.Write("ok.yaml", kJob);
  ManifestSet set = LoadManifests({dir.root()});
  EXPECT_EQ(set.manifests.size(), 1u);
  std::set<std::string> bad;
  for (const Diagnostic& d : set.diagnostics) {
    EXPECT_EQ(d.severity, Severity::kError) << d.ToString();
    ASSERT_TRUE(d.location.known());
    bad.insert(*d.location.file);
  }
  EXPECT_EQ(bad, (std::set<std::string>{dir.Path("alias.yaml"), dir.Path("binary.yaml"),
                                        dir.Path("deep.json")}));
}

}  // namespace
}  // namespace tjr::source
