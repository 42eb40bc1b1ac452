#include "schema/schema.h"

#include <gtest/gtest.h>

namespace tjr::schema {
namespace {

Type StructWith(std::initializer_list<const char*> names) {
  Type type;
  type.name = "example.com/v1.Thing";
  type.kind = Type::Kind::kStruct;
  for (const char* name : names) {
    Field field;
    field.json_name = name;
    type.fields.push_back(field);
  }
  return type;
}

TEST(TypeTest, FindFieldIsExact) {
  const Type type = StructWith({"containers", "spec"});
  ASSERT_NE(type.FindField("spec"), nullptr);
  EXPECT_EQ(type.FindField("spec")->json_name, "spec");
  EXPECT_EQ(type.FindField("Spec"), nullptr);
  EXPECT_EQ(type.FindField("spe"), nullptr);
  EXPECT_EQ(type.FindField(""), nullptr);
}

TEST(TypeTest, LookupPatchFieldPrefersExactMatch) {
  // "Name" folds to "name" too, but the exact match wins wherever it is.
  const Type type = StructWith({"Name", "name"});
  EXPECT_EQ(type.LookupPatchField("name"), &type.fields[1]);
  EXPECT_EQ(type.LookupPatchField("Name"), &type.fields[0]);
}

TEST(TypeTest, LookupPatchFieldFoldsAsciiCase) {
  const Type type = StructWith({"containers", "hostIPC", "restart_policy"});
  EXPECT_EQ(type.LookupPatchField("Containers"), &type.fields[0]);
  EXPECT_EQ(type.LookupPatchField("CONTAINERS"), &type.fields[0]);
  EXPECT_EQ(type.LookupPatchField("hostipc"), &type.fields[1]);
  EXPECT_EQ(type.LookupPatchField("RESTART_POLICY"), &type.fields[2]);
  // Non-letters fold only to themselves: '_' (0x5F) and DEL (0x7F) share a
  // case-masked value but are different characters.
  EXPECT_EQ(type.LookupPatchField("restart\x7Fpolicy"), nullptr);
  EXPECT_EQ(type.LookupPatchField("container"), nullptr);
  EXPECT_EQ(type.LookupPatchField("containerss"), nullptr);
}

TEST(TypeTest, LookupPatchFieldTakesFirstFoldedMatch) {
  const Type type = StructWith({"fooBar", "foobar"});
  EXPECT_EQ(type.LookupPatchField("FOOBAR"), &type.fields[0]);
}

TEST(TypeTest, LookupPatchFieldFoldsKelvinSignAndLongS) {
  const Type type = StructWith({"kind", "spec", "data"});
  EXPECT_EQ(type.LookupPatchField("\xE2\x84\xAAind"), &type.fields[0]);  // U+212A KELVIN SIGN
  EXPECT_EQ(type.LookupPatchField("\xC5\xBFpec"), &type.fields[1]);      // U+017F LATIN SMALL LONG S
  EXPECT_EQ(type.LookupPatchField("\xC5\xBF\xC5\xBFpec"), nullptr);
  // The special runes stand only for their own letter.
  EXPECT_EQ(type.LookupPatchField("\xE2\x84\xAApec"), nullptr);
  EXPECT_EQ(type.LookupPatchField("d\xC3\xA1ta"), nullptr);
}

}  // namespace
}  // namespace tjr::schema
