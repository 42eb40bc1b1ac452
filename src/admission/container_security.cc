// ValidateSecurityContext of a container (pkg/apis/core/validation/
// validation.go, v1.34.0): the user and group ids and the Unmasked
// procMount. Not emulated: `privileged` (refused only when the API server
// runs without --allow-privileged, a cluster setting), the procMount value
// set, seccompProfile, appArmorProfile and the allowPrivilegeEscalation
// combinations (whose bad value is the whole security context).
#include <string>

#include "admission/container_checks.h"
#include "admission/container_formats.h"
#include "doc/path.h"

namespace tjr::admission::containers {

using validate::BadValue;

void ValidateSecurityContext(const doc::Node* security_context, const Path& path, const PodContext& pod) {
  if (security_context == nullptr) return;
  for (std::string_view field : {"runAsUser", "runAsGroup"}) {
    const doc::Node* id = doc::At(security_context, field);
    if (id == nullptr || !id->is_int()) continue;
    for (std::string& message : formats::UnixId(id->int_value())) {
      pod.errors->Add("security-context", Invalid(path.Child(field), BadValue::Int(id->int_value()), std::move(message)),
                      id);
    }
  }
  const doc::Node* proc_mount = doc::At(security_context, "procMount");
  if (proc_mount != nullptr && pod.host_users && StringField(security_context, "procMount") == "Unmasked") {
    pod.errors->Add("security-context",
                    Invalid(path.Child("procMount"), BadValue::String("Unmasked"),
                            "`hostUsers` must be false to use `Unmasked`"),
                    proc_mount);
  }
}

}  // namespace tjr::admission::containers
