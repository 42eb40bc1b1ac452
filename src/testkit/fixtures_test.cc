// The named fixtures stay what their comments say they are.
#include "testkit/fixtures.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "testkit/temp_dir.h"

namespace tjr::testkit {
namespace {

TEST(Fixtures, TheTorchRuntimeIsTheSampleRepositorysFile) {
  std::ifstream in(SampleRepo() + "/runtimes/torch_distributed.yaml", std::ios::binary);
  std::stringstream file;
  file << in.rdbuf();
  ASSERT_FALSE(file.str().empty());
  EXPECT_EQ(file.str(), kTorchRuntime);
}

}  // namespace
}  // namespace tjr::testkit
