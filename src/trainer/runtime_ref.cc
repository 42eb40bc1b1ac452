#include "trainer/runtime_ref.h"

#include <utility>

#include "doc/path.h"
#include "json/json.h"

namespace tjr::trainer {
namespace {

constexpr std::string_view kTrainingRuntime = "TrainingRuntime";
constexpr std::string_view kClusterTrainingRuntime = "ClusterTrainingRuntime";
constexpr std::string_view kSupportLabel = "trainer.kubeflow.org/support";
constexpr std::string_view kDeprecationPolicyUrl =
    "https://www.kubeflow.org/docs/components/trainer/operator-guides/runtime/"
    "#runtime-deprecation-policy";

// Where findings about the reference point: the `runtimeRef` key when the
// reader kept it, else the value, else the TrainJob.
Location RefLocation(const doc::Node& train_job) {
  const doc::Node* spec = train_job.Find("spec");
  if (spec != nullptr) {
    for (const doc::Field& field : spec->fields()) {
      if (field.key != "runtimeRef") continue;
      if (field.key_location.known()) return field.key_location;
      if (field.value.location().known()) return field.value.location();
    }
  }
  return train_job.location();
}

std::string NamespaceOf(const doc::Node& object, std::string_view default_namespace) {
  std::string ns = doc::StringAtPath(object, {"metadata", "namespace"});
  return ns.empty() ? std::string(default_namespace) : ns;
}

// apimachinery's NewNotFound(...).Error(): `<resource>.<group> "<name>" not found`.
std::string NotFoundText(RuntimeKind kind, ClientForm client, std::string_view name) {
  std::string resource;
  if (client == ClientForm::kCachedClient) {
    resource = kind == RuntimeKind::kTrainingRuntime ? kTrainingRuntime : kClusterTrainingRuntime;
  } else {
    resource = kind == RuntimeKind::kTrainingRuntime ? "trainingruntimes" : "clustertrainingruntimes";
  }
  return resource + "." + std::string(kTrainerGroup) + " \"" + std::string(name) + "\" not found";
}

Diagnostic NotFound(const doc::Node& train_job, const RuntimeRef& ref, RuntimeKind kind,
                    Reporter reporter, ClientForm client) {
  std::string err = NotFoundText(kind, client, ref.name);
  bool cluster = kind == RuntimeKind::kClusterTrainingRuntime;
  if (reporter == Reporter::kController) {
    std::string message = cluster ? "not found ClusterTrainingRuntime specified in TrainJob: " + err
                                  : "TrainingRuntime specified in TrainJob is not found: " + err;
    Diagnostic error = MakeError(RefLocation(train_job), "spec.runtimeRef", std::move(message));
    error.rule = "upstream/error";
    return error;
  }
  // field.Invalid(path, runtimeRef, detail).Error(): the value is a struct,
  // so it prints as JSON.
  std::string message = "Invalid value: " + ref.Json() + ": " + err +
                        (cluster ? ": specified clusterTrainingRuntime must be created before the "
                                   "TrainJob is created"
                                 : ": specified trainingRuntime must be created before the TrainJob "
                                   "is created");
  Diagnostic error = MakeError(RefLocation(train_job), cluster ? "spec.RuntimeRef" : "spec.runtimeRef",
                               std::move(message));
  error.rule = "upstream/invalid-value";
  return error;
}

bool IsRuntime(const doc::Node& object, std::string_view kind) {
  return doc::StringAtPath(object, {"apiVersion"}) == kTrainerApiVersion &&
         doc::StringAtPath(object, {"kind"}) == kind;
}

}  // namespace

std::string RuntimeRef::RegistryKey() const {
  std::string group = api_group.value_or("");
  std::string k = kind.value_or("");
  if (group.empty()) return k;
  return k + "." + group;
}

std::string RuntimeRef::Json() const {
  std::string out = "{";
  auto member = [&out](std::string_view key, std::string_view value) {
    if (out.size() > 1) out += ',';
    json::AppendQuoted(key, &out);
    out += ':';
    json::AppendQuoted(value, &out);
  };
  if (!name.empty()) member("name", name);  // `json:"name,omitempty"`
  if (api_group) member("apiGroup", *api_group);
  if (kind) member("kind", *kind);
  out += '}';
  return out;
}

Result<RuntimeRef> ReadRuntimeRef(const doc::Node& train_job) {
  const doc::Node* ref = doc::FindPath(train_job, {"spec", "runtimeRef"});
  if (ref == nullptr || !ref->is_mapping()) {
    std::string message = ref == nullptr ? "Required value" : "must be an object";
    return AsInputError(MakeError(RefLocation(train_job), "spec.runtimeRef", std::move(message)));
  }
  RuntimeRef out;
  struct Member {
    std::string_view key;
    std::optional<std::string>* target;
  };
  std::optional<std::string> name;
  for (const Member& m : {Member{"name", &name}, Member{"apiGroup", &out.api_group},
                          Member{"kind", &out.kind}}) {
    const doc::Node* value = ref->Find(m.key);
    if (value == nullptr) continue;
    if (!value->is_string()) {
      Location at = value->location().known() ? value->location() : RefLocation(train_job);
      return AsInputError(MakeError(at, "spec.runtimeRef." + std::string(m.key),
                                    "must be a string"));
    }
    *m.target = value->string_value();
  }
  out.name = name.value_or("");
  return out;
}

Result<ResolvedRuntime> ResolveRuntime(const doc::Node& train_job,
                                       std::span<const doc::Node> objects, Reporter reporter,
                                       ClientForm client, std::string_view default_namespace) {
  Result<RuntimeRef> ref = ReadRuntimeRef(train_job);
  if (!ref) return ref.take_error();
  ResolvedRuntime out;
  out.ref = std::move(ref.value());
  std::string key = out.ref.RegistryKey();
  std::string group_suffix = "." + std::string(kTrainerGroup);
  if (key == std::string(kTrainingRuntime) + group_suffix) {
    out.kind = RuntimeKind::kTrainingRuntime;
  } else if (key == std::string(kClusterTrainingRuntime) + group_suffix) {
    out.kind = RuntimeKind::kClusterTrainingRuntime;
  } else {
    // Upstream returns a plain fmt.Errorf here, without a field path.
    return MakeError(RefLocation(train_job), "", "unsupported runtime: " + key);
  }
  bool cluster = out.kind == RuntimeKind::kClusterTrainingRuntime;
  std::string ns = NamespaceOf(train_job, default_namespace);
  const doc::Node* found = nullptr;
  for (const doc::Node& object : objects) {
    if (!IsRuntime(object, cluster ? kClusterTrainingRuntime : kTrainingRuntime)) continue;
    if (doc::StringAtPath(object, {"metadata", "name"}) != out.ref.name) continue;
    // A cluster-scoped object has no namespace: the server ignores one.
    if (!cluster && NamespaceOf(object, default_namespace) != ns) continue;
    if (found != nullptr) {
      std::string what = cluster ? "ClusterTrainingRuntime \"" + out.ref.name + "\""
                                 : "TrainingRuntime \"" + ns + "/" + out.ref.name + "\"";
      return AsInputError(MakeError(object.location(), "",
                                    what + " is given twice (first at " +
                                        found->location().ToString() + ")"));
    }
    found = &object;
  }
  if (found == nullptr) return NotFound(train_job, out.ref, out.kind, reporter, client);
  out.runtime = *found;
  if (cluster && doc::StringAtPath(*found, {"metadata", "labels", kSupportLabel}) == "deprecated") {
    Diagnostic warning = MakeError(
        RefLocation(train_job), "spec.runtimeRef",
        "Referenced ClusterTrainingRuntime \"" + doc::StringAtPath(*found, {"metadata", "name"}) +
            "\" is deprecated and will be removed in a future release of Kubeflow Trainer. See "
            "runtime deprecation policy: " +
            std::string(kDeprecationPolicyUrl));
    warning.severity = Severity::kWarning;
    warning.rule = "upstream/warning";  // the webhook's admission warning
    out.warnings.push_back(std::move(warning));
  }
  return out;
}

}  // namespace tjr::trainer
