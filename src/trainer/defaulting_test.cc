#include "trainer/defaulting.h"

#include <gtest/gtest.h>

#include "json/json.h"
#include "trainer/test_util.h"

namespace tjr::trainer {
namespace {

using testing::Yaml;

const KindDefaults& Kind(std::string_view kind) {
  Result<const DefaultsTable*> table = BuiltinDefaults(kV21DefaultsTable);
  EXPECT_TRUE(table.ok());
  return *(*table)->Find("trainer.kubeflow.org/v1alpha1", kind);
}

std::string Paths(const std::vector<AppliedDefault>& applied) {
  std::string out;
  for (const AppliedDefault& a : applied) {
    if (!out.empty()) out += ' ';
    out += a.path.Upstream();
  }
  return out;
}

TEST(ApplyDefaults, TrainJobGetsItsFourTopLevelDefaults) {
  doc::Node job = Yaml(R"(
apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata: {name: j, namespace: ns}
spec:
  runtimeRef: {name: torch-distributed}
)");
  std::vector<AppliedDefault> applied = ApplyDefaults(Kind("TrainJob"), job);
  EXPECT_EQ(json::Write(job.Find("spec") ? *job.Find("spec") : doc::Node(), false),
            R"({"managedBy":"trainer.kubeflow.org/trainjob-controller",)"
            R"("runtimeRef":{"apiGroup":"trainer.kubeflow.org","kind":"ClusterTrainingRuntime",)"
            R"("name":"torch-distributed"},"suspend":false})");
  EXPECT_EQ(Paths(applied),
            "spec.managedBy spec.suspend spec.runtimeRef.apiGroup spec.runtimeRef.kind");
  ASSERT_EQ(applied.size(), 4u);
  EXPECT_EQ(applied[1].source->source,
            "manifests/base/crds/trainer.kubeflow.org_trainjobs.yaml:4006");
}

TEST(ApplyDefaults, ExplicitEmptyStringsStayAndNullsAreDefaulted) {
  doc::Node job = Yaml(R"(
apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata: {name: j}
spec:
  suspend: null
  managedBy: kueue.x-k8s.io/multikueue
  runtimeRef: {name: x, apiGroup: "", kind: ""}
)");
  std::vector<AppliedDefault> applied = ApplyDefaults(Kind("TrainJob"), job);
  EXPECT_EQ(json::Write(*job.Find("spec"), false),
            R"({"managedBy":"kueue.x-k8s.io/multikueue",)"
            R"("runtimeRef":{"apiGroup":"","kind":"","name":"x"},"suspend":false})");
  EXPECT_EQ(Paths(applied), "spec.suspend");
}

TEST(ApplyDefaults, DefaultsBelowAnAbsentObjectDoNotApply) {
  doc::Node job = Yaml(R"(
apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata: {name: j}
spec:
  runtimeRef: {name: x}
  suspend: true
  managedBy: trainer.kubeflow.org/trainjob-controller
  initializer:
    dataset: {storageUri: "hf://x"}
  trainer:
    env:
    - {name: A, value: a}
    - name: B
      valueFrom: {secretKeyRef: {key: k}}
    - name: C
      valueFrom: {configMapKeyRef: {key: k, name: cm}}
)");
  std::vector<AppliedDefault> applied = ApplyDefaults(Kind("TrainJob"), job);
  EXPECT_EQ(Paths(applied),
            "spec.runtimeRef.apiGroup spec.runtimeRef.kind spec.trainer.env[1].valueFrom.secretKeyRef.name");
  EXPECT_EQ(json::Write(*job.Find("spec")->Find("initializer"), false),
            R"({"dataset":{"storageUri":"hf://x"}})");
  EXPECT_EQ(json::Write(*job.Find("spec")->Find("trainer"), false),
            R"({"env":[{"name":"A","value":"a"},)"
            R"({"name":"B","valueFrom":{"secretKeyRef":{"key":"k","name":""}}},)"
            R"({"name":"C","valueFrom":{"configMapKeyRef":{"key":"k","name":"cm"}}}]})");
}

constexpr std::string_view kRuntime = R"(
apiVersion: trainer.kubeflow.org/v1alpha1
kind: KIND
metadata: {name: rt}
spec:
  mlPolicy:
    numNodes: 2
    mpi: {}
  podGroupPolicy:
    coscheduling: {}
    volcano: {}
  template:
    spec:
      failurePolicy: {maxRestarts: 3}
      replicatedJobs:
      - name: launcher
        template:
          spec:
            template:
              spec:
                containers:
                - name: node
                  ports:
                  - {containerPort: 22}
                  - {containerPort: 23, protocol: UDP}
      - name: node
        replicas: 3
        groupName: g
        template:
          spec:
            template:
              spec:
                initContainers:
                - name: init
                  ports: [{containerPort: 1}]
                containers:
                - {name: node}
)";

std::string RuntimeYaml(std::string_view kind) {
  std::string text(kRuntime);
  text.replace(text.find("KIND"), 4, kind);
  return text;
}

constexpr std::string_view kDefaultedRuntimeSpec =
    R"({"mlPolicy":{"mpi":{"mpiImplementation":"OpenMPI","numProcPerNode":1,)"
    R"("runLauncherAsNode":false,"sshAuthMountPath":"/root/.ssh"},"numNodes":2},)"
    R"("podGroupPolicy":{"coscheduling":{"scheduleTimeoutSeconds":60},"volcano":{}},)"
    R"("template":{"spec":{"failurePolicy":{"maxRestarts":3,"restartStrategy":"Recreate"},)"
    R"("replicatedJobs":[{"groupName":"default","name":"launcher","replicas":1,"template":)"
    R"({"spec":{"template":{"spec":{"containers":[{"name":"node","ports":[)"
    R"({"containerPort":22,"protocol":"TCP"},{"containerPort":23,"protocol":"UDP"}]}]}}}}},)"
    R"({"groupName":"g","name":"node","replicas":3,"template":{"spec":{"template":{"spec":)"
    R"({"containers":[{"name":"node"}],"initContainers":[{"name":"init","ports":[)"
    R"({"containerPort":1,"protocol":"TCP"}]}]}}}}}]}}})";

TEST(ApplyDefaults, TrainingRuntimeGetsPolicyAndJobSetDefaults) {
  for (std::string_view kind : {"TrainingRuntime", "ClusterTrainingRuntime"}) {
    doc::Node runtime = Yaml(RuntimeYaml(kind));
    std::vector<AppliedDefault> applied = ApplyDefaults(Kind(kind), runtime);
    EXPECT_EQ(json::Write(*runtime.Find("spec"), false), kDefaultedRuntimeSpec) << kind;
    EXPECT_EQ(Paths(applied),
              "spec.mlPolicy.mpi.mpiImplementation spec.mlPolicy.mpi.numProcPerNode "
              "spec.mlPolicy.mpi.runLauncherAsNode spec.mlPolicy.mpi.sshAuthMountPath "
              "spec.podGroupPolicy.coscheduling.scheduleTimeoutSeconds "
              "spec.template.spec.failurePolicy.restartStrategy "
              "spec.template.spec.replicatedJobs[0].groupName "
              "spec.template.spec.replicatedJobs[0].replicas "
              "spec.template.spec.replicatedJobs[0].template.spec.template.spec.containers[0]"
              ".ports[0].protocol "
              "spec.template.spec.replicatedJobs[1].template.spec.template.spec.initContainers[0]"
              ".ports[0].protocol")
        << kind;
  }
}

TEST(ApplyDefaults, TorchAndVolcanoNetworkTopology) {
  doc::Node runtime = Yaml(R"(
apiVersion: trainer.kubeflow.org/v1alpha1
kind: ClusterTrainingRuntime
metadata: {name: rt}
spec:
  mlPolicy: {torch: {}}
  podGroupPolicy: {volcano: {networkTopology: {}}}
  template: {spec: {}}
)");
  ApplyDefaults(Kind("ClusterTrainingRuntime"), runtime);
  EXPECT_EQ(json::Write(*runtime.Find("spec"), false),
            R"({"mlPolicy":{"torch":{"numProcPerNode":"auto"}},)"
            R"("podGroupPolicy":{"volcano":{"networkTopology":{"highestTierAllowed":1,"mode":"hard"}}},)"
            R"("template":{"spec":{}}})");
}

TEST(ApplyDefaults, NullsWithoutDefaultsAreDropped) {
  doc::Node job = Yaml(R"(
apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata:
  name: j
  labels: {a: null}
spec:
  runtimeRef: {name: x, kind: TrainingRuntime}
  suspend: false
  managedBy: trainer.kubeflow.org/trainjob-controller
  labels: {a: null, b: c}
  unknownField: null
  trainer:
    numNodes: null
    env: [null]
)");
  std::vector<AppliedDefault> applied = ApplyDefaults(Kind("TrainJob"), job);
  EXPECT_EQ(Paths(applied), "spec.runtimeRef.apiGroup");
  EXPECT_EQ(json::Write(job, false),
            R"({"apiVersion":"trainer.kubeflow.org/v1alpha1","kind":"TrainJob",)"
            R"("metadata":{"labels":{"a":null},"name":"j"},)"
            R"("spec":{"labels":{"b":"c"},"managedBy":"trainer.kubeflow.org/trainjob-controller",)"
            R"("runtimeRef":{"apiGroup":"trainer.kubeflow.org","kind":"TrainingRuntime","name":"x"},)"
            R"("suspend":false,"trainer":{"env":[null]}}})");
}

TEST(ApplyDefaults, WrittenValuesTakeTheLocationOfTheirMapping) {
  doc::Node job = Yaml("apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\n"
                       "metadata: {name: j}\nspec:\n  runtimeRef:\n    name: x\n",
                       "job.yaml");
  ApplyDefaults(Kind("TrainJob"), job);
  const doc::Node& ref = *job.Find("spec")->Find("runtimeRef");
  const doc::Node& kind = *ref.Find("kind");
  EXPECT_EQ(kind.location().ToString(), ref.location().ToString());
  EXPECT_EQ(*kind.location().file, "job.yaml");
  EXPECT_EQ(kind.location().line, 6u);
}

TEST(ApplyDefaults, LeavesADefaultedObjectAndItsSharingAlone) {
  doc::Node runtime = Yaml(RuntimeYaml("TrainingRuntime"));
  ApplyDefaults(Kind("TrainingRuntime"), runtime);
  doc::Node copy = runtime;
  EXPECT_TRUE(ApplyDefaults(Kind("TrainingRuntime"), copy).empty());
  EXPECT_TRUE(copy.SharesRepresentationWith(runtime));
}

TEST(ApplyDefaults, DoesNotTouchTheCallersOtherCopies) {
  doc::Node original = Yaml(RuntimeYaml("TrainingRuntime"));
  doc::Node copy = original;
  ApplyDefaults(Kind("TrainingRuntime"), copy);
  EXPECT_EQ(original, Yaml(RuntimeYaml("TrainingRuntime")));
  EXPECT_NE(original, copy);
}

// The built-in CRDs only have scalar defaults on properties; list-item,
// additionalProperties and object defaults go through a table of their own.
TEST(ApplyDefaults, ItemAdditionalAndObjectDefaults) {
  Result<DefaultsTable> table = DefaultsTable::Parse(
      R"({"format": "tjrender-crd-defaults/v1", "name": "t",
          "provenance": {"upstream": {"repo": "r", "tag": "v1", "commit": "c"}},
          "kinds": [{"group": "g", "version": "v1", "kind": "K", "crd": "c", "defaults": [
            {"path": "spec.list[*]", "value": {"a": 1}, "source": "c:1"},
            {"path": "spec.list[*].b", "value": "x", "source": "c:2"},
            {"path": "spec.map{*}", "value": "d", "source": "c:3"},
            {"path": "spec.obj", "value": {}, "source": "c:4"},
            {"path": "spec.obj.inner", "value": true, "source": "c:5"}]}]})",
      "t.json");
  ASSERT_TRUE(table.ok()) << table.error().ToString();
  doc::Node object = Yaml("apiVersion: g/v1\nkind: K\nspec:\n  list: [null, {a: 2}]\n"
                          "  map: {k: null, l: v}\n");
  std::vector<AppliedDefault> applied = ApplyDefaults(*table->Find("g/v1", "K"), object);
  EXPECT_EQ(json::Write(*object.Find("spec"), false),
            R"({"list":[{"a":1,"b":"x"},{"a":2,"b":"x"}],"map":{"k":"d","l":"v"},)"
            R"("obj":{"inner":true}})");
  EXPECT_EQ(Paths(applied), "spec.obj spec.list[0] spec.list[0].b spec.list[1].b spec.map.k "
                            "spec.obj.inner");
}

TEST(ApplyBuiltinDefaults, ChoosesTheKindByApiVersionAndKind) {
  doc::Node job = Yaml("apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\n"
                       "metadata: {name: j}\nspec: {runtimeRef: {name: x}}\n");
  Result<std::vector<AppliedDefault>> applied = ApplyBuiltinDefaults(job, kV21DefaultsTable);
  ASSERT_TRUE(applied.ok());
  EXPECT_EQ(applied->size(), 4u);

  doc::Node other = Yaml("apiVersion: jobset.x-k8s.io/v1alpha2\nkind: JobSet\n");
  Result<std::vector<AppliedDefault>> refused = ApplyBuiltinDefaults(other, kV21DefaultsTable);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().message,
            "no CRD defaults for apiVersion \"jobset.x-k8s.io/v1alpha2\", kind \"JobSet\" in "
            "trainer-v2.1.0-defaults");
}

// DefaultBuiltin writes what ApplyBuiltinDefaults writes (nulls dropped in
// a subtree no default reaches included) and refuses the same kinds.
TEST(DefaultBuiltin, SameObjectWithoutTheList) {
  const char* text =
      "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nmetadata: {name: j}\n"
      "spec:\n  runtimeRef: {name: x}\n  trainer:\n    env: [{name: a, value: null}]\n";
  doc::Node listed = Yaml(text);
  ASSERT_TRUE(ApplyBuiltinDefaults(listed, kV21DefaultsTable).ok());
  doc::Node quiet = Yaml(text);
  ASSERT_TRUE(DefaultBuiltin(quiet, kV21DefaultsTable).ok());
  EXPECT_EQ(json::Write(quiet, false), json::Write(listed, false));
  EXPECT_EQ(quiet.Find("spec")->Find("trainer")->Find("env")->items()[0].Find("value"), nullptr);

  doc::Node other = Yaml("apiVersion: jobset.x-k8s.io/v1alpha2\nkind: JobSet\n");
  Status refused = DefaultBuiltin(other, kV21DefaultsTable);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().message, ApplyBuiltinDefaults(other, kV21DefaultsTable).error().message);
}

}  // namespace
}  // namespace tjr::trainer
