#include <set>
#include <string>

#include "admission/container_checks.h"
#include "admission/container_formats.h"
#include "admission/node_edit.h"
#include "admission/pod_parts.h"
#include "doc/path.h"

// The pod-level security context (validatePodSpecSecurityContext,
// validateSysctls, ValidateHostSysctl, validateHostUsers in
// pkg/apis/core/validation/validation.go, v1.34.0). The v1 PodSpec holds
// hostNetwork, hostPID, hostIPC and shareProcessNamespace beside the
// security context; upstream validates the internal PodSpec, which keeps
// them inside it, hence paths like spec.securityContext.shareProcessNamespace.
namespace tjr::admission::pod_parts {
namespace {

using containers::Invalid;
using containers::NotSupported;
using containers::Required;
using validate::BadValue;

constexpr std::string_view kRule = "pod-security-context";


void UnixId(const doc::Node* value, const Path& path, ObjectErrors* errors) {
  if (value == nullptr || !value->is_int()) return;
  for (std::string& message : formats::UnixId(value->int_value())) {
    errors->Add(kRule, Invalid(path, BadValue::Int(value->int_value()), std::move(message)), value);
  }
}

bool IsSegmentChar(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }

// IsValidSysctlName: at most 253 and
// ([a-z0-9]([-_a-z0-9]*[a-z0-9])?[\./])*[a-z0-9]([-_a-z0-9]*[a-z0-9])?
bool IsValidSysctlName(std::string_view name) {
  if (name.empty() || name.size() > 253) return false;
  std::size_t start = 0;
  while (true) {
    std::size_t end = name.find_first_of("./", start);
    const std::string_view segment = name.substr(start, end == std::string_view::npos ? end : end - start);
    if (segment.empty() || !IsSegmentChar(segment.front()) || !IsSegmentChar(segment.back())) return false;
    for (char c : segment) {
      if (!IsSegmentChar(c) && c != '-' && c != '_') return false;
    }
    if (end == std::string_view::npos) return true;
    start = end + 1;
  }
}

// utilsysctl.GetNamespace (component-helpers/node/util/sysctl): which
// namespace a namespaced sysctl belongs to.
enum class SysctlNamespace { kNone, kIpc, kNet };
SysctlNamespace NamespaceOf(std::string name) {
  for (char& c : name) {
    if (c == '/') c = '.';
  }
  static const std::set<std::string> kIpcNames = {"kernel.sem",    "kernel.shmall", "kernel.shmmax",
                                                  "kernel.shmmni", "kernel.msgmax", "kernel.msgmnb",
                                                  "kernel.msgmni", "kernel.shm_rmid_forced"};
  if (kIpcNames.contains(name) || name.starts_with("fs.mqueue.")) return SysctlNamespace::kIpc;
  if (name.starts_with("net.")) return SysctlNamespace::kNet;
  return SysctlNamespace::kNone;
}

void Sysctls(const doc::Node& spec, const doc::Node& context, const Path& path, ObjectErrors* errors) {
  const bool host_network = containers::BoolField(&spec, "hostNetwork");
  const bool host_ipc = containers::BoolField(&spec, "hostIPC");
  std::set<std::string> names;
  const std::vector<doc::Node>& sysctls = doc::Items(doc::At(&context, "sysctls"));
  for (std::size_t i = 0; i < sysctls.size(); ++i) {
    const std::string name = doc::StringAt(sysctls[i], "name");
    const Path name_path = path.Index(i).Child("name");
    const doc::Node* at = ValueOrParent(sysctls[i], "name");
    if (name.empty()) {
      errors->Add(kRule, Required(name_path), at);
    } else if (!IsValidSysctlName(name)) {
      errors->Add(kRule,
                  Invalid(name_path, BadValue::String(name),
                          "must have at most 253 characters and match regex "
                          "^([a-z0-9]([-_a-z0-9]*[a-z0-9])?[\\./])*[a-z0-9]([-_a-z0-9]*[a-z0-9])?$"),
                  at);
    } else if (names.contains(name)) {
      errors->Add(kRule, containers::Duplicate(name_path, BadValue::String(name)), at);
    }
    // ValidateHostSysctl (AllowNamespacedSysctlsForHostNetAndHostIPC is
    // only kept for existing pods).
    const SysctlNamespace space = NamespaceOf(name);
    if (host_network && space == SysctlNamespace::kNet) {
      errors->Add(kRule, Invalid(name_path, BadValue::String(name), "may not be specified when 'hostNetwork' is true"), at);
    } else if (host_ipc && space == SysctlNamespace::kIpc) {
      errors->Add(kRule, Invalid(name_path, BadValue::String(name), "may not be specified when 'hostIPC' is true"), at);
    }
    names.insert(name);
  }
}

// validateSeccompProfileField.
void SeccompProfile(const doc::Node* profile, const Path& path, ObjectErrors* errors) {
  if (profile == nullptr) return;
  const std::string type = doc::StringAt(profile, "type");
  const Path type_path = path.Child("type");
  if (type.empty()) {
    errors->Add(kRule, Required(type_path, "type is required when seccompProfile is set"), ValueOrParent(*profile, "type"));
  } else if (type != "Localhost" && type != "RuntimeDefault" && type != "Unconfined") {
    errors->Add(kRule, NotSupported(type_path, BadValue::String(type), {"Localhost", "RuntimeDefault", "Unconfined"}),
                ValueOrParent(*profile, "type"));
  }
  if (type == "Localhost") {
    const doc::Node* local = doc::At(profile, "localhostProfile");
    if (local == nullptr) {
      errors->Add(kRule, Required(path.Child("localhostProfile"), "must be set when seccomp type is Localhost"), profile);
    } else {
      LocalDescendingPath(kRule, doc::StringAt(profile, "localhostProfile"), path.Child("localhostProfile"), local, errors);
    }
  }
  // A localhostProfile with another type is refused with the profile
  // struct as the value (Go's %v of a struct), which is not emulated.
}

// ValidateAppArmorProfileField.
void AppArmorProfile(const doc::Node* profile, const Path& path, ObjectErrors* errors) {
  if (profile == nullptr) return;
  const std::string type = doc::StringAt(profile, "type");
  const doc::Node* local = doc::At(profile, "localhostProfile");
  if (type == "Localhost") {
    const Path local_path = path.Child("localhostProfile");
    if (local == nullptr) {
      errors->Add(kRule, Required(local_path, "must be set when AppArmor type is Localhost"), profile);
      return;
    }
    const std::string value = doc::StringAt(profile, "localhostProfile");
    const std::size_t first = value.find_first_not_of(" \t\n\r\v\f");
    const std::size_t last = value.find_last_not_of(" \t\n\r\v\f");
    const std::string trimmed = first == std::string::npos ? "" : value.substr(first, last - first + 1);
    if (trimmed != value) {
      errors->Add(kRule, Invalid(local_path, BadValue::String(value), "must not be padded with whitespace"), local);
    } else if (trimmed.empty()) {
      errors->Add(kRule, Required(local_path, "must be set when AppArmor type is Localhost"), local);
    }
    if (value.size() > 4095) {
      errors->Add(kRule,
                  validate::FieldError{validate::ErrorType::kTooLong, local_path.String(), BadValue::Omit(),
                                       "may not be more than 4095 bytes"},
                  local);
    }
  } else if (type == "RuntimeDefault" || type == "Unconfined") {
    if (local != nullptr) {
      errors->Add(kRule,
                  Invalid(path.Child("localhostProfile"), BadValue::String(doc::StringAt(profile, "localhostProfile")),
                          "can only be set when AppArmor type is Localhost"),
                  local);
    }
  } else if (type.empty()) {
    errors->Add(kRule, Required(path.Child("type"), "type is required when appArmorProfile is set"), profile);
  } else {
    errors->Add(kRule,
                NotSupported(path.Child("type"), BadValue::String(type), {"Localhost", "RuntimeDefault", "Unconfined"}),
                ValueOrParent(*profile, "type"));
  }
}

}  // namespace

void ValidatePodSecurityContext(const doc::Node& spec, const Path& spec_path, ObjectErrors* errors) {
  const doc::Node* context = doc::At(&spec, "securityContext");
  if (context == nullptr) return;
  const Path path = spec_path.Child("securityContext");
  UnixId(doc::At(context, "fsGroup"), path.Child("fsGroup"), errors);
  UnixId(doc::At(context, "runAsUser"), path.Child("runAsUser"), errors);
  UnixId(doc::At(context, "runAsGroup"), path.Child("runAsGroup"), errors);
  const std::vector<doc::Node>& groups = doc::Items(doc::At(context, "supplementalGroups"));
  for (std::size_t g = 0; g < groups.size(); ++g) UnixId(&groups[g], path.Child("supplementalGroups").Index(g), errors);
  if (containers::BoolField(&spec, "shareProcessNamespace") && containers::BoolField(&spec, "hostPID")) {
    errors->Add(kRule,
                Invalid(path.Child("shareProcessNamespace"), BadValue::Bool(true),
                        "ShareProcessNamespace and HostPID cannot both be enabled"),
                spec.Find("shareProcessNamespace"));
  }
  if (!doc::Items(doc::At(context, "sysctls")).empty()) Sysctls(spec, *context, path.Child("sysctls"), errors);
  if (const doc::Node* policy = doc::At(context, "fsGroupChangePolicy")) {
    const std::string value = doc::StringAt(context, "fsGroupChangePolicy");
    if (value != "OnRootMismatch" && value != "Always") {
      errors->Add(kRule,
                  NotSupported(path.Child("fsGroupChangePolicy"), BadValue::String(value), {"Always", "OnRootMismatch"}),
                  policy);
    }
  }
  SeccompProfile(doc::At(context, "seccompProfile"), path.Child("seccompProfile"), errors);
  AppArmorProfile(doc::At(context, "appArmorProfile"), path.Child("appArmorProfile"), errors);
  if (const doc::Node* policy = doc::At(context, "supplementalGroupsPolicy")) {
    const std::string value = doc::StringAt(context, "supplementalGroupsPolicy");
    if (value != "Merge" && value != "Strict") {
      errors->Add(kRule,
                  NotSupported(path.Child("supplementalGroupsPolicy"), BadValue::String(value), {"Merge", "Strict"}),
                  policy);
    }
  }
}

void ValidateHostUsers(const doc::Node& spec, const Path& spec_path, ObjectErrors* errors) {
  // v1 holds hostUsers in the spec (the internal type in its security context).
  const doc::Node* host_users = doc::At(&spec, "hostUsers");
  if (host_users == nullptr || !host_users->is_bool() || host_users->bool_value()) return;
  constexpr std::string_view kMessage = "when `pod.Spec.HostUsers` is false";
  // Upstream's own spellings: "hostNetwork", then "HostPID" and "HostIPC".
  if (containers::BoolField(&spec, "hostNetwork")) {
    errors->Add("host-users", containers::Forbidden(spec_path.Child("hostNetwork"), std::string(kMessage)),
                spec.Find("hostNetwork"));
  }
  if (containers::BoolField(&spec, "hostPID")) {
    errors->Add("host-users", containers::Forbidden(spec_path.Child("HostPID"), std::string(kMessage)), spec.Find("hostPID"));
  }
  if (containers::BoolField(&spec, "hostIPC")) {
    errors->Add("host-users", containers::Forbidden(spec_path.Child("HostIPC"), std::string(kMessage)), spec.Find("hostIPC"));
  }
}

}  // namespace tjr::admission::pod_parts
