// JobSet admission cases. Those named after a test case of
// pkg/webhooks/jobset_webhook_test.go (TestJobSetDefaulting,
// TestValidateCreate) at v0.10.1 and v0.12.0 are transcribed from it: like
// upstream, the webhook cases call ValidateCreate without Default and check
// that the answer contains the expected text (assert.Contains on the
// joined error).
#include "admission/jobset.h"

#include <gtest/gtest.h>

#include "admission/jobset_parts.h"
#include "doc/path.h"
#include "yaml/reader.h"

namespace tjr::admission {
namespace {

doc::Node Read(std::string_view yaml) {
  Result<std::vector<doc::Node>> read = yaml::ReadStream(yaml, "jobset.yaml");
  EXPECT_TRUE(read.ok());
  return read.ok() && !read->empty() ? read->front() : doc::Node();
}

std::string Joined(const ObjectErrors& errors) {
  std::string out;
  for (const ObjectError& error : errors.errors()) {
    if (!out.empty()) out += "\n";  // errors.Join
    out += error.text.empty() ? error.error.Error() : error.text;
  }
  return out;
}

// ValidateCreate alone, as TestValidateCreate calls it.
std::string Webhook(std::string_view yaml, std::string_view release = "v0.10.1") {
  ObjectErrors errors;
  jobset_parts::ValidateCreate(Read(yaml), *JobSetRulesOf(release), &errors);
  return Joined(errors);
}

// Default, then the CRD's rules and the webhook, as the API server admits it.
std::string Admit(std::string_view yaml, std::string_view release) {
  doc::Node jobset = Read(yaml);
  DefaultJobSet(&jobset, *JobSetRulesOf(release));
  ObjectErrors errors;
  ValidateJobSet(jobset, *JobSetRulesOf(release), &errors);
  return Joined(errors);
}

// An Unsupported value blocks the CEL rules (customResourceStrategy.Validate
// hasBlockingErr), which adds this error instead.
const std::string kCelSkipped =
    "\n<nil>: Invalid value: null: some validation rules were not checked because the object was invalid; correct "
    "the existing errors to complete validation";

// One replicatedJob `rj` of an Indexed job of one pod, in a JobSet `js`.
std::string OneJob(std::string_view spec_extra, std::string_view name = "js", std::string_view job = "rj") {
  return "metadata: {name: " + std::string(name) + ", namespace: default}\n"
         "spec:\n"
         "  successPolicy: {operator: All}\n" +
         std::string(spec_extra) +
         "  replicatedJobs:\n"
         "  - name: " + std::string(job) + "\n"
         "    groupName: default\n"
         "    replicas: 1\n"
         "    template:\n"
         "      spec:\n"
         "        completionMode: Indexed\n"
         "        completions: 1\n"
         "        parallelism: 1\n"
         "        template: {spec: {containers: [{name: test, image: 'bash:latest'}]}}\n";
}

TEST(JobSetWebhookTest, NumberOfPodsExceedsTheLimit) {
  const std::string yaml = R"(metadata: {name: js}
spec:
  successPolicy: {operator: All}
  replicatedJobs:
  - {name: test-jobset-replicated-job-0, groupName: default, replicas: 2147483647, template: {spec: {parallelism: 2147483647}}}
  - {name: test-jobset-replicated-job-1, groupName: default, replicas: -2147483648, template: {spec: {parallelism: -2147483648}}}
)";
  EXPECT_EQ(Webhook(yaml),
            "the product of replicas and parallelism must not exceed 2147483647 for replicatedJob "
            "'test-jobset-replicated-job-0'\n"
            "the product of replicas and parallelism must not exceed 2147483647 for replicatedJob "
            "'test-jobset-replicated-job-1'");
  // v0.12.0's invalidError: plain errors become InternalError(nil, err).
  EXPECT_NE(Webhook(yaml, "v0.12.0")
                .find("<nil>: Internal error: the product of replicas and parallelism must not exceed 2147483647 for "
                      "replicatedJob 'test-jobset-replicated-job-0'"),
            std::string::npos);
}

TEST(JobSetWebhookTest, NumberOfPodsWithinTheLimit) { EXPECT_EQ(Webhook(OneJob("")), ""); }

TEST(JobSetWebhookTest, SuccessPolicyHasNonMatchingReplicatedJob) {
  const std::string yaml =
      "metadata: {name: js}\nspec:\n  successPolicy: {operator: All, targetReplicatedJobs: [does not exist]}\n"
      "  replicatedJobs: [{name: test-jobset-replicated-job-0, groupName: default, replicas: 1}]\n";
  EXPECT_EQ(Webhook(yaml), "invalid replicatedJob name 'does not exist' does not appear in .spec.ReplicatedJobs");
}

TEST(JobSetWebhookTest, NetworkHasInvalidDnsName) {
  const std::string subdomain(64, 'a');
  EXPECT_EQ(Webhook(OneJob("  network: {enableDNSHostnames: true, subdomain: " + subdomain + "}\n")),
            "spec.network.subdomain: Invalid value: \"" + subdomain +
                "\": .spec.network.subdomain is too long, must be less than 63 characters");
}

TEST(JobSetWebhookTest, JobsetNameWithInvalidCharacter) {
  // The job name and the pod name both fail the pattern; the value of both
  // errors is the job name.
  const std::string message =
      "spec.replicatedJobs[0].name: Invalid value: \"js-username.llama65b-0\": a DNS-1035 label must consist of "
      "lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric "
      "character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";
  EXPECT_EQ(Webhook(OneJob("", "js", "username.llama65b")), message + "\n" + message);
  // v0.12.0 answers a field.ErrorList aggregate, which drops the repetition.
  EXPECT_EQ(Webhook(OneJob("", "js", "username.llama65b"), "v0.12.0"), message);
}

TEST(JobSetWebhookTest, GroupNameIsNotDns1035Compliant) {
  std::string yaml = OneJob("");
  yaml.replace(yaml.find("groupName: default"), 18, "groupName: " + std::string(64, 'a'));
  EXPECT_EQ(Webhook(yaml), "spec.replicatedJobs[0].groupName: Invalid value: \"" + std::string(64, 'a') +
                               "\": .spec.replicatedJob[].groupName is too long, must be less than 63 characters");
}

TEST(JobSetWebhookTest, JobsetNameWillResultInJobNameBeingTooLong) {
  std::string yaml = OneJob("", std::string(62, 'a'));
  yaml.replace(yaml.find("replicas: 1"), 11, "replicas: 101");
  EXPECT_NE(Webhook(yaml).find("spec.replicatedJobs[0].name: Invalid value: \"" + std::string(62, 'a') +
                               "-rj-100\": JobSet name is too long, job names generated for this JobSet will exceed "
                               "63 characters"),
            std::string::npos);
}

TEST(JobSetWebhookTest, JobsetNameWillResultInAPodNameBeingTooLong) {
  // 56 + "-rj-0-0-abcde" = 69 characters; the job name (61) is fine.
  EXPECT_EQ(Webhook(OneJob("", std::string(56, 'a'))),
            "spec.replicatedJobs[0].name: Invalid value: \"" + std::string(56, 'a') +
                "-rj-0\": JobSet name is too long, pod names generated for this JobSet will exceed 63 characters");
}

TEST(JobSetWebhookTest, JobsetControllerNameIsNotADomainPrefixedPath) {
  EXPECT_EQ(Webhook(OneJob("  managedBy: notDomainPrefixedPathControllerName\n")),
            "spec.managedBy: Invalid value: \"notDomainPrefixedPathControllerName\": must be a domain-prefixed path "
            "(such as \"acme.io/foo\")");
}

TEST(JobSetWebhookTest, JobsetControllerNameIsTooLong) {
  EXPECT_EQ(Webhook(OneJob("  managedBy: foo.bar/" + std::string(63, 'a') + "\n")),
            "spec.managedBy: Too long: may not be more than 63 bytes");
}

TEST(JobSetWebhookTest, JobsetControllerNameIsSetAndValid) {
  EXPECT_EQ(Webhook(OneJob("  managedBy: jobset.sigs.k8s.io/jobset-controller\n")), "");
}

TEST(JobSetWebhookTest, FailurePolicyRules) {
  // "failure policy rule name is valid"
  EXPECT_EQ(Webhook(OneJob("  failurePolicy: {rules: [{name: superAwesomeFailurePolicyRule}]}\n")), "");
  // "jobset failure policy has an invalid on job failure reason"
  EXPECT_EQ(Webhook(OneJob("  failurePolicy: {maxRestarts: 1, rules: [{name: r, action: FailJobSet, "
                           "onJobFailureReasons: [fakeReason]}]}\n")),
            "invalid job failure reason 'fakeReason' in failure policy is not a recognized job failure reason");
  // "jobset failure policy has an invalid replicated job"
  EXPECT_EQ(Webhook(OneJob("  failurePolicy: {rules: [{name: r, action: FailJobSet, "
                           "targetReplicatedJobs: [fakeReplicatedJob]}]}\n")),
            "invalid replicatedJob name 'fakeReplicatedJob' in failure policy does not appear in .spec.ReplicatedJobs");
  // "jobset failure policy rule name is 0 characters long a.k.a unset"
  EXPECT_NE(Webhook(OneJob("  failurePolicy: {rules: [{}]}\n"))
                .find("invalid failure policy rule name of length 0, the rule name must be at least 1 characters long "
                      "and at most 128 characters long"),
            std::string::npos);
  // "jobset failure policy rule name is greater than 128 characters long"
  EXPECT_EQ(Webhook(OneJob("  failurePolicy: {rules: [{name: " + std::string(129, 'a') + "}]}\n")),
            "invalid failure policy rule name of length 129, the rule name must be at least 1 characters long and at "
            "most 128 characters long");
  // "there are two failure policy rules with the same name"
  EXPECT_EQ(Webhook(OneJob("  failurePolicy: {rules: [{name: repeatedRuleName}, {name: repeatedRuleName}]}\n")),
            "rule names are not unique, rules with indices [0 1] all have the same name 'repeatedRuleName'");
  // "failure policy rule name does not start with an alphabetic character"
  const std::string pattern =
      "', a failure policy rule name must start with an alphabetic character, optionally followed by a string of "
      "alphanumeric characters or '_,:', and must end with an alphanumeric character or '_'";
  EXPECT_EQ(Webhook(OneJob("  failurePolicy: {rules: [{name: '1ruleToRuleThemAll'}]}\n")),
            "invalid failure policy rule name '1ruleToRuleThemAll" + pattern);
  // "failure policy rule name does not end with an alphanumeric nor '_'"
  EXPECT_EQ(Webhook(OneJob("  failurePolicy: {rules: [{name: 'ruleToRuleThemAll,'}]}\n")),
            "invalid failure policy rule name 'ruleToRuleThemAll," + pattern);
}

TEST(JobSetWebhookTest, Coordinator) {
  // "coordinator replicated job does not exist"
  EXPECT_EQ(Webhook(OneJob("  coordinator: {replicatedJob: fake-rjob, jobIndex: 0, podIndex: 0}\n")),
            "coordinator replicatedJob fake-rjob does not exist");
  // "coordinator job index invalid"
  EXPECT_EQ(Webhook(OneJob("  coordinator: {replicatedJob: rj, jobIndex: 2, podIndex: 0}\n")),
            "coordinator job index 2 is invalid for replicatedJob rj");
  // "coordinator pod index invalid"
  EXPECT_EQ(Webhook(OneJob("  coordinator: {replicatedJob: rj, jobIndex: 0, podIndex: 2}\n")),
            "coordinator pod index 2 is invalid for replicatedJob rj job index 0");
  // "coordinator replicated job missing completions"
  std::string yaml = OneJob("  coordinator: {replicatedJob: rj, jobIndex: 0, podIndex: 0}\n");
  yaml.erase(yaml.find("        completions: 1\n"), 23);
  EXPECT_EQ(Webhook(yaml), "job for coordinator pod must be indexed completion mode, and completions number must be set");
}

TEST(JobSetWebhookTest, CoordinatorLabelValueIsTooLongDueToLongJobSetName) {
  // v0.12.0 "coordinator label value is too long due to long JobSet name";
  // v0.10.1 has no such check (its pod name check refuses the name anyway).
  const std::string name(60, 'a');
  const std::string yaml =
      OneJob("  coordinator: {replicatedJob: replicatedjob-a, jobIndex: 0, podIndex: 0}\n", name, "replicatedjob-a");
  const std::string endpoint = name + "-replicatedjob-a-0-0." + name;
  EXPECT_NE(Webhook(yaml, "v0.11.0")
                .find("spec will lead to invalid label value \"" + endpoint +
                      "\" for coordinator label \"jobset.sigs.k8s.io/coordinator\" (long JobSet / ReplicatedJob / "
                      "SubDomain name?): must be no more than 63 characters"),
            std::string::npos);
  EXPECT_EQ(Webhook(yaml, "v0.10.1").find("spec will lead to invalid label value"), std::string::npos);
}

TEST(JobSetWebhookTest, DependsOn) {
  const std::string jobs = R"(metadata: {name: js}
spec:
  successPolicy: {operator: All}
  replicatedJobs:
  - {name: job-1, groupName: default, replicas: 1}
  - {name: job-2, groupName: default, replicas: 1, dependsOn: [{name: job-3, status: Ready}]}
  - {name: job-3, groupName: default, replicas: 1}
)";
  // "DependsOn is invalid since job-2 depends on job-3"
  EXPECT_EQ(Webhook(jobs), "replicatedJob: job-2 cannot depend on replicatedJob: job-3");
  // "dependsOn cannot be set for first replicated job"
  const std::string first = R"(metadata: {name: js}
spec:
  successPolicy: {operator: All}
  replicatedJobs:
  - {name: job-1, groupName: default, replicas: 1, dependsOn: [{name: job-2, status: Ready}]}
  - {name: job-2, groupName: default, replicas: 1}
)";
  EXPECT_NE(Webhook(first).find("DependsOn can't be set for the first ReplicatedJob"), std::string::npos);
}

TEST(JobSetWebhookTest, RestartJobActionNeedsItsFeatureGate) {
  // v0.12.0 "jobset failure policy rule has RestartJob action and RestartJob
  // feature gate is disabled" (the gate's default).
  const std::string yaml = OneJob("  failurePolicy: {rules: [{name: r, action: RestartJob}]}\n");
  EXPECT_EQ(Webhook(yaml, "v0.12.0"),
            "<nil>: Internal error: RestartJob and RestartJobAndIgnoreMaxRestarts failure policy actions are not "
            "allowed when RestartJob feature gate is disabled");
  // Before v0.12.0 the CRD's enum refuses the action.
  EXPECT_EQ(Admit(yaml, "v0.11.0"),
            "spec.failurePolicy.rules[0].action: Unsupported value: \"RestartJob\": supported values: \"FailJobSet\", "
            "\"RestartJobSet\", \"RestartJobSetAndIgnoreMaxRestarts\"" + kCelSkipped);
}

TEST(JobSetWebhookTest, InPlaceRestartNeedsItsFeatureGate) {
  // v0.12.0 "InPlaceRestart restart strategy cannot be set when
  // InPlaceRestart feature gate is disabled"; v0.10.1's enum lacks it.
  const std::string yaml = OneJob("  failurePolicy: {restartStrategy: InPlaceRestart}\n");
  EXPECT_EQ(Admit(yaml, "v0.11.0"),
            "InPlaceRestart restart strategy cannot be set when InPlaceRestart feature gate is disabled");
  EXPECT_EQ(Admit(yaml, "v0.10.1"),
            "spec.failurePolicy.restartStrategy: Unsupported value: \"InPlaceRestart\": supported values: "
            "\"Recreate\", \"BlockingRecreate\"" + kCelSkipped);
}

TEST(JobSetWebhookTest, VolumeClaimPolicyTemplateNames) {
  const std::string policies = R"(  volumeClaimPolicies:
  - templates:
    - metadata: {name: Data}
    - metadata: {name: Data}
)";
  // "volumeClaimPolicy is invalid since template names are not unique" and
  // "... template name has uppercase letters".
  const std::string found = Webhook(OneJob(policies), "v0.12.0");
  EXPECT_NE(found.find("spec.volumeClaimPolicies[0].template[1].name: Invalid value: \"Data\": names must be unique "
                       "for VolumeClaimPolicies template"),
            std::string::npos);
  EXPECT_NE(found.find("spec.volumeClaimPolicies[0].template[0].name: Invalid value: \"Data\": a lowercase RFC 1123 "
                       "subdomain"),
            std::string::npos);
  // "volumeClaimPolicy is invalid since template name is too long": the
  // PVC name "<template>-<jobset>" has 64 characters.
  const std::string long_name(61, 'a');
  // (Upstream also reports that no container mounts it, which is not
  // emulated: jobset_webhook.cc.)
  EXPECT_NE(Webhook(OneJob("  volumeClaimPolicies: [{templates: [{metadata: {name: " + long_name + "}}]}]\n"),
                    "v0.11.0")
                .find("spec.volumeClaimPolicies[0].template[0].name: Invalid value: \"" + long_name +
                      "\": VolumeClaimPolicies template name is too long"),
            std::string::npos);
}

TEST(JobSetSchemaTest, StartupPolicyInOrderWithDependsOn) {
  const std::string yaml = R"(metadata: {name: js, namespace: default}
spec:
  startupPolicy: {startupPolicyOrder: InOrder}
  replicatedJobs:
  - {name: a, template: {spec: {template: {spec: {containers: [{name: c, image: i}]}}}}}
  - {name: b, template: {spec: {template: {spec: {containers: [{name: c, image: i}]}}}}, dependsOn: [{name: a, status: Ready}]}
)";
  EXPECT_EQ(Admit(yaml, "v0.10.1"),
            "spec: Invalid value: \"object\": StartupPolicy and DependsOn APIs are mutually exclusive");
}

TEST(JobSetSchemaTest, DuplicateReplicatedJobNames) {
  const std::string yaml = R"(metadata: {name: js, namespace: default}
spec:
  replicatedJobs:
  - {name: a, template: {spec: {template: {spec: {containers: [{name: c, image: i}]}}}}}
  - {name: a, template: {spec: {template: {spec: {containers: [{name: c, image: i}]}}}}}
)";
  // Kubernetes 1.34+ prints the key as JSON; a Duplicate value does not
  // block the CEL rules.
  EXPECT_EQ(Admit(yaml, "v0.12.0"), "spec.replicatedJobs[1]: Duplicate value: {\"name\":\"a\"}");
}

TEST(JobSetSchemaTest, EmbeddedPodTemplateNeedsContainers) {
  // The JobSet CRD embeds the Job template's schema: a replicatedJob whose
  // pod spec has no containers refuses the JobSet itself.
  const std::string yaml = R"(metadata: {name: js, namespace: default}
spec:
  replicatedJobs:
  - {name: workers, template: {spec: {template: {spec: {nodeSelector: {pool: gpu}}}}}}
)";
  EXPECT_EQ(Admit(yaml, "v0.12.0"),
            "spec.replicatedJobs[0].template.spec.template.spec.containers: Required value" + kCelSkipped);
}

// TestJobSetDefaulting: "job completion mode is unset", "enableDNSHostnames
// is unset", "PublishNotReadyNetworkAddresess is ..." (unset), "pod restart
// policy unset", "success policy unset", and "failure policy rule name is
// defaulted when: there are two rules, the first rule has a name, the
// second rule does not have a name".
TEST(JobSetDefaultTest, FillsWhatTheWebhookDefaults) {
  doc::Node jobset = Read(R"(metadata: {name: js, namespace: default}
spec:
  failurePolicy: {rules: [{name: ruleA, action: FailJobSet}, {action: FailJobSet}]}
  replicatedJobs:
  - name: rj
    template: {spec: {template: {spec: {containers: [{name: c, image: i}]}}}}
)");
  DefaultJobSet(&jobset, *JobSetRulesOf("v0.10.1"));
  const doc::Node* spec = doc::At(&jobset, "spec");
  EXPECT_EQ(doc::StringAtPath(spec, {"successPolicy", "operator"}), "All");
  EXPECT_EQ(doc::StringAtPath(spec, {"startupPolicy", "startupPolicyOrder"}), "AnyOrder");
  EXPECT_TRUE(doc::AtPath(spec, {"network", "enableDNSHostnames"})->bool_value());
  EXPECT_TRUE(doc::AtPath(spec, {"network", "publishNotReadyAddresses"})->bool_value());
  EXPECT_EQ(doc::StringAtPath(spec, {"failurePolicy", "restartStrategy"}), "Recreate");
  const std::vector<doc::Node>& rules = doc::Items(doc::AtPath(spec, {"failurePolicy", "rules"}));
  ASSERT_EQ(rules.size(), 2u);
  EXPECT_EQ(doc::StringAt(&rules[0], "name"), "ruleA");
  EXPECT_EQ(doc::StringAt(&rules[1], "name"), "failurePolicyRule1");
  const doc::Node& job = doc::Items(doc::At(spec, "replicatedJobs"))[0];
  EXPECT_EQ(doc::StringAt(&job, "groupName"), "default");
  EXPECT_EQ(doc::At(&job, "replicas")->int_value(), 1);
  EXPECT_EQ(doc::StringAtPath(job, {"template", "spec", "completionMode"}), "Indexed");
  EXPECT_EQ(doc::StringAtPath(job, {"template", "spec", "template", "spec", "restartPolicy"}), "OnFailure");
}

TEST(JobSetDefaultTest, KeepsWhatIsSet) {
  doc::Node jobset = Read(R"(metadata: {name: js}
spec:
  network: {enableDNSHostnames: false, publishNotReadyAddresses: false}
  replicatedJobs:
  - name: rj
    template: {spec: {completionMode: NonIndexed, template: {spec: {restartPolicy: Never}}}}
)");
  DefaultJobSet(&jobset, *JobSetRulesOf("v0.12.0"));
  const doc::Node* spec = doc::At(&jobset, "spec");
  EXPECT_FALSE(doc::AtPath(spec, {"network", "enableDNSHostnames"})->bool_value());
  EXPECT_FALSE(doc::AtPath(spec, {"network", "publishNotReadyAddresses"})->bool_value());
  const doc::Node& job = doc::Items(doc::At(spec, "replicatedJobs"))[0];
  EXPECT_EQ(doc::StringAtPath(job, {"template", "spec", "completionMode"}), "NonIndexed");
  EXPECT_EQ(doc::StringAtPath(job, {"template", "spec", "template", "spec", "restartPolicy"}), "Never");
}

TEST(JobSetJobsTest, ConstructJobLabelsAndSubdomain) {
  doc::Node jobset = Read(R"(metadata: {name: llama, namespace: ml}
spec:
  replicatedJobs:
  - name: init
    replicas: 1
    template: {spec: {template: {spec: {containers: [{name: c, image: i}]}}}}
  - name: node
    replicas: 2
    template:
      metadata: {labels: {team: a}}
      spec: {template: {metadata: {labels: {app: x}}, spec: {containers: [{name: c, image: i}]}}}
)");
  DefaultJobSet(&jobset, *JobSetRulesOf("v0.10.1"));
  const std::vector<doc::Node> jobs = FirstJobs(jobset, *JobSetRulesOf("v0.10.1"));
  ASSERT_EQ(jobs.size(), 2u);
  const doc::Node& job = jobs[1];
  EXPECT_EQ(doc::StringAtPath(job, {"metadata", "name"}), "llama-node-0");
  EXPECT_EQ(doc::StringAtPath(job, {"metadata", "namespace"}), "ml");
  const doc::Node* labels = doc::AtPath(&job, {"metadata", "labels"});
  EXPECT_EQ(doc::StringAt(labels, "team"), "a");
  EXPECT_EQ(doc::StringAt(labels, "jobset.sigs.k8s.io/jobset-name"), "llama");
  EXPECT_EQ(doc::StringAt(labels, "jobset.sigs.k8s.io/replicatedjob-name"), "node");
  EXPECT_EQ(doc::StringAt(labels, "jobset.sigs.k8s.io/replicatedjob-replicas"), "2");
  EXPECT_EQ(doc::StringAt(labels, "jobset.sigs.k8s.io/global-replicas"), "3");
  EXPECT_EQ(doc::StringAt(labels, "jobset.sigs.k8s.io/job-index"), "0");
  EXPECT_EQ(doc::StringAt(labels, "jobset.sigs.k8s.io/job-global-index"), "1");
  EXPECT_EQ(doc::StringAt(labels, "jobset.sigs.k8s.io/restart-attempt"), "0");
  // sha1("ml/llama-node-0")
  EXPECT_EQ(doc::StringAt(labels, "jobset.sigs.k8s.io/job-key"), jobset_parts::Sha1Hex("ml/llama-node-0"));
  const doc::Node* pod_labels = doc::AtPath(&job, {"spec", "template", "metadata", "labels"});
  EXPECT_EQ(doc::StringAt(pod_labels, "app"), "x");
  EXPECT_EQ(doc::StringAt(pod_labels, "jobset.sigs.k8s.io/jobset-name"), "llama");
  EXPECT_EQ(doc::StringAtPath(job, {"spec", "template", "spec", "subdomain"}), "llama");
  EXPECT_EQ(doc::StringAtPath(job, {"spec", "completionMode"}), "Indexed");
  EXPECT_FALSE(doc::AtPath(&job, {"spec", "suspend"})->bool_value());
}

TEST(JobSetJobsTest, ExclusivePlacementAndCoordinator) {
  doc::Node jobset = Read(R"(metadata:
  name: js
  namespace: ml
  annotations:
    alpha.jobset.sigs.k8s.io/exclusive-topology: cloud.google.com/gke-nodepool
    alpha.jobset.sigs.k8s.io/node-selector: "true"
spec:
  coordinator: {replicatedJob: node}
  network: {subdomain: net}
  replicatedJobs:
  - name: node
    template: {spec: {template: {spec: {containers: [{name: c, image: i}]}}}}
)");
  DefaultJobSet(&jobset, *JobSetRulesOf("v0.11.0"));
  const std::vector<doc::Node> jobs = FirstJobs(jobset, *JobSetRulesOf("v0.11.0"));
  ASSERT_EQ(jobs.size(), 1u);
  const doc::Node& job = jobs[0];
  // constructJob: the namespaced job name as a nodeSelector and the
  // no-schedule toleration; labelAndAnnotateObject: the coordinator
  // endpoint and the exclusive-placement annotations.
  EXPECT_EQ(doc::StringAtPath(job, {"spec", "template", "spec", "nodeSelector", "alpha.jobset.sigs.k8s.io/namespaced-job"}),
            "ml_js-node-0");
  const std::vector<doc::Node>& tolerations = doc::Items(doc::AtPath(&job, {"spec", "template", "spec", "tolerations"}));
  ASSERT_EQ(tolerations.size(), 1u);
  EXPECT_EQ(doc::StringAt(&tolerations[0], "key"), "alpha.jobset.sigs.k8s.io/no-schedule");
  EXPECT_EQ(doc::StringAt(&tolerations[0], "operator"), "Exists");
  EXPECT_EQ(doc::StringAt(&tolerations[0], "effect"), "NoSchedule");
  EXPECT_EQ(doc::StringAtPath(job, {"metadata", "labels", "jobset.sigs.k8s.io/coordinator"}), "js-node-0-0.net");
  EXPECT_EQ(doc::StringAtPath(job, {"spec", "template", "metadata", "annotations",
                                    "alpha.jobset.sigs.k8s.io/exclusive-topology"}),
            "cloud.google.com/gke-nodepool");
  EXPECT_EQ(doc::StringAtPath(job, {"spec", "template", "spec", "subdomain"}), "net");
}

TEST(JobSetJobsTest, VolumeClaimPoliciesMountTheirClaims) {
  const std::string yaml = R"(metadata: {name: js, namespace: ml}
spec:
  volumeClaimPolicies:
  - templates: [{metadata: {name: data}}, {metadata: {name: unused}}]
  replicatedJobs:
  - name: node
    template: {spec: {template: {spec: {containers: [{name: c, image: i, volumeMounts: [{name: data, mountPath: /d}]}]}}}}
)";
  // addVolumes (v0.11.0): a PVC volume "<template>-<jobset>" for each
  // template a container mounts; v0.10.1 prunes the field.
  doc::Node jobset = Read(yaml);
  DefaultJobSet(&jobset, *JobSetRulesOf("v0.11.0"));
  const std::vector<doc::Node> jobs = FirstJobs(jobset, *JobSetRulesOf("v0.11.0"));
  ASSERT_EQ(jobs.size(), 1u);
  const std::vector<doc::Node>& volumes = doc::Items(doc::AtPath(&jobs[0], {"spec", "template", "spec", "volumes"}));
  ASSERT_EQ(volumes.size(), 1u);
  EXPECT_EQ(doc::StringAt(&volumes[0], "name"), "data");
  EXPECT_EQ(doc::StringAtPath(volumes[0], {"persistentVolumeClaim", "claimName"}), "data-js");
  const doc::Node& policy = doc::Items(doc::AtPath(&jobset, {"spec", "volumeClaimPolicies"}))[0];
  EXPECT_EQ(doc::StringAtPath(policy, {"retentionPolicy", "whenDeleted"}), "Delete");

  doc::Node old = Read(yaml);
  DefaultJobSet(&old, *JobSetRulesOf("v0.10.1"));
  EXPECT_EQ(doc::AtPath(&old, {"spec", "volumeClaimPolicies"}), nullptr);
}

TEST(JobSetJobsTest, Sha1MatchesKnownDigests) {
  EXPECT_EQ(jobset_parts::Sha1Hex(""), "da39a3ee5e6b4b0d3255bfef95601890afd80709");
  EXPECT_EQ(jobset_parts::Sha1Hex("abc"), "a9993e364706816aba3e25717850c26c9cd0d89d");
  EXPECT_EQ(jobset_parts::Sha1Hex(std::string(1000, 'a')), "291e9a6c66994949b57ba5e650361e98fc36b1ba");
}

}  // namespace
}  // namespace tjr::admission
