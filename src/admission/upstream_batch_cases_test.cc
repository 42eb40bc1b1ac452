// Cases transcribed from upstream tests the authors' tests do not cover:
// TestValidateJob and TestSetDefaultJob (kubernetes), TestValidateCreate and
// TestJobSetDefaulting (JobSet at each tag), TestValidateConfigMap; each
// section names its source. First, kubernetes pkg/apis/batch/validation/
// validation_test.go TestValidateJob (the errorCases map, at the revision
// the index stores: v1.31-era, older than v1.34's field.TooLong text), built as upstream builds them: a Job
// "myjob" of UID 1a2b3c with upstream's validGeneratedSelector (the four
// controller-uid / job-name labels) or validManualSelector, and a pod
// template as podtest.MakePod and MakeContainer write it (whose defaults
// DefaultPodTemplateSpec stands in for). No Job defaulting: upstream
// validates the object as written. Each key is upstream's map key
// "<field>: <substring>"; as upstream's loop does, the first error's field
// path must equal <field> and its Error() must contain <substring>.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "admission/job.h"
#include "admission/jobset.h"
#include "admission/jobset_parts.h"
#include "admission/other_objects.h"
#include "admission/pod_defaults.h"
#include "doc/path.h"
#include "yaml/reader.h"

namespace tjr::admission {
namespace {

constexpr std::string_view kGenerated =
    "{batch.kubernetes.io/controller-uid: \"1a2b3c\", controller-uid: \"1a2b3c\", "
    "batch.kubernetes.io/job-name: myjob, job-name: myjob}";
constexpr std::string_view kManual = "{a: b}";

// The Job upstream's case writes.
struct Shape {
  std::string spec;                          // spec fields, indented by two
  std::string restart = "OnFailure";         // validPodTemplateSpecForGenerated
  std::string selector{kGenerated};          // matchLabels; "" for none
  std::string labels{kGenerated};            // the template's labels
  bool manual = false;                       // manualSelector: true
  bool init_container = true;                // MakeContainer("def") as init
  std::string uid = "1a2b3c";
};

Shape Never(std::string spec) {  // validPodTemplateSpecForGeneratedRestartPolicyNever
  Shape shape;
  shape.spec = std::move(spec);
  shape.restart = "Never";
  return shape;
}

Shape OnFailure(std::string spec) {
  Shape shape;
  shape.spec = std::move(spec);
  return shape;
}

// validManualSelector with a template of the given labels (podtest.MakePod
// without init containers, as getValidPodTemplateSpecForManual).
Shape Manual(std::string labels, std::string restart = "OnFailure") {
  Shape shape;
  shape.manual = true;
  shape.selector = std::string(kManual);
  shape.labels = std::move(labels);
  shape.restart = std::move(restart);
  shape.init_container = false;
  return shape;
}

std::string JobText(const Shape& shape) {
  std::string text = "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: myjob\n  namespace: default\n";
  if (!shape.uid.empty()) text += "  uid: \"" + shape.uid + "\"\n";
  text += "spec:\n" + shape.spec;
  if (shape.manual) text += "  manualSelector: true\n";
  if (!shape.selector.empty()) text += "  selector:\n    matchLabels: " + shape.selector + "\n";
  text += "  template:\n    metadata:\n      labels: " + shape.labels + "\n    spec:\n      restartPolicy: " +
          shape.restart + "\n      dnsPolicy: ClusterFirst\n      containers:\n"
          "      - {name: abc, image: image, imagePullPolicy: IfNotPresent, terminationMessagePolicy: File}\n";
  if (shape.init_container) {
    text += "      initContainers:\n"
            "      - {name: def, image: image, imagePullPolicy: IfNotPresent, terminationMessagePolicy: File}\n";
  }
  return text;
}

std::vector<validate::FieldError> Validate(const Shape& shape) {
  Result<std::vector<doc::Node>> read = yaml::ReadStream(JobText(shape), "job.yaml");
  EXPECT_TRUE(read.ok() && !read->empty());
  if (!read.ok() || read->empty()) return {};
  doc::Node job = read->front();
  doc::Node* template_spec = job.FindMutable("spec")->FindMutable("template")->FindMutable("spec");
  DefaultPodTemplateSpec(template_spec);
  ObjectErrors errors;
  ValidateJob(job, *KubernetesRulesOf("1.34"), &errors);
  std::vector<validate::FieldError> out;
  for (const ObjectError& error : errors.errors()) out.push_back(error.error);
  return out;
}

// Upstream's check: strings.SplitN(key, ":", 2); errs[0].Field == s[0] and
// strings.Contains(errs[0].Error(), s[1]).
void ExpectFirstError(const std::string& key, const Shape& shape) {
  SCOPED_TRACE(key);
  const std::size_t colon = key.find(':');
  ASSERT_NE(colon, std::string::npos);
  const std::string field = key.substr(0, colon);
  const std::string detail = key.substr(colon + 1);
  const std::vector<validate::FieldError> errors = Validate(shape);
  ASSERT_FALSE(errors.empty()) << "expected failure";
  std::string all;
  for (const validate::FieldError& error : errors) all += "\n  " + error.Error();
  EXPECT_EQ(errors[0].field, field) << "got:" << all;
  EXPECT_NE(errors[0].Error().find(detail), std::string::npos) << "got:" << all;
}

std::string Repeat(std::string_view text, int times) {
  std::string out;
  for (int i = 0; i < times; ++i) out += text;
  return out;
}

TEST(UpstreamTestValidateJob, ValidCasesStayValid) {
  // successCases "valid generated selector" and "valid manual selector".
  EXPECT_TRUE(Validate(OnFailure("")).empty());
  EXPECT_TRUE(Validate(Manual(std::string(kManual))).empty());
}

TEST(UpstreamTestValidateJob, ManagedBy) {
  // Upstream's key reads "Too long: may not be longer than 63": the stored
  // test predates apimachinery's unified field.TooLong text (v0.32+, so at
  // v1.34: "may not be more than %d bytes"), which is what v1.34 prints.
  ExpectFirstError("spec.managedBy: Too long: may not be more than 63 bytes",
                   OnFailure("  managedBy: example.com/" + std::string(60, 'x') + "\n"));
  ExpectFirstError(
      "spec.managedBy: Invalid value: \"invalid custom controller name\": must be a domain-prefixed path (such as "
      "\"acme.io/foo\")",
      OnFailure("  managedBy: invalid custom controller name\n"));
}

TEST(UpstreamTestValidateJob, SuccessPolicy) {
  const std::string indexed = "  completionMode: Indexed\n  completions: 5\n";
  ExpectFirstError(
      "spec.successPolicy: Invalid value: batch.SuccessPolicy{Rules:[]batch.SuccessPolicyRule{}}: requires indexed "
      "completion mode",
      Never("  successPolicy:\n    rules: []\n"));
  ExpectFirstError(
      "spec.successPolicy.rules: Required value: at least one rules must be specified when the successPolicy is "
      "specified",
      Never(indexed + "  successPolicy: {}\n"));
  ExpectFirstError(
      "spec.successPolicy.rules[0]: Required value: at least one of succeededCount or succeededIndexes must be "
      "specified",
      Never(indexed + "  successPolicy:\n    rules:\n    - {}\n"));
  ExpectFirstError(
      "spec.successPolicy.rules[0].succeededIndexes: Invalid value: \"invalid-format\": error parsing "
      "succeededIndexes: cannot convert string to integer for index: \"invalid\"",
      Never(indexed + "  successPolicy:\n    rules:\n    - succeededIndexes: invalid-format\n"));
  // Upstream's key: "Too long: must have at most 65536 bytes", the pre-v0.32
  // field.TooLong text (see ManagedBy).
  ExpectFirstError("spec.successPolicy.rules[0].succeededIndexes: Too long: may not be more than 65536 bytes",
                   Never(indexed + "  successPolicy:\n    rules:\n    - succeededIndexes: \"" +
                         std::string(65537, '1') + "\"\n"));
  ExpectFirstError("spec.successPolicy.rules[0].succeededCount: must be greater than or equal to 0",
                   Never(indexed + "  successPolicy:\n    rules:\n    - succeededCount: -1\n"));
  ExpectFirstError(
      "spec.successPolicy.rules[0].succeededCount: Invalid value: 6: must be less than or equal to 5 (the number of "
      "specified completions)",
      Never(indexed + "  successPolicy:\n    rules:\n    - succeededCount: 6\n"));
  ExpectFirstError(
      "spec.successPolicy.rules[0].succeededCount: Invalid value: 4: must be less than or equal to 3 (the number of "
      "indexes in the specified succeededIndexes field)",
      Never(indexed + "  successPolicy:\n    rules:\n    - succeededCount: 4\n      succeededIndexes: \"0-2\"\n"));
  ExpectFirstError("spec.successPolicy.rules: Too many: 21: must have at most 20 items",
                   Never(indexed + "  successPolicy:\n    rules:\n" + Repeat("    - succeededCount: 5\n", 21)));
}

std::string Policy(std::string_view rules) { return "  podFailurePolicy:\n    rules:\n" + std::string(rules); }

TEST(UpstreamTestValidateJob, PodFailurePolicyShape) {
  ExpectFirstError(
      "spec.podFailurePolicy.rules[0]: Invalid value: specifying one of OnExitCodes and OnPodConditions is required",
      Never(Policy("    - action: FailJob\n")));
  ExpectFirstError("spec.podFailurePolicy.rules[0].onExitCodes.values[1]: Duplicate value: 11",
                   Never(Policy("    - action: FailJob\n      onExitCodes: {operator: In, values: [11, 11]}\n")));
  std::string many_values;
  for (int i = 0; i <= 255; ++i) many_values += (i == 0 ? "" : ", ") + std::to_string(i);
  ExpectFirstError("spec.podFailurePolicy.rules[0].onExitCodes.values: Too many: 256: must have at most 255 items",
                   Never(Policy("    - action: FailJob\n      onExitCodes: {operator: In, values: [" + many_values +
                                "]}\n")));
  std::string many_rules;
  for (int i = 0; i < 21; ++i) {
    many_rules += "    - action: FailJob\n      onExitCodes: {operator: In, values: [" + std::to_string(i + 1) + "]}\n";
  }
  ExpectFirstError("spec.podFailurePolicy.rules: Too many: 21: must have at most 20 items", Never(Policy(many_rules)));
  std::string many_patterns = "    - action: FailJob\n      onPodConditions:\n";
  for (int i = 0; i < 21; ++i) many_patterns += "      - {type: CustomType_" + std::to_string(i) + ", status: \"True\"}\n";
  ExpectFirstError("spec.podFailurePolicy.rules[0].onPodConditions: Too many: 21: must have at most 20 items",
                   Never(Policy(many_patterns)));
  ExpectFirstError("spec.podFailurePolicy.rules[0].onExitCodes.values[2]: Duplicate value: 13",
                   Never(Policy("    - action: FailJob\n      onExitCodes: {operator: In, values: [12, 13, 13, 13]}\n")));
  ExpectFirstError(
      "spec.podFailurePolicy.rules[0].onExitCodes.values: Invalid value: []int32{19, 11}: must be ordered",
      Never(Policy("    - action: FailJob\n      onExitCodes: {operator: In, values: [19, 11]}\n")));
  ExpectFirstError(
      "spec.podFailurePolicy.rules[0].onExitCodes.values: Invalid value: []int32{}: at least one value is required",
      Never(Policy("    - action: FailJob\n      onExitCodes: {operator: In, values: []}\n")));
  ExpectFirstError(
      "spec.podFailurePolicy.rules[0].action: Required value: valid values: [\"Count\" \"FailIndex\" \"FailJob\" "
      "\"Ignore\"]",
      Never(Policy("    - action: \"\"\n      onExitCodes: {operator: In, values: [1, 2, 3]}\n")));
  ExpectFirstError("spec.podFailurePolicy.rules[0].onExitCodes.operator: Required value: valid values: [\"In\" "
                   "\"NotIn\"]",
                   Never(Policy("    - action: FailJob\n      onExitCodes: {operator: \"\", values: [1, 2, 3]}\n")));
  ExpectFirstError(
      "spec.podFailurePolicy.rules[0]: Invalid value: specifying both OnExitCodes and OnPodConditions is not "
      "supported",
      Never(Policy("    - action: FailJob\n      onExitCodes: {containerName: abc, operator: In, values: [1, 2, 3]}\n"
                   "      onPodConditions: [{type: DisruptionTarget, status: \"True\"}]\n")));
}

TEST(UpstreamTestValidateJob, PodFailurePolicyValues) {
  ExpectFirstError(
      "spec.podFailurePolicy.rules[0].onExitCodes.values[1]: Invalid value: 0: must not be 0 for the In operator",
      Never(Policy("    - action: Ignore\n      onExitCodes: {operator: In, values: [1, 0, 2]}\n")));
  ExpectFirstError(
      "spec.podFailurePolicy.rules[1].onExitCodes.containerName: Invalid value: \"xyz\": must be one of the container "
      "or initContainer names in the pod template",
      Never(Policy("    - action: Ignore\n      onExitCodes: {containerName: abc, operator: In, values: [1, 2, 3]}\n"
                   "    - action: FailJob\n      onExitCodes: {containerName: xyz, operator: In, values: [5, 6, 7]}\n")));
  ExpectFirstError(
      "spec.podFailurePolicy.rules[0].action: Unsupported value: \"UnknownAction\": supported values: \"Count\", "
      "\"FailIndex\", \"FailJob\", \"Ignore\"",
      Never(Policy("    - action: UnknownAction\n      onExitCodes: {containerName: abc, operator: In, values: [1, 2, "
                   "3]}\n")));
  ExpectFirstError(
      "spec.podFailurePolicy.rules[0].onExitCodes.operator: Unsupported value: \"UnknownOperator\": supported values: "
      "\"In\", \"NotIn\"",
      Never(Policy("    - action: Ignore\n      onExitCodes: {operator: UnknownOperator, values: [1, 2, 3]}\n")));
}

TEST(UpstreamTestValidateJob, PodFailurePolicyConditions) {
  // Upstream validates the pattern as written: no SetDefaults_ gives the
  // unset status its True here.
  ExpectFirstError(
      "spec.podFailurePolicy.rules[0].onPodConditions[0].status: Required value: valid values: [\"False\" \"True\" "
      "\"Unknown\"]",
      Never(Policy("    - action: Ignore\n      onPodConditions: [{type: DisruptionTarget}]\n")));
  ExpectFirstError(
      "spec.podFailurePolicy.rules[0].onPodConditions[0].status: Unsupported value: \"UnknownStatus\": supported "
      "values: \"False\", \"True\", \"Unknown\"",
      Never(Policy("    - action: Ignore\n      onPodConditions: [{type: DisruptionTarget, status: UnknownStatus}]\n")));
  ExpectFirstError("spec.podFailurePolicy.rules[0].onPodConditions[0].type: Invalid value: \"\": name part must be "
                   "non-empty",
                   Never(Policy("    - action: Ignore\n      onPodConditions: [{status: \"True\"}]\n")));
  ExpectFirstError(
      "spec.podFailurePolicy.rules[0].onPodConditions[0].type: Invalid value: \"Invalid Condition Type\": name part "
      "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric "
      "character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is "
      "'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
      Never(Policy("    - action: Ignore\n      onPodConditions: [{type: Invalid Condition Type, status: \"True\"}]\n")));
}

TEST(UpstreamTestValidateJob, PodReplacementAndRestartPolicy) {
  ExpectFirstError("spec.podReplacementPolicy: Unsupported value: \"TerminatingOrFailed\": supported values: \"Failed\"",
                   Never("  podReplacementPolicy: TerminatingOrFailed\n" +
                         Policy("    - action: Ignore\n      onPodConditions: [{type: DisruptionTarget, status: "
                                "\"True\"}]\n")));
  ExpectFirstError("spec.podReplacementPolicy: Unsupported value: \"\": supported values: \"Failed\", "
                   "\"TerminatingOrFailed\"",
                   Never("  podReplacementPolicy: \"\"\n"));
  ExpectFirstError("spec.template.spec.restartPolicy: Invalid value: \"OnFailure\": only \"Never\" is supported when "
                   "podFailurePolicy is specified",
                   [] {
                     Shape shape = OnFailure("  podFailurePolicy:\n    rules: []\n");
                     shape.init_container = false;
                     return shape;
                   }());
  ExpectFirstError("spec.template.spec.restartPolicy: Required value", Manual(std::string(kManual), "Always"));
  ExpectFirstError("spec.template.spec.restartPolicy: Unsupported value", Manual(std::string(kManual), "Invalid"));
}

TEST(UpstreamTestValidateJob, Counts) {
  const std::string per_index = "  backoffLimitPerIndex: 1\n  completionMode: Indexed\n";
  ExpectFirstError("spec.parallelism:must be greater than or equal to 0", OnFailure("  parallelism: -1\n"));
  ExpectFirstError("spec.backoffLimit:must be greater than or equal to 0", OnFailure("  backoffLimit: -1\n"));
  ExpectFirstError("spec.backoffLimitPerIndex: Invalid value: 1: requires indexed completion mode",
                   OnFailure("  backoffLimitPerIndex: 1\n"));
  ExpectFirstError("spec.backoffLimitPerIndex:must be greater than or equal to 0",
                   OnFailure("  backoffLimitPerIndex: -1\n  completionMode: Indexed\n"));
  ExpectFirstError("spec.maxFailedIndexes: Invalid value: 11: must be less than or equal to completions",
                   OnFailure("  completions: 10\n  maxFailedIndexes: 11\n" + per_index));
  ExpectFirstError("spec.maxFailedIndexes: Required value: must be specified when completions is above 100000",
                   OnFailure("  completions: 100001\n" + per_index));
  ExpectFirstError("spec.parallelism: Invalid value: 50000: must be less than or equal to 10000 when completions are "
                   "above 100000 and used with backoff limit per index",
                   OnFailure("  completions: 100001\n  parallelism: 50000\n  maxFailedIndexes: 1\n" + per_index));
  ExpectFirstError("spec.maxFailedIndexes: Invalid value: 100001: must be less than or equal to 100000",
                   OnFailure("  completions: 100001\n  maxFailedIndexes: 100001\n" + per_index));
  ExpectFirstError("spec.maxFailedIndexes: Invalid value: 50000: must be less than or equal to 10000 when completions "
                   "are above 100000 and used with backoff limit per index",
                   OnFailure("  completions: 100001\n  maxFailedIndexes: 50000\n" + per_index));
  ExpectFirstError("spec.maxFailedIndexes:must be greater than or equal to 0",
                   OnFailure("  maxFailedIndexes: -1\n" + per_index));
  ExpectFirstError("spec.backoffLimitPerIndex: Required value: when maxFailedIndexes is specified",
                   OnFailure("  maxFailedIndexes: 1\n  completionMode: Indexed\n"));
  ExpectFirstError("spec.completions:must be greater than or equal to 0", OnFailure("  completions: -1\n"));
  ExpectFirstError("spec.activeDeadlineSeconds:must be greater than or equal to 0",
                   OnFailure("  activeDeadlineSeconds: -1\n"));
  ExpectFirstError("spec.ttlSecondsAfterFinished: must be greater than or equal to 0",
                   OnFailure("  ttlSecondsAfterFinished: -1\n"));
  ExpectFirstError("spec.completions: Required value: when completion mode is Indexed",
                   OnFailure("  completionMode: Indexed\n"));
  ExpectFirstError("spec.parallelism: must be less than or equal to 100000 when completion mode is Indexed",
                   OnFailure("  completionMode: Indexed\n  completions: 2\n  parallelism: 100001\n"));
}

TEST(UpstreamTestValidateJob, Selector) {
  Shape no_selector = OnFailure("");
  no_selector.selector.clear();
  ExpectFirstError("spec.selector:Required value", no_selector);
  ExpectFirstError("spec.template.metadata.labels: Invalid value: map[string]string{\"y\":\"z\"}: `selector` does not "
                   "match template `labels`",
                   Manual("{\"y\": z}"));
  ExpectFirstError("spec.template.metadata.labels: Invalid value: map[string]string{\"controller-uid\":\"4d5e6f\"}: "
                   "`selector` does not match template `labels`",
                   Manual("{controller-uid: \"4d5e6f\"}"));
  // "spec.template.metadata.labels[controller-uid]: Required value: must be
  // '1a2b3c'" (opts {}: upstream's legacy label is checked first either way).
  Shape legacy_only = OnFailure("");
  legacy_only.selector = "{controller-uid: \"1a2b3c\"}";
  legacy_only.labels = "{job-name: myjob}";
  ExpectFirstError("spec.template.metadata.labels[controller-uid]: Required value: must be '1a2b3c'", legacy_only);
  Shape no_uid = legacy_only;
  no_uid.uid.clear();
  no_uid.selector = "{controller-uid: test}";
  ExpectFirstError("metadata.uid: Required value", no_uid);
  Shape not_generated = OnFailure("");
  not_generated.selector = "{a: b}";
  ExpectFirstError("spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{\"a\":\"b\"}, "
                   "MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: `selector` not auto-generated",
                   not_generated);
  Shape prefixed_missing = OnFailure("");
  prefixed_missing.selector = "{batch.kubernetes.io/controller-uid: \"1a2b3c\"}";
  prefixed_missing.labels = "{batch.kubernetes.io/job-name: myjob, controller-uid: \"1a2b3c\", job-name: myjob}";
  ExpectFirstError("spec.template.metadata.labels[batch.kubernetes.io/controller-uid]: Required value: must be "
                   "'1a2b3c'",
                   prefixed_missing);
}

// ---------------------------------------------------------------------------
// JobSet pkg/webhooks/jobset_webhook_test.go TestValidateCreate cases the
// authors' jobset_test.cc does not cover, at the tags that have them. Like
// upstream, ValidateCreate alone (no Default), and every line of `want`
// must occur in the answer (assert.Contains); errors.Join() means none.

std::string JobSetAnswer(std::string_view yaml, std::string_view release) {
  Result<std::vector<doc::Node>> read = yaml::ReadStream(yaml, "jobset.yaml");
  EXPECT_TRUE(read.ok() && !read->empty());
  if (!read.ok() || read->empty()) return "<unreadable>";
  ObjectErrors errors;
  jobset_parts::ValidateCreate(read->front(), *JobSetRulesOf(release), &errors);
  std::string out;
  for (const ObjectError& error : errors.errors()) {
    if (!out.empty()) out += "\n";
    out += error.text.empty() ? error.error.Error() : error.text;
  }
  return out;
}

void ExpectContains(std::string_view yaml, std::string_view release, const std::string& want) {
  SCOPED_TRACE(std::string(release) + ": " + want);
  EXPECT_NE(JobSetAnswer(yaml, release).find(want), std::string::npos) << JobSetAnswer(yaml, release);
}

// A replicatedJob "rj" of an Indexed job of one pod without a pod template
// (as upstream's coordinator and RestartJob cases write it).
std::string IndexedRj(std::string_view name, std::string_view spec_extra, std::string_view job = "rj") {
  return "metadata: {name: " + std::string(name) + "}\nspec:\n  successPolicy: {}\n" + std::string(spec_extra) +
         "  replicatedJobs:\n  - name: " + std::string(job) +
         "\n    groupName: default\n    replicas: 1\n"
         "    template: {spec: {completionMode: Indexed, completions: 1, parallelism: 1}}\n";
}

constexpr std::string_view kPodTemplate = "{spec: {containers: [{name: test, image: 'bash:latest'}]}}";

TEST(UpstreamTestValidateCreate, ControllerNameIsUnset) {
  // "jobset controller name is unset"
  for (std::string_view release : {"v0.10.1", "v0.11.0", "v0.12.0"}) {
    EXPECT_EQ(JobSetAnswer(IndexedRj("js", ""), release), "") << release;
  }
}

TEST(UpstreamTestValidateCreate, CoordinatorLabelValue) {
  // "coordinator label value is too long due to long ReplicatedJob name"
  const std::string long_job(60, 'a');
  const std::string by_job =
      IndexedRj("jobset", "  coordinator: {replicatedJob: " + long_job + ", jobIndex: 0, podIndex: 0}\n", long_job);
  // "coordinator label value is too long due to long SubDomain"
  const std::string by_subdomain =
      IndexedRj("jobset",
                "  network: {subdomain: " + std::string(60, 'a') +
                    "}\n  coordinator: {replicatedJob: replicatedjob-a, jobIndex: 0, podIndex: 0}\n",
                "replicatedjob-a");
  for (std::string_view release : {"v0.11.0", "v0.12.0"}) {
    ExpectContains(by_job, release, "spec will lead to invalid label value");
    ExpectContains(by_subdomain, release, "spec will lead to invalid label value");
  }
}

TEST(UpstreamTestValidateCreate, RestartJobAndIgnoreMaxRestartsNeedsTheGate) {
  // "jobset failure policy rule has RestartJobAndIgnoreMaxRestarts action
  // and RestartJob feature gate is disabled" (v0.12.0 only).
  ExpectContains(IndexedRj("js", "  failurePolicy: {rules: [{action: RestartJobAndIgnoreMaxRestarts, name: "
                                 "restartJobAndIgnoreMaxRestartsRule}]}\n"),
                 "v0.12.0",
                 "RestartJob and RestartJobAndIgnoreMaxRestarts failure policy actions are not allowed when RestartJob "
                 "feature gate is disabled");
}

// Three replicatedJobs job-1..3 with the given dependsOn lists.
std::string ThreeJobs(std::string_view on2, std::string_view on3) {
  std::string yaml = "metadata: {name: js}\nspec:\n  successPolicy: {}\n  replicatedJobs:\n";
  const std::string_view depends[] = {"", on2, on3};
  for (int i = 0; i < 3; ++i) {
    yaml += "  - {name: job-" + std::to_string(i + 1) + ", groupName: default, replicas: 1, template: {spec: "
            "{template: " + std::string(kPodTemplate) + "}}";
    if (!depends[i].empty()) yaml += ", dependsOn: " + std::string(depends[i]);
    yaml += "}\n";
  }
  return yaml;
}

TEST(UpstreamTestValidateCreate, DependsOn) {
  for (std::string_view release : {"v0.10.1", "v0.11.0", "v0.12.0"}) {
    SCOPED_TRACE(release);
    // "DependsOn is valid since job-2 depends on job-1 and job-3 depends on job-1"
    EXPECT_EQ(JobSetAnswer(ThreeJobs("[{name: job-1, status: Ready}]", "[{name: job-1, status: Ready}]"), release),
              "");
    // "DependsOn is valid since job-2 depends on job-1 and job-3 depends on job-2"
    EXPECT_EQ(JobSetAnswer(ThreeJobs("[{name: job-1, status: Ready}]", "[{name: job-2, status: Ready}]"), release),
              "");
    // "DependsOn is valid since job-3 depends on job-1 and job-2"
    EXPECT_EQ(JobSetAnswer(ThreeJobs("[{name: job-1, status: Ready}]",
                                     "[{name: job-1, status: Complete}, {name: job-2, status: Complete}]"),
                           release),
              "");
    // "DependsOn is invalid since job-2 depends on job-3 and job-1"
    ExpectContains(ThreeJobs("[{name: job-1, status: Complete}, {name: job-3, status: Complete}]",
                             "[{name: job-1, status: Complete}]"),
                   release, "replicatedJob: job-2 cannot depend on replicatedJob: job-3");
    // "dependsOn should not fail if there are no replicated jobs"
    EXPECT_EQ(JobSetAnswer("metadata: {name: js}\nspec:\n  successPolicy: {}\n  replicatedJobs: []\n", release), "");
  }
  // "job-2 depends on invalid ReplicatedJob" (two replicatedJobs).
  std::string two = ThreeJobs("[{name: invalid, status: Complete}]", "");
  two.erase(two.find("  - {name: job-3"));
  for (std::string_view release : {"v0.10.1", "v0.11.0", "v0.12.0"}) {
    ExpectContains(two, release, "replicatedJob: job-2 cannot depend on replicatedJob: invalid");
  }
}

std::string ClaimPolicy(std::string_view claim, std::string_view jobs) {
  return "metadata: {name: js}\nspec:\n  successPolicy: {}\n  volumeClaimPolicies:\n  - templates:\n"
         "    - metadata: {name: " + std::string(claim) +
         "}\n      spec: {accessModes: [ReadWriteMany], resources: {requests: {storage: 1Gi}}}\n"
         "    retentionPolicy: {whenDeleted: Delete}\n  replicatedJobs:\n" + std::string(jobs);
}

TEST(UpstreamTestValidateCreate, VolumeClaimPolicies) {
  // "volumeClaimPolicy is valid since volume exists in the container"
  const std::string in_container = ClaimPolicy(
      "test-volume",
      "  - {name: job-1, groupName: default, replicas: 1, template: {spec: {template: {spec: {containers: [{name: "
      "test, image: 'bash:latest', volumeMounts: [{name: test-volume, mountPath: /test/path}]}]}}}}}\n");
  // "volumeClaimPolicy is valid since volume exists in the initContainer"
  const std::string in_init = ClaimPolicy(
      "test-volume",
      "  - {name: job-1, groupName: default, replicas: 1, template: {spec: {template: " + std::string(kPodTemplate) +
          "}}}\n"
          "  - {name: job-2, groupName: default, replicas: 1, template: {spec: {template: {spec: {initContainers: "
          "[{name: test-init, image: 'bash:latest', volumeMounts: [{name: test-volume, mountPath: /test/path}]}]}}}}}"
          "\n");
  // "volumeClaimPolicy is invalid since volume name conflicts with existing volume"
  const std::string conflict = ClaimPolicy(
      "conflicting-volume",
      "  - {name: job-1, groupName: default, replicas: 1, template: {spec: {template: {spec: {containers: [{name: "
      "test, image: 'bash:latest', volumeMounts: [{name: conflicting-volume, mountPath: /test/path}]}], volumes: "
      "[{name: conflicting-volume, emptyDir: {}}]}}}}}\n");
  for (std::string_view release : {"v0.11.0", "v0.12.0"}) {
    SCOPED_TRACE(release);
    EXPECT_EQ(JobSetAnswer(in_container, release), "");
    EXPECT_EQ(JobSetAnswer(in_init, release), "");
    ExpectContains(conflict, release, "volume name conflicts with VolumeClaimPolicy template name");
  }
}

// ---------------------------------------------------------------------------
// kubernetes pkg/apis/core/validation/validation_test.go TestValidateConfigMap
// (the table of names; upstream checks only valid / invalid, so each
// refusal's text is checked against ValidateConfigMap in validation.go:
// IsConfigMapKey, MaxLenError(DNS1123SubdomainMaxLength), the duplicate
// key, and the total size against MaxSecretSize).

std::vector<std::string> ConfigMapAnswer(std::string_view name, std::string_view ns, std::string_view body) {
  std::string text = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n";
  text += "  name: \"" + std::string(name) + "\"\n  namespace: \"" + std::string(ns) + "\"\n" + std::string(body);
  Result<std::vector<doc::Node>> read = yaml::ReadStream(text, "cm.yaml");
  EXPECT_TRUE(read.ok() && !read->empty());
  if (!read.ok() || read->empty()) return {"<unreadable>"};
  ObjectErrors errors;
  ValidateConfigMap(read->front(), *KubernetesRulesOf("1.34"), &errors);
  std::vector<std::string> out;
  for (const ObjectError& error : errors.errors()) out.push_back(error.error.Error());
  return out;
}

using Texts = std::vector<std::string>;

std::vector<std::string> Cm(std::string_view body) { return ConfigMapAnswer("validname", "validns", body); }

const std::string kConfigKeyFormat =
    "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  "
    "or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')";

TEST(UpstreamTestValidateConfigMap, ValidCases) {
  EXPECT_EQ(Cm("data: {key: value}\nbinaryData: {bin: dmFsdWU=}\n"), Texts{});  // "valid"
  EXPECT_EQ(Cm("data: {" + std::string(253, 'a') + ": value}\n"), Texts{});    // "max key length"
  EXPECT_EQ(Cm("data: {.ab: value}\n"), Texts{});                              // "leading dot key"
  EXPECT_EQ(Cm("binaryData: {.ab: dmFsdWU=}\n"), Texts{});                     // "binary data leading dot key"
  EXPECT_EQ(Cm("binaryData: {key: AP4A/w==}\n"), Texts{});                     // "binary data non utf-8 bytes"
}

TEST(UpstreamTestValidateConfigMap, Metadata) {
  EXPECT_EQ(ConfigMapAnswer("", "validns", ""),  // "empty name"
            Texts{"metadata.name: Required value: name or generateName is required"});
  EXPECT_EQ(ConfigMapAnswer("NoUppercaseOrSpecialCharsLike=Equals", "validns", ""),  // "invalid name"
            Texts{"metadata.name: Invalid value: \"NoUppercaseOrSpecialCharsLike=Equals\": a lowercase RFC 1123 "
                  "subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end "
                  "with an alphanumeric character (e.g. 'example.com', regex used for validation is "
                  "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"});
  // "empty namespace" is invalid for ValidateConfigMap alone; a create
  // request fills an unset namespace from the request's before validating
  // (rest.BeforeCreate), which object_meta.cc emulates: no error here.
  EXPECT_EQ(ConfigMapAnswer("validname", "", ""), Texts{});
  EXPECT_EQ(ConfigMapAnswer("validname", "NoUppercaseOrSpecialCharsLike=Equals", ""),  // "invalid namespace"
            Texts{"metadata.namespace: Invalid value: \"NoUppercaseOrSpecialCharsLike=Equals\": a lowercase RFC 1123 "
                  "label must consist of lower case alphanumeric characters or '-', and must start and end with an "
                  "alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is "
                  "'[a-z0-9]([-a-z0-9]*[a-z0-9])?')"});
}

TEST(UpstreamTestValidateConfigMap, Keys) {
  const std::string long_key(254, 'a');
  for (std::string_view field : {"data", "binaryData"}) {
    SCOPED_TRACE(field);
    const std::string f(field);
    const std::string value = field == "data" ? "value" : "dmFsdWU=";
    // "invalid key" / "binary data invalid key"
    EXPECT_EQ(Cm(f + ": {a*b: " + value + "}\n"), Texts{f + "[a*b]: Invalid value: \"a*b\": " + kConfigKeyFormat});
    // "dot key" / "binary data dot key"
    EXPECT_EQ(Cm(f + ": {\".\": " + value + "}\n"), Texts{f + "[.]: Invalid value: \".\": must not be '.'"});
    // "double dot key" / "binary data double dot key"
    EXPECT_EQ(Cm(f + ": {\"..\": " + value + "}\n"), Texts{f + "[..]: Invalid value: \"..\": must not be '..'"});
    // "over max key length" / "binary data over max key length"
    EXPECT_EQ(Cm(f + ": {" + long_key + ": " + value + "}\n"),
              Texts{f + "[" + long_key + "]: Invalid value: \"" + long_key + "\": must be no more than 253 characters"});
  }
  // "duplicated key": reported on the data key (ValidateConfigMap checks
  // cfg.BinaryData while walking cfg.Data).
  EXPECT_EQ(Cm("data: {key: value1}\nbinaryData: {key: dmFsdWUy}\n"),
            Texts{"data[key]: Invalid value: \"key\": duplicate of key present in binaryData"});
}

TEST(UpstreamTestValidateConfigMap, OverMaxSize) {
  // "over max size": MaxSecretSize (1 MiB) + 1 bytes of data.
  EXPECT_EQ(Cm("data: {key: " + std::string(1024 * 1024 + 1, 'a') + "}\n"),
            Texts{"[]: Too long: may not be more than 1048576 bytes"});
  // "binary data max size": the same in binaryData (base64 of 1 MiB + 1 "a").
  std::string encoded;
  const std::string_view alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  const std::size_t size = 1024 * 1024 + 1;
  for (std::size_t i = 0; i < size; i += 3) {
    const std::size_t n = std::min<std::size_t>(3, size - i);
    const unsigned triple = ('a' << 16) | (n > 1 ? 'a' << 8 : 0) | (n > 2 ? 'a' : 0);
    encoded += alphabet[(triple >> 18) & 63];
    encoded += alphabet[(triple >> 12) & 63];
    encoded += n > 1 ? alphabet[(triple >> 6) & 63] : '=';
    encoded += n > 2 ? alphabet[triple & 63] : '=';
  }
  EXPECT_EQ(Cm("binaryData: {bin: " + encoded + "}\n"), Texts{"[]: Too long: may not be more than 1048576 bytes"});
}

// ---------------------------------------------------------------------------
// kubernetes pkg/apis/batch/v1/defaults_test.go TestSetDefaultJob (the
// stored revision's table): completions, parallelism, backoffLimit,
// completionMode and suspend after DefaultJob, and whether the Job took its
// template's labels (expectLabels).

struct JobDefaults {
  std::optional<std::int64_t> completions, parallelism, backoff_limit;
  std::string completion_mode;
  bool suspend = false;
  bool labels_from_template = true;
};

void ExpectDefaults(const std::string& name, std::string_view metadata_extra, std::string_view spec,
                    const JobDefaults& want) {
  SCOPED_TRACE(name);
  const std::string text = "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: myjob\n" + std::string(metadata_extra) +
                           "spec:\n" + std::string(spec) +
                           "  template:\n    metadata: {labels: {default: default}}\n"
                           "    spec: {restartPolicy: Never, containers: [{name: c, image: 'i:1'}]}\n";
  Result<std::vector<doc::Node>> read = yaml::ReadStream(text, "job.yaml");
  ASSERT_TRUE(read.ok() && !read->empty());
  doc::Node job = read->front();
  DefaultJob(&job, *KubernetesRulesOf("1.34"));
  const doc::Node* job_spec = doc::At(&job, "spec");
  auto int_at = [&](std::string_view key) -> std::optional<std::int64_t> {
    const doc::Node* node = doc::At(job_spec, key);
    if (node == nullptr || !node->is_int()) return std::nullopt;
    return node->int_value();
  };
  EXPECT_EQ(int_at("completions"), want.completions);
  EXPECT_EQ(int_at("parallelism"), want.parallelism);
  EXPECT_EQ(int_at("backoffLimit"), want.backoff_limit);
  EXPECT_EQ(doc::StringAt(job_spec, "completionMode"), want.completion_mode);
  const doc::Node* suspend = doc::At(job_spec, "suspend");
  ASSERT_NE(suspend, nullptr);
  EXPECT_EQ(suspend->bool_value(), want.suspend);
  // The generated selector adds the job-name / controller-uid labels to the
  // template after SetDefaults_Job copied them: compare the user's label.
  EXPECT_EQ(doc::StringAtPath(job, {"metadata", "labels", "default"}) == "default", want.labels_from_template);
}

TEST(UpstreamTestSetDefaultJob, Table) {
  ExpectDefaults("All unspecified -> sets all to default values", "", "", {1, 1, 6, "NonIndexed", false, true});
  ExpectDefaults("suspend set, everything else is defaulted", "", "  suspend: true\n",
                 {1, 1, 6, "NonIndexed", true, true});
  ExpectDefaults("All unspecified -> all pointers, CompletionMode are defaulted and no default labels",
                 "  labels: {mylabel: myvalue}\n", "", {1, 1, 6, "NonIndexed", false, false});
  ExpectDefaults("WQ: Parallelism explicitly 0 and completions unset -> BackoffLimit is defaulted", "",
                 "  parallelism: 0\n", {std::nullopt, 0, 6, "NonIndexed", false, true});
  ExpectDefaults("WQ: Parallelism explicitly 2 and completions unset -> BackoffLimit is defaulted", "",
                 "  parallelism: 2\n", {std::nullopt, 2, 6, "NonIndexed", false, true});
  ExpectDefaults("Completions explicitly 2 and others unset -> parallelism and BackoffLimit are defaulted", "",
                 "  completions: 2\n", {2, 1, 6, "NonIndexed", false, true});
  ExpectDefaults("BackoffLimit explicitly 5 and others unset -> parallelism and completions are defaulted", "",
                 "  backoffLimit: 5\n", {1, 1, 5, "NonIndexed", false, true});
  ExpectDefaults("All set -> no change", "",
                 "  completions: 8\n  parallelism: 9\n  backoffLimit: 10\n  completionMode: NonIndexed\n"
                 "  suspend: true\n",
                 {8, 9, 10, "NonIndexed", true, true});
  ExpectDefaults("All set, flipped -> no change", "",
                 "  completions: 11\n  parallelism: 10\n  backoffLimit: 9\n  completionMode: Indexed\n"
                 "  suspend: true\n",
                 {11, 10, 9, "Indexed", true, true});
}

// ---------------------------------------------------------------------------
// JobSet pkg/webhooks/jobset_webhook_test.go TestJobSetDefaulting cases the
// jobset tests lack, at v0.10.1, v0.11.0, v0.12.0 (the volumeClaimPolicy
// one from v0.11.0): the fields in which upstream's want differs from its
// input, after DefaultJobSet.

doc::Node DefaultedJobSet(std::string_view spec_extra, std::string_view release) {
  const std::string text = "metadata: {name: js}\nspec:\n" + std::string(spec_extra) +
                           "  replicatedJobs:\n  - template: {spec: {completionMode: Indexed, template: "
                           "{spec: {restartPolicy: Always, containers: [{name: c, image: 'i:1'}]}}}}\n";
  Result<std::vector<doc::Node>> read = yaml::ReadStream(text, "jobset.yaml");
  EXPECT_TRUE(read.ok() && !read->empty());
  if (!read.ok() || read->empty()) return doc::Node();
  doc::Node jobset = read->front();
  DefaultJobSet(&jobset, *JobSetRulesOf(release));
  return jobset;
}

TEST(UpstreamTestJobSetDefaulting, Cases) {
  for (std::string_view release : {"v0.10.1", "v0.11.0", "v0.12.0"}) {
    SCOPED_TRACE(release);
    // "PublishNotReadyNetworkAddresess is true"
    doc::Node js = DefaultedJobSet("  network: {enableDNSHostnames: false, publishNotReadyAddresses: true}\n", release);
    EXPECT_FALSE(doc::AtPath(&js, {"spec", "network", "enableDNSHostnames"})->bool_value());
    EXPECT_TRUE(doc::AtPath(&js, {"spec", "network", "publishNotReadyAddresses"})->bool_value());
    // "success policy operator set, replicatedJobNames unset"
    js = DefaultedJobSet("  successPolicy: {operator: Any}\n", release);
    EXPECT_EQ(doc::StringAtPath(js, {"spec", "successPolicy", "operator"}), "Any");
    EXPECT_EQ(doc::AtPath(&js, {"spec", "successPolicy", "targetReplicatedJobs"}), nullptr);
    // "startup policy order InOrder set"
    js = DefaultedJobSet("  startupPolicy: {startupPolicyOrder: InOrder}\n", release);
    EXPECT_EQ(doc::StringAtPath(js, {"spec", "startupPolicy", "startupPolicyOrder"}), "InOrder");
    // "pod restart policy set": Always is kept.
    EXPECT_EQ(doc::StringAtPath(doc::Items(doc::AtPath(&js, {"spec", "replicatedJobs"}))[0],
                                {"template", "spec", "template", "spec", "restartPolicy"}),
              "Always");
    // "managedBy field is left nil"
    js = DefaultedJobSet("", release);
    EXPECT_EQ(doc::AtPath(&js, {"spec", "managedBy"}), nullptr);
    // "when provided, managedBy field is preserved"
    js = DefaultedJobSet("  managedBy: other-controller\n", release);
    EXPECT_EQ(doc::StringAtPath(js, {"spec", "managedBy"}), "other-controller");
    // "failure policy rule name is defaulted when: there is one rule and it
    // does not have a name"
    js = DefaultedJobSet("  failurePolicy: {rules: [{action: FailJobSet}]}\n", release);
    const std::vector<doc::Node>& rules = doc::Items(doc::AtPath(&js, {"spec", "failurePolicy", "rules"}));
    ASSERT_EQ(rules.size(), 1u);
    EXPECT_EQ(doc::StringAt(&rules[0], "name"), "failurePolicyRule0");
  }
  // "volumeClaimPolicy retentionPolicy is defaulted to Delete when nil"
  for (std::string_view release : {"v0.11.0", "v0.12.0"}) {
    SCOPED_TRACE(release);
    doc::Node js = DefaultedJobSet("  volumeClaimPolicies: [{templates: [{metadata: {name: test-volume}}]}]\n", release);
    const std::vector<doc::Node>& policies = doc::Items(doc::AtPath(&js, {"spec", "volumeClaimPolicies"}));
    ASSERT_EQ(policies.size(), 1u);
    EXPECT_EQ(doc::StringAtPath(policies[0], {"retentionPolicy", "whenDeleted"}), "Delete");
  }
}

// ---------------------------------------------------------------------------
// JobSet test/integration/webhook/jobset_webhook_test.go entries whose
// create must fail (jobSetCreationShouldFail: the API server's whole
// admission, so DefaultJobSet, the CRD and the webhook) or succeed, at the
// tags that have them. Upstream checks only the refusal; the texts below
// are the CRD's and the webhook's at the tag.

std::string Admitted(std::string_view yaml, std::string_view release) {
  Result<std::vector<doc::Node>> read = yaml::ReadStream(yaml, "jobset.yaml");
  EXPECT_TRUE(read.ok() && !read->empty());
  if (!read.ok() || read->empty()) return "<unreadable>";
  doc::Node jobset = read->front();
  DefaultJobSet(&jobset, *JobSetRulesOf(release));
  ObjectErrors errors;
  ValidateJobSet(jobset, *JobSetRulesOf(release), &errors);
  std::string out;
  for (const ObjectError& error : errors.errors()) {
    if (!out.empty()) out += "\n";
    out += error.text.empty() ? error.error.Error() : error.text;
  }
  return out;
}

// testing.MakeReplicatedJob(name) with MakeJobTemplate("job", ns) and
// TestPodSpec.
std::string TestingRj(std::string_view name, std::string_view extra = "") {
  return "  - name: " + std::string(name) + "\n    replicas: 1\n" + std::string(extra) +
         "    template:\n      metadata: {name: job, namespace: ns}\n      spec:\n        template:\n"
         "          spec: {restartPolicy: Never, containers: [{name: test-container, image: 'busybox:latest'}]}\n";
}

std::string TestingJobSet(std::string_view name, std::string_view spec_extra, std::string_view jobs) {
  return "metadata: {name: " + std::string(name) + ", namespace: ns}\nspec:\n" + std::string(spec_extra) +
         (jobs.empty() ? std::string() : "  replicatedJobs:\n" + std::string(jobs));
}

TEST(UpstreamJobSetWebhookIntegration, CreateRefusals) {
  for (std::string_view release : {"v0.10.1", "v0.11.0", "v0.12.0"}) {
    SCOPED_TRACE(release);
    // "success policy with invalid replicatedJob name is rejected"
    EXPECT_NE(Admitted(TestingJobSet("success-policy",
                                     "  network: {enableDNSHostnames: true}\n  successPolicy: {operator: All, "
                                     "targetReplicatedJobs: [does-not-exist]}\n",
                                     TestingRj("rjob")),
                       release)
                  .find("invalid replicatedJob name 'does-not-exist' does not appear in .spec.ReplicatedJobs"),
              std::string::npos);
    // "DependsOn and StartupPolicy: InOrder can't be set together"
    EXPECT_NE(Admitted(TestingJobSet("depends-on", "  startupPolicy: {startupPolicyOrder: InOrder}\n",
                                     TestingRj("rjob-1") +
                                         TestingRj("rjob-2", "    dependsOn: [{name: rjob-1, status: Ready}]\n")),
                       release)
                  .find("spec: Invalid value: \"object\": StartupPolicy and DependsOn APIs are mutually exclusive"),
              std::string::npos);
    // "DependsOn can't be set for the first ReplicatedJob"
    EXPECT_NE(Admitted(TestingJobSet("depends-on", "",
                                     TestingRj("rjob-1", "    dependsOn: [{name: rjob-1, status: Ready}]\n")),
                       release)
                  .find("DependsOn can't be set for the first ReplicatedJob"),
              std::string::npos);
    // "DependsOn list must contain valid ReplicatedJob status"
    EXPECT_NE(Admitted(TestingJobSet("depends-on", "",
                                     TestingRj("rjob-1") +
                                         TestingRj("rjob-2", "    dependsOn: [{name: rjob-1, status: Failed}]\n")),
                       release)
                  .find("spec.replicatedJobs[1].dependsOn[0].status: Unsupported value: \"Failed\": supported values: "
                        "\"Ready\", \"Complete\""),
              std::string::npos);
    // "JobSet can create with no replicated jobs"
    EXPECT_EQ(Admitted(TestingJobSet("depends-on", "", ""), release), "");
  }
  for (std::string_view release : {"v0.11.0", "v0.12.0"}) {
    SCOPED_TRACE(release);
    // "spec that will lead to invalid coordinator label value (in this case
    // too long due to long JobSet name) should be rejected"
    EXPECT_NE(Admitted(TestingJobSet(std::string(60, 'a'),
                                     "  coordinator: {replicatedJob: rjob-a, jobIndex: 0, podIndex: 0}\n",
                                     TestingRj("rjob-a")),
                       release)
                  .find("spec will lead to invalid label value"),
              std::string::npos);
    // "VolumeClaimPolicies template with namespace should be rejected"
    const std::string mounted =
        "    template:\n      spec:\n        completionMode: Indexed\n        template:\n          spec:\n"
        "            restartPolicy: Never\n            containers:\n            - name: test-container\n"
        "              image: 'busybox:latest'\n              volumeMounts:\n";
    EXPECT_NE(Admitted("metadata: {name: volume-claim-namespace, namespace: ns}\nspec:\n  network: "
                       "{enableDNSHostnames: true}\n  volumeClaimPolicies:\n  - templates:\n    - metadata: {name: "
                       "test-volume, namespace: invalid-namespace}\n  replicatedJobs:\n  - name: rjob\n" +
                           mounted + "              - {name: test-volume, mountPath: /test}\n",
                       release)
                  .find("spec.volumeClaimPolicies[0]: Invalid value: \"object\": namespace cannot be set for "
                        "VolumeClaimPolicies templates"),
              std::string::npos);
    // "VolumeClaimPolicies exceeding MaxItems=50 should be rejected" and
    // "VolumeClaimPolicies templates exceeding MaxItems=50 should be rejected"
    std::string policies, templates, mounts;
    for (int i = 0; i < 51; ++i) {
      const std::string volume = "test-volume-" + std::to_string(i);
      policies += "  - templates: [{metadata: {name: " + volume + "}}]\n";
      templates += "    - metadata: {name: " + volume + "}\n";
      mounts += "              - {name: " + volume + ", mountPath: /test" + std::to_string(i) + "}\n";
    }
    const std::string jobs = "  replicatedJobs:\n  - name: rjob\n" + mounted + mounts;
    const std::string many_policies = Admitted("metadata: {name: volume-claim-max-items, namespace: ns}\nspec:\n  "
                                               "network: {enableDNSHostnames: true}\n  volumeClaimPolicies:\n" +
                                                   policies + jobs,
                                               release);
    EXPECT_NE(many_policies.find("spec.volumeClaimPolicies: Too many: 51: must have at most 50 items"),
              std::string::npos)
        << many_policies;
    const std::string many_templates =
        Admitted("metadata: {name: volume-claim-templates-max-items, namespace: ns}\nspec:\n  network: "
                 "{enableDNSHostnames: true}\n  volumeClaimPolicies:\n  - templates:\n" +
                     templates + jobs,
                 release);
    EXPECT_NE(many_templates.find("spec.volumeClaimPolicies[0].templates: Too many: 51: must have at most 50 items"),
              std::string::npos)
        << many_templates;
  }
}

// TestValidateCreate cases jobset_test.cc checks at one tag only, at the
// other tags that have them (same inputs as upstream's, the `want` lines
// as each tag's test writes them).
std::string RjWithTemplate(std::string_view name, std::string_view spec_extra, std::string_view job,
                           std::string_view group = "default", std::string_view replicas = "1") {
  return "metadata: {name: " + std::string(name) + "}\nspec:\n  successPolicy: {operator: All}\n" +
         std::string(spec_extra) + "  replicatedJobs:\n  - name: " + std::string(job) + "\n    groupName: " +
         std::string(group) + "\n    replicas: " + std::string(replicas) +
         "\n    template: {spec: {completionMode: Indexed, completions: 1, parallelism: 1, template: " +
         std::string(kPodTemplate) + "}}\n";
}

TEST(UpstreamTestValidateCreate, NamesAndLimitsAtEveryTag) {
  const std::string dns1035 =
      "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic "
      "character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation "
      "is '[a-z]([-a-z0-9]*[a-z0-9])?')";
  for (std::string_view release : {"v0.10.1", "v0.11.0", "v0.12.0"}) {
    // "number of pods exceeds the limit"
    const std::string pods =
        "metadata: {name: js}\nspec:\n  successPolicy: {operator: All}\n  replicatedJobs:\n"
        "  - {name: test-jobset-replicated-job-0, groupName: default, replicas: 2147483647, template: {spec: "
        "{parallelism: 2147483647, template: " + std::string(kPodTemplate) + "}}}\n"
        "  - {name: test-jobset-replicated-job-1, groupName: default, replicas: -2147483648, template: {spec: "
        "{parallelism: -2147483648, template: " + std::string(kPodTemplate) + "}}}\n";
    ExpectContains(pods, release,
                   "the product of replicas and parallelism must not exceed 2147483647 for replicatedJob "
                   "'test-jobset-replicated-job-0'");
    ExpectContains(pods, release,
                   "the product of replicas and parallelism must not exceed 2147483647 for replicatedJob "
                   "'test-jobset-replicated-job-1'");
    // "success policy has non matching replicated job"
    std::string target = RjWithTemplate("js", "", "test-jobset-replicated-job-0");
    target.replace(target.find("{operator: All}"), 15, "{operator: All, targetReplicatedJobs: [does not exist]}");
    ExpectContains(target, release,
                   "invalid replicatedJob name 'does not exist' does not appear in .spec.ReplicatedJobs");
    // "network has invalid dns name"
    ExpectContains(RjWithTemplate("js", "  network: {enableDNSHostnames: true, subdomain: " + std::string(64, 'a') +
                                            "}\n",
                                  "test-jobset-replicated-job-0"),
                   release, ".spec.network.subdomain is too long, must be less than 63 characters");
    // "jobset name with invalid character"
    ExpectContains(RjWithTemplate("js", "", "username.llama65b"), release, dns1035);
    // "group name is not DNS 1035 compliant"
    ExpectContains(RjWithTemplate("js", "", "test-jobset-replicated-job-0", std::string(64, 'a')), release,
                   ".spec.replicatedJob[].groupName is too long, must be less than 63 characters");
    // "jobset name will result in job name being too long"
    ExpectContains(RjWithTemplate(std::string(62, 'a'), "", "rj", "default", "101"), release,
                   "JobSet name is too long, job names generated for this JobSet will exceed 63 characters");
    // "jobset name will result in a pod name being too long"
    ExpectContains(RjWithTemplate(std::string(56, 'a'), "", "rj"), release,
                   "JobSet name is too long, pod names generated for this JobSet will exceed 63 characters");
    // "jobset controller name is not a domain-prefixed path"
    ExpectContains(RjWithTemplate("js", "  managedBy: notDomainPrefixedPathControllerName\n", "rj"), release,
                   "spec.managedBy: Invalid value: \"notDomainPrefixedPathControllerName\": must be a domain-prefixed "
                   "path (such as \"acme.io/foo\")");
    // "jobset controller name is too long": want is TooLongMaxLength's text
    // in the tag's apimachinery (v0.34.1 / v0.36.0: TooLong's).
    ExpectContains(RjWithTemplate("js", "  managedBy: foo.bar/" + std::string(63, 'a') + "\n", "rj"), release,
                   "spec.managedBy: Too long: may not be more than 63 bytes");
    // "jobset controller name is set and valid"
    EXPECT_EQ(JobSetAnswer(RjWithTemplate("js", "  managedBy: jobset.sigs.k8s.io/jobset-controller\n", "rj"), release),
              "")
        << release;
  }
}

}  // namespace
}  // namespace tjr::admission
