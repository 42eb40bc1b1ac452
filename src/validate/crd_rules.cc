#include "validate/crd_rules.h"

#include <algorithm>
#include <regex>

#include "gocompat/utf8.h"
#include "json/json.h"
#include "validate/go_json.h"

namespace tjr::validate {
namespace {

std::int64_t CodePoints(std::string_view text) {
  std::int64_t count = 0;
  while (!text.empty()) {
    text.remove_prefix(std::max<std::size_t>(gocompat::DecodeRune(text).size, 1));
    ++count;
  }
  return count;
}

bool Absent(const doc::Node* node) { return node == nullptr || node->is_null(); }

std::string FieldChild(const std::string& field, std::string_view key) {
  return field.empty() ? std::string(key) : field + "." + std::string(key);
}

bool Digits(std::string_view text) {
  return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// Go's time.Parse("2006-01-02", text): four-digit year, month 01-12, a day
// that exists in that month.
bool IsDate(std::string_view text) {
  if (text.size() != 10 || text[4] != '-' || text[7] != '-') return false;
  if (!Digits(text.substr(0, 4)) || !Digits(text.substr(5, 2)) || !Digits(text.substr(8, 2))) return false;
  const int year = std::stoi(std::string(text.substr(0, 4)));
  const int month = std::stoi(std::string(text.substr(5, 2)));
  const int day = std::stoi(std::string(text.substr(8, 2)));
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (month < 1 || month > 12 || day < 1) return false;
  const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  return day <= kDays[month - 1] + (month == 2 && leap ? 1 : 0);
}

// kube-openapi strfmt.IsDateTime (pkg/validation/strfmt/time.go): the text
// lowercased and split at every "t", a date before the first, and
// hh:mm:ss(.frac)?(z|+hh:mm) after it with hh <= 23, mm, ss <= 59.
bool IsDateTime(std::string_view text) {
  if (text.size() < 4) return false;
  std::string lower(text);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; });
  const std::size_t first = lower.find('t');
  if (first == std::string::npos || !IsDate(std::string_view(lower).substr(0, first))) return false;
  const std::size_t second = lower.find('t', first + 1);
  const std::string time = lower.substr(first + 1, second == std::string::npos ? second : second - first - 1);
  static const std::regex kTime(R"(^([0-9]{2}):([0-9]{2}):([0-9]{2})(.[0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))$)");
  std::smatch match;
  if (!std::regex_search(time, match, kTime)) return false;
  return match[1].str() <= "23" && match[2].str() <= "59" && match[3].str() <= "59";
}

// Walks the document beside the schema paths the table reaches, with the
// stored object's correlated node for transition rules (struct fields and
// map values by key, list-map items by their key fields; nothing through
// other lists, as CEL correlation does).
class Walker {
 public:
  Walker(const CrdRules& rules, DuplicateStyle style, std::string_view release_tag, Report* report)
      : rules_(rules), style_(style), release_tag_(release_tag), report_(report) {}

  enum class Pass { kPrune, kOpenApi, kLists, kCel };

  void Run(Pass pass, const doc::Node& node, const doc::Node* old) {
    pass_ = pass;
    Visit(node, old, "", "");
  }

 private:
  // The schema path of a mapping's child: a struct field, else a map value.
  std::string ChildSchema(const std::string& schema, std::string_view key) const {
    std::string field = schema.empty() ? std::string(key) : schema + "." + std::string(key);
    if (rules_.Reaches(field)) return field;
    std::string value = schema + "{*}";
    if (rules_.Reaches(value)) return value;
    return {};
  }

  static const doc::Node* MatchListItem(const doc::Node& item, const doc::Node* old_list,
                                        const std::vector<std::string>& keys) {
    if (old_list == nullptr || !old_list->is_sequence() || !item.is_mapping() || keys.empty()) return nullptr;
    for (const doc::Node& candidate : old_list->items()) {
      if (!candidate.is_mapping()) continue;
      bool same = true;
      for (const std::string& key : keys) {
        const doc::Node* a = item.Find(key);
        const doc::Node* b = candidate.Find(key);
        if (Absent(a) != Absent(b) || (!Absent(a) && *a != *b)) same = false;
      }
      if (same) return &candidate;
    }
    return nullptr;
  }

  void Visit(const doc::Node& node, const doc::Node* old, const std::string& schema, const std::string& field) {
    if (node.is_null()) return;
    const NodeRules* rules = rules_.Find(schema);
    if (rules != nullptr) {
      switch (pass_) {
        case Pass::kPrune: Prune(node, *rules, field); break;
        case Pass::kOpenApi: break;  // after the children, below
        case Pass::kLists: Lists(node, *rules, field); break;
        case Pass::kCel: Cel(node, old, *rules, schema, field); break;
      }
    }
    VisitChildren(node, old, schema, field, rules);
    // kube-openapi validates an object's properties before its `required`
    // and a list's items before MinItems/MaxItems.
    if (rules != nullptr && pass_ == Pass::kOpenApi) OpenApi(node, *rules, field);
  }

  void VisitChildren(const doc::Node& node, const doc::Node* old, const std::string& schema, const std::string& field,
                     const NodeRules* rules) {
    if (node.is_mapping()) {
      const bool is_map = !schema.empty() ? rules_.Reaches(schema + "{*}") : false;
      for (const doc::Field& child : node.fields()) {
        const std::string child_schema = ChildSchema(schema, child.key);
        if (child_schema.empty()) continue;
        const doc::Node* old_child = old != nullptr && old->is_mapping() ? old->Find(child.key) : nullptr;
        const std::string child_field =
            is_map && child_schema == schema + "{*}" ? field + "[" + child.key + "]" : FieldChild(field, child.key);
        Visit(child.value, old_child, child_schema, child_field);
      }
    } else if (node.is_sequence()) {
      const std::string item_schema = schema + "[*]";
      if (!rules_.Reaches(item_schema)) return;
      const bool keyed = rules != nullptr && rules->list_type == "map";
      const std::vector<doc::Node>& items = node.items();
      for (std::size_t i = 0; i < items.size(); ++i) {
        const doc::Node* old_item = keyed ? MatchListItem(items[i], old, rules->list_map_keys) : nullptr;
        Visit(items[i], old_item, item_schema, field + "[" + std::to_string(i) + "]");
      }
    }
  }

  void Prune(const doc::Node& node, const NodeRules& rules, const std::string& field) {
    if (!node.is_mapping() || rules.properties.empty() || field.empty()) return;
    for (const doc::Field& child : node.fields()) {
      if (std::binary_search(rules.properties.begin(), rules.properties.end(), child.key)) continue;
      if (field == "spec" && (child.key == "podTemplateOverrides" || child.key == "labels" ||
                              child.key == "annotations")) {
        continue;  // removed in v2.2.0: an error of its own (removed_api.cc)
      }
      const std::string path = FieldChild(field, child.key);
      report_->Warn("[" + std::string(kRuleFieldPruned) + "] unknown field \"" + path +
                        "\": the Trainer " + std::string(release_tag_) +
                        " TrainJob schema has no such field, so the API server drops it without an error "
                        "(kubectl only warns) and it has no effect",
                    &child.value);
    }
  }

  void OpenApi(const doc::Node& node, const NodeRules& rules, const std::string& field) {
    if (node.is_string()) {
      const std::int64_t length = CodePoints(node.string_value());
      if (rules.max_length && length > *rules.max_length) {
        const std::string unit = *rules.max_length == 1 ? " byte" : " bytes";
        report_->Add({ErrorType::kTooLong, field, BadValue::Omit(),
                      "may not be more than " + std::to_string(*rules.max_length) + unit},
                     &node);
      }
      if (rules.min_length && length < *rules.min_length) {
        report_->Add({ErrorType::kInvalid, field, BadValue::String(node.string_value()),
                      field + " in body should be at least " + std::to_string(*rules.min_length) + " chars long"},
                     &node);
      }
      if (rules.format == "date-time" && !IsDateTime(node.string_value())) {
        // errors.InvalidType -> field.TypeInvalid, printed as "Invalid value".
        report_->Add({ErrorType::kInvalid, field, BadValue::String(node.string_value()),
                      field + " in body must be of type date-time: " + GoQuote(node.string_value())},
                     &node);
      }
    }
    if (node.is_int()) {
      const std::int64_t value = node.int_value();
      if (rules.maximum && value > *rules.maximum) {
        report_->Add({ErrorType::kInvalid, field, BadValue::Int(value),
                      field + " in body should be less than or equal to " + std::to_string(*rules.maximum)},
                     &node);
      }
      if (rules.minimum && value < *rules.minimum) {
        report_->Add({ErrorType::kInvalid, field, BadValue::Int(value),
                      field + " in body should be greater than or equal to " + std::to_string(*rules.minimum)},
                     &node);
      }
    }
    if (node.is_sequence()) {
      const auto size = static_cast<std::int64_t>(node.size());
      if (rules.max_items && size > *rules.max_items) {
        const std::string unit = *rules.max_items == 1 ? " item" : " items";
        report_->Add({ErrorType::kTooMany, field, BadValue::Int(size),
                      "must have at most " + std::to_string(*rules.max_items) + unit},
                     &node);
      }
      if (rules.min_items && size < *rules.min_items) {
        report_->Add({ErrorType::kInvalid, field, BadValue::Int(size),
                      field + " in body should have at least " + std::to_string(*rules.min_items) + " items"},
                     &node);
      }
    }
    if (node.is_mapping()) {
      for (const std::string& key : rules.required) {
        if (Absent(node.Find(key))) {
          report_->Add({ErrorType::kRequired, FieldChild(field, key), BadValue::Omit(), ""}, &node);
        }
      }
    }
  }

  // The map[string]interface{} of an item's key fields, as the API server
  // prints it for a Duplicate value.
  std::string KeyText(const doc::Node& item, const std::vector<std::string>& keys) const {
    std::vector<std::string> sorted = keys;
    std::sort(sorted.begin(), sorted.end());
    if (style_ == DuplicateStyle::kJson) {
      doc::Node map = doc::Node::Mapping();
      for (const std::string& key : sorted) {
        if (const doc::Node* value = item.Find(key); value != nullptr) map.Set(key, *value);
      }
      return WriteOrdered(map);
    }
    std::string out = "map[string]interface {}{";
    bool first = true;
    for (const std::string& key : sorted) {
      const doc::Node* value = item.Find(key);
      if (value == nullptr) continue;
      if (!first) out += ", ";
      first = false;
      out += GoQuote(key) + ":";
      out += value->is_string() ? GoQuote(value->string_value()) : json::Write(*value, false);
    }
    return out + "}";
  }

  // validateListMap/validateListSet: the second appearance of a key is
  // reported, later ones are not.
  void Lists(const doc::Node& node, const NodeRules& rules, const std::string& field) {
    if (!node.is_sequence() || rules.list_type.empty() || node.size() < 2) return;
    const std::vector<doc::Node>& items = node.items();
    const bool keyed = rules.list_type == "map";
    auto same = [&](const doc::Node& a, const doc::Node& b) {
      if (!keyed) return a == b;
      for (const std::string& key : rules.list_map_keys) {
        const doc::Node* x = a.is_mapping() ? a.Find(key) : nullptr;
        const doc::Node* y = b.is_mapping() ? b.Find(key) : nullptr;
        if ((x == nullptr) != (y == nullptr) || (x != nullptr && *x != *y)) return false;
      }
      return true;
    };
    for (const doc::Node& item : items) {
      if (keyed && !item.is_mapping()) return;  // a type error upstream
    }
    for (std::size_t i = 0; i < items.size(); ++i) {
      std::size_t earlier = 0;
      for (std::size_t j = 0; j < i; ++j) earlier += same(items[i], items[j]) ? 1 : 0;
      if (earlier != 1) continue;
      const BadValue value = keyed ? BadValue::Json(KeyText(items[i], rules.list_map_keys))
                             : items[i].is_string() ? BadValue::String(items[i].string_value())
                                                    : BadValue::Json(WriteOrdered(items[i]));
      report_->Add({ErrorType::kDuplicate, field + "[" + std::to_string(i) + "]", value, ""}, &items[i]);
    }
  }

  // CEL equality: lists of type map or set ignore order.
  bool Equal(const doc::Node& a, const doc::Node& b, const std::string& schema) const {
    if (a.is_int() && b.is_float()) return static_cast<double>(a.int_value()) == b.float_value();
    if (a.is_float() && b.is_int()) return a.float_value() == static_cast<double>(b.int_value());
    if (a.kind() != b.kind()) return false;
    if (a.is_mapping()) {
      if (a.size() != b.size()) return false;
      for (const doc::Field& child : a.fields()) {
        const doc::Node* other = b.Find(child.key);
        if (other == nullptr) return false;
        std::string child_schema = ChildSchema(schema, child.key);
        if (!Equal(child.value, *other, child_schema)) return false;
      }
      return true;
    }
    if (a.is_sequence()) {
      if (a.size() != b.size()) return false;
      const NodeRules* rules = rules_.Find(schema);
      const bool unordered = rules != nullptr && !rules->list_type.empty();
      const std::string item_schema = schema + "[*]";
      for (std::size_t i = 0; i < a.size(); ++i) {
        if (!unordered) {
          if (!Equal(a.items()[i], b.items()[i], item_schema)) return false;
          continue;
        }
        bool found = false;
        for (const doc::Node& candidate : b.items()) {
          if (Equal(a.items()[i], candidate, item_schema)) found = true;
        }
        if (!found) return false;
      }
      return true;
    }
    return a == b;
  }

  void Cel(const doc::Node& node, const doc::Node* old, const NodeRules& rules, const std::string& schema,
           const std::string& field) {
    const std::string type = rules.type.empty() ? "object" : rules.type;
    for (const CelRule& cel : rules.cel) {
      bool ok = true;
      switch (cel.form) {
        case CelRule::Form::kImmutable:
          // A transition rule runs only when the stored object has the value.
          ok = Absent(old) || Equal(node, *old, schema);
          break;
        case CelRule::Form::kEmptyOrMatches:
          ok = !node.is_string() || node.string_value().empty() ||
               (cel.regex == nullptr || std::regex_search(node.string_value(), *cel.regex));
          break;
        case CelRule::Form::kIn:
          ok = !node.is_string() ||
               std::find(cel.values.begin(), cel.values.end(), node.string_value()) != cel.values.end();
          break;
        case CelRule::Form::kAtLeast: ok = !node.is_int() || node.int_value() >= cel.bound; break;
        case CelRule::Form::kNameMatches:
        case CelRule::Form::kNameSizeAtMost: {
          const doc::Node* metadata = node.Find("metadata");
          const doc::Node* name = metadata != nullptr ? metadata->Find("name") : nullptr;
          if (name == nullptr || !name->is_string()) break;
          ok = cel.form == CelRule::Form::kNameMatches ? (cel.regex == nullptr || std::regex_search(name->string_value(), *cel.regex))
                                                       : CodePoints(name->string_value()) <= cel.bound;
          if (!ok) {
            report_->Add({ErrorType::kInvalid, field.empty() ? "<nil>" : field, BadValue::String(type), cel.message},
                         name);
            ok = true;
          }
          break;
        }
      }
      if (!ok) {
        report_->Add({ErrorType::kInvalid, field.empty() ? "<nil>" : field, BadValue::String(type), cel.message},
                     &node);
      }
    }
  }

  const CrdRules& rules_;
  DuplicateStyle style_;
  std::string_view release_tag_;
  Report* report_;
  Pass pass_ = Pass::kOpenApi;
};

}  // namespace

void CheckCrdRules(const CrdRules& rules, const doc::Node& trainjob, const doc::Node* old, DuplicateStyle style,
                   std::string_view release_tag, Report* report) {
  Walker walker(rules, style, release_tag, report);
  walker.Run(Walker::Pass::kPrune, trainjob, nullptr);
  walker.Run(Walker::Pass::kOpenApi, trainjob, nullptr);
  walker.Run(Walker::Pass::kLists, trainjob, nullptr);
  walker.Run(Walker::Pass::kCel, trainjob, old);
}

}  // namespace tjr::validate
