#pragma once

#include <string>
#include <string_view>
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
  /// A stable id for the kind of finding ("volume-two-sources",
  /// "upstream/invalid-value"), set where the finding is made; empty for
  /// findings that take their id from RuleId() below.
  std::string rule;

  /// "FILE:LINE:COL: error: PATH: MESSAGE" (parts that are unknown are left out).
  std::string ToString() const;
};

/// The rule id of a finding, for reports and `--ignore` rules: `rule`,
/// which tjrender's own findings (MakeWarning, MakeNote), the field errors
/// of validate/ ("upstream/" and the field.ErrorType) and the other
/// upstream errors carry from where they are made; else "note" for notes,
/// "input" for unusable input, "upstream/error" or "upstream/warning". The
/// message is never read for it.
std::string RuleId(const Diagnostic& diagnostic);

/// The message without the "[rule] " prefix MakeWarning and MakeNote print.
std::string MessageWithoutRule(const Diagnostic& diagnostic);

Diagnostic MakeError(Location location, std::string field_path, std::string message);
/// A tjrender warning or note: `rule` is its id, and its text starts with
/// "[rule] " as printed (MessageWithoutRule() gives the rest).
Diagnostic MakeWarning(Location location, std::string_view rule, std::string message);
Diagnostic MakeNote(Location location, std::string_view rule, std::string message);
/// The same error, marked as unusable input (exit code 2).
Diagnostic AsInputError(Diagnostic diagnostic);

/// The rule id of an input over one of tjrender's limits (bytes of a file
/// or a document, nodes of a document).
inline constexpr char kRuleInputTooLarge[] = "input-too-large";

/// An input error (rule kRuleInputTooLarge) for an input over one of
/// tjrender's limits: `message` names the limit, its value and what the
/// input holds; the text that follows says what the cluster does with
/// objects that large.
Diagnostic MakeTooLarge(Location location, std::string field_path, std::string message);

using Diagnostics = std::vector<Diagnostic>;

/// Whether any of them is an error (warnings and notes are not).
bool HasErrors(const Diagnostics& diagnostics);

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
