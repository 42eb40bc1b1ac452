// encoding/json's omitempty as the typed patch fields apply it.
#include "render/typed_fields.h"

#include <gtest/gtest.h>

#include "render/go_types.h"
#include "render/test_util.h"

namespace tjr::render {
namespace {

using testing::Yaml;

const schema::Type& PodSpec() {
  Result<const GoTypes*> types = LoadGoTypes();
  EXPECT_TRUE(types.ok());
  return *(*types)->pod_spec;
}

TEST(TypedFields, PointersKeepEmptyValuesOmitEmptyDropsThem) {
  doc::Node from = Yaml("serviceAccountName: ''\naffinity: {}\nnodeSelector: {}\ntolerations: []\nvolumes: null\n");
  doc::Node out = doc::Node::Mapping();
  for (const char* key : {"serviceAccountName", "affinity"}) {
    ASSERT_TRUE(CopyPointer(from, key, PodSpec(), &out).ok());
  }
  for (const char* key : {"nodeSelector", "tolerations", "volumes", "absent"}) {
    ASSERT_TRUE(CopyOmitEmpty(from, key, PodSpec(), &out).ok());
  }
  std::string keys;
  for (const doc::Field& f : out.fields()) keys += f.key + ",";
  EXPECT_EQ(keys, "serviceAccountName,affinity,");
}

TEST(TypedFields, ValuesComeBackTyped) {
  doc::Node out = doc::Node::Mapping();
  ASSERT_TRUE(CopyOmitEmpty(Yaml("overhead: {cpu: 1000m}\n"), "overhead", PodSpec(), &out).ok());
  EXPECT_EQ(out.Find("overhead")->Find("cpu")->string_value(), "1");
  Result<doc::Node> wrong = TypedField(Yaml("x: 1\n"), PodSpec(), "nodeName");
  EXPECT_FALSE(wrong.ok());
}

TEST(TypedFields, NameWithOmitEmpty) {
  doc::Node out = doc::Node::Mapping();
  CopyName(Yaml("name: ''\n"), &out);
  EXPECT_EQ(out.Find("name"), nullptr);
  CopyName(Yaml("name: c\n"), &out);
  EXPECT_EQ(out.Find("name")->string_value(), "c");
}

}  // namespace
}  // namespace tjr::render
