#include "gocompat/type_name.h"

#include <gtest/gtest.h>

namespace tjr::gocompat {
namespace {

TEST(TypeNameTest, GoTypeStrings) {
  EXPECT_EQ(GoTypeString("k8s.io/api/core/v1.Container"), "v1.Container");
  EXPECT_EQ(GoTypeString("[]k8s.io/api/core/v1.EnvVar"), "[]v1.EnvVar");
  EXPECT_EQ(GoTypeString("map[k8s.io/api/core/v1.ResourceName]k8s.io/apimachinery/pkg/api/"
                         "resource.Quantity"),
            "map[v1.ResourceName]resource.Quantity");
  EXPECT_EQ(GoTypeString("sigs.k8s.io/jobset/api/jobset/v1alpha2.ReplicatedJob"),
            "v1alpha2.ReplicatedJob");
  EXPECT_EQ(GoTypeString("int32"), "int32");
  EXPECT_EQ(GoTypeString("map[string]string"), "map[string]string");
  EXPECT_EQ(GoTypeName("k8s.io/api/core/v1.ContainerPort"), "ContainerPort");
  EXPECT_EQ(GoTypeName("k8s.io/apimachinery/pkg/apis/meta/v1.ObjectMeta"), "ObjectMeta");
  EXPECT_EQ(GoTypeName("k8s.io/api/core/v1.PodSpec"), "PodSpec");
  EXPECT_EQ(GoTypeName("int64"), "int64");
}

}  // namespace
}  // namespace tjr::gocompat
