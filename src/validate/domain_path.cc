#include "validate/domain_path.h"

#include "base/object_name.h"

namespace tjr::validate {
namespace {

// httpPathFmt: [A-Za-z0-9/\-._~%!$&'()*+,;=:]+ (validation.go:88).
bool IsHttpPath(std::string_view path) {
  static constexpr std::string_view kPunct = "/-._~%!$&'()*+,;=:";
  if (path.empty()) return false;
  for (char c : path) {
    const bool alnum = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
    if (!alnum && kPunct.find(c) == std::string_view::npos) return false;
  }
  return true;
}

}  // namespace

std::vector<std::string> Dns1123SubdomainErrors(std::string_view value) {
  std::vector<std::string> errors;
  if (value.size() > 253) errors.emplace_back("must be no more than 253 characters");
  if (!MatchesDns1123Subdomain(value)) {
    errors.emplace_back(
        "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must "
        "start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is "
        "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')");
  }
  return errors;
}

std::vector<FieldError> DomainPrefixedPathErrors(const std::string& field, std::string_view value) {
  std::vector<FieldError> errors;
  if (value.empty()) {
    errors.push_back({ErrorType::kRequired, field, BadValue::Omit(), ""});
    return errors;
  }
  const std::size_t slash = value.find('/');
  if (slash == std::string_view::npos || slash == 0 || slash + 1 == value.size()) {
    errors.push_back({ErrorType::kInvalid, field, BadValue::String(value),
                      "must be a domain-prefixed path (such as \"acme.io/foo\")"});
    return errors;
  }
  const std::string_view host = value.substr(0, slash);
  for (std::string& detail : Dns1123SubdomainErrors(host)) {
    errors.push_back({ErrorType::kInvalid, field, BadValue::String(host), std::move(detail)});
  }
  const std::string_view path = value.substr(slash + 1);
  if (!IsHttpPath(path)) {
    errors.push_back({ErrorType::kInvalid, field, BadValue::String(path),
                      "Invalid path (regex used for validation is '[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+')"});
  }
  return errors;
}

}  // namespace tjr::validate
