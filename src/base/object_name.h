#pragma once

#include <string_view>

// Kubernetes object-name syntax (apimachinery pkg/util/validation
// validation.go): the one copy every module uses, for names, namespaces
// and the output tree's file names.
namespace tjr {

/// `[a-z0-9]([-a-z0-9]*[a-z0-9])?`, any length (IsDNS1123Label's regex).
bool MatchesDns1123Label(std::string_view name);
/// Dot-separated DNS-1123 labels, any length (IsDNS1123Subdomain's regex).
bool MatchesDns1123Subdomain(std::string_view name);

/// IsDNS1123Label: the regex and at most 63 bytes (namespaces).
bool IsDns1123Label(std::string_view name);
/// IsDNS1123Subdomain: the regex and at most 253 bytes (most object names).
bool IsDns1123Subdomain(std::string_view name);

/// The texts of IsDNS1123Label's and IsDNS1123Subdomain's regex failures
/// (RegexError with the examples upstream gives).
inline constexpr std::string_view kDns1123LabelMessage =
    "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end "
    "with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is "
    "'[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
inline constexpr std::string_view kDns1123SubdomainMessage =
    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start "
    "and end with an alphanumeric character (e.g. 'example.com', regex used for validation is "
    "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

}  // namespace tjr
