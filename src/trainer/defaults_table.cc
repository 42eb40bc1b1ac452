// Reads tjrender-crd-defaults/v1 documents (scripts/gen-crd-defaults).

#include "trainer/defaults_table.h"

#include <algorithm>
#include <mutex>
#include <optional>
#include <utility>

#include "json/json.h"
#include "schema/policy_object.h"
#include "trainer/embedded_defaults.h"

namespace tjr::trainer {
namespace {

constexpr std::string_view kFormat = "tjrender-crd-defaults/v1";
constexpr std::string_view kBuiltinName = kV21DefaultsTable;
constexpr std::string_view kHeadName = kHeadDefaultsTable;

using schema::PolicyObject;

// One step of a schema path.
struct PathStep {
  enum class Type { kProperty, kItems, kAdditional } type;
  std::string name;
};

// Splits "a.b[*].c{*}" into steps; false for anything else.
bool SplitPath(std::string_view path, std::vector<PathStep>* steps) {
  std::size_t i = 0;
  while (i < path.size()) {
    if (path.substr(i, 3) == "[*]") {
      if (steps->empty()) return false;
      steps->push_back({PathStep::Type::kItems, {}});
      i += 3;
      continue;
    }
    if (path.substr(i, 3) == "{*}") {
      if (steps->empty()) return false;
      steps->push_back({PathStep::Type::kAdditional, {}});
      i += 3;
      continue;
    }
    if (!steps->empty()) {
      if (path[i] != '.') return false;
      ++i;
    }
    std::size_t end = path.find_first_of(".[{", i);
    if (end == std::string_view::npos) end = path.size();
    if (end == i) return false;
    steps->push_back({PathStep::Type::kProperty, std::string(path.substr(i, end - i))});
    i = end;
  }
  return !steps->empty();
}

DefaultsNode* Child(DefaultsNode* node, const PathStep& step) {
  std::unique_ptr<DefaultsNode>* slot = nullptr;
  switch (step.type) {
    case PathStep::Type::kItems:
      slot = &node->items;
      break;
    case PathStep::Type::kAdditional:
      slot = &node->additional;
      break;
    case PathStep::Type::kProperty: {
      auto it = std::lower_bound(
          node->properties.begin(), node->properties.end(), step.name,
          [](const DefaultsNode::Property& p, const std::string& name) { return p.name < name; });
      if (it == node->properties.end() || it->name != step.name) {
        it = node->properties.insert(it, {step.name, std::make_unique<DefaultsNode>()});
      }
      return it->node.get();
    }
  }
  if (*slot == nullptr) *slot = std::make_unique<DefaultsNode>();
  return slot->get();
}

Status AddDefault(KindDefaults* kind, const doc::Node& entry) {
  PolicyObject object(entry, "default of " + kind->kind);
  auto def = std::make_unique<CrdDefault>();
  def->path = object.String("path");
  def->source = object.String("source");
  const doc::Node* value = entry.is_mapping() ? entry.Find("value") : nullptr;
  object.Allow("value");
  object.Allow("type");
  object.Allow("lists");
  if (Status status = object.Finish(); !status) return status;
  if (value == nullptr || value->is_null()) {
    return MakeError(entry.location(), "", "default of " + kind->kind + " at " + def->path +
                                               " lacks a non-null \"value\"");
  }
  def->value = *value;
  std::vector<PathStep> steps;
  if (!SplitPath(def->path, &steps)) {
    return MakeError(entry.location(), "", "bad default path \"" + def->path + "\"");
  }
  DefaultsNode* node = &kind->root;
  for (const PathStep& step : steps) node = Child(node, step);
  if (node->default_value != nullptr) {
    return MakeError(entry.location(), "", "two defaults for " + kind->kind + " " + def->path);
  }
  node->default_value = def.get();
  kind->defaults.push_back(std::move(def));
  return Ok();
}

// Structural schemas keep properties and additionalProperties apart; the
// defaulter relies on it to tell a property from a map key.
bool Structural(const DefaultsNode& node) {
  if (!node.properties.empty() && node.additional != nullptr) return false;
  for (const DefaultsNode::Property& p : node.properties) {
    if (!Structural(*p.node)) return false;
  }
  if (node.items != nullptr && !Structural(*node.items)) return false;
  if (node.additional != nullptr && !Structural(*node.additional)) return false;
  return true;
}

Result<std::unique_ptr<KindDefaults>> ParseKind(const doc::Node& node) {
  auto kind = std::make_unique<KindDefaults>();
  PolicyObject object(node, "kind");
  kind->group = object.String("group");
  kind->version = object.String("version");
  kind->kind = object.String("kind");
  kind->crd = object.String("crd");
  object.Allow("scope");
  const doc::Node* defaults = object.Child("defaults", doc::Kind::kSequence);
  if (Status status = object.Finish(); !status) return status.take_error();
  for (const doc::Node& entry : defaults->items()) {
    if (Status status = AddDefault(kind.get(), entry); !status) return status.take_error();
  }
  if (!Structural(kind->root)) {
    return MakeError(node.location(), "", kind->kind + ": a schema node has both properties and "
                                          "additionalProperties defaults");
  }
  return kind;
}

}  // namespace

const DefaultsNode* DefaultsNode::Find(std::string_view name) const {
  for (const Property& p : properties) {
    if (p.name == name) return p.node.get();
  }
  return nullptr;
}

Result<DefaultsTable> DefaultsTable::Parse(std::string_view json_text,
                                           std::string_view source_name) {
  Result<doc::Node> document = json::Read(json_text, source_name);
  if (!document) return document.take_error();
  DefaultsTable table;
  PolicyObject object(*document, "defaults table");
  std::string format = object.String("format");
  table.name_ = object.String("name");
  const doc::Node* provenance = object.Child("provenance", doc::Kind::kMapping);
  const doc::Node* kinds = object.Child("kinds", doc::Kind::kSequence);
  if (Status status = object.Finish(); !status) return status.take_error();
  if (format != kFormat) {
    return MakeError(document->location(), "", "defaults table format \"" + format +
                                                   "\", expected \"" + std::string(kFormat) + "\"");
  }
  const doc::Node* upstream = provenance->Find("upstream");
  if (upstream == nullptr || !upstream->is_mapping()) {
    return MakeError(provenance->location(), "", "defaults table provenance lacks \"upstream\"");
  }
  PolicyObject up(*upstream, "provenance upstream");
  std::string repo = up.String("repo");
  std::string tag = up.String("tag");
  std::string commit = up.String("commit");
  up.Allow("dir");
  if (Status status = up.Finish(); !status) return status.take_error();
  table.upstream_ = repo + " " + tag + " (" + commit.substr(0, 12) + ")";
  for (const doc::Node& node : kinds->items()) {
    Result<std::unique_ptr<KindDefaults>> kind = ParseKind(node);
    if (!kind) return kind.take_error();
    if (table.Find((*kind)->api_version(), (*kind)->kind) != nullptr) {
      return MakeError(node.location(), "", "kind " + (*kind)->kind + " is listed twice");
    }
    table.kinds_.push_back(std::move(kind.value()));
  }
  return table;
}

const KindDefaults* DefaultsTable::Find(std::string_view api_version,
                                        std::string_view kind) const {
  for (const auto& k : kinds_) {
    if (k->kind == kind && k->api_version() == api_version) return k.get();
  }
  return nullptr;
}

namespace {

Result<DefaultsTable> ParseBuiltin(std::string_view name) {
  for (const EmbeddedPolicy& policy : EmbeddedPolicies()) {
    if (policy.name == name) {
      return DefaultsTable::Parse(policy.bytes, "policies/" + std::string(policy.name) + ".json");
    }
  }
  return MakeError({}, "", "the defaults table " + std::string(name) + " is not built in");
}

}  // namespace

Result<const DefaultsTable*> BuiltinDefaults(std::string_view name) {
  // Each table is parsed on first use only; it is immutable afterwards and
  // shared by all threads (function-local statics initialise thread-safely).
  const Result<DefaultsTable>* table = nullptr;
  if (name == kBuiltinName) {
    static const Result<DefaultsTable> kV21 = ParseBuiltin(kBuiltinName);
    table = &kV21;
  } else if (name == kHeadName) {
    static const Result<DefaultsTable> kHead = ParseBuiltin(kHeadName);
    table = &kHead;
  }
  if (table == nullptr) return MakeError({}, "", "no defaults table named " + std::string(name));
  if (!table->ok()) return table->error();
  return &table->value();
}

}  // namespace tjr::trainer
