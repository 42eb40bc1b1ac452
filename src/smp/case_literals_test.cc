// The flow literals of the case files must mean the same data to the test
// parser (test_tree.h) and to the project's Kubernetes YAML reader, which
// follows goyaml v2 + util/json as kubectl does; otherwise a case checked
// with kubectl would not be the case the unit tests run.
#include <gtest/gtest.h>

#include "smp/test_cases.h"
#include "smp/test_tree.h"
#include "yaml/reader.h"

namespace tjr::smp {
namespace {

void ExpectSameData(const std::string& text, const testing::MergeCase& c) {
  if (text.empty()) return;
  // As for kubectl, the document marker keeps '{' from being sniffed as JSON.
  Result<std::vector<doc::Node>> read = yaml::ReadStream("---\n" + text, c.file);
  ASSERT_TRUE(read.ok()) << read.error().ToString();
  ASSERT_EQ(read->size(), 1u);
  EXPECT_TRUE(read->front() == testing::Flow(text, c.file))
      << "yaml reader: " << testing::ToFlow(read->front())
      << "\ntest parser: " << testing::ToFlow(testing::Flow(text, c.file));
}

TEST(CaseLiteralsTest, PodCasesReadAlikeAsKubernetesYaml) {
  for (const testing::MergeCase& c : testing::LoadMergeCases("pod.cases")) {
    SCOPED_TRACE(c.file + ":" + std::to_string(c.line) + ": " + c.description);
    ExpectSameData(c.original, c);
    ExpectSameData(c.patch, c);
    ExpectSameData(c.expected, c);
  }
}

}  // namespace
}  // namespace tjr::smp
