// Cases in the manner of pkg/apis/core/validation/validation_test.go
// (TestValidateContainers, TestValidateInitContainers, TestValidatePorts,
// TestValidateEnv, TestValidateEnvFrom, TestValidateVolumeMounts), with the
// expected texts read off validation.go (the revision containers.cc names), on pod specs as
// DefaultJob leaves them (protocol, imagePullPolicy and
// terminationMessagePolicy set, probes defaulted).
#include "admission/containers.h"

#include <gtest/gtest.h>

#include "doc/path.h"
#include "yaml/reader.h"

namespace tjr::admission {
namespace {

// The field errors of ValidateContainerLists on the pod spec `yaml`, whose
// volumes are `volumes` (name -> source kind).
std::vector<std::string> Errors(std::string_view yaml, std::string_view release = "1.34",
                                PodOwner owner = PodOwner::kJobTemplate) {
  Result<std::vector<doc::Node>> read = yaml::ReadStream(yaml, "spec.yaml");
  EXPECT_TRUE(read.ok());
  if (!read.ok() || read->empty()) return {};
  const doc::Node spec = read->front();
  PodVolumes volumes;
  for (const doc::Node& volume : doc::Items(spec.Find("volumes"))) volumes[doc::StringAt(volume, "name")] = &volume;
  ObjectErrors errors;
  ValidateContainerLists(spec, volumes, Path("spec.template.spec"), owner,
                         *KubernetesRulesOf(release), &errors);
  std::vector<std::string> out;
  for (const ObjectError& error : errors.errors()) out.push_back(error.error.Error());
  return out;
}

using Lines = std::vector<std::string>;

constexpr std::string_view kCtr = R"(  - name: node
    image: pytorch
    imagePullPolicy: IfNotPresent
    terminationMessagePolicy: File
)";

std::string Spec(std::string_view extra, std::string_view head = "containers:\n") {
  return std::string(head) + std::string(kCtr) + std::string(extra);
}

TEST(ValidateContainersTest, AcceptsADefaultedContainer) {
  EXPECT_EQ(Errors(Spec("")), Lines{});
}

TEST(ValidateContainersTest, RequiresContainers) {
  EXPECT_EQ(Errors("containers: []\n"), Lines{"spec.template.spec.containers: Required value"});
}

TEST(ValidateContainersTest, NamesAreLabelsUniqueAcrossBothLists) {
  EXPECT_EQ(Errors(Spec("", "initContainers:\n") + "containers:\n" + std::string(kCtr)),
            Lines{"spec.template.spec.initContainers[0].name: Duplicate value: \"node\""});
  const Lines bad = Errors(R"(containers:
  - name: Node_1
    image: x
    imagePullPolicy: Always
    terminationMessagePolicy: File
)");
  ASSERT_EQ(bad.size(), 1u);
  EXPECT_TRUE(bad[0].starts_with("spec.template.spec.containers[0].name: Invalid value: \"Node_1\": a lowercase RFC "
                                 "1123 label"));
}

TEST(ValidateContainersTest, RequiresAnImageButNotATrimmedOne) {
  EXPECT_EQ(Errors(R"(containers:
  - name: node
    imagePullPolicy: Always
    terminationMessagePolicy: File
  - name: other
    image: " "
    imagePullPolicy: Always
    terminationMessagePolicy: File
)"),
            Lines{"spec.template.spec.containers[0].image: Required value"});
}

TEST(ValidateContainersTest, OnlyAPodsImageMustBeTrimmed) {
  const std::string spec = R"(containers:
  - {name: a, image: " pytorch", imagePullPolicy: Always, terminationMessagePolicy: File}
)";
  EXPECT_EQ(Errors(spec), Lines{});
  EXPECT_EQ(Errors(spec, "1.34", PodOwner::kPod),
            Lines{"spec.template.spec.containers[0].image: Invalid value: \" pytorch\": must not have leading or "
                  "trailing whitespace"});
}

TEST(ValidateContainersTest, Ports) {
  EXPECT_EQ(Errors(Spec(R"(    ports:
    - {name: http, containerPort: 0, protocol: TCP}
    - {name: http, containerPort: 70000, protocol: HTTP}
    - {name: HTTP, containerPort: 80, hostPort: -1, protocol: UDP}
)")),
            (Lines{"spec.template.spec.containers[0].ports[0].containerPort: Required value",
                   "spec.template.spec.containers[0].ports[1].name: Duplicate value: \"http\"",
                   "spec.template.spec.containers[0].ports[1].containerPort: Invalid value: 70000: must be between 1 "
                   "and 65535, inclusive",
                   "spec.template.spec.containers[0].ports[1].protocol: Unsupported value: \"HTTP\": supported values: "
                   "\"SCTP\", \"TCP\", \"UDP\"",
                   "spec.template.spec.containers[0].ports[2].name: Invalid value: \"HTTP\": must contain only "
                   "alpha-numeric characters (a-z, 0-9), and hyphens (-)",
                   "spec.template.spec.containers[0].ports[2].name: Invalid value: \"HTTP\": must contain at least one "
                   "letter (a-z)",
                   "spec.template.spec.containers[0].ports[2].hostPort: Invalid value: -1: must be between 1 and "
                   "65535, inclusive"}));
}

TEST(ValidateContainersTest, HostPortsConflictAcrossContainersButInitContainersAlone) {
  const std::string two = R"(containers:
  - {name: a, image: x, imagePullPolicy: Always, terminationMessagePolicy: File, ports: [{containerPort: 80, hostPort: 8080, protocol: TCP}]}
  - {name: b, image: x, imagePullPolicy: Always, terminationMessagePolicy: File, ports: [{containerPort: 81, hostPort: 8080, protocol: TCP}]}
initContainers:
  - {name: c, image: x, imagePullPolicy: Always, terminationMessagePolicy: File, ports: [{containerPort: 80, hostPort: 8080, protocol: TCP}]}
  - {name: d, image: x, imagePullPolicy: Always, terminationMessagePolicy: File, ports: [{containerPort: 80, hostPort: 9090, protocol: TCP}, {containerPort: 81, hostPort: 9090, protocol: TCP}]}
)";
  // Upstream checks each init container as a list of one: index 0.
  EXPECT_EQ(Errors(two), (Lines{"spec.template.spec.containers[1].ports[0].hostPort: Duplicate value: \"TCP//8080\"",
                                "spec.template.spec.initContainers[0].ports[1].hostPort: Duplicate value: "
                                "\"TCP//9090\""}));
}

TEST(ValidateContainersTest, EnvValueAndValueFrom) {
  EXPECT_EQ(Errors(Spec(R"(    env:
    - {name: 1_RELAXED:OK, value: x}
    - name: BOTH
      value: x
      valueFrom: {fieldRef: {apiVersion: v1, fieldPath: metadata.name}}
    - name: NONE
      valueFrom: {}
    - name: TWO
      valueFrom:
        fieldRef: {apiVersion: v1, fieldPath: metadata.name}
        secretKeyRef: {name: s, key: k}
    - name: ""
    - {name: "A=B"}
    - name: PATH
      valueFrom: {fieldRef: {apiVersion: v1, fieldPath: status.phase}}
)")),
            (Lines{"spec.template.spec.containers[0].env[1].valueFrom: Invalid value: \"\": may not be specified "
                   "when `value` is not empty",
                   "spec.template.spec.containers[0].env[2].valueFrom: Invalid value: \"\": must specify one of: "
                   "`fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`",
                   "spec.template.spec.containers[0].env[3].valueFrom: Invalid value: \"\": may not have more than "
                   "one field specified at a time",
                   "spec.template.spec.containers[0].env[4].name: Required value",
                   "spec.template.spec.containers[0].env[5].name: Invalid value: \"A=B\": a valid environment "
                   "variable name must consist only of printable ASCII characters other than '='",
                   "spec.template.spec.containers[0].env[6].valueFrom.fieldRef.fieldPath: Unsupported value: "
                   "\"status.phase\": supported values: \"metadata.name\", \"metadata.namespace\", "
                   "\"metadata.uid\", \"spec.nodeName\", \"spec.serviceAccountName\", \"status.hostIP\", "
                   "\"status.hostIPs\", \"status.podIP\", \"status.podIPs\""}));
}

TEST(ValidateContainersTest, AFileKeyRefIsASourceFrom135) {
  const std::string spec =
      Spec("    env:\n    - {name: A, valueFrom: {fileKeyRef: {volumeName: v, path: a.env, key: A}}}\n");
  EXPECT_EQ(Errors(spec, "1.34"),
            Lines{"spec.template.spec.containers[0].env[0].valueFrom: Invalid value: \"\": must specify one of: "
                  "`fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`"});
  EXPECT_EQ(Errors(spec, "1.35"), Lines{});
}

TEST(ValidateContainersTest, EnvResourceFieldRefs) {
  EXPECT_EQ(Errors(Spec(R"(    env:
    - {name: A, valueFrom: {resourceFieldRef: {resource: limits.nvidia.com/gpu}}}
    - {name: B, valueFrom: {resourceFieldRef: {resource: limits.cpu, divisor: 1Mi}}}
    - {name: C, valueFrom: {resourceFieldRef: {resource: requests.hugepages-2Mi, divisor: 1Mi}}}
    - {name: D, valueFrom: {configMapKeyRef: {name: Bad_Name, key: "a/b"}}}
)")),
            (Lines{"spec.template.spec.containers[0].env[0].valueFrom.resourceFieldRef.resource: Unsupported value: "
                   "\"limits.nvidia.com/gpu\": supported values: \"limits.cpu\", \"limits.ephemeral-storage\", "
                   "\"limits.memory\", \"requests.cpu\", \"requests.ephemeral-storage\", \"requests.memory\"",
                   "spec.template.spec.containers[0].env[1].valueFrom.resourceFieldRef.divisor: Invalid value: "
                   "\"limits.cpu\": only divisor's values 1m and 1 are supported with the cpu resource",
                   "spec.template.spec.containers[0].env[3].valueFrom.configMapKeyRef.name: Invalid value: "
                   "\"Bad_Name\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, "
                   "'-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used "
                   "for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
                   "spec.template.spec.containers[0].env[3].valueFrom.configMapKeyRef.key: Invalid value: \"a/b\": a "
                   "valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or "
                   "'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')"}));
}

TEST(ValidateContainersTest, EnvFromNeedsOneSource) {
  EXPECT_EQ(Errors(Spec(R"(    envFrom:
    - {prefix: "a=b", configMapRef: {name: cm}}
    - {secretRef: {name: ""}}
    - {}
)")),
            (Lines{"spec.template.spec.containers[0].envFrom[0].prefix: Invalid value: \"a=b\": a valid environment "
                   "variable name must consist only of printable ASCII characters other than '='",
                   "spec.template.spec.containers[0].envFrom[1].secretRef.name: Required value",
                   "spec.template.spec.containers[0].envFrom: Invalid value: \"\": must specify one of: "
                   "`configMapRef` or `secretRef`"}));
}

TEST(ValidateContainersTest, ExtendedResourcesMustEqualTheirLimits) {
  EXPECT_EQ(Errors(Spec(R"(    resources:
      limits: {nvidia.com/gpu: 4, cpu: "1"}
      requests: {nvidia.com/gpu: 2, cpu: "2"}
)")),
            (Lines{"spec.template.spec.containers[0].resources.requests: Invalid value: \"2\": must be equal to "
                   "nvidia.com/gpu limit of 4",
                   "spec.template.spec.containers[0].resources.requests: Invalid value: \"2\": must be less than or "
                   "equal to cpu limit of 1"}));
}

TEST(ValidateContainersTest, AGpuLimitWithoutARequestIsValidInATemplate) {
  // No requests-from-limits defaulting happens for a Job's template.
  EXPECT_EQ(Errors(Spec("    resources:\n      limits: {nvidia.com/gpu: 4}\n")), Lines{});
  EXPECT_EQ(Errors(Spec("    resources:\n      requests: {nvidia.com/gpu: 4}\n")),
            Lines{"spec.template.spec.containers[0].resources.limits: Required value: Limit must be set for non "
                  "overcommitable resources"});
}

TEST(ValidateContainersTest, ResourceNamesAndQuantities) {
  EXPECT_EQ(Errors(Spec(R"(    resources:
      limits: {gpu: 1, memory: "-1Gi", example.com/foo: 500m, hugepages-2Mi: 2Mi}
)")),
            (Lines{"spec.template.spec.containers[0].resources.limits[gpu]: Invalid value: gpu: must be a standard "
                   "resource type or fully qualified",
                   "spec.template.spec.containers[0].resources.limits[gpu]: Invalid value: gpu: must be a standard "
                   "resource for containers",
                   "spec.template.spec.containers[0].resources.limits[memory]: Invalid value: \"-1Gi\": must be "
                   "greater than or equal to 0",
                   "spec.template.spec.containers[0].resources.limits[example.com/foo]: Invalid value: 500m: must be "
                   "an integer"}));
  EXPECT_EQ(Errors(Spec("    resources:\n      limits: {example.com/foo: \"1.500\", example.com/bar: 2k}\n")),
            Lines{"spec.template.spec.containers[0].resources.limits[example.com/foo]: Invalid value: 1.500: must be "
                  "an integer"});
  EXPECT_EQ(Errors(Spec("    resources:\n      limits: {hugepages-2Mi: 2Mi}\n")),
            Lines{"spec.template.spec.containers[0].resources: Forbidden: HugePages require cpu or memory"});
  EXPECT_EQ(Errors(Spec("    resources:\n      limits: {hugepages-2Mi: 3Mi, hugepages-1Gi: 2Gi, memory: 1Gi}\n")),
            Lines{"spec.template.spec.containers[0].resources.limits[hugepages-2Mi]: Invalid value: \"3Mi\": 3Mi is "
                  "not positive integer multiple of hugepages-2Mi"});
}

TEST(ValidateContainersTest, VolumeMounts) {
  EXPECT_EQ(Errors("volumes:\n- {name: data, emptyDir: {}}\n" + Spec(R"(    volumeMounts:
    - {name: data, mountPath: /data, subPath: /abs}
    - {name: missing, mountPath: /data}
    - {name: data, mountPath: /other, subPathExpr: "../x", mountPropagation: Bidirectional}
)")),
            (Lines{"spec.template.spec.containers[0].volumeMounts.subPath: Invalid value: \"/abs\": must be a "
                   "relative path",
                   "spec.template.spec.containers[0].volumeMounts[1].name: Not found: \"missing\"",
                   "spec.template.spec.containers[0].volumeMounts[1].mountPath: Invalid value: \"/data\": must be "
                   "unique",
                   "spec.template.spec.containers[0].volumeMounts.subPathExpr: Invalid value: \"../x\": must not "
                   "contain '..'",
                   "spec.template.spec.containers[0].volumeMounts.mountPropagation: Forbidden: Bidirectional mount "
                   "propagation is available only to privileged containers"}));
}

TEST(ValidateContainersTest, Probes) {
  EXPECT_EQ(Errors(Spec(R"(    livenessProbe: {successThreshold: 2, periodSeconds: 10, timeoutSeconds: 1, failureThreshold: 3}
    readinessProbe:
      exec: {command: [true]}
      tcpSocket: {port: 80}
      successThreshold: 1
      terminationGracePeriodSeconds: 10
    startupProbe: {httpGet: {path: /, port: 0, scheme: HTTP}, successThreshold: 1, periodSeconds: -1}
)")),
            (Lines{"spec.template.spec.containers[0].livenessProbe: Required value: must specify a handler type",
                   "spec.template.spec.containers[0].livenessProbe.successThreshold: Invalid value: 2: must be 1",
                   "spec.template.spec.containers[0].readinessProbe.tcpSocket: Forbidden: may not specify more than 1 "
                   "handler type",
                   "spec.template.spec.containers[0].readinessProbe.terminationGracePeriodSeconds: Invalid value: 10: "
                   "must not be set for readinessProbes",
                   "spec.template.spec.containers[0].startupProbe.httpGet.port: Invalid value: 0: must be between 1 "
                   "and 65535, inclusive",
                   "spec.template.spec.containers[0].startupProbe.periodSeconds: Invalid value: -1: must be greater "
                   "than or equal to 0"}));
}

TEST(ValidateContainersTest, SleepHooksAreBoundByTheGracePeriod) {
  EXPECT_EQ(Errors("terminationGracePeriodSeconds: 30\n" +
                   Spec("    lifecycle: {preStop: {sleep: {seconds: 40}}, postStart: {sleep: {seconds: 0}}}\n")),
            Lines{"spec.template.spec.containers[0].lifecycle.preStop.sleep: Invalid value: 40: must be non-negative "
                  "and less than terminationGracePeriodSeconds (30)"});
}

TEST(ValidateContainersTest, OnlySidecarsHaveProbesAndOnlyInitContainersARestartPolicy) {
  const std::string spec = Spec("", "initContainers:\n") + R"(    livenessProbe: {exec: {command: [true]}, successThreshold: 1}
  - name: sidecar
    image: x
    imagePullPolicy: Always
    terminationMessagePolicy: File
    restartPolicy: OnFailure
containers:
  - name: main
    image: x
    imagePullPolicy: Always
    terminationMessagePolicy: File
    restartPolicy: Never
)";
  EXPECT_EQ(Errors(spec, "1.34"),
            (Lines{"spec.template.spec.containers[0].restartPolicy: Forbidden: may not be set for non-init "
                   "containers",
                   "spec.template.spec.initContainers[0].livenessProbe: Forbidden: may not be set for init containers "
                   "without restartPolicy=Always",
                   "spec.template.spec.initContainers[1].restartPolicy: Unsupported value: \"OnFailure\": supported "
                   "values: \"Always\""}));
  // ContainerRestartRules is on by default from 1.35: containers and
  // regular init containers may set one.
  EXPECT_EQ(Errors(spec, "1.35"), Lines{Errors(spec, "1.34")[1]});
  EXPECT_EQ(Errors(spec, "1.36"), Lines{Errors(spec, "1.34")[1]});
}

TEST(ValidateContainersTest, SeccompAndAppArmorProfiles) {
  EXPECT_EQ(Errors(Spec(R"(    securityContext:
      procMount: Hidden
      seccompProfile: {type: Localhost, localhostProfile: ../escape.json}
      appArmorProfile: {type: RuntimeDefault, localhostProfile: mine}
)")),
            (Lines{"spec.template.spec.containers[0].securityContext.procMount: Unsupported value: \"Hidden\": "
                   "supported values: \"Default\", \"Unmasked\"",
                   "spec.template.spec.containers[0].securityContext.seccompProfile.localhostProfile: Invalid value: "
                   "\"../escape.json\": must not contain '..'",
                   "spec.template.spec.containers[0].securityContext.appArmorProfile.localhostProfile: Invalid value: "
                   "\"mine\": can only be set when AppArmor type is Localhost"}));
  EXPECT_EQ(Errors(Spec("    securityContext: {seccompProfile: {type: Localhost}, appArmorProfile: {type: Custom}}\n")),
            (Lines{"spec.template.spec.containers[0].securityContext.seccompProfile.localhostProfile: Required value: "
                   "must be set when seccomp type is Localhost",
                   "spec.template.spec.containers[0].securityContext.appArmorProfile.type: Unsupported value: "
                   "\"Custom\": supported values: \"Localhost\", \"RuntimeDefault\", \"Unconfined\""}));
}

TEST(ValidateContainersTest, ResizePolicy) {
  EXPECT_EQ(Errors("restartPolicy: Never\n" + Spec(R"(    resizePolicy:
    - {resourceName: cpu, restartPolicy: RestartContainer}
    - {resourceName: cpu, restartPolicy: NotRequired}
    - {resourceName: gpu, restartPolicy: Sometimes}
)")),
            (Lines{"spec.template.spec.containers[0].resizePolicy: Invalid value: \"RestartContainer\": must be "
                   "'NotRequired' when `restartPolicy` is 'Never'",
                   "spec.template.spec.containers[0].resizePolicy[1]: Duplicate value: cpu",
                   "spec.template.spec.containers[0].resizePolicy: Unsupported value: gpu: supported values: \"cpu\", "
                   "\"memory\"",
                   "spec.template.spec.containers[0].resizePolicy: Unsupported value: \"Sometimes\": supported "
                   "values: \"NotRequired\", \"RestartContainer\"",
                   "spec.template.spec.containers[0].resizePolicy: Invalid value: \"Sometimes\": must be "
                   "'NotRequired' when `restartPolicy` is 'Never'"}));
}

TEST(ValidateContainersTest, SecurityContextIds) {
  EXPECT_EQ(Errors(Spec("    securityContext: {runAsUser: -1, procMount: Unmasked}\n")),
            (Lines{"spec.template.spec.containers[0].securityContext.runAsUser: Invalid value: -1: must be between 0 "
                   "and 4294967295, inclusive",
                   "spec.template.spec.containers[0].securityContext.procMount: Invalid value: \"Unmasked\": "
                   "`hostUsers` must be false to use `Unmasked`"}));
}

}  // namespace
}  // namespace tjr::admission
