#pragma once

#include <cstdint>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "admission/containers.h"
#include "admission/object_errors.h"
#include "admission/releases.h"
#include "doc/node.h"

// The parts of validateContainerCommon and of the container lists'
// validation (pkg/apis/core/validation/validation.go), one file each; every
// function appends upstream's field errors in upstream's order.
namespace tjr::admission::containers {

/// What every check of one container may need from its pod.
struct PodContext {
  const PodVolumes& volumes;
  const KubernetesRules& rules;
  /// spec.terminationGracePeriodSeconds, or nullptr (ValidatePodSpec's
  /// gracePeriod, which lifecycle sleep actions are bounded by).
  const doc::Node* grace_period;
  /// spec.securityContext.hostUsers, true when unset.
  bool host_users;
  /// spec.resourceClaims (the names containers' resources.claims may use).
  const doc::Node* resource_claims;
  /// spec.restartPolicy (validateResizePolicy's podRestartPolicy).
  std::string restart_policy;
  ObjectErrors* errors;
};

// Making field errors as the field package does.
validate::FieldError Required(const Path& path, std::string detail = {});
validate::FieldError Forbidden(const Path& path, std::string detail);
validate::FieldError Invalid(const Path& path, validate::BadValue value, std::string detail);
validate::FieldError Duplicate(const Path& path, validate::BadValue value);
validate::FieldError NotFound(const Path& path, validate::BadValue value);
/// field.NotSupported: `supported values: "A", "B"` (values %q-quoted in
/// the order given, which is upstream's sets.List order).
validate::FieldError NotSupported(const Path& path, validate::BadValue value,
                                  std::span<const std::string_view> supported);
inline validate::FieldError NotSupported(const Path& path, validate::BadValue value,
                                         std::initializer_list<std::string_view> supported) {
  return NotSupported(path, std::move(value), std::span<const std::string_view>(supported.begin(), supported.size()));
}

/// validateLocalDescendingPath: relative, and no ".." element.
void ValidateLocalDescendingPath(const std::string& value, const Path& path, std::string_view rule, const doc::Node* at,
                                 ObjectErrors* errors);

/// The string at `key`, "" when absent or not a string (Go's zero value).
std::string StringField(const doc::Node* node, std::string_view key);
/// The integer at `key`, 0 when absent (Go's zero value).
std::int64_t IntField(const doc::Node* node, std::string_view key);
/// Whether `key` holds a non-null value (a set pointer in Go).
bool Has(const doc::Node* node, std::string_view key);
/// Whether `key` holds true.
bool BoolField(const doc::Node* node, std::string_view key);

// container_ports.cc
void ValidateContainerPorts(const doc::Node* ports, const Path& path, ObjectErrors* errors);
/// checkHostPortConflicts over `containers` (one container for an init
/// container, all for the regular ones); `path` names the list.
/// checkHostPortConflicts: `containers` indexed from 0 under `path` (an
/// init container is checked alone, so upstream prints it as index 0).
void CheckHostPortConflicts(const std::vector<const doc::Node*>& containers, const Path& path, ObjectErrors* errors);

// container_env.cc
void ValidateEnv(const doc::Node* env, const Path& path, const PodContext& pod);
/// validateObjectFieldSelector with upstream's set of plain field paths
/// (`expressions`, in sets.List order).
void ObjectFieldSelector(const doc::Node& selector, std::span<const std::string_view> expressions, const Path& path,
                         std::string_view rule, ObjectErrors* errors);
/// validateContainerResourceFieldSelector (`volume`: a downward API volume
/// file's, which must name its container).
void ResourceFieldSelector(const doc::Node& selector, bool volume, const Path& path, std::string_view rule,
                           ObjectErrors* errors);
void ValidateEnvFrom(const doc::Node* env_from, const Path& path, const PodContext& pod);

// volume_mounts.cc
void ValidateVolumeMounts(const doc::Node& container, const Path& path, const PodContext& pod);
void ValidateVolumeDevices(const doc::Node& container, const Path& path, const PodContext& pod);

// container_resources.cc
void ValidateContainerResources(const doc::Node* resources, const Path& path, const PodContext& pod);

// probes.cc
void ValidateLivenessProbe(const doc::Node* probe, const Path& path, const PodContext& pod);
void ValidateReadinessProbe(const doc::Node* probe, const Path& path, const PodContext& pod);
void ValidateStartupProbe(const doc::Node* probe, const Path& path, const PodContext& pod);
void ValidateLifecycle(const doc::Node& lifecycle, const Path& path, const PodContext& pod);

// container_security.cc
void ValidateSecurityContext(const doc::Node* security_context, const Path& path, const PodContext& pod);

}  // namespace tjr::admission::containers
