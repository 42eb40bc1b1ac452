// Pod composition (reference flyte-podtemplate.md §1.2-§2), on small inputs.
#include "flyte/compose.h"

#include <gtest/gtest.h>

#include "flyte/template_render.h"
#include "flyte/typed_value.h"
#include "yaml/reader.h"
#include "yaml/writer.h"

namespace tjr::flyte {
namespace {

doc::Node Yaml(std::string_view text) {
  auto docs = yaml::ReadStream(text, "test.yaml");
  EXPECT_TRUE(docs.ok());
  return docs.ok() && !docs->empty() ? (*docs)[0] : doc::Node();
}

StoredTemplate Template(std::string_view spec, std::string_view metadata = "{}") {
  StoredTemplate t;
  t.written = Yaml(spec);
  t.spec = *ToGoForm(t.written, "PodSpec");
  t.metadata = *ToGoForm(Yaml(metadata), "ObjectMeta");
  return t;
}

constexpr std::string_view kPodTask = R"(namespace: ns
execution: {generatedName: pod-name}
id: {name: wf.t1}
type: python-task
config: {primary_container_name: primary}
k8sPod:
  metadata: {labels: {l: compile}}
  podSpec:
    containers:
    - name: primary
      image: task:1
      args: [run]
)";

Result<doc::Node> Compose(std::string_view task_yaml, const TemplateStore& store,
                          std::string_view config_yaml = "{}", Diagnostics* warnings = nullptr,
                          Version version = Version::kV1_16) {
  Result<Task> task = ParseTask(Yaml(task_yaml), "task.yaml", "default");
  EXPECT_TRUE(task.ok()) << (task.ok() ? "" : task.error().ToString());
  Result<PluginConfig> config = ParsePluginConfig(Yaml(config_yaml));
  EXPECT_TRUE(config.ok());
  Diagnostics ignored;
  return ComposePod(*task, *config, store, version, warnings != nullptr ? warnings : &ignored);
}

const doc::Node& Primary(const doc::Node& pod) { return pod.Find("spec")->Find("containers")->items()[0]; }

TEST(Compose, NamedTemplateMissingIsAnError) {
  std::string task = std::string(kPodTask);
  task.replace(task.find("type:"), 0, "metadata: {podTemplateName: missing}\n");
  Result<doc::Node> pod = Compose(task, {});
  ASSERT_FALSE(pod.ok());
  EXPECT_EQ(pod.error().message, "PodTemplate 'missing' does not exist");
}

TEST(Compose, DefaultTemplateMissingIsSkipped) {
  Result<doc::Node> pod = Compose(kPodTask, {}, "default-pod-template-name: absent");
  ASSERT_TRUE(pod.ok());
  EXPECT_EQ(pod->Find("spec")->Find("restartPolicy")->string_value(), "Never");
}

TEST(Compose, TaskNamespaceTemplateReplacesPropellerNamespaceOne) {
  TemplateStore store;
  store["t"]["flyte"] = Template("containers: [{name: default, image: x, workingDir: /flyte}]");
  store["t"]["ns"] = Template("containers: [{name: default, image: x, workingDir: /ns}]");
  Result<doc::Node> pod = Compose(kPodTask, store, "default-pod-template-name: t");
  ASSERT_TRUE(pod.ok());
  EXPECT_EQ(Primary(*pod).Find("workingDir")->string_value(), "/ns");
}

TEST(Compose, TemplateContainersAreBasesAndCommandsConcatenate) {
  TemplateStore store;
  store["t"]["flyte"] = Template(
      "containers: [{name: default, image: x, args: [d]}, {name: primary, image: yy, args: [p]},"
      " {name: noop, image: z}]");
  Diagnostics warnings;
  Result<doc::Node> pod = Compose(kPodTask, store, "default-pod-template-name: t", &warnings);
  ASSERT_TRUE(pod.ok());
  EXPECT_EQ(pod->Find("spec")->Find("containers")->size(), 1u);
  EXPECT_EQ(yaml::Write(*Primary(*pod).Find("args")), "- d\n- p\n- run\n");
  EXPECT_EQ(Primary(*pod).Find("image")->string_value(), "task:1");
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].message.find("[flyte-template-container-dropped] template container \"noop\""),
            std::string::npos);
}

TEST(Compose, DefaultLabelsAreTheLowestLayer) {
  TemplateStore store;
  store["t"]["flyte"] = Template("containers: [{name: default, image: x}]",
                                 "labels: {l: runtime, r: runtime}");
  Result<doc::Node> pod = Compose(kPodTask, store,
                                  "default-pod-template-name: t\n"
                                  "default-labels: {l: plugin, r: plugin, p: plugin}");
  ASSERT_TRUE(pod.ok());
  EXPECT_EQ(yaml::Write(*pod->Find("metadata")->Find("labels")), "l: compile\np: plugin\nr: runtime\n");
}

TEST(Compose, HostNetworkTemplateTrueIsStickyAndWarned) {
  TemplateStore store;
  store["t"]["flyte"] = Template("containers: [{name: default, image: x}]\nhostNetwork: true");
  Diagnostics warnings;
  Result<doc::Node> pod = Compose(kPodTask, store,
                                  "default-pod-template-name: t\nenable-host-networking-pod: false",
                                  &warnings);
  ASSERT_TRUE(pod.ok());
  EXPECT_TRUE(pod->Find("spec")->Find("hostNetwork")->bool_value());
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].message.find("[flyte-template-value-sticky]"), std::string::npos);
}

TEST(TemplateRender, CaseInsensitiveWithSpaces) {
  TemplateValues values = {{"input", "s3://in/inputs.pb"}, {"namespace", "ns"}};
  EXPECT_EQ(RenderTemplate("--inputs={{ .Input }} {{$namespace}} {{.Unknown}} {{", values),
            "--inputs=s3://in/inputs.pb ns {{.Unknown}} {{");
}

}  // namespace
}  // namespace tjr::flyte
