#include "integrate/resource_list_edit.h"

#include <gtest/gtest.h>

#include "json/json.h"
#include "yaml/reader.h"

namespace tjr::integrate {
namespace {

// Everything a user's file may hold that a re-serialization would lose.
const char kList[] =
    "apiVersion: config.kubernetes.io/v1\n"
    "kind: ResourceList\n"
    "items:\n"
    "- # a head comment\n"
    "  apiVersion: v1\n"
    "  kind: ConfigMap\n"
    "  metadata:\n"
    "    name: 'single'   # kept spacing\n"
    "    annotations: {internal.config.kubernetes.io/path: 'a.yaml'}\n"
    "  data: {b: \"2\", a: yes}\n"
    "  anchored: &x {k: v}\n"
    "  alias: *x\n"
    "- apiVersion: trainer.kubeflow.org/v1alpha1\n"
    "  kind: TrainJob\n"
    "  metadata:\n"
    "    name: job\n"
    "- apiVersion: trainer.kubeflow.org/v1alpha1\n"
    "  kind: TrainingRuntime\n"
    "  metadata:\n"
    "    name: rt\n"
    "functionConfig:\n"
    "  apiVersion: v1\n"
    "  kind: ConfigMap\n"
    "  metadata: {name: fn}\n";

ResourceList Read(std::string_view text) {
  auto list = ReadResourceList(text, "<stdin>");
  EXPECT_TRUE(list.ok()) << list.error().ToString();
  return list.ok() ? std::move(*list) : ResourceList{};
}

doc::Node OneResult(std::string message) {
  doc::Node result = doc::Node::Mapping();
  result.Set("message", doc::Node::String(std::move(message)));
  result.Set("severity", doc::Node::String("error"));
  doc::Node results = doc::Node::Sequence();
  results.push_back(result);
  return results;
}

doc::Node Object(std::string kind, std::string name) {
  doc::Node metadata = doc::Node::Mapping();
  metadata.Set("name", doc::Node::String(std::move(name)));
  doc::Node object = doc::Node::Mapping();
  object.Set("apiVersion", doc::Node::String("v1"));
  object.Set("kind", doc::Node::String(std::move(kind)));
  object.Set("metadata", metadata);
  return object;
}

TEST(EditResourceList, NoEditsNoResultsIsTheInput) {
  ResourceList list = Read(kList);
  EXPECT_EQ(EditResourceList(list, {}, doc::Node::Sequence()), kList);
}

TEST(EditResourceList, ResultsFollowTheInputUntouched) {
  ResourceList list = Read(kList);
  std::string out = EditResourceList(list, {}, OneResult("bad: \"x\""));
  EXPECT_EQ(out, std::string(kList) + "results:\n- message: 'bad: \"x\"'\n  severity: error\n");
}

TEST(EditResourceList, ResultsTheInputHadAreReplaced) {
  std::string text = std::string(kList);
  std::size_t config = text.find("functionConfig:");
  text.insert(config, "results:\n- message: old\n  severity: info\n");
  ResourceList list = Read(text);
  EXPECT_EQ(EditResourceList(list, {}, OneResult("new")),
            std::string(kList) + "results:\n- message: new\n  severity: error\n");
  EXPECT_EQ(EditResourceList(list, {}, doc::Node::Sequence()), kList);
}

TEST(EditResourceList, RenderEditsOnlyTheChangedItems) {
  ResourceList list = Read(kList);
  std::vector<ItemEdit> edits(3);
  edits[1].keep = false;
  edits[1].added = {Object("JobSet", "job"), Object("ConfigMap", "job-hostfile")};
  edits[2].keep = false;
  std::string out = EditResourceList(list, edits, doc::Node::Sequence());
  std::string expected = kList;
  std::size_t job = expected.find("- apiVersion: trainer.kubeflow.org/v1alpha1\n  kind: TrainJob");
  std::size_t config = expected.find("functionConfig:");
  expected.replace(job, config - job,
                   "- apiVersion: v1\n  kind: JobSet\n  metadata:\n    name: job\n"
                   "- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: job-hostfile\n");
  EXPECT_EQ(out, expected);
}

TEST(EditResourceList, NoItemsLeftIsAnEmptyList) {
  ResourceList list = Read(kList);
  std::vector<ItemEdit> edits(3, ItemEdit{false, {}});
  std::string out = EditResourceList(list, edits, doc::Node::Sequence());
  EXPECT_EQ(out,
            "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems: []\n"
            "functionConfig:\n  apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: fn}\n");
  auto parsed = yaml::ReadStream(out, "out");
  ASSERT_TRUE(parsed.ok());
  EXPECT_TRUE((*parsed)[0].Find("items")->is_sequence());
}

TEST(EditResourceList, CrlfInputGetsCrlfLines) {
  std::string text;
  for (char c : std::string(kList)) {
    if (c == '\n') text += '\r';
    text += c;
  }
  ResourceList list = Read(text);
  EXPECT_EQ(EditResourceList(list, {}, OneResult("x")), text + "results:\r\n- message: x\r\n  severity: error\r\n");
}

TEST(EditResourceList, NoFinalNewline) {
  std::string text = kList;
  text.pop_back();
  ResourceList list = Read(text);
  EXPECT_EQ(EditResourceList(list, {}, OneResult("x")), text + "\nresults:\n- message: x\n  severity: error\n");
}

TEST(EditResourceList, JsonStaysJson) {
  const char text[] =
      "{\n  \"apiVersion\": \"config.kubernetes.io/v1\",\n  \"kind\": \"ResourceList\",\n"
      "  \"items\": [\n    {\"apiVersion\": \"v1\", \"kind\": \"ConfigMap\", \"metadata\": {\"name\": \"a\"}},\n"
      "    {\"apiVersion\": \"trainer.kubeflow.org/v1alpha1\", \"kind\": \"TrainJob\", \"metadata\": {\"name\": "
      "\"j\"}}\n  ]\n}\n";
  ResourceList list = Read(text);
  std::string validated = EditResourceList(list, {}, OneResult("x"));
  std::string expected = text;
  expected.insert(expected.find("\n  ]\n}") + 4, ", \"results\": [{\"message\":\"x\",\"severity\":\"error\"}]");
  EXPECT_EQ(validated, expected);
  auto parsed = json::Read(validated, "out");
  ASSERT_TRUE(parsed.ok()) << validated;
  EXPECT_EQ(parsed->Find("results")->size(), 1u);

  std::vector<ItemEdit> edits(2);
  edits[1].keep = false;
  edits[1].added = {Object("JobSet", "j")};
  std::string rendered = EditResourceList(list, edits, doc::Node::Sequence());
  EXPECT_NE(rendered.find("\"items\": [{\"apiVersion\": \"v1\", \"kind\": \"ConfigMap\", \"metadata\": "
                          "{\"name\": \"a\"}}, {\"apiVersion\":\"v1\",\"kind\":\"JobSet\""),
            std::string::npos)
      << rendered;
  auto reparsed = json::Read(rendered, "out");
  ASSERT_TRUE(reparsed.ok()) << rendered;
  EXPECT_EQ(reparsed->Find("items")->size(), 2u);
}

}  // namespace
}  // namespace tjr::integrate
