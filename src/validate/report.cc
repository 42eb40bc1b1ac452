#include "validate/report.h"

namespace tjr::validate {

void Report::Add(const FieldError& error, const doc::Node* at) {
  Diagnostic d;
  d.severity = Severity::kError;
  if (at != nullptr) d.location = at->location();
  d.field_path = error.field;
  d.message = error.Error();
  d.rule = std::string(RuleIdOf(error.type));
  diagnostics_.push_back(std::move(d));
  // apiextensions-apiserver registry/customresource/strategy.go hasBlockingErr.
  switch (error.type) {
    case ErrorType::kNotSupported:
    case ErrorType::kRequired:
    case ErrorType::kTooLong:
    case ErrorType::kTooMany:
    case ErrorType::kTypeInvalid: blocking_ = true; break;
    default: break;
  }
}

void Report::Warn(std::string message, const doc::Node* at) {
  Diagnostic d;
  d.severity = Severity::kWarning;
  if (at != nullptr) d.location = at->location();
  d.message = std::move(message);
  diagnostics_.push_back(std::move(d));
}

void Report::Warn(std::string_view rule, std::string message, const doc::Node* at) {
  diagnostics_.push_back(MakeWarning(at != nullptr ? at->location() : Location{}, rule, std::move(message)));
}

void Report::Append(Diagnostics more) {
  for (Diagnostic& d : more) diagnostics_.push_back(std::move(d));
}

void Report::Merge(Report&& later) {
  Append(later.Take());
  blocking_ = blocking_ || later.blocking_;
}

void Report::Panic(std::string message, const doc::Node* at) {
  diagnostics_.clear();
  panicked_ = true;
  Diagnostic d;
  if (at != nullptr) d.location = at->location();
  d.message = std::move(message);
  diagnostics_.push_back(std::move(d));
}

const doc::Node* Either(const doc::Node* a, const doc::Node* b) { return a != nullptr ? a : b; }

}  // namespace tjr::validate
