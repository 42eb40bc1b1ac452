#include <gtest/gtest.h>

#include "base/location.h"
#include "explain/formats.h"

namespace tjr::explain {
namespace {

Explanation TwoLayers() {
  Explanation explanation;
  explanation.subject = "TrainJob ml/llama";
  explanation.target = "trainer-v2.3";
  explanation.layers = {{LayerKind::kRuntime, "runtime", {}}, {LayerKind::kPlugin, "plugin torch", {}}};
  return explanation;
}

Location At(std::uint32_t line, std::uint32_t column) {
  return Location{InternSourceName("tj.yaml"), line, column};
}

TEST(DescribeStepTest, NamesTheLayerThenTheLocationThenTheDetail) {
  Explanation explanation = TwoLayers();
  Step step{0, Action::kSet, doc::Node::String("cpu"), At(3, 9), "CRD default"};
  EXPECT_EQ(DescribeStep(explanation, step), "runtime tj.yaml:3:9 (CRD default)");
}

TEST(DescribeStepTest, ADrivingFieldCarriesItsLocation) {
  Explanation explanation = TwoLayers();
  Step step{1, Action::kSet, doc::Node::String("2"), At(10, 15), "from spec.trainer.numNodes"};
  EXPECT_EQ(DescribeStep(explanation, step), "plugin torch (from spec.trainer.numNodes at tj.yaml:10:15)");
}

TEST(DescribeStepTest, ADeletionSaysWhoDeleted) {
  Explanation explanation = TwoLayers();
  Step step{1, Action::kDeleted, doc::Node(), {}, ""};
  EXPECT_EQ(DescribeStep(explanation, step), "deleted by plugin torch");
}

TEST(ObjectTitleTest, KindAndNamespacedName) {
  doc::Node object = doc::Node::Mapping();
  object.Set("kind", doc::Node::String("JobSet"));
  doc::Node metadata = doc::Node::Mapping();
  metadata.Set("name", doc::Node::String("llama"));
  object.Set("metadata", metadata);
  EXPECT_EQ(ObjectTitle(object), "JobSet llama");
  object.FindMutable("metadata")->Set("namespace", doc::Node::String("ml"));
  EXPECT_EQ(ObjectTitle(object), "JobSet ml/llama");
  EXPECT_EQ(ObjectTitle(doc::Node::Mapping()), "object ");
}

TEST(FormatChainsTest, ListsEachStepMarksReplacedValuesAndDeletions) {
  Explanation explanation = TwoLayers();
  ObjectExplanation object;
  object.object = doc::Node::Mapping();
  object.object.Set("kind", doc::Node::String("JobSet"));
  Field image{"spec.image",
              {{0, Action::kSet, doc::Node::String("a:1"), At(5, 8), ""},
               {1, Action::kSet, doc::Node::String("a:2"), {}, ""}},
              true,
              ""};
  Field args{"spec.args",
             {{0, Action::kSet, doc::Node::String("x"), At(6, 8), ""}, {1, Action::kDeleted, doc::Node(), {}, ""}},
             false,
             ""};
  Field item{"spec.env[name=A]", {{1, Action::kSet, doc::Node::Mapping(), {}, ""}}, true, "appended"};
  object.fields = {image, args, item};
  const std::string text =
      FormatChains(explanation, object, {&object.fields[0], &object.fields[1], &object.fields[2]});
  EXPECT_EQ(text,
            "# JobSet  (TrainJob ml/llama, trainer-v2.3)\n"
            "spec.image: \"a:2\"\n"
            "  1. runtime tj.yaml:5:8: \"a:1\"  (replaced)\n"
            "  2. plugin torch: \"a:2\"\n"
            "spec.args (deleted)\n"
            "  1. runtime tj.yaml:6:8: \"x\"  (replaced)\n"
            "  2. deleted by plugin torch\n"
            "spec.env[name=A]: {}\n"
            "  1. plugin torch: {}\n"
            "  order: appended\n");
}

}  // namespace
}  // namespace tjr::explain
