#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "gocompat/strconv.h"

// apimachinery v0.34.1 field.Error and its aggregation (ToAggregate and
// utilerrors' aggregate.Error), the text every Kubernetes validation error
// is made of.
namespace tjr::validate {

/// field.ErrorType as printed by ErrorType.String() (kTypeInvalid prints as
/// "Invalid value" too).
enum class ErrorType {
  kInvalid,
  kTypeInvalid,
  kRequired,
  kForbidden,
  kDuplicate,
  kInternal,
  kNotSupported,
  kTooLong,
  kTooMany,
  kNotFound  ///< field.NotFound: "Not found: <value>"
};

/// A field.Error's BadValue, reduced to how ErrorBody prints it.
struct BadValue {
  enum class Form {
    kOmit,    ///< no value printed (Required, Forbidden, Internal)
    kPlain,   ///< int32/int64/float/bool: `%v`
    kQuoted,  ///< string: `%q`
    kText,    ///< already rendered (JSON of a complex value, Go syntax)
  };
  Form form = Form::kOmit;
  std::string text;

  static BadValue Omit() { return {}; }
  static BadValue Int(std::int64_t value) { return {Form::kPlain, std::to_string(value)}; }
  /// A float64 as `%v` prints it (the caller formats).
  static BadValue Plain(std::string text) { return {Form::kPlain, std::move(text)}; }
  static BadValue Bool(bool value) { return {Form::kPlain, value ? "true" : "false"}; }
  static BadValue String(std::string_view value);
  /// A value json.Marshal renders (`rendered` is that JSON).
  static BadValue Json(std::string rendered) { return {Form::kText, std::move(rendered)}; }
};

/// One field.Error.
struct FieldError {
  ErrorType type = ErrorType::kInvalid;
  /// field.Path.String(); "<nil>" for the root of a CRD object.
  std::string field;
  BadValue value;
  std::string detail;

  /// ErrorBody(): "Invalid value: <v>: <detail>", "Forbidden: <detail>"...
  std::string Body() const;
  /// Error(): "<field>: <body>".
  std::string Error() const;
};


/// The finding's rule id for reports and ignore rules: "upstream/" and the
/// type as ErrorType.String() prints it, in kebab case
/// ("upstream/invalid-value", "upstream/unsupported-value").
std::string_view RuleIdOf(ErrorType type);

/// field.ErrorList.ToAggregate().Error(): exact duplicates dropped (first
/// kept), one message as itself, several as "[m1, m2, ...]"; "" when empty.
std::string AggregateMessages(const std::vector<std::string>& messages);

}  // namespace tjr::validate
