#pragma once

#include <string>
#include <utility>
#include <variant>

namespace tjr::smp {

/// A value or an upstream error message. Helpers that do not know where in
/// the documents they are return this; the merge code turns the message into
/// a Diagnostic with the field path and the patch location.
template <class T>
class [[nodiscard]] Outcome {
 public:
  Outcome(T value) : state_(std::in_place_index<0>, std::move(value)) {}  // NOLINT: implicit
  static Outcome Fail(std::string message) {
    Outcome out;
    out.state_.template emplace<1>(std::move(message));
    return out;
  }

  bool ok() const { return state_.index() == 0; }
  const T& value() const& { return std::get<0>(state_); }
  T&& value() && { return std::get<0>(std::move(state_)); }
  const std::string& error() const { return std::get<1>(state_); }

 private:
  Outcome() = default;
  std::variant<T, std::string> state_;
};

}  // namespace tjr::smp
