#include "smp/directives.h"

#include <gtest/gtest.h>

#include "smp/test_tree.h"

namespace tjr::smp {
namespace {

using testing::Flow;

TEST(DirectivesTest, ParsesPatchValuesByExactString) {
  EXPECT_EQ(ParsePatchDirective(Flow("replace")), PatchDirective::kReplace);
  EXPECT_EQ(ParsePatchDirective(Flow("delete")), PatchDirective::kDelete);
  EXPECT_EQ(ParsePatchDirective(Flow("merge")), PatchDirective::kMerge);
  EXPECT_EQ(ParsePatchDirective(Flow("Replace")), PatchDirective::kUnknown);
  EXPECT_EQ(ParsePatchDirective(Flow("1")), PatchDirective::kUnknown);
  EXPECT_TRUE(IsDeleteElement(Flow("{name: a, $patch: delete}")));
  EXPECT_FALSE(IsDeleteElement(Flow("{name: a, $patch: replace}")));
  EXPECT_TRUE(HasPatchDirective(Flow("{$patch: anything}")));
}

TEST(DirectivesTest, ExtractsTheListKey) {
  Outcome<std::string> key = ExtractDirectiveKey("$setElementOrder/containers", kSetElementOrderPrefix);
  ASSERT_TRUE(key.ok());
  EXPECT_EQ(key.value(), "containers");
  EXPECT_EQ(ExtractDirectiveKey("$setElementOrder/a/b", kSetElementOrderPrefix).value(), "a/b");
  EXPECT_EQ(ExtractDirectiveKey("$setElementOrder/", kSetElementOrderPrefix).value(), "");
  EXPECT_EQ(ExtractDirectiveKey("$setElementOrderX/a", kSetElementOrderPrefix).error(),
            "invalid patch format of setElementOrder list");
  EXPECT_EQ(ExtractDirectiveKey("$deleteFromPrimitiveList", kDeleteFromPrimitiveListPrefix).error(),
            "invalid patch format of primitive list");
}

TEST(DirectivesTest, RemoveDirectivesDropsOnlyPatchMarkedMaps) {
  EXPECT_FALSE(RemoveDirectives(Flow("{$patch: delete, a: b}")).has_value());
  const doc::Node cleaned =
      *RemoveDirectives(Flow("{a: {$patch: replace}, b: [{$patch: delete}, 1, null], "
                             "$retainKeys: [x], c: {d: e}}"));
  EXPECT_TRUE(cleaned == Flow("{b: [1, null], $retainKeys: [x], c: {d: e}}")) << testing::ToFlow(cleaned);
}

TEST(DirectivesTest, UnchangedSubtreesStayShared) {
  const doc::Node tree = Flow("{a: {b: [1, 2]}, c: null}");
  const doc::Node same = *RemoveDirectives(tree);
  EXPECT_TRUE(same.SharesRepresentationWith(tree));
  const doc::Node discarded = DiscardNullValues(tree);
  EXPECT_FALSE(discarded.SharesRepresentationWith(tree));
  EXPECT_TRUE(discarded.Find("a")->SharesRepresentationWith(*tree.Find("a")));
  EXPECT_TRUE(discarded == Flow("{a: {b: [1, 2]}}"));
}

TEST(DirectivesTest, DiscardNullsKeepsNullListItems) {
  EXPECT_TRUE(DiscardNullValues(Flow("[{a: null, b: 1}, null]")) == Flow("[{b: 1}, null]"));
}

TEST(DirectivesTest, RetainKeysStrategyIsSplitOff) {
  EXPECT_EQ(NonRetainKeysStrategy({}).value(), "");
  EXPECT_EQ(NonRetainKeysStrategy({"retainKeys"}).value(), "");
  EXPECT_EQ(NonRetainKeysStrategy({"merge"}).value(), "merge");
  EXPECT_EQ(NonRetainKeysStrategy({"retainKeys", "merge"}).value(), "merge");
  EXPECT_EQ(NonRetainKeysStrategy({"merge", "retainKeys"}).value(), "merge");
  EXPECT_EQ(NonRetainKeysStrategy({"merge", "replace"}).error(),
            "unexpected patch strategy: [merge replace]");
  EXPECT_EQ(NonRetainKeysStrategy({"a", "b", "c"}).error(), "unexpected patch strategy: [a b c]");
}

}  // namespace
}  // namespace tjr::smp
