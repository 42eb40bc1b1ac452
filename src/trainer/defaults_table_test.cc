#include "trainer/defaults_table.h"

#include <gtest/gtest.h>


#include "base/file.h"
#include "json/json.h"
#include "trainer/embedded_defaults.h"
#include "testkit/temp_dir.h"

namespace tjr::trainer {
namespace {

const DefaultsTable& Builtin() {
  Result<const DefaultsTable*> table = BuiltinDefaults(kV21DefaultsTable);
  EXPECT_TRUE(table.ok()) << (table.ok() ? "" : table.error().ToString());
  return **table;
}

const CrdDefault* Entry(const KindDefaults& kind, std::string_view path) {
  for (const auto& def : kind.defaults) {
    if (def->path == path) return def.get();
  }
  return nullptr;
}

TEST(BuiltinDefaults, EmbeddedBytesAreThePolicyFile) {
  // Sorted by name: HEAD's table (the v2.2/v2.3 targets), then v2.1.0's.
  ASSERT_EQ(EmbeddedPolicies().size(), 2u);
  EXPECT_EQ(EmbeddedPolicies()[0].name, "trainer-head-defaults");
  EXPECT_EQ(EmbeddedPolicies()[1].name, "trainer-v2.1.0-defaults");
  for (const EmbeddedPolicy& policy : EmbeddedPolicies()) {
    Result<std::string> file = ReadFile(testkit::SourcePath("policies/" + std::string(policy.name) + ".json"));
    ASSERT_TRUE(file.ok()) << file.error().ToString();
    EXPECT_TRUE(file.value() == policy.bytes) << policy.name;
  }
}

TEST(BuiltinDefaults, HeadTableCarriesTheRuntimePatchesDefaults) {
  // runtimepatches spec §1.6: defaults inside runtimePatches reach the JobSet.
  Result<const DefaultsTable*> head = BuiltinDefaults(kHeadDefaultsTable);
  ASSERT_TRUE(head.ok()) << head.error().ToString();
  EXPECT_EQ((*head)->upstream(), "github.com/kubeflow/trainer HEAD (8c0f5059bd51)");
  const KindDefaults* trainjob = (*head)->Find("trainer.kubeflow.org/v1alpha1", "TrainJob");
  ASSERT_NE(trainjob, nullptr);
  const char* prefix = "spec.runtimePatches[*].trainingRuntimeSpec.template.spec.replicatedJobs[*].template.spec."
                       "template.spec.";
  const CrdDefault* secret =
      Entry(*trainjob, std::string(prefix) + "containers[*].env[*].valueFrom.secretKeyRef.name");
  ASSERT_NE(secret, nullptr);
  EXPECT_EQ(secret->value.string_value(), "");
  const CrdDefault* pull = Entry(*trainjob, std::string(prefix) + "imagePullSecrets[*].name");
  ASSERT_NE(pull, nullptr);
  EXPECT_NE(Entry(*trainjob, "spec.managedBy"), nullptr);
  EXPECT_FALSE(BuiltinDefaults("trainer-v9-defaults").ok());
}

TEST(BuiltinDefaults, NamesItsUpstream) {
  const DefaultsTable& table = Builtin();
  EXPECT_EQ(table.name(), "trainer-v2.1.0-defaults");
  EXPECT_EQ(table.upstream(), "github.com/kubeflow/trainer v2.1.0 (73c9bece741c)");
  ASSERT_EQ(table.kinds().size(), 3u);
}

// One entry per `default:` line of each CRD (grep -c "default:" gives 41,
// 58 and 58 for the three v2.1.0 files).
TEST(BuiltinDefaults, HoldsEveryDefaultOfEachCrd) {
  const DefaultsTable& table = Builtin();
  const KindDefaults* train_job = table.Find("trainer.kubeflow.org/v1alpha1", "TrainJob");
  const KindDefaults* runtime = table.Find("trainer.kubeflow.org/v1alpha1", "TrainingRuntime");
  const KindDefaults* cluster =
      table.Find("trainer.kubeflow.org/v1alpha1", "ClusterTrainingRuntime");
  ASSERT_NE(train_job, nullptr);
  ASSERT_NE(runtime, nullptr);
  ASSERT_NE(cluster, nullptr);
  EXPECT_EQ(train_job->defaults.size(), 41u);
  EXPECT_EQ(runtime->defaults.size(), 58u);
  EXPECT_EQ(cluster->defaults.size(), 58u);
  EXPECT_EQ(table.Find("trainer.kubeflow.org/v1", "TrainJob"), nullptr);
  EXPECT_EQ(table.Find("trainer.kubeflow.org/v1alpha1", "JobSet"), nullptr);
}

TEST(BuiltinDefaults, TrainJobEntriesCarryValueAndCrdLine) {
  const KindDefaults& kind = *Builtin().Find("trainer.kubeflow.org/v1alpha1", "TrainJob");
  struct Want {
    std::string_view path, json, source;
  };
  const Want wants[] = {
      {"spec.suspend", "false", "manifests/base/crds/trainer.kubeflow.org_trainjobs.yaml:4006"},
      {"spec.managedBy", "\"trainer.kubeflow.org/trainjob-controller\"",
       "manifests/base/crds/trainer.kubeflow.org_trainjobs.yaml:442"},
      {"spec.runtimeRef.apiGroup", "\"trainer.kubeflow.org\"",
       "manifests/base/crds/trainer.kubeflow.org_trainjobs.yaml:3981"},
      {"spec.runtimeRef.kind", "\"ClusterTrainingRuntime\"",
       "manifests/base/crds/trainer.kubeflow.org_trainjobs.yaml:3987"},
  };
  for (const Want& want : wants) {
    const CrdDefault* def = Entry(kind, want.path);
    ASSERT_NE(def, nullptr) << want.path;
    EXPECT_EQ(json::Write(def->value, false), want.json) << want.path;
    EXPECT_EQ(def->source, want.source) << want.path;
  }
}

TEST(BuiltinDefaults, RuntimeEntries) {
  const KindDefaults& kind = *Builtin().Find("trainer.kubeflow.org/v1alpha1", "TrainingRuntime");
  struct Want {
    std::string_view path, json;
  };
  const Want wants[] = {
      {"spec.mlPolicy.mpi.numProcPerNode", "1"},
      {"spec.mlPolicy.mpi.mpiImplementation", "\"OpenMPI\""},
      {"spec.mlPolicy.mpi.sshAuthMountPath", "\"/root/.ssh\""},
      {"spec.mlPolicy.mpi.runLauncherAsNode", "false"},
      {"spec.mlPolicy.torch.numProcPerNode", "\"auto\""},
      {"spec.podGroupPolicy.coscheduling.scheduleTimeoutSeconds", "60"},
      {"spec.podGroupPolicy.volcano.networkTopology.mode", "\"hard\""},
      {"spec.podGroupPolicy.volcano.networkTopology.highestTierAllowed", "1"},
      {"spec.template.spec.failurePolicy.restartStrategy", "\"Recreate\""},
      {"spec.template.spec.replicatedJobs[*].replicas", "1"},
      {"spec.template.spec.replicatedJobs[*].groupName", "\"default\""},
      {"spec.template.spec.replicatedJobs[*].template.spec.template.spec.containers[*].ports[*]"
       ".protocol",
       "\"TCP\""},
  };
  for (const Want& want : wants) {
    const CrdDefault* def = Entry(kind, want.path);
    ASSERT_NE(def, nullptr) << want.path;
    EXPECT_EQ(json::Write(def->value, false), want.json) << want.path;
  }
  EXPECT_EQ(Entry(kind, "spec.template.spec.replicatedJobs[*].replicas")->source,
            "manifests/base/crds/trainer.kubeflow.org_trainingruntimes.yaml:892");
  // The doc comment says numNodes defaults to 1, but the CRD has no default.
  EXPECT_EQ(Entry(kind, "spec.mlPolicy.numNodes"), nullptr);
}

TEST(BuiltinDefaults, TreeFollowsThePaths) {
  const KindDefaults& kind = *Builtin().Find("trainer.kubeflow.org/v1alpha1", "TrainingRuntime");
  const DefaultsNode* jobs = kind.root.Find("spec");
  for (std::string_view step : {"template", "spec", "replicatedJobs"}) {
    ASSERT_NE(jobs, nullptr) << step;
    jobs = jobs->Find(step);
  }
  ASSERT_NE(jobs, nullptr);
  EXPECT_EQ(jobs->default_value, nullptr);
  ASSERT_NE(jobs->items, nullptr);
  const DefaultsNode* replicas = jobs->items->Find("replicas");
  ASSERT_NE(replicas, nullptr);
  ASSERT_NE(replicas->default_value, nullptr);
  EXPECT_EQ(replicas->default_value->path, "spec.template.spec.replicatedJobs[*].replicas");
}

Result<DefaultsTable> ParseWithDefaults(std::string_view defaults) {
  std::string text =
      R"({"format": "tjrender-crd-defaults/v1", "name": "t",
          "provenance": {"upstream": {"repo": "r", "tag": "v1", "commit": "0123456789abcdef"}},
          "kinds": [{"group": "g", "version": "v1", "kind": "K", "crd": "c.yaml",
                     "defaults": [)" +
      std::string(defaults) + "]}]}";
  return DefaultsTable::Parse(text, "t.json");
}

TEST(DefaultsTableParse, ReadsAWellFormedTable) {
  Result<DefaultsTable> table = ParseWithDefaults(
      R"({"path": "spec.list[*]", "value": {}, "source": "c.yaml:1"},
         {"path": "spec.map{*}.x", "value": 2, "type": "integer", "source": "c.yaml:2"})");
  ASSERT_TRUE(table.ok()) << table.error().ToString();
  EXPECT_EQ(table->upstream(), "r v1 (0123456789ab)");
  const KindDefaults* kind = table->Find("g/v1", "K");
  ASSERT_NE(kind, nullptr);
  ASSERT_EQ(kind->defaults.size(), 2u);
  const DefaultsNode* map = kind->root.Find("spec")->Find("map");
  ASSERT_NE(map->additional, nullptr);
  EXPECT_EQ(map->additional->Find("x")->default_value, kind->defaults[1].get());
}

TEST(DefaultsTableParse, RejectsMalformedTables) {
  struct Case {
    std::string_view defaults, message;
  };
  const Case cases[] = {
      {R"({"path": "a..b", "value": 1, "source": "s"})", "bad default path \"a..b\""},
      {R"({"path": "[*]", "value": 1, "source": "s"})", "bad default path \"[*]\""},
      {R"({"path": "a", "value": null, "source": "s"})",
       "default of K at a lacks a non-null \"value\""},
      {R"({"path": "a", "value": 1, "source": "s"}, {"path": "a", "value": 2, "source": "s"})",
       "two defaults for K a"},
      {R"({"path": "a.b", "value": 1, "source": "s"}, {"path": "a{*}", "value": 2, "source": "s"})",
       "K: a schema node has both properties and additionalProperties defaults"},
      {R"({"path": "a", "value": 1, "source": "s", "extra": 1})",
       "default of K: unknown member \"extra\""},
  };
  for (const Case& c : cases) {
    Result<DefaultsTable> table = ParseWithDefaults(c.defaults);
    ASSERT_FALSE(table.ok()) << c.defaults;
    EXPECT_EQ(table.error().message, c.message);
  }
  Result<DefaultsTable> wrong_format = DefaultsTable::Parse(
      R"({"format": "x", "name": "t", "provenance": {}, "kinds": []})", "t.json");
  ASSERT_FALSE(wrong_format.ok());
  EXPECT_EQ(wrong_format.error().message,
            "defaults table format \"x\", expected \"tjrender-crd-defaults/v1\"");
}

}  // namespace
}  // namespace tjr::trainer
