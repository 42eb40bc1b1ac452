#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

// The name and number checks of apimachinery pkg/util/validation
// (validation.go, and api/validate/content/kube.go for qualified names) that
// the container checks call, each returning upstream's messages in order
// (empty when the value is valid).
namespace tjr::admission::formats {

/// IsDNS1123Label: too long, then "must not contain dots" for a valid
/// subdomain, else the RFC 1123 label regex text.
std::vector<std::string> Dns1123Label(std::string_view value);
/// IsQualifiedName (content.IsLabelKey): an optional DNS subdomain prefix
/// and a name part of at most 63 characters.
std::vector<std::string> QualifiedName(std::string_view value);
/// IsValidPortNum: 1..65535.
std::vector<std::string> PortNum(std::int64_t port);
/// IsValidPortName: IANA_SVC_NAME (at most 15, [-a-z0-9], a letter, no "--",
/// no leading or trailing hyphen).
std::vector<std::string> PortName(std::string_view port);
/// IsRelaxedEnvVarName: printable ASCII other than '=' (the
/// RelaxedEnvironmentVariableValidation rule).
std::vector<std::string> RelaxedEnvVarName(std::string_view value);
/// IsEnvVarName: the C-identifier-like regex and no "." / ".." prefix.
std::vector<std::string> EnvVarName(std::string_view value);
/// IsConfigMapKey: at most 253, [-._a-zA-Z0-9]+, no "." / ".." prefix.
std::vector<std::string> ConfigMapKey(std::string_view value);
/// IsHTTPHeaderName: [-A-Za-z0-9]+.
std::vector<std::string> HttpHeaderName(std::string_view value);
/// IsValidUserID / IsValidGroupID: 0..4294967295.
std::vector<std::string> UnixId(std::int64_t id);
/// ValidateDNS1123Subdomain / NameIsDNSSubdomain (secret and config map
/// names).
std::vector<std::string> Dns1123Subdomain(std::string_view value);

/// InclusiveRangeError: "must be between 1 and 65535, inclusive".
std::string InclusiveRange(std::int64_t low, std::int64_t high);

}  // namespace tjr::admission::formats
