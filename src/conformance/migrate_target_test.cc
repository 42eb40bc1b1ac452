#include "conformance/migrate_target.h"

#include <gtest/gtest.h>

#include "yaml/reader.h"

namespace tjr::conformance {
namespace {

InputFile File(std::string name, std::string text) {
  auto documents = yaml::ReadStream(text, "input/" + name);
  EXPECT_TRUE(documents.ok());
  InputFile file{"input/" + name, documents.ok() ? *documents : std::vector<doc::Node>{}};
  file.text = std::move(text);
  return file;
}

TEST(MigrateTarget, ChangedFilesBecomeMigratedFileObjectsWithTheirNewBytes) {
  const std::string unchanged = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n";
  const std::string trainjob =
      "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nmetadata: {name: j}\n"
      "spec:\n  labels: {a: b}\n";
  auto output = RunMigrateTarget({File("cm.yaml", unchanged), File("tj.yaml", trainjob)},
                                 {"--manager", "example.com/x"});
  ASSERT_TRUE(output.ok());
  ASSERT_EQ(output->objects.size(), 1u);
  const doc::Node& file = output->objects[0];
  EXPECT_EQ(file.Find("kind")->string_value(), "MigratedFile");
  EXPECT_EQ(file.Find("metadata")->Find("name")->string_value(), "tj.yaml");
  EXPECT_EQ(file.Find("text")->string_value(),
            "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nmetadata: {name: j}\n"
            "spec:\n  runtimePatches:\n  - manager: example.com/x\n    trainingRuntimeSpec:\n"
            "      template:\n        metadata:\n          labels: {a: b}\n");
  // The TrainJob names no runtime: both renderings refuse it, and say so.
  EXPECT_FALSE(output->diagnostics.empty());
}

TEST(MigrateTarget, UnknownOptionsAndBadManagersAreCaseErrors) {
  EXPECT_FALSE(RunMigrateTarget({}, {"--write"}).ok());
  EXPECT_FALSE(RunMigrateTarget({}, {"--manager", "no-domain"}).ok());
}

}  // namespace
}  // namespace tjr::conformance
