#include <algorithm>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "json/json.h"
#include "schema/embedded_policies.h"
#include "schema/schema.h"

namespace tjr::schema {
namespace {

const EmbeddedPolicy* FindPolicy(std::string_view name) {
  for (const EmbeddedPolicy& policy : EmbeddedPolicies()) {
    if (policy.name == name) return &policy;
  }
  return nullptr;
}

std::string KnownNames() {
  std::string out;
  for (const std::string& name : BuiltinPolicyNames()) {
    if (!out.empty()) out += ", ";
    out += name;
  }
  return out;
}

// `locations` false reads the embedded JSON without them (a third of a
// small run's instructions went to tracking them); a schema that does not
// load is read again with them, so its errors point into the policy file.
Result<std::unique_ptr<Schema>> Build(const std::vector<std::string>& names, bool locations) {
  json::ReadOptions read_options;
  read_options.locations = locations;
  std::vector<doc::Node> documents;
  for (const std::string& name : names) {
    if (std::count(names.begin(), names.end(), name) > 1) {
      return MakeError({}, "", "policy set " + name + " is selected twice");
    }
    const EmbeddedPolicy* policy = FindPolicy(name);
    if (policy == nullptr) {
      return MakeError({}, "", "unknown policy set \"" + name + "\" (built in: " + KnownNames() + ")");
    }
    Result<doc::Node> document = json::Read(policy->bytes, "policies/" + name + ".json", read_options);
    if (!document) return document.take_error();
    documents.push_back(std::move(document.value()));
  }
  Result<Schema> schema = LoadSchema(documents);
  if (!schema) return locations ? schema.take_error() : Build(names, /*locations=*/true);
  return std::make_unique<Schema>(std::move(schema.value()));
}

}  // namespace

std::vector<std::string> BuiltinPolicyNames() {
  std::vector<std::string> names;
  for (const EmbeddedPolicy& policy : EmbeddedPolicies()) names.emplace_back(policy.name);
  return names;
}

Result<const Schema*> BuiltinSchema(const std::vector<std::string>& policy_names) {
  // Schemas are immutable once built, so every caller asking for the same
  // combination shares one; the lock only guards the cache itself.
  static std::mutex mutex;
  static std::map<std::vector<std::string>, std::unique_ptr<Schema>> cache;
  std::lock_guard<std::mutex> lock(mutex);
  auto it = cache.find(policy_names);
  if (it != cache.end()) return it->second.get();
  Result<std::unique_ptr<Schema>> built = Build(policy_names, /*locations=*/false);
  if (!built) return built.take_error();
  const Schema* schema = built.value().get();
  cache.emplace(policy_names, std::move(built.value()));
  return schema;
}

}  // namespace tjr::schema
