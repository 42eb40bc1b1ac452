#include "flyte/typed_value.h"

#include <string>

#include "typed/round_trip.h"

namespace tjr::flyte {

const schema::Type* CoreType(std::string_view name) {
  Result<const schema::Schema*> schema = schema::BuiltinSchema({"kubernetes-v1.34"});
  if (!schema.ok()) return nullptr;
  std::string full = name == "ObjectMeta" ? "k8s.io/apimachinery/pkg/apis/meta/v1.ObjectMeta"
                                          : "k8s.io/api/core/v1." + std::string(name);
  return (*schema)->FindType(full);
}

Result<doc::Node> ToGoForm(const doc::Node& value, std::string_view go_type) {
  if (go_type.starts_with("[]")) {
    if (value.is_null()) return doc::Node();
    if (!value.is_sequence()) {
      return MakeError(value.location(), "",
                       "must be a list, found " + std::string(doc::KindName(value.kind())));
    }
    doc::Node out = doc::Node::Sequence(value.location());
    for (const doc::Node& item : value.items()) {
      Result<doc::Node> typed = ToGoForm(item, go_type.substr(2));
      if (!typed.ok()) return typed.take_error();
      out.push_back(std::move(*typed));
    }
    return out;
  }
  const schema::Type* type = CoreType(go_type);
  if (type == nullptr) {
    return MakeError(value.location(), "", "internal: no Go type " + std::string(go_type));
  }
  return typed::TypedRoundTrip(value, *type);
}

}  // namespace tjr::flyte
