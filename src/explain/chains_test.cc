#include "explain/chains.h"

#include <gtest/gtest.h>

#include "yaml/reader.h"

namespace tjr::explain {
namespace {

doc::Node Yaml(std::string_view text, std::string_view file) {
  auto nodes = yaml::ReadStream(text, file);
  EXPECT_TRUE(nodes.ok()) << nodes.error().ToString();
  return nodes.ok() && !nodes->empty() ? nodes->front() : doc::Node();
}

const Field& FieldAt(const std::vector<Field>& fields, std::string_view path) {
  for (const Field& field : fields) {
    if (field.path == path) return field;
  }
  ADD_FAILURE() << "no field " << path;
  static const Field none;
  return none;
}

// Three layers: the runtime writes image and env A; a patch replaces the
// image and adds env B; a plugin appends env C and deletes the args. Each
// stage is the one before it changed, as the render's stages are.
std::vector<Stage> ThreeLayers() {
  doc::Node runtime = Yaml("image: a:1\nargs: [x]\nenv:\n- name: A\n  value: \"1\"\n", "runtime.yaml");
  doc::Node patch = Yaml("image: a:2\nenv:\n- name: B\n  value: \"2\"\n", "tj.yaml");
  doc::Node patched = runtime;
  patched.Set("image", *patch.Find("image"));
  patched.FindMutable("env")->push_back((*patch.Find("env"))[0]);
  doc::Node plugged = patched;
  plugged.Erase("args");
  doc::Node c = doc::Node::Mapping();
  c.Set("name", doc::Node::String("C"));
  c.Set("value", doc::Node::String("3"));
  plugged.FindMutable("env")->push_back(c);
  return {{0, runtime}, {1, patched}, {2, plugged}};
}

TEST(ChainsTest, AReplacedValueKeepsWhatItWasAndWhoReplacedIt) {
  std::vector<Field> fields = ChainsFromStages(ThreeLayers());
  const Field& image = FieldAt(fields, "image");
  ASSERT_EQ(image.chain.size(), 2u);
  EXPECT_EQ(image.chain[0].layer, 0u);
  EXPECT_EQ(image.chain[0].value.string_value(), "a:1");
  EXPECT_EQ(image.chain[0].location.ToString(), "runtime.yaml:1:8");
  EXPECT_EQ(image.chain[1].layer, 1u);
  EXPECT_EQ(image.chain[1].value.string_value(), "a:2");
  EXPECT_TRUE(image.present);
}

TEST(ChainsTest, AnUnchangedValueHasOneStep) {
  std::vector<Field> fields = ChainsFromStages(ThreeLayers());
  const Field& value = FieldAt(fields, "env[name=A].value");
  ASSERT_EQ(value.chain.size(), 1u);
  EXPECT_EQ(value.chain[0].layer, 0u);
}

TEST(ChainsTest, ADeletedValueIsListedAsDeletedByTheLayer) {
  std::vector<Field> fields = ChainsFromStages(ThreeLayers());
  const Field& args = FieldAt(fields, "args");
  EXPECT_FALSE(args.present);
  ASSERT_EQ(args.chain.size(), 2u);
  EXPECT_EQ(args.chain[1].action, Action::kDeleted);
  EXPECT_EQ(args.chain[1].layer, 2u);
  // Deleted fields come after the present ones.
  EXPECT_EQ(fields.back().path, "args");
}

TEST(ChainsTest, ASubtreeDeletedWithItsParentIsOneDeletion) {
  std::vector<Stage> stages = {{0, Yaml("a:\n  b: 1\n  c: 2\nd: 3\n", "r.yaml")}, {1, Yaml("d: 3\n", "p.yaml")}};
  std::vector<Field> fields = ChainsFromStages(stages);
  int deleted = 0;
  for (const Field& field : fields) deleted += field.present ? 0 : 1;
  EXPECT_EQ(deleted, 1);
  EXPECT_FALSE(FieldAt(fields, "a").present);
}

TEST(ChainsTest, ListItemsKnowWhenTheyArrivedAndWhetherTheyMoved) {
  std::vector<Stage> stages = ThreeLayers();
  doc::Node swapped = stages.back().object;
  std::vector<doc::Node>& env = swapped.FindMutable("env")->mutable_items();
  std::swap(env[0], env[1]);
  stages.push_back({3, swapped});
  std::vector<std::string> seen;
  ChainsFromStages(stages, {}, [&](const std::string& path, const ItemHistory& history) {
    seen.push_back(path + " " + std::to_string(history.arrived) + " " +
                   (history.moved ? std::to_string(*history.moved) : "-") + " " + std::to_string(history.index));
    return std::string();
  });
  ASSERT_EQ(seen.size(), 3u);
  EXPECT_EQ(seen[0], "env[name=B] 1 3 0");  // swapped with A
  EXPECT_EQ(seen[1], "env[name=A] 0 3 1");
  EXPECT_EQ(seen[2], "env[name=C] 2 - 2");
}

TEST(ChainsTest, TheSameValueRewrittenFromAnotherPlaceIsAStep) {
  std::vector<Stage> stages = {{0, Yaml("image: a:1\n", "runtime.yaml")}, {1, Yaml("\nimage: a:1\n", "tj.yaml")}};
  std::vector<Field> fields = ChainsFromStages(stages);
  EXPECT_EQ(FieldAt(fields, "image").chain.size(), 2u);
}

TEST(ChainsTest, AValueCarriedWithoutALocationIsNoStep) {
  std::vector<Stage> stages = {{0, Yaml("image: a:1\n", "runtime.yaml")}, {1, doc::Node::Mapping()}};
  stages[1].object.Set("image", doc::Node::String("a:1"));
  std::vector<Field> fields = ChainsFromStages(stages);
  EXPECT_EQ(FieldAt(fields, "image").chain.size(), 1u);
}

TEST(ChainsTest, AnnotateMayDropAStepAndFillDetails) {
  std::vector<Field> fields =
      ChainsFromStages(ThreeLayers(), [](const Stage& stage, const std::string&, const doc::Node&, Step* step) {
        step->detail = "layer " + std::to_string(stage.layer);
        return stage.layer != 1;
      });
  const Field& image = FieldAt(fields, "image");
  ASSERT_EQ(image.chain.size(), 1u);
  EXPECT_EQ(image.chain[0].detail, "layer 0");
}

TEST(ChainsTest, DeepNestingDoesNotRecurse) {
  doc::Node root = doc::Node::Mapping();
  doc::Node* at = &root;
  for (int i = 0; i < 3000; ++i) at = &at->Set("a", doc::Node::Mapping());
  at->Set("leaf", doc::Node::Int(1));
  std::size_t count = 0;
  WalkFields(root, [&](const std::string&, const doc::Node&, const std::string*, std::size_t) { ++count; });
  EXPECT_EQ(count, 3002u);
}

}  // namespace
}  // namespace tjr::explain
