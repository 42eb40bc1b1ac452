// The typed round trip on the real corev1.PodTemplateSpec of Kubernetes
// 1.34. Expected outputs come from kubectl v1.32.4: the template was put in
// a batch/v1 Job and read back with
//   kubectl set image --local -f job.json node=new -o json
// which decodes into the typed Job and prints json.Marshal of it (struct
// fields in Go order). Two adjustments, both from upstream facts: the
// container image is put back from "new" to "old", and
// metadata.creationTimestamp (null in kubectl's output) is absent, because
// apimachinery v0.34.1 tags it `omitempty,omitzero` and Go >= 1.24 honours
// omitzero; kubectl 1.32 still has the plain `omitempty` tag. Error texts
// are kubectl's with the Job prefix ("spec.template.") taken off the field
// path, since here the template is the root.
#include <gtest/gtest.h>

#include "json/json.h"
#include "schema/schema.h"
#include "typed/round_trip.h"

namespace tjr::typed {
namespace {

const schema::Type& PodTemplateSpec() {
  Result<const schema::Schema*> schema = schema::BuiltinSchema({"kubernetes-v1.34"});
  if (!schema.ok()) {
    ADD_FAILURE() << schema.error().ToString();
    static const schema::Type kNone;
    return kNone;
  }
  const schema::Type* type = (*schema)->FindType("k8s.io/api/core/v1.PodTemplateSpec");
  if (type == nullptr) {
    ADD_FAILURE() << "no PodTemplateSpec";
    static const schema::Type kNone;
    return kNone;
  }
  return *type;
}

doc::Node Json(std::string_view text) {
  Result<doc::Node> node = json::Read(text, "test.json");
  EXPECT_TRUE(node.ok()) << node.error().ToString();
  return node.ok() ? *node : doc::Node();
}

// Keys in the order each mapping holds them, depth first.
void KeyOrder(const doc::Node& node, std::string* out) {
  if (node.is_mapping()) {
    for (const doc::Field& f : node.fields()) {
      *out += f.key + ",";
      KeyOrder(f.value, out);
    }
  } else if (node.is_sequence()) {
    for (const doc::Node& item : node.items()) KeyOrder(item, out);
  }
}

// A runtime-style template with the cases the round trip changes: number
// and quantity normalisation, dropped unknown and empty fields, `{}` and
// null for non-omitempty fields, the Quantity divisor default.
constexpr std::string_view kTemplate = R"json({
  "metadata": {"labels": {"app": "trainer", "jobset.sigs.k8s.io/replicatedjob-name": "node"}, "annotations": {"note": "x"}, "unknownMeta": 1},
  "spec": {
    "restartPolicy": "OnFailure",
    "serviceAccountName": "sa",
    "nodeSelector": {"pool": "gpu"},
    "terminationGracePeriodSeconds": 30,
    "activeDeadlineSeconds": 3600.0,
    "affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {}}},
    "tolerations": [{"key": "k", "operator": "Exists", "effect": "NoSchedule", "tolerationSeconds": 5}],
    "volumes": [
      {"name": "dshm", "emptyDir": {"medium": "Memory", "sizeLimit": "1024Mi"}},
      {"name": "cfg", "configMap": {"name": "c", "defaultMode": 420, "items": [{"key": "a", "path": "b"}]}}
    ],
    "initContainers": [{"name": "init", "image": "busybox", "command": ["sh", "-c", "true"]}],
    "containers": [{
      "name": "node",
      "image": "old",
      "command": [],
      "args": null,
      "ports": [{"containerPort": 29500, "protocol": "TCP"}, {"containerPort": 8080, "name": "http"}],
      "env": [
        {"name": "A", "value": "1"},
        {"name": "CPU", "valueFrom": {"resourceFieldRef": {"resource": "limits.cpu"}}},
        {"name": "E"},
        {"name": "POD", "valueFrom": {"fieldRef": {"fieldPath": "metadata.name"}}}
      ],
      "resources": {
        "limits": {"cpu": "1000m", "memory": "4096Mi", "nvidia.com/gpu": 1},
        "requests": {"cpu": 0.5, "memory": "1.5Gi", "ephemeral-storage": "+10Gi"}
      },
      "volumeMounts": [{"name": "dshm", "mountPath": "/dev/shm"}],
      "livenessProbe": {"httpGet": {"path": "/healthz", "port": 8080}, "periodSeconds": 10},
      "readinessProbe": {"tcpSocket": {"port": "http"}},
      "securityContext": {"privileged": false, "runAsUser": 0, "capabilities": {"add": ["SYS_PTRACE"]}},
      "unknownField": "dropped"
    }],
    "schedulingGates": [{"name": "g"}],
    "imagePullSecrets": [{"name": "reg"}],
    "hostNetwork": false,
    "dnsPolicy": "",
    "topologySpreadConstraints": [{"maxSkew": 1, "topologyKey": "zone", "whenUnsatisfiable": "DoNotSchedule"}],
    "overhead": null
  },
  "status": {"phase": "Running"}
})json";

constexpr std::string_view kExpected = R"json({
  "metadata": {
    "labels": {
      "app": "trainer",
      "jobset.sigs.k8s.io/replicatedjob-name": "node"
    },
    "annotations": {
      "note": "x"
    }
  },
  "spec": {
    "volumes": [
      {
        "name": "dshm",
        "emptyDir": {
          "medium": "Memory",
          "sizeLimit": "1Gi"
        }
      },
      {
        "name": "cfg",
        "configMap": {
          "name": "c",
          "items": [
            {
              "key": "a",
              "path": "b"
            }
          ],
          "defaultMode": 420
        }
      }
    ],
    "initContainers": [
      {
        "name": "init",
        "image": "busybox",
        "command": [
          "sh",
          "-c",
          "true"
        ],
        "resources": {}
      }
    ],
    "containers": [
      {
        "name": "node",
        "image": "old",
        "ports": [
          {
            "containerPort": 29500,
            "protocol": "TCP"
          },
          {
            "name": "http",
            "containerPort": 8080
          }
        ],
        "env": [
          {
            "name": "A",
            "value": "1"
          },
          {
            "name": "CPU",
            "valueFrom": {
              "resourceFieldRef": {
                "resource": "limits.cpu",
                "divisor": "0"
              }
            }
          },
          {
            "name": "E"
          },
          {
            "name": "POD",
            "valueFrom": {
              "fieldRef": {
                "fieldPath": "metadata.name"
              }
            }
          }
        ],
        "resources": {
          "limits": {
            "cpu": "1",
            "memory": "4Gi",
            "nvidia.com/gpu": "1"
          },
          "requests": {
            "cpu": "500m",
            "ephemeral-storage": "+10Gi",
            "memory": "1536Mi"
          }
        },
        "volumeMounts": [
          {
            "name": "dshm",
            "mountPath": "/dev/shm"
          }
        ],
        "livenessProbe": {
          "httpGet": {
            "path": "/healthz",
            "port": 8080
          },
          "periodSeconds": 10
        },
        "readinessProbe": {
          "tcpSocket": {
            "port": "http"
          }
        },
        "securityContext": {
          "capabilities": {
            "add": [
              "SYS_PTRACE"
            ]
          },
          "privileged": false,
          "runAsUser": 0
        }
      }
    ],
    "restartPolicy": "OnFailure",
    "terminationGracePeriodSeconds": 30,
    "activeDeadlineSeconds": 3600,
    "nodeSelector": {
      "pool": "gpu"
    },
    "serviceAccountName": "sa",
    "imagePullSecrets": [
      {
        "name": "reg"
      }
    ],
    "affinity": {
      "nodeAffinity": {
        "requiredDuringSchedulingIgnoredDuringExecution": {
          "nodeSelectorTerms": null
        }
      }
    },
    "tolerations": [
      {
        "key": "k",
        "operator": "Exists",
        "effect": "NoSchedule",
        "tolerationSeconds": 5
      }
    ],
    "topologySpreadConstraints": [
      {
        "maxSkew": 1,
        "topologyKey": "zone",
        "whenUnsatisfiable": "DoNotSchedule"
      }
    ],
    "schedulingGates": [
      {
        "name": "g"
      }
    ]
  }
})json";

TEST(PodTemplateRoundTripTest, MatchesKubectl) {
  Result<doc::Node> out = TypedRoundTrip(Json(kTemplate), PodTemplateSpec());
  ASSERT_TRUE(out.ok()) << out.error().ToString();
  doc::Node expected = Json(kExpected);
  EXPECT_EQ(json::Write(*out, true), json::Write(expected, true));
  std::string got_order, want_order;
  KeyOrder(*out, &got_order);
  KeyOrder(expected, &want_order);
  EXPECT_EQ(got_order, want_order);
}

struct Case {
  const char* input;
  const char* expected;  // compact JSON, or "error: MESSAGE"
};

// Small templates; kubectl's outputs, adjusted as described at the top.
const Case kCases[] = {
    {R"({"spec":{"containers":[{"name":"node","image":"old","livenessProbe":{"httpGet":{"port":null}}}]}})",
     R"({"metadata":{},"spec":{"containers":[{"name":"node","image":"old","resources":{},"livenessProbe":{"httpGet":{"port":0}}}]}})"},
    {R"({"spec":{"nodeSelector":{"a":null},"containers":[{"name":"node","image":"old"}]}})",
     R"({"metadata":{},"spec":{"containers":[{"name":"node","image":"old","resources":{}}],"nodeSelector":{"a":""}}})"},
    {R"({"spec":{"containers":[{"name":"node","image":"old","resources":{"limits":{"cpu":null}}}]}})",
     R"({"metadata":{},"spec":{"containers":[{"name":"node","image":"old","resources":{"limits":{"cpu":"0"}}}]}})"},
    {R"({"spec":{"containers":[{"name":"node","image":"old","env":[{"name":"A","valueFrom":{"resourceFieldRef":{"resource":"limits.cpu","divisor":"1m"}}}]}]}})",
     R"({"metadata":{},"spec":{"containers":[{"name":"node","image":"old","env":[{"name":"A","valueFrom":{"resourceFieldRef":{"resource":"limits.cpu","divisor":"1m"}}}],"resources":{}}]}})"},
    {R"({"spec":{"affinity":{"nodeAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":{"nodeSelectorTerms":[]}}},"containers":[{"name":"node","image":"old","command":[]}]}})",
     R"({"metadata":{},"spec":{"containers":[{"name":"node","image":"old","resources":{}}],"affinity":{"nodeAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":{"nodeSelectorTerms":[]}}}}})"},
    {R"({"spec":{"containers":[{"name":"node","image":"old","ports":[{"containerPort":"8080"}]}]}})",
     "error: json: cannot unmarshal string into Go struct field ContainerPort.spec.containers.ports.containerPort of type int32"},
    {R"({"spec":{"containers":[{"name":"node","image":"old","ports":[{"containerPort":3000000000}]}]}})",
     "error: json: cannot unmarshal number 3000000000 into Go struct field ContainerPort.spec.containers.ports.containerPort of type int32"},
    {R"({"spec":{"containers":[{"name":"node","image":"old","ports":[{"containerPort":1.5}]}]}})",
     "error: json: cannot unmarshal number 1.5 into Go struct field ContainerPort.spec.containers.ports.containerPort of type int32"},
    {R"({"spec":{"activeDeadlineSeconds":"x","containers":[{"name":"node","image":"old","resources":{"limits":{"cpu":"bad"}}}]}})",
     "error: quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"},
    {R"({"spec":{"restartPolicy":5,"containers":[{"name":"node","image":"old","ports":[{"containerPort":"x"}]}]}})",
     "error: json: cannot unmarshal string into Go struct field ContainerPort.spec.containers.ports.containerPort of type int32"},
    {R"({"spec":{"containers":[{"name":"node","image":"old","livenessProbe":{"httpGet":{"port":1.5}}}]}})",
     "error: json: cannot unmarshal number 1.5 into Go struct field HTTPGetAction.spec.containers.livenessProbe.httpGet.port of type int32"},
    {R"({"spec":{"containers":[{"name":"node","image":"old","livenessProbe":{"httpGet":{"port":true}}}]}})",
     "error: json: cannot unmarshal bool into Go struct field HTTPGetAction.spec.containers.livenessProbe.httpGet.port of type int32"},
    {R"({"spec":{"containers":[{"name":"node","image":"old","livenessProbe":{"httpGet":{"port":{}}}}]}})",
     "error: json: cannot unmarshal object into Go struct field HTTPGetAction.spec.containers.livenessProbe.httpGet.port of type int32"},
    {R"({"metadata":{"creationTimestamp":"yesterday"},"spec":{"containers":[{"name":"node","image":"old"}]}})",
     "error: parsing time \"yesterday\" as \"2006-01-02T15:04:05Z07:00\": cannot parse \"yesterday\" as \"2006\""},
    {R"({"metadata":{"creationTimestamp":5},"spec":{"containers":[{"name":"node","image":"old"}]}})",
     "error: json: cannot unmarshal number into Go struct field ObjectMeta.metadata.creationTimestamp of type string"},
    {R"({"spec":{"serviceAccountName":{},"containers":[{"name":"node","image":"old"}]}})",
     "error: json: cannot unmarshal object into Go struct field PodSpec.spec.serviceAccountName of type string"},
    {R"({"spec":{"containers":[{"name":"node","image":"old","resources":null,"command":"sh"}]}})",
     "error: json: cannot unmarshal string into Go struct field Container.spec.containers.command of type []string"},
    {R"({"spec":{"containers":{"name":"node"}}})",
     "error: json: cannot unmarshal object into Go struct field PodSpec.spec.containers of type []v1.Container"},
    {R"({"spec":{"nodeSelector":{"a":1},"containers":[{"name":"node","image":"old"}]}})",
     "error: json: cannot unmarshal number into Go struct field PodSpec.spec.nodeSelector of type string"},
    {R"({"spec":{"containers":[{"name":"node","image":"old","securityContext":{"privileged":"yes"}}]}})",
     "error: json: cannot unmarshal string into Go struct field SecurityContext.spec.containers.securityContext.privileged of type bool"},
    {R"({"spec":{"hostNetwork":1,"containers":[{"name":"node","image":"old"}]}})",
     "error: json: cannot unmarshal number into Go struct field PodSpec.spec.hostNetwork of type bool"},
    {R"({"spec":{"volumes":[{"name":"v","secret":"s"}],"containers":[{"name":"node","image":"old"}]}})",
     "error: json: cannot unmarshal string into Go struct field Volume.spec.volumes.secret of type v1.SecretVolumeSource"},
    {R"({"spec":{"containers":[{"name":"node","image":"old","ports":[{"containerPort":80}],"env":[{"name":"X","value":5}]}]}})",
     "error: json: cannot unmarshal number into Go struct field EnvVar.spec.containers.env.value of type string"},
    {R"({"spec":{"tolerations":[{"key":"k","tolerationSeconds":1e+21}],"containers":[{"name":"node","image":"old"}]}})",
     "error: json: cannot unmarshal number 1e+21 into Go struct field Toleration.spec.tolerations.tolerationSeconds of type int64"},
};

TEST(PodTemplateRoundTripTest, SmallCasesMatchKubectl) {
  for (const Case& c : kCases) {
    SCOPED_TRACE(c.input);
    Result<doc::Node> out = TypedRoundTrip(Json(c.input), PodTemplateSpec());
    std::string got = out.ok() ? json::Write(*out, false) : "error: " + out.error().message;
    std::string want = std::string_view(c.expected).starts_with("error: ")
                           ? c.expected
                           : json::Write(Json(c.expected), false);
    EXPECT_EQ(got, want);
  }
}

// A promoted field (hostPath comes from the embedded VolumeSource). kubectl's
// decoder (a pre-1.24 copy of encoding/json) prints
//   ...HostPathVolumeSource.spec.template.spec.volumes.hostPath.path...
// Go >= 1.24 also puts the embedded field's Go name in the path
// (".volumes.VolumeSource.hostPath.path"); the schema does not carry that
// name yet, so only the parts both agree on are checked here.
TEST(PodTemplateRoundTripTest, PromotedFieldPath) {
  Result<doc::Node> out = TypedRoundTrip(
      Json(R"({"spec":{"volumes":[{"name":"v","hostPath":{"path":3}}],"containers":[]}})"),
      PodTemplateSpec());
  ASSERT_FALSE(out.ok());
  EXPECT_TRUE(out.error().message.starts_with(
      "json: cannot unmarshal number into Go struct field HostPathVolumeSource.spec.volumes."))
      << out.error().message;
  EXPECT_TRUE(out.error().message.ends_with("hostPath.path of type string")) << out.error().message;
  EXPECT_EQ(out.error().field_path, "spec.volumes[0].hostPath.path");
}

// Unlike Kubernetes' own decoders, encoding/json matches keys without regard
// to case, which kubectl cannot show: a patch key "Image" sets `image`.
TEST(PodTemplateRoundTripTest, KeysMatchCaseInsensitively) {
  Result<doc::Node> out = TypedRoundTrip(
      Json(R"({"Spec":{"Containers":[{"NAME":"node","Image":"x","RESOURCES":{"Limits":{"CPU":"1000m"}}}]}})"),
      PodTemplateSpec());
  ASSERT_TRUE(out.ok()) << out.error().ToString();
  EXPECT_EQ(json::Write(*out, false),
            R"({"metadata":{},"spec":{"containers":[{"image":"x","name":"node","resources":{"limits":{"CPU":"1"}}}]}})");
}

TEST(PodTemplateRoundTripTest, RootMustBeAnObject) {
  Result<doc::Node> out = TypedRoundTrip(Json(R"("just a string")"), PodTemplateSpec());
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.error().message,
            "json: cannot unmarshal string into Go value of type v1.PodTemplateSpec");
}

}  // namespace
}  // namespace tjr::typed
