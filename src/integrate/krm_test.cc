#include "integrate/krm.h"

#include <gtest/gtest.h>


namespace tjr::integrate {
namespace {

const char kList[] =
    "apiVersion: config.kubernetes.io/v1\n"
    "kind: ResourceList\n"
    "functionConfig:\n  apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: fn}\n  data: {mode: render}\n"
    "items:\n"
    "- apiVersion: trainer.kubeflow.org/v1alpha1\n"
    "  kind: TrainJob\n"
    "  metadata:\n"
    "    name: job\n"
    "    namespace: ml\n"
    "    annotations:\n"
    "      internal.config.kubernetes.io/path: jobs/job.yaml\n"
    "      internal.config.kubernetes.io/index: '2'\n";

TEST(Krm, ReadsItemsConfigAndOrigins) {
  auto list = ReadResourceList(kList, "<stdin>");
  ASSERT_TRUE(list.ok()) << list.error().ToString();
  ASSERT_EQ(list->items.size(), 1u);
  EXPECT_EQ(ItemPath(list->items[0]), "jobs/job.yaml");
  EXPECT_EQ(ItemIndex(list->items[0]), 2);
  EXPECT_EQ(FunctionConfigValue(*list, "mode"), "render");
  EXPECT_EQ(FunctionConfigValue(*list, "target"), "");
}

TEST(Krm, RefusesOtherDocuments) {
  EXPECT_FALSE(ReadResourceList("kind: List\napiVersion: v1\nitems: []\n", "x").ok());
  EXPECT_FALSE(ReadResourceList("kind: ResourceList\napiVersion: config.kubernetes.io/v1\n", "x").ok());
  EXPECT_FALSE(ReadResourceList("a: [", "x").ok());
}

TEST(Krm, ResultsCarryLocationRefFieldAndFile) {
  auto list = ReadResourceList(kList, "<stdin>");
  ASSERT_TRUE(list.ok());
  // As FindingsOutput hands findings over: located in the item's file.
  Diagnostic d = MakeError({InternSourceName("jobs/job.yaml"), 7, 5}, "spec.runtimeRef",
                           "spec.runtimeRef: Invalid value: \"x\": not found");
  d.rule = "upstream/invalid-value";  // as validate's field errors carry it
  auto finding = report::MakeFinding(d, {"trainer.kubeflow.org/v1alpha1", "TrainJob", "ml", "job"});
  doc::Node results = Results(*list, {finding});
  ASSERT_EQ(results.size(), 1u);
  const doc::Node& result = results[0];
  EXPECT_EQ(result.Find("message")->string_value(),
            "jobs/job.yaml:7:5: [upstream/invalid-value] spec.runtimeRef: Invalid value: \"x\": not found");
  EXPECT_EQ(result.Find("severity")->string_value(), "error");
  EXPECT_EQ(result.Find("resourceRef")->Find("name")->string_value(), "job");
  EXPECT_EQ(result.Find("field")->Find("path")->string_value(), "spec.runtimeRef");
  EXPECT_EQ(result.Find("file")->Find("path")->string_value(), "jobs/job.yaml");
  EXPECT_EQ(result.Find("file")->Find("index")->int_value(), 2);
  EXPECT_EQ(result.Find("tags")->Find("rule")->string_value(), "upstream/invalid-value");
  EXPECT_EQ(result.Find("tags")->Find("line")->string_value(), "7");
  EXPECT_EQ(result.Find("tags")->Find("column")->string_value(), "5");
}

TEST(Krm, EverySeverityCarriesItsFieldAndTheItemItLiesIn) {
  auto list = ReadResourceList(kList, "<stdin>");
  ASSERT_TRUE(list.ok());
  // Findings without an object (a runtime's, the loader's) take the item
  // their location lies in, so `field` (which needs `resourceRef`) stays.
  for (Severity severity : {Severity::kError, Severity::kWarning, Severity::kNote}) {
    Diagnostic d = MakeError({InternSourceName("jobs/job.yaml")}, "spec.trainer.numNodes", "numNodes is 0");
    d.severity = severity;
    doc::Node results = Results(*list, {report::MakeFinding(d)});
    const doc::Node& result = results[0];
    EXPECT_EQ(result.Find("resourceRef")->Find("kind")->string_value(), "TrainJob");
    EXPECT_EQ(result.Find("field")->Find("path")->string_value(), "spec.trainer.numNodes");
    EXPECT_EQ(result.Find("file")->Find("path")->string_value(), "jobs/job.yaml");
    EXPECT_EQ(result.Find("tags")->Find("line"), nullptr);
  }
}

TEST(Krm, AFindingWithoutAFieldTakesThePathOfTheNodeItPointsAt) {
  const char text[] =
      "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n"
      "- apiVersion: trainer.kubeflow.org/v1alpha1\n"
      "  kind: TrainingRuntime\n"
      "  metadata:\n"
      "    name: rt\n"
      "    namespace: ml\n"
      "    annotations: {internal.config.kubernetes.io/path: rt.yaml}\n"
      "  spec:\n"
      "    template:\n"
      "      spec:\n"
      "        replicatedJobs:\n"
      "        - name: node\n"
      "          template: {}\n";
  auto list = ReadResourceList(text, "<stdin>");
  ASSERT_TRUE(list.ok()) << list.error().ToString();
  const doc::Node& job = (*list->items[0].Find("spec")->Find("template")->Find("spec")->Find("replicatedJobs"))[0];
  Location at = FileLocation(list->origins, "<stdin>", job.location());
  EXPECT_EQ(at.ToString(), "rt.yaml:11:9");
  // A tjrender warning about a TrainJob, pointing at the runtime's job.
  Diagnostic d = MakeWarning(at, "volume-two-sources", "volume \"data\" of job \"node\" ends up with 2 sources");
  auto finding = report::MakeFinding(d, {"trainer.kubeflow.org/v1alpha1", "TrainJob", "ml", "job"});
  doc::Node results = Results(*list, {finding});
  const doc::Node& result = results[0];
  EXPECT_EQ(result.Find("severity")->string_value(), "warning");
  EXPECT_EQ(result.Find("resourceRef")->Find("kind")->string_value(), "TrainingRuntime");
  EXPECT_EQ(result.Find("field")->Find("path")->string_value(), "spec.template.spec.replicatedJobs[0]");
  EXPECT_EQ(result.Find("file")->Find("path")->string_value(), "rt.yaml");
  EXPECT_EQ(result.Find("message")->string_value(),
            "rt.yaml:11:9: [volume-two-sources] volume \"data\" of job \"node\" ends up with 2 sources");
}

}  // namespace
}  // namespace tjr::integrate
