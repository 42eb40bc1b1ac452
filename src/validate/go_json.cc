#include "validate/go_json.h"

#include "gocompat/json_quote.h"
#include "json/json.h"
#include "schema/schema.h"
#include "trainer/api_types.h"
#include "typed/round_trip.h"

namespace tjr::validate {
namespace {

constexpr std::string_view kCore = "k8s.io/api/core/v1.";

bool Present(const doc::Node* node) { return node != nullptr && !node->is_null(); }

bool NonEmptyList(const doc::Node* node) { return node != nullptr && node->is_sequence() && !node->empty(); }

void Write(const doc::Node& value, std::string* out) {
  switch (value.kind()) {
    case doc::Kind::kNull: *out += "null"; return;
    case doc::Kind::kBool: *out += value.bool_value() ? "true" : "false"; return;
    case doc::Kind::kInt: *out += std::to_string(value.int_value()); return;
    case doc::Kind::kFloat: *out += json::Write(value, false); return;
    case doc::Kind::kString: gocompat::AppendJsonString(value.string_value(), out); return;
    case doc::Kind::kSequence: {
      *out += '[';
      bool first = true;
      for (const doc::Node& item : value.items()) {
        if (!first) *out += ',';
        first = false;
        Write(item, out);
      }
      *out += ']';
      return;
    }
    case doc::Kind::kMapping: {
      *out += '{';
      bool first = true;
      for (const doc::Field& field : value.fields()) {
        if (!first) *out += ',';
        first = false;
        gocompat::AppendJsonString(field.key, out);
        *out += ':';
        Write(field.value, out);
      }
      *out += '}';
      return;
    }
  }
}

doc::Node TypedList(const doc::Node& list, std::string_view type_name, trainer::TrainerVersion version) {
  doc::Node out = doc::Node::Sequence();
  for (const doc::Node& item : list.items()) out.push_back(Typed(item, type_name, version));
  return out;
}

std::string TrainerType(std::string_view name) {
  return std::string(trainer::kApiPackage) + "." + std::string(name);
}

}  // namespace

std::string WriteOrdered(const doc::Node& value) {
  std::string out;
  Write(value, &out);
  return out;
}

doc::Node Typed(const doc::Node& value, std::string_view type_name, trainer::TrainerVersion version) {
  Result<const schema::Schema*> schema = trainer::ReleaseSchema(version);
  const schema::Type* type = schema.ok() ? (*schema)->FindType(type_name) : nullptr;
  if (type == nullptr) return value;
  // Stored by the API server, which pruned every key that is not exactly a field name.
  typed::UnmarshalOptions options;
  options.case_sensitive = true;
  Result<doc::Node> typed = typed::TypedRoundTrip(value, *type, options);
  return typed.ok() ? *typed : value;
}

std::string RuntimeRefJson(const doc::Node* runtime_ref, trainer::TrainerVersion version) {
  return WriteOrdered(Typed(Present(runtime_ref) ? *runtime_ref : doc::Node::Mapping(), TrainerType("RuntimeRef"),
                            version));
}

std::string PodTemplateOverridesJson(const doc::Node& overrides, trainer::TrainerVersion version) {
  if (!NonEmptyList(&overrides)) return "null";
  return WriteOrdered(TypedList(overrides, TrainerType("PodTemplateOverride"), version));
}

std::string EnvListJson(const doc::Node& env, trainer::TrainerVersion version) {
  if (!NonEmptyList(&env)) return "null";
  return WriteOrdered(TypedList(env, std::string(kCore) + "EnvVar", version));
}

std::string ResourcesJson(const doc::Node* resources, trainer::TrainerVersion version) {
  if (!Present(resources)) return "null";
  return WriteOrdered(Typed(*resources, std::string(kCore) + "ResourceRequirements", version));
}

std::string IntOrStringJson(const doc::Node& value) { return WriteOrdered(value); }

std::string ContainersJson(const doc::Node& containers, trainer::TrainerVersion version) {
  if (!NonEmptyList(&containers)) return "null";
  return WriteOrdered(TypedList(containers, std::string(kCore) + "Container", version));
}

}  // namespace tjr::validate
