// Trainer's apply.Upsert* and apply.EnvVar (spec §1.7).
#include "render/upsert.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

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
// Trainer's loop, item by item against every element: what the indexed
// Upsert must give.
doc::Node UpsertedOneByOne(doc::Node list, const doc::Node& items, std::vector<std::string> keys) {
  auto same = [&](const doc::Node& a, const doc::Node& b) {
    for (const std::string& key : keys) {
      const doc::Node* x = a.Find(key);
      const doc::Node* y = b.Find(key);
      const bool x_set = x != nullptr && !x->is_null();
      const bool y_set = y != nullptr && !y->is_null();
      if (!x_set || !y_set ? x_set == y_set : *x == *y) return true;
    }
    return false;
  };
  if (!list.is_sequence()) list = doc::Node::Sequence();
  for (const doc::Node& item : items.items()) {
    bool replaced = false;
    for (doc::Node& existing : list.mutable_items()) {
      if (same(existing, item)) {
        existing = item;
        replaced = true;
        break;
      }
    }
    if (!replaced) list.push_back(item);
  }
  return list;
}

// Many elements and items, with repeated, absent, null and differently
// typed keys (8080 and "8080" differ), as ports match on either of two.
TEST(Upsert, ManyItemsAsTrainersLoopGivesThem) {
  doc::Node ports = doc::Node::Sequence();
  doc::Node items = doc::Node::Sequence();
  for (int i = 0; i < 600; ++i) {
    for (doc::Node* list : {&ports, &items}) {
      const int k = list == &ports ? i : (i * 7) % 900;
      doc::Node port = doc::Node::Mapping();
      if (k % 5 != 0) port.Set("containerPort", k % 3 == 0 ? doc::Node::String(std::to_string(k % 400)) : doc::Node::Int(k % 400));
      if (k % 4 == 1) port.Set("name", doc::Node::Null());
      if (k % 4 >= 2) port.Set("name", doc::Node::String("p" + std::to_string(k % 50)));
      port.Set("from", doc::Node::Int(list == &ports ? 0 : i));
      list->push_back(std::move(port));
    }
  }
  doc::Node upserted = ports;
  UpsertPorts(&upserted, items);
  EXPECT_EQ(upserted, UpsertedOneByOne(ports, items, {"containerPort", "name"}));
  doc::Node env = ports;
  UpsertEnvVars(&env, items);
  EXPECT_EQ(env, UpsertedOneByOne(ports, items, {"name"}));
  // A key that is a mapping is compared in full.
  doc::Node odd = Value("[{name: {a: 1}, value: x}, {name: b}]");
  UpsertEnvVars(&odd, Value("[{name: {a: 1}, value: y}, {name: c}]"));
  Expect(odd, "[{name: {a: 1}, value: y}, {name: b}, {name: c}]");
}

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
