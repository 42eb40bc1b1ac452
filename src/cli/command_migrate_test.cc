// End to end through `tjrender migrate` on a copy of the sample repository.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>


#include "cli/commands.h"
#include "cli/test_support.h"

namespace tjr::cli {
namespace {
namespace fs = std::filesystem;

using testing::Outcome;

Outcome Migrate(const std::vector<std::string>& args) { return testing::Invoke(RunMigrate, args); }

std::string ReadAll(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// A copy of the sample repository the test may change.
class RepoCopy : public testkit::TempDir {
 public:
  RepoCopy() : TempDir("migrate") { CopyFrom(testkit::SampleRepo()); }
  std::string path(const char* relative = "") const { return Path(relative); }
};

TEST(MigrateCommand, PrintsAPatchAndTheRenderedDifferencesWithoutTouchingFiles) {
  RepoCopy repo;
  const std::string before = ReadAll(repo.path("trainjobs/metadata-and-tolerations.yaml"));
  Outcome outcome = Migrate({repo.path(), "--threads", "1"});
  EXPECT_EQ(outcome.exit_code, 1) << outcome.err;
  EXPECT_NE(outcome.out.find("+++ b/" + repo.path("trainjobs/metadata-and-tolerations.yaml")),
            std::string::npos);
  EXPECT_NE(outcome.out.find("+    - manager: trainer.kubeflow.org/kubeflow-sdk-2\n"),
            std::string::npos);
  EXPECT_NE(outcome.err.find("deepspeed-mpi.yaml:3:1: warning: trainer-v2.3 renders differently: "
                             "JobSet ml-team/deepspeed-t5: + spec.replicatedJobs[name=node]"),
            std::string::npos)
      << outcome.err;
  EXPECT_EQ(ReadAll(repo.path("trainjobs/metadata-and-tolerations.yaml")), before);
}

TEST(MigrateCommand, WriteRewritesTheFilesAndASecondRunFindsNothingToDo) {
  RepoCopy repo;
  Outcome first = Migrate({repo.path(), "--write", "--accept-differences"});
  EXPECT_EQ(first.exit_code, 0) << first.err;
  EXPECT_EQ(first.out, "");
  EXPECT_NE(ReadAll(repo.path("trainjobs/persistent-storage.yaml")).find("runtimePatches:"),
            std::string::npos);
  Outcome second = Migrate({repo.path()});
  EXPECT_EQ(second.exit_code, 0) << second.err;
  EXPECT_EQ(second.out, "");
}

// --write on a symbolic link replaced the link with a regular file and left
// the target unmigrated. It writes through: the link stays a link.
TEST(MigrateCommand, WriteGoesThroughASymbolicLinkToItsTarget) {
  RepoCopy repo;
  const fs::path target = repo.path("trainjobs/persistent-storage.yaml");
  const fs::path shared = repo.path("shared.yaml");
  fs::rename(target, shared);
  fs::create_symlink("../shared.yaml", target);
  Outcome outcome = Migrate({target.string(), "--write", "--accept-differences"});
  EXPECT_EQ(outcome.exit_code, 0) << outcome.err;
  EXPECT_TRUE(fs::is_symlink(target));
  EXPECT_EQ(fs::read_symlink(target), fs::path("../shared.yaml"));
  EXPECT_NE(ReadAll(shared).find("runtimePatches:"), std::string::npos);
}

TEST(MigrateCommand, FieldsWithoutAPlaceAreInputErrorsAndTheFileStays) {
  RepoCopy repo;
  const std::string text =
      "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nmetadata:\n  name: bad\n"
      "  namespace: ml-team\nspec:\n  runtimeRef:\n    name: torch-distributed\n"
      "  podTemplateOverrides:\n  - targetJobs: [{name: node}]\n    spec:\n"
      "      containers:\n      - name: node\n        image: x\n";
  std::ofstream(repo.path("trainjobs/bad.yaml"), std::ios::binary) << text;
  Outcome outcome = Migrate({repo.path(), "--write", "--accept-differences"});
  EXPECT_EQ(outcome.exit_code, 2);
  EXPECT_NE(outcome.err.find("trainjobs/bad.yaml:14:9: error: "
                             "spec.podTemplateOverrides[0].spec.containers[0].image: cannot migrate"),
            std::string::npos)
      << outcome.err;
  EXPECT_EQ(ReadAll(repo.path("trainjobs/bad.yaml")), text);
}

// Input no release can use is no difference of the upgrade: exit 2 as
// documented, --accept-differences or not (it accepts differences only).
TEST(MigrateCommand, InputErrorsExitTwoWithOrWithoutAcceptDifferences) {
  RepoCopy repo;
  std::ofstream(repo.path("runtimes/broken.yaml"), std::ios::binary)
      << "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: ClusterTrainingRuntime\nmetadata: 5\nspec: {}\n";
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{repo.path()}, std::vector<std::string>{repo.path(), "--accept-differences"}}) {
    Outcome outcome = Migrate(args);
    EXPECT_EQ(outcome.exit_code, 2) << args.size() << outcome.err;
    EXPECT_NE(outcome.err.find("runtimes/broken.yaml:3:11: error: metadata: must be an object"), std::string::npos)
        << outcome.err;
  }
  fs::remove(repo.path("runtimes/broken.yaml"));
  const std::string job = repo.path("trainjobs/custom-sa-node-selector.yaml");
  Outcome missing_repo = Migrate({job, "--repo", repo.path("no-such-folder"), "--accept-differences"});
  EXPECT_EQ(missing_repo.exit_code, 2) << missing_repo.err;
  EXPECT_NE(missing_repo.err.find("--repo " + repo.path("no-such-folder") + ": no such folder"), std::string::npos)
      << missing_repo.err;
}

TEST(MigrateCommand, UsageErrors) {
  EXPECT_EQ(Migrate({}).exit_code, 2);
  EXPECT_EQ(Migrate({".", "--manager", "nodomain"}).exit_code, 2);
  EXPECT_EQ(Migrate({"--help"}).exit_code, 0);
}

}  // namespace
}  // namespace tjr::cli

namespace tjr::cli {
namespace {

// As check --repo: TrainJobs given alone find their runtimes in DIR, and a
// runtime that is nowhere is one error, not one per release.
TEST(MigrateCommand, RepoFindsRuntimesAndAMissingOneIsReportedOnce) {
  RepoCopy repo;
  const std::string job = repo.path("trainjobs/custom-sa-node-selector.yaml");
  Outcome alone = Migrate({job, "--threads", "1"});
  EXPECT_EQ(alone.exit_code, 1) << alone.err;
  std::size_t first = alone.err.find("not found");
  ASSERT_NE(first, std::string::npos) << alone.err;
  EXPECT_EQ(alone.err.find("not found", first + 1), std::string::npos) << "reported once: " << alone.err;
  EXPECT_NE(alone.err.find("error: trainer-v2.1 and trainer-v2.3: "), std::string::npos) << alone.err;

  Outcome with_repo = Migrate({job, "--repo", repo.path(), "--threads", "1"});
  EXPECT_EQ(with_repo.err.find("not found"), std::string::npos) << with_repo.err;
  EXPECT_NE(with_repo.out.find("+  runtimePatches:"), std::string::npos) << with_repo.out;
  // The runtimes are read, never rewritten or diffed.
  EXPECT_EQ(with_repo.out.find("runtimes/"), std::string::npos) << with_repo.out;
}

}  // namespace
}  // namespace tjr::cli
