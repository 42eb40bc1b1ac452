#include "yaml/scalar_resolver.h"

#include <cmath>
#include <initializer_list>
#include <limits>
#include <optional>
#include <utility>

#include "doc/number_format.h"
#include "gocompat/strconv.h"
#include "gocompat/utf8.h"
#include "yaml/go_parse.h"
#include "yaml/timestamp.h"

namespace tjr::yaml::input {
namespace {

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

struct TagName {
  static constexpr std::string_view kStr = "tag:yaml.org,2002:str";
  static constexpr std::string_view kInt = "tag:yaml.org,2002:int";
  static constexpr std::string_view kFloat = "tag:yaml.org,2002:float";
  static constexpr std::string_view kBool = "tag:yaml.org,2002:bool";
  static constexpr std::string_view kNull = "tag:yaml.org,2002:null";
  static constexpr std::string_view kTimestamp = "tag:yaml.org,2002:timestamp";
  static constexpr std::string_view kBinary = "tag:yaml.org,2002:binary";
  static constexpr std::string_view kMerge = "tag:yaml.org,2002:merge";
};

std::string ShortTag(std::string_view tag) {
  if (tag.substr(0, kYamlTagPrefix.size()) == kYamlTagPrefix) {
    return "!!" + std::string(tag.substr(kYamlTagPrefix.size()));
  }
  return std::string(tag);
}

// The tags goyaml's resolve() knows; others leave the text a string.
bool IsResolvableTag(std::string_view tag) {
  return tag.empty() || tag == TagName::kStr || tag == TagName::kBool || tag == TagName::kInt ||
         tag == TagName::kFloat || tag == TagName::kNull || tag == TagName::kTimestamp;
}

// resolve.go's resolveTable: the first byte decides which forms to try.
char Hint(std::string_view in) {
  if (in.empty()) return 'N';
  switch (in[0]) {
    case '+': case '-': return 'S';
    case '.': return '.';
    case 'y': case 'Y': case 'n': case 'N': case 't': case 'T': case 'f': case 'F':
    case 'o': case 'O': case '~':
      return 'M';
    default: return IsDigit(in[0]) ? 'D' : 0;
  }
}

// resolve.go's resolveMap, with the tag each entry resolves to.
bool LookupFixed(std::string_view in, std::string_view* tag, GoScalar* out) {
  auto set_bool = [&](bool value) {
    *tag = TagName::kBool;
    out->type = GoScalar::Type::kBool;
    out->bool_value = value;
    return true;
  };
  auto set_float = [&](double value) {
    *tag = TagName::kFloat;
    out->type = GoScalar::Type::kFloat;
    out->float_value = value;
    return true;
  };
  auto any_of = [&](std::initializer_list<std::string_view> spellings) {
    for (std::string_view spelling : spellings) {
      if (in == spelling) return true;
    }
    return false;
  };
  if (in.size() > 6) return false;
  if (in.empty() || in == "~" || any_of({"null", "Null", "NULL"})) {
    *tag = TagName::kNull;
    out->type = GoScalar::Type::kNull;
    return true;
  }
  switch (in[0]) {
    case 'y': case 'Y':
      if (any_of({"y", "Y", "yes", "Yes", "YES"})) return set_bool(true);
      return false;
    case 'n': case 'N':
      if (any_of({"n", "N", "no", "No", "NO"})) return set_bool(false);
      return false;
    case 't': case 'T':
      if (any_of({"true", "True", "TRUE"})) return set_bool(true);
      return false;
    case 'f': case 'F':
      if (any_of({"false", "False", "FALSE"})) return set_bool(false);
      return false;
    case 'o': case 'O':
      if (any_of({"on", "On", "ON"})) return set_bool(true);
      if (any_of({"off", "Off", "OFF"})) return set_bool(false);
      return false;
    case '.':
      if (any_of({".nan", ".NaN", ".NAN"})) return set_float(std::numeric_limits<double>::quiet_NaN());
      if (any_of({".inf", ".Inf", ".INF"})) return set_float(HUGE_VAL);
      return false;
    case '+':
      if (any_of({"+.inf", "+.Inf", "+.INF"})) return set_float(HUGE_VAL);
      return false;
    case '-':
      if (any_of({"-.inf", "-.Inf", "-.INF"})) return set_float(-HUGE_VAL);
      return false;
    case '<':
      if (in == "<<") {
        *tag = TagName::kMerge;
        out->type = GoScalar::Type::kString;
        out->string_value = "<<";
        return true;
      }
      return false;
    default:
      return false;
  }
}

// yamlStyleFloat: ^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$
bool IsYamlStyleFloat(std::string_view s) {
  std::size_t i = 0;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
  if (i < s.size() && s[i] == '.') {
    ++i;
    const std::size_t start = i;
    while (i < s.size() && IsDigit(s[i])) ++i;
    if (i == start) return false;
  } else {
    const std::size_t start = i;
    while (i < s.size() && IsDigit(s[i])) ++i;
    if (i == start) return false;
    if (i < s.size() && s[i] == '.') {
      ++i;
      while (i < s.size() && IsDigit(s[i])) ++i;
    }
  }
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    const std::size_t start = i;
    while (i < s.size() && IsDigit(s[i])) ++i;
    if (i == start) return false;
  }
  return i == s.size();
}

void SetInt(std::int64_t v, GoScalar* out) {
  out->type = GoScalar::Type::kInt;
  out->int_value = v;
}

void SetUint(std::uint64_t v, GoScalar* out) {
  out->type = GoScalar::Type::kUint;
  out->uint_value = v;
}

void SetFloat(double v, GoScalar* out) {
  out->type = GoScalar::Type::kFloat;
  out->float_value = v;
}

// The numeric forms tried for text starting with a digit or sign.
bool ResolveNumber(std::string_view in, std::string_view* tag, GoScalar* out) {
  std::string plain_storage;
  std::string_view plain = in;
  if (in.find('_') != std::string_view::npos) {
    plain_storage.reserve(in.size());
    for (char c : in) {
      if (c != '_') plain_storage += c;
    }
    plain = plain_storage;
  }
  if (auto i = gocompat::ParseInt(plain, 0)) {
    *tag = TagName::kInt;
    SetInt(*i, out);
    return true;
  }
  if (auto u = gocompat::ParseUint(plain, 0)) {
    *tag = TagName::kInt;
    SetUint(*u, out);
    return true;
  }
  if (IsYamlStyleFloat(plain)) {
    if (auto f = gocompat::ParseDecimalFloat(plain)) {
      *tag = TagName::kFloat;
      SetFloat(*f, out);
      return true;
    }
  }
  if (plain.substr(0, 2) == "0b") {
    if (auto i = gocompat::ParseInt(plain.substr(2), 2)) {
      *tag = TagName::kInt;
      SetInt(*i, out);
      return true;
    }
    if (auto u = gocompat::ParseUint(plain.substr(2), 2)) {
      *tag = TagName::kInt;
      SetUint(*u, out);
      return true;
    }
  } else if (plain.substr(0, 3) == "-0b") {
    if (auto i = gocompat::ParseInt("-" + std::string(plain.substr(3)), 2)) {
      *tag = TagName::kInt;
      SetInt(*i, out);
      return true;
    }
  }
  return false;
}

// resolve(tag, in) without its deferred tag check.
std::string_view ResolveUnchecked(std::string_view tag, std::string_view in, GoScalar* out) {
  const char hint = Hint(in);
  if (hint != 0 && tag != TagName::kStr && tag != TagName::kBinary) {
    std::string_view rtag;
    if (LookupFixed(in, &rtag, out)) return rtag;
    switch (hint) {
      case '.':
        if (auto f = gocompat::ParseDecimalFloatUnderscored(in)) {
          SetFloat(*f, out);
          return TagName::kFloat;
        }
        break;
      case 'D':
      case 'S':
        // Timestamps are tried first, but only an explicit !!timestamp can
        // tell: untagged, a timestamp is kept as its text anyway.
        if (tag == TagName::kTimestamp && detail::IsYamlTimestamp(in)) {
          out->type = GoScalar::Type::kString;
          out->string_value = std::string(in);
          return TagName::kTimestamp;
        }
        if (ResolveNumber(in, &rtag, out)) return rtag;
        break;
      default:
        break;
    }
  }
  out->type = GoScalar::Type::kString;
  out->string_value = std::string(in);
  return TagName::kStr;
}

}  // namespace

std::size_t FindEscapeUnknownToGoyaml(std::string_view raw) {
  for (std::size_t i = raw.find('\\'); i != std::string_view::npos && i + 1 < raw.size();
       i = raw.find('\\', i + 2)) {
    if (raw[i + 1] == '/') return i;
  }
  return std::string_view::npos;
}

bool IsImplicit(const ScalarInput& scalar) {
  return (scalar.tag.empty() && scalar.plain) || scalar.tag == "!";
}

bool IsMergeKey(const ScalarInput& scalar) {
  return scalar.value == "<<" && (IsImplicit(scalar) || scalar.tag == TagName::kMerge);
}

bool ResolveScalar(const ScalarInput& scalar, GoScalar* out, std::string* error) {
  if (scalar.tag.empty() && !IsImplicit(scalar)) {
    out->type = GoScalar::Type::kString;
    out->string_value = std::string(scalar.value);
    return true;
  }
  if (!IsResolvableTag(scalar.tag)) {
    out->type = GoScalar::Type::kString;
    if (scalar.tag == TagName::kBinary) {
      std::optional<std::string> data = DecodeBase64(scalar.value);
      if (!data) {
        *error = "!!binary value contains invalid base64 data";
        return false;
      }
      // encoding/json later replaces what is not UTF-8.
      out->string_value = gocompat::CoerceToValidUtf8(*data);
    } else {
      out->string_value = std::string(scalar.value);
    }
    return true;
  }
  const std::string_view rtag = ResolveUnchecked(scalar.tag, scalar.value, out);
  const std::string_view tag = scalar.tag;
  if (tag.empty() || tag == rtag || tag == TagName::kStr) return true;
  if (tag == TagName::kFloat && rtag == TagName::kInt && out->type == GoScalar::Type::kInt) {
    SetFloat(static_cast<double>(out->int_value), out);
    return true;
  }
  *error = "cannot decode " + ShortTag(rtag) + " `" + std::string(scalar.value) + "` as a " +
           ShortTag(tag);
  return false;
}

bool ToKeyString(GoScalar&& key, std::string* out, std::string* error) {
  switch (key.type) {
    case GoScalar::Type::kString: *out = std::move(key.string_value); return true;
    case GoScalar::Type::kInt: *out = std::to_string(key.int_value); return true;
    case GoScalar::Type::kBool: *out = key.bool_value ? "true" : "false"; return true;
    case GoScalar::Type::kFloat: {
      std::string s = FormatFloat32G(key.float_value);
      if (s == "+Inf") s = ".inf";
      if (s == "-Inf") s = "-.inf";
      if (s == "NaN") s = ".nan";
      *out = std::move(s);
      return true;
    }
    case GoScalar::Type::kUint:
      *error = "unsupported map key of type: uint64, key: 0x" + [&] {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%llx", static_cast<unsigned long long>(key.uint_value));
        return std::string(buf);
      }();
      return false;
    case GoScalar::Type::kNull:
      *error = "unsupported map key of type: <nil>, key: <nil>";
      return false;
  }
  return false;
}

bool ToJsonValue(GoScalar&& scalar, Location at, std::string_view source_text, doc::Node* out,
                 std::string* error) {
  switch (scalar.type) {
    case GoScalar::Type::kNull: *out = doc::Node::Null(at); return true;
    case GoScalar::Type::kBool: *out = doc::Node::Bool(scalar.bool_value, at); return true;
    case GoScalar::Type::kString:
      *out = doc::Node::String(std::move(scalar.string_value), at);
      return true;
    case GoScalar::Type::kInt:
      *out = doc::Node::Int(scalar.int_value, at, std::string(source_text));
      return true;
    case GoScalar::Type::kUint:
      // Printed in full, it is past int64, so util/json reads a float64.
      *out = doc::Node::Float(static_cast<double>(scalar.uint_value), at, std::string(source_text));
      return true;
    case GoScalar::Type::kFloat: {
      const double v = scalar.float_value;
      if (std::isnan(v) || std::isinf(v)) {
        *error = std::string("json: unsupported value: ") +
                 (std::isnan(v) ? "NaN" : v > 0 ? "+Inf" : "-Inf");
        return false;
      }
      // encoding/json prints shortest digits (zero-padded in 'f' form);
      // util/json takes that text as an int64 when it can.
      if (std::optional<std::int64_t> i = gocompat::ParseInt(doc::FormatFloatJson(v), 10)) {
        *out = doc::Node::Int(*i, at, std::string(source_text));
      } else {
        *out = doc::Node::Float(v, at, std::string(source_text));
      }
      return true;
    }
  }
  return false;
}

}  // namespace tjr::yaml::input
