// Cases after pkg/apis/batch/v1/defaults_test.go TestSetDefaultJob and
// pkg/apis/core/v1/defaults_test.go (TestSetDefaultPodSpec...,
// TestSetDefaultContainer, TestSetDefaultProbe, TestSetDefaultSecret...,
// TestSetDefaultObjectFieldSelectorAPIVersion) at v1.34.0, and
// pkg/registry/batch/job/strategy_test.go's generated selector.
#include <gtest/gtest.h>

#include "admission/job.h"
#include "admission/pod_defaults.h"
#include "doc/path.h"
#include "yaml/reader.h"

namespace tjr::admission {
namespace {

doc::Node Defaulted(std::string_view spec) {
  std::string text = "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: pi\n  namespace: ml\nspec:\n";
  text += spec;
  Result<std::vector<doc::Node>> read = yaml::ReadStream(text, "job.yaml");
  EXPECT_TRUE(read.ok());
  doc::Node job = read.ok() ? read->front() : doc::Node();
  DefaultJob(&job, *KubernetesRulesOf("1.34"));
  return job;
}

std::string Text(const doc::Node& job, std::initializer_list<std::string_view> path) {
  const doc::Node* node = doc::FindPath(job, path);
  if (node == nullptr) return "<unset>";
  if (node->is_int()) return std::to_string(node->int_value());
  if (node->is_bool()) return node->bool_value() ? "true" : "false";
  return node->is_string() ? node->string_value() : "<node>";
}

TEST(DefaultJobTest, CountsAndLimits) {
  const doc::Node neither = Defaulted("  template: {}\n");
  EXPECT_EQ(Text(neither, {"spec", "completions"}), "1");
  EXPECT_EQ(Text(neither, {"spec", "parallelism"}), "1");
  EXPECT_EQ(Text(neither, {"spec", "backoffLimit"}), "6");
  EXPECT_EQ(Text(neither, {"spec", "completionMode"}), "NonIndexed");
  EXPECT_EQ(Text(neither, {"spec", "suspend"}), "false");
  EXPECT_EQ(Text(neither, {"spec", "manualSelector"}), "false");
  EXPECT_EQ(Text(neither, {"spec", "podReplacementPolicy"}), "TerminatingOrFailed");
  // Parallelism alone leaves completions unset (a work queue).
  const doc::Node parallel = Defaulted("  parallelism: 3\n");
  EXPECT_EQ(Text(parallel, {"spec", "completions"}), "<unset>");
  const doc::Node completions = Defaulted("  completions: 4\n");
  EXPECT_EQ(Text(completions, {"spec", "parallelism"}), "1");
  const doc::Node per_index = Defaulted("  completionMode: Indexed\n  completions: 2\n  backoffLimitPerIndex: 1\n");
  EXPECT_EQ(Text(per_index, {"spec", "backoffLimit"}), "2147483647");
  const doc::Node policy = Defaulted("  podFailurePolicy:\n    rules:\n    - action: Ignore\n      onPodConditions:\n"
                                     "      - type: DisruptionTarget\n");
  EXPECT_EQ(Text(policy, {"spec", "podReplacementPolicy"}), "Failed");
  const doc::Node* pattern = &doc::Items(doc::AtPath(&policy, {"spec", "podFailurePolicy", "rules"}))[0];
  EXPECT_EQ(doc::StringAtPath(doc::Items(doc::At(pattern, "onPodConditions"))[0], {"status"}), "True");
}

TEST(DefaultJobTest, LabelsComeFromTheTemplateAndTheSelectorIsGenerated) {
  const doc::Node job = Defaulted("  template:\n    metadata:\n      labels: {app: pi}\n");
  EXPECT_EQ(Text(job, {"metadata", "labels", "app"}), "pi");
  EXPECT_EQ(Text(job, {"metadata", "labels", "job-name"}), "<unset>");
  const std::string uid = Text(job, {"metadata", "uid"});
  EXPECT_FALSE(uid.empty());
  EXPECT_EQ(Text(job, {"spec", "template", "metadata", "labels", "job-name"}), "pi");
  EXPECT_EQ(Text(job, {"spec", "template", "metadata", "labels", "batch.kubernetes.io/job-name"}), "pi");
  EXPECT_EQ(Text(job, {"spec", "template", "metadata", "labels", "controller-uid"}), uid);
  EXPECT_EQ(Text(job, {"spec", "template", "metadata", "labels", "batch.kubernetes.io/controller-uid"}), uid);
  EXPECT_EQ(Text(job, {"spec", "selector", "matchLabels", "batch.kubernetes.io/controller-uid"}), uid);
  EXPECT_EQ(doc::AtPath(&job, {"spec", "selector", "matchLabels"})->size(), 1u);
  // manualSelector: nothing generated.
  const doc::Node manual = Defaulted("  manualSelector: true\n  selector:\n    matchLabels: {a: b}\n");
  EXPECT_EQ(Text(manual, {"spec", "template", "metadata", "labels", "job-name"}), "<unset>");
}

TEST(DefaultJobTest, PodTemplateDefaults) {
  const doc::Node job = Defaulted(R"(  template:
    spec:
      volumes:
      - name: none
      - name: cm
        configMap: {name: c}
      - name: token
        projected:
          sources:
          - serviceAccountToken: {path: t}
      containers:
      - name: c
        image: pytorch/pytorch
        ports:
        - containerPort: 80
        env:
        - name: POD
          valueFrom:
            fieldRef: {fieldPath: metadata.name}
        livenessProbe:
          httpGet: {port: 80}
)");
  const doc::Node* spec = doc::AtPath(&job, {"spec", "template", "spec"});
  EXPECT_EQ(doc::StringAt(spec, "dnsPolicy"), "ClusterFirst");
  EXPECT_EQ(doc::StringAt(spec, "restartPolicy"), "Always");
  EXPECT_EQ(doc::StringAt(spec, "schedulerName"), "default-scheduler");
  EXPECT_EQ(doc::At(spec, "terminationGracePeriodSeconds")->int_value(), 30);
  ASSERT_NE(doc::At(spec, "securityContext"), nullptr);
  EXPECT_EQ(doc::At(spec, "enableServiceLinks"), nullptr);  // SetDefaults_Pod only
  const std::vector<doc::Node>& volumes = doc::Items(doc::At(spec, "volumes"));
  EXPECT_NE(doc::At(&volumes[0], "emptyDir"), nullptr);
  EXPECT_EQ(doc::AtPath(&volumes[1], {"configMap", "defaultMode"})->int_value(), 0644);
  EXPECT_EQ(doc::AtPath(&volumes[2], {"projected", "defaultMode"})->int_value(), 0644);
  EXPECT_EQ(doc::AtPath(&doc::Items(doc::AtPath(&volumes[2], {"projected", "sources"}))[0],
                        {"serviceAccountToken", "expirationSeconds"})
                ->int_value(),
            3600);
  const doc::Node& container = doc::Items(doc::At(spec, "containers"))[0];
  EXPECT_EQ(doc::StringAt(container, "imagePullPolicy"), "Always");
  EXPECT_EQ(doc::StringAt(container, "terminationMessagePath"), "/dev/termination-log");
  EXPECT_EQ(doc::StringAt(container, "terminationMessagePolicy"), "File");
  EXPECT_EQ(doc::StringAt(doc::Items(doc::At(&container, "ports"))[0], "protocol"), "TCP");
  EXPECT_EQ(doc::StringAtPath(doc::Items(doc::At(&container, "env"))[0], {"valueFrom", "fieldRef", "apiVersion"}), "v1");
  const doc::Node* probe = doc::At(&container, "livenessProbe");
  EXPECT_EQ(doc::At(probe, "timeoutSeconds")->int_value(), 1);
  EXPECT_EQ(doc::At(probe, "periodSeconds")->int_value(), 10);
  EXPECT_EQ(doc::At(probe, "successThreshold")->int_value(), 1);
  EXPECT_EQ(doc::At(probe, "failureThreshold")->int_value(), 3);
  EXPECT_EQ(doc::StringAtPath(probe, {"httpGet", "path"}), "/");
  EXPECT_EQ(doc::StringAtPath(probe, {"httpGet", "scheme"}), "HTTP");
  // No requests from limits: that is SetDefaults_Pod's.
  EXPECT_EQ(doc::At(&container, "resources"), nullptr);
}

TEST(DefaultJobTest, WrittenValuesKeepTheirNodes) {
  const doc::Node job = Defaulted("  backoffLimit: 2\n  template:\n    spec:\n      restartPolicy: Never\n");
  EXPECT_EQ(Text(job, {"spec", "backoffLimit"}), "2");
  EXPECT_EQ(doc::FindPath(job, {"spec", "backoffLimit"})->location().line, 7);
  EXPECT_EQ(Text(job, {"spec", "template", "spec", "restartPolicy"}), "Never");
  EXPECT_FALSE(doc::FindPath(job, {"spec", "suspend"})->location().known());
}

TEST(DefaultPullPolicyTest, LatestOrNoTagIsAlways) {
  // TestSetDefaultContainer / parsers.ParseImageName.
  EXPECT_EQ(DefaultPullPolicy("busybox"), "Always");
  EXPECT_EQ(DefaultPullPolicy("busybox:latest"), "Always");
  EXPECT_EQ(DefaultPullPolicy("busybox:1.36"), "IfNotPresent");
  EXPECT_EQ(DefaultPullPolicy("localhost:5000/team/img"), "Always");
  EXPECT_EQ(DefaultPullPolicy("localhost:5000/team/img:v2"), "IfNotPresent");
  EXPECT_EQ(DefaultPullPolicy("busybox@sha256:" + std::string(64, 'a')), "IfNotPresent");
  EXPECT_EQ(DefaultPullPolicy("busybox:latest@sha256:" + std::string(64, 'a')), "Always");
  EXPECT_EQ(DefaultPullPolicy("Busybox"), "IfNotPresent");  // refused reference: no tag
  EXPECT_EQ(DefaultPullPolicy(""), "IfNotPresent");
  EXPECT_EQ(DefaultPullPolicy(std::string(237, 'a')), "Always");        // docker.io/library/ + 237 = 255
  EXPECT_EQ(DefaultPullPolicy(std::string(238, 'a')), "IfNotPresent");  // 256: ErrNameTooLong
}

// A runtime's image has no length limit before the API server: the grammar
// is matched in linear time and bounded stack (std::regex overflowed it).
TEST(DefaultPullPolicyTest, AnImageOf256KiBIsParsedWithoutRecursion) {
  EXPECT_EQ(DefaultPullPolicy(std::string(1 << 18, 'b') + ":latest"), "IfNotPresent");
  EXPECT_EQ(DefaultPullPolicy(std::string(1 << 18, 'b') + "/"), "IfNotPresent");
}

}  // namespace
}  // namespace tjr::admission
