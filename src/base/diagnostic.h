#pragma once

#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "base/location.h"

namespace tjr {

enum class Severity { kError, kWarning, kNote };

/// What an error means for the exit code: a finding about valid input (a
/// refused merge, a validation error: exit 1) or input that could not be
/// used at all (unreadable, malformed, over a limit: exit 2).
enum class Category { kFinding, kInput };

/// One finding, as a value: library code returns these and only the CLI
/// prints them.
struct Diagnostic {
  Severity severity = Severity::kError;
  Location location;
  /// Upstream-form field path ("spec.template.spec.containers[0].env"), or
  /// empty when the finding is not about one field.
  std::string field_path;
  std::string message;
  Category category = Category::kFinding;
  /// A stable id for the kind of finding ("volume-two-sources"); empty for
  /// findings that take their id from RuleId() below.
  std::string rule;

  /// "FILE:LINE:COL: error: PATH: MESSAGE" (parts that are unknown are left out).
  std::string ToString() const;
};

/// The rule id of a finding, for reports and `--ignore` rules: `rule` when
/// set; else the "[id] " a tjrender warning's message starts with; else,
/// for the API server's and the webhook's field errors, "upstream/" plus
/// the field.ErrorType of the first error in the message
/// ("upstream/invalid-value", "upstream/required-value", "upstream/forbidden",
/// "upstream/duplicate-value", "upstream/unsupported-value",
/// "upstream/not-found", "upstream/too-long", "upstream/too-many",
/// "upstream/internal-error"); "upstream/error" or "upstream/warning" for
/// other findings; "input" for unusable input and "note" for notes.
std::string RuleId(const Diagnostic& diagnostic);

/// The message without the "[id] " prefix RuleId() reads the id from.
std::string MessageWithoutRule(const Diagnostic& diagnostic);

Diagnostic MakeError(Location location, std::string field_path, std::string message);
/// The same error, marked as unusable input (exit code 2).
Diagnostic AsInputError(Diagnostic diagnostic);

using Diagnostics = std::vector<Diagnostic>;

/// A value or the error that prevented it.
template <class T>
class [[nodiscard]] Result {
 public:
  Result(T value) : state_(std::move(value)) {}  // NOLINT: implicit by design
  Result(Diagnostic error) : state_(std::move(error)) {}  // NOLINT

  bool ok() const { return state_.index() == 0; }
  explicit operator bool() const { return ok(); }

  T& value() & { return std::get<0>(state_); }
  const T& value() const& { return std::get<0>(state_); }
  T&& value() && { return std::get<0>(std::move(state_)); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }

  const Diagnostic& error() const { return std::get<1>(state_); }
  Diagnostic&& take_error() { return std::get<1>(std::move(state_)); }

 private:
  std::variant<T, Diagnostic> state_;
};

struct Unit {};
using Status = Result<Unit>;
inline Status Ok() { return Unit{}; }

}  // namespace tjr
