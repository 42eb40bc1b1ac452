// The PR #3199 preview's translation of templateOverrides into runtimePatches
// (template_overrides_preview.h): order, manager names, shapes refused.
#include "render/template_overrides_preview.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "render/test_util.h"
#include "doc/path.h"
#include "render/tree.h"

namespace tjr::render {
namespace {

using testing::Yaml;

std::vector<std::string> Managers(const doc::Node& trainjob) {
  std::vector<std::string> names;
  for (const doc::Node& patch : doc::FindPath(trainjob, {"spec", "runtimePatches"})->items()) {
    names.push_back(doc::StringAtPath(patch, {"manager"}));
  }
  return names;
}

TEST(TemplateOverridesPreview, ManagersInOrderJobOverridesBeforePodOverrides) {
  Result<doc::Node> out = TemplateOverridesAsRuntimePatches(Yaml(R"(
spec:
  runtimePatches:
  - manager: example.com/existing
  templateOverrides:
  - manager: a.io/x
    pod:
    - targetJobs: [{name: node}]
      spec: {nodeSelector: {k: v}}
    job:
    - targetJobs: [{name: node}, {name: init}]
      metadata: {labels: {l: "1"}}
    - metadata: {labels: {s: "2"}, annotations: {a: "3"}, name: ignored}
  - manager: b.io/y
    pod:
    - targetJobs: [{name: node}]
      metadata: {annotations: {p: q}}
)"));
  ASSERT_TRUE(out.ok()) << out.error().ToString();
  EXPECT_EQ(doc::FindPath(*out, {"spec", "templateOverrides"}), nullptr);
  EXPECT_EQ(Managers(*out), (std::vector<std::string>{"example.com/existing", "a.io/x", "a.io/x/2", "a.io/x/3",
                                                      "b.io/y"}));
  const doc::Node& patches = *doc::FindPath(*out, {"spec", "runtimePatches"});
  // A job override with targets: one replicatedJob per target, its metadata
  // on the Job template.
  const doc::Node& jobs = *doc::FindPath(patches[1], {"trainingRuntimeSpec", "template", "spec", "replicatedJobs"});
  ASSERT_EQ(jobs.size(), 2u);
  EXPECT_EQ(doc::StringAtPath(jobs[1], {"name"}), "init");
  EXPECT_EQ(doc::StringAtPath(jobs[1], {"template", "metadata", "labels", "l"}), "1");
  // Without targets: labels and annotations of the JobSet only.
  const doc::Node& jobset_meta = *doc::FindPath(patches[2], {"trainingRuntimeSpec", "template", "metadata"});
  EXPECT_EQ(doc::StringAtPath(jobset_meta, {"labels", "s"}), "2");
  EXPECT_EQ(doc::StringAtPath(jobset_meta, {"annotations", "a"}), "3");
  EXPECT_EQ(jobset_meta.Find("name"), nullptr);
  // A pod override: metadata and spec on the pod template.
  const doc::Node& pod_job = (*doc::FindPath(patches[3], {"trainingRuntimeSpec", "template", "spec", "replicatedJobs"}))[0];
  EXPECT_EQ(doc::StringAtPath(pod_job, {"template", "spec", "template", "spec", "nodeSelector", "k"}), "v");
}

TEST(TemplateOverridesPreview, WithoutTemplateOverridesTheTrainJobIsUnchanged) {
  doc::Node trainjob = Yaml("spec: {runtimePatches: [{manager: a.io/x}]}\n");
  Result<doc::Node> out = TemplateOverridesAsRuntimePatches(trainjob);
  ASSERT_TRUE(out.ok());
  EXPECT_TRUE(out->SharesRepresentationWith(trainjob));
}

TEST(TemplateOverridesPreview, ShapesTheProposalDoesNotAllow) {
  auto error = [](const char* yaml) {
    Result<doc::Node> out = TemplateOverridesAsRuntimePatches(Yaml(yaml));
    return out.ok() ? std::string("ok") : out.error().field_path + ": " + out.error().message;
  };
  EXPECT_EQ(error("spec: {templateOverrides: {}}\n"), "spec.templateOverrides: must be a list");
  EXPECT_EQ(error("spec: {templateOverrides: [{pod: []}]}\n"), "spec.templateOverrides[0].manager: is required");
  EXPECT_EQ(error("spec: {templateOverrides: [{manager: a.io/x, job: [{spec: {}}]}]}\n"),
            "spec.templateOverrides[0].job[0].spec: not a field of a job override (time, targetJobs, metadata)");
  EXPECT_EQ(error("spec: {templateOverrides: [{manager: a.io/x, pod: [{targetJobs: [{}]}]}]}\n"),
            "spec.templateOverrides[0].pod[0].targetJobs[0].name: must be a job name");
}

}  // namespace
}  // namespace tjr::render
