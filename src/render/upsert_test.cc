// Trainer's apply.Upsert* and apply.EnvVar (spec §1.7).
#include "render/upsert.h"

#include <gtest/gtest.h>

#include "render/test_util.h"

namespace tjr::render {
namespace {

using testing::ToYaml;
using testing::Value;

void Expect(const doc::Node& actual, std::string_view expected) {
  doc::Node e = Value(expected);
  EXPECT_EQ(actual, e) << "actual:\n" << ToYaml(actual) << "expected:\n" << ToYaml(e);
}

TEST(Upsert, EnvReplacesWholeElementInPlaceOrAppends) {
  doc::Node list = Value("[{name: A, value: a}, {name: B, valueFrom: {fieldRef: {fieldPath: x}}}]");
  UpsertEnvVars(&list, Value("[{name: B, value: b}, {name: C, value: c}]"));
  Expect(list, "[{name: A, value: a}, {name: B, value: b}, {name: C, value: c}]");
}

TEST(Upsert, NothingToUpsertLeavesAbsentListAbsent) {
  doc::Node list;
  UpsertEnvVars(&list, doc::Node::Sequence());
  EXPECT_TRUE(list.is_null());
  UpsertVolumes(&list, Value("[{name: v}]"));
  Expect(list, "[{name: v}]");
}

// §1.7: the torch port has no name, so it replaces the first unnamed port.
TEST(Upsert, PortWithoutNameReplacesFirstUnnamedPort) {
  doc::Node ports = Value("[{containerPort: 8080}]");
  UpsertPorts(&ports, Value("[{containerPort: 29500}]"));
  Expect(ports, "[{containerPort: 29500}]");

  ports = Value("[{name: http, containerPort: 8080}]");
  UpsertPorts(&ports, Value("[{containerPort: 29500}]"));
  Expect(ports, "[{name: http, containerPort: 8080}, {containerPort: 29500}]");

  ports = Value("[{name: http, containerPort: 29500, protocol: TCP}]");
  UpsertPorts(&ports, Value("[{containerPort: 29500}]"));
  Expect(ports, "[{containerPort: 29500}]");
}

TEST(Upsert, VolumeMountsMatchByMountPath) {
  doc::Node mounts = Value("[{name: a, mountPath: /x}]");
  UpsertVolumeMounts(&mounts, Value("[{name: b, mountPath: /x}, {name: a, mountPath: /y}]"));
  Expect(mounts, "[{name: b, mountPath: /x}, {name: a, mountPath: /y}]");
}

// §1.7 environment conversion rules.
TEST(ConvertEnvVar, FollowsApplyEnvVar) {
  Expect(ConvertEnvVar(Value("{name: A}")), "{name: A, value: ''}");
  Expect(ConvertEnvVar(Value("{name: A, valueFrom: {fieldRef: {apiVersion: v1, fieldPath: metadata.name}}}")),
         "{name: A, valueFrom: {fieldRef: {fieldPath: metadata.name}}}");
  Expect(ConvertEnvVar(Value("{name: A, valueFrom: {resourceFieldRef: {resource: limits.cpu}}}")),
         "{name: A, valueFrom: {resourceFieldRef: {containerName: '', resource: limits.cpu, divisor: '0'}}}");
  Expect(ConvertEnvVar(Value("{name: A, valueFrom: {configMapKeyRef: {name: c, key: k, optional: true}}}")),
         "{name: A, valueFrom: {configMapKeyRef: {key: k, name: c, optional: true}}}");
  Expect(ConvertEnvVar(Value("{name: A, valueFrom: {secretKeyRef: {name: s, key: k}}}")),
         "{name: A, valueFrom: {secretKeyRef: {key: k, name: s}}}");
  Expect(ConvertEnvVar(Value("{name: A, valueFrom: {fileKeyRef: {path: p, key: k}}}")), "{name: A, valueFrom: {}}");
}

}  // namespace
}  // namespace tjr::render
