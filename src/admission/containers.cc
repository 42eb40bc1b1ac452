#include "admission/containers.h"

#include <set>
#include <string>
#include <vector>

#include "admission/container_checks.h"
#include "admission/container_formats.h"
#include "doc/path.h"

// validateContainers, validateInitContainers and validateContainerCommon
// (pkg/apis/core/validation/validation.go), as ValidatePodSpec calls them for
// a pod spec after ValidateVolumes.
//
// The revision read is kubernetes/kubernetes 000f2605, which predates
// v1.34.0 (it has no PodCertificate projection, ContainerRestartRules or
// EnvFiles); the gates that change these checks at 1.34, 1.35 and 1.36 were
// checked against their PRs and are the row flags container_restart_rules
// and env_files (releases.h). RelaxedEnvironmentVariableValidation (GA 1.34)
// and PodLifecycleSleepActionAllowZero are on at every emulated release.
namespace tjr::admission {
namespace {

using containers::PodContext;
using validate::BadValue;

// validateResizePolicy: cpu and memory each once, NotRequired or
// RestartContainer, and only NotRequired under a pod restartPolicy Never.
// A ResourceName prints unquoted (it has String()); the restart policy is a
// plain string type and prints quoted.
void ValidateResizePolicy(const doc::Node* list, const Path& path, const PodContext& pod) {
  std::set<std::string> seen;
  const std::vector<doc::Node>& items = doc::Items(list);
  for (std::size_t i = 0; i < items.size(); ++i) {
    const doc::Node& policy = items[i];
    const std::string resource = containers::StringField(&policy, "resourceName");
    const std::string restart = containers::StringField(&policy, "restartPolicy");
    if (!seen.insert(resource).second) {
      pod.errors->Add("resize-policy", containers::Duplicate(path.Index(i), BadValue::Plain(resource)), &policy);
    }
    if (resource.empty()) {
      pod.errors->Add("resize-policy", containers::Required(path), &policy);
    } else if (resource != "cpu" && resource != "memory") {
      pod.errors->Add("resize-policy", containers::NotSupported(path, BadValue::Plain(resource), {"cpu", "memory"}),
                      &policy);
    }
    if (restart.empty()) {
      pod.errors->Add("resize-policy", containers::Required(path), &policy);
    } else if (restart != "NotRequired" && restart != "RestartContainer") {
      pod.errors->Add("resize-policy",
                      containers::NotSupported(path, BadValue::String(restart), {"NotRequired", "RestartContainer"}),
                      &policy);
    }
    if (pod.restart_policy == "Never" && restart != "NotRequired") {
      pod.errors->Add("resize-policy",
                      containers::Invalid(path, BadValue::String(restart),
                                          "must be 'NotRequired' when `restartPolicy` is 'Never'"),
                      &policy);
    }
  }
}

// validateContainerCommon: what regular, init and ephemeral containers share.
void ValidateContainerCommon(const doc::Node& ctr, const Path& path, const PodContext& pod) {
  ObjectErrors* errors = pod.errors;
  const std::string name = containers::StringField(&ctr, "name");
  const Path name_path = path.Child("name");
  if (name.empty()) {
    errors->Add("container-name", containers::Required(name_path), {ctr.Find("name"), &ctr});
  } else {
    for (std::string& message : formats::Dns1123Label(name)) {
      errors->Add("container-name", containers::Invalid(name_path, BadValue::String(name), std::move(message)),
                  {ctr.Find("name"), &ctr});
    }
  }
  // Only emptiness: upstream keeps " " valid in templates (the whitespace
  // check is validateContainerOnlyForPod's, for Pods).
  if (containers::StringField(&ctr, "image").empty()) {
    errors->Add("image", containers::Required(path.Child("image")), {ctr.Find("image"), &ctr});
  }
  const std::string policy = containers::StringField(&ctr, "terminationMessagePolicy");
  const Path policy_path = path.Child("terminationMessagePolicy");
  if (policy.empty()) {
    errors->Add("termination-message", containers::Required(policy_path), {ctr.Find("terminationMessagePolicy"), &ctr});
  } else if (policy != "File" && policy != "FallbackToLogsOnError") {
    errors->Add("termination-message",
                containers::NotSupported(policy_path, BadValue::String(policy), {"File", "FallbackToLogsOnError"}),
                {ctr.Find("terminationMessagePolicy"), &ctr});
  }
  containers::ValidateContainerPorts(doc::At(&ctr, "ports"), path.Child("ports"), errors);
  containers::ValidateEnv(doc::At(&ctr, "env"), path.Child("env"), pod);
  containers::ValidateEnvFrom(doc::At(&ctr, "envFrom"), path.Child("envFrom"), pod);
  containers::ValidateVolumeMounts(ctr, path.Child("volumeMounts"), pod);
  containers::ValidateVolumeDevices(ctr, path.Child("volumeDevices"), pod);
  // validatePullPolicy.
  const std::string pull = containers::StringField(&ctr, "imagePullPolicy");
  const Path pull_path = path.Child("imagePullPolicy");
  if (pull.empty()) {
    errors->Add("image-pull-policy", containers::Required(pull_path), {ctr.Find("imagePullPolicy"), &ctr});
  } else if (pull != "Always" && pull != "IfNotPresent" && pull != "Never") {
    errors->Add("image-pull-policy",
                containers::NotSupported(pull_path, BadValue::String(pull), {"Always", "IfNotPresent", "Never"}),
                {ctr.Find("imagePullPolicy"), &ctr});
  }
  containers::ValidateContainerResources(doc::At(&ctr, "resources"), path.Child("resources"), pod);
  ValidateResizePolicy(doc::At(&ctr, "resizePolicy"), path.Child("resizePolicy"), pod);
  containers::ValidateSecurityContext(doc::At(&ctr, "securityContext"), path.Child("securityContext"), pod);
}

// The probes and lifecycle of a container that may have them (a regular
// container or a sidecar), in upstream's order.
void ValidateProbesAndLifecycle(const doc::Node& ctr, const Path& path, const PodContext& pod) {
  if (const doc::Node* lifecycle = doc::At(&ctr, "lifecycle")) {
    containers::ValidateLifecycle(*lifecycle, path.Child("lifecycle"), pod);
  }
  containers::ValidateLivenessProbe(doc::At(&ctr, "livenessProbe"), path.Child("livenessProbe"), pod);
  containers::ValidateReadinessProbe(doc::At(&ctr, "readinessProbe"), path.Child("readinessProbe"), pod);
  containers::ValidateStartupProbe(doc::At(&ctr, "startupProbe"), path.Child("startupProbe"), pod);
}

void ValidateContainers(const doc::Node* list, const Path& path, const PodContext& pod) {
  const std::vector<doc::Node>& items = doc::Items(list);
  if (items.empty()) {
    pod.errors->Add("containers", containers::Required(path), list);
    return;
  }
  std::set<std::string> names;
  std::vector<const doc::Node*> all;
  for (std::size_t i = 0; i < items.size(); ++i) {
    const doc::Node& ctr = items[i];
    all.push_back(&ctr);
    const Path item_path = path.Index(i);
    ValidateContainerCommon(ctr, item_path, pod);
    const std::string name = containers::StringField(&ctr, "name");
    if (!names.insert(name).second) {
      pod.errors->Add("container-name", containers::Duplicate(item_path.Child("name"), BadValue::String(name)),
                      {ctr.Find("name"), &ctr});
    }
    ValidateProbesAndLifecycle(ctr, item_path, pod);
    // ContainerRestartRules (beta, on by default from 1.35) lets regular
    // containers set restartPolicy; its own checks are not emulated.
    if (containers::Has(&ctr, "restartPolicy") && !pod.rules.container_restart_rules) {
      pod.errors->Add("sidecars", containers::Forbidden(item_path.Child("restartPolicy"), "may not be set for non-init containers"),
                      {ctr.Find("restartPolicy"), &ctr});
    }
  }
  containers::CheckHostPortConflicts(all, path, pod.errors);
}

void ValidateInitContainers(const doc::Node* list, const doc::Node* regular, const Path& path, const PodContext& pod) {
  std::set<std::string> names;
  for (const doc::Node& ctr : doc::Items(regular)) names.insert(containers::StringField(&ctr, "name"));
  const std::vector<doc::Node>& items = doc::Items(list);
  for (std::size_t i = 0; i < items.size(); ++i) {
    const doc::Node& ctr = items[i];
    const Path item_path = path.Index(i);
    ValidateContainerCommon(ctr, item_path, pod);
    bool restart_always = false;
    if (containers::Has(&ctr, "restartPolicy")) {
      // validateInitContainerRestartPolicy.
      const std::string policy = containers::StringField(&ctr, "restartPolicy");
      restart_always = policy == "Always";
      // With ContainerRestartRules (1.35+) regular init containers may set
      // a restart policy too; its checks there are not emulated.
      if (!restart_always && !pod.rules.container_restart_rules) {
        pod.errors->Add("sidecars",
                        containers::NotSupported(item_path.Child("restartPolicy"), BadValue::String(policy), {"Always"}),
                        {ctr.Find("restartPolicy"), &ctr});
      }
    }
    const std::string name = containers::StringField(&ctr, "name");
    if (names.contains(name)) {
      pod.errors->Add("container-name", containers::Duplicate(item_path.Child("name"), BadValue::String(name)),
                      {ctr.Find("name"), &ctr});
    } else if (!name.empty()) {
      names.insert(name);
    }
    // Init containers run one by one: each is checked alone, as index 0.
    containers::CheckHostPortConflicts({&ctr}, path, pod.errors);
    if (restart_always) {
      ValidateProbesAndLifecycle(ctr, item_path, pod);
    } else {
      for (std::string_view field : {"lifecycle", "livenessProbe", "readinessProbe", "startupProbe"}) {
        if (!containers::Has(&ctr, field)) continue;
        pod.errors->Add("sidecars",
                        containers::Forbidden(item_path.Child(field),
                                              "may not be set for init containers without restartPolicy=Always"),
                        {ctr.Find(field), &ctr});
      }
    }
    // AllowSidecarResizePolicy follows InPlacePodVerticalScaling, on by
    // default at every emulated release: resizePolicy is allowed.
  }
}

// validateContainersOnlyForPod: only a Pod (not a template) must have an
// image without leading or trailing whitespace. Upstream appends these after
// the whole pod spec's errors (validatePodMetadataAndSpec); we append them
// after the container lists'. Only ASCII whitespace is trimmed here (Go's
// TrimSpace also trims U+0085 and U+00A0).
void ValidateImagesOnlyForPod(const doc::Node* list, const Path& path, ObjectErrors* errors) {
  const std::vector<doc::Node>& items = doc::Items(list);
  for (std::size_t i = 0; i < items.size(); ++i) {
    const std::string image = containers::StringField(&items[i], "image");
    const std::size_t first = image.find_first_not_of(" \t\n\v\f\r");
    const std::size_t last = image.find_last_not_of(" \t\n\v\f\r");
    const bool trimmed = image.empty() || (first == 0 && last == image.size() - 1);
    if (trimmed) continue;
    errors->Add("image",
                containers::Invalid(path.Index(i).Child("image"), BadValue::String(image),
                                    "must not have leading or trailing whitespace"),
                {items[i].Find("image"), &items[i]});
  }
}

}  // namespace

void ValidateContainerLists(const doc::Node& spec, const PodVolumes& volumes, const Path& spec_path, PodOwner owner,
                            const KubernetesRules& rules, ObjectErrors* errors) {
  const doc::Node* host_users = doc::AtPath(&spec, {"securityContext", "hostUsers"});
  const PodContext pod{volumes, rules, doc::At(&spec, "terminationGracePeriodSeconds"),
                       host_users == nullptr || !host_users->is_bool() || host_users->bool_value(),
                       doc::At(&spec, "resourceClaims"), doc::StringAt(spec, "restartPolicy"), errors};
  ValidateContainers(spec.Find("containers"), spec_path.Child("containers"), pod);
  ValidateInitContainers(doc::At(&spec, "initContainers"), doc::At(&spec, "containers"), spec_path.Child("initContainers"),
                         pod);
  if (owner == PodOwner::kPod) {
    ValidateImagesOnlyForPod(doc::At(&spec, "containers"), spec_path.Child("containers"), errors);
    ValidateImagesOnlyForPod(doc::At(&spec, "initContainers"), spec_path.Child("initContainers"), errors);
  }
}

}  // namespace tjr::admission
