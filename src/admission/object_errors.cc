#include "admission/object_errors.h"

namespace tjr::admission {

Path Path::Child(std::string_view name) const {
  Path out;
  out.text_.reserve(text_.size() + 1 + name.size());
  out.text_ = text_;
  if (!out.text_.empty()) out.text_ += '.';
  out.text_ += name;
  return out;
}

Path Path::Index(std::size_t index) const {
  Path out = *this;
  out.text_ += '[';
  out.text_ += std::to_string(index);
  out.text_ += ']';
  return out;
}

Path Path::Key(std::string_view key) const {
  Path out = *this;
  out.text_ += '[';
  out.text_ += key;
  out.text_ += ']';
  return out;
}

void ObjectErrors::Add(std::string_view rule, validate::FieldError error,
                       std::initializer_list<const doc::Node*> candidates) {
  const doc::Node* at = nullptr;
  for (const doc::Node* candidate : candidates) {
    if (candidate != nullptr && candidate->location().known()) {
      at = candidate;
      break;
    }
  }
  errors_.push_back(ObjectError{std::string(rule), std::move(error), at, {}});
}

}  // namespace tjr::admission
