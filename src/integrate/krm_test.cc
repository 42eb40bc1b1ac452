#include "integrate/krm.h"

#include <gtest/gtest.h>

#include "yaml/reader.h"

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

TEST(Krm, ResultsCarryRefFieldAndFile) {
  auto list = ReadResourceList(kList, "<stdin>");
  ASSERT_TRUE(list.ok());
  Diagnostic d = MakeError({}, "spec.runtimeRef", "spec.runtimeRef: Invalid value: \"x\": not found");
  auto finding = report::MakeFinding(d, {"trainer.kubeflow.org/v1alpha1", "TrainJob", "ml", "job"});
  std::string out = WriteResourceList(*list, {finding});
  auto parsed = yaml::ReadStream(out, "out");
  ASSERT_TRUE(parsed.ok()) << out;
  const doc::Node& result = (*(*parsed)[0].Find("results"))[0];
  EXPECT_EQ(result.Find("severity")->string_value(), "error");
  EXPECT_EQ(result.Find("resourceRef")->Find("name")->string_value(), "job");
  EXPECT_EQ(result.Find("field")->Find("path")->string_value(), "spec.runtimeRef");
  EXPECT_EQ(result.Find("file")->Find("path")->string_value(), "jobs/job.yaml");
  EXPECT_EQ(result.Find("file")->Find("index")->int_value(), 2);
  EXPECT_EQ((*parsed)[0].Find("items")->size(), 1u);
  // No findings, no results key.
  EXPECT_EQ(WriteResourceList(*list, {}).find("results"), std::string::npos);
}

}  // namespace
}  // namespace tjr::integrate
