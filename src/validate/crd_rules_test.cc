// The API server's checks from the v2.2.1 and v2.3.0 TrainJob CRDs
// (trainer-runtimepatches.md §1.1-1.7, §3.2 notes).
#include "validate/crd_rules.h"

#include <algorithm>

#include <gtest/gtest.h>

#include "validate/test_util.h"
#include "validate/test_options.h"

namespace tjr::validate {
namespace {

using testing::LineCol;
using testing::Messages;
using testing::Yaml;

doc::Node TrainJob(std::string_view spec) {
  return Yaml(std::string(R"(
apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata: {name: job, namespace: default}
spec:
  runtimeRef: {name: torch-distributed, apiGroup: trainer.kubeflow.org, kind: ClusterTrainingRuntime}
)") + std::string(spec));
}

std::vector<std::string> Schema(const doc::Node& trainjob, trainer::TrainerVersion version, const doc::Node* old = nullptr) {
  ValidateOptions options = V21Options();
  options.version = version;
  options.old = old;
  return Messages(ValidateTrainJobSchema(trainjob, options));
}

constexpr trainer::TrainerVersion kV21 = trainer::TrainerVersion::kV2_1;
constexpr trainer::TrainerVersion kV22 = trainer::TrainerVersion::kV2_2;
constexpr trainer::TrainerVersion kV23 = trainer::TrainerVersion::kV2_3;

// apiextensions-apiserver strategy.go hasBlockingErr: after a Required, Too
// long, Too many, Unsupported or type error the CEL rules are skipped.
const std::string kBlocked =
    "<nil>: Invalid value: null: some validation rules were not checked because the object was invalid; correct "
    "the existing errors to complete validation";

TEST(CrdRules, TablesLoad) {
  ASSERT_NE(BuiltinCrdRules(kV22), nullptr);
  ASSERT_NE(BuiltinCrdRules(kV23), nullptr);
  ASSERT_NE(BuiltinCrdRules(kV21), nullptr);
  for (trainer::TrainerVersion version : {kV21, kV22, kV23}) {
    const CrdRules* runtime = BuiltinRuntimeCrdRules(version);
    ASSERT_NE(runtime, nullptr);
    const NodeRules* jobs = runtime->Find("spec.template.spec.replicatedJobs");
    ASSERT_NE(jobs, nullptr);
    EXPECT_EQ(jobs->list_map_keys, std::vector<std::string>{"name"});
  }
  const NodeRules* patches = BuiltinCrdRules(kV23)->Find("spec.runtimePatches");
  ASSERT_NE(patches, nullptr);
  EXPECT_EQ(patches->max_items, 16);
  EXPECT_EQ(patches->list_map_keys, std::vector<std::string>{"manager"});
}

TEST(CrdRules, TheSevenImmutablePodPatchFields) {
  // trainer-runtimepatches.md §1.4/§1.7: self == oldSelf on seven PodSpecPatch
  // fields; terminationGracePeriodSeconds only from v2.3.0.
  const std::string pod = "spec.runtimePatches[*].trainingRuntimeSpec.template.spec.replicatedJobs[*].template.spec."
                          "template.spec.";
  for (trainer::TrainerVersion version : {kV22, kV23}) {
    int immutable = 0;
    for (std::string_view field : {"serviceAccountName", "volumes", "initContainers", "containers", "imagePullSecrets",
                                   "securityContext", "terminationGracePeriodSeconds", "nodeSelector", "affinity",
                                   "tolerations", "schedulingGates"}) {
      const NodeRules* rules = BuiltinCrdRules(version)->Find(pod + std::string(field));
      const bool has = rules != nullptr && !rules->cel.empty() && rules->cel[0].form == CelRule::Form::kImmutable &&
                       rules->cel[0].message == "field is immutable";
      immutable += has ? 1 : 0;
    }
    EXPECT_EQ(immutable, version == kV23 ? 7 : 6);
  }
}

TEST(CrdRules, UnknownCelFormIsRefused) {
  Result<CrdRules> parsed = CrdRules::Parse(
      R"({"format": "tjrender-crd-validation/v1", "rules": [{"path": "spec", "cel": [{"rule": "self.x > 2", "message": "m"}]}]})",
      "t.json");
  ASSERT_FALSE(parsed.ok());
  EXPECT_NE(parsed.error().message.find("CEL rule form not evaluated: self.x > 2"), std::string::npos);
}

TEST(CrdRules, DuplicateManager) {
  std::vector<std::string> found = Schema(TrainJob(R"(  runtimePatches:
  - manager: kueue.x-k8s.io/a
  - manager: kueue.x-k8s.io/a
  - manager: kueue.x-k8s.io/a
)"),
                                          kV23);
  EXPECT_EQ(found, std::vector<std::string>{"spec.runtimePatches[1]: Duplicate value: {\"manager\":\"kueue.x-k8s.io/a\"}"});
}

TEST(CrdRules, DuplicateInGoSyntaxForOlderServers) {
  ValidateOptions options = V21Options();
  options.version = kV23;
  options.duplicate_style = DuplicateStyle::kGoSyntax;
  EXPECT_EQ(Messages(ValidateTrainJobSchema(TrainJob("  runtimePatches: [{manager: a.io/x}, {manager: a.io/x}]\n"),
                                            options)),
            std::vector<std::string>{
                "spec.runtimePatches[1]: Duplicate value: map[string]interface {}{\"manager\":\"a.io/x\"}"});
}

TEST(CrdRules, TooManyPatches) {
  std::string spec = "  runtimePatches:\n";
  for (int i = 0; i < 17; ++i) spec += "  - manager: a.io/m" + std::to_string(i) + "\n";
  EXPECT_EQ(Schema(TrainJob(spec), kV22),
            (std::vector<std::string>{"spec.runtimePatches: Too many: 17: must have at most 16 items", kBlocked}));
}

TEST(CrdRules, ManagerLength) {
  EXPECT_EQ(Schema(TrainJob("  runtimePatches: [{manager: ''}]\n"), kV23),
            std::vector<std::string>{"spec.runtimePatches[0].manager: Invalid value: \"\": "
                                     "spec.runtimePatches[0].manager in body should be at least 1 chars long"});
  const std::string long_name = "a.io/" + std::string(249, 'x');
  EXPECT_EQ(Schema(TrainJob("  runtimePatches: [{manager: " + long_name + "}]\n"), kV23),
            (std::vector<std::string>{"spec.runtimePatches[0].manager: Too long: may not be more than 253 bytes",
                                      kBlocked}));
  EXPECT_EQ(Schema(TrainJob("  runtimePatches: [{time: '2026-01-01T00:00:00Z'}]\n"), kV23),
            (std::vector<std::string>{"spec.runtimePatches[0].manager: Required value", kBlocked}));
}

constexpr std::string_view kGracePeriod = R"(  runtimePatches:
  - manager: a.io/m
    trainingRuntimeSpec:
      template:
        spec:
          replicatedJobs:
          - name: node
            template:
              spec:
                template:
                  spec:
                    terminationGracePeriodSeconds: -1
)";

TEST(CrdRules, TimeMustBeADateTime) {
  // kube-openapi strfmt.IsDateTime; errors.InvalidType -> field.TypeInvalid.
  EXPECT_EQ(Schema(TrainJob("  runtimePatches: [{manager: a.io/m, time: yesterday}]\n"), kV23),
            (std::vector<std::string>{"spec.runtimePatches[0].time: Invalid value: \"yesterday\": "
                                      "spec.runtimePatches[0].time in body must be of type date-time: \"yesterday\"",
                                      kBlocked}));
  for (std::string_view bad : {"2026-02-30T00:00:00Z", "2026-01-01 00:00:00Z", "2026-01-01T24:00:00Z",
                               "2026-01-01T10:00:00"}) {
    EXPECT_EQ(Schema(TrainJob("  runtimePatches: [{manager: a.io/m, time: '" + std::string(bad) + "'}]\n"), kV23).size(),
              2u)
        << bad;
  }
  for (std::string_view good : {"2026-01-01T00:00:00Z", "2024-02-29t10:11:12.5+02:00", "2026-01-01T00:00:00z"}) {
    EXPECT_TRUE(Schema(TrainJob("  runtimePatches: [{manager: a.io/m, time: '" + std::string(good) + "'}]\n"), kV23)
                    .empty())
        << good;
  }
}

TEST(CrdRules, AMegabyteTimeIsChecked) {
  // The date-time check used to recurse once per character (std::regex):
  // 100 KB crashed tjrender.
  const std::string fraction(1 << 20, '5');
  EXPECT_TRUE(Schema(TrainJob("  runtimePatches: [{manager: a.io/m, time: '2026-01-01T00:00:00." + fraction + "Z'}]\n"),
                     kV23)
                  .empty());
  EXPECT_EQ(Schema(TrainJob("  runtimePatches: [{manager: a.io/m, time: '2026-01-01T00:00:00." + fraction + "'}]\n"),
                   kV23)
                .size(),
            2u);
}

TEST(CrdRules, OpenApiOrderIsChildrenFirst) {
  // kube-openapi: an object's properties before its required list, a list's
  // items before MaxItems (object_validator.go, slice_validator.go).
  std::string spec = "  runtimePatches:\n  - time: yesterday\n";
  for (int i = 1; i < 17; ++i) spec += "  - manager: a.io/m" + std::to_string(i) + "\n";
  EXPECT_EQ(Schema(TrainJob(spec), kV23),
            (std::vector<std::string>{
                "spec.runtimePatches[0].time: Invalid value: \"yesterday\": spec.runtimePatches[0].time in body must "
                "be of type date-time: \"yesterday\"",
                "spec.runtimePatches[0].manager: Required value",
                "spec.runtimePatches: Too many: 17: must have at most 16 items",
                kBlocked,
            }));
}

TEST(CrdRules, GracePeriodMinimumOnlyFromV23) {
  // test/integration/webhooks/trainjob_test.go "... negative terminationGracePeriodSeconds".
  std::vector<std::string> found = Schema(TrainJob(kGracePeriod), kV23);
  const std::string path =
      "spec.runtimePatches[0].trainingRuntimeSpec.template.spec.replicatedJobs[0].template.spec.template.spec."
      "terminationGracePeriodSeconds";
  EXPECT_EQ(found, std::vector<std::string>{path + ": Invalid value: -1: " + path +
                                            " in body should be greater than or equal to 0"});
  // v2.2.0's PodSpecPatch has no such field: pruned, with tjrender's warning.
  ValidateOptions v22;
  v22.version = kV22;
  Diagnostics pruned = ValidateTrainJobSchema(TrainJob(kGracePeriod), v22);
  ASSERT_EQ(pruned.size(), 1u);
  EXPECT_EQ(pruned[0].severity, Severity::kWarning);
  EXPECT_EQ(pruned[0].message, "[field-pruned] unknown field \"" + path +
                                   "\": the Trainer v2.2.0 TrainJob schema has no such field, so the API server drops "
                                   "it and it has no effect (kubectl apply refuses the object under its default "
                                   "--validate=strict; other clients get at most a warning)");
}

TEST(CrdRules, PrunedFieldsWarn) {
  // trainer-runtimepatches.md §1.5: ContainerPatch has no image, command,
  // resources; §1.3: embedded ObjectMeta keeps five fields.
  doc::Node job = TrainJob(R"(  trainer: {numNodes: 1, numProcs: 2}
  runtimePatches:
  - manager: a.io/m
    trainingRuntimeSpec:
      template:
        metadata: {labels: {a: b}, uid: x}
        spec:
          replicatedJobs:
          - name: node
            template: {spec: {template: {spec: {containers: [{name: node, image: x, env: []}]}}}}
)");
  std::vector<std::string> found = Schema(job, kV23);
  ASSERT_EQ(found.size(), 3u);
  EXPECT_NE(found[0].find("unknown field \"spec.trainer.numProcs\": the Trainer v2.3.0"), std::string::npos);
  EXPECT_NE(found[1].find("unknown field \"spec.runtimePatches[0].trainingRuntimeSpec.template.metadata.uid\""),
            std::string::npos);
  EXPECT_NE(found[2].find("spec.template.spec.containers[0].image\""), std::string::npos);
}

TEST(CrdRules, StorageUriPatternFromV23) {
  doc::Node job = TrainJob("  initializer: {dataset: {storageUri: 'hf:/x'}}\n");
  EXPECT_EQ(Schema(job, kV23),
            std::vector<std::string>{"spec.initializer.dataset.storageUri: Invalid value: \"string\": storageUri may "
                                     "be empty, or it must be a valid URI (scheme://...)"});
  EXPECT_TRUE(Schema(job, kV22).empty());
  EXPECT_TRUE(Schema(TrainJob("  initializer: {dataset: {storageUri: ''}}\n"), kV23).empty());
  EXPECT_TRUE(Schema(TrainJob("  initializer: {model: {storageUri: 'hf://org/model'}}\n"), kV23).empty());
}

TEST(CrdRules, AMegabyteAgainstAPatternIsChecked) {
  // CEL matches() used to run on std::regex, which recursed once per
  // character: a 40 KB name crashed tjrender. Go's regexp (and
  // gocompat::Regexp) are linear and recursion-free. (storageUri has a
  // maxLength of 2048, which blocks its CEL rule first.)
  const std::string path(1 << 20, 'x');
  doc::Node job = Yaml("apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nmetadata: {name: " + path +
                       "-, namespace: default}\nspec: {runtimeRef: {name: r}}\n");
  const std::vector<std::string> messages = Schema(job, kV23);
  EXPECT_NE(std::find(messages.begin(), messages.end(),
                      "<nil>: Invalid value: \"object\": metadata.name must match RFC 1035 DNS label format"),
            messages.end());
}

TEST(CrdRules, RootNameRules) {
  doc::Node job = Yaml(R"(
apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata: {name: 1job, namespace: default}
spec: {runtimeRef: {name: r}}
)");
  EXPECT_EQ(Schema(job, kV23),
            std::vector<std::string>{"<nil>: Invalid value: \"object\": metadata.name must match RFC 1035 DNS label "
                                     "format"});
}

doc::Node Patched(std::string_view pod_spec, std::string_view manager = "a.io/m") {
  return TrainJob("  runtimePatches:\n  - manager: " + std::string(manager) +
                  "\n    trainingRuntimeSpec:\n      template:\n        spec:\n          replicatedJobs:\n"
                  "          - name: node\n            template:\n              spec:\n                template:\n"
                  "                  spec: " +
                  std::string(pod_spec) + "\n");
}

const std::string kPodPath =
    "spec.runtimePatches[0].trainingRuntimeSpec.template.spec.replicatedJobs[0].template.spec.template.spec";

TEST(CrdRules, ImmutablePatchFieldsPerManagerAndJob) {
  doc::Node old = Patched("{containers: [{name: a}, {name: b, env: [{name: X, value: '1'}]}], nodeSelector: {p: a}}");
  // test/integration/webhooks/trainjob_test.go "Should fail to update TrainJob
  // terminationGracePeriodSeconds after creation" for containers.
  EXPECT_EQ(Schema(Patched("{containers: [{name: a}, {name: b, env: [{name: X, value: '2'}]}]}"), kV23, &old),
            std::vector<std::string>{kPodPath + ".containers: Invalid value: \"array\": field is immutable"});
  // A list-map list compares without order; nodeSelector may change.
  EXPECT_TRUE(
      Schema(Patched("{containers: [{name: b, env: [{name: X, value: '1'}]}, {name: a}], nodeSelector: {p: b}}"), kV23,
             &old)
          .empty());
  // Another manager's element is another element: nothing to compare.
  EXPECT_TRUE(Schema(Patched("{containers: [{name: c}]}", "b.io/m"), kV23, &old).empty());
  // Setting a field the stored element did not have is allowed.
  EXPECT_TRUE(Schema(Patched("{containers: [{name: a}, {name: b, env: [{name: X, value: '1'}]}], "
                             "serviceAccountName: sa}"),
                     kV23, &old)
                  .empty());
  doc::Node old_grace = Patched("{terminationGracePeriodSeconds: 30}");
  EXPECT_EQ(Schema(Patched("{terminationGracePeriodSeconds: 60}"), kV23, &old_grace),
            std::vector<std::string>{kPodPath + ".terminationGracePeriodSeconds: Invalid value: \"integer\": field is "
                                     "immutable"});
}

TEST(CrdRules, ImmutableTrainJobFields) {
  doc::Node old = TrainJob("  trainer: {numNodes: 1}\n  activeDeadlineSeconds: 60\n  managedBy: kueue.x-k8s.io/multikueue\n");
  doc::Node changed =
      TrainJob("  trainer: {numNodes: 2}\n  activeDeadlineSeconds: 90\n  managedBy: trainer.kubeflow.org/trainjob-controller\n");
  EXPECT_EQ(Schema(changed, kV23, &old),
            (std::vector<std::string>{
                "spec.trainer: Invalid value: \"object\": field is immutable",
                "spec.activeDeadlineSeconds: Invalid value: \"integer\": field is immutable",
                "spec.managedBy: Invalid value: \"string\": field is immutable",
            }));
  doc::Node ref_changed = Yaml(R"(
apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata: {name: job, namespace: default}
spec:
  runtimeRef: {name: other, apiGroup: trainer.kubeflow.org, kind: ClusterTrainingRuntime}
)");
  EXPECT_EQ(Schema(ref_changed, kV22, &old),
            std::vector<std::string>{"spec.runtimeRef: Invalid value: \"object\": field is immutable"});
}

TEST(CrdRules, RemovedFieldsPointToMigrate) {
  doc::Node job = TrainJob("  podTemplateOverrides: [{targetJobs: [{name: node}]}]\n  labels: {a: b}\n");
  Diagnostics found;
  {
    ValidateOptions options = V21Options();
    options.version = kV22;
    found = ValidateTrainJobSchema(job, options);
  }
  ASSERT_EQ(found.size(), 2u);
  EXPECT_EQ(found[0].field_path, "spec.podTemplateOverrides");
  EXPECT_NE(found[0].message.find("field removed in Trainer v2.2.0 (replaced by spec.runtimePatches)"),
            std::string::npos);
  EXPECT_NE(found[0].message.find("tjrender migrate"), std::string::npos);
  EXPECT_EQ(found[0].rule, "upstream/error");  // set where it is made, not read from the text
  EXPECT_EQ(LineCol(found[0]), "7:25");
  EXPECT_EQ(found[1].field_path, "spec.labels");
  EXPECT_TRUE(Schema(job, trainer::TrainerVersion::kV2_1).empty());
}

TEST(CrdRules, V21PrunesUnknownFieldsToo) {
  // The v2.1.0 TrainJob CRD has numNodes and suspend; a typo is dropped.
  doc::Node job = TrainJob("  trainer: {numNode: 2}\n  suspended: true\n");
  ValidateOptions options = V21Options();
  options.version = kV21;
  const Diagnostics found = ValidateTrainJobSchema(job, options);
  // The parent's unknown keys come before its children's.
  ASSERT_EQ(found.size(), 2u);
  EXPECT_EQ(found[0].message.substr(0, 50), "[field-pruned] unknown field \"spec.suspended\": the");
  EXPECT_EQ(found[1].severity, Severity::kWarning);
  EXPECT_EQ(found[1].message,
            "[field-pruned] unknown field \"spec.trainer.numNode\": the Trainer v2.1.0 TrainJob schema has no such "
            "field, so the API server drops it and it has no effect (kubectl apply refuses the object under its "
            "default --validate=strict; other clients get at most a warning)");
  EXPECT_EQ(LineCol(found[1]), "7:22");
  EXPECT_TRUE(Schema(TrainJob("  trainer: {numNodes: 2}\n  suspend: true\n"), kV21).empty());
}

TEST(CrdRules, TopLevelKeysAreCheckedAndSayWhereTheyBelong) {
  // A field indented one level too far out: the API server prunes the root
  // as any object (but apiVersion, kind, metadata and the CRD's status).
  for (trainer::TrainerVersion version : {kV21, kV22, kV23}) {
    doc::Node job = Yaml(R"(apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata: {name: job, namespace: default}
spec:
  runtimeRef: {name: torch}
trainer: {numNodes: 2}
numNodes: 3
labels: {a: b}
status: {conditions: []}
bogus: 1
)");
    ValidateOptions options = V21Options();
    options.version = version;
    const Diagnostics found = ValidateTrainJobSchema(job, options);
    ASSERT_EQ(found.size(), 4u) << static_cast<int>(version);
    const std::string tail = " schema has no such field, so the API server drops it and it has no effect (kubectl apply "
                             "refuses the object under its default --validate=strict; other clients get at most a "
                             "warning)";
    const std::string schema = "the Trainer " + std::string(trainer::ReleaseOf(version).tag) + " TrainJob";
    EXPECT_EQ(found[0].message, "[field-pruned] unknown field \"trainer\": " + schema + tail +
                                    "; `trainer` is a field of `spec`");
    EXPECT_EQ(found[0].rule, "field-pruned");
    EXPECT_EQ(found[0].severity, Severity::kWarning);
    EXPECT_EQ(LineCol(found[0]), "6:10");
    // The shallowest place the schema has the name.
    EXPECT_EQ(found[1].message, "[field-pruned] unknown field \"numNodes\": " + schema + tail +
                                    "; `numNodes` is a field of `spec.trainer`");
    // ObjectMeta's fields, which the CRD table does not list.
    EXPECT_EQ(found[2].message, "[field-pruned] unknown field \"labels\": " + schema + tail +
                                    "; `labels` is a field of `metadata`");
    // Nowhere in the schema: no guess.
    EXPECT_EQ(found[3].message, "[field-pruned] unknown field \"bogus\": " + schema + tail);
  }
}

TEST(CrdRules, AnUnknownBlockIsLocatedAtItsKey) {
  // A block mapping's value starts on the line below its key, at a field
  // that is not the unknown one: the warning goes to the key (line 6 and
  // line 8), a scalar's to its value as before (line 10, column 9).
  doc::Node job = Yaml(R"(apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata: {name: job, namespace: default}
spec:
  runtimeRef: {name: torch}
  trainers:
    numNodes: 2
runtimeRef:
  name: torch
bogus: 1
)");
  ValidateOptions options = V21Options();
  options.version = kV23;
  const Diagnostics found = ValidateTrainJobSchema(job, options);
  ASSERT_EQ(found.size(), 3u);
  EXPECT_EQ(found[0].message.rfind("[field-pruned] unknown field \"runtimeRef\": the", 0), 0u);
  EXPECT_EQ(LineCol(found[0]), "8:1");
  EXPECT_EQ(found[1].message.rfind("[field-pruned] unknown field \"bogus\": the", 0), 0u);
  EXPECT_EQ(LineCol(found[1]), "10:8");
  EXPECT_EQ(found[2].message.rfind("[field-pruned] unknown field \"spec.trainers\": the", 0), 0u);
  EXPECT_EQ(LineCol(found[2]), "6:3");
}

TEST(CrdRules, ShallowestOwnerOfAKey) {
  const CrdRules* runtime = BuiltinRuntimeCrdRules(kV23);
  ASSERT_NE(runtime, nullptr);
  EXPECT_EQ(runtime->ShallowestOwnerOf("template"), "spec");
  EXPECT_EQ(runtime->ShallowestOwnerOf("mlPolicy"), "spec");
  EXPECT_EQ(runtime->ShallowestOwnerOf("replicatedJobs"), "spec.template.spec");
  EXPECT_EQ(runtime->ShallowestOwnerOf("no-such-field"), std::nullopt);
  EXPECT_EQ(BuiltinCrdRules(kV23)->ShallowestOwnerOf("runtimeRef"), "spec");
}

TEST(CrdRules, NumProcPerNodeIsAnIntegerFromV22) {
  // v2.1.0: int or string (auto, cpu, gpu); v2.2.0 on: int32.
  doc::Node job = TrainJob("  trainer: {numProcPerNode: auto}\n");
  for (trainer::TrainerVersion version : {kV22, kV23}) {
    EXPECT_EQ(Schema(job, version),
              (std::vector<std::string>{"spec.trainer.numProcPerNode: Invalid value: \"string\": "
                                        "spec.trainer.numProcPerNode in body must be of type integer: \"string\"",
                                        kBlocked}));
  }
  EXPECT_TRUE(Schema(job, kV21).empty());
  EXPECT_EQ(Schema(TrainJob("  trainer: {numProcPerNode: {n: 1}}\n"), kV21)[0],
            "spec.trainer.numProcPerNode: Invalid value: \"object\": spec.trainer.numProcPerNode in body must be of "
            "type integer,string: \"object\"");
}

TEST(CrdRules, BlockingErrorsSkipCelAtV21) {
  // v2.1.0: runtimeRef missing (Required) and a name that breaks the CEL
  // rule: only the first, then the notice that CEL did not run.
  doc::Node job = Yaml(R"(
apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata: {name: 1job, namespace: default}
spec: {trainer: {numNodes: 1}}
)");
  EXPECT_EQ(Schema(job, kV21), (std::vector<std::string>{"spec.runtimeRef: Required value", kBlocked}));
}

TEST(CrdRules, AKeyWithADotIsOneField) {
  // "trainer.image" is a key of spec the schema does not have: pruned, and
  // not the string spec.trainer.image (the schema is followed key by key,
  // never by joining keys into a path).
  std::vector<std::string> found = Schema(TrainJob("  trainer.image: [1]\n"), kV23);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_NE(found[0].find("unknown field \"spec.trainer.image\": the Trainer v2.3.0 TrainJob schema"),
            std::string::npos);
}

// A table of its own: a map of objects, so that findings below a map value
// show both path forms.
constexpr std::string_view kMapTable = R"({"format": "tjrender-crd-validation/v1", "rules": [
  {"path": "", "type": "object", "properties": ["apiVersion", "kind", "metadata", "spec"]},
  {"path": "spec", "type": "object", "properties": ["jobs"]},
  {"path": "spec.jobs{*}", "type": "object", "properties": ["size", "tags"], "required": ["size"]},
  {"path": "spec.jobs{*}.tags", "type": "array", "listType": "set"},
  {"path": "spec.jobs{*}.size", "type": "integer", "minimum": 1,
   "cel": [{"rule": "self >= 2", "message": "at least two"}]}
]})";

TEST(CrdRules, PathsBelowMapValues) {
  Result<CrdRules> table = CrdRules::Parse(kMapTable, "t.json");
  ASSERT_TRUE(table.ok()) << table.error().message;
  doc::Node object = Yaml(R"(
spec:
  jobs:
    a: {size: 0, tags: [x, x], extra: 1}
    b.c: {tags: []}
    d: {size: 1}
)");
  Report report;
  CheckCrdSchema(*table, object, PruneOptions{"Test", {}}, SchemaChecks::kAll, DuplicateStyle::kJson, &report);
  CheckCrdCel(*table, object, nullptr, &report);
  // Pruning, list and CEL errors print field.Path (`jobs[a]`), the OpenAPI
  // ones kube-openapi's path (`jobs.a`); each check's findings in turn.
  const std::vector<std::string> found = Messages(report.Take());
  ASSERT_EQ(found.size(), 6u);
  EXPECT_EQ(found[0].rfind("[field-pruned] unknown field \"spec.jobs[a].extra\": the Test schema has", 0), 0u);
  EXPECT_EQ(found[1], "spec.jobs.a.size: Invalid value: 0: spec.jobs.a.size in body should be greater than or equal to 1");
  EXPECT_EQ(found[2], "spec.jobs.b.c.size: Required value");
  EXPECT_EQ(found[3], "spec.jobs[a].tags[1]: Duplicate value: \"x\"");
  EXPECT_EQ(found[4], "spec.jobs[a].size: Invalid value: \"integer\": at least two");
  EXPECT_EQ(found[5], "spec.jobs[d].size: Invalid value: \"integer\": at least two");
}

TEST(CrdRules, TheTableIsATree) {
  Result<CrdRules> table = CrdRules::Parse(kMapTable, "t.json");
  ASSERT_TRUE(table.ok());
  const SchemaNode& root = table->root();
  ASSERT_NE(root.rules(), nullptr);
  EXPECT_TRUE(root.reaches_cel());
  const SchemaNode* spec = root.Property("spec");
  ASSERT_NE(spec, nullptr);
  EXPECT_EQ(spec->Property("jobs{*}"), nullptr);
  const SchemaNode* job = spec->Property("jobs")->value();
  ASSERT_NE(job, nullptr);
  EXPECT_EQ(job->rules()->required, std::vector<std::string>{"size"});
  EXPECT_EQ(job->Child("size"), job->Property("size"));
  EXPECT_EQ(job->Child("other"), nullptr);  // a struct: no map value
  EXPECT_FALSE(job->Property("tags")->reaches_cel());
  EXPECT_EQ(job->Property("tags")->item(), nullptr);
  EXPECT_EQ(table->Find("spec.jobs{*}.size"), job->Property("size")->rules());
  EXPECT_EQ(table->Find("spec.jobs"), nullptr);  // on the way to rules, none of its own
  EXPECT_EQ(table->Find("spec.nothing"), nullptr);
  EXPECT_TRUE(job->rules()->Keeps("tags"));
  EXPECT_FALSE(job->rules()->Keeps("extra"));
}

TEST(CrdRules, MalformedPathsAreRefused) {
  for (std::string_view path : {"spec..a", ".spec", "spec.", "[*]", "{*}.a", "spec[0]", "spec[*]x", "spec.{*}"}) {
    Result<CrdRules> parsed = CrdRules::Parse(
        R"({"format": "tjrender-crd-validation/v1", "rules": [{"path": ")" + std::string(path) + R"(", "type": "string"}]})",
        "t.json");
    ASSERT_FALSE(parsed.ok()) << path;
    EXPECT_NE(parsed.error().message.find("malformed path: " + std::string(path)), std::string::npos) << path;
  }
  Result<CrdRules> twice = CrdRules::Parse(
      R"({"format": "tjrender-crd-validation/v1", "rules": [{"path": "a.b", "type": "string"}, {"path": "a.b"}]})",
      "t.json");
  ASSERT_FALSE(twice.ok());
  EXPECT_NE(twice.error().message.find("path given twice: a.b"), std::string::npos);
}

}  // namespace
}  // namespace tjr::validate
