#include "source/parse_cache.h"

#include <gtest/gtest.h>

#include <thread>

#include "source/disk_tree.h"
#include "source/loader.h"
#include "testkit/temp_dir.h"

namespace tjr::source {
namespace {

TEST(ParseCacheTest, ParsesOncePerNameAndBytes) {
  ParseCache cache;
  int parses = 0;
  auto parse = [&]() -> ParseCache::Documents {
    ++parses;
    return std::vector<doc::Node>{doc::Node::Int(parses, Location{}, "1")};
  };
  EXPECT_EQ((*cache.Parse("a.yaml", "x: 1\n", parse))[0].int_value(), 1);
  EXPECT_EQ((*cache.Parse("a.yaml", "x: 1\n", parse))[0].int_value(), 1);  // the first parse's
  EXPECT_EQ(parses, 1);
  EXPECT_EQ((*cache.Parse("a.yaml", "x: 2\n", parse))[0].int_value(), 2);
  EXPECT_EQ((*cache.Parse("b.yaml", "x: 1\n", parse))[0].int_value(), 3);
  // The separator keeps a name's end from passing for the bytes' start.
  EXPECT_EQ((*cache.Parse("a.yamlx", ": 1\n", parse))[0].int_value(), 4);
}

// A second load through the cache gives what loading again gives: the
// same objects, locations and errors, including an object the first load
// admitted differently (another default namespace).
TEST(ParseCacheTest, ASecondLoadIsTheSameAsLoadingAgain) {
  testkit::TempDir dir;
  dir.Write("job.yaml", "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nmetadata:\n  name: a\n"
                        "spec:\n  runtimeRef:\n    name: torch\n");
  dir.Write("broken.yaml", "a: [\n");
  ParseCache cache;
  LoadOptions cached;
  cached.parse_cache = &cache;
  cached.threads = 2;
  ManifestSet first = LoadManifests({dir.root()}, cached);
  LoadOptions other_namespace = cached;
  other_namespace.default_namespace = "team";
  ManifestSet second = LoadManifests({dir.root()}, other_namespace);
  LoadOptions plain;
  plain.default_namespace = "team";
  ManifestSet fresh = LoadManifests({dir.root()}, plain);
  ASSERT_EQ(second.manifests.size(), 1u);
  ASSERT_EQ(fresh.manifests.size(), 1u);
  EXPECT_TRUE(second.manifests[0].object == fresh.manifests[0].object);
  EXPECT_EQ(second.manifests[0].object.Find("metadata")->Find("namespace")->string_value(), "team");
  EXPECT_EQ(first.manifests[0].object.Find("metadata")->Find("namespace")->string_value(), "default");
  ASSERT_EQ(second.diagnostics.size(), fresh.diagnostics.size());
  for (std::size_t i = 0; i < fresh.diagnostics.size(); ++i) {
    EXPECT_EQ(second.diagnostics[i].ToString(), fresh.diagnostics[i].ToString());
  }
  EXPECT_FALSE(fresh.diagnostics.empty());
  // Parsed once: the second load's spec is the first load's tree.
  EXPECT_TRUE(second.manifests[0].object.Find("spec")->SharesRepresentationWith(
      *first.manifests[0].object.Find("spec")));
  EXPECT_FALSE(fresh.manifests[0].object.Find("spec")->SharesRepresentationWith(
      *first.manifests[0].object.Find("spec")));
}

}  // namespace
}  // namespace tjr::source
