// API-server checks (reference §3.1): object-meta name, OpenAPI required
// and minLength, list-map uniqueness, CEL rules.
#include <gtest/gtest.h>

#include "validate/test_util.h"
#include "validate/validate.h"
#include "validate/test_options.h"

namespace tjr::validate {
namespace {

using testing::LineCol;
using testing::Messages;
using testing::Yaml;

std::string TrainJob(std::string_view name, std::string_view spec_body) {
  return "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nmetadata: {name: " + std::string(name) +
         ", namespace: default}\nspec:\n" + std::string(spec_body);
}

constexpr std::string_view kRef =
    "  runtimeRef: {name: rt, apiGroup: trainer.kubeflow.org, kind: ClusterTrainingRuntime}\n"
    "  suspend: false\n  managedBy: trainer.kubeflow.org/trainjob-controller\n";

// After a Required (or Unsupported, Too long, Too many, type) error the API
// server skips the CEL rules and says so (apiextensions-apiserver
// registry/customresource/strategy.go hasBlockingErr).
const std::string kBlocked =
    "<nil>: Invalid value: null: some validation rules were not checked because the object was invalid; correct "
    "the existing errors to complete validation";

std::vector<std::string> Check(std::string_view name, std::string_view extra, const ValidateOptions& options = V21Options()) {
  return Messages(ValidateTrainJobSchema(Yaml(TrainJob(name, std::string(kRef) + std::string(extra))), options));
}

TEST(Schema, ValidTrainJob) { EXPECT_TRUE(Check("job-1", "").empty()); }

TEST(Schema, NameMustBeRfc1035Label) {
  EXPECT_EQ(Check("1job", ""), std::vector<std::string>{
                                   R"(<nil>: Invalid value: "object": metadata.name must match RFC 1035 DNS label format)"});
}

TEST(Schema, NameMustBeASubdomainToo) {
  EXPECT_EQ(Check("Job", ""),
            (std::vector<std::string>{
                R"(metadata.name: Invalid value: "Job": a lowercase RFC 1123 subdomain must consist of lower case )"
                R"(alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. )"
                R"('example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*'))",
                R"(<nil>: Invalid value: "object": metadata.name must match RFC 1035 DNS label format)"}));
}

// ValidateObjectMetaAccessor checks the namespace after the name (IsDNS1123Label);
// a namespace that walks out of a folder was rendered with exit 0.
TEST(Schema, NamespaceMustBeADnsLabel) {
  const auto check = [](std::string_view namespace_) {
    return Messages(ValidateTrainJobSchema(Yaml("apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\n"
                                                "metadata: {name: job, namespace: '" +
                                                std::string(namespace_) + "'}\nspec:\n" + std::string(kRef))));
  };
  const std::string label_error =
      "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end "
      "with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is "
      "'[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
  EXPECT_EQ(check("../../x"),
            std::vector<std::string>{R"(metadata.namespace: Invalid value: "../../x": )" + label_error});
  EXPECT_EQ(check("a.b"), std::vector<std::string>{R"(metadata.namespace: Invalid value: "a.b": )" + label_error});
  EXPECT_EQ(check(std::string(64, 'a')),
            std::vector<std::string>{"metadata.namespace: Invalid value: \"" + std::string(64, 'a') +
                                     "\": must be no more than 63 characters"});
  EXPECT_TRUE(check(std::string(63, 'a')).empty());
  EXPECT_TRUE(check("team-1").empty());
}

TEST(Schema, NameAtMost63Characters) {
  EXPECT_EQ(Check(std::string(64, 'a'), ""),
            std::vector<std::string>{
                R"(<nil>: Invalid value: "object": metadata.name must be no more than 63 characters)"});
  EXPECT_TRUE(Check(std::string(63, 'a'), "").empty());
}

TEST(Schema, ManagedByValues) {
  const doc::Node trainjob = Yaml(TrainJob("job", "  runtimeRef: {name: rt}\n  managedBy: example.com/other\n"));
  const Diagnostics found = ValidateTrainJobSchema(trainjob);
  EXPECT_EQ(Messages(found), std::vector<std::string>{
                                 R"(spec.managedBy: Invalid value: "string": ManagedBy must be )"
                                 "trainer.kubeflow.org/trainjob-controller or kueue.x-k8s.io/multikueue if set"});
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(LineCol(found[0]), "6:14");
  EXPECT_EQ(found[0].field_path, "spec.managedBy");
}

TEST(Schema, RuntimeRefAndManagedByImmutableOnUpdate) {
  const doc::Node old = Yaml(TrainJob("job", std::string(kRef)));
  ValidateOptions options = V21Options();
  options.old = &old;
  EXPECT_TRUE(Check("job", "", options).empty());
  const doc::Node changed = Yaml(TrainJob(
      "job", "  runtimeRef: {name: other, apiGroup: trainer.kubeflow.org, kind: ClusterTrainingRuntime}\n"
             "  managedBy: kueue.x-k8s.io/multikueue\n"));
  EXPECT_EQ(Messages(ValidateTrainJobSchema(changed, options)),
            (std::vector<std::string>{R"(spec.runtimeRef: Invalid value: "object": runtimeRef is immutable)",
                                      R"(spec.managedBy: Invalid value: "string": ManagedBy value is immutable)"}));
}

TEST(Schema, RuntimeRefRequired) {
  EXPECT_EQ(Messages(ValidateTrainJobSchema(Yaml(TrainJob("job", "  suspend: false\n")))),
            (std::vector<std::string>{"spec.runtimeRef: Required value", kBlocked}));
}

TEST(Schema, RuntimeRefNameRequiredAndNonEmpty) {
  EXPECT_EQ(Messages(ValidateTrainJobSchema(Yaml(TrainJob("job", "  runtimeRef: {kind: TrainingRuntime}\n")))),
            (std::vector<std::string>{"spec.runtimeRef.name: Required value", kBlocked}));
  EXPECT_EQ(Messages(ValidateTrainJobSchema(Yaml(TrainJob("job", "  runtimeRef: {name: ''}\n")))),
            std::vector<std::string>{R"(spec.runtimeRef.name: Invalid value: "": spec.runtimeRef.name in body should )"
                                     "be at least 1 chars long"});
}

TEST(Schema, OverrideTargetJobsRequiredAndNamed) {
  EXPECT_EQ(Check("job", "  podTemplateOverrides:\n  - spec: {serviceAccountName: x}\n  - targetJobs: [{name: ''}, {}]\n"),
            (std::vector<std::string>{
                "spec.podTemplateOverrides[0].targetJobs: Required value",
                R"(spec.podTemplateOverrides[1].targetJobs[0].name: Invalid value: "": )"
                "spec.podTemplateOverrides[1].targetJobs[0].name in body should be at least 1 chars long",
                "spec.podTemplateOverrides[1].targetJobs[1].name: Required value", kBlocked}));
}

TEST(Schema, OverrideContainerEnvAndMountKeysRequired) {
  EXPECT_EQ(Check("job", R"(  podTemplateOverrides:
  - targetJobs: [{name: node}]
    spec:
      volumes: [{emptyDir: {}}]
      containers:
      - name: ''
        env: [{value: x}]
        volumeMounts: [{name: v}]
      schedulingGates: [{}]
)"),
            (std::vector<std::string>{
                "spec.podTemplateOverrides[0].spec.volumes[0].name: Required value",
                "spec.podTemplateOverrides[0].spec.schedulingGates[0].name: Required value",
                R"(spec.podTemplateOverrides[0].spec.containers[0].name: Invalid value: "": )"
                "spec.podTemplateOverrides[0].spec.containers[0].name in body should be at least 1 chars long",
                "spec.podTemplateOverrides[0].spec.containers[0].env[0].name: Required value",
                "spec.podTemplateOverrides[0].spec.containers[0].volumeMounts[0].mountPath: Required value",
                kBlocked}));
}

TEST(Schema, TrainerEnvNameRequired) {
  EXPECT_EQ(Check("job", "  trainer: {env: [{value: x}]}\n"),
            (std::vector<std::string>{"spec.trainer.env[0].name: Required value", kBlocked}));
}

TEST(Schema, DuplicateListMapKeysJsonStyle) {
  EXPECT_EQ(Check("job", "  trainer: {env: [{name: A}, {name: A, value: x}, {name: B}, {name: A}]}\n"),
            std::vector<std::string>{R"(spec.trainer.env[1]: Duplicate value: {"name":"A"})"});
}

TEST(Schema, DuplicateListMapKeysGoSyntaxStyle) {
  ValidateOptions options = V21Options();
  options.duplicate_style = DuplicateStyle::kGoSyntax;
  EXPECT_EQ(Check("job", "  trainer: {env: [{name: A}, {name: A}]}\n", options),
            std::vector<std::string>{R"(spec.trainer.env[1]: Duplicate value: map[string]interface {}{"name":"A"})"});
}

TEST(Schema, DuplicateOverrideEntries) {
  EXPECT_EQ(Check("job", R"(  initializer:
    dataset: {env: [{name: D}, {name: D}]}
  podTemplateOverrides:
  - targetJobs: [{name: node}]
    spec:
      volumes: [{name: v, emptyDir: {}}, {name: v, emptyDir: {}}]
      containers:
      - name: c
        volumeMounts: [{name: m, mountPath: /a}, {name: m, mountPath: /b}]
      - name: c
      imagePullSecrets: [{name: s}, {name: s}]
)"),
            (std::vector<std::string>{
                R"(spec.initializer.dataset.env[1]: Duplicate value: {"name":"D"})",
                R"(spec.podTemplateOverrides[0].spec.volumes[1]: Duplicate value: {"name":"v"})",
                R"(spec.podTemplateOverrides[0].spec.containers[1]: Duplicate value: {"name":"c"})",
                R"(spec.podTemplateOverrides[0].spec.containers[0].volumeMounts[1]: Duplicate value: {"name":"m"})",
                R"(spec.podTemplateOverrides[0].spec.imagePullSecrets[1]: Duplicate value: {"name":"s"})"}));
}

TEST(Schema, SchemaErrorsStopBeforeTheWebhookAndFormatAs422) {
  const doc::Node trainjob = Yaml(TrainJob("1job", std::string(kRef)));
  const doc::Node runtime = Yaml("kind: ClusterTrainingRuntime\nmetadata: {name: rt}\nspec: {}\n");
  const Diagnostics found = ValidateTrainJob(trainjob, &runtime);
  EXPECT_EQ(ApiServerInvalid(found, "1job"),
            R"(TrainJob.trainer.kubeflow.org "1job" is invalid: <nil>: Invalid value: "object": metadata.name must )"
            "match RFC 1035 DNS label format");
}

}  // namespace
}  // namespace tjr::validate

namespace tjr::validate {
namespace {

// A kustomize strategic-merge patch of a TrainJob: no runtimeRef (nothing is
// required of a patch), its fields typed by the release's CRD, the merge's
// directives and `null` deletions no fields.
TEST(PatchTypes, APatchGetsTheTypesAndNothingIsRequired) {
  const char patch[] =
      "apiVersion: trainer.kubeflow.org/v1alpha1\n"
      "kind: TrainJob\n"
      "metadata:\n"
      "  name: job\n"
      "spec:\n"
      "  trainer:\n"
      "    $patch: replace\n"
      "    numNodes: four\n"
      "    image: null\n"
      "    env:\n"
      "    - $patch: delete\n"
      "    - name: A\n"
      "      value: 1\n";
  for (trainer::TrainerVersion version : {trainer::TrainerVersion::kV2_1, trainer::TrainerVersion::kV2_3}) {
    Diagnostics found = ValidateTrainJobPatchTypes(Yaml(patch), version);
    EXPECT_EQ(Messages(found),
              (std::vector<std::string>{
                  R"(spec.trainer.numNodes: Invalid value: "string": spec.trainer.numNodes in body must be of type integer: "string")",
                  R"(spec.trainer.env[0].value: Invalid value: "integer": spec.trainer.env[0].value in body must be of type string: "integer")"}));
    ASSERT_EQ(found.size(), 2u);
    EXPECT_EQ(LineCol(found[0]), "8:15");
  }
  EXPECT_TRUE(ValidateTrainJobPatchTypes(Yaml("apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\n"
                                              "metadata: {name: job}\nspec:\n  trainer: {numNodes: 4}\n"),
                                         trainer::TrainerVersion::kV2_3)
                  .empty());
}

}  // namespace
}  // namespace tjr::validate
