#include "validate/crd_rules.h"

#include <algorithm>
#include <regex>

#include "gocompat/utf8.h"
#include "json/json.h"
#include "validate/embedded_crd_rules.h"
#include "validate/go_json.h"

namespace tjr::validate {
namespace {

Diagnostic TableError(std::string_view source, const std::string& message) {
  return AsInputError(MakeError(Location{}, "", std::string(source) + ": " + message));
}

std::optional<std::int64_t> IntField(const doc::Node& entry, std::string_view key) {
  const doc::Node* value = entry.Find(key);
  if (value == nullptr || !value->is_int()) return std::nullopt;
  return value->int_value();
}

std::vector<std::string> Strings(const doc::Node* list) {
  std::vector<std::string> out;
  if (list == nullptr || !list->is_sequence()) return out;
  for (const doc::Node& item : list->items()) {
    if (item.is_string()) out.push_back(item.string_value());
  }
  return out;
}

// The text between the first pair of single quotes after `from`.
std::string Quoted(const std::string& text, std::size_t from = 0) {
  const std::size_t open = text.find('\'', from);
  const std::size_t close = open == std::string::npos ? open : text.find('\'', open + 1);
  return close == std::string::npos ? std::string() : text.substr(open + 1, close - open - 1);
}

std::optional<CelRule> ParseCel(const std::string& rule, const std::string& message) {
  CelRule cel;
  cel.rule = rule;
  cel.message = message;
  static const std::regex kImmutable(R"(^self == oldSelf$)");
  static const std::regex kEmptyOrMatches(R"(^self == '' \|\| self\.matches\('[^']*'\)$)");
  static const std::regex kIn(R"(^self in \[('[^']*'(, )?)+\]$)");
  static const std::regex kAtLeast(R"(^self >= (-?[0-9]+)$)");
  static const std::regex kNameMatches(R"(^self\.metadata\.name\.matches\('[^']*'\)$)");
  static const std::regex kNameSize(R"(^size\(self\.metadata\.name\) <= ([0-9]+)$)");
  std::smatch match;
  if (std::regex_match(rule, kImmutable)) {
    cel.form = CelRule::Form::kImmutable;
  } else if (std::regex_match(rule, kEmptyOrMatches)) {
    cel.form = CelRule::Form::kEmptyOrMatches;
    cel.pattern = Quoted(rule, rule.find("matches"));
  } else if (std::regex_match(rule, kIn)) {
    cel.form = CelRule::Form::kIn;
    for (std::size_t at = rule.find('['); (at = rule.find('\'', at)) != std::string::npos;) {
      const std::size_t end = rule.find('\'', at + 1);
      cel.values.push_back(rule.substr(at + 1, end - at - 1));
      at = end + 1;
    }
  } else if (std::regex_match(rule, match, kAtLeast)) {
    cel.form = CelRule::Form::kAtLeast;
    cel.bound = std::stoll(match[1].str());
  } else if (std::regex_match(rule, kNameMatches)) {
    cel.form = CelRule::Form::kNameMatches;
    cel.pattern = Quoted(rule);
  } else if (std::regex_match(rule, match, kNameSize)) {
    cel.form = CelRule::Form::kNameSizeAtMost;
    cel.bound = std::stoll(match[1].str());
  } else {
    return std::nullopt;
  }
  return cel;
}

// Every path from the root to `path` at a segment boundary.
void AddPrefixes(const std::string& path, std::unordered_set<std::string>* prefixes) {
  prefixes->insert(path);
  for (std::size_t i = 1; i < path.size(); ++i) {
    if (path[i] == '.' || path[i] == '[' || path[i] == '{') prefixes->insert(path.substr(0, i));
  }
  prefixes->insert("");
}

// CEL size() and kube-openapi's string lengths count code points.
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

// Walks the document beside the schema paths the table reaches, with the
// stored object's correlated node for transition rules (struct fields and
// map values by key, list-map items by their key fields; nothing through
// other lists, as CEL correlation does).
class Walker {
 public:
  Walker(const CrdRules& rules, DuplicateStyle style, Report* report)
      : rules_(rules), style_(style), report_(report) {}

  enum class Pass { kOpenApi, kLists, kCel };

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
        case Pass::kOpenApi: OpenApi(node, *rules, field); break;
        case Pass::kLists: Lists(node, *rules, field); break;
        case Pass::kCel: Cel(node, old, *rules, schema, field); break;
      }
    }
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
    }
    if (node.is_int()) {
      const std::int64_t value = node.int_value();
      if (rules.minimum && value < *rules.minimum) {
        report_->Add({ErrorType::kInvalid, field, BadValue::Int(value),
                      field + " in body should be greater than or equal to " + std::to_string(*rules.minimum)},
                     &node);
      }
      if (rules.maximum && value > *rules.maximum) {
        report_->Add({ErrorType::kInvalid, field, BadValue::Int(value),
                      field + " in body should be less than or equal to " + std::to_string(*rules.maximum)},
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
               std::regex_search(node.string_value(), std::regex(cel.pattern));
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
          ok = cel.form == CelRule::Form::kNameMatches ? std::regex_search(name->string_value(), std::regex(cel.pattern))
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
  Report* report_;
  Pass pass_ = Pass::kOpenApi;
};

}  // namespace

Result<CrdRules> CrdRules::Parse(std::string_view json_text, std::string_view source_name) {
  Result<doc::Node> parsed = json::Read(json_text, source_name);
  if (!parsed.ok()) return parsed.take_error();
  const doc::Node* format = parsed->Find("format");
  if (format == nullptr || !format->is_string() || format->string_value() != "tjrender-crd-validation/v1") {
    return TableError(source_name, "not a tjrender-crd-validation/v1 document");
  }
  const doc::Node* entries = parsed->Find("rules");
  if (entries == nullptr || !entries->is_sequence()) return TableError(source_name, "no rules");
  CrdRules table;
  for (const doc::Node& entry : entries->items()) {
    const doc::Node* path = entry.is_mapping() ? entry.Find("path") : nullptr;
    if (path == nullptr || !path->is_string()) return TableError(source_name, "a rule without a path");
    NodeRules rules;
    if (const doc::Node* type = entry.Find("type"); type != nullptr && type->is_string()) {
      rules.type = type->string_value();
    }
    rules.required = Strings(entry.Find("required"));
    rules.min_length = IntField(entry, "minLength");
    rules.max_length = IntField(entry, "maxLength");
    rules.min_items = IntField(entry, "minItems");
    rules.max_items = IntField(entry, "maxItems");
    rules.minimum = IntField(entry, "minimum");
    rules.maximum = IntField(entry, "maximum");
    if (const doc::Node* list_type = entry.Find("listType"); list_type != nullptr && list_type->is_string()) {
      rules.list_type = list_type->string_value();
    }
    rules.list_map_keys = Strings(entry.Find("listMapKeys"));
    if (const doc::Node* cel = entry.Find("cel"); cel != nullptr && cel->is_sequence()) {
      for (const doc::Node& item : cel->items()) {
        const doc::Node* rule = item.Find("rule");
        const doc::Node* message = item.Find("message");
        if (rule == nullptr || !rule->is_string() || message == nullptr || !message->is_string()) {
          return TableError(source_name, path->string_value() + ": a CEL rule without rule or message");
        }
        std::optional<CelRule> parsed_rule = ParseCel(rule->string_value(), message->string_value());
        if (!parsed_rule) {
          return TableError(source_name, path->string_value() + ": CEL rule form not evaluated: " +
                                             rule->string_value());
        }
        rules.cel.push_back(std::move(*parsed_rule));
      }
    }
    if (const doc::Node* source = entry.Find("source"); source != nullptr && source->is_string()) {
      rules.source = source->string_value();
    }
    AddPrefixes(path->string_value(), &table.prefixes_);
    table.rules_.emplace(path->string_value(), std::move(rules));
  }
  return table;
}

const NodeRules* CrdRules::Find(const std::string& schema_path) const {
  auto found = rules_.find(schema_path);
  return found == rules_.end() ? nullptr : &found->second;
}

const CrdRules* BuiltinCrdRules(render::TrainerVersion version) {
  auto load = [](std::string_view name) -> const CrdRules* {
    for (const EmbeddedPolicy& policy : EmbeddedPolicies()) {
      if (policy.name != name) continue;
      Result<CrdRules> parsed = CrdRules::Parse(policy.bytes, name);
      return parsed.ok() ? new CrdRules(std::move(parsed).value()) : nullptr;
    }
    return nullptr;
  };
  switch (version) {
    case render::TrainerVersion::kV2_1: return nullptr;
    case render::TrainerVersion::kV2_2: {
      static const CrdRules* const kV22 = load("trainer-v2.2.0-validation");
      return kV22;
    }
    case render::TrainerVersion::kV2_3: {
      static const CrdRules* const kV23 = load("trainer-v2.3.0-validation");
      return kV23;
    }
  }
  return nullptr;
}

void CheckCrdRules(const CrdRules& rules, const doc::Node& trainjob, const doc::Node* old, DuplicateStyle style,
                   Report* report) {
  Walker walker(rules, style, report);
  walker.Run(Walker::Pass::kOpenApi, trainjob, nullptr);
  walker.Run(Walker::Pass::kLists, trainjob, nullptr);
  walker.Run(Walker::Pass::kCel, trainjob, old);
}

}  // namespace tjr::validate
