#include "admission/container_formats.h"

#include "base/object_name.h"

namespace tjr::admission::formats {
namespace {

// RegexError(msg, fmt, examples...) of util/validation: the examples each
// quoted and followed by ", ", joined with " or " (hence Go's double space).
std::string RegexError(std::string_view message, std::string_view regex,
                       std::initializer_list<std::string_view> examples) {
  std::string out(message);
  if (examples.size() == 0) return out + " (regex used for validation is '" + std::string(regex) + "')";
  out += " (e.g. ";
  bool first = true;
  for (std::string_view example : examples) {
    if (!first) out += " or ";
    first = false;
    out += "'" + std::string(example) + "', ";
  }
  return out + "regex used for validation is '" + std::string(regex) + "')";
}

std::string MaxLen(std::size_t length) { return "must be no more than " + std::to_string(length) + " characters"; }

bool IsAlnum(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'); }

// `(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])`, whole string.
bool MatchesLabelKeyName(std::string_view name) {
  if (name.empty() || !IsAlnum(name.front()) || !IsAlnum(name.back())) return false;
  for (char c : name) {
    if (!IsAlnum(c) && c != '-' && c != '_' && c != '.') return false;
  }
  return true;
}

// hasChDirPrefix.
void ChDirPrefix(std::string_view value, std::vector<std::string>* out) {
  if (value == ".") {
    out->push_back("must not be '.'");
  } else if (value == "..") {
    out->push_back("must not be '..'");
  } else if (value.starts_with("..")) {
    out->push_back("must not start with '..'");
  }
}

constexpr std::string_view kLabelKeyMessage =
    "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric "
    "character";
constexpr std::string_view kLabelKeyRegex = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";

}  // namespace

std::string InclusiveRange(std::int64_t low, std::int64_t high) {
  return "must be between " + std::to_string(low) + " and " + std::to_string(high) + ", inclusive";
}

std::vector<std::string> Dns1123Label(std::string_view value) {
  std::vector<std::string> out;
  if (value.size() > 63) out.push_back(MaxLen(63));
  if (!MatchesDns1123Label(value)) {
    // A valid subdomain that is no label (length was checked) has dots.
    if (MatchesDns1123Subdomain(value)) {
      out.push_back("must not contain dots");
    } else {
      out.emplace_back(kDns1123LabelMessage);
    }
  }
  return out;
}

std::vector<std::string> Dns1123Subdomain(std::string_view value) {
  std::vector<std::string> out;
  if (value.size() > 253) out.push_back(MaxLen(253));
  if (!MatchesDns1123Subdomain(value)) out.emplace_back(kDns1123SubdomainMessage);
  return out;
}

std::vector<std::string> QualifiedName(std::string_view value) {
  std::vector<std::string> out;
  std::string_view name = value;
  const std::size_t slash = value.find('/');
  if (slash != std::string_view::npos) {
    if (value.find('/', slash + 1) != std::string_view::npos) {
      out.push_back("a valid label key " + RegexError(kLabelKeyMessage, kLabelKeyRegex, {"MyName", "my.name", "123-abc"}) +
                    " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')");
      return out;
    }
    const std::string_view prefix = value.substr(0, slash);
    name = value.substr(slash + 1);
    if (prefix.empty()) {
      out.push_back("prefix part must be non-empty");
    } else {
      for (const std::string& message : Dns1123Subdomain(prefix)) out.push_back("prefix part " + message);
    }
  }
  if (name.empty()) {
    out.push_back("name part must be non-empty");
  } else if (name.size() > 63) {
    out.push_back("name part " + MaxLen(63));
  }
  if (!MatchesLabelKeyName(name)) {
    out.push_back("name part " + RegexError(kLabelKeyMessage, kLabelKeyRegex, {"MyName", "my.name", "123-abc"}));
  }
  return out;
}

std::vector<std::string> PortNum(std::int64_t port) {
  if (port >= 1 && port <= 65535) return {};
  return {InclusiveRange(1, 65535)};
}

std::vector<std::string> PortName(std::string_view port) {
  std::vector<std::string> out;
  if (port.size() > 15) out.push_back(MaxLen(15));
  bool charset = !port.empty();
  bool letter = false;
  for (char c : port) {
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-')) charset = false;
    if (c >= 'a' && c <= 'z') letter = true;
  }
  if (!charset) out.push_back("must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)");
  if (!letter) out.push_back("must contain at least one letter (a-z)");
  if (port.find("--") != std::string_view::npos) out.push_back("must not contain consecutive hyphens");
  if (!port.empty() && (port.front() == '-' || port.back() == '-')) out.push_back("must not begin or end with a hyphen");
  return out;
}

std::vector<std::string> RelaxedEnvVarName(std::string_view value) {
  std::vector<std::string> out;
  if (value.empty()) out.push_back("environment variable name must be non-empty");
  // Go ranges over runes: any byte >= 0x80 starts a rune beyond MaxASCII
  // (or an invalid one, U+FFFD), which fails as well.
  for (unsigned char c : value) {
    if (c > 0x7e || c < 0x20 || c == '=') {
      out.push_back("a valid environment variable name must consist only of printable ASCII characters other than '='");
      break;
    }
  }
  return out;
}

std::vector<std::string> EnvVarName(std::string_view value) {
  std::vector<std::string> out;
  bool matches = !value.empty() && !(value.front() >= '0' && value.front() <= '9');
  for (char c : value) {
    if (!IsAlnum(c) && c != '-' && c != '.' && c != '_') matches = false;
  }
  if (!matches) {
    out.push_back(RegexError("a valid environment variable name must consist of alphabetic characters, digits, '_', "
                             "'-', or '.', and must not start with a digit",
                             "[-._a-zA-Z][-._a-zA-Z0-9]*", {"my.env-name", "MY_ENV.NAME", "MyEnvName1"}));
  }
  ChDirPrefix(value, &out);
  return out;
}

std::vector<std::string> ConfigMapKey(std::string_view value) {
  std::vector<std::string> out;
  if (value.size() > 253) out.push_back(MaxLen(253));
  bool matches = !value.empty();
  for (char c : value) {
    if (!IsAlnum(c) && c != '-' && c != '.' && c != '_') matches = false;
  }
  if (!matches) {
    out.push_back(RegexError("a valid config key must consist of alphanumeric characters, '-', '_' or '.'",
                             "[-._a-zA-Z0-9]+", {"key.name", "KEY_NAME", "key-name"}));
  }
  ChDirPrefix(value, &out);
  return out;
}

std::vector<std::string> HttpHeaderName(std::string_view value) {
  bool matches = !value.empty();
  for (char c : value) {
    if (!IsAlnum(c) && c != '-') matches = false;
  }
  if (matches) return {};
  return {RegexError("a valid HTTP header must consist of alphanumeric characters or '-'", "[-A-Za-z0-9]+",
                     {"X-Header-Name"})};
}

std::vector<std::string> UnixId(std::int64_t id) {
  if (id >= 0 && id <= 0xffffffffLL) return {};
  return {InclusiveRange(0, 0xffffffffLL)};
}

}  // namespace tjr::admission::formats
