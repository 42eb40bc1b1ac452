#include <algorithm>
#include <array>
#include <set>
#include <string>

#include "admission/container_checks.h"
#include "admission/container_formats.h"
#include "admission/object_meta.h"
#include "admission/pod_parts.h"
#include "doc/path.h"
#include "gocompat/regexp.h"
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
    containers::ObjectFieldSelector(*field_ref, kVolumeFieldPaths, path.Child("fieldRef"), kRule, errors);
    if (resource_ref != nullptr) {
      errors->Add(kRule,
                  Invalid(path, BadValue::String("resource"),
                          "fieldRef and resourceFieldRef can not be specified simultaneously"),
                  &file);
    }
  } else if (resource_ref != nullptr) {
    containers::ResourceFieldSelector(*resource_ref, true, path.Child("resourceFieldRef"), kRule, errors);
  } else {
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

// Go's net.SplitHostPort succeeds: "host:port" or "[host]:port", one
// colon outside brackets (quobyte's registry pairs).
bool SplitsHostPort(std::string_view pair) {
  const std::size_t last = pair.rfind(':');
  if (last == std::string_view::npos) return false;  // missing port in address
  std::string_view host = pair.substr(0, last);
  if (pair.front() == '[') {
    const std::size_t end = pair.find(']');
    if (end == std::string_view::npos || end + 1 != last) return false;
    host = pair.substr(1, end - 1);
  } else if (host.find(':') != std::string_view::npos) {
    return false;  // too many colons in address
  }
  if (host.find_first_of("[]") != std::string_view::npos) return false;
  return pair.substr(last + 1).find_first_of("[]") == std::string_view::npos;
}

// The iSCSI IQN / initiator name formats (iscsiInitiator{Iqn,Eui,Naa}Regex,
// matched unanchored as regexp.MatchString does): "" when `value` has a
// known prefix and matches, else the detail upstream gives.
std::string IscsiNameError(const std::string& value, std::string_view bad_prefix) {
  static const gocompat::Regexp kIqn =
      gocompat::Regexp::Compile("iqn\\.\\d{4}-\\d{2}\\.([[:alnum:]-.]+)(:[^,;*&$|\\s]+)$").value();
  static const gocompat::Regexp kEui = gocompat::Regexp::Compile("^eui.[[:alnum:]]{16}$").value();
  static const gocompat::Regexp kNaa = gocompat::Regexp::Compile("^naa.[[:alnum:]]{32}$").value();
  if (value.starts_with("iqn")) return kIqn.Match(value) ? "" : "must be valid format";
  if (value.starts_with("eui")) return kEui.Match(value) ? "" : "must be valid format";
  if (value.starts_with("naa")) return kNaa.Match(value) ? "" : "must be valid format";
  return std::string(bad_prefix);
}

// The legacy in-tree sources' checks beyond their required fields
// (validation.go at 000f2605: validateISCSIVolumeSource, validateFCVolumeSource,
// validateGCEPersistentDiskVolumeSource, validateAWSElasticBlockStoreVolumeSource,
// validateFlockerVolumeSource, validateQuobyteVolumeSource,
// validateCinderVolumeSource, validateFlexVolumeSource, validateAzureDisk,
// validateStorageOSVolumeSource), transcribed by upstream_core_cases_test.cc.
void LegacySource(std::string_view key, const doc::Node& source, const Path& path, ObjectErrors* errors) {
  const auto int_at = [&](std::string_view field) -> const doc::Node* {
    const doc::Node* value = doc::At(&source, field);
    return value != nullptr && value->is_int() ? value : nullptr;
  };
  if (key == "gcePersistentDisk" || key == "awsElasticBlockStore") {
    // pdPartitionErrorMsg is InclusiveRangeError(1, 255) though 0 passes (sic).
    if (const doc::Node* partition = int_at("partition"); partition && (partition->int_value() < 0 || partition->int_value() > 255)) {
      errors->Add(kRule, Invalid(path.Child("partition"), BadValue::Int(partition->int_value()), "must be between 1 and 255, inclusive"), partition);
    }
  } else if (key == "iscsi") {
    const std::string iqn = doc::StringAt(source, "iqn");
    if (!iqn.empty()) {
      if (std::string error = IscsiNameError(iqn, "must be valid format starting with iqn, eui, or naa"); !error.empty()) {
        errors->Add(kRule, Invalid(path.Child("iqn"), BadValue::String(iqn), error), source.Find("iqn"));
      }
    }
    if (const doc::Node* lun = int_at("lun"); lun && (lun->int_value() < 0 || lun->int_value() > 255)) {
      errors->Add(kRule, Invalid(path.Child("lun"), BadValue::Int(lun->int_value()), "must be between 0 and 255, inclusive"), lun);
    }
    if ((containers::BoolField(&source, "chapAuthDiscovery") || containers::BoolField(&source, "chapAuthSession")) &&
        !containers::Has(&source, "secretRef")) {
      errors->Add(kRule, Required(path.Child("secretRef")), &source);
    }
    if (containers::Has(&source, "initiatorName")) {
      // Upstream reports a bad prefix, then (only for a known prefix) the format.
      const std::string initiator = doc::StringAt(source, "initiatorName");
      if (std::string error = IscsiNameError(initiator, "must be valid format starting with iqn, eui, or naa"); !error.empty()) {
        errors->Add(kRule, Invalid(path.Child("initiatorname"), BadValue::String(initiator), error), source.Find("initiatorName"));
      }
    }
  } else if (key == "fc") {
    const std::vector<doc::Node>& wwns = doc::Items(doc::At(&source, "targetWWNs"));
    const std::vector<doc::Node>& wwids = doc::Items(doc::At(&source, "wwids"));
    if (wwns.empty() && wwids.empty()) {
      errors->Add(kRule, Required(path.Child("targetWWNs"), "must specify either targetWWNs or wwids, but not both"), &source);
    }
    if (!wwns.empty() && !wwids.empty()) {
      std::string list = "[]string{";
      for (std::size_t i = 0; i < wwns.size(); ++i) list += (i == 0 ? "" : ", ") + BadValue::String(wwns[i].is_string() ? wwns[i].string_value() : "").text;
      errors->Add(kRule, Invalid(path.Child("targetWWNs"), BadValue::Json(list + "}"), "targetWWNs and wwids can not be specified simultaneously"), doc::At(&source, "targetWWNs"));
    }
    if (!wwns.empty()) {
      const doc::Node* lun = int_at("lun");
      if (!containers::Has(&source, "lun")) {
        errors->Add(kRule, Required(path.Child("lun"), "lun is required if targetWWNs is specified"), &source);
      } else if (lun && (lun->int_value() < 0 || lun->int_value() > 255)) {
        errors->Add(kRule, Invalid(path.Child("lun"), BadValue::Int(lun->int_value()), "must be between 0 and 255, inclusive"), lun);
      }
    }
  } else if (key == "flocker") {
    const std::string name = doc::StringAt(source, "datasetName");
    const std::string uuid = doc::StringAt(source, "datasetUUID");
    if (name.empty() && uuid.empty()) errors->Add(kRule, Required(path, "one of datasetName and datasetUUID is required"), &source);
    if (!name.empty() && !uuid.empty()) {
      errors->Add(kRule, Invalid(path, BadValue::String("resource"), "datasetName and datasetUUID can not be specified simultaneously"), &source);
    }
    if (name.find('/') != std::string::npos) {
      errors->Add(kRule, Invalid(path.Child("datasetName"), BadValue::String(name), "must not contain '/'"), source.Find("datasetName"));
    }
  } else if (key == "quobyte") {
    const std::string registry = doc::StringAt(source, "registry");
    constexpr std::string_view kPairs = "must be a host:port pair or multiple pairs separated by commas";
    if (registry.empty()) {
      errors->Add(kRule, Required(path.Child("registry"), std::string(kPairs)), &source);
    } else if (doc::StringAt(source, "tenant").size() >= 65) {
      errors->Add(kRule, Required(path.Child("tenant"), "must be a UUID and may not exceed a length of 64 characters"), &source);
    } else {
      for (std::size_t start = 0; start <= registry.size();) {
        const std::size_t end = std::min(registry.find(',', start), registry.size());
        if (!SplitsHostPort(std::string_view(registry).substr(start, end - start))) {
          errors->Add(kRule, Invalid(path.Child("registry"), BadValue::String(registry), std::string(kPairs)), source.Find("registry"));
        }
        start = end + 1;
      }
    }
    if (doc::StringAt(source, "volume").empty()) errors->Add(kRule, Required(path.Child("volume")), &source);
  } else if (key == "cinder") {
    if (const doc::Node* secret = doc::At(&source, "secretRef"); secret && doc::StringAt(secret, "name").empty()) {
      errors->Add(kRule, Required(path.Child("secretRef").Child("name")), secret);
    }
  } else if (key == "flexVolume") {
    // Options whose namespace (before "/") is kubernetes.io or k8s.io or
    // a subdomain of them (Go's map order: we give the document's).
    if (const doc::Node* options = doc::At(&source, "options"); options && options->is_mapping()) {
      for (const doc::Field& entry : options->fields()) {
        const std::string& option = entry.key;
        std::string ns = option.substr(0, option.find('/'));
        for (char& c : ns) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        ns = "." + ns;
        if (ns.ends_with(".kubernetes.io") || ns.ends_with(".k8s.io")) {
          errors->Add(kRule, Invalid(path.Child("options").Key(option), BadValue::String(option), "kubernetes.io and k8s.io namespaces are reserved"), &entry.value);
        }
      }
    }
  } else if (key == "azureDisk") {
    const std::string uri = doc::StringAt(source, "diskURI");
    if (containers::Has(&source, "cachingMode")) {
      const std::string mode = doc::StringAt(source, "cachingMode");
      if (mode != "None" && mode != "ReadOnly" && mode != "ReadWrite") {
        errors->Add(kRule, containers::NotSupported(path.Child("cachingMode"), BadValue::String(mode), {"None", "ReadOnly", "ReadWrite"}), source.Find("cachingMode"));
      }
    }
    if (containers::Has(&source, "kind")) {
      const std::string kind = doc::StringAt(source, "kind");
      if (kind != "Dedicated" && kind != "Managed" && kind != "Shared") {
        errors->Add(kRule, containers::NotSupported(path.Child("kind"), BadValue::String(kind), {"Dedicated", "Managed", "Shared"}), source.Find("kind"));
      }
      if (kind == "Managed" && !uri.starts_with("/subscriptions/")) {
        errors->Add(kRule, containers::NotSupported(path.Child("diskURI"), BadValue::String(uri), {"/subscriptions/{sub-id}/resourcegroups/{group-name}/providers/microsoft.compute/disks/{disk-id}"}), &source);
      }
      if (kind != "Managed" && !uri.starts_with("https://")) {
        errors->Add(kRule, containers::NotSupported(path.Child("diskURI"), BadValue::String(uri), {"https://{account-name}.blob.core.windows.net/{container-name}/{disk-name}.vhd"}), &source);
      }
    }
  } else if (key == "storageos") {
    const std::string name = doc::StringAt(source, "volumeName");
    if (name.empty()) {
      errors->Add(kRule, Required(path.Child("volumeName")), &source);
    } else {
      for (std::string& message : formats::Dns1123Label(name)) {
        errors->Add(kRule, Invalid(path.Child("volumeName"), BadValue::String(name), std::move(message)), source.Find("volumeName"));
      }
    }
    const std::string ns = doc::StringAt(source, "volumeNamespace");
    if (!ns.empty()) {
      for (std::string& message : formats::Dns1123Label(ns)) {
        errors->Add(kRule, Invalid(path.Child("volumeNamespace"), BadValue::String(ns), std::move(message)), source.Find("volumeNamespace"));
      }
    }
    if (const doc::Node* secret = doc::At(&source, "secretRef"); secret && doc::StringAt(secret, "name").empty()) {
      errors->Add(kRule, Required(path.Child("secretRef").Child("name")), secret);
    }
  }
}

// A claim's dataSource or dataSourceRef (validateDataSource,
// validateDataSourceRef; AllowInvalidAPIGroupInDataSourceOrRef is for
// updates only).
void DataSource(const doc::Node& source, bool ref, const Path& path, ObjectErrors* errors) {
  if (doc::StringAt(source, "name").empty()) errors->Add(kRule, Required(path.Child("name")), &source);
  const std::string kind = doc::StringAt(source, "kind");
  if (kind.empty()) errors->Add(kRule, Required(path.Child("kind")), &source);
  const std::string group = doc::StringAt(source, "apiGroup");
  if (group.empty() && kind != "PersistentVolumeClaim") {
    errors->Add(kRule,
                Invalid(path, BadValue::String(kind), "must be 'PersistentVolumeClaim' when referencing the default apiGroup"),
                &source);
  }
  for (std::string& message : formats::Dns1123Subdomain(group)) {
    if (group.empty()) break;
    errors->Add(kRule, Invalid(path.Child("apiGroup"), BadValue::String(group), std::move(message)), source.Find("apiGroup"));
  }
  const std::string ns = ref ? doc::StringAt(source, "namespace") : "";
  for (std::string& message : formats::Dns1123Label(ns)) {
    if (ns.empty()) break;
    errors->Add(kRule, Invalid(path.Child("namespace"), BadValue::String(ns), std::move(message)), source.Find("namespace"));
  }
}

// ValidatePersistentVolumeClaimSpec of an ephemeral volume's claim
// template, as validateEphemeralVolumeSource calls it through
// ValidatePersistentVolumeClaimTemplate (validation.go at 000f2605). Not
// emulated: a dataSource that differs from dataSourceRef (its bad value is
// a *field.Path, printed with %#v and pointer addresses).
void ClaimSpec(const doc::Node* spec, const Path& path, ObjectErrors* errors) {
  static const doc::Node kEmpty = doc::Node::Mapping();
  const doc::Node& claim = spec != nullptr ? *spec : kEmpty;
  const std::vector<doc::Node>& modes = doc::Items(doc::At(&claim, "accessModes"));
  if (modes.empty()) errors->Add(kRule, Required(path.Child("accessModes"), "at least 1 access mode is required"), spec);
  ValidateLabelSelector(kRule, doc::At(&claim, "selector"), path.Child("selector"), errors);
  bool once_pod = false;
  bool other = false;
  for (const doc::Node& mode : modes) {
    const std::string value = mode.is_string() ? mode.string_value() : mode.source_text();
    const bool supported =
        value == "ReadOnlyMany" || value == "ReadWriteMany" || value == "ReadWriteOnce" || value == "ReadWriteOncePod";
    if (!supported) {
      errors->Add(kRule,
                  containers::NotSupported(path.Child("accessModes"), BadValue::String(value),
                                           {"ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod"}),
                  &mode);
    }
    if (value == "ReadWriteOncePod") {
      once_pod = true;
    } else if (supported) {
      other = true;
    }
  }
  if (once_pod && other) {
    errors->Add(kRule, Forbidden(path.Child("accessModes"), "may not use ReadWriteOncePod with other access modes"),
                doc::At(&claim, "accessModes"));
  }
  const Path storage_path = path.Child("resources").Key("storage");
  const doc::Node* storage = doc::AtPath(&claim, {"resources", "requests", "storage"});
  typed::Quantity quantity;
  if (storage == nullptr) {
    errors->Add(kRule, Required(storage_path), spec);
  } else if (quantity.UnmarshalJson(*storage).ok() && (quantity.negative() || quantity.is_zero())) {
    // ValidatePositiveQuantityValue.
    errors->Add(kRule, Invalid(storage_path, BadValue::String(quantity.String()), "must be greater than zero"), storage);
  }
  for (std::string_view key : {"storageClassName"}) {
    const std::string name = doc::StringAt(claim, key);
    if (name.empty()) continue;
    for (std::string& message : formats::Dns1123Subdomain(name)) {
      errors->Add(kRule, Invalid(path.Child(key), BadValue::String(name), std::move(message)), claim.Find(key));
    }
  }
  if (const doc::Node* mode = doc::At(&claim, "volumeMode")) {
    const std::string value = doc::StringAt(claim, "volumeMode");
    if (value != "Block" && value != "Filesystem") {
      errors->Add(kRule, containers::NotSupported(path.Child("volumeMode"), BadValue::String(value), {"Block", "Filesystem"}),
                  mode);
    }
  }
  if (const doc::Node* source = doc::At(&claim, "dataSource")) DataSource(*source, false, path.Child("dataSource"), errors);
  if (const doc::Node* source = doc::At(&claim, "dataSourceRef")) DataSource(*source, true, path.Child("dataSourceRef"), errors);
  // VolumeAttributesClass is on by default at every emulated release.
  const std::string attributes_class = doc::StringAt(claim, "volumeAttributesClassName");
  for (std::string& message : formats::Dns1123Subdomain(attributes_class)) {
    if (attributes_class.empty()) break;
    errors->Add(kRule, Invalid(path.Child("volumeAttributesClassName"), BadValue::String(attributes_class), std::move(message)),
                claim.Find("volumeAttributesClassName"));
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
  LegacySource(key, source, path, errors);
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
      // ValidateTemplateObjectMeta (labels and annotations), then the spec.
      const Path meta_path = path.Child("volumeClaimTemplate").Child("metadata");
      const doc::Node* metadata = doc::At(claim, "metadata");
      ValidateAnnotations(doc::At(metadata, "annotations"), meta_path.Child("annotations"), errors);
      ValidateLabels(doc::At(metadata, "labels"), meta_path.Child("labels"), errors);
      ClaimSpec(doc::At(claim, "spec"), path.Child("volumeClaimTemplate").Child("spec"), errors);
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
        // Upstream's typos: "downwarAPI", and "cephFS" (validateVolumeSource).
        const std::string_view child = kind.key == "downwardAPI" ? "downwarAPI" : kind.key == "cephfs" ? "cephFS" : kind.key;
        own.Add(kRule, Forbidden(item_path.Child(child), "may not specify more than 1 volume type"), source);
      } else {
        ++count;
        ValidateSource(kind, *source, name, pod_metadata, item_path.Child(kind.child), &own);
      }
      // validateVolumeSource checks an iSCSI volume's name whether or not it
      // was the first source.
      if (kind.key == "iscsi" && containers::Has(source, "initiatorName") &&
          name.size() + 1 + doc::StringAt(source, "targetPortal").size() > 64) {
        own.Add(kRule,
                Invalid(item_path.Child("name"), BadValue::String(name),
                        "Total length of <volume name>:<iscsi.targetPortal> must be under 64 characters if "
                        "iscsi.initiatorName is specified."),
                source);
      }
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
