#include "admission/container_checks.h"

#include "doc/path.h"
#include "gocompat/strconv.h"

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

FieldError NotSupported(const Path& path, BadValue value, std::initializer_list<std::string_view> supported) {
  std::string detail;
  for (std::string_view option : supported) {
    detail += detail.empty() ? "supported values: " : ", ";
    detail += BadValue::String(option).text;
  }
  return {ErrorType::kNotSupported, path.String(), std::move(value), std::move(detail)};
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
