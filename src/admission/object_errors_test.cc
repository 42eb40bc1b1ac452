#include "admission/object_errors.h"

#include <gtest/gtest.h>

namespace tjr::admission {
namespace {

TEST(PathTest, PrintsAsFieldPathDoes) {
  const Path containers = Path("spec").Child("template").Child("spec").Child("containers");
  EXPECT_EQ(containers.Index(0).Child("resources").Child("requests").Key("nvidia.com/gpu").String(),
            "spec.template.spec.containers[0].resources.requests[nvidia.com/gpu]");
  EXPECT_EQ(Path().Child("metadata").String(), "metadata");
}

TEST(ObjectErrorsTest, KeepsTheFirstLocatedCandidate) {
  doc::Node unlocated = doc::Node::Mapping();
  doc::Node located = doc::Node::Mapping(Location{InternSourceName("a.yaml"), 3, 5});
  ObjectErrors errors;
  errors.Add("image", {validate::ErrorType::kRequired, "spec.containers[0].image", validate::BadValue::Omit(), ""},
             {&unlocated, nullptr, &located});
  errors.Add("image", {validate::ErrorType::kRequired, "x", validate::BadValue::Omit(), ""}, {&unlocated});
  ASSERT_EQ(errors.size(), 2u);
  EXPECT_EQ(errors.errors()[0].at, &located);
  EXPECT_EQ(errors.errors()[1].at, nullptr);
}

}  // namespace
}  // namespace tjr::admission
