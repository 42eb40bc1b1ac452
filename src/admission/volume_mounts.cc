// ValidateVolumeMounts and ValidateVolumeDevices, with
// validateLocalDescendingPath, validateMountPropagation and
// validateMountRecursiveReadOnly (pkg/apis/core/validation/validation.go,
// see containers.cc for the revision read). Upstream names the subPath, subPathExpr, mountPropagation and
// recursiveReadOnly errors under the list's path without the mount's index
// ("volumeMounts.subPath"); so do we.
#include <map>
#include <set>
#include <string>

#include "admission/container_checks.h"
#include "doc/path.h"

namespace tjr::admission::containers {
namespace {

using validate::BadValue;

constexpr std::string_view kRule = "volume-mounts";

// GetVolumeMountMap / GetVolumeDeviceMap: name -> path, the last one of a
// name winning.
std::map<std::string, std::string> PathsByName(const doc::Node* list, std::string_view path_key) {
  std::map<std::string, std::string> out;
  for (const doc::Node& item : doc::Items(list)) out[StringField(&item, "name")] = StringField(&item, path_key);
  return out;
}

bool HasPath(const std::map<std::string, std::string>& paths, const std::string& path) {
  for (const auto& [name, value] : paths) {
    if (value == path) return true;
  }
  return false;
}

void ValidateMountPropagation(const doc::Node& mount, const doc::Node& container, const Path& path,
                              ObjectErrors* errors) {
  const doc::Node* node = doc::At(&mount, "mountPropagation");
  if (node == nullptr) return;
  const std::string mode = StringField(&mount, "mountPropagation");
  if (mode != "Bidirectional" && mode != "HostToContainer" && mode != "None") {
    errors->Add(kRule, NotSupported(path, BadValue::String(mode), {"Bidirectional", "HostToContainer", "None"}), node);
  }
  const bool privileged = BoolField(doc::At(&container, "securityContext"), "privileged");
  if (mode == "Bidirectional" && !privileged) {
    errors->Add(kRule, Forbidden(path, "Bidirectional mount propagation is available only to privileged containers"),
                node);
  }
}

void ValidateRecursiveReadOnly(const doc::Node& mount, const Path& path, ObjectErrors* errors) {
  const doc::Node* node = doc::At(&mount, "recursiveReadOnly");
  if (node == nullptr) return;
  const std::string mode = StringField(&mount, "recursiveReadOnly");
  if (mode == "Disabled") return;
  if (mode == "Enabled" || mode == "IfPossible") {
    if (!BoolField(&mount, "readOnly")) {
      errors->Add(kRule, Forbidden(path, "may only be specified when readOnly is true"), node);
    }
    if (Has(&mount, "mountPropagation") && StringField(&mount, "mountPropagation") != "None") {
      errors->Add(kRule, Forbidden(path, "may only be specified when mountPropagation is None or not specified"), node);
    }
    return;
  }
  errors->Add(kRule, NotSupported(path, BadValue::String(mode), {"Disabled", "Enabled", "IfPossible"}), node);
}

}  // namespace

void ValidateVolumeMounts(const doc::Node& container, const Path& path, const PodContext& pod) {
  ObjectErrors* errors = pod.errors;
  const std::map<std::string, std::string> devices = PathsByName(doc::At(&container, "volumeDevices"), "devicePath");
  std::set<std::string> mount_points;
  const std::vector<doc::Node>& mounts = doc::Items(doc::At(&container, "volumeMounts"));
  for (std::size_t i = 0; i < mounts.size(); ++i) {
    const doc::Node& mount = mounts[i];
    const Path item = path.Index(i);
    const std::string name = StringField(&mount, "name");
    const std::string mount_path = StringField(&mount, "mountPath");
    const doc::Node* name_node = mount.Find("name");
    if (name.empty()) errors->Add(kRule, Required(item.Child("name")), {name_node, &mount});
    const auto volume = pod.volumes.find(name);
    if (volume == pod.volumes.end()) errors->Add(kRule, NotFound(item.Child("name"), BadValue::String(name)), {name_node, &mount});
    if (mount_path.empty()) errors->Add(kRule, Required(item.Child("mountPath")), {mount.Find("mountPath"), &mount});
    if (!mount_points.insert(mount_path).second) {
      errors->Add(kRule, Invalid(item.Child("mountPath"), BadValue::String(mount_path), "must be unique"),
                  {mount.Find("mountPath"), &mount});
    }
    if (devices.contains(name)) {
      errors->Add(kRule, Invalid(item.Child("name"), BadValue::String(name), "must not already exist in volumeDevices"),
                  {name_node, &mount});
    }
    if (HasPath(devices, mount_path)) {
      errors->Add(kRule,
                  Invalid(item.Child("mountPath"), BadValue::String(mount_path),
                          "must not already exist as a path in volumeDevices"),
                  {mount.Find("mountPath"), &mount});
    }
    const std::string sub_path = StringField(&mount, "subPath");
    const std::string sub_path_expr = StringField(&mount, "subPathExpr");
    if (volume != pod.volumes.end() && doc::At(volume->second, "image") != nullptr) {
      if (!sub_path.empty()) {
        errors->Add(kRule, Invalid(item.Child("subPath"), BadValue::String(sub_path), "not allowed in image volume sources"),
                    {mount.Find("subPath"), &mount});
      }
      if (!sub_path_expr.empty()) {
        errors->Add(kRule,
                    Invalid(item.Child("subPathExpr"), BadValue::String(sub_path_expr),
                            "not allowed in image volume sources"),
                    {mount.Find("subPathExpr"), &mount});
      }
    }
    if (!sub_path.empty()) ValidateLocalDescendingPath(sub_path, path.Child("subPath"), kRule, mount.Find("subPath"), errors);
    if (!sub_path_expr.empty()) {
      if (!sub_path.empty()) {
        errors->Add(kRule,
                    Invalid(item.Child("subPathExpr"), BadValue::String(sub_path_expr),
                            "subPathExpr and subPath are mutually exclusive"),
                    {mount.Find("subPathExpr"), &mount});
      }
      ValidateLocalDescendingPath(sub_path_expr, path.Child("subPathExpr"), kRule, mount.Find("subPathExpr"), errors);
    }
    ValidateMountPropagation(mount, container, path.Child("mountPropagation"), errors);
    ValidateRecursiveReadOnly(mount, path.Child("recursiveReadOnly"), errors);
  }
}

void ValidateVolumeDevices(const doc::Node& container, const Path& path, const PodContext& pod) {
  ObjectErrors* errors = pod.errors;
  const std::map<std::string, std::string> mounts = PathsByName(doc::At(&container, "volumeMounts"), "mountPath");
  std::set<std::string> device_paths;
  std::set<std::string> device_names;
  const std::vector<doc::Node>& devices = doc::Items(doc::At(&container, "volumeDevices"));
  for (std::size_t i = 0; i < devices.size(); ++i) {
    const doc::Node& device = devices[i];
    const Path item = path.Index(i);
    const std::string name = StringField(&device, "name");
    const std::string device_path = StringField(&device, "devicePath");
    const doc::Node* name_node = device.Find("name");
    const doc::Node* path_node = device.Find("devicePath");
    const auto volume = pod.volumes.find(name);
    const bool matched = volume != pod.volumes.end();
    const bool claim = matched && (doc::At(volume->second, "persistentVolumeClaim") != nullptr ||
                                   doc::At(volume->second, "ephemeral") != nullptr);
    if (name.empty()) errors->Add(kRule, Required(item.Child("name")), {name_node, &device});
    if (device_names.contains(name)) {
      errors->Add(kRule, Invalid(item.Child("name"), BadValue::String(name), "must be unique"), {name_node, &device});
    }
    if (matched && !claim) {
      errors->Add(kRule,
                  Invalid(item.Child("name"), BadValue::String(name),
                          "can only use volume source type of PersistentVolumeClaim or Ephemeral for block mode"),
                  {name_node, &device});
    }
    if (!matched) errors->Add(kRule, NotFound(item.Child("name"), BadValue::String(name)), {name_node, &device});
    if (device_path.empty()) errors->Add(kRule, Required(item.Child("devicePath")), {path_node, &device});
    if (device_paths.contains(device_path)) {
      errors->Add(kRule, Invalid(item.Child("devicePath"), BadValue::String(device_path), "must be unique"),
                  {path_node, &device});
    }
    bool backsteps = false;
    for (std::size_t start = 0; !device_path.empty() && start <= device_path.size();) {
      std::size_t end = device_path.find('/', start);
      if (end == std::string::npos) end = device_path.size();
      if (device_path.compare(start, end - start, "..") == 0) backsteps = true;
      start = end + 1;
    }
    if (backsteps) {
      errors->Add(kRule, Invalid(item.Child("devicePath"), BadValue::String(device_path), "can not contain backsteps ('..')"),
                  {path_node, &device});
    } else {
      device_paths.insert(device_path);
    }
    if (mounts.contains(name)) {
      errors->Add(kRule, Invalid(item.Child("name"), BadValue::String(name), "must not already exist in volumeMounts"),
                  {name_node, &device});
    }
    if (HasPath(mounts, device_path)) {
      errors->Add(kRule,
                  Invalid(item.Child("devicePath"), BadValue::String(device_path),
                          "must not already exist as a path in volumeMounts"),
                  {path_node, &device});
    }
    if (!name.empty()) device_names.insert(name);
  }
}

}  // namespace tjr::admission::containers
