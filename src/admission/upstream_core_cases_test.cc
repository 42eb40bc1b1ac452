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
#include "admission/object_meta.h"
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


// One regular container "abc" with `extra` (lines under it, indented by
// two), in TestValidateContainers' pod.
std::string One(std::string_view extra, std::string_view volumes = "") {
  return std::string(volumes) +
         Regular("- name: abc\n  image: image\n  imagePullPolicy: IfNotPresent\n  terminationMessagePolicy: File\n" +
                 std::string(extra));
}

// --- TestValidatePorts errorCases (type, field and a part of the detail:
// the whole detail derived from IsValidPortName / IsValidPortNum) ---

TEST(UpstreamCoreValidatePortsTest, ErrorCases) {
  const std::string at = "containers[0].ports[0].";
  // "name > 15 characters"
  EXPECT_EQ(Containers(One("  ports: [{name: aaaaaaaaaaaaaaaa, containerPort: 80, protocol: TCP}]\n")),
            Lines{at + "name: Invalid value: \"aaaaaaaaaaaaaaaa\": must be no more than 15 characters"});
  // "name contains invalid characters"
  EXPECT_EQ(Containers(One("  ports: [{name: a.b.c, containerPort: 80, protocol: TCP}]\n")),
            Lines{at + "name: Invalid value: \"a.b.c\": must contain only alpha-numeric characters (a-z, 0-9), and hyphens "
                       "(-)"});
  // "name is a number"
  EXPECT_EQ(Containers(One("  ports: [{name: '80', containerPort: 80, protocol: TCP}]\n")),
            Lines{at + "name: Invalid value: \"80\": must contain at least one letter (a-z)"});
  // "name not unique"
  EXPECT_EQ(Containers(One("  ports: [{name: abc, containerPort: 80, protocol: TCP}, {name: abc, containerPort: 81, "
                           "protocol: TCP}]\n")),
            Lines{"containers[0].ports[1].name: Duplicate value: \"abc\""});
  // "zero container port"
  EXPECT_EQ(Containers(One("  ports: [{containerPort: 0, protocol: TCP}]\n")), Lines{at + "containerPort: Required value"});
  // "invalid container port"
  EXPECT_EQ(Containers(One("  ports: [{containerPort: 65536, protocol: TCP}]\n")),
            Lines{at + "containerPort: Invalid value: 65536: must be between 1 and 65535, inclusive"});
  // "invalid host port"
  EXPECT_EQ(Containers(One("  ports: [{containerPort: 80, hostPort: 65536, protocol: TCP}]\n")),
            Lines{at + "hostPort: Invalid value: 65536: must be between 1 and 65535, inclusive"});
  // "invalid protocol case" / "invalid protocol"
  EXPECT_EQ(Containers(One("  ports: [{containerPort: 80, protocol: tcp}]\n")),
            Lines{at + "protocol: Unsupported value: \"tcp\": supported values: \"SCTP\", \"TCP\", \"UDP\""});
  EXPECT_EQ(Containers(One("  ports: [{containerPort: 80, protocol: ICMP}]\n")),
            Lines{at + "protocol: Unsupported value: \"ICMP\": supported values: \"SCTP\", \"TCP\", \"UDP\""});
  // "protocol required"
  EXPECT_EQ(Containers(One("  ports: [{name: abc, containerPort: 80}]\n")), Lines{at + "protocol: Required value"});
  // IsValidPortName's hyphen rules (derived; no upstream row).
  EXPECT_EQ(Containers(One("  ports: [{name: a--b, containerPort: 80, protocol: TCP}, {name: -ab, containerPort: 81, "
                           "protocol: TCP}]\n")),
            (Lines{at + "name: Invalid value: \"a--b\": must not contain consecutive hyphens",
                   "containers[0].ports[1].name: Invalid value: \"-ab\": must not begin or end with a hyphen"}));
}

// --- TestRelaxedValidateEnv errorCases (expected texts as upstream writes
// them; where the test leaves the text out or gives a prefix, completed
// from validation.go) ---

std::string Env(std::string_view var) { return One("  env:\n  - " + std::string(var) + "\n"); }

constexpr std::string_view kFieldPaths =
    "supported values: \"metadata.name\", \"metadata.namespace\", \"metadata.uid\", \"spec.nodeName\", "
    "\"spec.serviceAccountName\", \"status.hostIP\", \"status.hostIPs\", \"status.podIP\", \"status.podIPs\"";

TEST(UpstreamCoreRelaxedValidateEnvTest, Names) {
  // "illegal character"
  EXPECT_EQ(Containers(Env("{name: '=abc'}")),
            Lines{"containers[0].env[0].name: Invalid value: \"=abc\": a valid environment variable name must consist only "
                  "of printable ASCII characters other than '='"});
  // "zero-length name"
  EXPECT_EQ(Containers(Env("{name: ''}")), Lines{"containers[0].env[0].name: Required value"});
  // TestValidateEnv's updateSuccessCase names are valid under the relaxed rule.
  EXPECT_EQ(Containers(One("  env:\n  - {name: '!\"#$%&''()', value: value}\n  - {name: '* +,-./0123456789', value: "
                           "value}\n  - {name: ':;<>?@', value: value}\n  - {name: '[\\]^_`{}|~', value: value}\n")),
            Lines{});
}

TEST(UpstreamCoreRelaxedValidateEnvTest, ValueFromSources) {
  const std::string at = "containers[0].env[0].valueFrom";
  // "value and valueFrom specified"
  EXPECT_EQ(Containers(Env("{name: abc, value: foo, valueFrom: {fieldRef: {apiVersion: v1, fieldPath: metadata.name}}}")),
            Lines{at + ": Invalid value: \"\": may not be specified when `value` is not empty"});
  // "valueFrom without a source"
  EXPECT_EQ(Containers(Env("{name: abc, valueFrom: {}}")),
            Lines{at + ": Invalid value: \"\": must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or "
                       "`secretKeyRef`"});
  // "valueFrom.fieldRef and valueFrom.secretKeyRef specified"
  EXPECT_EQ(Containers(Env("{name: abc, valueFrom: {fieldRef: {apiVersion: v1, fieldPath: metadata.name}, secretKeyRef: "
                           "{name: a-secret, key: a-key}}}")),
            Lines{at + ": Invalid value: \"\": may not have more than one field specified at a time"});
  // "valueFrom.fieldRef and valueFrom.configMapKeyRef set"
  EXPECT_EQ(Containers(Env("{name: some_var_name, valueFrom: {fieldRef: {apiVersion: v1, fieldPath: metadata.name}, "
                           "configMapKeyRef: {name: some-config-map, key: some-key}}}")),
            Lines{at + ": Invalid value: \"\": may not have more than one field specified at a time"});
  // the three sources at once
  EXPECT_EQ(Containers(Env("{name: abc, valueFrom: {fieldRef: {apiVersion: v1, fieldPath: metadata.name}, secretKeyRef: "
                           "{name: a-secret, key: a-key}, configMapKeyRef: {name: some-config-map, key: some-key}}}")),
            Lines{at + ": Invalid value: \"\": may not have more than one field specified at a time"});
  // "valueFrom.secretKeyRef.name invalid" (no text upstream: derived)
  EXPECT_EQ(Containers(Env("{name: abc, valueFrom: {secretKeyRef: {name: '$%^&*#', key: a-key}}}")),
            Lines{Subdomain(at + ".secretKeyRef.name", "$%^&*#")});
  // "valueFrom.configMapKeyRef.name invalid" (derived)
  EXPECT_EQ(Containers(Env("{name: abc, valueFrom: {configMapKeyRef: {name: '$%^&*#', key: some-key}}}")),
            Lines{Subdomain(at + ".configMapKeyRef.name", "$%^&*#")});
}

TEST(UpstreamCoreRelaxedValidateEnvTest, FieldRefs) {
  const std::string at = "containers[0].env[0].valueFrom.fieldRef";
  // "missing FieldPath on ObjectFieldSelector"
  EXPECT_EQ(Containers(Env("{name: abc, valueFrom: {fieldRef: {apiVersion: v1}}}")),
            Lines{at + ".fieldPath: Required value"});
  // "missing APIVersion on ObjectFieldSelector"
  EXPECT_EQ(Containers(Env("{name: abc, valueFrom: {fieldRef: {fieldPath: metadata.name}}}")),
            Lines{at + ".apiVersion: Required value"});
  // "invalid fieldPath": the error of ConvertDownwardAPIFieldLabel completes it.
  EXPECT_EQ(Containers(Env("{name: abc, valueFrom: {fieldRef: {fieldPath: metadata.whoops, apiVersion: v1}}}")),
            Lines{at + ".fieldPath: Invalid value: \"metadata.whoops\": error converting fieldPath: field label not "
                       "supported: metadata.whoops"});
  // "metadata.name with subscript"
  EXPECT_EQ(Containers(Env("{name: labels, valueFrom: {fieldRef: {fieldPath: \"metadata.name['key']\", apiVersion: v1}}}")),
            Lines{at + ".fieldPath: Invalid value: \"metadata.name['key']\": error converting fieldPath: field label does "
                       "not support subscript: metadata.name['key']"});
  // "metadata.labels without subscript" / "metadata.annotations without subscript"
  EXPECT_EQ(Containers(Env("{name: labels, valueFrom: {fieldRef: {fieldPath: metadata.labels, apiVersion: v1}}}")),
            Lines{at + ".fieldPath: Unsupported value: \"metadata.labels\": " + std::string(kFieldPaths)});
  EXPECT_EQ(Containers(Env("{name: abc, valueFrom: {fieldRef: {fieldPath: metadata.annotations, apiVersion: v1}}}")),
            Lines{at + ".fieldPath: Unsupported value: \"metadata.annotations\": " + std::string(kFieldPaths)});
  // "metadata.annotations with invalid key": IsQualifiedName's name-part text.
  EXPECT_EQ(Containers(Env("{name: abc, valueFrom: {fieldRef: {fieldPath: \"metadata.annotations['invalid~key']\", "
                           "apiVersion: v1}}}")),
            Lines{at + ": Invalid value: \"invalid~key\": name part must consist of alphanumeric characters, '-', '_' or "
                       "'.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or "
                       "'123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"});
  // "metadata.labels with invalid key": the prefix part is no subdomain.
  EXPECT_EQ(Containers(Env("{name: abc, valueFrom: {fieldRef: {fieldPath: \"metadata.labels['Www.k8s.io/test']\", "
                           "apiVersion: v1}}}")),
            Lines{at + ": Invalid value: \"Www.k8s.io/test\": prefix part " + std::string(kDns1123SubdomainMessage)});
  // "unsupported fieldPath"
  EXPECT_EQ(Containers(Env("{name: abc, valueFrom: {fieldRef: {fieldPath: status.phase, apiVersion: v1}}}")),
            Lines{at + ".fieldPath: Unsupported value: \"status.phase\": " + std::string(kFieldPaths)});
  // ConvertDownwardAPIFieldLabel's version error (derived).
  EXPECT_EQ(Containers(Env("{name: abc, valueFrom: {fieldRef: {fieldPath: metadata.name, apiVersion: v2}}}")),
            Lines{at + ".fieldPath: Invalid value: \"metadata.name\": error converting fieldPath: unsupported pod version: "
                       "v2"});
}

// --- TestValidateEnvFrom and TestRelaxedValidateEnvFrom errorCases ---

TEST(UpstreamCoreValidateEnvFromTest, ErrorCases) {
  const auto env_from = [](std::string_view source) { return One("  envFrom:\n  - " + std::string(source) + "\n"); };
  // "zero-length name" (configMapRef, secretRef)
  EXPECT_EQ(Containers(env_from("{configMapRef: {name: ''}}")), Lines{"containers[0].envFrom[0].configMapRef.name: Required value"});
  EXPECT_EQ(Containers(env_from("{secretRef: {name: ''}}")), Lines{"containers[0].envFrom[0].secretRef.name: Required value"});
  // "invalid name" ($ and &: the test gives the prefix "Invalid value")
  EXPECT_EQ(Containers(env_from("{configMapRef: {name: $}}")), Lines{Subdomain("containers[0].envFrom[0].configMapRef.name", "$")});
  EXPECT_EQ(Containers(env_from("{secretRef: {name: '&'}}")), Lines{Subdomain("containers[0].envFrom[0].secretRef.name", "&")});
  // "no refs" and "multiple refs", at the list's path.
  EXPECT_EQ(Containers(env_from("{}")),
            Lines{"containers[0].envFrom: Invalid value: \"\": must specify one of: `configMapRef` or `secretRef`"});
  EXPECT_EQ(Containers(env_from("{secretRef: {name: abc}, configMapRef: {name: abc}}")),
            Lines{"containers[0].envFrom: Invalid value: \"\": may not have more than one field specified at a time"});
  // "invalid secret ref name" / "invalid config ref name"
  EXPECT_EQ(Containers(env_from("{secretRef: {name: '$%^&*#'}}")),
            Lines{Subdomain("containers[0].envFrom[0].secretRef.name", "$%^&*#")});
  // TestRelaxedValidateEnvFrom "invalid prefix"
  EXPECT_EQ(Containers(env_from("{prefix: '=abc', configMapRef: {name: abc}}")),
            Lines{"containers[0].envFrom[0].prefix: Invalid value: \"=abc\": a valid environment variable name must "
                  "consist only of printable ASCII characters other than '='"});
}

// --- TestValidateHandler errorCases (only "some error": derived), in a
// liveness probe ---

TEST(UpstreamCoreValidateHandlerTest, ErrorCases) {
  const auto probe = [](std::string_view handler) {
    return One("  livenessProbe: {" + std::string(handler) + ", successThreshold: 1}\n");
  };
  const std::string at = "containers[0].livenessProbe.";
  EXPECT_EQ(Containers(probe("exec: {command: []}")), Lines{at + "exec.command: Required value"});
  EXPECT_EQ(Containers(probe("httpGet: {path: '', port: 0, host: ''}")),
            (Lines{at + "httpGet.path: Required value",
                   at + "httpGet.port: Invalid value: 0: must be between 1 and 65535, inclusive",
                   at + "httpGet.scheme: Unsupported value: \"\": supported values: \"HTTP\", \"HTTPS\""}));
  EXPECT_EQ(Containers(probe("httpGet: {path: /foo, port: 65536, host: host}")),
            (Lines{at + "httpGet.port: Invalid value: 65536: must be between 1 and 65535, inclusive",
                   at + "httpGet.scheme: Unsupported value: \"\": supported values: \"HTTP\", \"HTTPS\""}));
  // intstr.FromString(""): IsValidPortName("") fails the charset and the
  // one-letter rules.
  EXPECT_EQ(Containers(probe("httpGet: {path: '', port: '', host: ''}")),
            (Lines{at + "httpGet.path: Required value",
                   at + "httpGet.port: Invalid value: \"\": must contain only alpha-numeric characters (a-z, 0-9), and "
                        "hyphens (-)",
                   at + "httpGet.port: Invalid value: \"\": must contain at least one letter (a-z)",
                   at + "httpGet.scheme: Unsupported value: \"\": supported values: \"HTTP\", \"HTTPS\""}));
  const std::string header_message =
      ": a valid HTTP header must consist of alphanumeric characters or '-' (e.g. 'X-Header-Name', regex used for "
      "validation is '[-A-Za-z0-9]+')";
  EXPECT_EQ(Containers(probe("httpGet: {path: /, port: port, scheme: HTTP, httpHeaders: [{name: 'Host:', value: "
                             "foo.example.com}]}")),
            Lines{at + "httpGet.httpHeaders: Invalid value: \"Host:\"" + header_message});
  EXPECT_EQ(Containers(probe("httpGet: {path: /, port: port, scheme: HTTP, httpHeaders: [{name: X_Forwarded_For, value: "
                             "foo.example.com}]}")),
            Lines{at + "httpGet.httpHeaders: Invalid value: \"X_Forwarded_For\"" + header_message});
  // Test_validateProbe: terminationGracePeriodSeconds 0.
  EXPECT_EQ(Containers(probe("exec: {command: [echo]}, terminationGracePeriodSeconds: 0")),
            Lines{at + "terminationGracePeriodSeconds: Invalid value: 0: must be greater than 0"});
}

// --- TestValidateResizePolicy (the errors upstream lists, whole) ---

TEST(UpstreamCoreValidateResizePolicyTest, ErrorCases) {
  const auto policies = [](std::string_view list) { return One("  resizePolicy: " + std::string(list) + "\n"); };
  // "ValidCPUandInvalidMemoryPolicy"
  EXPECT_EQ(Containers(policies("[{resourceName: cpu, restartPolicy: NotRequired}, {resourceName: memory, restartPolicy: "
                                "Restarrrt}]")),
            Lines{"containers[0].resizePolicy: Unsupported value: \"Restarrrt\": supported values: \"NotRequired\", "
                  "\"RestartContainer\""});
  // "InvalidResourceNameValidPolicy": a ResourceName prints unquoted.
  EXPECT_EQ(Containers(policies("[{resourceName: cpuuu, restartPolicy: NotRequired}]")),
            Lines{"containers[0].resizePolicy: Unsupported value: cpuuu: supported values: \"cpu\", \"memory\""});
  // "ValidResourceNameMissingPolicy"
  EXPECT_EQ(Containers(policies("[{resourceName: memory, restartPolicy: ''}]")),
            Lines{"containers[0].resizePolicy: Required value"});
  // "RepeatedPolicies"
  EXPECT_EQ(Containers(policies("[{resourceName: cpu, restartPolicy: NotRequired}, {resourceName: memory, restartPolicy: "
                                "RestartContainer}, {resourceName: cpu, restartPolicy: RestartContainer}]")),
            Lines{"containers[0].resizePolicy[2]: Duplicate value: cpu"});
}

// --- TestValidateVolumeMounts, TestValidateSubpathMutuallyExclusive and
// TestValidateMountPropagation errorCases (only "some error": derived) ---

constexpr std::string_view kMountVolumes =
    "volumes:\n- {name: abc, persistentVolumeClaim: {claimName: testclaim1}}\n"
    "- {name: abc-123, persistentVolumeClaim: {claimName: testclaim2}}\n"
    "- {name: '123', hostPath: {path: /foo/baz, type: ''}}\n";

TEST(UpstreamCoreValidateVolumeMountsTest, ErrorCases) {
  const auto mounts = [](std::string_view list, std::string_view devices = "") {
    std::string extra = "  volumeMounts: " + std::string(list) + "\n";
    if (!devices.empty()) extra += "  volumeDevices: " + std::string(devices) + "\n";
    return One(extra, kMountVolumes);
  };
  const std::string at = "containers[0].volumeMounts";
  // "empty name" / "name not found"
  EXPECT_EQ(Containers(mounts("[{name: '', mountPath: /foo}]")),
            (Lines{at + "[0].name: Required value", at + "[0].name: Not found: \"\""}));
  // "empty mountpath"
  EXPECT_EQ(Containers(mounts("[{name: abc, mountPath: ''}]")), Lines{at + "[0].mountPath: Required value"});
  // "mountpath collision"
  EXPECT_EQ(Containers(mounts("[{name: foo, mountPath: /path/a}, {name: bar, mountPath: /path/a}]")),
            (Lines{at + "[0].name: Not found: \"foo\"", at + "[1].name: Not found: \"bar\"",
                   at + "[1].mountPath: Invalid value: \"/path/a\": must be unique"}));
  // "subpath in ..", "subpath contains ..", "subpath ends in .."
  for (std::string_view sub_path : {"../baz", "baz/../bat", "./.."}) {
    EXPECT_EQ(Containers(mounts("[{name: abc, mountPath: /bar, subPath: '" + std::string(sub_path) + "'}]")),
              Lines{at + ".subPath: Invalid value: \"" + std::string(sub_path) + "\": must not contain '..'"});
  }
  // "name exists in volumeDevice" (with a claim, so that only the overlap
  // is wrong), and the device's side of it.
  EXPECT_EQ(Containers(mounts("[{name: abc, mountPath: /bar}]", "[{name: abc, devicePath: /mnt/exists}]")),
            (Lines{at + "[0].name: Invalid value: \"abc\": must not already exist in volumeDevices",
                   "containers[0].volumeDevices[0].name: Invalid value: \"abc\": must not already exist in volumeMounts"}));
  // "mountpath exists in volumeDevice"
  EXPECT_EQ(Containers(mounts("[{name: abc, mountPath: /mnt/exists}]", "[{name: abc-123, devicePath: /mnt/exists}]")),
            (Lines{at + "[0].mountPath: Invalid value: \"/mnt/exists\": must not already exist as a path in volumeDevices",
                   "containers[0].volumeDevices[0].devicePath: Invalid value: \"/mnt/exists\": must not already exist as "
                   "a path in volumeMounts"}));
  // "rro but not ro" / "rro-if-possible but not ro"
  EXPECT_EQ(Containers(mounts("[{name: '123', mountPath: /rro-bad1, readOnly: false, recursiveReadOnly: Enabled}]")),
            Lines{at + ".recursiveReadOnly: Forbidden: may only be specified when readOnly is true"});
  EXPECT_EQ(Containers(mounts("[{name: '123', mountPath: /rro-bad1, recursiveReadOnly: IfPossible}]")),
            Lines{at + ".recursiveReadOnly: Forbidden: may only be specified when readOnly is true"});
  // "rro with incompatible propagation"
  EXPECT_EQ(Containers(mounts("[{name: '123', mountPath: /rro-bad2, readOnly: true, recursiveReadOnly: Enabled, "
                              "mountPropagation: HostToContainer}]")),
            Lines{at + ".recursiveReadOnly: Forbidden: may only be specified when mountPropagation is None or not "
                       "specified"});
  // TestValidateSubpathMutuallyExclusive "subpath and subpathexpr specified"
  EXPECT_EQ(Containers(mounts("[{name: abc-123, mountPath: /bab, subPath: baz, subPathExpr: $(POD_NAME)}]")),
            Lines{at + "[0].subPathExpr: Invalid value: \"$(POD_NAME)\": subPathExpr and subPath are mutually exclusive"});
  // TestValidateMountPropagation: "privileged container + invalid mount
  // propagation" and "implicitly non-privileged container + Bidirectional".
  EXPECT_EQ(Containers(One("  securityContext: {privileged: true}\n  volumeMounts: [{name: '123', mountPath: /foo, "
                           "mountPropagation: invalid}]\n",
                           kMountVolumes)),
            Lines{at + ".mountPropagation: Unsupported value: \"invalid\": supported values: \"Bidirectional\", "
                       "\"HostToContainer\", \"None\""});
  EXPECT_EQ(Containers(One("  securityContext: {privileged: false}\n  volumeMounts: [{name: '123', mountPath: /foo, "
                           "mountPropagation: Bidirectional}]\n",
                           kMountVolumes)),
            Lines{at + ".mountPropagation: Forbidden: Bidirectional mount propagation is available only to privileged "
                       "containers"});
}

// --- TestAlphaValidateVolumeDevices errorCases (only "some error":
// derived), the container without volume mounts ---

TEST(UpstreamCoreValidateVolumeDevicesTest, ErrorCases) {
  const auto devices = [](std::string_view list) {
    return One("  volumeDevices: " + std::string(list) + "\n",
               "volumes:\n- {name: abc, persistentVolumeClaim: {claimName: testclaim1}}\n"
               "- {name: abc-123, persistentVolumeClaim: {claimName: testclaim2}}\n"
               "- {name: def, hostPath: {path: /foo/baz, type: ''}}\n");
  };
  const std::string at = "containers[0].volumeDevices";
  // "empty name"
  EXPECT_EQ(Containers(devices("[{name: '', devicePath: /foo}]")),
            (Lines{at + "[0].name: Required value", at + "[0].name: Not found: \"\""}));
  // "duplicate name"
  EXPECT_EQ(Containers(devices("[{name: abc, devicePath: /foo}, {name: abc, devicePath: /foo/bar}]")),
            Lines{at + "[1].name: Invalid value: \"abc\": must be unique"});
  // "name not found"
  EXPECT_EQ(Containers(devices("[{name: not-found, devicePath: /usr/share/test}]")),
            Lines{at + "[0].name: Not found: \"not-found\""});
  // "name found but invalid source"
  EXPECT_EQ(Containers(devices("[{name: def, devicePath: /usr/share/test}]")),
            Lines{at + "[0].name: Invalid value: \"def\": can only use volume source type of PersistentVolumeClaim or "
                       "Ephemeral for block mode"});
  // "empty devicepath"
  EXPECT_EQ(Containers(devices("[{name: abc, devicePath: ''}]")), Lines{at + "[0].devicePath: Required value"});
  // "duplicate devicepath"
  EXPECT_EQ(Containers(devices("[{name: abc, devicePath: /foo}, {name: abc-123, devicePath: /foo}]")),
            Lines{at + "[1].devicePath: Invalid value: \"/foo\": must be unique"});
  // "no backsteps"
  EXPECT_EQ(Containers(devices("[{name: def, devicePath: /baz/../}]")),
            (Lines{at + "[0].name: Invalid value: \"def\": can only use volume source type of PersistentVolumeClaim or "
                        "Ephemeral for block mode",
                   at + "[0].devicePath: Invalid value: \"/baz/../\": can not contain backsteps ('..')"}));
}


// --- TestValidateVolumes and TestValidateCSIVolumeSource (type, field and
// at most a part of the detail: the rest derived from validateVolumeSource
// and the sources' validators), one volume under field.NewPath("field") ---

Lines Volume(std::string_view volume) {
  const doc::Node list = Read("- " + std::string(volume) + "\n");
  ObjectErrors errors;
  pod_parts::ValidateVolumes(&list, nullptr, Path("field"), &errors);
  return Texts(errors);
}

TEST(UpstreamCoreValidateVolumesTest, Names) {
  // "zero-length name"
  EXPECT_EQ(Volume("{name: '', emptyDir: {}}"), Lines{"field[0].name: Required value"});
  // "name > 63 characters"
  const std::string long_name(64, 'a');
  EXPECT_EQ(Volume("{name: " + long_name + ", emptyDir: {}}"),
            Lines{"field[0].name: Invalid value: \"" + long_name + "\": must be no more than 63 characters"});
  // "name has dots"
  EXPECT_EQ(Volume("{name: a.b.c, emptyDir: {}}"), Lines{"field[0].name: Invalid value: \"a.b.c\": must not contain dots"});
  // "name not a DNS label"
  EXPECT_EQ(Volume("{name: 'Not a DNS label!', emptyDir: {}}"),
            Lines{"field[0].name: Invalid value: \"Not a DNS label!\": " + std::string(kDns1123LabelMessage)});
  // "no volume source"
  EXPECT_EQ(Volume("{name: volume}"), Lines{"field[0]: Required value: must specify a volume type"});
}

TEST(UpstreamCoreValidateVolumesTest, MoreThanOneSource) {
  // "more than one source"
  EXPECT_EQ(Volume("{name: dups, emptyDir: {}, hostPath: {path: /mnt/path, type: Directory}}"),
            Lines{"field[0].hostPath: Forbidden: may not specify more than 1 volume type"});
  // Derived: validateVolumeSource names a second CephFS source "cephFS".
  EXPECT_EQ(Volume("{name: dups, emptyDir: {}, cephfs: {monitors: [foo]}}"),
            Lines{"field[0].cephFS: Forbidden: may not specify more than 1 volume type"});
}

TEST(UpstreamCoreValidateVolumesTest, HostPathAndGitRepo) {
  // "invalid HostPath"
  EXPECT_EQ(Volume("{name: hostpath, hostPath: {path: /mnt/path, type: invalid}}"),
            Lines{"field[0].hostPath.type: Unsupported value: \"invalid\": supported values: \"\", \"BlockDevice\", "
                  "\"CharDevice\", \"Directory\", \"DirectoryOrCreate\", \"File\", \"FileOrCreate\", \"Socket\""});
  // "invalid HostPath backsteps"
  EXPECT_EQ(Volume("{name: hostpath, hostPath: {path: /mnt/path/.., type: Directory}}"),
            Lines{"field[0].hostPath.path: Invalid value: \"/mnt/path/..\": must not contain '..'"});
  // "GitRepo starts with ../", "GitRepo contains ..", "GitRepo absolute target"
  EXPECT_EQ(Volume("{name: gitrepo, gitRepo: {repository: foo, directory: ../dots/bar}}"),
            Lines{"field[0].gitRepo.directory: Invalid value: \"../dots/bar\": must not contain '..'"});
  EXPECT_EQ(Volume("{name: gitrepo, gitRepo: {repository: foo, directory: dots/../bar}}"),
            Lines{"field[0].gitRepo.directory: Invalid value: \"dots/../bar\": must not contain '..'"});
  EXPECT_EQ(Volume("{name: gitrepo, gitRepo: {repository: foo, directory: /abstarget}}"),
            Lines{"field[0].gitRepo.directory: Invalid value: \"/abstarget\": must be a relative path"});
}

TEST(UpstreamCoreValidateVolumesTest, Iscsi) {
  const auto iscsi = [](std::string_view fields) {
    return Volume("{name: iscsi, iscsi: {lun: 1, fsType: ext4, " + std::string(fields) + "}}");
  };
  // "empty portal", "empty iqn"
  EXPECT_EQ(iscsi("targetPortal: '', iqn: 'iqn.2015-02.example.com:test'"),
            Lines{"field[0].iscsi.targetPortal: Required value"});
  EXPECT_EQ(iscsi("targetPortal: 127.0.0.1, iqn: ''"), Lines{"field[0].iscsi.iqn: Required value"});
  // "invalid IQN: iqn format", "eui format", "naa format"
  for (std::string_view iqn : {"iqn.2015-02.example.com:test;ls;", "eui.0123456789ABCDEFGHIJ",
                               "naa.62004567BA_4-78D.123456789ABCDEF"}) {
    EXPECT_EQ(iscsi("targetPortal: 127.0.0.1, iqn: '" + std::string(iqn) + "'"),
              Lines{"field[0].iscsi.iqn: Invalid value: \"" + std::string(iqn) + "\": must be valid format"});
  }
  // the valid formats ("valid IQN: eui format", "naa format", "valid initiatorName")
  EXPECT_EQ(iscsi("targetPortal: 127.0.0.1, iqn: eui.0123456789ABCDEF"), Lines{});
  EXPECT_EQ(iscsi("targetPortal: 127.0.0.1, iqn: naa.62004567BA64678D0123456789ABCDEF"), Lines{});
  EXPECT_EQ(iscsi("targetPortal: 127.0.0.1, iqn: 'iqn.2015-02.example.com:test', initiatorName: "
                  "'iqn.2015-02.example.com:init'"),
            Lines{});
  // "invalid initiatorName"
  EXPECT_EQ(iscsi("targetPortal: 127.0.0.1, iqn: 'iqn.2015-02.example.com:test', initiatorName: "
                  "'2015-02.example.com:init'"),
            Lines{"field[0].iscsi.initiatorname: Invalid value: \"2015-02.example.com:init\": must be valid format "
                  "starting with iqn, eui, or naa"});
  // "empty secret" (discovery, then session CHAP)
  EXPECT_EQ(iscsi("targetPortal: 127.0.0.1, iqn: 'iqn.2015-02.example.com:test', chapAuthDiscovery: true"),
            Lines{"field[0].iscsi.secretRef: Required value"});
  EXPECT_EQ(iscsi("targetPortal: 127.0.0.1, iqn: 'iqn.2015-02.example.com:test', chapAuthSession: true"),
            Lines{"field[0].iscsi.secretRef: Required value"});
  // Derived: the lun range, and the volume name's length with an initiator.
  EXPECT_EQ(Volume("{name: iscsi, iscsi: {lun: 256, targetPortal: 127.0.0.1, iqn: 'iqn.2015-02.example.com:test'}}"),
            Lines{"field[0].iscsi.lun: Invalid value: 256: must be between 0 and 255, inclusive"});
  const std::string portal(60, 'p');
  EXPECT_EQ(iscsi("targetPortal: " + portal + ", iqn: 'iqn.2015-02.example.com:test', initiatorName: "
                  "'iqn.2015-02.example.com:init'"),
            Lines{"field[0].name: Invalid value: \"iscsi\": Total length of <volume name>:<iscsi.targetPortal> must be "
                  "under 64 characters if iscsi.initiatorName is specified."});
}

TEST(UpstreamCoreValidateVolumesTest, SecretAndConfigMapItems) {
  for (std::string_view kind : {"secret", "configMap"}) {
    const std::string name = kind == "secret" ? "secretName: s" : "name: c";
    const auto volume = [&](std::string_view fields) {
      return Volume("{name: vol, " + std::string(kind) + ": {" + name + ", " + std::string(fields) + "}}");
    };
    const std::string at = "field[0]." + std::string(kind) + ".";
    // "... with missing path", "with leading ..", "with .. inside"
    EXPECT_EQ(volume("items: [{key: key, path: ''}]"), Lines{at + "items[0].path: Required value"}) << kind;
    EXPECT_EQ(volume("items: [{key: key, path: ../foo}]"),
              Lines{at + "items[0].path: Invalid value: \"../foo\": must not contain '..'"})
        << kind;
    EXPECT_EQ(volume("items: [{key: key, path: foo/../bar}]"),
              Lines{at + "items[0].path: Invalid value: \"foo/../bar\": must not contain '..'"})
        << kind;
    // "... with invalid positive defaultMode" (01000), "negative defaultMode"
    EXPECT_EQ(volume("defaultMode: 512"),
              Lines{at + "defaultMode: Invalid value: 512: must be a number between 0 and 0777 (octal), both inclusive"})
        << kind;
    EXPECT_EQ(volume("defaultMode: -1"),
              Lines{at + "defaultMode: Invalid value: -1: must be a number between 0 and 0777 (octal), both inclusive"})
        << kind;
  }
}

TEST(UpstreamCoreValidateVolumesTest, LegacySources) {
  // Glusterfs "empty hosts", "empty path"
  EXPECT_EQ(Volume("{name: glusterfs, glusterfs: {endpoints: '', path: path}}"),
            Lines{"field[0].glusterfs.endpoints: Required value"});
  EXPECT_EQ(Volume("{name: glusterfs, glusterfs: {endpoints: host, path: ''}}"),
            Lines{"field[0].glusterfs.path: Required value"});
  // Flocker "both empty", "both specified", "slash in flocker datasetName"
  EXPECT_EQ(Volume("{name: flocker, flocker: {datasetName: ''}}"),
            Lines{"field[0].flocker: Required value: one of datasetName and datasetUUID is required"});
  EXPECT_EQ(Volume("{name: flocker, flocker: {datasetName: datasetName, datasetUUID: d846b09d-223d-43df-ab5b-d6db2206a0e4}}"),
            Lines{"field[0].flocker: Invalid value: \"resource\": datasetName and datasetUUID can not be specified "
                  "simultaneously"});
  EXPECT_EQ(Volume("{name: flocker, flocker: {datasetName: foo/bar}}"),
            Lines{"field[0].flocker.datasetName: Invalid value: \"foo/bar\": must not contain '/'"});
  // RBD "empty rbd monitors", "empty image"; CephFS "empty cephfs monitors"
  EXPECT_EQ(Volume("{name: rbd, rbd: {monitors: [], image: bar, fsType: ext4}}"),
            Lines{"field[0].rbd.monitors: Required value"});
  EXPECT_EQ(Volume("{name: rbd, rbd: {monitors: [foo], image: '', fsType: ext4}}"),
            Lines{"field[0].rbd.image: Required value"});
  EXPECT_EQ(Volume("{name: cephfs, cephfs: {monitors: []}}"), Lines{"field[0].cephfs.monitors: Required value"});
  // FC "FC empty targetWWNs and wwids", "both targetWWNs and wwids simultaneously"
  EXPECT_EQ(Volume("{name: fc, fc: {targetWWNs: [], lun: 1, wwids: [], fsType: ext4}}"),
            Lines{"field[0].fc.targetWWNs: Required value: must specify either targetWWNs or wwids, but not both"});
  EXPECT_EQ(Volume("{name: fc, fc: {targetWWNs: [some_wwn], lun: 1, wwids: [some_wwid], fsType: ext4}}"),
            Lines{"field[0].fc.targetWWNs: Invalid value: []string{\"some_wwn\"}: targetWWNs and wwids can not be "
                  "specified simultaneously"});
  // Derived: FC's lun, GCE PD's partition (pdPartitionErrorMsg says 1 though 0 passes).
  EXPECT_EQ(Volume("{name: fc, fc: {targetWWNs: [some_wwn]}}"),
            Lines{"field[0].fc.lun: Required value: lun is required if targetWWNs is specified"});
  EXPECT_EQ(Volume("{name: fc, fc: {targetWWNs: [some_wwn], lun: 256}}"),
            Lines{"field[0].fc.lun: Invalid value: 256: must be between 0 and 255, inclusive"});
  EXPECT_EQ(Volume("{name: gce-pd, gcePersistentDisk: {pdName: my-PD, partition: 256}}"),
            Lines{"field[0].persistentDisk.partition: Invalid value: 256: must be between 1 and 255, inclusive"});
}

TEST(UpstreamCoreValidateVolumesTest, DownwardApi) {
  const auto file = [](std::string_view fields) {
    return Volume("{name: downapi, downwardAPI: {items: [{" + std::string(fields) + "}]}}");
  };
  const std::string labels = "fieldRef: {apiVersion: v1, fieldPath: metadata.labels}";
  // "downapi invalid positive item mode", "negative item mode"
  EXPECT_EQ(file("mode: 512, path: path, " + labels),
            Lines{"field[0].downwardAPI.mode: Invalid value: 512: must be a number between 0 and 0777 (octal), both "
                  "inclusive"});
  EXPECT_EQ(file("mode: -1, path: path, " + labels),
            Lines{"field[0].downwardAPI.mode: Invalid value: -1: must be a number between 0 and 0777 (octal), both "
                  "inclusive"});
  // "downapi empty metatada path", "absolute path", "dot dot path"
  EXPECT_EQ(file("path: '', " + labels), Lines{"field[0].downwardAPI.path: Required value"});
  EXPECT_EQ(file("path: /absolutepath, " + labels),
            Lines{"field[0].downwardAPI.path: Invalid value: \"/absolutepath\": must be a relative path"});
  EXPECT_EQ(file("path: ../../passwd, " + labels),
            Lines{"field[0].downwardAPI.path: Invalid value: \"../../passwd\": must not contain '..'"});
  // "downapi dot dot file name", "dot dot first level dirent"
  EXPECT_EQ(file("path: ..badFileName, " + labels),
            Lines{"field[0].downwardAPI.path: Invalid value: \"..badFileName\": must not start with '..'"});
  EXPECT_EQ(file("path: ..badDirName/goodFileName, " + labels),
            Lines{"field[0].downwardAPI.path: Invalid value: \"..badDirName/goodFileName\": must not start with '..'"});
  // "downapi fieldRef and ResourceFieldRef together"
  EXPECT_EQ(file("path: test, " + labels + ", resourceFieldRef: {containerName: test-container, resource: requests.memory}"),
            Lines{"field[0].downwardAPI: Invalid value: \"resource\": fieldRef and resourceFieldRef can not be specified "
                  "simultaneously"});
  // "downapi invalid positive defaultMode"
  EXPECT_EQ(Volume("{name: downapi, downwardAPI: {defaultMode: 512}}"),
            Lines{"field[0].downwardAPI.defaultMode: Invalid value: 512: must be a number between 0 and 0777 (octal), "
                  "both inclusive"});
  // "valid DownwardAPI": subscripted labels and annotations paths pass.
  EXPECT_EQ(file("path: a, fieldRef: {apiVersion: v1, fieldPath: \"metadata.annotations['TEST.EXAMPLE.COM/key']\"}"),
            Lines{});
}

TEST(UpstreamCoreValidateCSIVolumeSourceTest, DriverNames) {
  const auto csi = [](std::string_view driver) { return Volume("{name: csi, csi: {driver: '" + std::string(driver) + "'}}"); };
  // "missing driver name": Required, then IsDNS1123Subdomain("") (derived).
  EXPECT_EQ(csi(""), (Lines{"field[0].csi.driver: Required value", Subdomain("field[0].csi.driver", "")}));
  // "driver name: invalid underscore", "invalid dot underscores", "invalid
  // dot dash underscores", "invalid start char", "invalid end char",
  // "invalid separators"
  for (std::string_view driver : {"io_kubernetes_storage_csi_flex", "io.kubernetes.storage_csi.flex",
                                  "io.kubernetes-storage.csi_flex", "_comgooglestoragecsigcepd",
                                  "comgooglestoragecsigcepd/", "com/google/storage/csi~gcepd"}) {
    EXPECT_EQ(csi(driver), Lines{Subdomain("field[0].csi.driver", driver)}) << driver;
  }
  // "driver name: invalid length > 63": TooLong prints no value.
  EXPECT_EQ(csi(std::string(65, 'g')), Lines{"field[0].csi.driver: Too long: may not be more than 63 bytes"});
  // "nodePublishSecretRef: invalid name missing"
  EXPECT_EQ(Volume("{name: csi, csi: {driver: com.google.gcepd, nodePublishSecretRef: {name: ''}}}"),
            Lines{"field[0].csi.nodePublishSecretRef.name: Required value"});
  // the upper-case driver passes (IsDNS1123Subdomain of the lower-cased name).
  EXPECT_EQ(csi("Com.Google.GcePD"), Lines{});
}


// Derived from validateDownwardAPIVolumeFile, which checks a file's fieldRef
// with validateObjectFieldSelector and its resourceFieldRef with
// validateContainerResourceFieldSelector(volume=true).
TEST(UpstreamCoreValidateVolumesTest, DownwardApiSelectors) {
  const auto file = [](std::string_view fields) {
    return Volume("{name: downapi, downwardAPI: {items: [{path: a, " + std::string(fields) + "}]}}");
  };
  const std::string at = "field[0].downwardAPI.";
  EXPECT_EQ(file("fieldRef: {fieldPath: metadata.labels}"), Lines{at + "fieldRef.apiVersion: Required value"});
  EXPECT_EQ(file("fieldRef: {apiVersion: v1, fieldPath: metadata.whoops}"),
            Lines{at + "fieldRef.fieldPath: Invalid value: \"metadata.whoops\": error converting fieldPath: field label not "
                       "supported: metadata.whoops"});
  EXPECT_EQ(file("fieldRef: {apiVersion: v1, fieldPath: spec.nodeName}"),
            Lines{at + "fieldRef.fieldPath: Unsupported value: \"spec.nodeName\": supported values: "
                       "\"metadata.annotations\", \"metadata.labels\", \"metadata.name\", \"metadata.namespace\", "
                       "\"metadata.uid\""});
  EXPECT_EQ(file("fieldRef: {apiVersion: v1, fieldPath: \"metadata.labels['Bad Key']\"}"),
            Lines{at + "fieldRef: Invalid value: \"Bad Key\": name part must consist of alphanumeric characters, '-', '_' "
                       "or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or "
                       "'123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"});
  EXPECT_EQ(file("resourceFieldRef: {resource: limits.cpu}"), Lines{at + "resourceFieldRef.containerName: Required value"});
  EXPECT_EQ(file("resourceFieldRef: {containerName: c, resource: limits.gpu}"),
            Lines{at + "resourceFieldRef.resource: Unsupported value: \"limits.gpu\": supported values: \"limits.cpu\", "
                       "\"limits.ephemeral-storage\", \"limits.memory\", \"requests.cpu\", \"requests.ephemeral-storage\", "
                       "\"requests.memory\""});
  EXPECT_EQ(Volume("{name: p, projected: {sources: [{downwardAPI: {items: [{path: a, resourceFieldRef: {resource: "
                   "limits.cpu}}]}}]}}"),
            Lines{"field[0].projected.sources[0].downwardAPI.resourceFieldRef.containerName: Required value"});
}

// Derived from validateQuobyteVolumeSource, validateCinderVolumeSource,
// validateFlexVolumeSource, validateAzureDisk and validateStorageOSVolumeSource.
TEST(UpstreamCoreValidateVolumesTest, OtherLegacySources) {
  constexpr std::string_view kPairs = "must be a host:port pair or multiple pairs separated by commas";
  EXPECT_EQ(Volume("{name: q, quobyte: {registry: '', volume: v}}"),
            Lines{"field[0].quobyte.registry: Required value: " + std::string(kPairs)});
  EXPECT_EQ(Volume("{name: q, quobyte: {registry: host, volume: v}}"),
            Lines{"field[0].quobyte.registry: Invalid value: \"host\": " + std::string(kPairs)});
  EXPECT_EQ(Volume("{name: q, quobyte: {registry: 'a:1,[::1]:2', volume: ''}}"), Lines{"field[0].quobyte.volume: Required value"});
  EXPECT_EQ(Volume("{name: c, cinder: {volumeID: x, secretRef: {name: ''}}}"),
            Lines{"field[0].cinder.secretRef.name: Required value"});
  EXPECT_EQ(Volume("{name: f, flexVolume: {driver: d, options: {kubernetes.io/foo: x, ok/a: z, my.k8s.io: y}}}"),
            (Lines{"field[0].flexVolume.options[kubernetes.io/foo]: Invalid value: \"kubernetes.io/foo\": kubernetes.io and "
                   "k8s.io namespaces are reserved",
                   "field[0].flexVolume.options[my.k8s.io]: Invalid value: \"my.k8s.io\": kubernetes.io and k8s.io "
                   "namespaces are reserved"}));
  EXPECT_EQ(Volume("{name: a, azureDisk: {diskName: d, diskURI: 'http://x', cachingMode: Bad, kind: Shared}}"),
            (Lines{"field[0].azureDisk.cachingMode: Unsupported value: \"Bad\": supported values: \"None\", \"ReadOnly\", "
                   "\"ReadWrite\"",
                   "field[0].azureDisk.diskURI: Unsupported value: \"http://x\": supported values: "
                   "\"https://{account-name}.blob.core.windows.net/{container-name}/{disk-name}.vhd\""}));
  EXPECT_EQ(Volume("{name: a, azureDisk: {diskName: d, diskURI: 'https://x', kind: Managed}}"),
            Lines{"field[0].azureDisk.diskURI: Unsupported value: \"https://x\": supported values: "
                  "\"/subscriptions/{sub-id}/resourcegroups/{group-name}/providers/microsoft.compute/disks/{disk-id}\""});
  EXPECT_EQ(Volume("{name: s, storageos: {volumeName: Bad_Name, volumeNamespace: ns, secretRef: {name: ''}}}"),
            (Lines{"field[0].storageos.volumeName: Invalid value: \"Bad_Name\": " + std::string(kDns1123LabelMessage),
                   "field[0].storageos.secretRef.name: Required value"}));
}


// --- ValidateSecurityContext of a container (TestValidateSecurityContext
// and the seccomp / AppArmor field cases of TestValidatePodSpec, derived
// from validateSeccompProfileField and ValidateAppArmorProfileField) ---

TEST(UpstreamCoreValidateSecurityContextTest, ContainerFields) {
  const auto sc = [](std::string_view context) { return Containers(One("  securityContext: " + std::string(context) + "\n")); };
  const std::string at = "containers[0].securityContext.";
  EXPECT_EQ(sc("{runAsGroup: -1}"), Lines{at + "runAsGroup: Invalid value: -1: must be between 0 and 4294967295, inclusive"});
  EXPECT_EQ(sc("{seccompProfile: {type: ''}}"),
            Lines{at + "seccompProfile.type: Required value: type is required when seccompProfile is set"});
  EXPECT_EQ(sc("{seccompProfile: {type: Bad}}"),
            Lines{at + "seccompProfile.type: Unsupported value: \"Bad\": supported values: \"Localhost\", "
                       "\"RuntimeDefault\", \"Unconfined\""});
  EXPECT_EQ(sc("{seccompProfile: {type: Localhost, localhostProfile: /abs.json}}"),
            Lines{at + "seccompProfile.localhostProfile: Invalid value: \"/abs.json\": must be a relative path"});
  EXPECT_EQ(sc("{appArmorProfile: {type: Localhost, localhostProfile: ' x'}}"),
            Lines{at + "appArmorProfile.localhostProfile: Invalid value: \" x\": must not be padded with whitespace"});
  EXPECT_EQ(sc("{appArmorProfile: {type: Localhost, localhostProfile: ''}}"),
            Lines{at + "appArmorProfile.localhostProfile: Required value: must be set when AppArmor type is Localhost"});
  EXPECT_EQ(sc("{appArmorProfile: {type: ''}}"),
            Lines{at + "appArmorProfile.type: Required value: type is required when appArmorProfile is set"});
  // maxLocalhostProfileLength: TooLong (the fix this case found).
  EXPECT_EQ(sc("{appArmorProfile: {type: Localhost, localhostProfile: " + std::string(4096, 'p') + "}}"),
            Lines{at + "appArmorProfile.localhostProfile: Too long: may not be more than 4095 bytes"});
}

// --- ValidateTolerations (TestValidatePod's toleration cases: derived) ---

TEST(UpstreamCoreValidateTolerationsTest, KeysAndValues) {
  const auto tolerations = [](std::string_view list) {
    const doc::Node node = Read(list);
    ObjectErrors errors;
    pod_parts::ValidateTolerations(&node, Path("tolerations"), &errors);
    return Texts(errors);
  };
  constexpr std::string_view kLabelValue =
      "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start "
      "and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation "
      "is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
  EXPECT_EQ(tolerations("- {key: 'Bad Key!', operator: Exists}\n"),
            Lines{"tolerations[0].key: Invalid value: \"Bad Key!\": name part must consist of alphanumeric characters, "
                  "'-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  "
                  "or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"});
  // An Equal (or empty) operator's bad value is reported at "operator",
  // IsValidLabelValue's messages joined by ";".
  EXPECT_EQ(tolerations("- {key: foo, operator: Equal, value: 'bad value!'}\n"),
            Lines{"tolerations[0].operator: Invalid value: \"bad value!\": " + std::string(kLabelValue)});
  const std::string long_value = "-" + std::string(63, 'a');
  EXPECT_EQ(tolerations("- {key: foo, value: '" + long_value + "'}\n"),
            Lines{"tolerations[0].operator: Invalid value: \"" + long_value + "\": must be no more than 63 characters;" +
                  std::string(kLabelValue)});
}

// --- validateAffinity (TestValidateAffinity-style cases of TestValidatePod
// and TestValidatePodSpec: derived from ValidateNodeSelectorRequirement,
// ValidateNodeFieldSelectorRequirement and validatePodAffinityTerm) ---

TEST(UpstreamCoreValidateAffinityTest, NodeSelectorRequirements) {
  const auto affinity = [](std::string_view yaml) {
    const doc::Node node = Read(yaml);
    ObjectErrors errors;
    pod_parts::ValidateAffinity(&node, Path("affinity"), &errors);
    return Texts(errors);
  };
  const auto required = [&](std::string_view term) {
    return affinity("nodeAffinity:\n  requiredDuringSchedulingIgnoredDuringExecution:\n    nodeSelectorTerms:\n    - " +
                    std::string(term) + "\n");
  };
  const std::string at = "affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].";
  EXPECT_EQ(required("{matchExpressions: [{key: k, operator: In, values: []}]}"),
            Lines{at + "matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'"});
  EXPECT_EQ(required("{matchExpressions: [{key: k, operator: Exists, values: [a]}]}"),
            Lines{at + "matchExpressions[0].values: Forbidden: may not be specified when `operator` is 'Exists' or "
                       "'DoesNotExist'"});
  EXPECT_EQ(required("{matchExpressions: [{key: k, operator: Gt, values: ['1', '2']}]}"),
            Lines{at + "matchExpressions[0].values: Required value: must be specified single value when `operator` is "
                       "'Lt' or 'Gt'"});
  EXPECT_EQ(required("{matchExpressions: [{key: k, operator: In, values: ['bad value!']}]}"),
            Lines{at + "matchExpressions[0].values[0]: Invalid value: \"bad value!\": a valid label must be an empty "
                       "string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an "
                       "alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is "
                       "'(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"});
  EXPECT_EQ(required("{matchFields: [{key: metadata.name, operator: Exists}]}"),
            Lines{at + "matchFields[0].operator: Invalid value: \"Exists\": not a valid selector operator"});
  EXPECT_EQ(required("{matchFields: [{key: spec.nodeName, operator: In, values: [a]}]}"),
            Lines{at + "matchFields[0].key: Invalid value: \"spec.nodeName\": not a valid field selector key"});
  EXPECT_EQ(required("{matchFields: [{key: metadata.name, operator: In, values: [a, b]}]}"),
            Lines{at + "matchFields[0].values: Required value: must be only one value when `operator` is 'In' or 'NotIn' "
                       "for node field selector"});
  EXPECT_EQ(required("{matchFields: [{key: metadata.name, operator: In, values: [Bad_Node]}]}"),
            Lines{Subdomain(at + "matchFields[0].values[0]", "Bad_Node")});
  // Preferred terms allow any label value.
  EXPECT_EQ(affinity("nodeAffinity:\n  preferredDuringSchedulingIgnoredDuringExecution:\n  - weight: 1\n"
                     "    preference: {matchExpressions: [{key: k, operator: In, values: ['bad value!']}]}\n"),
            Lines{});
  // A pod affinity term's namespaces are labels, reported at "namespace".
  EXPECT_EQ(affinity("podAffinity:\n  requiredDuringSchedulingIgnoredDuringExecution:\n"
                     "  - {topologyKey: zone, namespaces: [Bad_NS]}\n"),
            Lines{"affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].namespace: Invalid value: "
                  "\"Bad_NS\": " +
                  std::string(kDns1123LabelMessage)});
  EXPECT_EQ(affinity("podAntiAffinity:\n  preferredDuringSchedulingIgnoredDuringExecution:\n"
                     "  - {weight: 0, podAffinityTerm: {topologyKey: zone}}\n"),
            Lines{"affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight: Invalid value: 0: "
                  "must be in the range 1-100"});
}


// --- apimachinery's TestValidateLabels (pkg/apis/meta/v1/validation) and
// the label cases of objectmeta_test.go: keys through IsQualifiedName,
// values through IsValidLabelValue (derived where the test only expects an
// error) ---

TEST(UpstreamCoreValidateLabelsTest, KeysAndValues) {
  const auto labels = [](std::string_view yaml) {
    const doc::Node node = Read(yaml);
    ObjectErrors errors;
    ValidateLabels(&node, Path("metadata.labels"), &errors);
    return Texts(errors);
  };
  constexpr std::string_view kNamePart =
      "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric "
      "character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is "
      "'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
  EXPECT_EQ(labels("/simple: bar\n"), Lines{"metadata.labels: Invalid value: \"/simple\": prefix part must be non-empty"});
  EXPECT_EQ(labels("example.com/: bar\n"),
            (Lines{"metadata.labels: Invalid value: \"example.com/\": name part must be non-empty",
                   "metadata.labels: Invalid value: \"example.com/\": " + std::string(kNamePart)}));
  const std::string long_name(64, 'a');
  EXPECT_EQ(labels(long_name + ": bar\n"),
            Lines{"metadata.labels: Invalid value: \"" + long_name + "\": name part must be no more than 63 characters"});
  EXPECT_EQ(labels("Example.com/a: bar\n"),
            Lines{"metadata.labels: Invalid value: \"Example.com/a\": prefix part " + std::string(kDns1123SubdomainMessage)});
  const std::string long_prefix = std::string(254, 'a') + "/a";
  EXPECT_EQ(labels(long_prefix + ": bar\n"),
            Lines{"metadata.labels: Invalid value: \"" + long_prefix + "\": prefix part must be no more than 253 characters"});
  EXPECT_EQ(labels("'a b': bar\n"), Lines{"metadata.labels: Invalid value: \"a b\": " + std::string(kNamePart)});
  // Values: the 63-character limit and the regex, both reported.
  const std::string long_value = std::string(63, 'a') + "_";
  EXPECT_EQ(labels("k: '" + long_value + "'\n"),
            (Lines{"metadata.labels: Invalid value: \"" + long_value + "\": must be no more than 63 characters",
                   "metadata.labels: Invalid value: \"" + long_value +
                       "\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or "
                       "'.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or "
                       "'12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"}));
  EXPECT_EQ(labels("k: ''\nexample.com/MyName: 1.2-3_4\n"), Lines{});
}


// --- ValidatePodSpec's own fields and validatePodSpecSecurityContext
// (TestValidatePodSpec / TestValidatePod error cases, which check only that
// an error occurs: the texts derived from validation.go) ---

// ValidatePodSpec of a defaulted one-container spec with `extra` (lines at
// the spec's level) appended, rooted at "spec".
Lines PodSpec(std::string_view extra, bool grace_period = true) {
  std::string yaml = "restartPolicy: Always\ndnsPolicy: ClusterFirst\nschedulerName: default-scheduler\n"
                     "containers:\n- {name: ctr, image: image, imagePullPolicy: IfNotPresent, terminationMessagePolicy: "
                     "File}\n";
  if (grace_period) yaml += "terminationGracePeriodSeconds: 30\n";
  const doc::Node spec = Read(yaml + std::string(extra));
  const doc::Node metadata = doc::Node::Mapping();
  ObjectErrors errors;
  ValidatePodSpec(&spec, &metadata, Path("spec"), PodOwner::kJobTemplate, *KubernetesRulesOf("1.34"), &errors);
  return Texts(errors);
}

TEST(UpstreamCoreValidatePodSpecTest, OwnFields) {
  EXPECT_EQ(PodSpec("", false), Lines{"spec.terminationGracePeriodSeconds: Required value"});
  EXPECT_EQ(PodSpec("subdomain: a.b\n"), Lines{"spec.subdomain: Invalid value: \"a.b\": must not contain dots"});
  EXPECT_EQ(PodSpec("nodeName: Node_1\n"), Lines{Subdomain("spec.nodeName", "Node_1")});
  EXPECT_EQ(PodSpec("runtimeClassName: Bad_Class\n"), Lines{Subdomain("spec.runtimeClassName", "Bad_Class")});
  EXPECT_EQ(PodSpec("preemptionPolicy: Sometimes\n"),
            Lines{"spec.preemptionPolicy: Unsupported value: \"Sometimes\": supported values: \"PreemptLowerPriority\", "
                  "\"Never\""});
  EXPECT_EQ(PodSpec("activeDeadlineSeconds: 4294967296\n"),
            Lines{"spec.activeDeadlineSeconds: Invalid value: 4294967296: must be between 1 and 2147483647, inclusive"});
}

TEST(UpstreamCoreValidatePodSecurityContextTest, Fields) {
  const std::string at = "spec.securityContext.";
  EXPECT_EQ(PodSpec("securityContext: {fsGroup: -1}\n"),
            Lines{at + "fsGroup: Invalid value: -1: must be between 0 and 4294967295, inclusive"});
  EXPECT_EQ(PodSpec("securityContext: {supplementalGroups: [1, 4294967296]}\n"),
            Lines{at + "supplementalGroups[1]: Invalid value: 4294967296: must be between 0 and 4294967295, inclusive"});
  EXPECT_EQ(PodSpec("hostPID: true\nshareProcessNamespace: true\nsecurityContext: {}\n"),
            Lines{at + "shareProcessNamespace: Invalid value: true: ShareProcessNamespace and HostPID cannot both be "
                       "enabled"});
  EXPECT_EQ(PodSpec("securityContext: {sysctls: [{name: kernel.msgmax, value: '1'}, {name: kernel.msgmax, value: '2'}]}\n"),
            Lines{at + "sysctls[1].name: Duplicate value: \"kernel.msgmax\""});
  EXPECT_EQ(PodSpec("hostIPC: true\nsecurityContext: {sysctls: [{name: kernel.shmmax, value: '1'}]}\n"),
            Lines{at + "sysctls[0].name: Invalid value: \"kernel.shmmax\": may not be specified when 'hostIPC' is true"});
  EXPECT_EQ(PodSpec("securityContext: {sysctls: [{name: '', value: '1'}]}\n"), Lines{at + "sysctls[0].name: Required value"});
  EXPECT_EQ(PodSpec("securityContext: {supplementalGroupsPolicy: Loose}\n"),
            Lines{at + "supplementalGroupsPolicy: Unsupported value: \"Loose\": supported values: \"Merge\", \"Strict\""});
  EXPECT_EQ(PodSpec("securityContext: {appArmorProfile: {type: Unconfined, localhostProfile: x}}\n"),
            Lines{at + "appArmorProfile.localhostProfile: Invalid value: \"x\": can only be set when AppArmor type is "
                       "Localhost"});
}


// Derived from validateResourceRequirements: the request and the limit
// print as resource.Quantity.String() canonicalizes them.
TEST(UpstreamCoreValidateContainersTest, ResourceQuantitiesPrintCanonically) {
  EXPECT_EQ(Containers(WithResources("{limits: {cpu: '0.5'}, requests: {cpu: '1000m'}}")),
            Lines{"containers[0].resources.requests: Invalid value: \"1\": must be less than or equal to cpu limit of 500m"});
  EXPECT_EQ(Containers(WithResources("{limits: {memory: 1.5Gi}, requests: {memory: 2Gi}}")),
            Lines{"containers[0].resources.requests: Invalid value: \"2Gi\": must be less than or equal to memory limit of "
                  "1536Mi"});
  // A quoted "1e3" keeps its DecimalExponent format (unquoted, YAML makes
  // it the number 1000, which prints 1k).
  EXPECT_EQ(Containers(WithResources("{limits: {memory: '1e3'}, requests: {memory: 2k}}")),
            Lines{"containers[0].resources.requests: Invalid value: \"2k\": must be less than or equal to memory limit of "
                  "1e3"});
  EXPECT_EQ(Containers(WithResources("{limits: {example.com/foo: 2}, requests: {example.com/foo: 1}}")),
            Lines{"containers[0].resources.requests: Invalid value: \"1\": must be equal to example.com/foo limit of 2"});
  // A prefixed name that is neither native nor extended.
  EXPECT_EQ(Containers(WithResources("{limits: {requests.example.com/foo: 1}}")),
            Lines{"containers[0].resources.limits[requests.example.com/foo]: Invalid value: requests.example.com/foo: "
                  "doesn't follow extended resource name standard"});
}


// Derived from validateEphemeralVolumeSource -> ValidatePersistentVolumeClaimTemplate
// -> ValidatePersistentVolumeClaimSpec (the claim template's spec, which was
// not checked before these cases).
TEST(UpstreamCoreValidateVolumesTest, EphemeralClaimSpec) {
  const auto ephemeral = [](std::string_view spec) {
    return Volume("{name: e, ephemeral: {volumeClaimTemplate: {spec: " + std::string(spec) + "}}}");
  };
  const std::string at = "field[0].ephemeral.volumeClaimTemplate.spec.";
  EXPECT_EQ(ephemeral("{}"), (Lines{at + "accessModes: Required value: at least 1 access mode is required",
                                    at + "resources[storage]: Required value"}));
  const std::string storage = ", resources: {requests: {storage: 1Gi}}";
  EXPECT_EQ(ephemeral("{accessModes: [ReadWriteOncePod, ReadWriteOnce]" + storage + "}"),
            Lines{at + "accessModes: Forbidden: may not use ReadWriteOncePod with other access modes"});
  EXPECT_EQ(ephemeral("{accessModes: [Bad]" + storage + "}"),
            Lines{at + "accessModes: Unsupported value: \"Bad\": supported values: \"ReadOnlyMany\", \"ReadWriteMany\", "
                       "\"ReadWriteOnce\", \"ReadWriteOncePod\""});
  EXPECT_EQ(ephemeral("{accessModes: [ReadWriteOnce], resources: {requests: {storage: '0'}}}"),
            Lines{at + "resources[storage]: Invalid value: \"0\": must be greater than zero"});
  EXPECT_EQ(ephemeral("{accessModes: [ReadWriteOnce], storageClassName: Bad_Class" + storage + "}"),
            Lines{Subdomain(at + "storageClassName", "Bad_Class")});
  EXPECT_EQ(ephemeral("{accessModes: [ReadWriteOnce], volumeMode: Bad" + storage + "}"),
            Lines{at + "volumeMode: Unsupported value: \"Bad\": supported values: \"Block\", \"Filesystem\""});
  EXPECT_EQ(ephemeral("{accessModes: [ReadWriteOnce], dataSource: {name: x, kind: Snapshot}" + storage + "}"),
            Lines{at + "dataSource: Invalid value: \"Snapshot\": must be 'PersistentVolumeClaim' when referencing the "
                       "default apiGroup"});
  EXPECT_EQ(ephemeral("{accessModes: [ReadWriteOnce], dataSourceRef: {kind: VolumeSnapshot, apiGroup: Snapshot.IO}" +
                      storage + "}"),
            (Lines{at + "dataSourceRef.name: Required value", Subdomain(at + "dataSourceRef.apiGroup", "Snapshot.IO")}));
  EXPECT_EQ(ephemeral("{accessModes: [ReadWriteOnce]" + storage + "}"), Lines{});
}

}  // namespace
}  // namespace tjr::admission
