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
    case ErrorType::kNotFound: return "Not found";
  }
  return "Invalid value";
}

}  // namespace

std::string_view RuleIdOf(ErrorType type) {
  switch (type) {
    case ErrorType::kInvalid:
    case ErrorType::kTypeInvalid: return "upstream/invalid-value";
    case ErrorType::kRequired: return "upstream/required-value";
    case ErrorType::kForbidden: return "upstream/forbidden";
    case ErrorType::kDuplicate: return "upstream/duplicate-value";
    case ErrorType::kInternal: return "upstream/internal-error";
    case ErrorType::kNotSupported: return "upstream/unsupported-value";
    case ErrorType::kTooLong: return "upstream/too-long";
    case ErrorType::kTooMany: return "upstream/too-many";
    case ErrorType::kNotFound: return "upstream/not-found";
  }
  return "upstream/invalid-value";
}

BadValue BadValue::String(std::string_view value) { return {Form::kQuoted, gocompat::Quote(value)}; }


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
