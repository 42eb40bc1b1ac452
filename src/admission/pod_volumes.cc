#include <algorithm>
#include <array>
#include <set>
#include <string>

#include "admission/container_checks.h"
#include "admission/container_formats.h"
#include "admission/object_meta.h"
#include "admission/pod_parts.h"
#include "doc/path.h"
#include "typed/quantity.h"

// ValidateVolumes and validateVolumeSource with the sources' own checks
// (pkg/apis/core/validation/validation.go, v1.34.0; unchanged through
// v1.36.0 for the sources checked here).
namespace tjr::admission::pod_parts {
namespace {

using containers::Forbidden;
using containers::Invalid;
using containers::Required;
using validate::BadValue;

constexpr std::string_view kRule = "volumes";
constexpr std::string_view kFileModeMessage = "must be a number between 0 and 0777 (octal), both inclusive";

struct Source {
  std::string_view key;    ///< the VolumeSource JSON field
  std::string_view child;  ///< the path segment upstream validates it under (its typos kept)
  /// Fields that must be non-empty, in upstream's order (the legacy
  /// sources whose validator only requires fields).
  std::array<std::string_view, 3> required;
};

// validateVolumeSource's order. For `child` upstream passes, e.g.,
// fldPath.Child("persistentDisk") to validateGCEPersistentDiskVolumeSource
// and fldPath.Child("cephfs") for cephFS; the "more than 1" error uses the
// key, except downwardAPI's ("downwarAPI").
constexpr std::array<Source, 29> kSources = {{
    {"emptyDir", "emptyDir", {}},
    {"hostPath", "hostPath", {}},
    {"gitRepo", "gitRepo", {}},
    {"gcePersistentDisk", "persistentDisk", {"pdName"}},
    {"awsElasticBlockStore", "awsElasticBlockStore", {"volumeID"}},
    {"secret", "secret", {}},
    {"nfs", "nfs", {}},
    {"iscsi", "iscsi", {"targetPortal", "iqn"}},
    {"glusterfs", "glusterfs", {"endpoints", "path"}},
    {"flocker", "flocker", {}},
    {"persistentVolumeClaim", "persistentVolumeClaim", {"claimName"}},
    {"rbd", "rbd", {"monitors", "image"}},
    {"cinder", "cinder", {"volumeID"}},
    {"cephfs", "cephfs", {"monitors"}},
    {"quobyte", "quobyte", {}},
    {"downwardAPI", "downwardAPI", {}},
    {"fc", "fc", {}},
    {"flexVolume", "flexVolume", {"driver"}},
    {"configMap", "configMap", {}},
    {"azureFile", "azureFile", {"secretName", "shareName"}},
    {"vsphereVolume", "vsphereVolume", {"volumePath"}},
    {"photonPersistentDisk", "photonPersistentDisk", {"pdID"}},
    {"portworxVolume", "portworxVolume", {"volumeID"}},
    {"azureDisk", "azureDisk", {"diskName", "diskURI"}},
    {"storageos", "storageos", {}},
    {"projected", "projected", {}},
    {"scaleIO", "scaleIO", {"gateway", "system", "volumeName"}},
    {"csi", "csi", {}},
    {"ephemeral", "ephemeral", {}},
}};

bool Empty(const doc::Node* value) {
  if (value == nullptr) return true;
  if (value->is_string()) return value->string_value().empty();
  if (value->is_sequence() || value->is_mapping()) return value->empty();
  return false;
}

// validatePathNoBacksteps: no ".." element (one error however many).
void NoBacksteps(std::string_view rule, const std::string& target, const Path& path, const doc::Node* at,
                 ObjectErrors* errors) {
  std::size_t start = 0;
  while (start <= target.size()) {
    const std::size_t end = std::min(target.find('/', start), target.size());
    if (target.compare(start, end - start, "..") == 0) {
      errors->Add(rule, Invalid(path, BadValue::String(target), "must not contain '..'"), at);
      return;
    }
    start = end + 1;
  }
}

// ValidateLocalNonReservedPath.
void LocalNonReservedPath(const std::string& target, const Path& path, const doc::Node* at, ObjectErrors* errors) {
  LocalDescendingPath(kRule, target, path, at, errors);
  if (target.starts_with("..") && !target.starts_with("../")) {
    errors->Add(kRule, Invalid(path, BadValue::String(target), "must not start with '..'"), at);
  }
}

// A mode (defaultMode, mode) outside 0..0777.
void FileMode(const doc::Node* source, std::string_view key, const Path& path, ObjectErrors* errors) {
  const doc::Node* mode = doc::At(source, key);
  if (mode == nullptr || !mode->is_int()) return;
  if (mode->int_value() > 0777 || mode->int_value() < 0) {
    errors->Add(kRule, Invalid(path.Child(key), BadValue::Int(mode->int_value()), std::string(kFileModeMessage)), mode);
  }
}

// validateKeyToPath.
void KeyToPath(const doc::Node& item, const Path& path, ObjectErrors* errors) {
  if (doc::StringAt(item, "key").empty()) errors->Add(kRule, Required(path.Child("key")), {item.Find("key"), &item});
  const std::string target = doc::StringAt(item, "path");
  const doc::Node* at = item.Find("path") != nullptr ? item.Find("path") : &item;
  if (target.empty()) errors->Add(kRule, Required(path.Child("path")), at);
  LocalNonReservedPath(target, path.Child("path"), at, errors);
  FileMode(&item, "mode", path, errors);
}

// validateSecretVolumeSource / validateConfigMapVolumeSource.
void KeyedSource(const doc::Node& source, std::string_view name_key, const Path& path, ObjectErrors* errors) {
  if (doc::StringAt(source, name_key).empty()) {
    errors->Add(kRule, Required(path.Child(name_key)), {source.Find(name_key), &source});
  }
  FileMode(&source, "defaultMode", path, errors);
  const std::vector<doc::Node>& items = doc::Items(doc::At(&source, "items"));
  for (std::size_t i = 0; i < items.size(); ++i) KeyToPath(items[i], path.Child("items").Index(i), errors);
}

constexpr std::array<std::string_view, 5> kVolumeFieldPaths = {
    "metadata.annotations", "metadata.labels", "metadata.name", "metadata.namespace", "metadata.uid"};

// validateDownwardAPIVolumeFile; `path` is the source's (upstream indexes
// no item).
void DownwardApiFile(const doc::Node& file, const Path& path, ObjectErrors* errors) {
  const std::string target = doc::StringAt(file, "path");
  const doc::Node* at = file.Find("path") != nullptr ? file.Find("path") : &file;
  if (target.empty()) errors->Add(kRule, Required(path.Child("path")), at);
  LocalNonReservedPath(target, path.Child("path"), at, errors);
  const doc::Node* field_ref = doc::At(&file, "fieldRef");
  const doc::Node* resource_ref = doc::At(&file, "resourceFieldRef");
  if (field_ref != nullptr) {
    // validateObjectFieldSelector: a plain path must be one of the five
    // (subscripted label and annotation paths are not checked here).
    const std::string field_path = doc::StringAt(field_ref, "fieldPath");
    const Path ref_path = path.Child("fieldRef");
    if (field_path.empty()) {
      errors->Add(kRule, Required(ref_path.Child("fieldPath")), {field_ref->Find("fieldPath"), field_ref});
    } else if (field_path.find('[') == std::string::npos &&
               std::find(kVolumeFieldPaths.begin(), kVolumeFieldPaths.end(), field_path) == kVolumeFieldPaths.end()) {
      errors->Add(kRule,
                  containers::NotSupported(ref_path.Child("fieldPath"), BadValue::String(field_path),
                                           {kVolumeFieldPaths[0], kVolumeFieldPaths[1], kVolumeFieldPaths[2],
                                            kVolumeFieldPaths[3], kVolumeFieldPaths[4]}),
                  {field_ref->Find("fieldPath"), field_ref});
    }
    if (resource_ref != nullptr) {
      errors->Add(kRule,
                  Invalid(path, BadValue::String("resource"),
                          "fieldRef and resourceFieldRef can not be specified simultaneously"),
                  &file);
    }
  } else if (resource_ref == nullptr) {
    errors->Add(kRule, Required(path, "one of fieldRef and resourceFieldRef is required"), &file);
  }
  FileMode(&file, "mode", path, errors);
}

// validateProjectionSources.
void ProjectionSources(const doc::Node& projected, const Path& path, ObjectErrors* errors) {
  std::set<std::string> all_paths;
  const std::vector<doc::Node>& sources = doc::Items(doc::At(&projected, "sources"));
  for (std::size_t i = 0; i < sources.size(); ++i) {
    const doc::Node& source = sources[i];
    const Path source_path = path.Child("sources").Index(i);
    int count = 0;
    for (std::string_view kind : {"secret", "configMap"}) {
      const doc::Node* keyed = doc::At(&source, kind);
      if (keyed == nullptr) continue;
      ++count;
      const Path kind_path = source_path.Child(kind);
      const std::string name = doc::StringAt(keyed, "name");
      if (name.empty()) errors->Add(kRule, Required(kind_path.Child("name")), {keyed->Find("name"), keyed});
      const std::vector<doc::Node>& items = doc::Items(doc::At(keyed, "items"));
      for (std::size_t k = 0; k < items.size(); ++k) {
        KeyToPath(items[k], kind_path.Child("items").Index(k), errors);
        const std::string target = doc::StringAt(items[k], "path");
        if (!target.empty() && !all_paths.insert(target).second) {
          errors->Add(kRule, Invalid(path, BadValue::String(name), "conflicting duplicate paths"), &items[k]);
        }
      }
    }
    if (const doc::Node* downward = doc::At(&source, "downwardAPI")) {
      ++count;
      for (const doc::Node& file : doc::Items(doc::At(downward, "items"))) {
        DownwardApiFile(file, source_path.Child("downwardAPI"), errors);
        const std::string target = doc::StringAt(file, "path");
        if (!target.empty() && !all_paths.insert(target).second) {
          errors->Add(kRule, Invalid(path, BadValue::String(target), "conflicting duplicate paths"), &file);
        }
      }
    }
    if (const doc::Node* token = doc::At(&source, "serviceAccountToken")) {
      ++count;
      const Path token_path = source_path.Child("serviceAccountToken");
      // expirationSeconds defaults to 3600 (SetDefaults_ServiceAccountTokenProjection).
      const doc::Node* expiration = doc::At(token, "expirationSeconds");
      const std::int64_t seconds = expiration != nullptr && expiration->is_int() ? expiration->int_value() : 3600;
      if (seconds < 10 * 60) {
        errors->Add(kRule,
                    Invalid(token_path.Child("expirationSeconds"), BadValue::Int(seconds),
                            "may not specify a duration less than 10 minutes"),
                    {expiration, token});
      }
      if (seconds > (std::int64_t{1} << 32)) {
        errors->Add(kRule,
                    Invalid(token_path.Child("expirationSeconds"), BadValue::Int(seconds),
                            "may not specify a duration larger than 2^32 seconds"),
                    {expiration, token});
      }
      const std::string target = doc::StringAt(token, "path");
      // Upstream names the projected source's path here, not the token's.
      if (target.empty()) {
        errors->Add(kRule, Required(path.Child("path")), {token->Find("path"), token});
      } else {
        LocalNonReservedPath(target, path.Child("path"), token->Find("path"), errors);
      }
    }
    if (doc::At(&source, "clusterTrustBundle") != nullptr) ++count;  // its own checks are not emulated
    if (count > 1) {
      errors->Add(kRule, Forbidden(source_path, "may not specify more than 1 volume type per source"), &source);
    }
  }
}

// The checks of one source, under `path` (the source's path segment).
void ValidateSource(const Source& kind, const doc::Node& source, const std::string& volume_name,
                    const doc::Node* pod_metadata, const Path& path, ObjectErrors* errors) {
  for (std::string_view field : kind.required) {
    if (field.empty()) break;
    if (Empty(doc::At(&source, field))) errors->Add(kRule, Required(path.Child(field)), {source.Find(field), &source});
  }
  const std::string_view key = kind.key;
  if (key == "emptyDir") {
    const doc::Node* limit = doc::At(&source, "sizeLimit");
    typed::Quantity quantity;
    if (limit != nullptr && quantity.UnmarshalJson(*limit).ok() && quantity.negative()) {
      errors->Add(kRule, Forbidden(path.Child("sizeLimit"), "SizeLimit field must be a valid resource quantity"), limit);
    }
  } else if (key == "hostPath") {
    // validateHostPathVolumeSource.
    const std::string host_path = doc::StringAt(source, "path");
    const doc::Node* at = source.Find("path") != nullptr ? source.Find("path") : &source;
    if (host_path.empty()) {
      errors->Add(kRule, Required(path.Child("path")), at);
      return;
    }
    NoBacksteps(kRule, host_path, path.Child("path"), at, errors);
    if (const doc::Node* type = doc::At(&source, "type")) {
      static constexpr std::array<std::string_view, 8> kTypes = {
          "", "BlockDevice", "CharDevice", "Directory", "DirectoryOrCreate", "File", "FileOrCreate", "Socket"};
      const std::string value = type->is_string() ? type->string_value() : type->source_text();
      if (std::find(kTypes.begin(), kTypes.end(), value) == kTypes.end()) {
        errors->Add(kRule,
                    containers::NotSupported(path.Child("type"), BadValue::String(value),
                                             {"", "BlockDevice", "CharDevice", "Directory", "DirectoryOrCreate", "File",
                                              "FileOrCreate", "Socket"}),
                    type);
      }
    }
  } else if (key == "gitRepo") {
    if (doc::StringAt(source, "repository").empty()) {
      errors->Add(kRule, Required(path.Child("repository")), {source.Find("repository"), &source});
    }
    LocalDescendingPath(kRule, doc::StringAt(source, "directory"), path.Child("directory"),
                        source.Find("directory") != nullptr ? source.Find("directory") : &source, errors);
  } else if (key == "secret") {
    KeyedSource(source, "secretName", path, errors);
  } else if (key == "configMap") {
    KeyedSource(source, "name", path, errors);
  } else if (key == "nfs") {
    const std::string nfs_path = doc::StringAt(source, "path");
    if (doc::StringAt(source, "server").empty()) {
      errors->Add(kRule, Required(path.Child("server")), {source.Find("server"), &source});
    }
    if (nfs_path.empty()) errors->Add(kRule, Required(path.Child("path")), {source.Find("path"), &source});
    if (!nfs_path.starts_with('/')) {
      errors->Add(kRule, Invalid(path.Child("path"), BadValue::String(nfs_path), "must be an absolute path"),
                  {source.Find("path"), &source});
    }
  } else if (key == "downwardAPI") {
    FileMode(&source, "defaultMode", path, errors);
    for (const doc::Node& file : doc::Items(doc::At(&source, "items"))) DownwardApiFile(file, path, errors);
  } else if (key == "projected") {
    FileMode(&source, "defaultMode", path, errors);
    ProjectionSources(source, path, errors);
  } else if (key == "csi") {
    // ValidateCSIDriverName.
    const std::string driver = doc::StringAt(source, "driver");
    const Path driver_path = path.Child("driver");
    const doc::Node* at = source.Find("driver") != nullptr ? source.Find("driver") : &source;
    if (driver.empty()) errors->Add(kRule, Required(driver_path), at);
    if (driver.size() > 63) {
      errors->Add(kRule,
                  validate::FieldError{validate::ErrorType::kTooLong, driver_path.String(), BadValue::Omit(),
                                       "may not be more than 63 bytes"},
                  at);
    }
    std::string lower = driver;
    for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    for (std::string& message : formats::Dns1123Subdomain(lower)) {
      errors->Add(kRule, Invalid(driver_path, BadValue::String(driver), std::move(message)), at);
    }
    if (const doc::Node* secret = doc::At(&source, "nodePublishSecretRef")) {
      const std::string name = doc::StringAt(secret, "name");
      if (name.empty()) {
        errors->Add(kRule, Required(path.Child("nodePublishSecretRef").Child("name")), {secret->Find("name"), secret});
      } else {
        // Upstream reports it at csi.name.
        for (std::string& message : formats::Dns1123Subdomain(name)) {
          errors->Add(kRule, Invalid(path.Child("name"), BadValue::String(name), std::move(message)), secret->Find("name"));
        }
      }
    }
  } else if (key == "ephemeral") {
    const doc::Node* claim = doc::At(&source, "volumeClaimTemplate");
    if (claim == nullptr) {
      errors->Add(kRule, Required(path.Child("volumeClaimTemplate")), &source);
    } else {
      // ValidateTemplateObjectMeta (labels and annotations; the claim
      // spec's own validation is not emulated).
      const Path meta_path = path.Child("volumeClaimTemplate").Child("metadata");
      const doc::Node* metadata = doc::At(claim, "metadata");
      ValidateAnnotations(doc::At(metadata, "annotations"), meta_path.Child("annotations"), errors);
      ValidateLabels(doc::At(metadata, "labels"), meta_path.Child("labels"), errors);
    }
    const std::string pod_name = doc::StringAt(pod_metadata, "name");
    if (!pod_name.empty() && !volume_name.empty()) {
      const std::string claim_name = pod_name + "-" + volume_name;
      for (std::string& message : formats::Dns1123Subdomain(claim_name)) {
        errors->Add(kRule,
                    Invalid(path.Child("name"), BadValue::String(volume_name),
                            "PVC name " + BadValue::String(claim_name).text + ": " + message),
                    &source);
      }
    }
  }
}

}  // namespace

void LocalDescendingPath(std::string_view rule, const std::string& target, const Path& path, const doc::Node* at,
                         ObjectErrors* errors) {
  if (target.starts_with('/')) errors->Add(rule, Invalid(path, BadValue::String(target), "must be a relative path"), at);
  NoBacksteps(rule, target, path, at, errors);
}

PodVolumes ValidateVolumes(const doc::Node* volumes, const doc::Node* pod_metadata, const Path& path,
                           ObjectErrors* errors) {
  PodVolumes out;
  const std::vector<doc::Node>& items = doc::Items(volumes);
  // The claims the pod's ephemeral volumes create (known only for a Pod).
  std::set<std::string> created_claims;
  const std::string pod_name = doc::StringAt(pod_metadata, "name");
  if (!pod_name.empty()) {
    for (const doc::Node& volume : items) {
      if (doc::At(&volume, "ephemeral") != nullptr) created_claims.insert(pod_name + "-" + doc::StringAt(volume, "name"));
    }
  }
  std::set<std::string> names;
  for (std::size_t i = 0; i < items.size(); ++i) {
    const doc::Node& volume = items[i];
    const Path item_path = path.Index(i);
    const std::string name = doc::StringAt(volume, "name");
    // validateVolumeSource, then the name: a volume with errors is not
    // mountable (vols), so its mounts are "Not found" as upstream says.
    ObjectErrors own;
    int count = 0;
    for (const Source& kind : kSources) {
      const doc::Node* source = doc::At(&volume, kind.key);
      if (source == nullptr) continue;
      if (count > 0) {
        const std::string_view child = kind.key == "downwardAPI" ? "downwarAPI" : kind.key;
        own.Add(kRule, Forbidden(item_path.Child(child), "may not specify more than 1 volume type"), source);
        continue;
      }
      ++count;
      ValidateSource(kind, *source, name, pod_metadata, item_path.Child(kind.child), &own);
    }
    if (const doc::Node* image = doc::At(&volume, "image")) {
      if (count > 0) {
        own.Add(kRule, Forbidden(item_path.Child("image"), "may not specify more than 1 volume type"), image);
      }
      ++count;
      // validateImageVolumeSource: its reference is required of a Pod only,
      // its pull policy is defaulted.
    }
    if (count == 0) own.Add(kRule, Required(item_path, "must specify a volume type"), &volume);
    const Path name_path = item_path.Child("name");
    const doc::Node* name_at = volume.Find("name") != nullptr ? volume.Find("name") : &volume;
    if (name.empty()) {
      own.Add(kRule, Required(name_path), name_at);
    } else {
      for (std::string& message : formats::Dns1123Label(name)) {
        own.Add(kRule, Invalid(name_path, BadValue::String(name), std::move(message)), name_at);
      }
    }
    if (names.contains(name)) own.Add(kRule, containers::Duplicate(name_path, BadValue::String(name)), name_at);
    if (own.empty()) {
      names.insert(name);
      out[name] = &volume;
    } else {
      for (ObjectError& error : own.Take()) errors->Add(error.rule, std::move(error.error), error.at);
    }
    if (const doc::Node* claim = doc::At(&volume, "persistentVolumeClaim")) {
      const std::string claim_name = doc::StringAt(claim, "claimName");
      if (created_claims.contains(claim_name)) {
        errors->Add(kRule,
                    Invalid(item_path.Child("persistentVolumeClaim").Child("claimName"), BadValue::String(claim_name),
                            "must not reference a PVC that gets created for an ephemeral volume"),
                    {claim->Find("claimName"), claim});
      }
    }
  }
  return out;
}

}  // namespace tjr::admission::pod_parts
