#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "doc/node.h"
#include "validate/field_error.h"

// The field errors the API server (or a webhook) would answer for one
// rendered object, each with the node whose value is at fault, so that the
// finding can point at the TrainJob or runtime line that wrote it.
namespace tjr::admission {

/// apimachinery's field.Path: built by Child/Index/Key, printed by String()
/// as `spec.template.spec.containers[0].resources.requests[nvidia.com/gpu]`.
class Path {
 public:
  Path() = default;
  explicit Path(std::string_view root) : text_(root) {}

  Path Child(std::string_view name) const;
  Path Index(std::size_t index) const;
  /// A map key: `[key]`, as field.Path.Key prints it (no quoting).
  Path Key(std::string_view key) const;

  const std::string& String() const { return text_; }

 private:
  std::string text_;
};

/// One refusal of the object being admitted.
struct ObjectError {
  /// The catalogue id without its kind: "resources", "container-name"
  /// (rules.h); the report prefixes "rendered/<kind>/".
  std::string rule;
  validate::FieldError error;
  /// The node the error is about, its nearest written ancestor or nullptr
  /// (the finding is then located at the object that drove the rendering).
  const doc::Node* at = nullptr;
  /// When not empty, the whole text upstream answers for an error that is
  /// no field.Error (the JobSet webhook's fmt.Errorf, joined by errors.Join
  /// before v0.12.0); the report prints it in place of error.Error().
  std::string text;
};

/// The errors of one object, in the order upstream's validation appends them.
class ObjectErrors {
 public:
  /// `at`: the first of `candidates` that carries a location is kept, so a
  /// caller passes the offending node and then what encloses it.
  void Add(std::string_view rule, validate::FieldError error, std::initializer_list<const doc::Node*> candidates);
  void Add(std::string_view rule, validate::FieldError error, const doc::Node* at) { Add(rule, std::move(error), {at}); }
  /// An error that is only a text (ObjectError::text).
  void AddText(std::string_view rule, std::string text, std::initializer_list<const doc::Node*> candidates) {
    Add(rule, validate::FieldError{validate::ErrorType::kInternal, "", validate::BadValue::Omit(), text}, candidates);
    errors_.back().text = std::move(text);
  }

  bool empty() const { return errors_.empty(); }
  std::size_t size() const { return errors_.size(); }
  const std::vector<ObjectError>& errors() const { return errors_; }
  std::vector<ObjectError> Take() { return std::move(errors_); }

 private:
  std::vector<ObjectError> errors_;
};

}  // namespace tjr::admission
