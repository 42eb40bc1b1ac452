// What a real manifest repository holds besides objects: skipped with a
// note and counted, never an error; refused under strict_inputs.
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <algorithm>

#include "source/disk_tree.h"
#include "source/loader.h"
#include "source/loader_test_util.h"
#include "testkit/temp_dir.h"

namespace tjr::source {
namespace {

constexpr char kRuntime[] = R"(apiVersion: trainer.kubeflow.org/v1alpha1
kind: ClusterTrainingRuntime
metadata: {name: torch}
)";

// The shapes of kubeflow/trainer's tree at v2.3.0, cut down.
void WriteRepository(const testkit::TempDir& dir) {
  dir.Write(".github/workflows/test.yaml", "name: test\non:\n  pull_request:\njobs:\n  go:\n    runs-on: ubuntu-24.04\n"
                                           "    steps:\n      - run: echo ${{ github.sha }}\n");
  dir.Write(".github/ISSUE_TEMPLATE/config.yml", "blank_issues_enabled: false\n");
  dir.Write(".golangci.yaml", "version: \"2\"\nlinters:\n  default: none\n");
  dir.Write("charts/trainer/Chart.yaml", "apiVersion: v2\nname: trainer\nversion: 2.3.0\n");
  dir.Write("charts/trainer/values.yaml", "image:\n  tag: v2.3.0\n");
  dir.Write("charts/trainer/templates/deployment.yaml",
            "{{- if .Values.enabled }}\napiVersion: apps/v1\nkind: Deployment\n{{- end }}\n");
  dir.Write("charts/trainer/templates/crd/static.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n");
  dir.Write("charts/trainer/files/runtimes/torch.yaml",
            "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: ClusterTrainingRuntime\nmetadata:\n"
            "  name: torch\n  labels:\n    {{- include \"labels\" . | nindent 4 }}\n");
  dir.Write("charts/trainer/files/plain.yaml", kRuntime);  // no template action: read
  dir.Write("charts/trainer/tests/crd_test.yaml", "suite: crds\ntemplates:\n  - crd/*.yaml\ntests:\n  - it: ok\n");
  dir.Write("manifests/base/kustomization.yaml",
            "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources: [runtime.yaml]\n");
  dir.Write("manifests/base/kustomizeconfig.yaml", "nameReference:\n- kind: Service\n  version: v1\n");
  dir.Write("manifests/base/patch.yaml", "- op: remove\n  path: /metadata/namespace\n");
  dir.Write("manifests/base/runtime.yaml", kRuntime);
  dir.Write("examples/job.yaml", kJob);
}

std::vector<std::string> Relative(const testkit::TempDir& dir, std::vector<std::string> names) {
  for (std::string& name : names) name = name.substr(dir.root().size() + 1);
  return names;
}

TEST(LoadInputsTest, ARepositoryOfEverythingLoadsItsObjectsAndSkipsTheRest) {
  testkit::TempDir dir;
  WriteRepository(dir);
  ManifestSet set = LoadManifests({dir.root()});
  // The runtime of charts/trainer/files/plain.yaml and manifests/base/ are
  // one object twice.
  EXPECT_EQ(Ids(set), (std::vector<std::string>{"trainer.kubeflow.org/v1alpha1/TrainJob default/job"}));
  EXPECT_EQ(Relative(dir, set.skipped_files),
            (std::vector<std::string>{"charts/trainer/templates/crd/static.yaml",
                                      "charts/trainer/templates/deployment.yaml", ".github/ISSUE_TEMPLATE/config.yml",
                                      ".github/workflows/test.yaml", ".golangci.yaml", "charts/trainer/Chart.yaml",
                                      "charts/trainer/files/runtimes/torch.yaml", "charts/trainer/tests/crd_test.yaml",
                                      "charts/trainer/values.yaml", "manifests/base/kustomization.yaml",
                                      "manifests/base/kustomizeconfig.yaml", "manifests/base/patch.yaml"}));
  std::size_t notes = 0;
  for (const Diagnostic& d : set.diagnostics) {
    if (d.severity == Severity::kNote) {
      ++notes;
    } else {
      EXPECT_EQ(RuleId(d), "duplicate-object") << d.ToString();
    }
  }
  EXPECT_EQ(notes, 11u);  // one per skipped file, one for the chart's templates/
  const std::string chart = dir.Path("charts/trainer");
  std::vector<std::string> messages = Messages(set);
  EXPECT_NE(std::find(messages.begin(), messages.end(),
                      chart + ": note: skipped: 2 template file(s) of the Helm chart " + chart +
                          "; check what it renders with `helm template " + chart + " | tjrender check -`"),
            messages.end());
  EXPECT_NE(std::find(messages.begin(), messages.end(),
                      dir.Path("manifests/base/kustomization.yaml") +
                          ":1:1: note: skipped: Kustomization (kustomize.config.k8s.io/v1beta1) is kustomize's "
                          "configuration, not a cluster object"),
            messages.end());
  EXPECT_NE(std::find(messages.begin(), messages.end(),
                      dir.Path("charts/trainer/files/runtimes/torch.yaml") +
                          ": note: skipped: a Helm template of the chart " + chart +
                          " (check what it renders with `helm template " + chart + " | tjrender check -`)"),
            messages.end());
  EXPECT_TRUE(std::none_of(set.diagnostics.begin(), set.diagnostics.end(),
                           [](const Diagnostic& d) { return d.category == Category::kInput; }));
}

// `diff main > diff.json` in a working tree: Git's status names the
// untracked diff.json as a changed file, a path rather than a listing.
TEST(LoadInputsTest, AFileThisRunWritesIsLeftOutWhenNamedToo) {
  testkit::TempDir dir;
  dir.Write("job.yaml", kJob);
  dir.Write("diff.json", "");
  struct stat info {};
  ASSERT_EQ(::stat(dir.Path("diff.json").c_str(), &info), 0);
  DiskTree tree(false, {{static_cast<std::uint64_t>(info.st_dev), static_cast<std::uint64_t>(info.st_ino),
                         "tjrender's stdout", ""}});
  LoadOptions options;
  options.strict_inputs = true;  // not a skip: an output is never an input
  ManifestSet set = LoadManifests(tree, {dir.Path("job.yaml"), dir.Path("diff.json")}, options);
  EXPECT_FALSE(set.has_errors());
  EXPECT_EQ(set.manifests.size(), 1u);
  EXPECT_EQ(set.files, std::vector<std::string>{dir.Path("job.yaml")});
  ASSERT_EQ(set.diagnostics.size(), 1u);
  EXPECT_EQ(set.diagnostics[0].ToString(), dir.Path("diff.json") + ": note: left out: tjrender's stdout, written by this run");
}

TEST(LoadInputsTest, StrictInputsMakesEverySkipAnInputError) {
  testkit::TempDir dir;
  WriteRepository(dir);
  LoadOptions options;
  options.strict_inputs = true;
  ManifestSet set = LoadManifests({dir.root()}, options);
  std::size_t input_errors = 0;
  for (const Diagnostic& d : set.diagnostics) {
    EXPECT_NE(d.severity, Severity::kNote) << d.ToString();
    if (d.category == Category::kInput) {
      ++input_errors;
      EXPECT_TRUE(d.message.ends_with(" (--strict-inputs)")) << d.ToString();
    }
  }
  EXPECT_EQ(input_errors, 12u);  // every skipped file, each template file on its own
}

TEST(LoadInputsTest, NamedFilesOfAChartAreSkippedToo) {
  // pre-commit names the staged files one by one.
  testkit::TempDir dir;
  WriteRepository(dir);
  ManifestSet set = LoadManifests({dir.Path("charts/trainer/templates/deployment.yaml"),
                                   dir.Path("charts/trainer/files/runtimes/torch.yaml"),
                                   dir.Path("charts/trainer/files/plain.yaml"), dir.Path("examples/job.yaml")});
  EXPECT_EQ(Ids(set), (std::vector<std::string>{"trainer.kubeflow.org/v1alpha1/ClusterTrainingRuntime torch",
                                                "trainer.kubeflow.org/v1alpha1/TrainJob default/job"}));
  EXPECT_EQ(Relative(dir, set.skipped_files),
            (std::vector<std::string>{"charts/trainer/templates/deployment.yaml",
                                      "charts/trainer/files/runtimes/torch.yaml"}));
  EXPECT_FALSE(set.has_errors());
}

TEST(LoadInputsTest, AWalkStartingInsideAChartFindsIt) {
  testkit::TempDir dir;
  WriteRepository(dir);
  ManifestSet set = LoadManifests({dir.Path("charts/trainer/templates")});
  EXPECT_TRUE(set.manifests.empty());
  EXPECT_EQ(set.skipped_files.size(), 2u);
  EXPECT_FALSE(set.has_errors());
}

TEST(LoadInputsTest, TemplateActionsOutsideAChartAreOneFindingForThatFileOnly) {
  testkit::TempDir dir;
  dir.Write("a/broken.yaml", "apiVersion: v1\nkind: ConfigMap\ndata:\n  {{ .Values.x }}: 1\n  - y\n");
  dir.Write("b/job.yaml", kJob);
  ManifestSet set = LoadManifests({dir.root()});
  EXPECT_EQ(set.manifests.size(), 1u);
  ASSERT_EQ(set.diagnostics.size(), 1u);
  EXPECT_EQ(set.diagnostics[0].category, Category::kFinding);
  EXPECT_EQ(set.diagnostics[0].rule, "unrendered-template");
  EXPECT_EQ(set.diagnostics[0].location.ToString(), dir.Path("a/broken.yaml") + ":4:3");
}

// A TrainJob that parses but holds placeholders is one finding, not the
// schema errors of `numNodes: "${N}"`; its objects are not kept. Files of
// other kinds that parse (Flux substitutes `${VAR}` in Deployments) and
// malformed files without placeholders are as before.
TEST(LoadInputsTest, APlaceholderInAKeptObjectIsOneFindingAndKeepsNothing) {
  testkit::TempDir dir;
  dir.Write("job.yaml", std::string(kJob) + "  trainer:\n    numNodes: ${N}\n    image: ${IMAGE}\n---\n" + kRuntime);
  dir.Write("deploy.yaml", "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\nspec:\n  image: ${IMAGE}\n");
  dir.Write("config.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata:\n  a: ${A}\n");
  dir.Write("shell.yaml", std::string(kJob) + "  trainer:\n    command: [sh, -c, \"echo $HOME ${USER}\"]\n");
  dir.Write("broken.yaml", "a: [b\n");
  // A duplicate key far from its placeholder is the file's real error.
  dir.Write("workflow.yaml", "metadata:\n  annotations: {}\nflags:\n  - \"{{workflow.name}}\"\nx: 1\nmetadata: {}\n");
  ManifestSet set = LoadManifests({dir.root()});
  EXPECT_EQ(Ids(set), (std::vector<std::string>{"trainer.kubeflow.org/v1alpha1/TrainJob default/job"}));
  EXPECT_EQ(set.manifests[0].file, dir.Path("shell.yaml"));
  std::vector<std::string> rules;
  for (const Diagnostic& d : set.diagnostics) {
    if (d.severity == Severity::kError) rules.push_back(RuleId(d) + " " + d.location.ToString());
  }
  EXPECT_EQ(rules, (std::vector<std::string>{"input " + dir.Path("broken.yaml") + ":2:1",
                                             "unrendered-template " + dir.Path("job.yaml") + ":9:15",
                                             "input " + dir.Path("workflow.yaml") + ":6:1"}));
}

TEST(LoadInputsTest, AFileMixingObjectsAndOtherDocumentsIsNotSkipped) {
  testkit::TempDir dir;
  dir.Write("mixed.yaml", std::string(kJob) + "---\n- a\n---\nname: x\n");
  ManifestSet set = LoadManifests({dir.root()});
  EXPECT_EQ(set.manifests.size(), 1u);
  EXPECT_TRUE(set.skipped_files.empty());
  EXPECT_EQ(Messages(set), (std::vector<std::string>{
                               dir.Path("mixed.yaml") +
                                   ":9:1: note: skipped: a YAML sequence, not an object (a JSON 6902 patch list?)",
                               dir.Path("mixed.yaml") +
                                   ":11:1: note: skipped: not a Kubernetes object (no string apiVersion and kind)"}));
}

TEST(LoadInputsTest, EmptyFilesAreNeitherSkippedNorErrors) {
  testkit::TempDir dir;
  dir.Write("empty.yaml", "");
  dir.Write("comments.yaml", "# nothing yet\n---\n");
  ManifestSet set = LoadManifests({dir.root()});
  EXPECT_TRUE(set.diagnostics.empty());
  EXPECT_TRUE(set.skipped_files.empty());
}

}  // namespace
}  // namespace tjr::source

namespace tjr::source {
namespace {

// A platform's overlay that scales a TrainJob of its base: the patch is a
// fragment of the TrainJob (no runtimeRef), not a second TrainJob.
void WriteOverlays(const testkit::TempDir& dir) {
  dir.Write("base/kustomization.yaml", "resources: [job.yaml]\n");
  dir.Write("base/job.yaml", kJob);
  dir.Write("overlays/prod/kustomization.yaml",
            "resources: [../../base]\npatches:\n  - path: patches/scale.yaml\n"
            "transformers: [labels.yaml]\n");
  dir.Write("overlays/prod/patches/scale.yaml",
            "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nmetadata: {name: job}\n"
            "spec:\n  trainer: {numNodes: 8}\n");
  dir.Write("overlays/prod/labels.yaml",
            "apiVersion: team.example.com/v1\nkind: LabelTransformer\nmetadata: {name: l}\n");
}

TEST(LoadInputsTest, KustomizePatchesAndPluginConfigurationsAreSkipped) {
  testkit::TempDir dir;
  WriteOverlays(dir);
  ManifestSet set = LoadManifests({dir.root()});
  EXPECT_EQ(Ids(set), (std::vector<std::string>{"trainer.kubeflow.org/v1alpha1/TrainJob default/job"}));
  EXPECT_FALSE(set.has_errors()) << Messages(set).front();
  const std::string kustomization = dir.Path("overlays/prod/kustomization.yaml");
  std::vector<std::string> messages = Messages(set);
  EXPECT_NE(std::find(messages.begin(), messages.end(),
                      dir.Path("overlays/prod/patches/scale.yaml") + ": note: skipped: a kustomize patch named by " +
                          kustomization + " (check what it builds with `kustomize build " + dir.Path("overlays/prod") +
                          " | tjrender check -`)"),
            messages.end());
  EXPECT_EQ(Relative(dir, set.skipped_files),
            (std::vector<std::string>{"overlays/prod/labels.yaml", "overlays/prod/patches/scale.yaml",
                                      "base/kustomization.yaml", "overlays/prod/kustomization.yaml"}));
  // The patch's TrainJob is kept aside for its types; the transformer's
  // configuration is no patch.
  ASSERT_EQ(set.trainjob_patches.size(), 1u);
  EXPECT_EQ(set.trainjob_patches[0].location().ToString(), dir.Path("overlays/prod/patches/scale.yaml") + ":1:1");
}

TEST(LoadInputsTest, ANamedPatchIsFoundThroughTheKustomizationAboveIt) {
  testkit::TempDir dir;
  WriteOverlays(dir);
  ManifestSet set = LoadManifests({dir.Path("overlays/prod/patches/scale.yaml"), dir.Path("base/job.yaml")});
  EXPECT_EQ(Ids(set), (std::vector<std::string>{"trainer.kubeflow.org/v1alpha1/TrainJob default/job"}));
  EXPECT_EQ(Relative(dir, set.skipped_files), (std::vector<std::string>{"overlays/prod/patches/scale.yaml"}));
  EXPECT_FALSE(set.has_errors());
}

}  // namespace
}  // namespace tjr::source
