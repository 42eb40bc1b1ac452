#include "validate/crd_rules.h"

#include <algorithm>
#include <cmath>
#include <regex>

#include "gocompat/utf8.h"
#include "json/json.h"
#include "validate/date_time.h"
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

// kube-openapi's name for the JSON type of a value and, for numbers, the
// format it infers (validate/type.go schemaInfoForType: the API server
// decodes integers as int64 and other numbers as float64).
struct DataType {
  std::string_view type;
  std::string_view format;
};

DataType TypeOf(const doc::Node& node) {
  switch (node.kind()) {
    case doc::Kind::kBool: return {"boolean", ""};
    case doc::Kind::kInt: return {"integer", "int64"};
    case doc::Kind::kFloat: return {"number", "float64"};
    case doc::Kind::kString: return {"string", ""};
    case doc::Kind::kSequence: return {"array", ""};
    case doc::Kind::kMapping: return {"object", ""};
    case doc::Kind::kNull: break;
  }
  return {"null", ""};
}

// Walks the document beside the schema paths the table reaches, with the
// stored object's correlated node for transition rules (struct fields and
// map values by key, list-map items by their key fields; nothing through
// other lists, as CEL correlation does). Two paths are kept: `field`, as
// field.Path prints it (map values as `[key]`: list and CEL errors), and
// `api`, as kube-openapi builds it (map values as `.key`: OpenAPI errors).
class Walker {
 public:
  Walker(const CrdRules& rules, DuplicateStyle style, Report* report)
      : rules_(rules), style_(style), report_(report) {}

  enum class Pass { kPrune, kTypes, kOpenApi, kLists, kCel };

  /// For kPrune: how the message names the schema, and field paths left out.
  void SetPruning(std::string_view schema_name, std::span<const std::string_view> skip) {
    schema_name_ = schema_name;
    skip_ = skip;
  }

  void Run(Pass pass, const doc::Node& node, const doc::Node* old) {
    pass_ = pass;
    Visit(node, old, "", "", "");
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

  void Visit(const doc::Node& node, const doc::Node* old, const std::string& schema, const std::string& field,
             const std::string& api) {
    if (node.is_null()) return;  // nulls are pruned before validation
    const NodeRules* rules = rules_.Find(schema);
    if (rules != nullptr) {
      switch (pass_) {
        case Pass::kPrune: Prune(node, *rules, field); break;
        case Pass::kTypes:
        case Pass::kOpenApi:
          Type(node, *rules, api);
          if (pass_ == Pass::kOpenApi) MinProperties(node, *rules, schema, api);
          break;
        case Pass::kLists: Lists(node, *rules, field); break;
        case Pass::kCel: Cel(node, old, *rules, schema, field); break;
      }
    }
    VisitChildren(node, old, schema, field, api, rules);
    // kube-openapi validates an object's properties before its `required`
    // and a list's items before MinItems/MaxItems; enum (the common
    // validator) comes after the items too.
    if (rules != nullptr && (pass_ == Pass::kOpenApi || pass_ == Pass::kTypes)) {
      if (pass_ == Pass::kOpenApi) OpenApi(node, *rules, api);
      Enum(node, *rules, api);
    }
  }

  void VisitChildren(const doc::Node& node, const doc::Node* old, const std::string& schema, const std::string& field,
                     const std::string& api, const NodeRules* rules) {
    if (node.is_mapping()) {
      const bool is_map = !schema.empty() ? rules_.Reaches(schema + "{*}") : false;
      for (const doc::Field& child : node.fields()) {
        const std::string child_schema = ChildSchema(schema, child.key);
        if (child_schema.empty()) continue;
        const doc::Node* old_child = old != nullptr && old->is_mapping() ? old->Find(child.key) : nullptr;
        const std::string child_field =
            is_map && child_schema == schema + "{*}" ? field + "[" + child.key + "]" : FieldChild(field, child.key);
        Visit(child.value, old_child, child_schema, child_field, FieldChild(api, child.key));
      }
    } else if (node.is_sequence()) {
      const std::string item_schema = schema + "[*]";
      if (!rules_.Reaches(item_schema)) return;
      const bool keyed = rules != nullptr && rules->list_type == "map";
      const std::vector<doc::Node>& items = node.items();
      for (std::size_t i = 0; i < items.size(); ++i) {
        const doc::Node* old_item = keyed ? MatchListItem(items[i], old, rules->list_map_keys) : nullptr;
        const std::string index = "[" + std::to_string(i) + "]";
        Visit(items[i], old_item, item_schema, field + index, api + index);
      }
    }
  }

  bool Skipped(const std::string& path) const {
    for (std::string_view skip : skip_) {
      if (path == skip) return true;
    }
    return false;
  }

  void Prune(const doc::Node& node, const NodeRules& rules, const std::string& field) {
    if (!node.is_mapping() || !rules.prunes || field.empty()) return;
    for (const doc::Field& child : node.fields()) {
      if (std::binary_search(rules.properties.begin(), rules.properties.end(), child.key)) continue;
      const std::string path = FieldChild(field, child.key);
      if (Skipped(path)) continue;
      report_->Warn("[" + std::string(kRuleFieldPruned) + "] unknown field \"" + path + "\": the " +
                        std::string(schema_name_) +
                        " schema has no such field, so the API server drops it and it has no effect (kubectl "
                        "apply refuses the object under its default --validate=strict; other clients get at most a "
                        "warning)",
                    &child.value);
    }
  }

  // kube-openapi validate/type.go typeValidator.Validate, for non-null data;
  // then, for x-kubernetes-int-or-string, the anyOf of schema_props.go.
  void Type(const doc::Node& node, const NodeRules& rules, const std::string& api) {
    std::vector<std::string_view> types;
    if (rules.int_or_string) {
      types = {"integer", "string"};  // apiextensions-apiserver ConvertJSONSchemaProps
    } else if (!rules.type.empty()) {
      types = {rules.type};
    } else {
      return;
    }
    const std::optional<TypeMismatch> mismatch = Mismatch(node, types, rules.format);
    if (!mismatch) return;
    TypeError(node, api, mismatch->wanted, mismatch->got);
    if (!rules.int_or_string) return;
    // Neither {type: integer} nor {type: string} matches; of two failures
    // with the same match count the first is reported.
    report_->Add({ErrorType::kInvalid, "<nil>", BadValue::String(""),
                  GoQuote(api) + " must validate at least one schema (anyOf)"},
                 &node);
    TypeError(node, api, "integer", std::string(TypeOf(node).type));
  }

  struct TypeMismatch {
    std::string wanted;  ///< the schema's type(s), or its format
    std::string got;     ///< the value's type, or its format (possibly "")
  };

  static std::optional<TypeMismatch> Mismatch(const doc::Node& node, const std::vector<std::string_view>& types,
                                              const std::string& format) {
    const DataType data = TypeOf(node);
    auto has = [&](std::string_view type) { return std::find(types.begin(), types.end(), type) != types.end(); };
    // swag.IsFloat64AJSONInteger, for the floats YAML can hold.
    const bool float_int = data.type == "number" && has("integer") && std::isfinite(node.float_value()) &&
                           std::fabs(node.float_value()) <= 9007199254740992.0 &&
                           std::trunc(node.float_value()) == node.float_value();
    const bool int_float = data.type == "integer" && has("number");
    const bool string_or_slice = node.is_string() || node.is_sequence();
    if (!string_or_slice && !format.empty() && !(has(data.type) || data.format == format || float_int || int_float)) {
      return TypeMismatch{format, std::string(data.format)};
    }
    if (!(has("number") || has("integer")) && !format.empty() && string_or_slice) return std::nullopt;
    if (has(data.type) || float_int || int_float) return std::nullopt;
    std::string wanted;
    for (std::string_view type : types) wanted += (wanted.empty() ? "" : ",") + std::string(type);
    return TypeMismatch{wanted, std::string(data.type)};
  }

  // errors.InvalidType, which apiextensions-apiserver reports as
  // field.TypeInvalid(path, value, message).
  void TypeError(const doc::Node& node, const std::string& api, const std::string& wanted, const std::string& got) {
    report_->Add({ErrorType::kTypeInvalid, api, BadValue::String(got),
                  api + " in body must be of type " + wanted + ": " + GoQuote(got)},
                 &node);
  }

  // basicCommonValidator: the value must equal one of the enum's (string)
  // values; apiextensions-apiserver reports field.NotSupported.
  void Enum(const doc::Node& node, const NodeRules& rules, const std::string& api) {
    if (!rules.enum_values) return;
    const std::vector<std::string>& values = *rules.enum_values;
    if (node.is_string() && std::find(values.begin(), values.end(), node.string_value()) != values.end()) return;
    std::string supported;
    for (const std::string& value : values) supported += (supported.empty() ? "" : ", ") + GoQuote(value);
    BadValue bad = node.is_string() ? BadValue::String(node.string_value())
                   : node.is_int()  ? BadValue::Int(node.int_value())
                   : node.is_bool() ? BadValue::Bool(node.bool_value())
                                    : BadValue::Json(WriteOrdered(node));
    report_->Add({ErrorType::kNotSupported, api, std::move(bad),
                  supported.empty() ? "" : "supported values: " + supported},
                 &node);
  }

  // objectValidator: minProperties counts the keys left after pruning.
  void MinProperties(const doc::Node& node, const NodeRules& rules, const std::string& schema,
                     const std::string& api) {
    if (!rules.min_properties || !node.is_mapping()) return;
    std::int64_t count = 0;
    for (const doc::Field& child : node.fields()) {
      if (!child.value.is_null() && !ChildSchema(schema, child.key).empty()) ++count;
    }
    if (count >= *rules.min_properties) return;
    report_->Add({ErrorType::kInvalid, api, BadValue::Int(count),
                  api + " in body should have at least " +
                      std::to_string(*rules.min_properties) + " properties"},
                 &node);
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
        report_->Add({ErrorType::kTypeInvalid, field, BadValue::String(node.string_value()),
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
  Report* report_;
  Pass pass_ = Pass::kOpenApi;
  std::string_view schema_name_;
  std::span<const std::string_view> skip_;
};

}  // namespace

void CheckPrunedFields(const CrdRules& rules, const doc::Node& object, std::string_view schema_name,
                       std::span<const std::string_view> reported_elsewhere, Report* report) {
  Walker walker(rules, DuplicateStyle::kJson, report);
  walker.SetPruning(schema_name, reported_elsewhere);
  walker.Run(Walker::Pass::kPrune, object, nullptr);
}

void CheckTypes(const CrdRules& rules, const doc::Node& object, Report* report) {
  Walker(rules, DuplicateStyle::kJson, report).Run(Walker::Pass::kTypes, object, nullptr);
}

void CheckCrdSchema(const CrdRules& rules, const doc::Node& object, DuplicateStyle style, Report* report) {
  Walker walker(rules, style, report);
  walker.Run(Walker::Pass::kOpenApi, object, nullptr);
  walker.Run(Walker::Pass::kLists, object, nullptr);
}

void CheckCrdCel(const CrdRules& rules, const doc::Node& object, const doc::Node* old, Report* report) {
  Walker(rules, DuplicateStyle::kJson, report).Run(Walker::Pass::kCel, object, old);
}

bool CelMayRun(const doc::Node& object, Report* report) {
  if (!report->has_blocking_error()) return true;
  // field.Invalid(nil, nil, ...): the nil value prints as JSON null.
  report->Add({ErrorType::kInvalid, "<nil>", BadValue::Json("null"),
               "some validation rules were not checked because the object was invalid; correct the existing errors "
               "to complete validation"},
              &object);
  return false;
}

void CheckCrdRules(const CrdRules& rules, const doc::Node& trainjob, const doc::Node* old, DuplicateStyle style,
                   std::string_view release_tag, Report* report) {
  // Removed in v2.2.0: an error of its own (removed_api.cc).
  static constexpr std::string_view kRemoved[] = {"spec.podTemplateOverrides", "spec.labels", "spec.annotations"};
  CheckPrunedFields(rules, trainjob, "Trainer " + std::string(release_tag) + " TrainJob", kRemoved, report);
  CheckCrdSchema(rules, trainjob, style, report);
  if (CelMayRun(trainjob, report)) CheckCrdCel(rules, trainjob, old, report);
}

}  // namespace tjr::validate
