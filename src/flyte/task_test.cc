// The task document shapes of docs/manual.md "Flyte".
#include "flyte/task.h"

#include <gtest/gtest.h>

#include "yaml/reader.h"

namespace tjr::flyte {
namespace {

doc::Node Yaml(std::string_view text) {
  auto docs = yaml::ReadStream(text, "test.yaml");
  EXPECT_TRUE(docs.ok());
  return docs.ok() && !docs->empty() ? (*docs)[0] : doc::Node();
}

TEST(TaskDocument, Recognition) {
  EXPECT_TRUE(IsFlyteTaskDocument(Yaml("id: {name: t}\ncontainer: {image: x}")));
  EXPECT_TRUE(IsFlyteTaskDocument(Yaml("template: {id: {name: t}, k8s_pod: {}}")));
  EXPECT_TRUE(IsFlyteTaskDocument(Yaml("closure: {compiledTask: {template: {k8sPod: {}}}}")));
  EXPECT_TRUE(IsFlyteTaskDocument(Yaml("type: sidecar\ncustom: {}")));
  EXPECT_FALSE(IsFlyteTaskDocument(Yaml("apiVersion: v1\nkind: Pod\ncontainer: {}")));
  EXPECT_FALSE(IsFlyteTaskDocument(Yaml("id: {name: t}\ntype: python-task")));
  // NeMo launcher / Hydra configs (aws-samples/awsome-distributed-training
  // 3.test_cases/megatron/nemo1.0/conf.template/config.yaml): an image string.
  EXPECT_FALSE(IsFlyteTaskDocument(Yaml("defaults: [_self_]\ncontainer: ${ENROOT_IMAGE}")));
  EXPECT_FALSE(IsFlyteTaskDocument(Yaml("container: docker.io/x/y:v1\nk8sPod: pod")));
}

TEST(TaskDocument, FlytectlShapeWithSnakeCaseNames) {
  auto task = ParseTask(Yaml(R"(id: {resourceType: TASK, project: p, domain: d, name: wf.t1, version: v7}
closure:
  compiled_task:
    template:
      type: python-task
      metadata: {pod_template_name: tmpl, metadata: {labels: {a: b}}}
      container:
        image: img
        env: [{key: K, value: V}]
        resources:
          requests: [{name: CPU, value: "2"}, {name: GPU, value: "1"}, {name: MEMORY, value: "0"}]
)"),
                        "task.yaml", "team");
  ASSERT_TRUE(task.ok()) << task.error().ToString();
  EXPECT_EQ(task->name, "wf.t1");
  EXPECT_EQ(task->task_version, "v7");
  EXPECT_EQ(task->namespace_, "team");
  EXPECT_EQ(task->pod_template_name, "tmpl");
  EXPECT_EQ(task->metadata_labels, (StringMap{{"a", "b"}}));
  EXPECT_EQ(task->execution.generated_name, "wf-t1");
  const doc::Node* requests = task->container.Find("resources")->Find("requests");
  ASSERT_NE(requests, nullptr);
  EXPECT_EQ(requests->Find("cpu")->string_value(), "2");
  EXPECT_EQ(requests->Find("nvidia.com/gpu")->string_value(), "1");
  EXPECT_EQ(requests->Find("memory"), nullptr);  // zero quantities are dropped
  EXPECT_EQ(task->container.Find("env")->items()[0].Find("name")->string_value(), "K");
}

TEST(TaskDocument, MissingNameIsAnInputError) {
  auto task = ParseTask(Yaml("container: {image: x}"), "task.yaml", "default");
  ASSERT_FALSE(task.ok());
  EXPECT_EQ(task.error().category, Category::kInput);
}

}  // namespace
}  // namespace tjr::flyte
