#include "admission/pod.h"

#include <arpa/inet.h>

#include <algorithm>
#include <limits>
#include <set>
#include <string>

#include "admission/container_checks.h"
#include "admission/container_formats.h"
#include "admission/containers.h"
#include "admission/node_edit.h"
#include "admission/object_meta.h"
#include "admission/pod_parts.h"
#include "doc/path.h"

// ValidatePodTemplateSpec and ValidatePodSpec
// (pkg/apis/core/validation/validation.go at v1.34.0, v1.35.0, v1.36.0), on
// a v1 PodSpec after the API server's defaulting, in upstream's order.
namespace tjr::admission {
namespace {

using containers::Forbidden;
using containers::Invalid;
using containers::NotSupported;
using containers::Required;
using validate::BadValue;


// netutils.ParseIPSloppy: Go 1.16's net.ParseIP, whose IPv4 octets may
// have leading zeros.
bool IsSloppyIp(const std::string& value) {
  if (value.find(':') != std::string::npos) {
    in6_addr address;
    return inet_pton(AF_INET6, value.c_str(), &address) == 1;
  }
  int parts = 0;
  std::size_t start = 0;
  while (true) {
    const std::size_t end = std::min(value.find('.', start), value.size());
    if (end == start) return false;
    int octet = 0;
    for (std::size_t i = start; i < end; ++i) {
      if (value[i] < '0' || value[i] > '9') return false;
      octet = octet * 10 + (value[i] - '0');
      if (octet > 255) return false;
    }
    ++parts;
    if (end == value.size()) break;
    start = end + 1;
  }
  return parts == 4;
}

// validation.IsValidIP.
void ValidIp(std::string_view rule, const doc::Node& value, const Path& path, ObjectErrors* errors) {
  const std::string text = value.is_string() ? value.string_value() : value.source_text();
  if (IsSloppyIp(text)) return;
  errors->Add(rule, Invalid(path, BadValue::String(text), "must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)"),
              &value);
}

// ValidateHostAliases.
void HostAliases(const doc::Node& spec, const Path& path, ObjectErrors* errors) {
  const std::vector<doc::Node>& aliases = doc::Items(doc::At(&spec, "hostAliases"));
  for (std::size_t i = 0; i < aliases.size(); ++i) {
    static const doc::Node kNoIp = doc::Node::String("");
    const doc::Node* ip = doc::At(&aliases[i], "ip");
    ValidIp("host-aliases", ip != nullptr ? *ip : kNoIp, path.Index(i).Child("ip"), errors);
    const std::vector<doc::Node>& hostnames = doc::Items(doc::At(&aliases[i], "hostnames"));
    for (std::size_t j = 0; j < hostnames.size(); ++j) {
      const std::string name = hostnames[j].is_string() ? hostnames[j].string_value() : hostnames[j].source_text();
      for (std::string& message : formats::Dns1123Subdomain(name)) {
        errors->Add("host-aliases",
                    Invalid(path.Index(i).Child("hostnames").Index(j), BadValue::String(name), std::move(message)),
                    &hostnames[j]);
      }
    }
  }
}

// A field holding an object name checked by one of the NameIs* functions
// (all DNS subdomains here), each message an Invalid.
void SubdomainName(std::string_view rule, const doc::Node& spec, std::string_view key, const Path& path,
                   ObjectErrors* errors) {
  const std::string value = doc::StringAt(spec, key);
  if (value.empty()) return;
  for (std::string& message : formats::Dns1123Subdomain(value)) {
    errors->Add(rule, Invalid(path.Child(key), BadValue::String(value), std::move(message)), ValueOrParent(spec, key));
  }
}

void Dns1123LabelField(std::string_view rule, const doc::Node& spec, std::string_view key, const Path& path,
                       ObjectErrors* errors) {
  const std::string value = doc::StringAt(spec, key);
  if (value.empty()) return;
  for (std::string& message : formats::Dns1123Label(value)) {
    errors->Add(rule, Invalid(path.Child(key), BadValue::String(value), std::move(message)), ValueOrParent(spec, key));
  }
}

// validateRestartPolicy, validateDNSPolicy, ValidatePreemptionPolicy: a
// required enum.
void Enum(std::string_view rule, const doc::Node& spec, std::string_view key, const Path& path,
          std::initializer_list<std::string_view> supported, ObjectErrors* errors) {
  const std::string value = doc::StringAt(spec, key);
  if (value.empty()) {
    errors->Add(rule, Required(path), ValueOrParent(spec, key));
    return;
  }
  for (std::string_view option : supported) {
    if (value == option) return;
  }
  errors->Add(rule, NotSupported(path, BadValue::String(value), supported), ValueOrParent(spec, key));
}

// The %#v of a core.PodResourceClaim, the value upstream reports for a
// claim naming no source or both. A set pointer prints as its address,
// which no emulation can know: "(*string)(<address>)" stands for it.
std::string ClaimGoSyntax(const doc::Node& claim) {
  const auto pointer = [&](std::string_view key) {
    return doc::At(&claim, key) == nullptr ? std::string("(*string)(nil)") : std::string("(*string)(<address>)");
  };
  return "core.PodResourceClaim{Name:" + BadValue::String(doc::StringAt(claim, "name")).text +
         ", ResourceClaimName:" + pointer("resourceClaimName") +
         ", ResourceClaimTemplateName:" + pointer("resourceClaimTemplateName") + "}";
}

// validatePodResourceClaims and validatePodResourceClaim: names unique
// RFC 1123 labels, exactly one source, the source a ResourceClaim or
// ResourceClaimTemplate name (NameIsDNSSubdomain).
void ResourceClaims(const doc::Node* claims, const Path& path, ObjectErrors* errors) {
  constexpr std::string_view kRule = "resource-claims";
  std::set<std::string> names;
  const std::vector<doc::Node>& items = doc::Items(claims);
  for (std::size_t i = 0; i < items.size(); ++i) {
    const doc::Node& claim = items[i];
    const Path item_path = path.Index(i);
    const std::string name = doc::StringAt(claim, "name");
    const Path name_path = item_path.Child("name");
    if (name.empty()) {
      errors->Add(kRule, Required(name_path), ValueOrParent(claim, "name"));
    } else if (names.contains(name)) {
      errors->Add(kRule, containers::Duplicate(name_path, BadValue::String(name)), ValueOrParent(claim, "name"));
    } else {
      for (std::string& message : formats::Dns1123Label(name)) {
        errors->Add(kRule, Invalid(name_path, BadValue::String(name), std::move(message)), ValueOrParent(claim, "name"));
      }
      names.insert(name);
    }
    const bool by_name = doc::At(&claim, "resourceClaimName") != nullptr;
    const bool by_template = doc::At(&claim, "resourceClaimTemplateName") != nullptr;
    if (by_name && by_template) {
      errors->Add(kRule,
                  Invalid(item_path, BadValue::Json(ClaimGoSyntax(claim)),
                          "at most one of `resourceClaimName` or `resourceClaimTemplateName` may be specified"),
                  &claim);
    }
    if (!by_name && !by_template) {
      errors->Add(kRule,
                  Invalid(item_path, BadValue::Json(ClaimGoSyntax(claim)),
                          "must specify one of: `resourceClaimName`, `resourceClaimTemplateName`"),
                  &claim);
    }
    for (std::string_view key : {"resourceClaimName", "resourceClaimTemplateName"}) {
      const doc::Node* value = doc::At(&claim, key);
      if (value == nullptr) continue;
      const std::string text = doc::StringAt(claim, key);
      for (std::string& message : formats::Dns1123Subdomain(text)) {
        errors->Add(kRule, Invalid(item_path.Child(key), BadValue::String(text), std::move(message)), value);
      }
    }
  }
}

// validatePodHostNetworkDeps: with hostNetwork a port's hostPort is its
// containerPort (a template may leave it 0: the Pod's defaulting sets it).
void HostNetworkDeps(const doc::Node& spec, const Path& path, PodOwner owner, ObjectErrors* errors) {
  if (!containers::BoolField(&spec, "hostNetwork")) return;
  const std::vector<doc::Node>& list = doc::Items(doc::At(&spec, "containers"));
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::vector<doc::Node>& ports = doc::Items(doc::At(&list[i], "ports"));
    for (std::size_t j = 0; j < ports.size(); ++j) {
      const std::int64_t container_port = containers::IntField(&ports[j], "containerPort");
      std::int64_t host_port = containers::IntField(&ports[j], "hostPort");
      // A Pod's unset hostPort is its containerPort by then (SetDefaults_Pod,
      // which the caller does not apply, since 1.28 only for Pods).
      if (owner == PodOwner::kPod && host_port == 0) host_port = container_port;
      if ((owner == PodOwner::kPod || host_port != 0) && host_port != container_port) {
        errors->Add("host-network",
                    Invalid(path.Child("containers").Index(i).Child("ports").Index(j).Child("hostPort"),
                            BadValue::Int(host_port), "must match `containerPort` when `hostNetwork` is true"),
                    {ports[j].Find("hostPort"), &ports[j]});
      }
    }
  }
}

// validatePodDNSConfig (the search domains' own syntax is not checked
// here).
void DnsConfig(const doc::Node& spec, const Path& path, ObjectErrors* errors) {
  constexpr std::string_view kRule = "dns-config";
  const doc::Node* config = doc::At(&spec, "dnsConfig");
  const std::vector<doc::Node>& nameservers = doc::Items(doc::At(config, "nameservers"));
  if (doc::StringAt(spec, "dnsPolicy") == "None") {
    if (config == nullptr) {
      errors->Add(kRule, Required(path, "must provide `dnsConfig` when `dnsPolicy` is None"), ValueOrParent(spec, "dnsPolicy"));
      return;
    }
    if (nameservers.empty()) {
      errors->Add(kRule,
                  Required(path.Child("nameservers"), "must provide at least one DNS nameserver when `dnsPolicy` is None"),
                  config);
      return;
    }
  }
  if (config == nullptr) return;
  // The lists are printed as Go's %#v of a []string.
  const auto go_strings = [](const std::vector<doc::Node>& items) {
    std::string out = "[]string{";
    for (std::size_t i = 0; i < items.size(); ++i) {
      out += (i == 0 ? "" : ", ") + BadValue::String(items[i].is_string() ? items[i].string_value() : "").text;
    }
    return out + "}";
  };
  if (nameservers.size() > 3) {
    errors->Add(kRule,
                Invalid(path.Child("nameservers"), BadValue::Json(go_strings(nameservers)),
                        "must not have more than 3 nameservers"),
                doc::At(config, "nameservers"));
  }
  for (std::size_t i = 0; i < nameservers.size(); ++i) {
    ValidIp(kRule, nameservers[i], path.Child("nameservers").Index(i), errors);
  }
  const std::vector<doc::Node>& searches = doc::Items(doc::At(config, "searches"));
  if (searches.size() > 32) {
    errors->Add(kRule,
                Invalid(path.Child("searches"), BadValue::Json(go_strings(searches)),
                        "must not have more than 32 search paths"),
                doc::At(config, "searches"));
  }
  std::size_t joined = searches.empty() ? 0 : searches.size() - 1;  // the spaces between
  for (const doc::Node& search : searches) joined += search.is_string() ? search.string_value().size() : 0;
  if (joined > 2048) {
    errors->Add(kRule,
                Invalid(path.Child("searches"), BadValue::Json(go_strings(searches)),
                        "must not have more than 2048 characters (including spaces) in the search list"),
                doc::At(config, "searches"));
  }
  const std::vector<doc::Node>& options = doc::Items(doc::At(config, "options"));
  for (std::size_t i = 0; i < options.size(); ++i) {
    if (doc::StringAt(options[i], "name").empty()) {
      errors->Add(kRule, Required(path.Child("options").Index(i), "must not be empty"), &options[i]);
    }
  }
}

// ValidateQualifiedName of each readiness gate's condition type.
void ReadinessGates(const doc::Node& spec, const Path& path, ObjectErrors* errors) {
  const std::vector<doc::Node>& gates = doc::Items(doc::At(&spec, "readinessGates"));
  for (std::size_t i = 0; i < gates.size(); ++i) {
    pod_parts::ValidateLabelName("readiness-gates", doc::StringAt(gates[i], "conditionType"),
                                 path.Index(i).Child("conditionType"), ValueOrParent(gates[i], "conditionType"), errors);
  }
}

// validateSchedulingGates: qualified names, no duplicates.
void SchedulingGates(const doc::Node& spec, const Path& path, ObjectErrors* errors) {
  std::set<std::string> seen;
  const std::vector<doc::Node>& gates = doc::Items(doc::At(&spec, "schedulingGates"));
  for (std::size_t i = 0; i < gates.size(); ++i) {
    const std::string name = doc::StringAt(gates[i], "name");
    pod_parts::ValidateLabelName("scheduling-gates", name, path.Index(i), ValueOrParent(gates[i], "name"), errors);
    if (!seen.insert(name).second) {
      errors->Add("scheduling-gates", containers::Duplicate(path.Index(i), BadValue::String(name)), ValueOrParent(gates[i], "name"));
    }
  }
}

// validateOS, then validateLinux when it names linux (validateWindows'
// long list of refusals is not emulated).
void Os(const doc::Node& spec, const Path& spec_path, ObjectErrors* errors) {
  const doc::Node* os = doc::At(&spec, "os");
  if (os == nullptr) return;
  const Path path = spec_path.Child("os");
  const std::string name = doc::StringAt(os, "name");
  if (name.empty()) {
    errors->Add("os", Required(path.Child("name"), "cannot be empty"), ValueOrParent(*os, "name"));
    return;
  }
  if (name != "linux" && name != "windows") {
    errors->Add("os", NotSupported(path, BadValue::String(name), {"linux", "windows"}), ValueOrParent(*os, "name"));
    return;
  }
  if (name != "linux") return;
  if (doc::AtPath(&spec, {"securityContext", "windowsOptions"}) != nullptr) {
    errors->Add("os",
                Forbidden(spec_path.Child("securityContext").Child("windowsOptions"),
                          "windows options cannot be set for a linux pod"),
                doc::AtPath(&spec, {"securityContext", "windowsOptions"}));
  }
  // VisitContainersWithPath: init containers, then containers.
  for (std::string_view list : {"initContainers", "containers"}) {
    const std::vector<doc::Node>& items = doc::Items(doc::At(&spec, list));
    for (std::size_t i = 0; i < items.size(); ++i) {
      const doc::Node* options = doc::AtPath(&items[i], {"securityContext", "windowsOptions"});
      if (options == nullptr) continue;
      errors->Add("os",
                  Forbidden(spec_path.Child(list).Index(i).Child("securityContext").Child("windowsOptions"),
                            "windows options cannot be set for a linux pod"),
                  options);
    }
  }
}

}  // namespace

void ValidatePodSpec(const doc::Node* spec_node, const doc::Node* metadata, const Path& path, PodOwner owner,
                     const KubernetesRules& rules, ObjectErrors* errors) {
  static const doc::Node kEmpty = doc::Node::Mapping();
  const doc::Node& spec = spec_node != nullptr ? *spec_node : kEmpty;
  if (owner == PodOwner::kPod) {
    // validatePodMetadataAndSpec: after ValidateObjectMeta (the caller's).
    pod_parts::ValidatePodSpecificAnnotations(doc::At(metadata, "annotations"), spec,
                                              Path("metadata").Child("annotations"), errors);
  }
  if (!containers::Has(&spec, "terminationGracePeriodSeconds")) {
    errors->Add("termination-grace-period", Required(path.Child("terminationGracePeriodSeconds")), &spec);
  }
  // The pod's metadata names the claims of its ephemeral volumes and
  // resource claims; a template's is not passed (podMeta nil).
  const doc::Node* pod_metadata = owner == PodOwner::kPod ? metadata : nullptr;
  const PodVolumes volumes = pod_parts::ValidateVolumes(doc::At(&spec, "volumes"), pod_metadata, path.Child("volumes"), errors);
  ResourceClaims(doc::At(&spec, "resourceClaims"), path.Child("resourceClaims"), errors);
  ValidateContainerLists(spec, volumes, path, owner, rules, errors);
  // Ephemeral containers: refused on create below.
  if (const doc::Node* resources = doc::At(&spec, "resources")) {
    // validatePodResources (PodLevelResources, beta and on by default from
    // 1.34): only the claims are checked here.
    if (const doc::Node* claims = doc::At(resources, "claims")) {
      errors->Add("pod-resources",
                  Forbidden(path.Child("resources").Child("claims"), "claims cannot be set for Resources at pod-level"),
                  claims);
    }
  }
  HostNetworkDeps(spec, path, owner, errors);
  Enum("restart-policy", spec, "restartPolicy", path.Child("restartPolicy"), {"Always", "OnFailure", "Never"}, errors);
  Enum("dns-policy", spec, "dnsPolicy", path.Child("dnsPolicy"), {"ClusterFirstWithHostNet", "ClusterFirst", "Default", "None"},
       errors);
  pod_parts::ValidateLabelMap("node-selector", doc::At(&spec, "nodeSelector"), path.Child("nodeSelector"), errors);
  pod_parts::ValidatePodSecurityContext(spec, path, errors);
  pod_parts::ValidateAffinity(doc::At(&spec, "affinity"), path.Child("affinity"), errors);
  DnsConfig(spec, path.Child("dnsConfig"), errors);
  ReadinessGates(spec, path.Child("readinessGates"), errors);
  SchedulingGates(spec, path.Child("schedulingGates"), errors);
  pod_parts::ValidateTopologySpreadConstraints(doc::At(&spec, "topologySpreadConstraints"),
                                               path.Child("topologySpreadConstraints"), errors);
  pod_parts::ValidateHostUsers(spec, path, errors);
  SubdomainName("service-account-name", spec, "serviceAccountName", path, errors);
  SubdomainName("node-name", spec, "nodeName", path, errors);
  if (const doc::Node* deadline = doc::At(&spec, "activeDeadlineSeconds"); deadline != nullptr && deadline->is_int()) {
    const std::int64_t value = deadline->int_value();
    if (value < 1 || value > std::numeric_limits<std::int32_t>::max()) {
      errors->Add("pod-active-deadline",
                  Invalid(path.Child("activeDeadlineSeconds"), BadValue::Int(value),
                          formats::InclusiveRange(1, std::numeric_limits<std::int32_t>::max())),
                  deadline);
    }
  }
  Dns1123LabelField("hostname", spec, "hostname", path, errors);
  Dns1123LabelField("hostname", spec, "subdomain", path, errors);
  pod_parts::ValidateTolerations(doc::At(&spec, "tolerations"), path.Child("tolerations"), errors);
  HostAliases(spec, path.Child("hostAliases"), errors);
  SubdomainName("priority-class", spec, "priorityClassName", path, errors);
  SubdomainName("runtime-class", spec, "runtimeClassName", path, errors);
  if (containers::Has(&spec, "preemptionPolicy")) {
    Enum("preemption-policy", spec, "preemptionPolicy", path.Child("preemptionPolicy"), {"PreemptLowerPriority", "Never"},
         errors);
  }
  Os(spec, path, errors);
  if (owner == PodOwner::kPod && !doc::Items(doc::At(&spec, "ephemeralContainers")).empty()) {
    // ValidatePodCreate.
    errors->Add("ephemeral-containers", Forbidden(path.Child("ephemeralContainers"), "cannot be set on create"),
                spec.Find("ephemeralContainers"));
  }
}

void ValidatePodTemplateSpec(const doc::Node* tmpl, const Path& path, PodOwner owner, const KubernetesRules& rules,
                             ObjectErrors* errors) {
  static const doc::Node kEmpty = doc::Node::Mapping();
  const doc::Node& pod_template = tmpl != nullptr ? *tmpl : kEmpty;
  const doc::Node* metadata = doc::At(&pod_template, "metadata");
  // The template's ObjectMeta is embedded: upstream's paths skip "metadata".
  ValidateLabels(doc::At(metadata, "labels"), path.Child("labels"), errors);
  ValidateAnnotations(doc::At(metadata, "annotations"), path.Child("annotations"), errors);
  const Path spec_path = path.Child("spec");
  pod_parts::ValidatePodSpecificAnnotations(doc::At(metadata, "annotations"),
                                            doc::At(&pod_template, "spec") != nullptr ? *doc::At(&pod_template, "spec") : kEmpty,
                                            path.Child("annotations"), errors);
  ValidatePodSpec(doc::At(&pod_template, "spec"), metadata, spec_path, owner, rules, errors);
  if (!doc::Items(doc::AtPath(&pod_template, {"spec", "ephemeralContainers"})).empty()) {
    errors->Add("ephemeral-containers",
                Forbidden(spec_path.Child("ephemeralContainers"), "ephemeral containers not allowed in pod template"),
                doc::AtPath(&pod_template, {"spec", "ephemeralContainers"}));
  }
}

}  // namespace tjr::admission
