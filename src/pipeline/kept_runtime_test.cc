// The controller's read of an existing TrainJob's runtime snapshot
// (Trainer v2.3.0 pkg/runtime/core/snapshot.go:38-95).
#include "pipeline/kept_runtime.h"

#include <gtest/gtest.h>

#include <string>

#include "pipeline/test_util.h"
#include "render/runtime_snapshot.h"
#include "yaml/reader.h"

namespace tjr::pipeline {
namespace {

doc::Node Yaml(std::string_view text) {
  auto docs = yaml::ReadStream(text, "test.yaml");
  EXPECT_TRUE(docs.ok());
  return docs.ok() && !docs->empty() ? (*docs)[0] : doc::Node();
}

// A flow mapping (at the top of a document the reader would take it for
// JSON, as kubectl does).
doc::Node Flow(std::string_view text) { return *Yaml("v: " + std::string(text)).Find("v"); }

class KeptRuntimeTest : public ::testing::Test {
 protected:
  KeptRuntimeTest() {
    trainjob_ = Yaml(testing::TrainJob("job", "team"));
    trainjob_.Set("metadata", Flow("{name: job, namespace: team, uid: u-1}"));
    resolved_.ref.name = "torch-distributed";
    resolved_.ref.api_group = "trainer.kubeflow.org";
    resolved_.ref.kind = "ClusterTrainingRuntime";
    resolved_.runtime = Yaml(testing::kTorchRuntime);
    target_ = FindTarget("trainer-v2.3");
  }

  // A snapshot ConfigMap owned by `uid` holding `runtime` under data.runtime.
  doc::Node ConfigMap(std::string_view uid, std::string_view runtime) {
    doc::Node cm = Flow("{apiVersion: v1, kind: ConfigMap, metadata: {name: job-runtime-snapshot, namespace: team}}");
    doc::Node owner = Flow("{apiVersion: trainer.kubeflow.org/v1alpha1, kind: TrainJob, name: job, controller: true}");
    owner.Set("uid", doc::Node::String(std::string(uid)));
    doc::Node owners = doc::Node::Sequence();
    owners.push_back(owner);
    doc::Node& metadata = *cm.FindMutable("metadata");
    metadata.Set("ownerReferences", owners);
    doc::Node data = doc::Node::Mapping();
    data.Set("runtime", doc::Node::String(std::string(runtime)));
    cm.Set("data", data);
    return cm;
  }

  std::string Error(const doc::Node& configmap) {
    Diagnostics out;
    Result<doc::Node> kept = KeptRuntime(trainjob_, resolved_, configmap, "", *target_, &out);
    return kept.ok() ? std::string() : kept.error().message;
  }

  doc::Node trainjob_;
  trainer::ResolvedRuntime resolved_;
  const TargetProfile* target_ = nullptr;
};

TEST_F(KeptRuntimeTest, TheLiveRuntimesOwnTextMeansTheLiveRuntime) {
  ASSERT_NE(target_, nullptr);
  Result<std::string> text = render::SnapshotText(trainjob_, resolved_.runtime, target_->version);
  ASSERT_TRUE(text.ok());
  Diagnostics out;
  Result<doc::Node> kept = KeptRuntime(trainjob_, resolved_, ConfigMap("u-1", *text), "", *target_, &out);
  ASSERT_TRUE(kept.ok()) << kept.error().message;
  EXPECT_TRUE(kept->is_null());
  EXPECT_TRUE(out.empty());
}

TEST_F(KeptRuntimeTest, AnOlderSnapshotIsKeptWithAWarning) {
  Diagnostics out;
  const std::string old_runtime =
      "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: ClusterTrainingRuntime\nmetadata:\n  name: torch-distributed\n"
      "spec:\n  mlPolicy:\n    numNodes: 3\n";
  Result<doc::Node> kept = KeptRuntime(trainjob_, resolved_, ConfigMap("u-1", old_runtime), "", *target_, &out);
  ASSERT_TRUE(kept.ok()) << kept.error().message;
  EXPECT_EQ(kept->Find("spec")->Find("mlPolicy")->Find("numNodes")->int_value(), 3);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].rule, kRuntimeSnapshotKeptRule);
  EXPECT_EQ(out[0].severity, Severity::kWarning);
}

TEST_F(KeptRuntimeTest, UpstreamsRefusals) {
  // snapshot.go:54, :60 and :84 (v2.3.0), wrapped as
  // clustertrainingruntime.go:64 wraps them.
  EXPECT_EQ(Error(ConfigMap("u-2", "kind: ClusterTrainingRuntime\n")),
            "getting runtime snapshot: invalid runtime snapshot: a snapshot configmap exists but is owned by another "
            "object");
  doc::Node no_key = ConfigMap("u-1", "");
  no_key.Set("data", doc::Node::Mapping());
  EXPECT_EQ(Error(no_key), "getting runtime snapshot: invalid runtime snapshot: snapshot ConfigMap missing \"runtime\" "
                           "data key");
  EXPECT_EQ(Error(ConfigMap("u-1",
                            "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainingRuntime\nmetadata: {name: other}\n")),
            "getting runtime snapshot: invalid runtime snapshot: the snapshot refers to the wrong runtime: expecting a "
            "runtime with name, api group and kind of \"torch-distributed\", \"trainer.kubeflow.org\", "
            "\"ClusterTrainingRuntime\" but found runtime with name, api group and kind of \"other\", "
            "\"trainer.kubeflow.org\", \"TrainingRuntime\"");
  resolved_.kind = trainer::RuntimeKind::kTrainingRuntime;
  EXPECT_EQ(Error(ConfigMap("u-2", "kind: TrainingRuntime\n")).rfind("unable to get runtime snapshot: ", 0), 0u);
}

}  // namespace
}  // namespace tjr::pipeline
