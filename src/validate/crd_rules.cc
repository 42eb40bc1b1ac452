#include "validate/crd_rules.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <unordered_map>

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

constexpr std::string_view kStatus = "status";

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

// Where a visited node sits: one step from its parent, kept on the stack
// of the walk (as deep as the schema tree). The printed paths are built
// from this chain only when a finding names them.
struct Step {
  enum class Kind : std::uint8_t { kRoot, kField, kMapValue, kItem };
  const Step* parent = nullptr;
  Kind kind = Kind::kRoot;
  std::string_view key;   ///< kField, kMapValue
  std::size_t index = 0;  ///< kItem
  bool root() const { return kind == Kind::kRoot; }
};

// field.Path.String() (`api` false: map values as `[key]`, for list and
// CEL errors) or kube-openapi's path (`api` true: map values as `.key`, for
// OpenAPI errors). Both put list indices in brackets.
std::string PrintPath(const Step& step, bool api) {
  std::vector<const Step*> chain;
  for (const Step* at = &step; !at->root(); at = at->parent) chain.push_back(at);
  std::string out;
  for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
    const Step& at = **it;
    if (at.kind == Step::Kind::kItem) {
      out += '[';
      out += std::to_string(at.index);
      out += ']';
    } else if (at.kind == Step::Kind::kMapValue && !api) {
      out += '[';
      out += at.key;
      out += ']';
    } else {
      if (!out.empty()) out += '.';
      out += at.key;
    }
  }
  return out;
}

std::string FieldPath(const Step& step) { return PrintPath(step, false); }
std::string ApiPath(const Step& step) { return PrintPath(step, true); }

// Where each check's findings go; a check without a report does not run.
struct Sinks {
  Report* pruned = nullptr;
  Report* openapi = nullptr;
  bool types_only = false;  ///< openapi: the type and enum checks alone
  Report* lists = nullptr;
  Report* cel = nullptr;
  Report* go_ints = nullptr;  ///< the controller's decode of int32 fields
  std::string_view controller;  ///< go_ints: who decodes ("the Trainer v2.3.0 controller")
};

// Walks the document beside the table's schema tree, into the entries that
// lead to rules, with the stored object's correlated node for transition
// rules (struct fields and map values by key, list-map items by their key
// fields; nothing through other lists, as CEL correlation does). Every
// check sees the nodes in the order its own walk would, so one walk serves
// several checks that report to separate Reports, which the caller joins
// in the API server's order.
class Walker {
 public:
  Walker(const Sinks& sinks, DuplicateStyle style, const PruneOptions* prune)
      : sinks_(sinks), style_(style), prune_(prune) {}

  void Walk(const CrdRules& rules, const doc::Node& object, const doc::Node* old) {
    rules_ = &rules;
    Visit(object, old, rules.root(), Step{});
  }

 private:
  // A walk for the CEL rules alone skips the subtrees without any.
  bool Follows(const SchemaNode& child) const {
    return child.reaches_cel() || sinks_.pruned != nullptr || sinks_.openapi != nullptr || sinks_.lists != nullptr ||
           sinks_.go_ints != nullptr;
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

  void Visit(const doc::Node& node, const doc::Node* old, const SchemaNode& schema, const Step& at) {
    if (node.is_null()) return;  // nulls are pruned before validation
    const NodeRules* rules = schema.rules();
    if (rules != nullptr) {
      if (sinks_.pruned != nullptr) Prune(node, *rules, at);
      if (sinks_.openapi != nullptr) {
        Type(node, *rules, at);
        if (!sinks_.types_only) MinProperties(node, *rules, schema, at);
      }
      if (sinks_.lists != nullptr) Lists(node, *rules, at);
      if (sinks_.cel != nullptr) Cel(node, old, *rules, schema, at);
      if (sinks_.go_ints != nullptr) GoInt32(node, *rules, at);
    }
    VisitChildren(node, old, schema, at);
    // kube-openapi validates an object's properties before its `required`
    // and a list's items before MinItems/MaxItems; enum (the common
    // validator) comes after the items too.
    if (rules != nullptr && sinks_.openapi != nullptr) {
      if (!sinks_.types_only) OpenApi(node, *rules, at);
      Enum(node, *rules, at);
    }
  }

  void VisitChildren(const doc::Node& node, const doc::Node* old, const SchemaNode& schema, const Step& at) {
    const bool correlate = sinks_.cel != nullptr && old != nullptr;
    if (node.is_mapping()) {
      for (const doc::Field& child : node.fields()) {
        Step step{&at, Step::Kind::kField, child.key};
        const SchemaNode* next = schema.Property(child.key);
        if (next == nullptr) {
          next = schema.value();
          step.kind = Step::Kind::kMapValue;
        }
        if (next == nullptr || !Follows(*next)) continue;
        const doc::Node* old_child = correlate && old->is_mapping() ? old->Find(child.key) : nullptr;
        Visit(child.value, old_child, *next, step);
      }
    } else if (node.is_sequence()) {
      const SchemaNode* item = schema.item();
      if (item == nullptr || !Follows(*item)) return;
      const NodeRules* rules = schema.rules();
      const bool keyed = correlate && rules != nullptr && rules->list_type == "map";
      const std::vector<doc::Node>& items = node.items();
      for (std::size_t i = 0; i < items.size(); ++i) {
        const doc::Node* old_item = keyed ? MatchListItem(items[i], old, rules->list_map_keys) : nullptr;
        Visit(items[i], old_item, *item, Step{&at, Step::Kind::kItem, {}, i});
      }
    }
  }

  bool Skipped(const std::string& path) const {
    for (std::string_view skip : prune_->reported_elsewhere) {
      if (path == skip) return true;
    }
    return false;
  }

  void Prune(const doc::Node& node, const NodeRules& rules, const Step& at) {
    if (!node.is_mapping() || !rules.prunes) return;
    for (const doc::Field& child : node.fields()) {
      if (rules.Keeps(child.key)) continue;
      // The tables leave `status` out (the API server ignores it on create
      // and update of a resource with a status subresource); the CRD has it.
      if (at.root() && child.key == kStatus) continue;
      const std::string path = FieldChild(FieldPath(at), child.key);
      if (Skipped(path)) continue;
      std::string message = "unknown field \"" + path + "\": the " + std::string(prune_->schema_name) +
                            " schema has no such field, so the API server drops it and it has no effect (kubectl "
                            "apply refuses the object under its default --validate=strict; other clients get at "
                            "most a warning)";
      if (at.root()) {
        // A field one indentation level too far out: say where it goes.
        if (std::optional<std::string> owner = TopLevelOwner(child.key)) {
          message += "; `" + child.key + "` is a field of `" + *owner + "`";
        }
      }
      // At the value, unless the value starts on a later line than its key
      // (a block mapping or list): then at the key, since that line holds a
      // field that is not the unknown one (`trainer:` one level too far out).
      Location at = child.value.location();
      if (child.key_location.known() && at.known() && at.line > child.key_location.line) at = child.key_location;
      sinks_.pruned->diagnostics().push_back(MakeWarning(at, kRuleFieldPruned, std::move(message)));
    }
  }

  // The shallowest place a top-level key exists in the schema: ObjectMeta's
  // fields under `metadata` (the tables do not list them), else the table's.
  std::optional<std::string> TopLevelOwner(const std::string& key) const {
    if (prune_->object_meta != nullptr && prune_->object_meta->FindField(key) != nullptr) return "metadata";
    return rules_->ShallowestOwnerOf(key);
  }

  // kube-openapi validate/type.go typeValidator.Validate, for non-null data;
  // then, for x-kubernetes-int-or-string, the anyOf of schema_props.go.
  void Type(const doc::Node& node, const NodeRules& rules, const Step& at) {
    // The common case, decided at once: a value of the schema's own type
    // matches whatever the format (see Mismatch).
    const std::string_view data_type = TypeOf(node).type;
    if (rules.int_or_string ? data_type == "integer" || data_type == "string" : data_type == rules.type) return;
    std::array<std::string_view, 2> storage;
    std::span<const std::string_view> types;
    if (rules.int_or_string) {
      storage = {"integer", "string"};  // apiextensions-apiserver ConvertJSONSchemaProps
      types = storage;
    } else if (!rules.type.empty()) {
      storage[0] = rules.type;
      types = std::span(storage).first(1);
    } else {
      return;
    }
    const std::optional<TypeMismatch> mismatch = Mismatch(node, types, rules.format);
    if (!mismatch) return;
    const std::string api = ApiPath(at);
    TypeError(node, api, mismatch->wanted, mismatch->got);
    if (!rules.int_or_string) return;
    // Neither {type: integer} nor {type: string} matches; of two failures
    // with the same match count the first is reported.
    sinks_.openapi->Add({ErrorType::kInvalid, "<nil>", BadValue::String(""),
                         gocompat::Quote(api) + " must validate at least one schema (anyOf)"},
                        &node);
    TypeError(node, api, "integer", std::string(TypeOf(node).type));
  }

  struct TypeMismatch {
    std::string wanted;  ///< the schema's type(s), or its format
    std::string got;     ///< the value's type, or its format (possibly "")
  };

  static std::optional<TypeMismatch> Mismatch(const doc::Node& node, std::span<const std::string_view> types,
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
    sinks_.openapi->Add({ErrorType::kTypeInvalid, api, BadValue::String(got),
                         api + " in body must be of type " + wanted + ": " + gocompat::Quote(got)},
                        &node);
  }

  // A schema `format: int32` is what controller-gen writes for a Go int32
  // field. kube-openapi's type check passes any integer there (the value's
  // type "integer" is among the schema's), so the API server stores
  // 2147483648; the controller's typed decode (sigs.k8s.io/json into the
  // release's Go structs) then fails on the object with "json: cannot
  // unmarshal number 2147483648 into Go struct field ... of type int32".
  // Integers beyond int64 are floats by then and fail the type check above.
  // An integral float (`2147483648.0`) passes the type check too and is
  // stored as the integer it equals. x-kubernetes-int-or-string is
  // intstr.IntOrString, whose integer is an int32 as well.
  void GoInt32(const doc::Node& node, const NodeRules& rules, const Step& at) {
    if (rules.format != "int32" && !rules.int_or_string) return;
    std::int64_t value = 0;
    if (node.is_int()) {
      value = node.int_value();
    } else if (node.is_float() && std::isfinite(node.float_value()) &&
               std::fabs(node.float_value()) <= 9007199254740992.0 &&
               std::trunc(node.float_value()) == node.float_value()) {
      value = static_cast<std::int64_t>(node.float_value());
    } else {
      return;
    }
    if (value >= std::numeric_limits<std::int32_t>::min() && value <= std::numeric_limits<std::int32_t>::max()) {
      return;
    }
    Diagnostic d = MakeError(node.location(), FieldPath(at),
                             "[" + std::string(kRuleGoIntRange) + "] " + std::to_string(value) +
                                 " does not fit the field's Go type int32: the API server stores it (its schema "
                                 "checks only that it is an integer), but " +
                                 std::string(sinks_.controller) + " cannot decode the object (\"json: cannot "
                                 "unmarshal number " + std::to_string(value) +
                                 " into Go struct field ... of type int32\"), so it never acts on it");
    d.rule = std::string(kRuleGoIntRange);
    sinks_.go_ints->Append({std::move(d)});
  }

  // basicCommonValidator: the value must equal one of the enum's (string)
  // values; apiextensions-apiserver reports field.NotSupported.
  void Enum(const doc::Node& node, const NodeRules& rules, const Step& at) {
    if (!rules.enum_values) return;
    const std::vector<std::string>& values = *rules.enum_values;
    if (node.is_string() && std::find(values.begin(), values.end(), node.string_value()) != values.end()) return;
    std::string supported;
    for (const std::string& value : values) supported += (supported.empty() ? "" : ", ") + gocompat::Quote(value);
    BadValue bad = node.is_string() ? BadValue::String(node.string_value())
                   : node.is_int()  ? BadValue::Int(node.int_value())
                   : node.is_bool() ? BadValue::Bool(node.bool_value())
                                    : BadValue::Json(WriteOrdered(node));
    sinks_.openapi->Add({ErrorType::kNotSupported, ApiPath(at), std::move(bad),
                         supported.empty() ? "" : "supported values: " + supported},
                        &node);
  }

  // objectValidator: minProperties counts the keys left after pruning.
  void MinProperties(const doc::Node& node, const NodeRules& rules, const SchemaNode& schema, const Step& at) {
    if (!rules.min_properties || !node.is_mapping()) return;
    std::int64_t count = 0;
    for (const doc::Field& child : node.fields()) {
      if (!child.value.is_null() && schema.Child(child.key) != nullptr) ++count;
    }
    if (count >= *rules.min_properties) return;
    const std::string api = ApiPath(at);
    sinks_.openapi->Add({ErrorType::kInvalid, api, BadValue::Int(count),
                         api + " in body should have at least " + std::to_string(*rules.min_properties) +
                             " properties"},
                        &node);
  }

  void OpenApi(const doc::Node& node, const NodeRules& rules, const Step& at) {
    Report& report = *sinks_.openapi;
    if (node.is_string()) {
      const std::int64_t length =
          rules.max_length || rules.min_length ? CodePoints(node.string_value()) : std::int64_t{0};
      if (rules.max_length && length > *rules.max_length) {
        const std::string unit = *rules.max_length == 1 ? " byte" : " bytes";
        report.Add({ErrorType::kTooLong, ApiPath(at), BadValue::Omit(),
                    "may not be more than " + std::to_string(*rules.max_length) + unit},
                   &node);
      }
      if (rules.min_length && length < *rules.min_length) {
        const std::string api = ApiPath(at);
        report.Add({ErrorType::kInvalid, api, BadValue::String(node.string_value()),
                    api + " in body should be at least " + std::to_string(*rules.min_length) + " chars long"},
                   &node);
      }
      if (rules.format == "date-time" && !IsDateTime(node.string_value())) {
        // errors.InvalidType -> field.TypeInvalid, printed as "Invalid value".
        const std::string api = ApiPath(at);
        report.Add({ErrorType::kTypeInvalid, api, BadValue::String(node.string_value()),
                    api + " in body must be of type date-time: " + gocompat::Quote(node.string_value())},
                   &node);
      }
    }
    if (node.is_int()) {
      const std::int64_t value = node.int_value();
      if (rules.maximum && value > *rules.maximum) {
        const std::string api = ApiPath(at);
        report.Add({ErrorType::kInvalid, api, BadValue::Int(value),
                    api + " in body should be less than or equal to " + std::to_string(*rules.maximum)},
                   &node);
      }
      if (rules.minimum && value < *rules.minimum) {
        const std::string api = ApiPath(at);
        report.Add({ErrorType::kInvalid, api, BadValue::Int(value),
                    api + " in body should be greater than or equal to " + std::to_string(*rules.minimum)},
                   &node);
      }
    }
    if (node.is_sequence()) {
      const auto size = static_cast<std::int64_t>(node.size());
      if (rules.max_items && size > *rules.max_items) {
        const std::string unit = *rules.max_items == 1 ? " item" : " items";
        report.Add({ErrorType::kTooMany, ApiPath(at), BadValue::Int(size),
                    "must have at most " + std::to_string(*rules.max_items) + unit},
                   &node);
      }
      if (rules.min_items && size < *rules.min_items) {
        const std::string api = ApiPath(at);
        report.Add({ErrorType::kInvalid, api, BadValue::Int(size),
                    api + " in body should have at least " + std::to_string(*rules.min_items) + " items"},
                   &node);
      }
    }
    if (node.is_mapping()) {
      for (const std::string& key : rules.required) {
        if (Absent(node.Find(key))) {
          report.Add({ErrorType::kRequired, FieldChild(ApiPath(at), key), BadValue::Omit(), ""}, &node);
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
      out += gocompat::Quote(key) + ":";
      out += value->is_string() ? gocompat::Quote(value->string_value()) : json::Write(*value, false);
    }
    return out + "}";
  }

  // validateListMap/validateListSet: the second appearance of a key is
  // reported, later ones are not.
  void Lists(const doc::Node& node, const NodeRules& rules, const Step& at) {
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
    // Items are bucketed by text that equal items share (json::Write sorts
    // map keys), and counted per distinct item of a bucket: comparing each
    // item with every earlier one made N env vars cost N².
    auto text_of = [&](const doc::Node& item) {
      if (!keyed) return json::Write(item, false);
      std::string text;
      for (const std::string& key : rules.list_map_keys) {
        const doc::Node* value = item.Find(key);
        text += value == nullptr ? std::string("\x01") : json::Write(*value, false);
        text += '\0';
      }
      return text;
    };
    struct Seen {
      std::size_t first;  // an item, for comparisons
      std::size_t count;
    };
    std::unordered_map<std::string, std::vector<Seen>> seen;
    for (std::size_t i = 0; i < items.size(); ++i) {
      std::vector<Seen>& bucket = seen[text_of(items[i])];
      auto equal = std::find_if(bucket.begin(), bucket.end(), [&](const Seen& s) { return same(items[s.first], items[i]); });
      const std::size_t earlier = equal == bucket.end() ? 0 : equal->count;
      if (equal == bucket.end()) {
        bucket.push_back({i, 1});
      } else {
        ++equal->count;
      }
      if (earlier != 1) continue;
      const BadValue value = keyed ? BadValue::Json(KeyText(items[i], rules.list_map_keys))
                             : items[i].is_string() ? BadValue::String(items[i].string_value())
                                                    : BadValue::Json(WriteOrdered(items[i]));
      sinks_.lists->Add({ErrorType::kDuplicate, FieldPath(at) + "[" + std::to_string(i) + "]", value, ""},
                        &items[i]);
    }
  }

  // CEL equality: lists of type map or set ignore order. `schema` is
  // nullptr below the table's nodes, where every list keeps its order.
  static bool Equal(const doc::Node& a, const doc::Node& b, const SchemaNode* schema) {
    if (a.is_int() && b.is_float()) return static_cast<double>(a.int_value()) == b.float_value();
    if (a.is_float() && b.is_int()) return a.float_value() == static_cast<double>(b.int_value());
    if (a.kind() != b.kind()) return false;
    if (a.is_mapping()) {
      if (a.size() != b.size()) return false;
      for (const doc::Field& child : a.fields()) {
        const doc::Node* other = b.Find(child.key);
        if (other == nullptr) return false;
        if (!Equal(child.value, *other, schema != nullptr ? schema->Child(child.key) : nullptr)) return false;
      }
      return true;
    }
    if (a.is_sequence()) {
      if (a.size() != b.size()) return false;
      const NodeRules* rules = schema != nullptr ? schema->rules() : nullptr;
      const bool unordered = rules != nullptr && !rules->list_type.empty();
      const SchemaNode* item = schema != nullptr ? schema->item() : nullptr;
      for (std::size_t i = 0; i < a.size(); ++i) {
        if (!unordered) {
          if (!Equal(a.items()[i], b.items()[i], item)) return false;
          continue;
        }
        bool found = false;
        for (const doc::Node& candidate : b.items()) {
          if (Equal(a.items()[i], candidate, item)) found = true;
        }
        if (!found) return false;
      }
      return true;
    }
    return a == b;
  }

  void Cel(const doc::Node& node, const doc::Node* old, const NodeRules& rules, const SchemaNode& schema,
           const Step& at) {
    auto fail = [&](const CelRule& cel, const doc::Node* where) {
      sinks_.cel->Add({ErrorType::kInvalid, at.root() ? "<nil>" : FieldPath(at),
                       BadValue::String(rules.type.empty() ? "object" : rules.type), cel.message},
                      where);
    };
    for (const CelRule& cel : rules.cel) {
      bool ok = true;
      switch (cel.form) {
        case CelRule::Form::kImmutable:
          // A transition rule runs only when the stored object has the value.
          ok = Absent(old) || Equal(node, *old, &schema);
          break;
        case CelRule::Form::kEmptyOrMatches:
          ok = !node.is_string() || node.string_value().empty() ||
               (cel.regex == nullptr || cel.regex->Match(node.string_value()));
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
          ok = cel.form == CelRule::Form::kNameMatches
                   ? (cel.regex == nullptr || cel.regex->Match(name->string_value()))
                   : CodePoints(name->string_value()) <= cel.bound;
          if (!ok) {
            fail(cel, name);
            ok = true;
          }
          break;
        }
      }
      if (!ok) fail(cel, &node);
    }
  }

  Sinks sinks_;
  DuplicateStyle style_;
  const PruneOptions* prune_;
  const CrdRules* rules_ = nullptr;
};

}  // namespace

void CheckCrdSchema(const CrdRules& rules, const doc::Node& object, const PruneOptions& prune, SchemaChecks checks,
                    DuplicateStyle style, Report* report) {
  // Pruning comes first, then every OpenAPI finding, then the lists': the
  // walk keeps the latter two apart until it is done.
  Report openapi, lists;
  Sinks sinks;
  sinks.pruned = report;
  sinks.openapi = &openapi;
  sinks.types_only = checks == SchemaChecks::kTypes;
  if (checks == SchemaChecks::kAll) sinks.lists = &lists;
  Walker(sinks, style, &prune).Walk(rules, object, nullptr);
  report->Merge(std::move(openapi));
  report->Merge(std::move(lists));
}

void CheckCrdCel(const CrdRules& rules, const doc::Node& object, const doc::Node* old, Report* report) {
  Sinks sinks;
  sinks.cel = report;
  Walker(sinks, DuplicateStyle::kJson, nullptr).Walk(rules, object, old);
}

void CheckGoIntRanges(const CrdRules& rules, const doc::Node& object, std::string_view controller, Report* report) {
  Sinks sinks;
  sinks.go_ints = report;
  sinks.controller = controller;
  Walker(sinks, DuplicateStyle::kJson, nullptr).Walk(rules, object, nullptr);
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
                   std::string_view release_tag, Report* report, const schema::Type* object_meta) {
  // Removed in v2.2.0: an error of its own (removed_api.cc).
  static constexpr std::string_view kRemoved[] = {"spec.podTemplateOverrides", "spec.labels", "spec.annotations"};
  const std::string schema_name = "Trainer " + std::string(release_tag) + " TrainJob";
  CheckCrdSchema(rules, trainjob, PruneOptions{schema_name, kRemoved, object_meta}, SchemaChecks::kAll, style, report);
  if (CelMayRun(trainjob, report)) CheckCrdCel(rules, trainjob, old, report);
}

}  // namespace tjr::validate
