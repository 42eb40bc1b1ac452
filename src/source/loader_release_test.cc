// LoadOptions::release and ReloadObject: objects kept as skeletons and read
// again whole.
#include <gtest/gtest.h>

#include "source/disk_tree.h"
#include "source/loader.h"
#include "testkit/temp_dir.h"

namespace tjr::source {
namespace {

constexpr char kJobA[] = R"(apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata:
  name: a
spec:
  runtimeRef: {name: torch}
  trainer: {numNodes: 2}
)";

// Keeps apiVersion, kind and metadata of TrainJobs (a stand-in for the
// Trainer skeleton, which lives in another module).
std::optional<doc::Node> Skeleton(const doc::Node& object) {
  const doc::Node* kind = object.Find("kind");
  if (kind == nullptr || !kind->is_string() || kind->string_value() != "TrainJob") return std::nullopt;
  doc::Node skeleton = doc::Node::Mapping(object.location());
  for (const doc::Field& field : object.fields()) {
    if (field.key != "spec") skeleton.Set(field.key, field.value, field.key_location);
  }
  return skeleton;
}

LoadOptions Releasing(std::size_t kept_bytes = std::size_t{1} << 20) {
  LoadOptions options;
  options.release = Skeleton;
  options.threads = 2;
  options.release_kept_bytes = kept_bytes;
  return options;
}

TEST(ReleaseTest, AJobAloneInItsFileIsKeptAsASkeletonAndReadAgainWhole) {
  testkit::TempDir dir;
  dir.Write("a.yaml", kJobA);
  dir.Write("runtime.yaml",
            "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: ClusterTrainingRuntime\nmetadata: {name: torch}\n");
  ManifestSet whole = LoadManifests({dir.root()}, LoadOptions{});
  ManifestSet released = LoadManifests({dir.root()}, Releasing());
  ASSERT_EQ(released.manifests.size(), 2u);
  const Manifest& job = released.manifests[0];
  ASSERT_TRUE(job.released());
  EXPECT_EQ(job.object.Find("spec"), nullptr);
  EXPECT_EQ(job.location().ToString(), whole.manifests[0].location().ToString());
  EXPECT_EQ(job.object.Find("metadata")->Find("namespace")->string_value(), "default");
  EXPECT_FALSE(released.manifests[1].released());  // not a TrainJob
  Result<doc::Node> again = ReloadObject(DiskTree(), job, Releasing());
  ASSERT_TRUE(again.ok()) << again.error().ToString();
  EXPECT_TRUE(*again == whole.manifests[0].object);  // defaulted namespace included
  EXPECT_EQ(again->Find("spec")->location().ToString(),
            whole.manifests[0].object.Find("spec")->location().ToString());
}

TEST(ReleaseTest, SeveralJobsInOneFileStayWhole) {
  testkit::TempDir dir;
  std::string two = std::string(kJobA) + "---\n" + kJobA;
  two.replace(two.rfind("name: a"), 7, "name: b");
  dir.Write("two.yaml", two);
  ManifestSet released = LoadManifests({dir.root()}, Releasing());
  ASSERT_EQ(released.manifests.size(), 2u);
  EXPECT_FALSE(released.manifests[0].released());
  EXPECT_FALSE(released.manifests[1].released());
  EXPECT_NE(released.manifests[0].object.Find("spec"), nullptr);
}

TEST(ReleaseTest, AFileChangedBeforeItIsReadAgainIsAnError) {
  testkit::TempDir dir;
  dir.Write("a.yaml", kJobA);
  ManifestSet released = LoadManifests({dir.root()}, Releasing(/*kept_bytes=*/0));
  ASSERT_TRUE(released.manifests.at(0).released());
  EXPECT_EQ(released.manifests[0].released_text, nullptr);
  dir.Write("a.yaml", std::string(kJobA) + "  suspend: true\n");
  Result<doc::Node> again = ReloadObject(DiskTree(), released.manifests[0], Releasing());
  ASSERT_FALSE(again.ok());
  EXPECT_EQ(again.error().category, Category::kInput);
  EXPECT_NE(again.error().message.find("changed while tjrender was rendering it"), std::string::npos)
      << again.error().message;
  std::remove(dir.Path("a.yaml").c_str());
  EXPECT_FALSE(ReloadObject(DiskTree(), released.manifests[0], Releasing()).ok());
}

// Within the budget the first bytes are kept (in file order, whatever the
// thread count), and reading again uses them, not the file.
TEST(ReleaseTest, KeptBytesWithinTheBudgetAreReadAgainInsteadOfTheFile) {
  testkit::TempDir dir;
  const std::string job_b = std::string(kJobA).replace(std::string(kJobA).find("name: a"), 7, "name: b");
  dir.Write("a.yaml", kJobA);
  dir.Write("b.yaml", job_b);
  const std::size_t budget = std::string(kJobA).size() + job_b.size() - 1;  // room for a.yaml only
  ManifestSet released = LoadManifests({dir.root()}, Releasing(budget));
  ASSERT_EQ(released.manifests.size(), 2u);
  ASSERT_NE(released.manifests[0].released_text, nullptr);
  EXPECT_EQ(*released.manifests[0].released_text, kJobA);
  EXPECT_EQ(released.manifests[1].released_text, nullptr);
  ASSERT_TRUE(released.manifests[1].released());
  dir.Write("a.yaml", std::string(kJobA) + "  suspend: true\n");
  dir.Write("b.yaml", job_b + "  suspend: true\n");
  Result<doc::Node> a = ReloadObject(DiskTree(), released.manifests[0], Releasing(budget));
  ASSERT_TRUE(a.ok()) << a.error().ToString();
  EXPECT_EQ(a->Find("spec")->Find("suspend"), nullptr);  // the bytes read the first time
  EXPECT_FALSE(ReloadObject(DiskTree(), released.manifests[1], Releasing(budget)).ok());  // read again
}

// Pruning the first read (release_prune_key) changes nothing but the work:
// the same skeletons, the same whole objects for what is not released (read
// again in full), the same reload.
TEST(ReleaseTest, APrunedFirstReadGivesTheSameManifests) {
  testkit::TempDir dir;
  dir.Write("a.yaml", std::string(kJobA) + "  suspend: true\n  extra:\n    deep: [1]\n");
  dir.Write("b.yaml", "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nmetadata:\n  name: b\nspec:\n"
                      "  runtimeRef:\n    name: torch\n  trainer:\n    numNodes: 2\n");
  dir.Write("runtime.yaml", "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: ClusterTrainingRuntime\n"
                            "metadata:\n  name: torch\nspec:\n  mlPolicy:\n    numNodes: 1\n  template:\n"
                            "    spec:\n      replicatedJobs:\n      - name: node\n");
  LoadOptions pruning = Releasing();
  pruning.release_prune_key = "spec";
  pruning.release_prune_keep = "runtimeRef";
  ManifestSet plain = LoadManifests({dir.root()}, Releasing());
  ManifestSet pruned = LoadManifests({dir.root()}, pruning);
  ASSERT_EQ(pruned.manifests.size(), 3u);
  ASSERT_EQ(plain.manifests.size(), 3u);
  EXPECT_TRUE(pruned.diagnostics.empty());
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(pruned.manifests[i].released(), plain.manifests[i].released()) << i;
    EXPECT_TRUE(pruned.manifests[i].object == plain.manifests[i].object) << i;
    EXPECT_EQ(pruned.manifests[i].location().ToString(), plain.manifests[i].location().ToString());
  }
  EXPECT_FALSE(pruned.manifests[2].released());  // the runtime, whole
  EXPECT_NE(pruned.manifests[2].object.Find("spec")->Find("template"), nullptr);
  Result<doc::Node> again = ReloadObject(DiskTree(), pruned.manifests[0], pruning);
  ASSERT_TRUE(again.ok()) << again.error().ToString();
  EXPECT_NE(again->Find("spec")->Find("extra"), nullptr);
}

}  // namespace
}  // namespace tjr::source
