#include "validate/field_error.h"

#include <set>

#include "gocompat/utf8.h"

namespace tjr::validate {
namespace {

std::string_view TypeName(ErrorType type) {
  switch (type) {
    case ErrorType::kInvalid:
    case ErrorType::kTypeInvalid: return "Invalid value";
    case ErrorType::kRequired: return "Required value";
    case ErrorType::kForbidden: return "Forbidden";
    case ErrorType::kDuplicate: return "Duplicate value";
    case ErrorType::kInternal: return "Internal error";
    case ErrorType::kNotSupported: return "Unsupported value";
    case ErrorType::kTooLong: return "Too long";
    case ErrorType::kTooMany: return "Too many";
  }
  return "Invalid value";
}

bool IsPrintable(char32_t rune) {
  if (rune < 0x20 || rune == 0x7F) return false;
  if (rune >= 0x80 && rune <= 0x9F) return false;
  return rune != 0xAD && rune != 0x2028 && rune != 0x2029 && rune != 0xFEFF;
}

void AppendHex(std::uint32_t value, int digits, std::string* out) {
  static constexpr char kHex[] = "0123456789abcdef";
  for (int shift = (digits - 1) * 4; shift >= 0; shift -= 4) out->push_back(kHex[(value >> shift) & 0xF]);
}

}  // namespace

BadValue BadValue::String(std::string_view value) { return {Form::kQuoted, GoQuote(value)}; }

std::string GoQuote(std::string_view value) {
  std::string out = "\"";
  while (!value.empty()) {
    gocompat::Rune rune = gocompat::DecodeRune(value);
    if (gocompat::IsInvalid(rune)) {
      out += "\\x";
      AppendHex(static_cast<unsigned char>(value[0]), 2, &out);
      value.remove_prefix(1);
      continue;
    }
    const char32_t c = rune.value;
    switch (c) {
      case '\a': out += "\\a"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      case '\v': out += "\\v"; break;
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      default:
        if (IsPrintable(c)) {
          out.append(value.substr(0, rune.size));
        } else if (c < 0x80) {
          out += "\\x";
          AppendHex(c, 2, &out);
        } else if (c < 0x10000) {
          out += "\\u";
          AppendHex(c, 4, &out);
        } else {
          out += "\\U";
          AppendHex(c, 8, &out);
        }
    }
    value.remove_prefix(rune.size);
  }
  out += "\"";
  return out;
}

std::string FieldError::Body() const {
  std::string body(TypeName(type));
  const bool shows_value = type != ErrorType::kRequired && type != ErrorType::kForbidden &&
                           type != ErrorType::kInternal && type != ErrorType::kTooLong &&
                           value.form != BadValue::Form::kOmit;
  if (shows_value) body += ": " + value.text;
  if (!detail.empty()) body += ": " + detail;
  return body;
}

std::string FieldError::Error() const { return field + ": " + Body(); }

std::string AggregateMessages(const std::vector<std::string>& messages) {
  std::set<std::string_view> seen;
  std::vector<std::string_view> kept;
  for (const std::string& message : messages) {
    if (seen.insert(message).second) kept.push_back(message);
  }
  if (kept.empty()) return "";
  if (kept.size() == 1) return std::string(kept[0]);
  std::string out = "[";
  for (std::size_t i = 0; i < kept.size(); ++i) {
    if (i > 0) out += ", ";
    out += kept[i];
  }
  return out + "]";
}

}  // namespace tjr::validate
