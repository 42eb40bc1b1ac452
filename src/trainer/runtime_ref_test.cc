#include "trainer/runtime_ref.h"

#include <gtest/gtest.h>

#include <vector>

#include "trainer/defaulting.h"
#include "trainer/test_util.h"

namespace tjr::trainer {
namespace {

using testing::Yaml;

// A TrainJob as the API server stores it (defaults applied).
doc::Node Job(std::string_view runtime_ref, std::string_view ns = "team") {
  std::string text = "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nmetadata:\n"
                     "  name: j\n";
  if (!ns.empty()) text += "  namespace: " + std::string(ns) + "\n";
  text += "spec:\n  runtimeRef: " + std::string(runtime_ref) + "\n";
  doc::Node job = Yaml(text, "job.yaml");
  EXPECT_TRUE(ApplyBuiltinDefaults(job, kV21DefaultsTable).ok());
  return job;
}

doc::Node Runtime(std::string_view kind, std::string_view name, std::string_view ns = "",
                  std::string_view labels = "") {
  std::string text = "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: " + std::string(kind) +
                     "\nmetadata:\n  name: " + std::string(name) + "\n";
  if (!ns.empty()) text += "  namespace: " + std::string(ns) + "\n";
  if (!labels.empty()) text += "  labels: " + std::string(labels) + "\n";
  text += "spec: {template: {spec: {}}}\n";
  return Yaml(text, "runtimes.yaml");
}

TEST(RuntimeRef, RegistryKeyIsGroupKindString) {
  RuntimeRef ref{"x", "trainer.kubeflow.org", "TrainingRuntime"};
  EXPECT_EQ(ref.RegistryKey(), "TrainingRuntime.trainer.kubeflow.org");
  ref.api_group = "";
  EXPECT_EQ(ref.RegistryKey(), "TrainingRuntime");
  ref.kind = "";
  EXPECT_EQ(ref.RegistryKey(), "");
  ref.api_group = "example.com";
  EXPECT_EQ(ref.RegistryKey(), ".example.com");
}

TEST(RuntimeRef, JsonKeepsGoFieldOrderAndOmitsUnset) {
  RuntimeRef ref{"x", "trainer.kubeflow.org", "ClusterTrainingRuntime"};
  EXPECT_EQ(ref.Json(),
            R"({"name":"x","apiGroup":"trainer.kubeflow.org","kind":"ClusterTrainingRuntime"})");
  ref.api_group = "";
  ref.kind.reset();
  EXPECT_EQ(ref.Json(), R"({"name":"x","apiGroup":""})");
  ref.name = "<&>";
  EXPECT_EQ(ref.Json(), R"({"name":"\u003c\u0026\u003e","apiGroup":""})");
  ref.name = "";
  EXPECT_EQ(ref.Json(), R"({"apiGroup":""})");
}

TEST(ReadRuntimeRef, ReadsTheDefaultedReference) {
  Result<RuntimeRef> ref = ReadRuntimeRef(Job("{name: torch}"));
  ASSERT_TRUE(ref.ok());
  EXPECT_EQ(ref->name, "torch");
  EXPECT_EQ(ref->api_group, "trainer.kubeflow.org");
  EXPECT_EQ(ref->kind, "ClusterTrainingRuntime");
}

TEST(ReadRuntimeRef, MissingOrMistypedIsAnInputError) {
  doc::Node job = Yaml("apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nspec: {}\n");
  Result<RuntimeRef> missing = ReadRuntimeRef(job);
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().field_path, "spec.runtimeRef");
  EXPECT_EQ(missing.error().message, "Required value");
  EXPECT_EQ(missing.error().category, Category::kInput);

  Result<RuntimeRef> mistyped = ReadRuntimeRef(Job("{name: 3}"));
  ASSERT_FALSE(mistyped.ok());
  EXPECT_EQ(mistyped.error().field_path, "spec.runtimeRef.name");
  EXPECT_EQ(mistyped.error().message, "must be a string");
}

TEST(ResolveRuntime, FindsAClusterTrainingRuntimeByNameAlone) {
  std::vector<doc::Node> objects = {Runtime("TrainingRuntime", "torch", "team"),
                                    Runtime("ClusterTrainingRuntime", "torch", "elsewhere")};
  Result<ResolvedRuntime> resolved =
      ResolveRuntime(Job("{name: torch}"), objects, Reporter::kController);
  ASSERT_TRUE(resolved.ok()) << resolved.error().ToString();
  EXPECT_EQ(resolved->kind, RuntimeKind::kClusterTrainingRuntime);
  EXPECT_TRUE(resolved->runtime.SharesRepresentationWith(objects[1]));
  EXPECT_TRUE(resolved->warnings.empty());
}

TEST(ResolveRuntime, FindsATrainingRuntimeInTheTrainJobsNamespace) {
  std::vector<doc::Node> objects = {Runtime("TrainingRuntime", "torch", "other"),
                                    Runtime("TrainingRuntime", "torch", "team"),
                                    Runtime("TrainingRuntime", "torch")};
  Result<ResolvedRuntime> resolved =
      ResolveRuntime(Job("{name: torch, kind: TrainingRuntime}"), objects, Reporter::kWebhook);
  ASSERT_TRUE(resolved.ok()) << resolved.error().ToString();
  EXPECT_EQ(resolved->kind, RuntimeKind::kTrainingRuntime);
  EXPECT_TRUE(resolved->runtime.SharesRepresentationWith(objects[1]));

  // Neither side names a namespace: both are in the default one.
  Result<ResolvedRuntime> defaulted = ResolveRuntime(
      Job("{name: torch, kind: TrainingRuntime}", ""), objects, Reporter::kWebhook);
  ASSERT_TRUE(defaulted.ok());
  EXPECT_TRUE(defaulted->runtime.SharesRepresentationWith(objects[2]));
  // With another default namespace, the runtime without one is there too.
  std::vector<doc::Node> two = {objects[0], objects[1]};
  Result<ResolvedRuntime> elsewhere =
      ResolveRuntime(Job("{name: torch, kind: TrainingRuntime}", ""), two, Reporter::kWebhook,
                     ClientForm::kCachedClient, "other");
  ASSERT_TRUE(elsewhere.ok());
  EXPECT_TRUE(elsewhere->runtime.SharesRepresentationWith(objects[0]));
  Result<ResolvedRuntime> twice =
      ResolveRuntime(Job("{name: torch, kind: TrainingRuntime}", ""), objects,
                     Reporter::kWebhook, ClientForm::kCachedClient, "other");
  ASSERT_FALSE(twice.ok());
  EXPECT_EQ(twice.error().message,
            "TrainingRuntime \"other/torch\" is given twice (first at runtimes.yaml:1:1)");
}

TEST(ResolveRuntime, UnsupportedRuntime) {
  struct Case {
    std::string_view ref, message;
  };
  const Case cases[] = {
      {"{name: x, kind: JobSet}", "unsupported runtime: JobSet.trainer.kubeflow.org"},
      {"{name: x, apiGroup: \"\", kind: TrainingRuntime}", "unsupported runtime: TrainingRuntime"},
      {"{name: x, apiGroup: example.com}", "unsupported runtime: ClusterTrainingRuntime.example.com"},
      {"{name: x, apiGroup: \"\", kind: \"\"}", "unsupported runtime: "},
  };
  for (const Case& c : cases) {
    for (Reporter reporter : {Reporter::kController, Reporter::kWebhook}) {
      Result<ResolvedRuntime> resolved = ResolveRuntime(Job(c.ref), {}, reporter);
      ASSERT_FALSE(resolved.ok()) << c.ref;
      EXPECT_EQ(resolved.error().message, c.message);
      // trainjob_webhook.go:57-59, 70-72: a plain fmt.Errorf, no field path.
      EXPECT_EQ(resolved.error().field_path, "");
      EXPECT_EQ(resolved.error().category, Category::kFinding);
    }
  }
}

TEST(ResolveRuntime, ControllerNotFoundTexts) {
  std::vector<doc::Node> objects = {Runtime("TrainingRuntime", "x", "other"),
                                    Runtime("ClusterTrainingRuntime", "y")};
  Result<ResolvedRuntime> cluster =
      ResolveRuntime(Job("{name: x}"), objects, Reporter::kController);
  ASSERT_FALSE(cluster.ok());
  EXPECT_EQ(cluster.error().message,
            "not found ClusterTrainingRuntime specified in TrainJob: "
            "ClusterTrainingRuntime.trainer.kubeflow.org \"x\" not found");
  EXPECT_EQ(cluster.error().field_path, "spec.runtimeRef");
  EXPECT_EQ(cluster.error().rule, "upstream/error");  // a plain error, not a field error

  Result<ResolvedRuntime> namespaced = ResolveRuntime(
      Job("{name: x, kind: TrainingRuntime}"), objects, Reporter::kController,
      ClientForm::kApiServer);
  ASSERT_FALSE(namespaced.ok());
  EXPECT_EQ(namespaced.error().message,
            "TrainingRuntime specified in TrainJob is not found: "
            "trainingruntimes.trainer.kubeflow.org \"x\" not found");
}

TEST(ResolveRuntime, WebhookNotFoundTexts) {
  Result<ResolvedRuntime> cluster =
      ResolveRuntime(Job("{name: x}"), {}, Reporter::kWebhook, ClientForm::kApiServer);
  ASSERT_FALSE(cluster.ok());
  // Upstream's path is spec.RuntimeRef here (clustertrainingruntime.go:87).
  EXPECT_EQ(cluster.error().field_path + ": " + cluster.error().message,
            "spec.RuntimeRef: Invalid value: "
            R"({"name":"x","apiGroup":"trainer.kubeflow.org","kind":"ClusterTrainingRuntime"}: )"
            "clustertrainingruntimes.trainer.kubeflow.org \"x\" not found: specified "
            "clusterTrainingRuntime must be created before the TrainJob is created");

  Result<ResolvedRuntime> namespaced =
      ResolveRuntime(Job("{name: x, kind: TrainingRuntime}"), {}, Reporter::kWebhook);
  ASSERT_FALSE(namespaced.ok());
  EXPECT_EQ(namespaced.error().field_path + ": " + namespaced.error().message,
            "spec.runtimeRef: Invalid value: "
            R"({"name":"x","apiGroup":"trainer.kubeflow.org","kind":"TrainingRuntime"}: )"
            "TrainingRuntime.trainer.kubeflow.org \"x\" not found: specified trainingRuntime must "
            "be created before the TrainJob is created");
  // field.Invalid: the rule is set where the error is made.
  EXPECT_EQ(cluster.error().rule, "upstream/invalid-value");
}

TEST(ResolveRuntime, ErrorsPointAtRuntimeRef) {
  Result<ResolvedRuntime> resolved = ResolveRuntime(Job("{name: x}"), {}, Reporter::kController);
  ASSERT_FALSE(resolved.ok());
  EXPECT_EQ(resolved.error().location.ToString(), "job.yaml:7:3");
}

TEST(ResolveRuntime, DeprecatedClusterTrainingRuntimeWarns) {
  std::vector<doc::Node> objects = {
      Runtime("ClusterTrainingRuntime", "old", "", "{trainer.kubeflow.org/support: deprecated}"),
      Runtime("TrainingRuntime", "old", "team", "{trainer.kubeflow.org/support: deprecated}"),
      Runtime("ClusterTrainingRuntime", "fine", "", "{trainer.kubeflow.org/support: stable}")};
  Result<ResolvedRuntime> deprecated =
      ResolveRuntime(Job("{name: old}"), objects, Reporter::kWebhook);
  ASSERT_TRUE(deprecated.ok());
  ASSERT_EQ(deprecated->warnings.size(), 1u);
  EXPECT_EQ(deprecated->warnings[0].severity, Severity::kWarning);
  EXPECT_EQ(deprecated->warnings[0].message,
            "Referenced ClusterTrainingRuntime \"old\" is deprecated and will be removed in a "
            "future release of Kubeflow Trainer. See runtime deprecation policy: "
            "https://www.kubeflow.org/docs/components/trainer/operator-guides/runtime/"
            "#runtime-deprecation-policy");

  // Only ClusterTrainingRuntimes are checked, and only for the value "deprecated".
  Result<ResolvedRuntime> namespaced =
      ResolveRuntime(Job("{name: old, kind: TrainingRuntime}"), objects, Reporter::kWebhook);
  ASSERT_TRUE(namespaced.ok());
  EXPECT_TRUE(namespaced->warnings.empty());
  Result<ResolvedRuntime> fine = ResolveRuntime(Job("{name: fine}"), objects, Reporter::kWebhook);
  ASSERT_TRUE(fine.ok());
  EXPECT_TRUE(fine->warnings.empty());
}

TEST(ResolveRuntime, IgnoresOtherKindsAndVersions) {
  doc::Node wrong_version = Yaml(
      "apiVersion: trainer.kubeflow.org/v1\nkind: ClusterTrainingRuntime\nmetadata: {name: x}\n");
  doc::Node job_set = Yaml("apiVersion: jobset.x-k8s.io/v1alpha2\nkind: JobSet\nmetadata: {name: x}\n");
  std::vector<doc::Node> objects = {wrong_version, job_set};
  EXPECT_FALSE(ResolveRuntime(Job("{name: x}"), objects, Reporter::kController).ok());
}

TEST(ResolveRuntime, ARuntimeGivenTwiceIsAnInputError) {
  std::vector<doc::Node> objects = {Runtime("ClusterTrainingRuntime", "x"),
                                    Runtime("ClusterTrainingRuntime", "x", "ignored")};
  Result<ResolvedRuntime> resolved = ResolveRuntime(Job("{name: x}"), objects, Reporter::kWebhook);
  ASSERT_FALSE(resolved.ok());
  EXPECT_EQ(resolved.error().category, Category::kInput);
  EXPECT_EQ(resolved.error().message,
            "ClusterTrainingRuntime \"x\" is given twice (first at runtimes.yaml:1:1)");
}

}  // namespace
}  // namespace tjr::trainer
