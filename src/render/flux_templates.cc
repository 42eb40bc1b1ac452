// The Flux templates compiled in from policies/flux-templates.json.
#include "render/flux_templates.h"

#include <optional>

#include "json/json.h"
#include "render/embedded_flux.h"
#include "doc/path.h"
#include "render/tree.h"

namespace tjr::render {
namespace {

struct Loaded {
  std::optional<Result<FluxTemplates>> v22;
  std::optional<Result<FluxTemplates>> v23;
};

Result<FluxTemplates> Extract(const doc::Node& root, std::string_view tag) {
  const doc::Node* templates = doc::FindPath(root, {"releases", tag, "templates"});
  if (templates == nullptr || !templates->is_mapping()) {
    return MakeError({}, "", "embedded flux-templates.json has no templates for " + std::string(tag));
  }
  FluxTemplates out;
  const std::pair<std::string_view, std::string*> files[] = {
      {"broker.toml", &out.broker}, {"entrypoint.sh", &out.entrypoint}, {"init.sh", &out.init}};
  for (const auto& [name, text] : files) {
    const doc::Node* value = doc::FindPath(*templates, {name, "text"});
    if (value == nullptr || !value->is_string()) {
      return MakeError({}, "", "embedded flux-templates.json lacks " + std::string(tag) + " " + std::string(name));
    }
    *text = value->string_value();
  }
  return out;
}

const Loaded& LoadAll() {
  static const Loaded loaded = [] {
    Loaded l;
    for (const flux_data::EmbeddedPolicy& file : flux_data::EmbeddedPolicies()) {
      if (file.name != "flux-templates") continue;
      Result<doc::Node> root = json::Read(file.bytes, "policies/flux-templates.json");
      if (!root.ok()) {
        l.v22 = Result<FluxTemplates>(root.error());
        l.v23 = Result<FluxTemplates>(root.error());
        return l;
      }
      l.v22 = Extract(*root, "v2.2.0");
      l.v23 = Extract(*root, "v2.3.0");
    }
    return l;
  }();
  return loaded;
}

}  // namespace

Result<const FluxTemplates*> LoadFluxTemplates(trainer::TrainerVersion version) {
  const Loaded& loaded = LoadAll();
  const std::optional<Result<FluxTemplates>>* slot = nullptr;
  const std::string_view key = trainer::ReleaseOf(version).flux_templates;
  if (key == "v2.2.0") slot = &loaded.v22;
  if (key == "v2.3.0") slot = &loaded.v23;
  if (slot == nullptr) return MakeError({}, "", "Trainer v2.1.0 has no Flux plugin");
  if (!slot->has_value()) return MakeError({}, "", "policies/flux-templates.json is not compiled in");
  if (!(*slot)->ok()) return (*slot)->error();
  return &(*slot)->value();
}

std::string SprintfS(std::string_view format, std::initializer_list<std::string_view> args) {
  std::string out;
  out.reserve(format.size() + 256);
  auto next = args.begin();
  for (std::size_t i = 0; i < format.size(); ++i) {
    if (format[i] != '%' || i + 1 == format.size()) {
      out += format[i];
      continue;
    }
    const char verb = format[++i];
    if (verb == '%') {
      out += '%';
    } else if (verb == 's') {
      if (next == args.end()) {
        out += "%!s(MISSING)";
      } else {
        out += *next++;
      }
    } else {
      // Not used by the templates; kept verbatim rather than guessed.
      out += '%';
      out += verb;
    }
  }
  if (next != args.end()) {
    out += "%!(EXTRA ";
    for (bool first = true; next != args.end(); ++next, first = false) {
      out += (first ? "string=" : ", string=");
      out += *next;
    }
    out += ")";
  }
  return out;
}

}  // namespace tjr::render
