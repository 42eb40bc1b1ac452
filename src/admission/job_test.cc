// Cases transcribed from pkg/apis/batch/validation/validation_test.go
// TestValidateJob (errorCases, named by the message they expect) at
// v1.34.0, on Jobs defaulted by DefaultJob as the API server defaults them
// before Validate; and the JobSet-made Job of a TrainJob.
#include "admission/job.h"

#include <gtest/gtest.h>

#include "doc/path.h"
#include "yaml/reader.h"

namespace tjr::admission {
namespace {

using Lines = std::vector<std::string>;

doc::Node Yaml(std::string_view text) {
  Result<std::vector<doc::Node>> read = yaml::ReadStream(text, "job.yaml");
  EXPECT_TRUE(read.ok());
  return read.ok() && !read->empty() ? read->front() : doc::Node();
}

// A Job named myjob whose spec is `spec` (indented by two), with a valid
// template unless `spec` writes one.
std::string JobText(std::string_view spec, std::string_view restart = "Never") {
  std::string text = "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: myjob\n  namespace: default\nspec:\n";
  text += spec;
  if (spec.find("template:") == std::string_view::npos) {
    text += "  template:\n    spec:\n      restartPolicy: " + std::string(restart) +
            "\n      containers:\n      - name: abc\n        image: image:1.0\n";
  }
  return text;
}

Lines Errors(std::string_view job_text, std::string_view release = "1.34") {
  doc::Node job = Yaml(job_text);
  const KubernetesRules& rules = *KubernetesRulesOf(release);
  DefaultJob(&job, rules);
  ObjectErrors errors;
  ValidateJob(job, rules, &errors);
  Lines out;
  for (const ObjectError& error : errors.errors()) out.push_back(error.error.Error());
  return out;
}

TEST(ValidateJobTest, AcceptsADefaultedJob) {
  EXPECT_EQ(Errors(JobText("")), Lines{});
  EXPECT_EQ(Errors(JobText("  completionMode: Indexed\n  completions: 4\n  parallelism: 4\n", "OnFailure")), Lines{});
}

TEST(ValidateJobTest, CountsAreNotNegative) {
  EXPECT_EQ(Errors(JobText("  parallelism: -1\n")),
            Lines{"spec.parallelism: Invalid value: -1: must be greater than or equal to 0"});
  EXPECT_EQ(Errors(JobText("  completions: -1\n")),
            Lines{"spec.completions: Invalid value: -1: must be greater than or equal to 0"});
  EXPECT_EQ(Errors(JobText("  activeDeadlineSeconds: -1\n")),
            Lines{"spec.activeDeadlineSeconds: Invalid value: -1: must be greater than or equal to 0"});
  EXPECT_EQ(Errors(JobText("  backoffLimit: -1\n")),
            Lines{"spec.backoffLimit: Invalid value: -1: must be greater than or equal to 0"});
  EXPECT_EQ(Errors(JobText("  ttlSecondsAfterFinished: -1\n")),
            Lines{"spec.ttlSecondsAfterFinished: Invalid value: -1: must be greater than or equal to 0"});
}

TEST(ValidateJobTest, PerIndexLimitsNeedIndexedCompletion) {
  EXPECT_EQ(Errors(JobText("  backoffLimitPerIndex: 1\n")),
            Lines{"spec.backoffLimitPerIndex: Invalid value: 1: requires indexed completion mode"});
  EXPECT_EQ(Errors(JobText("  completions: 10\n  maxFailedIndexes: 11\n  backoffLimitPerIndex: 1\n"
                           "  completionMode: Indexed\n")),
            Lines{"spec.maxFailedIndexes: Invalid value: 11: must be less than or equal to completions"});
  EXPECT_EQ(Errors(JobText("  completions: 100001\n  backoffLimitPerIndex: 1\n  completionMode: Indexed\n")),
            Lines{"spec.maxFailedIndexes: Required value: must be specified when completions is above 100000"});
  EXPECT_EQ(Errors(JobText("  completions: 100001\n  parallelism: 50000\n  backoffLimitPerIndex: 1\n"
                           "  maxFailedIndexes: 1\n  completionMode: Indexed\n")),
            Lines{"spec.parallelism: Invalid value: 50000: must be less than or equal to 10000 when completions "
                  "are above 100000 and used with backoff limit per index"});
  EXPECT_EQ(Errors(JobText("  completions: 4\n  maxFailedIndexes: 1\n  completionMode: Indexed\n")),
            Lines{"spec.backoffLimitPerIndex: Required value: when maxFailedIndexes is specified"});
}

TEST(ValidateJobTest, CompletionMode) {
  EXPECT_EQ(Errors(JobText("  completionMode: Sequential\n")),
            Lines{"spec.completionMode: Unsupported value: \"Sequential\": supported values: \"NonIndexed\", "
                  "\"Indexed\""});
  // Parallelism alone: completions stays unset.
  EXPECT_EQ(Errors(JobText("  completionMode: Indexed\n  parallelism: 2\n")),
            Lines{"spec.completions: Required value: when completion mode is Indexed"});
  EXPECT_EQ(Errors(JobText("  completionMode: Indexed\n  completions: 200000\n  parallelism: 100001\n")),
            Lines{"spec.parallelism: Invalid value: 100001: must be less than or equal to 100000 when completion "
                  "mode is Indexed"});
}

TEST(ValidateJobTest, PodFailurePolicyRules) {
  const std::string policy = "  podFailurePolicy:\n    rules:\n    - action: UnknownAction\n"
                             "      onExitCodes:\n        containerName: abc\n        operator: In\n"
                             "        values: [1, 2, 3]\n";
  EXPECT_EQ(Errors(JobText(policy)),
            Lines{"spec.podFailurePolicy.rules[0].action: Unsupported value: \"UnknownAction\": supported values: "
                  "\"Count\", \"FailIndex\", \"FailJob\", \"Ignore\""});
  EXPECT_EQ(Errors(JobText("  podFailurePolicy:\n    rules:\n    - action: Ignore\n      onExitCodes:\n"
                           "        operator: UnknownOperator\n        values: [1, 2, 3]\n")),
            Lines{"spec.podFailurePolicy.rules[0].onExitCodes.operator: Unsupported value: \"UnknownOperator\": "
                  "supported values: \"In\", \"NotIn\""});
  EXPECT_EQ(Errors(JobText("  podFailurePolicy:\n    rules:\n    - action: Ignore\n      onExitCodes:\n"
                           "        containerName: xyz\n        operator: In\n        values: [3, 0, 3]\n")),
            (Lines{"spec.podFailurePolicy.rules[0].onExitCodes.containerName: Invalid value: \"xyz\": must be one "
                   "of the container or initContainer names in the pod template",
                   "spec.podFailurePolicy.rules[0].onExitCodes.values[1]: Invalid value: 0: must not be 0 for the In "
                   "operator",
                   "spec.podFailurePolicy.rules[0].onExitCodes.values[2]: Duplicate value: 3",
                   "spec.podFailurePolicy.rules[0].onExitCodes.values: Invalid value: []int32{3, 0, 3}: must be "
                   "ordered"}));
  EXPECT_EQ(Errors(JobText("  podFailurePolicy:\n    rules:\n    - action: FailIndex\n")),
            (Lines{"spec.podFailurePolicy.rules[0].action: Invalid value: \"FailIndex\": requires the "
                   "backoffLimitPerIndex to be set",
                   "spec.podFailurePolicy.rules[0]: Invalid value: specifying one of OnExitCodes and OnPodConditions "
                   "is required"}));
  // An unset condition status is defaulted to True, so only the type is missing.
  EXPECT_EQ(Errors(JobText("  podFailurePolicy:\n    rules:\n    - action: Ignore\n      onPodConditions:\n"
                           "      - type: Invalid Condition Type\n")),
            Lines{"spec.podFailurePolicy.rules[0].onPodConditions[0].type: Invalid value: \"Invalid Condition "
                  "Type\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end "
                  "with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for "
                  "validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"});
  EXPECT_EQ(Errors(JobText("  podFailurePolicy:\n    rules:\n    - action: Ignore\n      onPodConditions:\n"
                           "      - type: DisruptionTarget\n        status: UnknownStatus\n")),
            Lines{"spec.podFailurePolicy.rules[0].onPodConditions[0].status: Unsupported value: \"UnknownStatus\": "
                  "supported values: \"False\", \"True\", \"Unknown\""});
}

TEST(ValidateJobTest, PodFailurePolicyNeedsRestartPolicyNever) {
  EXPECT_EQ(Errors(JobText("  podFailurePolicy:\n    rules: []\n", "OnFailure")),
            Lines{"spec.template.spec.restartPolicy: Invalid value: \"OnFailure\": only \"Never\" is supported when "
                  "podFailurePolicy is specified"});
}

TEST(ValidateJobTest, PodReplacementPolicy) {
  EXPECT_EQ(Errors(JobText("  podReplacementPolicy: TerminatingOrFailed\n  podFailurePolicy:\n    rules:\n"
                           "    - action: Ignore\n      onPodConditions:\n      - type: DisruptionTarget\n")),
            Lines{"spec.podReplacementPolicy: Unsupported value: \"TerminatingOrFailed\": supported values: "
                  "\"Failed\""});
  EXPECT_EQ(Errors(JobText("  podReplacementPolicy: \"\"\n")),
            Lines{"spec.podReplacementPolicy: Unsupported value: \"\": supported values: \"Failed\", "
                  "\"TerminatingOrFailed\""});
}

TEST(ValidateJobTest, RestartPolicyMustBeOnFailureOrNever) {
  // SetDefaults_PodSpec makes an unset restartPolicy Always.
  doc::Node job = Yaml(JobText("  template:\n    spec:\n      containers:\n      - name: abc\n        image: x:1\n"));
  DefaultJob(&job, *KubernetesRulesOf("1.34"));
  EXPECT_EQ(doc::StringAtPath(job, {"spec", "template", "spec", "restartPolicy"}), "Always");
  ObjectErrors errors;
  ValidateJob(job, *KubernetesRulesOf("1.34"), &errors);
  ASSERT_FALSE(errors.empty());
  EXPECT_EQ(errors.errors().back().error.Error(),
            "spec.template.spec.restartPolicy: Required value: valid values: \"OnFailure\", \"Never\"");
}

TEST(ValidateJobTest, SuccessPolicy) {
  EXPECT_EQ(Errors(JobText("  successPolicy:\n    rules:\n    - succeededCount: 1\n")),
            Lines{"spec.successPolicy: Invalid value: batch.SuccessPolicy{Rules:[]batch.SuccessPolicyRule{batch."
                  "SuccessPolicyRule{SucceededIndexes:(*string)(nil), SucceededCount:(*int32)(<address>)}}}: requires "
                  "indexed completion mode"});
  EXPECT_EQ(Errors(JobText("  successPolicy:\n    rules: []\n")),
            Lines{"spec.successPolicy: Invalid value: batch.SuccessPolicy{Rules:[]batch.SuccessPolicyRule{}}: "
                  "requires indexed completion mode"});
  const std::string indexed = "  completionMode: Indexed\n  completions: 10\n";
  EXPECT_EQ(Errors(JobText(indexed + "  successPolicy:\n    rules: []\n")),
            Lines{"spec.successPolicy.rules: Required value: at least one rules must be specified when the "
                  "successPolicy is specified"});
  EXPECT_EQ(Errors(JobText(indexed + "  successPolicy:\n    rules:\n    - {}\n")),
            Lines{"spec.successPolicy.rules[0]: Required value: at least one of succeededCount or succeededIndexes "
                  "must be specified"});
  EXPECT_EQ(Errors(JobText(indexed + "  successPolicy:\n    rules:\n    - succeededIndexes: \"1-3,3-5\"\n")),
            Lines{"spec.successPolicy.rules[0].succeededIndexes: Invalid value: \"1-3,3-5\": error parsing "
                  "succeededIndexes: non-increasing order, previous: 3, current: 3"});
  EXPECT_EQ(Errors(JobText(indexed + "  successPolicy:\n    rules:\n    - succeededIndexes: \"0,2,10\"\n")),
            Lines{"spec.successPolicy.rules[0].succeededIndexes: Invalid value: \"0,2,10\": error parsing "
                  "succeededIndexes: too large index: \"10\""});
  EXPECT_EQ(Errors(JobText(indexed + "  successPolicy:\n    rules:\n    - succeededIndexes: \"0-2\"\n"
                                     "      succeededCount: 4\n")),
            Lines{"spec.successPolicy.rules[0].succeededCount: Invalid value: 4: must be less than or equal to 3 "
                  "(the number of indexes in the specified succeededIndexes field)"});
  EXPECT_EQ(Errors(JobText(indexed + "  successPolicy:\n    rules:\n    - succeededCount: 11\n")),
            Lines{"spec.successPolicy.rules[0].succeededCount: Invalid value: 11: must be less than or equal to 10 "
                  "(the number of specified completions)"});
}

TEST(ValidateJobTest, SelectorMustMatchTheGeneratedLabels) {
  // manualSelector: the selector is the user's, matched against the template labels.
  EXPECT_EQ(Errors(JobText("  manualSelector: true\n  selector:\n    matchLabels: {a: b}\n"
                           "  template:\n    metadata:\n      labels: {\"y\": z}\n    spec:\n      restartPolicy: Never\n"
                           "      containers:\n      - name: abc\n        image: x:1\n")),
            Lines{"spec.template.metadata.labels: Invalid value: map[string]string{\"y\":\"z\"}: `selector` does not "
                  "match template `labels`"});
  // A written job-name label that is not the Job's name.
  const Lines conflicting = Errors(JobText("  template:\n    metadata:\n      labels: {job-name: other}\n    spec:\n"
                                           "      restartPolicy: Never\n      containers:\n      - name: abc\n"
                                           "        image: x:1\n"));
  ASSERT_EQ(conflicting.size(), 1u);
  EXPECT_EQ(conflicting[0].substr(0, 67), "spec.template.metadata.labels[job-name]: Invalid value: map[string]");
  EXPECT_NE(conflicting[0].find("\"job-name\":\"other\"}: must be 'myjob'"), std::string::npos);
  // A written selector gets controller-uid added and must match what the Job generates.
  const Lines selected = Errors(JobText("  selector:\n    matchLabels: {a: b}\n"));
  ASSERT_EQ(selected.size(), 2u);
  EXPECT_EQ(selected[0],
            "spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{\"a\":\"b\", "
            "\"batch.kubernetes.io/controller-uid\":\"00000000-0000-0000-0000-000000000000\"}, "
            "MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: `selector` not auto-generated");
  EXPECT_EQ(selected[1].substr(0, 47), "spec.template.metadata.labels: Invalid value: m");
  EXPECT_EQ(Errors(JobText("  manualSelector: true\n  selector:\n    matchExpressions:\n    - key: a\n"
                           "      operator: In\n")),
            (Lines{"spec.selector.matchExpressions[0].values: Required value: must be specified when `operator` is "
                   "'In' or 'NotIn'"}));
}

TEST(ValidateJobTest, IndexedPodHostnamesAreLabels) {
  const std::string name(60, 'a');
  std::string text = JobText("  completionMode: Indexed\n  completions: 1000\n  parallelism: 1\n");
  text.replace(text.find("myjob"), 5, name);
  EXPECT_EQ(Errors(text),
            Lines{"metadata.name: Invalid value: \"" + name + "\": will not able to create pod with invalid DNS "
                  "label: " + name + "-999"});
}

}  // namespace
}  // namespace tjr::admission
