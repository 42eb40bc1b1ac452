#pragma once

#include <string>

#include "base/diagnostic.h"
#include "doc/node.h"
#include "doc/path.h"
#include "validate/field_error.h"

namespace tjr::validate {

/// Collects findings as Diagnostics carrying the upstream message.
class Report {
 public:
  /// Adds `error`, located at `at` (the node the error is about).
  void Add(const FieldError& error, const doc::Node* at);
  void Warn(std::string message, const doc::Node* at);
  /// A tjrender warning with its rule id (see MakeWarning).
  void Warn(std::string_view rule, std::string message, const doc::Node* at);
  void Append(Diagnostics more);
  /// Appends what `later` (a report that did not panic) collected, as if it
  /// had been added here, the blocking state included.
  void Merge(Report&& later);
  /// The webhook panicked (controller-runtime recovers and answers with this
  /// message alone): everything reported so far is replaced.
  void Panic(std::string message, const doc::Node* at);
  bool panicked() const { return panicked_; }
  /// An error of a type that stops the API server from running CEL rules
  /// was added (see CelMayRun in crd_rules.h).
  bool has_blocking_error() const { return blocking_; }

  Diagnostics& diagnostics() { return diagnostics_; }
  Diagnostics Take() { return std::move(diagnostics_); }

 private:
  Diagnostics diagnostics_;
  bool panicked_ = false;
  bool blocking_ = false;
};

/// The first of `a`, `b` that is known, for locations.
const doc::Node* Either(const doc::Node* a, const doc::Node* b);

}  // namespace tjr::validate
