#include "admission/container_checks.h"

#include "doc/path.h"

namespace tjr::admission::containers {

using validate::BadValue;
using validate::ErrorType;
using validate::FieldError;

FieldError Required(const Path& path, std::string detail) {
  return {ErrorType::kRequired, path.String(), BadValue::Omit(), std::move(detail)};
}

FieldError Forbidden(const Path& path, std::string detail) {
  return {ErrorType::kForbidden, path.String(), BadValue::Omit(), std::move(detail)};
}

FieldError Invalid(const Path& path, BadValue value, std::string detail) {
  return {ErrorType::kInvalid, path.String(), std::move(value), std::move(detail)};
}

FieldError Duplicate(const Path& path, BadValue value) {
  return {ErrorType::kDuplicate, path.String(), std::move(value), ""};
}

FieldError NotFound(const Path& path, BadValue value) {
  return {ErrorType::kNotFound, path.String(), std::move(value), ""};
}

FieldError NotSupported(const Path& path, BadValue value, std::span<const std::string_view> supported) {
  std::string detail;
  for (std::string_view option : supported) {
    detail += detail.empty() ? "supported values: " : ", ";
    detail += BadValue::String(option).text;
  }
  return {ErrorType::kNotSupported, path.String(), std::move(value), std::move(detail)};
}

void ValidateLocalDescendingPath(const std::string& value, const Path& path, std::string_view rule, const doc::Node* at,
                                 ObjectErrors* errors) {
  if (value.starts_with("/")) errors->Add(rule, Invalid(path, BadValue::String(value), "must be a relative path"), at);
  // strings.Split(filepath.ToSlash(targetPath), "/"): one error at most.
  std::size_t start = 0;
  while (start <= value.size()) {
    std::size_t end = value.find('/', start);
    if (end == std::string::npos) end = value.size();
    if (value.compare(start, end - start, "..") == 0) {
      errors->Add(rule, Invalid(path, BadValue::String(value), "must not contain '..'"), at);
      break;
    }
    start = end + 1;
  }
}

std::string StringField(const doc::Node* node, std::string_view key) { return doc::StringAt(node, key); }

std::int64_t IntField(const doc::Node* node, std::string_view key) {
  const doc::Node* value = doc::At(node, key);
  return value != nullptr && value->is_int() ? value->int_value() : 0;
}

bool Has(const doc::Node* node, std::string_view key) { return doc::At(node, key) != nullptr; }

bool BoolField(const doc::Node* node, std::string_view key) {
  const doc::Node* value = doc::At(node, key);
  return value != nullptr && value->is_bool() && value->bool_value();
}

}  // namespace tjr::admission::containers
