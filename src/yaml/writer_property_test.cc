// Property: reading what the writer wrote gives the same tree back, for
// seeded random trees built to hit the writer's quoting, folding, literal
// block and key-order decisions.

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "yaml/reader.h"
#include "yaml/tree_generator.h"
#include "yaml/writer.h"

namespace tjr::yaml {
namespace {

constexpr std::uint64_t kTrees = 2000;

TEST(WriterPropertyTest, ReadBackGivesTheSameTree) {
  testing::GeneratorOptions options;
  // Data that survives the trip unchanged: no NEL/LS/PS/CR (line breaks to
  // YAML 1.1 only; NEL is folded by kubectl's JSON step), no invalid UTF-8,
  // no float that kubectl prints as an integer. A "<<" key is quoted (kubectl
  // writes it plain, so kubectl's own output reads back as a merge key).
  options.yaml11_line_breaks = false;
  options.integral_floats = false;
  int failures = 0;
  for (std::uint64_t seed = 1; seed <= kTrees && failures < 5; ++seed) {
    testing::TreeGenerator generator(seed, options);
    const doc::Node tree = generator.Tree();
    const std::string text = Write(tree);
    Result<std::vector<doc::Node>> read = ReadStream(text, "written.yaml");
    if (!read.ok()) {
      ADD_FAILURE() << "seed " << seed << ": " << read.error().ToString() << "\n" << text;
      ++failures;
      continue;
    }
    if (read->size() != 1 || (*read)[0] != tree) {
      ADD_FAILURE() << "seed " << seed << " reads back differently:\n" << text;
      ++failures;
    }
  }
}

}  // namespace
}  // namespace tjr::yaml
