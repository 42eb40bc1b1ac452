#include "explain/json_format.h"

#include <gtest/gtest.h>

#include "explain/formats.h"
#include "json/json.h"

namespace tjr::explain {
namespace {

using doc::Node;

Location At(const char* file, std::uint32_t line, std::uint32_t column) {
  return Location{InternSourceName(file), line, column};
}

// A TrainJob's JobSet with two layers: the runtime sets the image, a patch
// replaces it and deletes a label.
Explanation Sample() {
  Explanation explanation;
  explanation.subject = "TrainJob ml/llama";
  explanation.target = "trainer-v2.3";
  explanation.layers.push_back({LayerKind::kRuntime, "runtime", At("runtime.yaml", 1, 1)});
  explanation.layers.push_back({LayerKind::kPatch, "runtimePatches[kueue]", At("tj.yaml", 9, 5)});
  explanation.layers.push_back({LayerKind::kBuilder, "builder", {}});

  Node object = Node::Mapping();
  object.Set("apiVersion", Node::String("jobset.x-k8s.io/v1alpha2"));
  object.Set("kind", Node::String("JobSet"));
  Node metadata = Node::Mapping();
  metadata.Set("name", Node::String("llama"));
  metadata.Set("namespace", Node::String("ml"));
  object.Set("metadata", metadata);
  Node spec = Node::Mapping();
  spec.Set("image", Node::String("pytorch:2.5"));
  object.Set("spec", spec);

  ObjectExplanation explained;
  explained.object = object;
  Field image;
  image.path = "spec.image";
  image.chain.push_back({0, Action::kSet, Node::String("pytorch:2.4"), At("runtime.yaml", 7, 14), ""});
  image.chain.push_back(
      {1, Action::kSet, Node::String("pytorch:2.5"), At("tj.yaml", 12, 16), "replaces the runtime's"});
  explained.fields.push_back(image);
  Field name;
  name.path = "metadata.name";
  name.chain.push_back({2, Action::kSet, Node::String("llama"), {}, ""});
  explained.fields.push_back(name);
  Field label;
  label.path = "metadata.labels[team]";
  label.present = false;
  label.order = "";
  label.chain.push_back({0, Action::kSet, Node::String("a"), At("runtime.yaml", 4, 11), ""});
  label.chain.push_back({1, Action::kDeleted, {}, At("tj.yaml", 10, 9), "null deletes"});
  explained.fields.push_back(label);
  explanation.objects.push_back(explained);
  explanation.files.push_back({"tj.yaml", "kind: TrainJob\n"});
  return explanation;
}

Node ReadBack(const Explanation& explanation) {
  std::string text = FormatJson(explanation);
  Result<Node> node = json::Read(text, "explain.json");
  EXPECT_TRUE(node.ok()) << text;
  return node.ok() ? node.value() : Node();
}

const Node& At(const Node& node, std::string_view key) {
  const Node* value = node.Find(key);
  static const Node kMissing;
  EXPECT_NE(value, nullptr) << "no key " << key;
  return value != nullptr ? *value : kMissing;
}

TEST(JsonFormat, NamesTheFormatSubjectAndTarget) {
  Node doc = ReadBack(Sample());
  EXPECT_EQ(At(doc, "format").string_value(), "tjrender-explain/v1");
  EXPECT_EQ(At(doc, "subject").string_value(), "TrainJob ml/llama");
  EXPECT_EQ(At(doc, "target").string_value(), "trainer-v2.3");
  EXPECT_EQ(doc.size(), 5u) << "format, subject, target, layers, objects; no files";
  EXPECT_EQ(doc.Find("files"), nullptr);
}

TEST(JsonFormat, LayersCarryIndexKindNameAndKnownLocation) {
  Node layers = At(ReadBack(Sample()), "layers");
  ASSERT_EQ(layers.size(), 3u);
  EXPECT_EQ(At(layers[1], "index").int_value(), 1);
  EXPECT_EQ(At(layers[1], "kind").string_value(), "runtimePatch");
  EXPECT_EQ(At(layers[1], "name").string_value(), "runtimePatches[kueue]");
  const Node& location = At(layers[1], "location");
  EXPECT_EQ(At(location, "file").string_value(), "tj.yaml");
  EXPECT_EQ(At(location, "line").int_value(), 9);
  EXPECT_EQ(At(location, "column").int_value(), 5);
  EXPECT_EQ(At(layers[2], "kind").string_value(), "builder");
  EXPECT_EQ(layers[2].Find("location"), nullptr) << "the builder is written nowhere";
}

TEST(JsonFormat, ObjectsAreNamedAndCarryTheObject) {
  Node objects = At(ReadBack(Sample()), "objects");
  ASSERT_EQ(objects.size(), 1u);
  const Node& object = objects[0];
  EXPECT_EQ(At(object, "apiVersion").string_value(), "jobset.x-k8s.io/v1alpha2");
  EXPECT_EQ(At(object, "kind").string_value(), "JobSet");
  EXPECT_EQ(At(object, "namespace").string_value(), "ml");
  EXPECT_EQ(At(object, "name").string_value(), "llama");
  EXPECT_EQ(At(object, "object"), Sample().objects[0].object);
}

TEST(JsonFormat, ClusterScopedObjectsHaveNoNamespace) {
  Explanation explanation = Sample();
  explanation.objects[0].object.FindMutable("metadata")->Erase("namespace");
  Node object = At(ReadBack(explanation), "objects")[0];
  EXPECT_EQ(object.Find("namespace"), nullptr);
}

TEST(JsonFormat, FieldsKeepTheirOrderAndChains) {
  Node fields = At(At(ReadBack(Sample()), "objects")[0], "fields");
  ASSERT_EQ(fields.size(), 3u);
  const Node& image = fields[0];
  EXPECT_EQ(At(image, "path").string_value(), "spec.image");
  EXPECT_TRUE(At(image, "present").bool_value());
  EXPECT_EQ(image.Find("order"), nullptr) << "omitted when empty";
  const Node& chain = At(image, "chain");
  ASSERT_EQ(chain.size(), 2u);
  EXPECT_EQ(At(chain[0], "layer").int_value(), 0);
  EXPECT_EQ(At(chain[0], "action").string_value(), "set");
  EXPECT_EQ(At(chain[0], "value").string_value(), "pytorch:2.4");
  EXPECT_EQ(chain[0].Find("detail"), nullptr) << "omitted when empty";
  EXPECT_EQ(At(chain[1], "layer").int_value(), 1);
  EXPECT_EQ(At(chain[1], "value").string_value(), "pytorch:2.5");
  EXPECT_EQ(At(chain[1], "detail").string_value(), "replaces the runtime's");
  EXPECT_EQ(At(At(chain[1], "location"), "line").int_value(), 12);
  EXPECT_EQ(At(At(chain[1], "location"), "column").int_value(), 16);

  const Node& builder_step = At(fields[1], "chain")[0];
  EXPECT_EQ(builder_step.Find("location"), nullptr) << "unknown locations are left out";
}

TEST(JsonFormat, DeletedStepsHaveNoValue) {
  Node fields = At(At(ReadBack(Sample()), "objects")[0], "fields");
  const Node& label = fields[2];
  EXPECT_EQ(At(label, "path").string_value(), "metadata.labels[team]");
  EXPECT_FALSE(At(label, "present").bool_value());
  const Node& deleted = At(label, "chain")[1];
  EXPECT_EQ(At(deleted, "action").string_value(), "deleted");
  EXPECT_EQ(deleted.Find("value"), nullptr);
  EXPECT_EQ(At(deleted, "detail").string_value(), "null deletes");
}

TEST(JsonFormat, ListItemsCarryTheirOrder) {
  Explanation explanation = Sample();
  explanation.objects[0].fields[0].order = "appended after the runtime's items";
  Node field = At(At(ReadBack(explanation), "objects")[0], "fields")[0];
  EXPECT_EQ(At(field, "order").string_value(), "appended after the runtime's items");
}

TEST(JsonFormat, LocationWithoutLineNamesOnlyTheFile) {
  Node location = LocationDocument(Location{InternSourceName("manifests/crd.yaml"), 0, 0});
  EXPECT_EQ(At(location, "file").string_value(), "manifests/crd.yaml");
  EXPECT_EQ(location.size(), 1u);
}

TEST(JsonFormat, IsDeterministicAndPretty) {
  std::string first = FormatJson(Sample());
  EXPECT_EQ(first, FormatJson(Sample()));
  EXPECT_EQ(first.substr(0, 6), "{\n    ") << first;
  EXPECT_EQ(first.back(), '\n');
}

}  // namespace
}  // namespace tjr::explain
