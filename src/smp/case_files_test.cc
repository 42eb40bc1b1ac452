// Runs the merge cases kept as data in testdata/: pod.cases (checked
// against kubectl, see testdata/verify_with_kubectl.py) and upstream.cases
// (apimachinery's patch_test.go cases for StrategicMergePatch).
#include <gtest/gtest.h>

#include "smp/strategic_merge.h"
#include "smp/test_cases.h"
#include "smp/test_schema.h"
#include "smp/test_sort.h"
#include "smp/test_tree.h"

namespace tjr::smp {
namespace {

using testing::Flow;
using testing::MergeCase;
using testing::ToFlow;

const schema::Type& RootType(const std::string& name) {
  if (name == "PodTemplateSpec") return testing::PodTemplateSpecType();
  if (name == "MergeItem") return testing::MergeItemType();
  return testing::PodType();
}

class CaseFileTest : public ::testing::TestWithParam<MergeCase> {};

TEST_P(CaseFileTest, Merges) {
  const MergeCase& c = GetParam();
  SCOPED_TRACE(c.file + ":" + std::to_string(c.line) + ": " + c.description);
  const schema::Type& type = RootType(c.root);
  // Upstream's table tests sort their documents' merge lists before use.
  const auto prepared = [&](const std::string& text) {
    doc::Node node = Flow(text, c.file);
    if (c.sort.empty()) return node;
    Result<doc::Node> sorted = testing::SortMergeListsByName(node, type);
    EXPECT_TRUE(sorted.ok()) << sorted.error().ToString();
    return sorted.ok() ? std::move(sorted).value() : node;
  };
  const doc::Node original = prepared(c.original);
  const doc::Node patch = prepared(c.patch);
  const std::string original_before = ToFlow(original);
  const std::string patch_before = ToFlow(patch);

  Result<doc::Node> merged = StrategicMerge(original, patch, type);

  if (!c.expected.empty()) {
    ASSERT_TRUE(merged.ok()) << merged.error().ToString();
    const doc::Node expected = prepared(c.expected);
    EXPECT_TRUE(merged.value() == expected)
        << "got      " << ToFlow(merged.value()) << "\nexpected " << ToFlow(expected);
  } else if (!c.error.empty()) {
    ASSERT_FALSE(merged.ok()) << "unexpected success: " << ToFlow(merged.value());
    EXPECT_EQ(merged.error().message, c.error);
    if (!c.path.empty()) {
      EXPECT_EQ(merged.error().field_path, c.path);
    }
  } else {
    ASSERT_FALSE(merged.ok()) << "unexpected success: " << ToFlow(merged.value());
    EXPECT_NE(merged.error().message.find(c.panic), std::string::npos)
        << merged.error().message;
    if (!c.path.empty()) {
      EXPECT_EQ(merged.error().field_path, c.path);
    }
  }
  EXPECT_EQ(ToFlow(original), original_before) << "original modified";
  EXPECT_EQ(ToFlow(patch), patch_before) << "patch modified";
}

std::string CaseName(const ::testing::TestParamInfo<MergeCase>& info) {
  std::string name = info.param.file.substr(0, info.param.file.find('.'));
  return name + "_line" + std::to_string(info.param.line);
}

INSTANTIATE_TEST_SUITE_P(Pod, CaseFileTest,
                         ::testing::ValuesIn(testing::LoadMergeCases("pod.cases")), CaseName);
INSTANTIATE_TEST_SUITE_P(Upstream, CaseFileTest,
                         ::testing::ValuesIn(testing::LoadMergeCases("upstream.cases")), CaseName);

}  // namespace
}  // namespace tjr::smp
