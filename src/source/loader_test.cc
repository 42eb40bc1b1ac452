#include "source/loader.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstring>

#include <iostream>
#include <map>
#include <sstream>

#include "source/loader_test_util.h"
#include "testkit/temp_dir.h"

namespace tjr::source {
namespace {

TEST(LoadManifestsTest, KeepsTrainerKindsWithFileAndLocation) {
  testkit::TempDir dir;
  dir.Write("all.yaml", std::string(kJob) + R"(---
apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainingRuntime
metadata:
  name: torch
  namespace: team
---
apiVersion: trainer.kubeflow.org/v1alpha1
kind: ClusterTrainingRuntime
metadata: {name: torch}
)");
  ManifestSet set = LoadManifests({dir.root()});
  EXPECT_TRUE(set.diagnostics.empty()) << testing::PrintToString(Messages(set));
  EXPECT_EQ(Ids(set), (std::vector<std::string>{
                          "trainer.kubeflow.org/v1alpha1/TrainJob default/job",
                          "trainer.kubeflow.org/v1alpha1/TrainingRuntime team/torch",
                          "trainer.kubeflow.org/v1alpha1/ClusterTrainingRuntime torch"}));
  EXPECT_EQ(set.files, (std::vector<std::string>{dir.Path("all.yaml")}));
  ASSERT_EQ(set.manifests.size(), 3u);
  EXPECT_EQ(set.manifests[1].file, dir.Path("all.yaml"));
  EXPECT_EQ(set.manifests[1].location().ToString(), dir.Path("all.yaml") + ":9:1");
  const doc::Node& runtime_ref = *set.manifests[0].object.Find("spec")->Find("runtimeRef");
  EXPECT_EQ(runtime_ref.Find("name")->location().ToString(), dir.Path("all.yaml") + ":7:11");
  EXPECT_TRUE(set.ignored.empty());
  EXPECT_FALSE(set.has_errors());
}

TEST(LoadManifestsTest, ListsAreFlattenedAndJsonIsRead) {
  testkit::TempDir dir;
  dir.Write("list.json", R"({"apiVersion": "v1", "kind": "List", "items": [
  {"apiVersion": "trainer.kubeflow.org/v1alpha1", "kind": "TrainJob", "metadata": {"name": "a"}},
  {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c"}},
  {"apiVersion": "v1", "kind": "List", "items": [
    {"apiVersion": "trainer.kubeflow.org/v1alpha1", "kind": "TrainJob", "metadata": {"name": "b"}}]}
]})");
  ManifestSet set = LoadManifests({dir.root()});
  EXPECT_TRUE(set.diagnostics.empty()) << testing::PrintToString(Messages(set));
  EXPECT_EQ(Ids(set), (std::vector<std::string>{
                          "trainer.kubeflow.org/v1alpha1/TrainJob default/a",
                          "trainer.kubeflow.org/v1alpha1/TrainJob default/b"}));
  ASSERT_EQ(set.manifests.size(), 2u);
  EXPECT_EQ(set.manifests[1].location().ToString(), dir.Path("list.json") + ":5:5");
  EXPECT_EQ(set.ignored, (std::map<KindKey, std::size_t>{{{"v1", "ConfigMap"}, 1}}));
}

TEST(LoadManifestsTest, NamespacedObjectsGetTheDefaultNamespace) {
  testkit::TempDir dir;
  dir.Write("job.yaml", std::string(kJob) + R"(---
apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata: {name: other, namespace: ""}
---
apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata: {name: third, namespace: team}
)");
  ManifestSet set = LoadManifests({dir.root()});
  ASSERT_EQ(set.manifests.size(), 3u);
  EXPECT_EQ(NamespaceOf(set.manifests[0]), "default");
  EXPECT_EQ(NamespaceOf(set.manifests[1]), "default");
  EXPECT_EQ(NamespaceOf(set.manifests[2]), "team");
  // The filled-in namespace points at the metadata it was added to.
  EXPECT_EQ(set.manifests[0].object.Find("metadata")->Find("namespace")->location().ToString(),
            dir.Path("job.yaml") + ":4:3");

  LoadOptions options;
  options.default_namespace = "ml";
  set = LoadManifests({dir.root()}, options);
  EXPECT_TRUE(set.diagnostics.empty());
  EXPECT_EQ(Ids(set), (std::vector<std::string>{
                          "trainer.kubeflow.org/v1alpha1/TrainJob ml/job",
                          "trainer.kubeflow.org/v1alpha1/TrainJob ml/other",
                          "trainer.kubeflow.org/v1alpha1/TrainJob team/third"}));
}

TEST(LoadManifestsTest, AnExplicitNamespaceRefusesOthersAsKubectlDoes) {
  testkit::TempDir dir;
  dir.Write("job.yaml", std::string(kJob) + R"(---
apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata: {name: third, namespace: team}
---
apiVersion: trainer.kubeflow.org/v1alpha1
kind: ClusterTrainingRuntime
metadata: {name: torch}
)");
  LoadOptions options;
  options.default_namespace = "ml";
  options.enforce_namespace = true;
  ManifestSet set = LoadManifests({dir.root()}, options);
  EXPECT_EQ(Ids(set), (std::vector<std::string>{
                          "trainer.kubeflow.org/v1alpha1/TrainJob ml/job",
                          "trainer.kubeflow.org/v1alpha1/ClusterTrainingRuntime torch"}));
  EXPECT_EQ(Messages(set),
            (std::vector<std::string>{
                dir.Path("job.yaml") +
                ":11:36: error: metadata.namespace: the namespace from the provided object "
                "\"team\" does not match the namespace \"ml\". You must pass '--namespace=team' "
                "to perform this operation."}));
  EXPECT_EQ(set.diagnostics[0].category, Category::kInput);
}

TEST(LoadManifestsTest, ClusterScopedObjectsLoseTheirNamespace) {
  testkit::TempDir dir;
  dir.Write("ctr.yaml", R"(apiVersion: trainer.kubeflow.org/v1alpha1
kind: ClusterTrainingRuntime
metadata:
  name: torch
  namespace: kubeflow
  labels: {a: b}
---
apiVersion: trainer.kubeflow.org/v1alpha1
kind: ClusterTrainingRuntime
metadata: {name: empty-ns, namespace: ""}
)");
  ManifestSet set = LoadManifests({dir.root()});
  ASSERT_EQ(set.manifests.size(), 2u);
  EXPECT_EQ(set.manifests[0].id.namespace_, "");
  EXPECT_EQ(NamespaceOf(set.manifests[0]), "<none>");
  EXPECT_EQ(NamespaceOf(set.manifests[1]), "<none>");
  EXPECT_NE(set.manifests[0].object.Find("metadata")->Find("labels"), nullptr);
  EXPECT_EQ(Messages(set),
            (std::vector<std::string>{
                dir.Path("ctr.yaml") +
                ":5:14: note: metadata.namespace: ClusterTrainingRuntime is cluster-scoped: "
                "namespace \"kubeflow\" is ignored, as the API server does"}));
  EXPECT_FALSE(set.has_errors());
}

TEST(LoadManifestsTest, DuplicatesAcrossFilesNameBothPlaces) {
  testkit::TempDir dir;
  dir.Write("a.yaml", kJob);
  dir.Write("b/c.yaml", R"(apiVersion: v1
kind: ConfigMap
metadata: {name: job}
---
apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata: {name: job, namespace: default}
---
apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata: {name: job, namespace: elsewhere}
---
apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainingRuntime
metadata: {name: job}
)");
  ManifestSet set = LoadManifests({dir.root()});
  // Neither copy is kept: which one a cluster ends up with depends on the
  // order of applies.
  EXPECT_EQ(Ids(set), (std::vector<std::string>{
                          "trainer.kubeflow.org/v1alpha1/TrainJob elsewhere/job",
                          "trainer.kubeflow.org/v1alpha1/TrainingRuntime default/job"}));
  EXPECT_EQ(Messages(set),
            (std::vector<std::string>{
                dir.Path("a.yaml") + ":1:1: error: [duplicate-object] duplicate TrainJob default/job: also defined at " +
                    dir.Path("b/c.yaml") + ":5:1; no copy is rendered or checked",
                dir.Path("b/c.yaml") + ":5:1: error: [duplicate-object] duplicate TrainJob default/job: also defined at " +
                    dir.Path("a.yaml") + ":1:1; no copy is rendered or checked"}));
  for (const Diagnostic& d : set.diagnostics) {
    EXPECT_EQ(d.category, Category::kFinding);  // exit 1, not 2: the files are fine
    EXPECT_EQ(RuleId(d), "duplicate-object");
  }
  EXPECT_TRUE(set.has_errors());
}

TEST(LoadManifestsTest, EveryCopyOfATripleNamesTheOtherTwo) {
  testkit::TempDir dir;
  dir.Write("a.yaml", kJob);
  dir.Write("b.yaml", kJob);
  dir.Write("c.yaml", std::string(kJob) + "---\n" + R"(apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainingRuntime
metadata: {name: torch}
)");
  ManifestSet set = LoadManifests({dir.root()});
  EXPECT_EQ(Ids(set), (std::vector<std::string>{"trainer.kubeflow.org/v1alpha1/TrainingRuntime default/torch"}));
  ASSERT_EQ(set.diagnostics.size(), 3u);
  EXPECT_EQ(set.diagnostics[1].ToString(), dir.Path("b.yaml") +
                                               ":1:1: error: [duplicate-object] duplicate TrainJob default/job: also defined at " +
                                               dir.Path("a.yaml") + ":1:1, " + dir.Path("c.yaml") +
                                               ":1:1; no copy is rendered or checked");
}

TEST(LoadManifestsTest, OtherKindsAreCountedByApiVersionAndKind) {
  testkit::TempDir dir;
  dir.Write("mixed.yaml", R"(apiVersion: apps/v1
kind: Deployment
metadata: {name: a}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: b}
---
apiVersion: v1
kind: ConfigMap
---
apiVersion: trainer.kubeflow.org/v1beta1
kind: TrainJob
metadata: {name: future}
)");
  ManifestSet set = LoadManifests({dir.root()});
  EXPECT_TRUE(set.manifests.empty());
  EXPECT_EQ(set.ignored, (std::map<KindKey, std::size_t>{
                             {{"apps/v1", "Deployment"}, 2},
                             {{"trainer.kubeflow.org/v1beta1", "TrainJob"}, 1},
                             {{"v1", "ConfigMap"}, 1}}));
  // A Trainer kind in a kubeflow.org version no release serves is a
  // warning in kubectl's words, not a note among the ignored kinds.
  EXPECT_EQ(Messages(set),
            (std::vector<std::string>{
                dir.Path("mixed.yaml") +
                ":12:13: warning: [api-version-not-served] TrainJob of apiVersion trainer.kubeflow.org/v1beta1 is "
                "not rendered or checked: no Kubeflow Trainer release serves that version (every one serves "
                "trainer.kubeflow.org/v1alpha1 alone), so kubectl apply refuses it: resource mapping not found for "
                "name: \"future\" namespace: \"\" from \"" + dir.Path("mixed.yaml") + "\": no matches for kind "
                "\"TrainJob\" in version \"trainer.kubeflow.org/v1beta1\""}));
}

TEST(LoadManifestsTest, TrainerKindsOfOtherKubeflowGroupsAreWarningsOtherKindsStayIgnored) {
  testkit::TempDir dir;
  dir.Write("old.yaml", R"(apiVersion: kubeflow.org/v2alpha1
kind: TrainJob
metadata: {name: a, namespace: ml}
---
apiVersion: kubeflow.org/v1alpha1
kind: ClusterTrainingRuntime
metadata: {name: b}
---
apiVersion: training.kubeflow.org/v1alpha1
kind: TrainingRuntime
metadata: {name: c}
---
apiVersion: kubeflow.org/v1
kind: PyTorchJob
metadata: {name: d}
---
apiVersion: example.com/v1
kind: TrainJob
metadata: {name: e}
)");
  ManifestSet set = LoadManifests({dir.root()});
  EXPECT_TRUE(set.manifests.empty());
  EXPECT_FALSE(set.has_errors());
  std::vector<std::string> messages = Messages(set);
  ASSERT_EQ(messages.size(), 4u);
  EXPECT_NE(messages[0].find(":1:13: warning: [api-version-not-served] TrainJob of apiVersion kubeflow.org/v2alpha1 "),
            std::string::npos);
  EXPECT_NE(messages[0].find("resource mapping not found for name: \"a\" namespace: \"ml\" from"), std::string::npos);
  EXPECT_NE(messages[1].find("no matches for kind \"ClusterTrainingRuntime\" in version \"kubeflow.org/v1alpha1\""),
            std::string::npos);
  EXPECT_NE(messages[2].find("no matches for kind \"TrainingRuntime\" in version \"training.kubeflow.org/v1alpha1\""),
            std::string::npos);
  // Another operator's TrainJob is none of tjrender's business.
  EXPECT_NE(messages[3].find("note: apiVersion: ignored: TrainJob of apiVersion example.com/v1"), std::string::npos);
  EXPECT_EQ(set.diagnostics[0].rule, "api-version-not-served");
  EXPECT_EQ(set.diagnostics[0].severity, Severity::kWarning);
}

TEST(LoadManifestsTest, V2alpha1IsAnErrorNotAnIgnoredKind) {
  // trainer-runtimepatches.md §1: v2alpha1 exists only in KEP prose and the
  // website's copies of it; a manifest using it would be refused by any
  // cluster, so it must not vanish among the ignored kinds.
  testkit::TempDir dir;
  dir.Write("kep.yaml", R"(apiVersion: trainer.kubeflow.org/v2alpha1
kind: TrainJob
metadata: {name: from-the-website}
---
apiVersion: trainer.kubeflow.org/v2alpha1
kind: ClusterTrainingRuntime
metadata: {name: torch}
)");
  ManifestSet set = LoadManifests({dir.root()});
  EXPECT_TRUE(set.manifests.empty());
  EXPECT_TRUE(set.has_errors());
  ASSERT_EQ(set.diagnostics.size(), 2u);
  EXPECT_EQ(set.diagnostics[0].category, Category::kFinding);
  EXPECT_EQ(set.diagnostics[0].ToString(),
            dir.Path("kep.yaml") +
                ":1:13: error: apiVersion: no Kubeflow Trainer release has trainer.kubeflow.org/v2alpha1 (it appears "
                "only in KEP-2170 and the website examples copied from it); the API of every release is "
                "trainer.kubeflow.org/v1alpha1: no matches for kind \"TrainJob\" in version "
                "\"trainer.kubeflow.org/v2alpha1\"");
  EXPECT_NE(set.diagnostics[1].message.find("no matches for kind \"ClusterTrainingRuntime\""), std::string::npos);
}

TEST(LoadManifestsTest, TheRecognisedKindsAreAParameter) {
  testkit::TempDir dir;
  dir.Write("pt.yaml", R"(apiVersion: v1
kind: PodTemplate
metadata: {name: flyte}
---
)" + std::string(kJob));
  LoadOptions options;
  options.types = {{"v1", "PodTemplate", true}};
  ManifestSet set = LoadManifests({dir.root()}, options);
  EXPECT_EQ(Ids(set), (std::vector<std::string>{"v1/PodTemplate default/flyte"}));
  EXPECT_EQ(set.ignored,
            (std::map<KindKey, std::size_t>{{{"trainer.kubeflow.org/v1alpha1", "TrainJob"}, 1}}));
}

TEST(LoadManifestsTest, OneObjectInTwoVersionsIsADuplicate) {
  testkit::TempDir dir;
  dir.Write("a.yaml", std::string(kJob) + R"(---
apiVersion: trainer.kubeflow.org/v1beta1
kind: TrainJob
metadata: {name: job}
)");
  LoadOptions options;
  options.types = TrainerObjectTypes();
  options.types.push_back({"trainer.kubeflow.org/v1beta1", "TrainJob", true});
  ManifestSet set = LoadManifests({dir.root()}, options);
  EXPECT_TRUE(Ids(set).empty());
  EXPECT_EQ(Messages(set), (std::vector<std::string>{
                               dir.Path("a.yaml") +
                                   ":1:1: error: [duplicate-object] duplicate TrainJob default/job: also defined at " +
                                   dir.Path("a.yaml") + ":9:1; no copy is rendered or checked",
                               dir.Path("a.yaml") +
                                   ":9:1: error: [duplicate-object] duplicate TrainJob default/job: also defined at " +
                                   dir.Path("a.yaml") + ":1:1; no copy is rendered or checked"}));
}

TEST(LoadManifestsTest, StdinIsReadForADash) {
  // Standard input is read from its descriptor, in chunks.
  int pipe_fds[2];
  ASSERT_EQ(::pipe(pipe_fds), 0);
  ASSERT_EQ(::write(pipe_fds[1], kJob, std::strlen(kJob)), static_cast<ssize_t>(std::strlen(kJob)));
  ::close(pipe_fds[1]);
  const int saved = ::dup(STDIN_FILENO);
  ::dup2(pipe_fds[0], STDIN_FILENO);
  ::close(pipe_fds[0]);
  ManifestSet set = LoadManifests({"-"});
  ::dup2(saved, STDIN_FILENO);
  ::close(saved);
  EXPECT_TRUE(set.diagnostics.empty());
  ASSERT_EQ(set.manifests.size(), 1u);
  EXPECT_EQ(set.manifests[0].file, "<stdin>");
  EXPECT_EQ(set.manifests[0].location().ToString(), "<stdin>:1:1");
  EXPECT_EQ(set.files, (std::vector<std::string>{"<stdin>"}));
}

// The loader sees files only through Tree: an in-memory tree (as the Git
// one will be) loads the same way.
class MemoryTree final : public Tree {
 public:
  explicit MemoryTree(std::map<std::string, std::string> files) : files_(std::move(files)) {}

  Result<EntryType> Stat(const std::string& path) const override {
    if (files_.count(path) != 0) return EntryType::kFile;
    if (path == "repo" || path == "repo/sub") return EntryType::kDirectory;
    return MakeError(Location{InternSourceName(path)}, "", "not in the tree");
  }
  Result<std::vector<DirEntry>> List(const std::string& path) const override {
    std::vector<DirEntry> entries;
    for (const auto& [name, text] : files_) {
      if (name.rfind(path + "/", 0) != 0) continue;
      std::string rest = name.substr(path.size() + 1);
      std::size_t slash = rest.find('/');
      if (slash == std::string::npos) {
        entries.push_back({rest, EntryType::kFile});
      } else if (entries.empty() || entries.back().name != rest.substr(0, slash)) {
        entries.push_back({rest.substr(0, slash), EntryType::kDirectory});
      }
    }
    return entries;
  }
  Result<std::string> Resolve(const std::string& path) const override { return "/" + path; }
  Result<std::string> Read(const std::string& path, std::size_t) const override {
    return files_.at(path);
  }

 private:
  std::map<std::string, std::string> files_;
};

TEST(LoadManifestsTest, LoadsThroughAnyTree) {
  MemoryTree tree({{"repo/sub/b.yaml", std::string(kJob)},
                   {"repo/a.yml", "apiVersion: v1\nkind: Secret\n"},
                   {"repo/README.md", "# not read"}});
  ManifestSet set = LoadManifests(tree, {"repo"});
  EXPECT_TRUE(set.diagnostics.empty());
  EXPECT_EQ(set.files, (std::vector<std::string>{"repo/a.yml", "repo/sub/b.yaml"}));
  ASSERT_EQ(set.manifests.size(), 1u);
  EXPECT_EQ(set.manifests[0].location().ToString(), "repo/sub/b.yaml:1:1");
  EXPECT_EQ(set.ignored, (std::map<KindKey, std::size_t>{{{"v1", "Secret"}, 1}}));
}

TEST(LoadManifestsTest, ParallelParsingGivesTheSameSet) {
  testkit::TempDir dir;
  for (int i = 0; i < 150; ++i) {
    std::string name = "f" + std::to_string(i % 10) + "/" + std::to_string(i) + ".yaml";
    if (i % 17 == 0) {
      dir.Write(name, "kind: [\n");  // malformed
    } else if (i % 23 == 0) {
      dir.Write(name, "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nmetadata:\n  name: dup\n");
    } else {
      dir.Write(name, "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nmetadata:\n  name: j" +
                          std::to_string(i) + "\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n");
    }
  }
  LoadOptions one;
  LoadOptions many;
  many.threads = 4;
  ManifestSet a = LoadManifests({dir.root()}, one);
  ManifestSet b = LoadManifests({dir.root()}, many);
  EXPECT_EQ(Messages(a), Messages(b));
  EXPECT_FALSE(Messages(a).empty());
  EXPECT_EQ(a.files, b.files);
  ASSERT_EQ(a.manifests.size(), b.manifests.size());
  for (std::size_t i = 0; i < a.manifests.size(); ++i) {
    EXPECT_EQ(a.manifests[i].file, b.manifests[i].file);
    EXPECT_EQ(a.manifests[i].id.name, b.manifests[i].id.name);
    EXPECT_EQ(a.manifests[i].location().ToString(), b.manifests[i].location().ToString());
  }
  EXPECT_EQ(a.ignored, b.ignored);
}

}  // namespace
}  // namespace tjr::source

namespace tjr::source {
namespace {

// Documents without apiVersion and kind are skipped unless accept_untyped
// keeps them (Flyte task documents); objects of an any_namespace type keep
// their namespace under an enforced --namespace.
TEST(LoadManifestsTest, UntypedDocumentsAndAnyNamespaceTypes) {
  testkit::TempDir dir;
  dir.Write("a.yaml", R"(id: {name: t1}
container: {image: x}
---
just: data
---
apiVersion: v1
kind: PodTemplate
metadata: {name: tmpl, namespace: flyte}
)");
  LoadOptions options;
  options.types.push_back({"v1", "PodTemplate", true, true});
  options.default_namespace = "team";
  options.enforce_namespace = true;
  options.accept_untyped = [](const doc::Node& d) { return d.Find("container") != nullptr; };
  ManifestSet set = LoadManifests({dir.root()}, options);
  ASSERT_EQ(set.untyped.size(), 1u);
  EXPECT_EQ(set.untyped[0].file, dir.Path("a.yaml"));
  EXPECT_EQ(Ids(set), (std::vector<std::string>{"v1/PodTemplate flyte/tmpl"}));
  // The document that was not accepted is no object: skipped.
  EXPECT_EQ(Messages(set), (std::vector<std::string>{dir.Path("a.yaml") +
                                                     ":4:1: note: skipped: not a Kubernetes object (no string "
                                                     "apiVersion and kind)"}));
}

}  // namespace
}  // namespace tjr::source
