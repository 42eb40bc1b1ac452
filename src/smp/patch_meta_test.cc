#include "smp/patch_meta.h"

#include <gtest/gtest.h>

#include "smp/test_schema.h"

namespace tjr::smp {
namespace {

TypeRef PodSpec() { return TypeRef{&testing::PodSpecType(), false}; }

PatchLookup Found(const LookupResult& result) {
  EXPECT_TRUE(result.ok()) << (result.ok() ? "" : result.error());
  return result.ok() ? result.value() : PatchLookup{};
}

TEST(PatchMetaTest, StructLookupReturnsFieldTypeAndTags) {
  const PatchLookup volumes = Found(LookupPatchMetadataForStruct(PodSpec(), "volumes"));
  EXPECT_EQ(volumes.type.type->kind, schema::Type::Kind::kSlice);
  EXPECT_EQ(volumes.meta.strategies, (std::vector<std::string>{"merge", "retainKeys"}));
  EXPECT_EQ(volumes.meta.merge_key, "name");
  const PatchLookup affinity = Found(LookupPatchMetadataForStruct(PodSpec(), "affinity"));
  EXPECT_TRUE(affinity.type.pointer);
  EXPECT_EQ(affinity.type.KindName(), "ptr");
}

TEST(PatchMetaTest, SliceLookupReturnsTheElementType) {
  const PatchLookup containers = Found(LookupPatchMetadataForSlice(PodSpec(), "containers"));
  EXPECT_EQ(containers.type.type->name, "k8s.io/api/core/v1.Container");
  EXPECT_FALSE(containers.type.pointer);
  EXPECT_EQ(containers.meta.merge_key, "name");
  // A pointer to a struct is its own "element type".
  const PatchLookup affinity = Found(LookupPatchMetadataForSlice(PodSpec(), "affinity"));
  EXPECT_EQ(affinity.type.type->name, "k8s.io/api/core/v1.Affinity");
  EXPECT_EQ(affinity.type.KindName(), "struct");
}

TEST(PatchMetaTest, NamesMatchExactlyFirstThenCaseInsensitively) {
  EXPECT_EQ(Found(LookupPatchMetadataForStruct(PodSpec(), "NodeSelector")).type.type->kind,
            schema::Type::Kind::kMap);
  // The folding itself is gocompat::JsonNameEqualFold's (fold_test.cc).
}

TEST(PatchMetaTest, LookupErrorsUseUpstreamWording) {
  const LookupResult unknown = LookupPatchMetadataForStruct(PodSpec(), "bogus");
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.error(), "unable to find api field in struct PodSpec for the json field \"bogus\"");

  const PatchLookup node_selector = Found(LookupPatchMetadataForStruct(PodSpec(), "nodeSelector"));
  const LookupResult in_map = LookupPatchMetadataForStruct(node_selector.type, "a");
  ASSERT_FALSE(in_map.ok());
  EXPECT_EQ(in_map.error(), "merging an object in json but data type is not struct, instead is: map");

  const LookupResult not_slice = LookupPatchMetadataForSlice(PodSpec(), "nodeSelector");
  ASSERT_FALSE(not_slice.ok());
  EXPECT_EQ(not_slice.error(), "expected slice or array type, but got: struct");

  const PatchLookup affinity = Found(LookupPatchMetadataForStruct(PodSpec(), "affinity"));
  const PatchLookup node_affinity =
      Found(LookupPatchMetadataForStruct(affinity.type, "nodeAffinity"));
  const PatchLookup required = Found(LookupPatchMetadataForStruct(
      node_affinity.type, "requiredDuringSchedulingIgnoredDuringExecution"));
  EXPECT_TRUE(required.type.pointer);
}

TEST(PatchMetaTest, SliceOfSlicesIsRefused) {
  const auto make = [](std::string name, schema::Type::Kind kind, const schema::Type* elem) {
    schema::Type type;
    type.name = std::move(name);
    type.kind = kind;
    type.elem = elem;
    return type;
  };
  const schema::Type text = make("string", schema::Type::Kind::kString, nullptr);
  const schema::Type inner = make("[]string", schema::Type::Kind::kSlice, &text);
  const schema::Type outer = make("[][]string", schema::Type::Kind::kSlice, &inner);
  schema::Type holder = make("example.Holder", schema::Type::Kind::kStruct, nullptr);
  schema::Field field;
  field.json_name = "matrix";
  field.type = &outer;
  holder.fields.push_back(field);
  const LookupResult result = LookupPatchMetadataForSlice(TypeRef{&holder, false}, "matrix");
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error(), "unexpected slice of slice");
}

}  // namespace
}  // namespace tjr::smp
