#include "base/field_path.h"

namespace tjr {
namespace {

// Keys that would make a dotted path ambiguous are printed in brackets, as
// kubectl explain and JSONPath do: metadata.labels[app.kubernetes.io/name].
bool NeedsBrackets(std::string_view field) {
  if (field.empty()) return true;
  for (char c : field) {
    if (c == '.' || c == '[' || c == ']' || c == ' ') return true;
  }
  return false;
}

}  // namespace

FieldPath FieldPath::Field(std::string_view name) const {
  FieldPath out = *this;
  Step step;
  step.type = Step::Type::kField;
  step.field = std::string(name);
  out.steps_.push_back(std::move(step));
  return out;
}

FieldPath FieldPath::Index(std::size_t index) const {
  FieldPath out = *this;
  Step step;
  step.type = Step::Type::kIndex;
  step.index = index;
  out.steps_.push_back(std::move(step));
  return out;
}

FieldPath FieldPath::Keyed(std::size_t index, std::string_view key_name,
                           std::string_view key_value) const {
  FieldPath out = Index(index);
  out.steps_.back().key_name = std::string(key_name);
  out.steps_.back().key_value = std::string(key_value);
  return out;
}

static std::string Render(const std::vector<FieldPath::Step>& steps, bool keyed) {
  std::string out;
  for (const FieldPath::Step& step : steps) {
    if (step.type == FieldPath::Step::Type::kIndex) {
      out += '[';
      if (keyed && !step.key_name.empty()) {
        out += step.key_name + "=" + step.key_value;
      } else {
        out += std::to_string(step.index);
      }
      out += ']';
    } else if (NeedsBrackets(step.field)) {
      out += "[" + step.field + "]";
    } else {
      if (!out.empty()) out += '.';
      out += step.field;
    }
  }
  return out;
}

std::string FieldPath::Upstream() const { return Render(steps_, false); }
std::string FieldPath::Keyed() const { return Render(steps_, true); }

}  // namespace tjr
