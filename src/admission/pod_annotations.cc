#include <string>

#include "admission/container_checks.h"
#include "admission/pod_parts.h"
#include "doc/path.h"

// The annotations a pod (or template) may carry only in a valid form
// (pkg/apis/core/validation/validation.go, v1.34.0:
// ValidatePodSpecificAnnotations' ValidateSeccompPodAnnotations and
// ValidateAppArmorPodAnnotations). The mirror-pod, tolerations and
// deletion-cost annotations are not checked here.
namespace tjr::admission::pod_parts {
namespace {

using containers::Invalid;
using validate::BadValue;

constexpr std::string_view kRule = "pod-annotations";
constexpr std::string_view kSeccompPod = "seccomp.security.alpha.kubernetes.io/pod";
constexpr std::string_view kSeccompContainerPrefix = "container.seccomp.security.alpha.kubernetes.io/";
constexpr std::string_view kAppArmorContainerPrefix = "container.apparmor.security.beta.kubernetes.io/";

std::string Text(const doc::Node& value) { return value.is_string() ? value.string_value() : value.source_text(); }

// ValidateSeccompProfile: runtime/default, docker/default, unconfined or
// localhost/<relative path without "..">.
void SeccompProfileName(const std::string& profile, const Path& path, const doc::Node* at, ObjectErrors* errors) {
  if (profile == "runtime/default" || profile == "docker/default" || profile == "unconfined") return;
  if (profile.starts_with("localhost/")) {
    LocalDescendingPath(kRule, profile.substr(10), path, at, errors);
    return;
  }
  errors->Add(kRule, Invalid(path, BadValue::String(profile), "must be a valid seccomp profile"), at);
}

// podSpecHasContainer (VisitContainersWithPath: init, regular, ephemeral).
bool HasContainer(const doc::Node& spec, std::string_view name) {
  for (std::string_view list : {"initContainers", "containers", "ephemeralContainers"}) {
    for (const doc::Node& ctr : doc::Items(doc::At(&spec, list))) {
      if (doc::StringAt(ctr, "name") == name) return true;
    }
  }
  return false;
}

}  // namespace

void ValidatePodSpecificAnnotations(const doc::Node* annotations, const doc::Node& spec, const Path& path,
                                    ObjectErrors* errors) {
  if (annotations == nullptr || !annotations->is_mapping()) return;
  // ValidateSeccompPodAnnotations: the pod's key first, then the
  // containers' (upstream ranges over the map; the document's order here).
  // Its paths are Child(key), printed with a dot.
  if (const doc::Node* pod = annotations->Find(kSeccompPod)) {
    SeccompProfileName(Text(*pod), path.Child(kSeccompPod), pod, errors);
  }
  for (const doc::Field& annotation : annotations->fields()) {
    if (annotation.key.starts_with(kSeccompContainerPrefix)) {
      SeccompProfileName(Text(annotation.value), path.Child(annotation.key), &annotation.value, errors);
    }
  }
  // ValidateAppArmorPodAnnotations: paths are Key(k), printed in brackets.
  for (const doc::Field& annotation : annotations->fields()) {
    if (!annotation.key.starts_with(kAppArmorContainerPrefix)) continue;
    const std::string container = annotation.key.substr(kAppArmorContainerPrefix.size());
    const Path key_path = path.Key(annotation.key);
    if (!HasContainer(spec, container)) {
      errors->Add(kRule, Invalid(key_path, BadValue::String(container), "container not found"), &annotation.value);
    }
    // ValidateAppArmorProfileFormat.
    const std::string profile = Text(annotation.value);
    if (!profile.empty() && profile != "runtime/default" && profile != "unconfined" && !profile.starts_with("localhost/")) {
      errors->Add(kRule,
                  Invalid(key_path, BadValue::String(profile),
                          "invalid AppArmor profile name: " + BadValue::String(profile).text),
                  &annotation.value);
    }
  }
}

}  // namespace tjr::admission::pod_parts
