// Error cases transcribed from upstream's core validation tests
// (kubernetes/kubernetes pkg/apis/core/validation/validation_test.go at
// 000f2605, the revision containers.cc names), each with the whole text
// field.Error.Error() prints. Where the upstream test only checks the
// type and field (cmpopts.IgnoreFields BadValue/Detail) or only that some
// error occurs, the value and detail are read off validation.go at the same
// revision and the case says "derived". Inputs are upstream's, written as
// YAML; paths are rooted as upstream's test roots them ("containers",
// "initContainers", "field").
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "admission/containers.h"
#include "admission/pod_parts.h"
#include "base/object_name.h"
#include "doc/path.h"
#include "yaml/reader.h"

namespace tjr::admission {
namespace {

using Lines = std::vector<std::string>;

doc::Node Read(std::string_view yaml) {
  Result<std::vector<doc::Node>> read = yaml::ReadStream(yaml, "case.yaml");
  EXPECT_TRUE(read.ok()) << yaml;
  return read.ok() && !read->empty() ? read->front() : doc::Node::Mapping();
}

Lines Texts(const ObjectErrors& errors) {
  Lines out;
  for (const ObjectError& error : errors.errors()) out.push_back(error.error.Error());
  return out;
}

// validateContainers then validateInitContainers of the pod spec `yaml`
// (its volumes through ValidateVolumes, as ValidatePodSpec passes them),
// rooted at "" so that the paths read "containers[0]..." as upstream's
// field.NewPath("containers") prints them. The volumes' own errors are
// not returned.
Lines Containers(std::string_view yaml, std::string_view release = "1.34") {
  const doc::Node spec = Read(yaml);
  ObjectErrors volume_errors;
  const PodVolumes volumes = pod_parts::ValidateVolumes(doc::At(&spec, "volumes"), nullptr, Path("volumes"), &volume_errors);
  ObjectErrors errors;
  ValidateContainerLists(spec, volumes, Path(""), PodOwner::kJobTemplate, *KubernetesRulesOf(release), &errors);
  return Texts(errors);
}

// TestValidateContainers runs with PodRestartPolicy Always and
// defaultGracePeriod 30; `containers` is the list under test.
std::string Regular(std::string_view containers) {
  return "restartPolicy: Always\nterminationGracePeriodSeconds: 30\ncontainers:\n" + std::string(containers);
}

// TestValidateInitContainers: PodRestartPolicy Never, the regular container
// "app", and `init` as the init containers.
std::string Init(std::string_view init) {
  return "restartPolicy: Never\nterminationGracePeriodSeconds: 30\ncontainers:\n"
         "- {name: app, image: nginx, imagePullPolicy: IfNotPresent, terminationMessagePolicy: File}\n"
         "initContainers:\n" +
         std::string(init);
}

std::string Subdomain(std::string_view prefix, std::string_view value) {
  return std::string(prefix) + ": Invalid value: \"" + std::string(value) + "\": " + std::string(kDns1123SubdomainMessage);
}

// --- TestValidateContainers errorCases (type and field only: derived) ---

TEST(UpstreamCoreValidateContainersTest, NamesAndImages) {
  // "zero-length name"
  EXPECT_EQ(Containers(Regular("- {name: '', image: image, imagePullPolicy: IfNotPresent, terminationMessagePolicy: File}\n")),
            Lines{"containers[0].name: Required value"});
  // "zero-length-image"
  EXPECT_EQ(Containers(Regular("- {name: abc, image: '', imagePullPolicy: IfNotPresent, terminationMessagePolicy: File}\n")),
            Lines{"containers[0].image: Required value"});
  // "name > 63 characters": IsDNS1123Label's MaxLenError only (the regex matches).
  const std::string long_name(64, 'a');
  EXPECT_EQ(Containers(Regular("- {name: " + long_name +
                               ", image: image, imagePullPolicy: IfNotPresent, terminationMessagePolicy: File}\n")),
            Lines{"containers[0].name: Invalid value: \"" + long_name + "\": must be no more than 63 characters"});
  // "name not a DNS label": a valid subdomain gets "must not contain dots".
  EXPECT_EQ(Containers(Regular("- {name: a.b.c, image: image, imagePullPolicy: IfNotPresent, terminationMessagePolicy: File}\n")),
            Lines{"containers[0].name: Invalid value: \"a.b.c\": must not contain dots"});
  // "name not unique"
  EXPECT_EQ(Containers(Regular("- {name: abc, image: image, imagePullPolicy: IfNotPresent, terminationMessagePolicy: File}\n"
                               "- {name: abc, image: image, imagePullPolicy: IfNotPresent, terminationMessagePolicy: File}\n")),
            Lines{"containers[1].name: Duplicate value: \"abc\""});
}

TEST(UpstreamCoreValidateContainersTest, HostPortsAndVolumes) {
  // "host port not unique"
  EXPECT_EQ(Containers(Regular(
                "- {name: abc, image: image, ports: [{containerPort: 80, hostPort: 80, protocol: TCP}], "
                "imagePullPolicy: IfNotPresent, terminationMessagePolicy: File}\n"
                "- {name: def, image: image, ports: [{containerPort: 81, hostPort: 80, protocol: TCP}], "
                "imagePullPolicy: IfNotPresent, terminationMessagePolicy: File}\n")),
            Lines{"containers[1].ports[0].hostPort: Duplicate value: \"TCP//80\""});
  // "unknown volume name"
  EXPECT_EQ(Containers(Regular("- {name: abc, image: image, volumeMounts: [{name: anything, mountPath: /foo}], "
                               "imagePullPolicy: IfNotPresent, terminationMessagePolicy: File}\n")),
            Lines{"containers[0].volumeMounts[0].name: Not found: \"anything\""});
}

std::string WithLifecycle(std::string_view pre_stop) {
  return Regular("- name: life-123\n  image: image\n  imagePullPolicy: IfNotPresent\n  terminationMessagePolicy: File\n"
                 "  lifecycle:\n    preStop: " +
                 std::string(pre_stop) + "\n");
}

TEST(UpstreamCoreValidateContainersTest, LifecycleHandlers) {
  // "invalid lifecycle, no exec command."
  EXPECT_EQ(Containers(WithLifecycle("{exec: {}}")), Lines{"containers[0].lifecycle.preStop.exec.command: Required value"});
  // "invalid lifecycle, no http path."
  EXPECT_EQ(Containers(WithLifecycle("{httpGet: {port: 80, scheme: HTTP}}")),
            Lines{"containers[0].lifecycle.preStop.httpGet.path: Required value"});
  // "invalid lifecycle, no http port.": the zero IntOrString is the int 0.
  EXPECT_EQ(Containers(WithLifecycle("{httpGet: {path: /, scheme: HTTP}}")),
            Lines{"containers[0].lifecycle.preStop.httpGet.port: Invalid value: 0: must be between 1 and 65535, inclusive"});
  // "invalid lifecycle, no http scheme."
  EXPECT_EQ(Containers(WithLifecycle("{httpGet: {path: /, port: 80}}")),
            Lines{"containers[0].lifecycle.preStop.httpGet.scheme: Unsupported value: \"\": supported values: \"HTTP\", "
                  "\"HTTPS\""});
  // "invalid lifecycle, no tcp socket port."
  EXPECT_EQ(Containers(WithLifecycle("{tcpSocket: {}}")),
            Lines{"containers[0].lifecycle.preStop.tcpSocket.port: Invalid value: 0: must be between 1 and 65535, inclusive"});
  // "invalid lifecycle, zero tcp socket port."
  EXPECT_EQ(Containers(WithLifecycle("{tcpSocket: {port: 0}}")),
            Lines{"containers[0].lifecycle.preStop.tcpSocket.port: Invalid value: 0: must be between 1 and 65535, inclusive"});
  // "invalid lifecycle, no action."
  EXPECT_EQ(Containers(WithLifecycle("{}")),
            Lines{"containers[0].lifecycle.preStop: Required value: must specify a handler type"});
}

std::string WithProbe(std::string_view kind, std::string_view probe) {
  return Regular("- name: live-123\n  image: image\n  imagePullPolicy: IfNotPresent\n  terminationMessagePolicy: File\n  " +
                 std::string(kind) + ": " + std::string(probe) + "\n");
}

constexpr std::string_view kNegativeProbe =
    "{tcpSocket: {port: 80}, initialDelaySeconds: -1, timeoutSeconds: -1, periodSeconds: -1, successThreshold: -1, "
    "failureThreshold: -1, terminationGracePeriodSeconds: -1}";

Lines NegativeProbeErrors(std::string_view kind) {
  const std::string at = "containers[0]." + std::string(kind) + ".";
  return {at + "initialDelaySeconds: Invalid value: -1: must be greater than or equal to 0",
          at + "timeoutSeconds: Invalid value: -1: must be greater than or equal to 0",
          at + "periodSeconds: Invalid value: -1: must be greater than or equal to 0",
          at + "successThreshold: Invalid value: -1: must be greater than or equal to 0",
          at + "failureThreshold: Invalid value: -1: must be greater than or equal to 0",
          at + "terminationGracePeriodSeconds: Invalid value: -1: must be greater than 0"};
}

TEST(UpstreamCoreValidateContainersTest, Probes) {
  // "invalid readiness probe, terminationGracePeriodSeconds set."
  EXPECT_EQ(Containers(WithProbe("readinessProbe", "{tcpSocket: {port: 80}, terminationGracePeriodSeconds: 10}")),
            Lines{"containers[0].readinessProbe.terminationGracePeriodSeconds: Invalid value: 10: must not be set for "
                  "readinessProbes"});
  // "invalid liveness probe, no tcp socket port."
  EXPECT_EQ(Containers(WithProbe("livenessProbe", "{tcpSocket: {}, successThreshold: 1}")),
            Lines{"containers[0].livenessProbe.tcpSocket.port: Invalid value: 0: must be between 1 and 65535, inclusive"});
  // "invalid liveness probe, no action."
  EXPECT_EQ(Containers(WithProbe("livenessProbe", "{successThreshold: 1}")),
            Lines{"containers[0].livenessProbe: Required value: must specify a handler type"});
  // "invalid liveness probe, successThreshold != 1"
  EXPECT_EQ(Containers(WithProbe("livenessProbe", "{tcpSocket: {port: 80}, successThreshold: 2}")),
            Lines{"containers[0].livenessProbe.successThreshold: Invalid value: 2: must be 1"});
  // "invalid startup probe, successThreshold != 1"
  EXPECT_EQ(Containers(WithProbe("startupProbe", "{tcpSocket: {port: 80}, successThreshold: 2}")),
            Lines{"containers[0].startupProbe.successThreshold: Invalid value: 2: must be 1"});
  // "invalid liveness probe, negative numbers": validateProbe's six, then
  // validateLivenessProbe's successThreshold.
  Lines liveness = NegativeProbeErrors("livenessProbe");
  liveness.push_back("containers[0].livenessProbe.successThreshold: Invalid value: -1: must be 1");
  EXPECT_EQ(Containers(WithProbe("livenessProbe", kNegativeProbe)), liveness);
  // "invalid readiness probe, negative numbers": the test's comments give
  // both texts of terminationGracePeriodSeconds.
  Lines readiness = NegativeProbeErrors("readinessProbe");
  readiness.push_back("containers[0].readinessProbe.terminationGracePeriodSeconds: Invalid value: -1: must not be set for "
                      "readinessProbes");
  EXPECT_EQ(Containers(WithProbe("readinessProbe", kNegativeProbe)), readiness);
  // "invalid startup probe, negative numbers"
  Lines startup = NegativeProbeErrors("startupProbe");
  startup.push_back("containers[0].startupProbe.successThreshold: Invalid value: -1: must be 1");
  EXPECT_EQ(Containers(WithProbe("startupProbe", kNegativeProbe)), startup);
}

TEST(UpstreamCoreValidateContainersTest, TerminationMessagePolicy) {
  // "invalid message termination policy"
  EXPECT_EQ(Containers(Regular("- {name: life-123, image: image, imagePullPolicy: IfNotPresent, "
                               "terminationMessagePolicy: Unknown}\n")),
            Lines{"containers[0].terminationMessagePolicy: Unsupported value: \"Unknown\": supported values: \"File\", "
                  "\"FallbackToLogsOnError\""});
  // "empty message termination policy"
  EXPECT_EQ(Containers(Regular("- {name: life-123, image: image, imagePullPolicy: IfNotPresent, "
                               "terminationMessagePolicy: ''}\n")),
            Lines{"containers[0].terminationMessagePolicy: Required value"});
}

std::string WithResources(std::string_view resources) {
  return Regular("- name: abc-123\n  image: image\n  imagePullPolicy: IfNotPresent\n  terminationMessagePolicy: File\n"
                 "  resources: " +
                 std::string(resources) + "\n");
}

TEST(UpstreamCoreValidateContainersTest, Resources) {
  // "invalid compute resource"
  EXPECT_EQ(Containers(WithResources("{limits: {disk: 10G}}")),
            (Lines{"containers[0].resources.limits[disk]: Invalid value: disk: must be a standard resource type or fully "
                   "qualified",
                   "containers[0].resources.limits[disk]: Invalid value: disk: must be a standard resource for containers"}));
  // "Resource CPU invalid"
  EXPECT_EQ(Containers(WithResources("{limits: {cpu: '-10', memory: '0'}}")),
            Lines{"containers[0].resources.limits[cpu]: Invalid value: \"-10\": must be greater than or equal to 0"});
  // "Resource Requests CPU invalid"
  EXPECT_EQ(Containers(WithResources("{requests: {cpu: '-10', memory: '0'}}")),
            Lines{"containers[0].resources.requests[cpu]: Invalid value: \"-10\": must be greater than or equal to 0"});
  // "Resource Memory invalid"
  EXPECT_EQ(Containers(WithResources("{limits: {cpu: '0', memory: '-10'}}")),
            Lines{"containers[0].resources.limits[memory]: Invalid value: \"-10\": must be greater than or equal to 0"});
  // "Request limit simple invalid" / "CPU request limit multiple invalid"
  EXPECT_EQ(Containers(WithResources("{limits: {cpu: '5', memory: '3'}, requests: {cpu: '6', memory: '3'}}")),
            Lines{"containers[0].resources.requests: Invalid value: \"6\": must be less than or equal to cpu limit of 5"});
  // "Memory request limit multiple invalid"
  EXPECT_EQ(Containers(WithResources("{limits: {cpu: '5', memory: '3'}, requests: {cpu: '5', memory: '4'}}")),
            Lines{"containers[0].resources.requests: Invalid value: \"4\": must be less than or equal to memory limit of 3"});
  // "Invalid storage limit request"
  EXPECT_EQ(Containers(WithResources("{limits: {attachable-volumes-aws-ebs: 10}}")),
            (Lines{"containers[0].resources.limits[attachable-volumes-aws-ebs]: Invalid value: attachable-volumes-aws-ebs: "
                   "must be a standard resource type or fully qualified",
                   "containers[0].resources.limits[attachable-volumes-aws-ebs]: Invalid value: attachable-volumes-aws-ebs: "
                   "must be a standard resource for containers"}));
}

TEST(UpstreamCoreValidateContainersTest, EnvFromAndResizeAndRestartPolicy) {
  // "Invalid env from"
  EXPECT_EQ(Containers(Regular("- {name: env-from-source, image: image, imagePullPolicy: IfNotPresent, "
                               "terminationMessagePolicy: File, envFrom: [{configMapRef: {name: '$%^&*#'}}]}\n")),
            Lines{Subdomain("containers[0].envFrom[0].configMapRef.name", "$%^&*#")});
  // "Unsupported resize policy for memory"
  EXPECT_EQ(Containers(Regular("- {name: resize-policy-mem-invalid, image: image, imagePullPolicy: IfNotPresent, "
                               "terminationMessagePolicy: File, resizePolicy: [{resourceName: memory, restartPolicy: "
                               "RestartContainerrrr}]}\n")),
            Lines{"containers[0].resizePolicy: Unsupported value: \"RestartContainerrrr\": supported values: "
                  "\"NotRequired\", \"RestartContainer\""});
  // "Unsupported resize policy for CPU"
  EXPECT_EQ(Containers(Regular("- {name: resize-policy-cpu-invalid, image: image, imagePullPolicy: IfNotPresent, "
                               "terminationMessagePolicy: File, resizePolicy: [{resourceName: cpu, restartPolicy: "
                               "RestartNotRequired}]}\n")),
            Lines{"containers[0].resizePolicy: Unsupported value: \"RestartNotRequired\": supported values: "
                  "\"NotRequired\", \"RestartContainer\""});
  // "Forbidden RestartPolicy: Always" (and OnFailure, Never, invalid,
  // empty): before ContainerRestartRules, any restartPolicy at all.
  for (std::string_view policy : {"Always", "OnFailure", "Never", "invalid", "''"}) {
    EXPECT_EQ(Containers(Regular("- {name: foo, image: image, imagePullPolicy: IfNotPresent, terminationMessagePolicy: "
                                 "File, restartPolicy: " +
                                 std::string(policy) + "}\n")),
              Lines{"containers[0].restartPolicy: Forbidden: may not be set for non-init containers"})
        << policy;
  }
}

// --- TestValidateInitContainers errorCases (type, field and value: the
// detail derived) ---

TEST(UpstreamCoreValidateInitContainersTest, NamesPolicyPorts) {
  // "empty name"
  EXPECT_EQ(Containers(Init("- {name: '', image: image, imagePullPolicy: IfNotPresent, terminationMessagePolicy: File}\n")),
            Lines{"initContainers[0].name: Required value"});
  // "name collision with regular container"
  EXPECT_EQ(Containers(Init("- {name: app, image: image, imagePullPolicy: IfNotPresent, terminationMessagePolicy: File}\n")),
            Lines{"initContainers[0].name: Duplicate value: \"app\""});
  // "invalid termination message policy"
  EXPECT_EQ(Containers(Init("- {name: init, image: image, imagePullPolicy: IfNotPresent, terminationMessagePolicy: Unknown}\n")),
            Lines{"initContainers[0].terminationMessagePolicy: Unsupported value: \"Unknown\": supported values: \"File\", "
                  "\"FallbackToLogsOnError\""});
  // "duplicate names"
  EXPECT_EQ(Containers(Init("- {name: init, image: image, imagePullPolicy: IfNotPresent, terminationMessagePolicy: File}\n"
                            "- {name: init, image: image, imagePullPolicy: IfNotPresent, terminationMessagePolicy: File}\n")),
            Lines{"initContainers[1].name: Duplicate value: \"init\""});
  // "duplicate ports"
  EXPECT_EQ(Containers(Init("- {name: abc, image: image, imagePullPolicy: IfNotPresent, terminationMessagePolicy: File, "
                            "ports: [{containerPort: 8080, hostPort: 8080, protocol: TCP}, {containerPort: 8080, hostPort: "
                            "8080, protocol: TCP}]}\n")),
            Lines{"initContainers[0].ports[1].hostPort: Duplicate value: \"TCP//8080\""});
}

TEST(UpstreamCoreValidateInitContainersTest, FieldsOnlySidecarsHave) {
  const std::string head = "- name: debug\n  image: image\n  imagePullPolicy: IfNotPresent\n  terminationMessagePolicy: File\n";
  // "uses disallowed field: Lifecycle" / LivenessProbe / ReadinessProbe /
  // "Container uses disallowed field: StartupProbe"
  EXPECT_EQ(Containers(Init(head + "  lifecycle: {preStop: {exec: {command: [ls, -l]}}}\n")),
            Lines{"initContainers[0].lifecycle: Forbidden: may not be set for init containers without restartPolicy=Always"});
  EXPECT_EQ(Containers(Init(head + "  livenessProbe: {tcpSocket: {port: 80}, successThreshold: 1}\n")),
            Lines{"initContainers[0].livenessProbe: Forbidden: may not be set for init containers without "
                  "restartPolicy=Always"});
  EXPECT_EQ(Containers(Init(head + "  readinessProbe: {tcpSocket: {port: 80}}\n")),
            Lines{"initContainers[0].readinessProbe: Forbidden: may not be set for init containers without "
                  "restartPolicy=Always"});
  EXPECT_EQ(Containers(Init(head + "  startupProbe: {tcpSocket: {port: 80}, successThreshold: 1}\n")),
            Lines{"initContainers[0].startupProbe: Forbidden: may not be set for init containers without "
                  "restartPolicy=Always"});
  // "Disallowed field with other errors should only return a single Forbidden"
  EXPECT_EQ(Containers(Init(head + "  startupProbe: " + std::string(kNegativeProbe) + "\n")),
            Lines{"initContainers[0].startupProbe: Forbidden: may not be set for init containers without "
                  "restartPolicy=Always"});
}

TEST(UpstreamCoreValidateInitContainersTest, RestartPolicyOtherThanAlways) {
  // "Not supported RestartPolicy: OnFailure" / Never / invalid / empty
  for (std::string_view policy : {"OnFailure", "Never", "invalid", ""}) {
    EXPECT_EQ(Containers(Init("- {name: init, image: image, imagePullPolicy: IfNotPresent, terminationMessagePolicy: File, "
                              "restartPolicy: '" +
                              std::string(policy) + "'}\n")),
              Lines{"initContainers[0].restartPolicy: Unsupported value: \"" + std::string(policy) +
                    "\": supported values: \"Always\""})
        << policy;
  }
}

std::string Sidecar(std::string_view extra) {
  return Init("- name: restartable-init\n  image: image\n  imagePullPolicy: IfNotPresent\n  terminationMessagePolicy: File\n"
              "  restartPolicy: Always\n  " +
              std::string(extra) + "\n");
}

TEST(UpstreamCoreValidateInitContainersTest, SidecarProbesAndLifecycle) {
  // "invalid startup probe in restartable container, successThreshold != 1"
  EXPECT_EQ(Containers(Sidecar("startupProbe: {tcpSocket: {port: 80}, successThreshold: 2}")),
            Lines{"initContainers[0].startupProbe.successThreshold: Invalid value: 2: must be 1"});
  // "invalid readiness probe, terminationGracePeriodSeconds set."
  EXPECT_EQ(Containers(Sidecar("readinessProbe: {tcpSocket: {port: 80}, terminationGracePeriodSeconds: 10}")),
            Lines{"initContainers[0].readinessProbe.terminationGracePeriodSeconds: Invalid value: 10: must not be set for "
                  "readinessProbes"});
  // "invalid liveness probe, successThreshold != 1"
  EXPECT_EQ(Containers(Sidecar("livenessProbe: {tcpSocket: {port: 80}, successThreshold: 2}")),
            Lines{"initContainers[0].livenessProbe.successThreshold: Invalid value: 2: must be 1"});
  // The lifecycle cases of a restartable init container.
  EXPECT_EQ(Containers(Sidecar("lifecycle: {preStop: {exec: {}}}")),
            Lines{"initContainers[0].lifecycle.preStop.exec.command: Required value"});
  EXPECT_EQ(Containers(Sidecar("lifecycle: {preStop: {httpGet: {port: 80, scheme: HTTP}}}")),
            Lines{"initContainers[0].lifecycle.preStop.httpGet.path: Required value"});
  EXPECT_EQ(Containers(Sidecar("lifecycle: {preStop: {httpGet: {path: /, scheme: HTTP}}}")),
            Lines{"initContainers[0].lifecycle.preStop.httpGet.port: Invalid value: 0: must be between 1 and 65535, "
                  "inclusive"});
  EXPECT_EQ(Containers(Sidecar("lifecycle: {preStop: {httpGet: {path: /, port: 80}}}")),
            Lines{"initContainers[0].lifecycle.preStop.httpGet.scheme: Unsupported value: \"\": supported values: "
                  "\"HTTP\", \"HTTPS\""});
  EXPECT_EQ(Containers(Sidecar("lifecycle: {preStop: {tcpSocket: {}}}")),
            Lines{"initContainers[0].lifecycle.preStop.tcpSocket.port: Invalid value: 0: must be between 1 and 65535, "
                  "inclusive"});
  EXPECT_EQ(Containers(Sidecar("lifecycle: {preStop: {}}")),
            Lines{"initContainers[0].lifecycle.preStop: Required value: must specify a handler type"});
}

}  // namespace
}  // namespace tjr::admission
