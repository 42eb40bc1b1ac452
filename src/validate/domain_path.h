#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "validate/field_error.h"

namespace tjr::validate {

/// apimachinery's validation.IsDNS1123Subdomain: the detail texts, in its
/// order (length, then the pattern).
std::vector<std::string> Dns1123SubdomainErrors(std::string_view value);

/// apimachinery v0.36 validation.IsDomainPrefixedPath(field, value), which
/// the Trainer webhook applies to every runtimePatches manager
/// (jobset.go:182 at v2.3.0): Required when empty; "must be a
/// domain-prefixed path" without a non-empty prefix and suffix around the
/// first "/"; one error per DNS-1123 failure of the host (value = host); an
/// `Invalid path` error for a suffix outside its character set (value =
/// suffix).
std::vector<FieldError> DomainPrefixedPathErrors(const std::string& field, std::string_view value);

}  // namespace tjr::validate
