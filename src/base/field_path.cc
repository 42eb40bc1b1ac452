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

FieldPath FieldPath::Extend(Step step) const {
  FieldPath out;
  out.tail_ = std::make_shared<const Link>(Link{std::move(step), tail_});
  return out;
}

FieldPath FieldPath::Field(std::string_view name) const {
  Step step;
  step.type = Step::Type::kField;
  step.field = std::string(name);
  return Extend(std::move(step));
}

FieldPath FieldPath::Index(std::size_t index) const {
  Step step;
  step.type = Step::Type::kIndex;
  step.index = index;
  return Extend(std::move(step));
}

FieldPath FieldPath::Keyed(std::size_t index, std::string_view key_name,
                           std::string_view key_value) const {
  Step step;
  step.type = Step::Type::kIndex;
  step.index = index;
  step.key_name = std::string(key_name);
  step.key_value = std::string(key_value);
  return Extend(std::move(step));
}

std::vector<FieldPath::Step> FieldPath::steps() const {
  std::vector<Step> out;
  for (const Link* link = tail_.get(); link != nullptr; link = link->parent.get()) {
    out.push_back(link->step);
  }
  return {out.rbegin(), out.rend()};
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

std::string FieldPath::Upstream() const { return Render(steps(), false); }
std::string FieldPath::Keyed() const { return Render(steps(), true); }

FieldPath PathFrame::Build() const {
  if (parent_ == nullptr) return {};
  FieldPath up = parent_->Build();
  return is_index_ ? up.Index(index_) : up.Field(field_);
}

}  // namespace tjr
