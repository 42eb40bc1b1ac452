// Cases after pkg/apis/core/validation/validation_test.go at v1.34.0
// (TestValidateVolumes, TestValidateRestartPolicy, TestValidateDNSPolicy,
// TestValidatePodDNSConfig, TestValidateTopologySpreadConstraints, and the
// affinity, toleration, security-context and scheduling-gate cases of
// TestValidatePodSpec and TestValidatePod), on pod templates as the API
// server holds them after defaulting. Expected texts are read off
// validation.go.
#include "admission/pod.h"

#include <gtest/gtest.h>

#include "base/object_name.h"
#include "yaml/reader.h"

namespace tjr::admission {
namespace {

using Lines = std::vector<std::string>;

constexpr std::string_view kHead = R"(metadata:
  labels: {app: llama}
spec:
  restartPolicy: OnFailure
  dnsPolicy: ClusterFirst
  terminationGracePeriodSeconds: 30
  schedulerName: default-scheduler
  containers:
  - name: node
    image: pytorch
    imagePullPolicy: IfNotPresent
    terminationMessagePolicy: File
)";

// ValidatePodTemplateSpec of the defaulted template with `spec_extra`
// (lines indented under spec) appended.
Lines Errors(std::string_view spec_extra, std::string_view release = "1.34", PodOwner owner = PodOwner::kJobTemplate) {
  const std::string yaml = std::string(kHead) + std::string(spec_extra);
  Result<std::vector<doc::Node>> read = yaml::ReadStream(yaml, "template.yaml");
  EXPECT_TRUE(read.ok()) << yaml;
  if (!read.ok() || read->empty()) return {"unreadable"};
  ObjectErrors errors;
  ValidatePodTemplateSpec(&read->front(), Path("spec.template"), owner, *KubernetesRulesOf(release), &errors);
  Lines out;
  for (const ObjectError& error : errors.errors()) out.push_back(error.error.Error());
  return out;
}

TEST(ValidatePodTemplateSpecTest, AcceptsADefaultedTemplate) {
  for (std::string_view release : {"1.34", "1.35", "1.36"}) EXPECT_EQ(Errors("", release), Lines{});
}

TEST(ValidatePodTemplateSpecTest, LabelsAreReportedAtTheTemplate) {
  const std::string yaml = "metadata:\n  labels: {app: -x}\nspec: {}\n";
  Result<std::vector<doc::Node>> read = yaml::ReadStream(yaml, "t.yaml");
  ASSERT_TRUE(read.ok());
  ObjectErrors errors;
  ValidatePodTemplateSpec(&read->front(), Path("spec.template"), PodOwner::kJobTemplate, *KubernetesRulesOf("1.34"),
                          &errors);
  ASSERT_FALSE(errors.empty());
  EXPECT_TRUE(errors.errors()[0].error.Error().starts_with("spec.template.labels: Invalid value: \"-x\": a valid label"));
}

// TestValidateVolumes.
TEST(ValidateVolumesTest, NamesAreUniqueLabels) {
  EXPECT_EQ(Errors("  volumes:\n  - {name: data, emptyDir: {}}\n  - {name: data, emptyDir: {}}\n"),
            Lines{"spec.template.spec.volumes[1].name: Duplicate value: \"data\""});
  EXPECT_EQ(Errors("  volumes:\n  - {name: Data_1, emptyDir: {}}\n"),
            Lines{std::string("spec.template.spec.volumes[0].name: Invalid value: \"Data_1\": ") +
                  std::string(kDns1123LabelMessage)});
  EXPECT_EQ(Errors("  volumes:\n  - {emptyDir: {}}\n"), Lines{"spec.template.spec.volumes[0].name: Required value"});
}

TEST(ValidateVolumesTest, ExactlyOneSource) {
  EXPECT_EQ(Errors("  volumes:\n  - {name: d, emptyDir: {}, hostPath: {path: /data}}\n"),
            Lines{"spec.template.spec.volumes[0].hostPath: Forbidden: may not specify more than 1 volume type"});
  // upstream's typo for downwardAPI.
  EXPECT_EQ(Errors("  volumes:\n  - {name: d, secret: {secretName: s}, downwardAPI: {}}\n"),
            Lines{"spec.template.spec.volumes[0].downwarAPI: Forbidden: may not specify more than 1 volume type"});
  EXPECT_EQ(Errors("  volumes:\n  - {name: d}\n"),
            Lines{"spec.template.spec.volumes[0]: Required value: must specify a volume type"});
}

TEST(ValidateVolumesTest, SourcesOwnRules) {
  EXPECT_EQ(Errors("  volumes:\n  - {name: d, emptyDir: {sizeLimit: -1Gi}}\n"),
            Lines{"spec.template.spec.volumes[0].emptyDir.sizeLimit: Forbidden: SizeLimit field must be a valid "
                  "resource quantity"});
  EXPECT_EQ(Errors("  volumes:\n  - {name: d, hostPath: {path: ''}}\n"),
            Lines{"spec.template.spec.volumes[0].hostPath.path: Required value"});
  EXPECT_EQ(Errors("  volumes:\n  - {name: d, hostPath: {path: /a/../b, type: Dir}}\n"),
            (Lines{"spec.template.spec.volumes[0].hostPath.path: Invalid value: \"/a/../b\": must not contain '..'",
                   "spec.template.spec.volumes[0].hostPath.type: Unsupported value: \"Dir\": supported values: \"\", "
                   "\"BlockDevice\", \"CharDevice\", \"Directory\", \"DirectoryOrCreate\", \"File\", \"FileOrCreate\", "
                   "\"Socket\""}));
  EXPECT_EQ(Errors("  volumes:\n  - {name: d, persistentVolumeClaim: {claimName: ''}}\n"),
            Lines{"spec.template.spec.volumes[0].persistentVolumeClaim.claimName: Required value"});
  EXPECT_EQ(Errors("  volumes:\n  - name: d\n    configMap:\n      name: c\n      defaultMode: 1000\n"
                   "      items: [{key: '', path: /abs, mode: -1}]\n"),
            (Lines{"spec.template.spec.volumes[0].configMap.defaultMode: Invalid value: 1000: must be a number between "
                   "0 and 0777 (octal), both inclusive",
                   "spec.template.spec.volumes[0].configMap.items[0].key: Required value",
                   "spec.template.spec.volumes[0].configMap.items[0].path: Invalid value: \"/abs\": must be a relative "
                   "path",
                   "spec.template.spec.volumes[0].configMap.items[0].mode: Invalid value: -1: must be a number between "
                   "0 and 0777 (octal), both inclusive"}));
  EXPECT_EQ(Errors("  volumes:\n  - {name: d, secret: {items: [{key: k, path: ..x}]}}\n"),
            (Lines{"spec.template.spec.volumes[0].secret.secretName: Required value",
                   "spec.template.spec.volumes[0].secret.items[0].path: Invalid value: \"..x\": must not start with "
                   "'..'"}));
  EXPECT_EQ(Errors("  volumes:\n  - {name: d, gcePersistentDisk: {}}\n"),
            Lines{"spec.template.spec.volumes[0].persistentDisk.pdName: Required value"});
  EXPECT_EQ(Errors("  volumes:\n  - {name: d, csi: {driver: ''}}\n"),
            (Lines{"spec.template.spec.volumes[0].csi.driver: Required value",
                   std::string("spec.template.spec.volumes[0].csi.driver: Invalid value: \"\": ") +
                       std::string(kDns1123SubdomainMessage)}));
  EXPECT_EQ(Errors("  volumes:\n  - {name: d, ephemeral: {}}\n"),
            Lines{"spec.template.spec.volumes[0].ephemeral.volumeClaimTemplate: Required value"});
}

TEST(ValidateVolumesTest, ProjectedSources) {
  EXPECT_EQ(Errors("  volumes:\n  - name: d\n    projected:\n      sources:\n"
                   "      - {secret: {name: s, items: [{key: a, path: p}]}, configMap: {name: c, items: [{key: b, path: p}]}}\n"
                   "      - serviceAccountToken: {path: t, expirationSeconds: 60}\n"),
            (Lines{"spec.template.spec.volumes[0].projected: Invalid value: \"c\": conflicting duplicate paths",
                   "spec.template.spec.volumes[0].projected.sources[0]: Forbidden: may not specify more than 1 volume "
                   "type per source",
                   "spec.template.spec.volumes[0].projected.sources[1].serviceAccountToken.expirationSeconds: Invalid "
                   "value: 60: may not specify a duration less than 10 minutes"}));
}

// TestValidateRestartPolicy, TestValidateDNSPolicy.
TEST(ValidatePodSpecTest, RestartAndDnsPolicies) {
  const std::string yaml = std::string(kHead);
  Result<std::vector<doc::Node>> read = yaml::ReadStream(yaml, "t.yaml");
  ASSERT_TRUE(read.ok());
  doc::Node tmpl = read->front();
  doc::Node* spec = tmpl.FindMutable("spec");
  spec->Set("restartPolicy", doc::Node::String("Sometimes"));
  spec->Set("dnsPolicy", doc::Node::String(""));
  ObjectErrors errors;
  ValidatePodTemplateSpec(&tmpl, Path("spec.template"), PodOwner::kJobTemplate, *KubernetesRulesOf("1.35"), &errors);
  Lines texts;
  for (const ObjectError& error : errors.errors()) texts.push_back(error.error.Error());
  EXPECT_EQ(texts, (Lines{"spec.template.spec.restartPolicy: Unsupported value: \"Sometimes\": supported values: "
                          "\"Always\", \"OnFailure\", \"Never\"",
                          "spec.template.spec.dnsPolicy: Required value"}));
}

// TestValidatePodDNSConfig.
TEST(ValidatePodSpecTest, DnsNoneNeedsANameserver) {
  EXPECT_EQ(Errors("  dnsConfig: {searches: [a]}\n").size(), 0u);
  EXPECT_EQ(Errors("  dnsConfig: {nameservers: [1.1.1.1, 1.0.0.1, 8.8.8.8, 8.8.4.4], options: [{value: '2'}]}\n"),
            (Lines{"spec.template.spec.dnsConfig.nameservers: Invalid value: []string{\"1.1.1.1\", \"1.0.0.1\", "
                   "\"8.8.8.8\", \"8.8.4.4\"}: must not have more than 3 nameservers",
                   "spec.template.spec.dnsConfig.options[0]: Required value: must not be empty"}));
  EXPECT_EQ(Errors("  dnsConfig: {nameservers: [010.0.0.1, '1.2.3', 'fe80::1']}\n  hostAliases: [{ip: 1.2.3.4.5, hostnames: [A_B]}]\n"),
            (Lines{"spec.template.spec.dnsConfig.nameservers[1]: Invalid value: \"1.2.3\": must be a valid IP address, "
                   "(e.g. 10.9.8.7 or 2001:db8::ffff)",
                   "spec.template.spec.hostAliases[0].ip: Invalid value: \"1.2.3.4.5\": must be a valid IP address, (e.g. "
                   "10.9.8.7 or 2001:db8::ffff)",
                   std::string("spec.template.spec.hostAliases[0].hostnames[0]: Invalid value: \"A_B\": ") +
                       std::string(kDns1123SubdomainMessage)}));
  const std::string yaml = std::string(kHead);
  Result<std::vector<doc::Node>> read = yaml::ReadStream(yaml, "t.yaml");
  ASSERT_TRUE(read.ok());
  doc::Node tmpl = read->front();
  tmpl.FindMutable("spec")->Set("dnsPolicy", doc::Node::String("None"));
  ObjectErrors errors;
  ValidatePodTemplateSpec(&tmpl, Path("spec.template"), PodOwner::kJobTemplate, *KubernetesRulesOf("1.34"), &errors);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors.errors()[0].error.Error(),
            "spec.template.spec.dnsConfig: Required value: must provide `dnsConfig` when `dnsPolicy` is None");
}

// validatePodHostNetworkDeps: a template may leave hostPort 0.
TEST(ValidatePodSpecTest, HostNetworkPortsMatch) {
  const auto errors = [](std::string_view ports) {
    const std::string yaml = std::string(kHead) + "    ports: " + std::string(ports) + "\n  hostNetwork: true\n";
    Result<std::vector<doc::Node>> read = yaml::ReadStream(yaml, "t.yaml");
    EXPECT_TRUE(read.ok());
    ObjectErrors out;
    ValidatePodTemplateSpec(&read->front(), Path("spec.template"), PodOwner::kJobTemplate, *KubernetesRulesOf("1.34"),
                            &out);
    Lines texts;
    for (const ObjectError& error : out.errors()) texts.push_back(error.error.Error());
    return texts;
  };
  EXPECT_EQ(errors("[{containerPort: 8080, hostPort: 9090, protocol: TCP}]"),
            Lines{"spec.template.spec.containers[0].ports[0].hostPort: Invalid value: 9090: must match "
                  "`containerPort` when `hostNetwork` is true"});
  EXPECT_EQ(errors("[{containerPort: 8080, protocol: TCP}]"), Lines{});
}

// A Pod (ValidatePodCreate's spec): ephemeral containers are refused on
// create, an unset hostPort is defaulted to the containerPort.
TEST(ValidatePodSpecTest, APodsOwnRules) {
  const std::string yaml = std::string(kHead) + "    ports: [{containerPort: 8080, protocol: TCP}]\n  hostNetwork: true\n" +
                           "  ephemeralContainers: [{name: dbg, image: busybox, imagePullPolicy: IfNotPresent, "
                           "terminationMessagePolicy: File}]\n";
  Result<std::vector<doc::Node>> read = yaml::ReadStream(yaml, "pod.yaml");
  ASSERT_TRUE(read.ok());
  const doc::Node metadata = doc::Node::Mapping();
  ObjectErrors errors;
  ValidatePodSpec(read->front().Find("spec"), &metadata, Path("spec"), PodOwner::kPod, *KubernetesRulesOf("1.34"), &errors);
  Lines texts;
  for (const ObjectError& error : errors.errors()) texts.push_back(error.error.Error());
  EXPECT_EQ(texts, Lines{"spec.ephemeralContainers: Forbidden: cannot be set on create"});
}

TEST(ValidatePodSpecTest, NodeSelectorAndNamesAndDeadline) {
  EXPECT_EQ(Errors("  nodeSelector: {'a b': c}\n  serviceAccountName: Bad_SA\n  activeDeadlineSeconds: 0\n"
                   "  hostname: a.b\n  priorityClassName: Hi_Prio\n"),
            (Lines{"spec.template.spec.nodeSelector: Invalid value: \"a b\": name part must consist of alphanumeric "
                   "characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  "
                   "or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
                   std::string("spec.template.spec.serviceAccountName: Invalid value: \"Bad_SA\": ") +
                       std::string(kDns1123SubdomainMessage),
                   "spec.template.spec.activeDeadlineSeconds: Invalid value: 0: must be between 1 and 2147483647, "
                   "inclusive",
                   "spec.template.spec.hostname: Invalid value: \"a.b\": must not contain dots",
                   std::string("spec.template.spec.priorityClassName: Invalid value: \"Hi_Prio\": ") +
                       std::string(kDns1123SubdomainMessage)}));
}

// TestValidatePod's toleration cases.
TEST(ValidateTolerationsTest, OperatorsValuesAndEffects) {
  EXPECT_EQ(Errors("  tolerations:\n  - {key: gpu, operator: Foo}\n"),
            Lines{"spec.template.spec.tolerations[0].operator: Unsupported value: \"Foo\": supported values: \"Equal\", "
                  "\"Exists\""});
  EXPECT_EQ(Errors("  tolerations:\n  - {operator: Equal, value: x}\n"),
            Lines{"spec.template.spec.tolerations[0].operator: Invalid value: \"Equal\": operator must be Exists when "
                  "`key` is empty, which means \"match all values and all keys\""});
  EXPECT_EQ(Errors("  tolerations:\n  - {key: gpu, operator: Exists, value: x}\n"),
            Lines{"spec.template.spec.tolerations[0].operator: Invalid value: \"x\": value must be empty when "
                  "`operator` is 'Exists'"});
  EXPECT_EQ(Errors("  tolerations:\n  - {key: gpu, operator: Exists, effect: NoSchedule, tolerationSeconds: 5}\n"),
            Lines{"spec.template.spec.tolerations[0].effect: Invalid value: \"NoSchedule\": effect must be "
                  "'NoExecute' when `tolerationSeconds` is set"});
  EXPECT_EQ(Errors("  tolerations:\n  - {key: gpu, operator: Exists, effect: Never}\n"),
            Lines{"spec.template.spec.tolerations[0].effect: Unsupported value: \"Never\": supported values: "
                  "\"NoSchedule\", \"PreferNoSchedule\", \"NoExecute\""});
  EXPECT_EQ(Errors("  tolerations:\n  - {operator: Exists}\n  - {key: nvidia.com/gpu, operator: Equal, value: present}\n"),
            Lines{});
}

TEST(ValidateAffinityTest, NodeAndPodTerms) {
  EXPECT_EQ(Errors("  affinity:\n    nodeAffinity:\n      requiredDuringSchedulingIgnoredDuringExecution:\n"
                   "        nodeSelectorTerms: []\n"),
            Lines{"spec.template.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution."
                  "nodeSelectorTerms: Required value: must have at least one node selector term"});
  EXPECT_EQ(Errors("  affinity:\n    nodeAffinity:\n      requiredDuringSchedulingIgnoredDuringExecution:\n"
                   "        nodeSelectorTerms:\n        - matchExpressions: [{key: zone, operator: In2, values: [a]}]\n"),
            Lines{"spec.template.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution."
                  "nodeSelectorTerms[0].matchExpressions[0].operator: Invalid value: \"In2\": not a valid selector "
                  "operator"});
  EXPECT_EQ(Errors("  affinity:\n    nodeAffinity:\n      preferredDuringSchedulingIgnoredDuringExecution:\n"
                   "      - weight: 101\n        preference: {matchExpressions: [{key: z, operator: Exists}]}\n"),
            Lines{"spec.template.spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight: "
                  "Invalid value: 101: must be in the range 1-100"});
  const Lines pod = Errors("  affinity:\n    podAntiAffinity:\n      requiredDuringSchedulingIgnoredDuringExecution:\n"
                           "      - labelSelector: {matchLabels: {app: llama}}\n");
  ASSERT_EQ(pod.size(), 3u);
  EXPECT_EQ(pod[0],
            "spec.template.spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey: "
            "Required value: can not be empty");
  EXPECT_EQ(pod[1],
            "spec.template.spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey: "
            "Invalid value: \"\": name part must be non-empty");
}

// TestValidateTopologySpreadConstraints.
TEST(ValidateTopologySpreadTest, Fields) {
  EXPECT_EQ(Errors("  topologySpreadConstraints:\n  - {maxSkew: 0, topologyKey: '', whenUnsatisfiable: Maybe}\n"),
            (Lines{"spec.template.spec.topologySpreadConstraints[0].maxSkew: Invalid value: 0: must be greater than zero",
                   "spec.template.spec.topologySpreadConstraints[0].topologyKey: Required value: can not be empty",
                   "spec.template.spec.topologySpreadConstraints[0].whenUnsatisfiable: Unsupported value: \"Maybe\": "
                   "supported values: \"DoNotSchedule\", \"ScheduleAnyway\""}));
  EXPECT_EQ(Errors("  topologySpreadConstraints:\n"
                   "  - {maxSkew: 1, topologyKey: zone, whenUnsatisfiable: ScheduleAnyway, minDomains: 2}\n"
                   "  - {maxSkew: 1, topologyKey: zone, whenUnsatisfiable: ScheduleAnyway, matchLabelKeys: [app]}\n"),
            (Lines{"spec.template.spec.topologySpreadConstraints[0].{topologyKey, whenUnsatisfiable}: Duplicate value: "
                   "\"{zone, ScheduleAnyway}\"",
                   "spec.template.spec.topologySpreadConstraints[0].minDomains: Invalid value: 2: can only use "
                   "minDomains if whenUnsatisfiable=DoNotSchedule, not ScheduleAnyway",
                   "spec.template.spec.topologySpreadConstraints[1].matchLabelKeys: Forbidden: must not be specified "
                   "when labelSelector is not set"}));
}

TEST(ValidatePodSecurityContextTest, IdsSysctlsProfiles) {
  EXPECT_EQ(Errors("  hostNetwork: true\n  securityContext:\n    runAsUser: -1\n    sysctls: [{name: net.core.somaxconn, value: '1'}, {name: 'A'}]\n"
                   "    seccompProfile: {type: Localhost}\n    fsGroupChangePolicy: Sometimes\n"),
            (Lines{"spec.template.spec.securityContext.runAsUser: Invalid value: -1: must be between 0 and 4294967295, "
                   "inclusive",
                   "spec.template.spec.securityContext.sysctls[0].name: Invalid value: \"net.core.somaxconn\": may not "
                   "be specified when 'hostNetwork' is true",
                   "spec.template.spec.securityContext.sysctls[1].name: Invalid value: \"A\": must have at most 253 "
                   "characters and match regex ^([a-z0-9]([-_a-z0-9]*[a-z0-9])?[\\./])*[a-z0-9]([-_a-z0-9]*[a-z0-9])?$",
                   "spec.template.spec.securityContext.fsGroupChangePolicy: Unsupported value: \"Sometimes\": supported "
                   "values: \"Always\", \"OnRootMismatch\"",
                   "spec.template.spec.securityContext.seccompProfile.localhostProfile: Required value: must be set "
                   "when seccomp type is Localhost"}));
  EXPECT_EQ(Errors("  hostPID: true\n  hostUsers: false\n"),
            Lines{"spec.template.spec.HostPID: Forbidden: when `pod.Spec.HostUsers` is false"});
}

TEST(ValidatePodSpecTest, SchedulingAndReadinessGates) {
  EXPECT_EQ(Errors("  schedulingGates: [{name: a}, {name: a}]\n  readinessGates: [{conditionType: 'x/y/z'}]\n").size(), 2u);
  EXPECT_EQ(Errors("  schedulingGates: [{name: a}, {name: a}]\n").back(),
            "spec.template.spec.schedulingGates[1]: Duplicate value: \"a\"");
}

TEST(ValidatePodSpecTest, EphemeralContainersAndOs) {
  EXPECT_EQ(Errors("  ephemeralContainers: [{name: dbg, image: busybox}]\n  os: {name: plan9}\n"),
            (Lines{"spec.template.spec.os: Unsupported value: \"plan9\": supported values: \"linux\", \"windows\"",
                   "spec.template.spec.ephemeralContainers: Forbidden: ephemeral containers not allowed in pod template"}));
}

}  // namespace
}  // namespace tjr::admission

namespace tjr::admission {
namespace {

// ValidatePodSpecificAnnotations' seccomp and AppArmor annotations.
TEST(ValidatePodTemplateSpecTest, SeccompAndAppArmorAnnotations) {
  const std::string yaml = std::string(kHead).replace(0, std::string_view("metadata:\n  labels: {app: llama}\n").size(),
      "metadata:\n  annotations:\n    seccomp.security.alpha.kubernetes.io/pod: default\n"
      "    container.apparmor.security.beta.kubernetes.io/trainer: runtime/default\n"
      "    container.apparmor.security.beta.kubernetes.io/node: enforce\n");
  Result<std::vector<doc::Node>> read = yaml::ReadStream(yaml, "t.yaml");
  ASSERT_TRUE(read.ok());
  ObjectErrors errors;
  ValidatePodTemplateSpec(&read->front(), Path("spec.template"), PodOwner::kJobTemplate, *KubernetesRulesOf("1.34"), &errors);
  Lines texts;
  for (const ObjectError& error : errors.errors()) texts.push_back(error.error.Error());
  EXPECT_EQ(texts,
            (Lines{"spec.template.annotations.seccomp.security.alpha.kubernetes.io/pod: Invalid value: \"default\": must "
                   "be a valid seccomp profile",
                   "spec.template.annotations[container.apparmor.security.beta.kubernetes.io/trainer]: Invalid value: "
                   "\"trainer\": container not found",
                   "spec.template.annotations[container.apparmor.security.beta.kubernetes.io/node]: Invalid value: "
                   "\"enforce\": invalid AppArmor profile name: \"enforce\""}));
}

}  // namespace
}  // namespace tjr::admission
