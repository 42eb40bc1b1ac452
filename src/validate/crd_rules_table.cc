// Loading the CRD validation tables (see crd_rules.h and
// scripts/gen-crd-validation).
#include <algorithm>
#include <array>
#include <mutex>
#include <regex>

#include "json/json.h"
#include "trainer/release.h"
#include "validate/crd_rules.h"
#include "validate/embedded_crd_rules.h"

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
  if (!cel.pattern.empty()) {
    Result<gocompat::Regexp> compiled = gocompat::Regexp::Compile(cel.pattern);
    if (!compiled.ok()) return std::nullopt;
    cel.regex = std::make_shared<const gocompat::Regexp>(std::move(*compiled));
  }
  return cel;
}

// The order of property names looked up while walking: comparing lengths
// first leaves most comparisons without a look at the bytes.
bool ShortFirst(std::string_view a, std::string_view b) { return a.size() != b.size() ? a.size() < b.size() : a < b; }

// One step of a schema path: a struct field (`.name`, or the first name),
// a list's items (`[*]`) or a map's values (`{*}`).
struct PathStep {
  enum class Kind { kField, kItem, kValue };
  Kind kind;
  std::string_view name;  ///< kField
};

// "spec.runtimePatches[*].manager" -> spec, runtimePatches, [*], manager.
// The root is "" and is an object: a path starts with a name.
std::optional<std::vector<PathStep>> SplitPath(std::string_view path) {
  std::vector<PathStep> steps;
  std::size_t at = 0;
  while (at < path.size()) {
    const std::string_view rest = path.substr(at);
    if (!steps.empty() && (rest.starts_with("[*]") || rest.starts_with("{*}"))) {
      steps.push_back({rest[0] == '[' ? PathStep::Kind::kItem : PathStep::Kind::kValue, {}});
      at += 3;
      continue;
    }
    if (!steps.empty()) {
      if (rest[0] != '.') return std::nullopt;
      ++at;
    }
    std::size_t end = at;
    while (end < path.size() && path[end] != '.' && path[end] != '[' && path[end] != '{') ++end;
    if (end == at) return std::nullopt;
    steps.push_back({PathStep::Kind::kField, path.substr(at, end - at)});
    at = end;
  }
  return steps;
}

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
    rules.min_properties = IntField(entry, "minProperties");
    if (const doc::Node* flag = entry.Find("intOrString"); flag != nullptr && flag->is_bool()) {
      rules.int_or_string = flag->bool_value();
    }
    if (const doc::Node* values = entry.Find("enum"); values != nullptr) {
      if (!values->is_sequence()) return TableError(source_name, path->string_value() + ": enum is not a list");
      rules.enum_values = Strings(values);
      if (rules.enum_values->size() != values->size()) {
        return TableError(source_name, path->string_value() + ": enum with a value that is not a string");
      }
    }
    if (const doc::Node* list_type = entry.Find("listType"); list_type != nullptr && list_type->is_string()) {
      rules.list_type = list_type->string_value();
    }
    if (const doc::Node* format = entry.Find("format"); format != nullptr && format->is_string()) {
      static constexpr std::string_view kKnown[] = {"date-time", "int32", "int64", "float", "double"};
      if (std::find(std::begin(kKnown), std::end(kKnown), format->string_value()) == std::end(kKnown)) {
        return TableError(source_name, path->string_value() + ": format not checked: " + format->string_value());
      }
      rules.format = format->string_value();
    }
    rules.list_map_keys = Strings(entry.Find("listMapKeys"));
    if (const doc::Node* properties = entry.Find("properties"); properties != nullptr) {
      rules.prunes = true;
      rules.properties = Strings(properties);
      std::sort(rules.properties.begin(), rules.properties.end(), ShortFirst);
    }
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
    const std::optional<std::vector<PathStep>> steps = SplitPath(path->string_value());
    if (!steps) return TableError(source_name, "malformed path: " + path->string_value());
    SchemaNode* node = table.root_.get();
    for (const PathStep& step : *steps) {
      std::unique_ptr<SchemaNode>* next = nullptr;
      switch (step.kind) {
        case PathStep::Kind::kItem: next = &node->item_; break;
        case PathStep::Kind::kValue: next = &node->value_; break;
        case PathStep::Kind::kField: {
          auto same = std::find_if(node->properties_.begin(), node->properties_.end(),
                                   [&](const SchemaNode::Field& field) { return field.key == step.name; });
          if (same == node->properties_.end()) {
            node->properties_.push_back({std::string(step.name), nullptr});
            same = node->properties_.end() - 1;
          }
          next = &same->node;
          break;
        }
      }
      if (*next == nullptr) *next = std::make_unique<SchemaNode>();
      node = next->get();
    }
    if (node->rules_) return TableError(source_name, "path given twice: " + path->string_value());
    node->rules_ = std::move(rules);
  }
  table.root_->Seal();
  return table;
}

void SchemaNode::Seal() {
  std::sort(properties_.begin(), properties_.end(),
            [](const Field& a, const Field& b) { return ShortFirst(a.key, b.key); });
  reaches_cel_ = rules_ && !rules_->cel.empty();
  for (SchemaNode* child : {item_.get(), value_.get()}) {
    if (child == nullptr) continue;
    child->Seal();
    reaches_cel_ = reaches_cel_ || child->reaches_cel_;
  }
  for (Field& field : properties_) {
    field.node->Seal();
    reaches_cel_ = reaches_cel_ || field.node->reaches_cel_;
  }
}

const SchemaNode* SchemaNode::Property(std::string_view key) const {
  auto found = std::lower_bound(properties_.begin(), properties_.end(), key,
                                [](const Field& field, std::string_view want) { return ShortFirst(field.key, want); });
  return found != properties_.end() && found->key == key ? found->node.get() : nullptr;
}

bool NodeRules::Keeps(std::string_view key) const {
  return std::binary_search(properties.begin(), properties.end(), key, ShortFirst);
}

std::optional<std::string> CrdRules::ShallowestOwnerOf(std::string_view key) const {
  // Breadth first from the root's children, so the first object found with
  // the property is one of the shallowest.
  struct Visit {
    const SchemaNode* node;
    std::string path;
  };
  std::vector<Visit> level;
  auto children = [](const Visit& at, std::vector<Visit>* out) {
    const NodeRules* rules = at.node->rules();
    if (rules != nullptr) {
      for (const std::string& property : rules->properties) {
        if (const SchemaNode* next = at.node->Property(property)) {
          out->push_back({next, at.path.empty() ? property : at.path + "." + property});
        }
      }
    }
    if (at.node->item() != nullptr) out->push_back({at.node->item(), at.path + "[*]"});
    if (at.node->value() != nullptr) out->push_back({at.node->value(), at.path + "{*}"});
  };
  children(Visit{root_.get(), ""}, &level);
  while (!level.empty()) {
    std::vector<Visit> next;
    for (const Visit& at : level) {
      const NodeRules* rules = at.node->rules();
      if (rules != nullptr && rules->prunes && rules->Keeps(key)) return at.path;
      children(at, &next);
    }
    level = std::move(next);
  }
  return std::nullopt;
}

const NodeRules* CrdRules::Find(std::string_view schema_path) const {
  const std::optional<std::vector<PathStep>> steps = SplitPath(schema_path);
  if (!steps) return nullptr;
  const SchemaNode* node = root_.get();
  for (const PathStep& step : *steps) {
    switch (step.kind) {
      case PathStep::Kind::kItem: node = node->item(); break;
      case PathStep::Kind::kValue: node = node->value(); break;
      case PathStep::Kind::kField: node = node->Property(step.name); break;
    }
    if (node == nullptr) return nullptr;
  }
  return node->rules();
}

namespace {

const CrdRules* LoadBuiltin(std::string_view name) {
  for (const EmbeddedPolicy& policy : EmbeddedPolicies()) {
    if (policy.name != name) continue;
    Result<CrdRules> parsed = CrdRules::Parse(policy.bytes, name);
    return parsed.ok() ? new CrdRules(std::move(parsed).value()) : nullptr;
  }
  return nullptr;
}

// The table a release names in `Field`, loaded once, on first use.
template <std::string_view trainer::Release::*Field>
const CrdRules* CachedTable(trainer::TrainerVersion version) {
  static std::array<std::once_flag, trainer::kReleaseCount> once;
  static std::array<const CrdRules*, trainer::kReleaseCount> tables{};
  const auto index = static_cast<std::size_t>(version);
  std::call_once(once[index], [&] { tables[index] = LoadBuiltin(trainer::ReleaseOf(version).*Field); });
  return tables[index];
}

}  // namespace

const CrdRules* BuiltinCrdRules(trainer::TrainerVersion version) {
  return CachedTable<&trainer::Release::crd_rules>(version);
}

const CrdRules* BuiltinRuntimeCrdRules(trainer::TrainerVersion version) {
  return CachedTable<&trainer::Release::runtime_crd_rules>(version);
}

}  // namespace tjr::validate
