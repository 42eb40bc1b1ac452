// ValidateSecurityContext of a container (pkg/apis/core/validation/
// validation.go; see containers.cc for the revision read), with ValidateProcMountType,
// validateSeccompProfileField and ValidateAppArmorProfileField.
//
// Not emulated: `privileged` (refused only when the API server runs without
// --allow-privileged, a cluster setting); the allowPrivilegeEscalation
// combinations and a seccomp localhostProfile without the Localhost type,
// whose bad value upstream prints with %#v (a Go struct with pointer
// addresses); windowsOptions.
#include <string>

#include "admission/container_checks.h"
#include "admission/container_formats.h"
#include "doc/path.h"

namespace tjr::admission::containers {
namespace {

using validate::BadValue;

constexpr std::string_view kRule = "security-context";

void ValidateSeccomp(const doc::Node& profile, const Path& path, ObjectErrors* errors) {
  const std::string type = StringField(&profile, "type");
  const Path type_path = path.Child("type");
  if (type.empty()) {
    errors->Add(kRule, Required(type_path, "type is required when seccompProfile is set"), &profile);
  } else if (type != "Localhost" && type != "RuntimeDefault" && type != "Unconfined") {
    errors->Add(kRule, NotSupported(type_path, BadValue::String(type), {"Localhost", "RuntimeDefault", "Unconfined"}),
                {profile.Find("type"), &profile});
  }
  if (type != "Localhost") return;
  const doc::Node* localhost = doc::At(&profile, "localhostProfile");
  if (localhost == nullptr) {
    errors->Add(kRule, Required(path.Child("localhostProfile"), "must be set when seccomp type is Localhost"), &profile);
  } else {
    ValidateLocalDescendingPath(StringField(&profile, "localhostProfile"), path.Child("localhostProfile"), kRule,
                                localhost, errors);
  }
}

void ValidateAppArmor(const doc::Node& profile, const Path& path, ObjectErrors* errors) {
  const std::string type = StringField(&profile, "type");
  const doc::Node* localhost = doc::At(&profile, "localhostProfile");
  const Path localhost_path = path.Child("localhostProfile");
  if (type == "Localhost") {
    const std::string value = StringField(&profile, "localhostProfile");
    if (localhost == nullptr) {
      errors->Add(kRule, Required(localhost_path, "must be set when AppArmor type is Localhost"), &profile);
      return;
    }
    const std::size_t first = value.find_first_not_of(" \t\n\v\f\r");
    const std::size_t last = value.find_last_not_of(" \t\n\v\f\r");
    if (first == std::string::npos && !value.empty()) {
      errors->Add(kRule, Invalid(localhost_path, BadValue::String(value), "must not be padded with whitespace"),
                  localhost);
    } else if (!value.empty() && (first != 0 || last != value.size() - 1)) {
      errors->Add(kRule, Invalid(localhost_path, BadValue::String(value), "must not be padded with whitespace"),
                  localhost);
    } else if (value.empty()) {
      errors->Add(kRule, Required(localhost_path, "must be set when AppArmor type is Localhost"), localhost);
    }
    // maxLocalhostProfileLength (PATH_MAX - 1); TooLong prints no value.
    if (value.size() > 4095) {
      errors->Add(kRule,
                  validate::FieldError{validate::ErrorType::kTooLong, localhost_path.String(), BadValue::Omit(),
                                       "may not be more than 4095 bytes"},
                  localhost);
    }
  } else if (type == "RuntimeDefault" || type == "Unconfined") {
    if (localhost != nullptr) {
      errors->Add(kRule,
                  Invalid(localhost_path, BadValue::String(StringField(&profile, "localhostProfile")),
                          "can only be set when AppArmor type is Localhost"),
                  localhost);
    }
  } else if (type.empty()) {
    errors->Add(kRule, Required(path.Child("type"), "type is required when appArmorProfile is set"), &profile);
  } else {
    errors->Add(kRule,
                NotSupported(path.Child("type"), BadValue::String(type), {"Localhost", "RuntimeDefault", "Unconfined"}),
                {profile.Find("type"), &profile});
  }
}

}  // namespace

void ValidateSecurityContext(const doc::Node* security_context, const Path& path, const PodContext& pod) {
  if (security_context == nullptr) return;
  ObjectErrors* errors = pod.errors;
  for (std::string_view field : {"runAsUser", "runAsGroup"}) {
    const doc::Node* id = doc::At(security_context, field);
    if (id == nullptr || !id->is_int()) continue;
    for (std::string& message : formats::UnixId(id->int_value())) {
      errors->Add(kRule, Invalid(path.Child(field), BadValue::Int(id->int_value()), std::move(message)), id);
    }
  }
  if (const doc::Node* proc_mount = doc::At(security_context, "procMount")) {
    const std::string value = StringField(security_context, "procMount");
    if (value != "Default" && value != "Unmasked") {
      errors->Add(kRule, NotSupported(path.Child("procMount"), BadValue::String(value), {"Default", "Unmasked"}),
                  proc_mount);
    }
    if (pod.host_users && value == "Unmasked") {
      errors->Add(kRule,
                  Invalid(path.Child("procMount"), BadValue::String(value),
                          "`hostUsers` must be false to use `Unmasked`"),
                  proc_mount);
    }
  }
  if (const doc::Node* seccomp = doc::At(security_context, "seccompProfile")) {
    ValidateSeccomp(*seccomp, path.Child("seccompProfile"), errors);
  }
  if (const doc::Node* apparmor = doc::At(security_context, "appArmorProfile")) {
    ValidateAppArmor(*apparmor, path.Child("appArmorProfile"), errors);
  }
}

}  // namespace tjr::admission::containers
