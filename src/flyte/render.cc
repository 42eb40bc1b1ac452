#include "flyte/render.h"

#include <algorithm>
#include <iterator>
#include <map>
#include <utility>

#include "base/object_name.h"
#include "doc/path.h"
#include "flyte/task.h"
#include "flyte/task_resources.h"
#include "flyte/trace.h"
#include "flyte/warnings.h"
#include "flyte/typed_value.h"
#include "gocompat/strconv.h"
#include "typed/object_meta_decode.h"

namespace tjr::flyte {

const std::vector<std::string>& SupportedFlyteTargets() {
  static const std::vector<std::string> targets = [] {
    std::vector<std::string> names;
    for (const Release& release : Releases()) names.emplace_back(release.target);
    return names;
  }();
  return targets;
}

std::string_view FlyteRelease(Version version) { return ReleaseOf(version).upstream; }

std::vector<source::ObjectType> FlyteObjectTypes() {
  return {{"v1", "PodTemplate", true, true}, {"v1", "ConfigMap", true, true, /*unique=*/false}};
}

void AcceptFlyteTasks(source::LoadOptions* options) {
  options->accept_untyped = [](const doc::Node& document) {
    return IsFlyteTaskDocument(document) || FindK8sSection(document) != nullptr ||
           FindTaskResourcesSection(document) != nullptr || ConfigFromChartValues(document).has_value();
  };
}

bool TaskResult::has_errors() const {
  return std::any_of(diagnostics.begin(), diagnostics.end(),
                     [](const Diagnostic& d) { return d.severity == Severity::kError; });
}

namespace {

// flyteadmin's task_resources, decoded over the built-in ones into `config`.
Status ApplyTaskResources(const doc::Node& section, PluginConfig* config) {
  if (Status s = DecodeTaskResourcesSection(section, &config->task_resources); !s.ok()) return s;
  config->task_resources_configured = true;
  return Ok();
}

// The Flyte configuration: the --flyte-config document, else the one
// configuration among the inputs that carries plugins.k8s (a plain file or
// a ConfigMap) and the one that carries flyteadmin's task_resources (the
// same or another: flyte-core keeps it in flyte-admin-base-config).
// A configuration document as written, or the one a Flyte chart's values
// carry (ConfigFromChartValues), with a note naming the file and the path.
// `*propeller_namespace`: the namespace the values give propeller, if any.
doc::Node ConfigDocument(const doc::Node& document, const std::string& file, Diagnostics* notes,
                         std::string* propeller_namespace = nullptr) {
  std::optional<ChartValuesConfig> values = ConfigFromChartValues(document);
  if (!values) return document;
  if (propeller_namespace != nullptr) *propeller_namespace = values->propeller_namespace;
  const bool k8s = FindK8sSection(values->document) != nullptr;
  Diagnostic note = MakeError(values->at.known() ? values->at : document.location(),
                              values->path + (k8s ? ".plugins.k8s" : ".task_resources"),
                              std::string(k8s ? "propeller's plugins.k8s" : "flyteadmin's task_resources") +
                                  " read from the " + values->chart + " Helm values in " + file +
                                  " (" + values->path + ", as the chart writes it into its ConfigMaps; " +
                                  (values->propeller_namespace.empty()
                                       ? std::string("propeller's namespace taken as \"flyte\", the release namespace "
                                                     "being unknown")
                                       : "propeller's namespace \"" + values->propeller_namespace +
                                             "\" from forceNamespace") +
                                  ")");
  note.severity = Severity::kNote;
  notes->push_back(std::move(note));
  return values->document;
}

// "a Deployment", "an Ingress", "an array".
std::string WithArticle(const std::string& word) {
  const bool vowel = !word.empty() && std::string_view("aeiouAEIOU").find(word.front()) != std::string_view::npos;
  return (vowel ? "an " : "a ") + word;
}

// Where LoadConfig found the configuration, for traces.
struct ConfigSources {
  doc::Node k8s_document, task_resources_section;
  std::string k8s_file, task_resources_file;
};

Result<PluginConfig> LoadConfig(const source::ManifestSet& manifests, const FlyteOptions& options,
                                Diagnostics* notes, ConfigSources* sources = nullptr) {
  // plugins.k8s, then the propeller section beside it.
  auto with_propeller = [](Result<PluginConfig> config, const doc::Node* propeller) -> Result<PluginConfig> {
    if (!config.ok() || propeller == nullptr) return config;
    if (Status s = ApplyPropellerSection(*propeller, &*config); !s.ok()) return s.take_error();
    return config;
  };
  auto propeller_of = [](const doc::Node& document) {
    return document.is_mapping() ? document.Find("propeller") : nullptr;
  };
  if (options.config_documents) {
    std::string given_namespace;
    Result<doc::Node> read = GivenConfigDocument(*options.config_documents, options.config_file, notes, &given_namespace);
    if (!read.ok()) return read.take_error();
    const doc::Node given = *std::move(read);
    const doc::Node* k8s = FindK8sSection(given);
    Result<PluginConfig> config =
        k8s == nullptr ? PluginConfig{} : with_propeller(ParsePluginConfig(*k8s), propeller_of(given));
    if (config.ok() && !given_namespace.empty()) config->propeller_namespace = given_namespace;
    if (sources != nullptr) {
      if (k8s != nullptr) *sources = {given, doc::Node(), options.config_file, ""};
      if (const doc::Node* admin = FindTaskResourcesSection(given)) {
        sources->task_resources_section = *admin;
        sources->task_resources_file = options.config_file;
      }
    }
    if (const doc::Node* admin = FindTaskResourcesSection(given); admin != nullptr && config.ok()) {
      if (Status s = ApplyTaskResources(*admin, &*config); !s.ok()) return s.take_error();
    }
    return config;
  }
  std::optional<doc::Node> section;
  const source::Manifest* from = nullptr;
  // flyteadmin's task_resources and where it came from.
  doc::Node admin;
  std::string admin_from;
  auto second_admin = [&](const Location& at) {
    return AsInputError(MakeError(at, "task_resources",
                                  "a second flyteadmin task_resources configuration (first: " + admin_from +
                                      "); give one, or --flyte-config FILE"));
  };
  // Plain configuration files among the inputs, and Flyte charts' values.
  const source::UntypedDocument* file = nullptr;
  doc::Node file_document;
  std::string file_namespace;  // propeller's, when a chart's values name it
  for (const source::UntypedDocument& document : manifests.untyped) {
    if (IsFlyteTaskDocument(document.document)) continue;
    std::string values_namespace;
    const doc::Node config_document = ConfigDocument(document.document, document.file, notes, &values_namespace);
    if (FindK8sSection(config_document) != nullptr) {
      if (file != nullptr) {
        return AsInputError(MakeError(document.document.location(), "plugins.k8s",
                                      "a second propeller configuration file (first: " + file->file +
                                          "); give one, or --flyte-config FILE"));
      }
      file = &document;
      file_document = config_document;
      file_namespace = values_namespace;
    }
    if (const doc::Node* found = FindTaskResourcesSection(config_document)) {
      if (!admin.is_null()) return second_admin(found->location());
      admin = *found;
      admin_from = "file " + document.file;
      if (sources != nullptr) sources->task_resources_file = document.file;
    }
  }
  doc::Node propeller;
  for (const source::Manifest& manifest : manifests.manifests) {
    if (manifest.id.kind != "ConfigMap" || manifest.id.api_version != "v1") continue;
    doc::Node this_propeller, this_admin;
    Result<std::optional<doc::Node>> k8s = K8sSectionFromConfigMap(manifest.object, &this_propeller, &this_admin);
    if (!k8s.ok()) return k8s.take_error();
    if (!this_admin.is_null()) {
      if (!admin.is_null()) return second_admin(manifest.location());
      admin = std::move(this_admin);
      admin_from = "ConfigMap " + manifest.id.namespace_ + "/" + manifest.id.name;
      if (sources != nullptr) sources->task_resources_file = manifest.file;
    }
    if (!*k8s) continue;
    if (from != nullptr || file != nullptr) {
      return AsInputError(MakeError(
          manifest.location(), "data",
          "a second propeller configuration (plugins.k8s): " +
              (from != nullptr ? "ConfigMap " + from->id.namespace_ + "/" + from->id.name
                               : "file " + file->file) +
              " has one already; give one, or --flyte-config FILE"));
    }
    from = &manifest;
    section = std::move(**k8s);
    propeller = std::move(this_propeller);
  }
  Result<PluginConfig> config = PluginConfig{};
  if (file != nullptr) {
    config = with_propeller(ParsePluginConfig(*FindK8sSection(file_document)), propeller_of(file_document));
    if (config.ok() && !file_namespace.empty()) config->propeller_namespace = file_namespace;
  } else if (section) {
    config = with_propeller(ParsePluginConfig(*section), &propeller);
    if (config.ok()) config->propeller_namespace = from->id.namespace_;
  }
  if (config.ok() && !admin.is_null()) {
    if (Status s = ApplyTaskResources(admin, &*config); !s.ok()) return s.take_error();
  }
  if (sources != nullptr) {
    if (file != nullptr) {
      sources->k8s_document = file_document;
      sources->k8s_file = file->file;
    } else if (from != nullptr) {
      sources->k8s_document = from->object;
      sources->k8s_file = from->file;
    }
    sources->task_resources_section = admin;
  }
  return config;
}

// The API server refuses a PodTemplate whose metadata does not decode
// (endpoints/handlers/rest.go transformDecodeError around the json error).
std::optional<Diagnostic> UndecodableTemplate(const source::Manifest& manifest) {
  std::optional<Diagnostic> error =
      typed::DecodeObjectMeta(manifest.object, typed::MetadataDecoder::kKubectl, "kubernetes-v1.34");
  if (error) error->message = "PodTemplate in version \"v1\" cannot be handled as a PodTemplate: " + error->message;
  return error;
}

// Without the admission wired, the part of core/validation
// ValidatePodTemplate -> ValidateObjectMeta that decides whether propeller
// can find the template: the name a DNS-1123 subdomain (ValidatePodName),
// the namespace a DNS-1123 label.
std::optional<Diagnostic> InvalidTemplateName(const source::Manifest& manifest) {
  const doc::Node* metadata = manifest.object.Find("metadata");
  auto invalid = [&](const char* field, const std::string& value, std::string detail) {
    const doc::Node* at = metadata != nullptr ? metadata->Find(field) : nullptr;
    Diagnostic error = MakeError(at != nullptr ? at->location() : manifest.location(),
                                 std::string("metadata.") + field,
                                 "Invalid value: " + gocompat::Quote(value) + ": " + detail);
    error.rule = "upstream/invalid-value";
    return error;
  };
  const std::string& name = manifest.id.name;
  if (name.size() > 253) return invalid("name", name, "must be no more than 253 characters");
  if (!MatchesDns1123Subdomain(name)) return invalid("name", name, std::string(kDns1123SubdomainMessage));
  const std::string& namespace_ = manifest.id.namespace_;
  if (namespace_.empty()) return std::nullopt;
  if (namespace_.size() > 63) return invalid("namespace", namespace_, "must be no more than 63 characters");
  if (!MatchesDns1123Label(namespace_)) return invalid("namespace", namespace_, std::string(kDns1123LabelMessage));
  return std::nullopt;
}

// Whether the API server refuses the PodTemplate, so that it never exists
// in the cluster and propeller can never find it; the reasons go to `out`.
bool RefusedTemplate(const source::Manifest& manifest, const FlyteOptions& options, Diagnostics* out) {
  std::optional<Diagnostic> error = UndecodableTemplate(manifest);
  if (!error && !options.admit_pod_template) error = InvalidTemplateName(manifest);
  if (error) {
    out->push_back(std::move(*error));
    return true;
  }
  if (!options.admit_pod_template) return false;
  Diagnostics admitted = options.admit_pod_template(manifest.object);
  const bool refused = HasErrors(admitted);
  out->insert(out->end(), std::make_move_iterator(admitted.begin()), std::make_move_iterator(admitted.end()));
  return refused;
}

Result<TemplateStore> LoadTemplates(const source::ManifestSet& manifests, const FlyteOptions& options,
                                    Diagnostics* refused) {
  TemplateStore store;
  for (const source::Manifest& manifest : manifests.manifests) {
    if (manifest.id.kind != "PodTemplate" || manifest.id.api_version != "v1") continue;
    if (RefusedTemplate(manifest, options, refused)) continue;
    StoredTemplate stored;
    stored.location = manifest.location();
    const doc::Node* tmpl = manifest.object.Find("template");
    doc::Node metadata = tmpl != nullptr && tmpl->Find("metadata") ? *tmpl->Find("metadata") : doc::Node();
    doc::Node spec = tmpl != nullptr && tmpl->Find("spec") ? *tmpl->Find("spec") : doc::Node();
    stored.written = spec;
    Result<doc::Node> typed_meta = ToGoForm(metadata, "ObjectMeta");
    if (!typed_meta.ok()) return AsInputError(typed_meta.take_error());
    Result<doc::Node> typed_spec = ToGoForm(spec, "PodSpec");
    if (!typed_spec.ok()) return AsInputError(typed_spec.take_error());
    stored.metadata = std::move(*typed_meta);
    stored.spec = std::move(*typed_spec);
    store[manifest.id.name][manifest.id.namespace_] = std::move(stored);
  }
  return store;
}

}  // namespace

Result<doc::Node> GivenConfigDocument(const std::vector<doc::Node>& documents, const std::string& file,
                                      Diagnostics* notes, std::string* propeller_namespace) {
  constexpr std::string_view kWhatItTakes =
      "--flyte-config takes propeller's config file (plugins: {k8s: ...}), its ConfigMap (kubectl get configmap "
      "-n flyte flyte-propeller-config -o yaml), a List of ConfigMaps or a Flyte chart's Helm values";
  auto refuse = [&](const doc::Node& at, const std::string& why) {
    return AsInputError(MakeError(at.location().known() ? at.location() : Location{InternSourceName(file)}, "",
                                  "--flyte-config: " + why + "; " + std::string(kWhatItTakes)));
  };
  doc::Node merged = doc::Node::Mapping();
  std::string read;  // what the file turned out to hold, for the message when it is nothing
  auto merge = [&](const doc::Node& document) { MergeConfigDocuments(&merged, document); };
  // A ConfigMap's merged data keys; its namespace is propeller's when it
  // carries plugins.k8s (the ConfigMap propeller mounts).
  auto configmap = [&](const doc::Node& object) {
    const std::string name = doc::StringAtPath(object, {"metadata", "namespace"}) + "/" +
                             doc::StringAtPath(object, {"metadata", "name"});
    read += (read.empty() ? "" : ", ") + ("ConfigMap " + name);
    std::optional<doc::Node> carried = ConfigMapDocument(object);
    if (!carried) return;
    const std::string namespace_ = doc::StringAtPath(object, {"metadata", "namespace"});
    if (FindK8sSection(*carried) != nullptr && !namespace_.empty()) *propeller_namespace = namespace_;
    merge(*carried);
  };
  auto is_v1 = [](const doc::Node& object, std::string_view kind) {
    return doc::StringAt(object, "apiVersion") == "v1" && doc::StringAt(object, "kind") == kind;
  };
  for (const doc::Node& document : documents) {
    if (document.is_null()) continue;
    if (!document.is_mapping()) {
      return refuse(document, "a document that is " + WithArticle(std::string(doc::KindName(document.kind()))) +
                                  ", not a mapping, is no configuration");
    }
    if (document.Find("apiVersion") != nullptr || document.Find("kind") != nullptr) {
      if (is_v1(document, "ConfigMap")) {
        configmap(document);
      } else if (is_v1(document, "List") || doc::StringAt(document, "kind") == "ConfigMapList") {
        // Items that are no ConfigMap, or carry no configuration (the
        // namespace's kube-root-ca.crt), are passed over.
        const doc::Node* items = document.Find("items");
        if (items == nullptr || !items->is_sequence() || items->items().empty()) {
          read += (read.empty() ? "" : ", ") + std::string("an empty List");
          continue;
        }
        for (const doc::Node& item : items->items()) {
          if (is_v1(item, "ConfigMap")) configmap(item);
        }
      } else {
        const std::string kind = doc::StringAt(document, "kind");
        const std::string api_version = doc::StringAt(document, "apiVersion");
        return refuse(document, (kind.empty() ? std::string("an object without kind") : WithArticle(kind)) +
                                    (api_version.empty() ? "" : " (" + api_version + ")") +
                                    " is not propeller's configuration");
      }
      continue;
    }
    std::string values_namespace;
    merge(ConfigDocument(document, file, notes, &values_namespace));
    if (!values_namespace.empty()) *propeller_namespace = values_namespace;
    read += (read.empty() ? "" : ", ") + std::string("a configuration document");
  }
  if (FindK8sSection(merged) == nullptr && !(merged.Find("propeller") != nullptr && merged.Find("propeller")->is_mapping()) &&
      FindTaskResourcesSection(merged) == nullptr) {
    std::string keys;
    for (const doc::Field& field : merged.fields()) keys += (keys.empty() ? "" : ", ") + field.key;
    const doc::Node& at = documents.empty() ? merged : documents.front();
    return refuse(at, (read.empty() ? std::string("the file holds no document") : "the file holds " + read) +
                          " and none of the sections tjrender reads (plugins.k8s, propeller, task_resources" +
                          (keys.empty() ? std::string(")") : "; its top-level keys: " + keys + ")") +
                          ", so the built-in defaults would apply unannounced");
  }
  return merged;
}

FlyteOutcome RenderFlyte(const source::ManifestSet& manifests, const FlyteOptions& options) {
  FlyteOutcome outcome;
  if (std::none_of(manifests.untyped.begin(), manifests.untyped.end(),
                   [](const source::UntypedDocument& d) { return IsFlyteTaskDocument(d.document); })) {
    // Read even with no task to render: a wrong file is an error, not a no-op.
    if (options.config_documents) {
      Diagnostics notes;
      std::string namespace_;
      Result<doc::Node> given = GivenConfigDocument(*options.config_documents, options.config_file, &notes, &namespace_);
      if (!given.ok()) outcome.diagnostics.push_back(given.take_error());
    }
    // And the PodTemplates: a deployment repository holds them before any
    // task is serialized.
    Result<TemplateStore> store = LoadTemplates(manifests, options, &outcome.diagnostics);
    if (!store.ok()) outcome.diagnostics.push_back(store.take_error());
    return outcome;
  }
  ConfigSources sources;
  Result<PluginConfig> config =
      LoadConfig(manifests, options, &outcome.diagnostics, options.keep_traces ? &sources : nullptr);
  if (!config.ok()) {
    outcome.diagnostics.push_back(AsInputError(config.take_error()));
    return outcome;
  }
  Result<TemplateStore> store = LoadTemplates(manifests, options, &outcome.diagnostics);
  if (!store.ok()) {
    outcome.diagnostics.push_back(store.take_error());
    return outcome;
  }
  std::map<std::pair<std::string, std::string>, Location> seen;
  for (const source::UntypedDocument& document : manifests.untyped) {
    if (!IsFlyteTaskDocument(document.document)) continue;  // configuration
    TaskResult result;
    result.file = document.file;
    Result<Task> task = ParseTask(document.document, document.file, options.default_namespace);
    if (!task.ok()) {
      Diagnostic error = task.take_error();
      if (error.category != Category::kInput) error = AsInputError(std::move(error));
      result.diagnostics.push_back(std::move(error));
      outcome.tasks.push_back(std::move(result));
      continue;
    }
    result.namespace_ = task->namespace_;
    result.name = task->name;
    auto key = std::pair{task->namespace_, task->name};
    if (auto [it, fresh] = seen.try_emplace(key, task->location); !fresh) {
      result.diagnostics.push_back(AsInputError(MakeError(
          task->location, "id.name",
          "duplicate Flyte task \"" + task->name + "\" in namespace \"" + task->namespace_ +
              "\" (first at " + it->second.ToString() + ")")));
      result.name.clear();
      outcome.tasks.push_back(std::move(result));
      continue;
    }
    Diagnostics warnings;
    std::shared_ptr<TaskTrace> trace;
    if (options.keep_traces) {
      trace = std::make_shared<TaskTrace>();
      trace->task_document = document.document;
      trace->task_file = document.file;
      trace->task_as_written = *task;
    }
    CheckTaskResourcesKnown(*task, *config, options.version, &warnings);
    LaunchThroughFlyteAdmin(&*task, config->task_resources, options.version);
    Result<doc::Node> pod =
        ComposePod(*task, *config, *store, options.version, &warnings, trace ? &trace->compose : nullptr);
    if (trace && pod.ok()) {
      trace->task = *task;
      trace->config_document = sources.k8s_document;
      trace->config_file = sources.k8s_file;
      trace->task_resources_section = sources.task_resources_section;
      trace->task_resources_file = sources.task_resources_file;
      trace->config = *config;
      trace->version = options.version;
      trace->target = std::string(ReleaseOf(options.version).target);
      trace->pod = *pod;
      result.trace = std::move(trace);
    }
    for (Diagnostic& w : warnings) {
      if (options.strict && w.severity == Severity::kWarning) w.severity = Severity::kError;
      result.diagnostics.push_back(std::move(w));
    }
    if (!pod.ok()) {
      result.diagnostics.push_back(pod.take_error());
    } else if (!result.has_errors()) {
      // The API server's admission: a Pod it refuses is not created.
      Diagnostics refused = options.admit_pod ? options.admit_pod(*pod, document.document) : Diagnostics{};
      const bool created = !HasErrors(refused);
      result.diagnostics.insert(result.diagnostics.end(), std::make_move_iterator(refused.begin()),
                                std::make_move_iterator(refused.end()));
      if (created) result.objects.push_back(std::move(*pod));
    }
    outcome.tasks.push_back(std::move(result));
  }
  std::stable_sort(outcome.tasks.begin(), outcome.tasks.end(),
                   [](const TaskResult& a, const TaskResult& b) {
                     return std::tie(a.namespace_, a.name) < std::tie(b.namespace_, b.name);
                   });
  return outcome;
}

}  // namespace tjr::flyte
