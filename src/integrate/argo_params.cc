#include "integrate/argo_params.h"

#include <algorithm>

#include "json/json.h"
#include "report/ignore.h"

extern char** environ;  // POSIX

namespace tjr::integrate {
namespace {

// What the parameters and env said, as strings, before checking.
struct Raw {
  std::map<std::string, std::string> values;                ///< string parameters
  std::map<std::string, std::vector<std::string>> arrays;   ///< array parameters
};

std::string Get(const std::map<std::string, std::string>& env, const std::string& key) {
  auto it = env.find(key);
  return it == env.end() ? std::string() : it->second;
}

// Argo CD's PARAM_ names: upper case, everything outside [A-Z0-9_] as '_'.
std::string EnvName(std::string_view name) {
  std::string out = "PARAM_";
  for (char c : name) {
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
    bool ok = (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    out += ok ? c : '_';
  }
  return out;
}

bool Known(std::string_view name) {
  return std::find_if(std::begin(kArgoParameters), std::end(kArgoParameters),
                      [&](const char* known) { return name == known; }) != std::end(kArgoParameters);
}

Diagnostic EnvError(const std::string& variable, const std::string& message) {
  return AsInputError(MakeError(Location{InternSourceName(variable)}, "", message));
}

std::string KnownList() {
  std::string list;
  for (const char* name : kArgoParameters) list += (list.empty() ? "" : ", ") + std::string(name);
  return list;
}

// ARGOCD_APP_PARAMETERS: [{"name": "mode", "string": "render"},
// {"name": "runtime-paths", "array": ["runtimes"]}, ...].
Status ReadParametersJson(const std::string& text, Raw* raw) {
  Result<doc::Node> parsed = json::Read(text, "ARGOCD_APP_PARAMETERS");
  if (!parsed.ok()) return AsInputError(parsed.take_error());
  // An Application without parameters (`plugin: {name: tjrender}`, `plugin:
  // {}`, only `plugin.env`) has a nil list, which json.Marshal writes as
  // `null` (argo-cd pkg/apis/application/v1alpha1/types.go,
  // ApplicationSourcePluginParameters.Environ).
  if (parsed->is_null()) return Ok();
  if (!parsed->is_sequence()) {
    return EnvError("ARGOCD_APP_PARAMETERS", "must be a JSON list of parameters");
  }
  for (const doc::Node& parameter : parsed->items()) {
    const doc::Node* name = parameter.is_mapping() ? parameter.Find("name") : nullptr;
    if (name == nullptr || !name->is_string()) {
      return EnvError("ARGOCD_APP_PARAMETERS", "a parameter without a string `name`");
    }
    const std::string& key = name->string_value();
    if (!Known(key)) {
      return EnvError("ARGOCD_APP_PARAMETERS",
                      "unknown parameter '" + key + "' (known: " + KnownList() + ")");
    }
    if (const doc::Node* value = parameter.Find("string"); value != nullptr && value->is_string()) {
      raw->values[key] = value->string_value();
    }
    if (const doc::Node* array = parameter.Find("array"); array != nullptr && array->is_sequence()) {
      std::vector<std::string>& items = raw->arrays[key];
      for (const doc::Node& item : array->items()) {
        if (item.is_string()) items.push_back(item.string_value());
      }
    }
  }
  return Ok();
}

// PARAM_<NAME> and PARAM_<NAME>_<i>, for when ARGOCD_APP_PARAMETERS is absent.
Status ReadParamVariables(const std::map<std::string, std::string>& env, Raw* raw) {
  // Array items by their number: PARAM_X_10 comes after PARAM_X_9.
  std::map<std::string, std::map<unsigned long, std::string>> indexed;
  for (const auto& [variable, value] : env) {
    if (variable.rfind("PARAM_", 0) != 0) continue;
    bool matched = false;
    for (const char* name : kArgoParameters) {
      std::string base = EnvName(name);
      if (variable == base) {
        raw->values[name] = value;
        matched = true;
      } else if (variable.rfind(base + "_", 0) == 0 && variable.size() > base.size() + 1 &&
                 variable.size() < base.size() + 8 &&
                 variable.find_first_not_of("0123456789", base.size() + 1) == std::string::npos) {
        indexed[name].emplace(std::stoul(variable.substr(base.size() + 1)), value);
        matched = true;
      }
    }
    if (!matched) {
      return EnvError(variable, "unknown plugin parameter (known: " + KnownList() + ")");
    }
  }
  for (auto& [name, items] : indexed) {
    for (auto& [index, value] : items) raw->arrays[name].push_back(std::move(value));
  }
  return Ok();
}

}  // namespace

Result<ArgoSettings> ReadArgoSettings(const std::map<std::string, std::string>& env) {
  Raw raw;
  // The plugin env (weakest) first, so parameters overwrite it.
  const std::pair<const char*, const char*> env_names[] = {
      {"ARGOCD_ENV_TJRENDER_MODE", "mode"},
      {"ARGOCD_ENV_TJRENDER_TARGET", "target"},
      {"ARGOCD_ENV_TJRENDER_ALLOW_EMPTY", "allow-empty"},
  };
  for (const auto& [variable, name] : env_names) {
    if (env.count(variable)) raw.values[name] = Get(env, variable);
  }
  if (env.count("ARGOCD_ENV_TJRENDER_RUNTIME_PATHS")) {
    raw.arrays["runtime-paths"] = report::SplitRuleList(Get(env, "ARGOCD_ENV_TJRENDER_RUNTIME_PATHS"));
  }
  Raw parameters;
  std::string json = Get(env, "ARGOCD_APP_PARAMETERS");
  Status read = !json.empty() ? ReadParametersJson(json, &parameters) : ReadParamVariables(env, &parameters);
  if (!read.ok()) return read.take_error();
  for (auto& [name, value] : parameters.values) raw.values[name] = value;
  for (auto& [name, items] : parameters.arrays) raw.arrays[name] = items;
  if (raw.values.count("runtime-paths") && !raw.arrays.count("runtime-paths")) {
    raw.arrays["runtime-paths"] = report::SplitRuleList(raw.values["runtime-paths"]);
  }

  ArgoSettings settings;
  if (raw.values.count("mode")) {
    const std::string& mode = raw.values["mode"];
    if (mode == "validate") {
      settings.mode = ArgoMode::kValidate;
    } else if (mode == "render") {
      settings.mode = ArgoMode::kRender;
    } else {
      return EnvError("mode", "parameter mode must be validate or render, not '" + mode + "'");
    }
  }
  settings.target = raw.values.count("target") ? raw.values["target"] : "";
  if (raw.values.count("allow-empty")) {
    const std::string& allow = raw.values["allow-empty"];
    if (allow != "true" && allow != "false") {
      return EnvError("allow-empty", "parameter allow-empty must be true or false, not '" + allow + "'");
    }
    settings.allow_empty = allow == "true";
  }
  settings.runtime_paths = raw.arrays["runtime-paths"];
  settings.app_name = Get(env, "ARGOCD_APP_NAME");
  settings.app_namespace = Get(env, "ARGOCD_APP_NAMESPACE");
  settings.source_path = Get(env, "ARGOCD_APP_SOURCE_PATH");
  settings.revision = Get(env, "ARGOCD_APP_REVISION");
  settings.cluster_api_versions = report::SplitRuleList(Get(env, "KUBE_API_VERSIONS"));
  return settings;
}

std::string MissingClusterApi(const ArgoSettings& settings) {
  if (settings.cluster_api_versions.empty()) return {};
  const bool render = settings.mode == ArgoMode::kRender;
  const std::string needed = render ? "jobset.x-k8s.io/v1alpha2" : "trainer.kubeflow.org/v1alpha1";
  const auto& served = settings.cluster_api_versions;
  if (std::find(served.begin(), served.end(), needed) != served.end()) return {};
  return "the destination cluster does not serve " + needed + " (KUBE_API_VERSIONS)" +
         (render ? ": install JobSet, or use mode validate with the Trainer controller"
                 : ": install the Kubeflow Trainer, or use mode render for a cluster with JobSet only");
}

std::map<std::string, std::string> ProcessEnvironment() {
  std::map<std::string, std::string> env;
  for (char** entry = environ; entry != nullptr && *entry != nullptr; ++entry) {
    std::string_view text(*entry);
    std::size_t equals = text.find('=');
    if (equals == std::string_view::npos) continue;
    env.emplace(std::string(text.substr(0, equals)), std::string(text.substr(equals + 1)));
  }
  return env;
}

}  // namespace tjr::integrate
