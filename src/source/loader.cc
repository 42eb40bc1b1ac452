#include "source/loader.h"

#include <algorithm>
#include <set>
#include <thread>
#include <utility>

#include "base/file.h"
#include "base/ordered_parallel.h"
#include "source/disk_tree.h"
#include "source/document_class.h"
#include "doc/path.h"
#include "source/embedded_runtimes.h"
#include "source/helm_chart.h"
#include "source/unrendered_template.h"
#include "source/walk.h"
#include "yaml/reader.h"

namespace tjr::source {
namespace {

Diagnostic InputError(const Location& at, std::string field, std::string message) {
  return AsInputError(MakeError(at, std::move(field), std::move(message)));
}

Diagnostic Note(const Location& at, std::string field, std::string message) {
  Diagnostic note = MakeError(at, std::move(field), std::move(message));
  note.severity = Severity::kNote;
  return note;
}

// The identity the API server keys objects by: the version is only an
// encoding, so two versions of one kind and name are one object.
struct StorageKey {
  std::string group;
  std::string kind;
  std::string namespace_;
  std::string name;
  friend auto operator<=>(const StorageKey&, const StorageKey&) = default;
};

// What a manifest repository holds besides objects is skipped with a note,
// or refused under LoadOptions::strict_inputs.
Diagnostic Skipped(const LoadOptions& options, const Location& at, const std::string& why) {
  if (options.strict_inputs) return InputError(at, "", why + " (--strict-inputs)");
  return Note(at, "", "skipped: " + why);
}

class Loader {
 public:
  Loader(const LoadOptions& options, ManifestSet* set) : options_(options), set_(set) {}

  /// Admits a file's documents; false when the file held documents but
  /// none of them was an object (it counts as skipped).
  bool AdmitAll(const std::vector<doc::Node>& documents, const std::string& file) {
    bool any = false;
    bool objects_seen = false;
    for (const doc::Node& document : documents) {
      if (document.is_null()) continue;
      any = true;
      if (options_.accept_untyped && document.is_mapping() && document.Find("apiVersion") == nullptr &&
          document.Find("kind") == nullptr && options_.accept_untyped(document)) {
        set_->untyped.push_back({document, file});
        objects_seen = true;
        continue;
      }
      DocumentVerdict verdict = ClassifyDocument(document, options_.types);
      if (verdict.kind != DocumentClass::kObject) {
        set_->diagnostics.push_back(Skipped(options_, document.location(), verdict.why));
        continue;
      }
      objects_seen = true;
      // One document at a time, so a bad List item costs only itself.
      Result<std::vector<doc::Node>> objects = doc::FlattenLists({document});
      if (!objects.ok()) {
        set_->diagnostics.push_back(AsInputError(objects.take_error()));
        continue;
      }
      for (doc::Node& object : *objects) Admit(std::move(object), file);
    }
    return objects_seen || !any;
  }

  /// Objects defined more than once: each copy is a finding naming the
  /// others, and none is kept (which one the cluster ends up with depends on
  /// the order of applies, so no answer would be the cluster's).
  void DropDuplicates() {
    std::vector<std::size_t> drop;
    for (const auto& [key, copies] : seen_) {
      if (copies.size() < 2) continue;
      const Manifest& any = set_->manifests[copies.front()];
      std::string what = any.id.kind + " " + (any.id.namespace_.empty() ? "" : any.id.namespace_ + "/") + any.id.name;
      DuplicateObject dropped{key.group, key.kind, key.namespace_, key.name, {}};
      for (std::size_t copy : copies) dropped.copies.push_back(set_->manifests[copy].location());
      set_->duplicates.push_back(std::move(dropped));
      for (std::size_t copy : copies) {
        std::string others;
        for (std::size_t other : copies) {
          if (other == copy) continue;
          others += (others.empty() ? "" : ", ") + set_->manifests[other].location().ToString();
        }
        Diagnostic duplicate = MakeError(set_->manifests[copy].location(), "",
                                         "[duplicate-object] duplicate " + what + ": also defined at " + others +
                                             "; no copy is rendered or checked");
        duplicate.rule = "duplicate-object";
        set_->diagnostics.push_back(std::move(duplicate));
        drop.push_back(copy);
      }
    }
    if (drop.empty()) return;
    std::sort(drop.begin(), drop.end());
    std::size_t next = 0;
    std::size_t index = 0;
    std::erase_if(set_->manifests, [&](const Manifest&) {
      bool dropped = next < drop.size() && drop[next] == index;
      if (dropped) ++next;
      ++index;
      return dropped;
    });
  }

 private:
  // A required string field of the object's top level (kind, apiVersion).
  const std::string* TypeField(const doc::Node& object, const char* field) {
    const doc::Node* value = object.Find(field);
    if (value == nullptr || value->is_null() ||
        (value->is_string() && value->string_value().empty())) {
      set_->diagnostics.push_back(
          InputError(object.location(), field, "required: the object has no " + std::string(field)));
      return nullptr;
    }
    if (!value->is_string()) {
      set_->diagnostics.push_back(InputError(value->location(), field,
                                             "must be a string, found " +
                                                 std::string(doc::KindName(value->kind()))));
      return nullptr;
    }
    return &value->string_value();
  }

  const ObjectType* FindType(const std::string& api_version, const std::string& kind) const {
    auto match = std::find_if(options_.types.begin(), options_.types.end(),
                              [&](const ObjectType& type) {
                                return type.api_version == api_version && type.kind == kind;
                              });
    return match == options_.types.end() ? nullptr : &*match;
  }

  void Admit(doc::Node object, const std::string& file) {
    const std::string* kind = TypeField(object, "kind");
    const std::string* api_version = TypeField(object, "apiVersion");
    if (kind == nullptr || api_version == nullptr) return;
    const ObjectType* type = FindType(*api_version, *kind);
    if (type == nullptr) {
      NoteNearMiss(object, *api_version, *kind, file);
      ++set_->ignored[{*api_version, *kind}];
      return;
    }
    const ObjectType kept = *type;
    Manifest manifest;
    manifest.file = file;
    manifest.id.api_version = *api_version;
    manifest.id.kind = *kind;
    if (!CheckMetadata(object, &manifest.id.name, &manifest.generate_name)) return;
    if (!PlaceInNamespace(kept, &object, &manifest.id.namespace_)) return;
    if (!manifest.generate_name.empty()) {
      // The API server names it on create (rest.BeforeCreate, before any
      // validation): checked under the longest name it could get, one
      // placeholder per object of the same prefix, never a duplicate.
      StorageKey prefix{ApiGroup(manifest.id.api_version), manifest.id.kind, manifest.id.namespace_,
                        manifest.generate_name};
      manifest.id.name = GeneratedNamePlaceholder(manifest.generate_name, generated_[std::move(prefix)]++);
      doc::Node* metadata = object.FindMutable("metadata");
      metadata->Set("name", doc::Node::String(manifest.id.name, metadata->Find("generateName")->location()));
    } else if (kept.unique) {
      StorageKey key{ApiGroup(manifest.id.api_version), manifest.id.kind, manifest.id.namespace_,
                     manifest.id.name};
      seen_[std::move(key)].push_back(set_->manifests.size());
    }
    manifest.object = std::move(object);
    set_->manifests.push_back(std::move(manifest));
  }

  // A kept kind under another apiVersion is most likely a typo or an old
  // version: say why it was not rendered.
  void NoteNearMiss(const doc::Node& object, const std::string& api_version, const std::string& kind,
                    const std::string& file) {
    for (const ObjectType& type : options_.types) {
      if (type.kind != kind) continue;
      for (const NonexistentVersion& missing : kNonexistentTrainerVersions) {
        if (missing.api_version != api_version || ApiGroup(type.api_version) != ApiGroup(api_version)) continue;
        // A finding, not unreadable input: the file is fine, the object
        // would be refused by every cluster.
        set_->diagnostics.push_back(MakeError(
            object.Find("apiVersion")->location(), "apiVersion",
            "no Kubeflow Trainer release has " + api_version + " (it " + std::string(missing.why) +
                "); the API of every release is " + type.api_version + ": no matches for kind \"" + kind +
                "\" in version \"" + api_version + "\""));
        return;
      }
      if (type.api_version == kTrainerApiVersion && IsKubeflowGroup(ApiGroup(api_version))) {
        set_->diagnostics.push_back(NotServed(object, api_version, kind, file));
        return;
      }
      set_->diagnostics.push_back(Note(object.Find("apiVersion")->location(), "apiVersion",
                                       "ignored: " + kind + " of apiVersion " + api_version +
                                           " is not read (expected " + type.api_version + ")"));
      return;
    }
  }

  // kubeflow.org (Training Operator v1's group, never the Trainer's) and its
  // subgroups: where a Trainer kind is most likely a mistake, not another
  // operator's object of the same name.
  static bool IsKubeflowGroup(const std::string& group) {
    return group == "kubeflow.org" || group.ends_with(".kubeflow.org");
  }

  // A Trainer kind in an apiVersion no Trainer release serves: the cluster
  // refuses it, in kubectl's words (k8s.io/cli-runtime pkg/resource/mapper.go:69
  // around apimachinery's meta.NoKindMatchError), so it is a finding, not a
  // --verbose note; tjrender does not render it.
  static Diagnostic NotServed(const doc::Node& object, const std::string& api_version, const std::string& kind,
                              const std::string& file) {
    const doc::Node* metadata = object.Find("metadata");
    auto quoted = [&](const char* field) {
      const doc::Node* value = metadata != nullptr && metadata->is_mapping() ? metadata->Find(field) : nullptr;
      return "\"" + (value != nullptr && value->is_string() ? value->string_value() : std::string()) + "\"";
    };
    return MakeWarning(object.Find("apiVersion")->location(), kRuleApiVersionNotServed,
                       kind + " of apiVersion " + api_version + " is not rendered or checked: no Kubeflow Trainer "
                       "release serves that version (every one serves " + std::string(kTrainerApiVersion) + " alone), "
                       "so kubectl apply refuses it: resource mapping not found for name: " + quoted("name") +
                       " namespace: " + quoted("namespace") + " from \"" + file + "\": no matches for kind \"" +
                       kind + "\" in version \"" + api_version + "\"");
  }

  // metadata must be an object with a name; the namespace, when present, a
  // string.
  static bool IsTrainJob(const doc::Node& object) {
    const doc::Node* kind = object.Find("kind");
    return kind != nullptr && kind->is_string() && kind->string_value() == "TrainJob";
  }

  bool CheckMetadata(const doc::Node& object, std::string* name, std::string* generate_name) {
    const doc::Node* metadata = object.Find("metadata");
    if (metadata != nullptr && !metadata->is_null() && !metadata->is_mapping()) {
      set_->diagnostics.push_back(
          InputError(metadata->location(), "metadata",
                     "must be an object, found " + std::string(doc::KindName(metadata->kind()))));
      return false;
    }
    const doc::Node* name_node = metadata != nullptr ? metadata->Find("name") : nullptr;
    if (name_node != nullptr && !name_node->is_null() && !name_node->is_string()) {
      set_->diagnostics.push_back(InputError(
          name_node->location(), "metadata.name",
          "must be a string, found " + std::string(doc::KindName(name_node->kind()))));
      return false;
    }
    const doc::Node* generated = metadata != nullptr ? metadata->Find("generateName") : nullptr;
    const bool unnamed = name_node == nullptr || !name_node->is_string() || name_node->string_value().empty();
    if (unnamed && generated != nullptr && generated->is_string() && !generated->string_value().empty() &&
        IsTrainJob(object)) {
      // `kubectl create` of a TrainJob: the API server requires name or
      // generateName (ValidateObjectMeta), not both.
      *generate_name = generated->string_value();
    } else if (unnamed) {
      set_->diagnostics.push_back(InputError(
          object.location(), "metadata.name",
          generated != nullptr ? "required: generateName is supported for TrainJobs only: a runtime is found by its "
                                 "name, which the API server would choose"
                               : "required: the object has no name"));
      return false;
    } else {
      *name = name_node->string_value();
    }
    const doc::Node* namespace_node = metadata->Find("namespace");
    if (namespace_node != nullptr && !namespace_node->is_null() && !namespace_node->is_string()) {
      set_->diagnostics.push_back(InputError(
          namespace_node->location(), "metadata.namespace",
          "must be a string, found " + std::string(doc::KindName(namespace_node->kind()))));
      return false;
    }
    return true;
  }

  // kubectl fills in the namespace of a namespaced object (and refuses a
  // different one under an explicit --namespace); the API server clears the
  // namespace of a cluster-scoped object (EnsureObjectNamespaceMatches-
  // RequestNamespace), so the controller never sees one.
  bool PlaceInNamespace(const ObjectType& type, doc::Node* object, std::string* namespace_) {
    doc::Node* metadata = object->FindMutable("metadata");
    const doc::Node* written = metadata->Find("namespace");
    std::string value = written != nullptr && written->is_string() ? written->string_value() : "";
    if (!type.namespaced) {
      if (written != nullptr) {
        if (!value.empty()) {
          set_->diagnostics.push_back(Note(written->location(), "metadata.namespace",
                                           type.kind + " is cluster-scoped: namespace \"" +
                                               value + "\" is ignored, as the API server does"));
        }
        metadata->Erase("namespace");
      }
      namespace_->clear();
      return true;
    }
    if (value.empty()) {
      Location at = written != nullptr ? written->location() : metadata->location();
      metadata->Set("namespace", doc::Node::String(options_.default_namespace, at), at);
      *namespace_ = options_.default_namespace;
      return true;
    }
    if (options_.enforce_namespace && !type.any_namespace && value != options_.default_namespace) {
      set_->diagnostics.push_back(InputError(
          written->location(), "metadata.namespace",
          "the namespace from the provided object \"" + value +
              "\" does not match the namespace \"" + options_.default_namespace +
              "\". You must pass '--namespace=" + value + "' to perform this operation."));
      return false;
    }
    *namespace_ = value;
    return true;
  }

  const LoadOptions& options_;
  ManifestSet* set_;
  // Where each object sits in set_->manifests, by the identity the API
  // server stores it under.
  std::map<StorageKey, std::vector<std::size_t>> seen_;
  // How many objects so far were named by each generateName (StorageKey::name).
  std::map<StorageKey, std::size_t> generated_;
};

// Whether a document names one of the kept kinds that are checked as
// objects or their API groups (a List's items included), as
// ClassifyDocument counts a claim. Kinds read only to find something among
// them (Flyte's propeller ConfigMap: ObjectType::unique) do not count: a
// repository's ConfigMaps hold scripts full of `${VAR}`.
// A kind tjrender reads, by name alone (a template's text shows no more);
// a ConfigMap may carry runtimes (the kubeflow-trainer chart's) or
// propeller's configuration.
bool IsKeptKind(const std::string& kind, const std::vector<ObjectType>& types) {
  return kind == "ConfigMap" ||
         std::any_of(types.begin(), types.end(), [&](const ObjectType& type) { return type.kind == kind; });
}

bool ClaimsKeptType(const std::vector<doc::Node>& documents, const std::vector<ObjectType>& types) {
  auto claims = [&](const doc::Node& object, auto& self) -> bool {
    if (!object.is_mapping()) return false;
    const doc::Node* kind = object.Find("kind");
    const doc::Node* api_version = object.Find("apiVersion");
    for (const ObjectType& type : types) {
      if (!type.unique) continue;
      if (kind != nullptr && kind->is_string() && kind->string_value() == type.kind) return true;
      // The core group ("v1", PodTemplate's) is every ConfigMap's too.
      if (api_version != nullptr && api_version->is_string() && !ApiGroup(type.api_version).empty() &&
          ApiGroup(api_version->string_value()) == ApiGroup(type.api_version)) {
        return true;
      }
    }
    const doc::Node* items = object.Find("items");
    if (items == nullptr || !items->is_sequence()) return false;
    for (const doc::Node& item : items->items()) {
      if (self(item, self)) return true;
    }
    return false;
  };
  return std::any_of(documents.begin(), documents.end(),
                     [&](const doc::Node& document) { return claims(document, claims); });
}

// LoadOptions::release on the objects a file added from `first` on.
// `kept` counts the bytes kept so far against release_kept_bytes.
void Release(const LoadOptions& options, const std::string& read_path, std::uint64_t hash,
             std::string* text, std::size_t* kept, std::size_t first, ManifestSet* set) {
  std::optional<doc::Node> skeleton;
  std::size_t released = set->manifests.size();
  for (std::size_t i = first; i < set->manifests.size(); ++i) {
    std::optional<doc::Node> candidate = options.release(set->manifests[i].object);
    if (!candidate) continue;
    if (skeleton) return;  // several in one file: kept whole
    skeleton = std::move(candidate);
    released = i;
  }
  if (!skeleton) return;
  Manifest& manifest = set->manifests[released];
  manifest.object = *std::move(skeleton);
  manifest.released_from = read_path;
  manifest.source_hash = hash;
  if (*kept + text->size() <= options.release_kept_bytes) {
    *kept += text->size();
    manifest.released_text = std::make_shared<const std::string>(std::move(*text));
  }
}

}  // namespace

std::string GeneratedNamePlaceholder(std::string_view generate_name, std::size_t index) {
  // k8s.io/apiserver pkg/storage/names/generate.go: maxNameLength 63,
  // randomLength 5; k8s.io/apimachinery pkg/util/rand: the alphabet.
  constexpr std::size_t kMaxGeneratedNameLength = 63 - 5;
  constexpr std::string_view kAlphanums = "bcdfghjklmnpqrstvwxz2456789";
  constexpr std::size_t kX = 18;  // kAlphanums[18] == 'x': index 0 reads "xxxxx"
  std::string name(generate_name.substr(0, kMaxGeneratedNameLength));
  std::string suffix(5, 'x');
  for (std::size_t digit = 5; digit-- > 0; index /= kAlphanums.size()) {
    suffix[digit] = kAlphanums[(index % kAlphanums.size() + kX) % kAlphanums.size()];
  }
  return name + suffix;
}

bool ManifestSet::has_errors() const {
  return std::any_of(diagnostics.begin(), diagnostics.end(),
                     [](const Diagnostic& d) { return d.severity == Severity::kError; });
}

ManifestSet LoadManifests(const Tree& tree, const std::vector<std::string>& paths,
                          const LoadOptions& options) {
  return LoadExpanded(tree, ExpandPaths(tree, paths, options.extensions), options);
}

ManifestSet LoadExpanded(const Tree& tree, ExpandedPaths inputs, const LoadOptions& options) {
  ManifestSet set;
  set.diagnostics = std::move(inputs.diagnostics);
  Loader loader(options, &set);
  // Reading and parsing are most of the work and independent per file; the
  // admission (duplicates, namespaces) runs in file order on this thread,
  // so the result does not depend on the thread count.
  // What ExpandPaths left out: one note per chart for its templates/, one
  // per kustomize patch or plugin configuration.
  std::map<std::string, std::size_t> templates_per_chart;
  for (const SkippedFile& file : inputs.skipped) {
    set.skipped_files.push_back(file.name);
    const Location at{InternSourceName(file.name)};
    if (file.patch) {
      // kustomize merges a TrainJob patch into the TrainJob: the fields it
      // sets still have the TrainJob's types (`numNodes: four`).
      Result<std::string> text = tree.Read(file.name, options.max_file_bytes);
      Result<std::vector<doc::Node>> documents =
          text.ok() ? yaml::ReadStream(*text, file.name) : Result<std::vector<doc::Node>>(std::vector<doc::Node>{});
      for (const doc::Node& document : documents.ok() ? *documents : std::vector<doc::Node>{}) {
        if (document.is_mapping() && doc::StringAt(&document, "kind") == "TrainJob" &&
            doc::StringAt(&document, "apiVersion").starts_with("trainer.kubeflow.org/")) {
          set.trainjob_patches.push_back(document);
        }
      }
    }
    if (file.chart.empty()) {
      set.diagnostics.push_back(Skipped(options, at, file.why));
    } else if (options.strict_inputs) {
      set.diagnostics.push_back(Skipped(options, at, "a template of the Helm chart " + file.chart));
    } else {
      ++templates_per_chart[file.chart];
    }
  }
  for (const auto& [chart, count] : templates_per_chart) {
    set.diagnostics.push_back(Note(Location{InternSourceName(chart)}, "",
                                   "skipped: " + std::to_string(count) + " template file(s) of the Helm chart " +
                                       chart + "; check what it renders with `" + HelmCheckCommand(chart) + "`"));
  }
  struct ParsedInput {
    bool read = false;  // a file that could not be read is not listed
    bool helm_template = false;  // a chart's file with template actions
    std::vector<TemplatePlaceholder> placeholders;  // of a template outside a chart
    TemplateKinds template_kinds;  // of such a template that does not parse
    std::uint64_t hash = 0;
    std::string text;  // kept for Release
    Result<std::vector<doc::Node>> documents = std::vector<doc::Node>();
    Diagnostics embedded;  // what reading embedded runtimes found
  };
  auto parse = [&](std::size_t index) {
    const InputFile& input = inputs.files[index];
    ParsedInput parsed;
    Result<std::string> text = input.is_stdin ? ReadFile("-", options.max_file_bytes)
                                              : tree.Read(input.read_path, options.max_file_bytes);
    if (!text.ok()) {
      Diagnostic error = text.take_error();
      // Name the file as the user knows it, not a link's target.
      error.location = Location{InternSourceName(input.name)};
      parsed.documents = std::move(error);
      return parsed;
    }
    parsed.read = true;
    if (!input.chart.empty() && HasTemplateActions(*text)) {
      parsed.helm_template = true;
      return parsed;
    }
    if (input.chart.empty()) parsed.placeholders = FindUnrenderedTemplates(*text);
    if (options.release) parsed.hash = std::hash<std::string_view>{}(*text);
    yaml::ReadOptions read_options;
    read_options.max_document_bytes = options.max_file_bytes;
    const bool prune = options.release && !input.is_stdin && !options.release_prune_key.empty();
    if (prune) {
      read_options.prune_key = options.release_prune_key;
      read_options.prune_keep = options.release_prune_keep;
    }
    auto read = [&]() -> ParseCache::Documents {
      Result<std::vector<doc::Node>> documents = yaml::ReadStream(*text, input.name, read_options);
      // A pruned tree is good only for the skeleton of a lone released object.
      if (prune && documents.ok() && !(documents->size() == 1 && options.release(documents->front()))) {
        read_options.prune_key.clear();
        read_options.prune_keep.clear();
        documents = yaml::ReadStream(*text, input.name, read_options);
      }
      return documents;
    };
    // A cache only serves whole reads.
    ParseCache* cache = options.release ? nullptr : options.parse_cache;
    parsed.documents = cache != nullptr ? cache->Parse(input.name, *text, read) : read();
    if (parsed.documents.ok()) ExpandEmbeddedRuntimes(*text, &parsed.documents.value(), &parsed.embedded);
    if (!parsed.documents.ok() && !parsed.placeholders.empty()) parsed.template_kinds = FindTemplateKinds(*text);
    if (options.release) parsed.text = *std::move(text);
    return parsed;
  };
  std::size_t next = 0;
  std::size_t kept = 0;
  auto admit = [&](ParsedInput parsed) {
    const InputFile& input = inputs.files[next++];
    if (parsed.read) set.files.push_back(input.name);
    if (parsed.helm_template) {
      set.skipped_files.push_back(input.name);
      set.diagnostics.push_back(Skipped(options, Location{InternSourceName(input.name)},
                                        "a Helm template of the chart " + input.chart + " (check what it renders with `" +
                                            HelmCheckCommand(input.chart) + "`)"));
      return;
    }
    // A template outside a chart: one finding instead of the parse error
    // its placeholders cause or its objects' schema errors; files of other
    // kinds that parse are none of tjrender's business (a Deployment under
    // Flux's substitution), nor parse errors elsewhere (a duplicate key).
    const bool template_refused =
        !parsed.documents.ok() && ExplainsParseError(parsed.placeholders, parsed.documents.error().location.line);
    // One that does not parse shows its kinds only as text: when none of
    // them is one tjrender reads (ClusterLoader2's StatefulSet templates,
    // Terraform's PriorityClass ones) or it shows none, it is another
    // tool's file, skipped as a repository's other files are.
    if (template_refused && !parsed.template_kinds.templated &&
        std::none_of(parsed.template_kinds.written.begin(), parsed.template_kinds.written.end(),
                     [&](const std::string& kind) { return IsKeptKind(kind, options.types); })) {
      std::string what = "a template of another tool";
      if (!parsed.template_kinds.written.empty()) {
        std::set<std::string> kinds(parsed.template_kinds.written.begin(), parsed.template_kinds.written.end());
        what += " (";
        for (const std::string& kind : kinds) what += (what.back() == '(' ? "" : ", ") + kind;
        what += ")";
      }
      const TemplatePlaceholder& first = parsed.placeholders.front();
      set.skipped_files.push_back(input.name);
      set.diagnostics.push_back(
          Skipped(options, Location{InternSourceName(input.name), first.line, first.column},
                  what + ": `" + first.text + "` is still a placeholder and none of its kinds is one tjrender reads"));
      return;
    }
    if (!parsed.placeholders.empty() &&
        (template_refused || (parsed.documents.ok() && ClaimsKeptType(*parsed.documents, options.types)))) {
      const TemplatePlaceholder& first = parsed.placeholders.front();
      Diagnostic finding = MakeError(Location{InternSourceName(input.name), first.line, first.column}, "",
                                     std::string("[") + kUnrenderedTemplateRule + "] " + UnrenderedTemplateMessage(first));
      finding.rule = kUnrenderedTemplateRule;
      set.diagnostics.push_back(std::move(finding));
      return;
    }
    if (!parsed.documents.ok()) {
      Diagnostic error = parsed.documents.take_error();
      // A file this run writes, reached by a path rather than a listing (a
      // Git status's untracked file, say): left out, as listings leave it.
      if (error.rule == kRuleOwnOutput) {
        set.diagnostics.push_back(Note(error.location, "", error.message));
        return;
      }
      set.diagnostics.push_back(AsInputError(std::move(error)));
      return;
    }
    for (Diagnostic& d : parsed.embedded) set.diagnostics.push_back(std::move(d));
    const std::size_t first = set.manifests.size();
    if (!loader.AdmitAll(*parsed.documents, input.name)) set.skipped_files.push_back(input.name);
    if (options.release && !input.is_stdin) {
      Release(options, input.read_path, parsed.hash, &parsed.text, &kept, first, &set);
    }
  };
  const unsigned threads = options.threads != 0 ? options.threads : std::thread::hardware_concurrency();
  OrderedParallelFor(inputs.files.size(), threads, /*window=*/64, parse, admit);
  loader.DropDuplicates();
  return set;
}

ManifestSet AdmitDocuments(const std::vector<ParsedFile>& files, const LoadOptions& options) {
  ManifestSet set;
  Loader loader(options, &set);
  for (const ParsedFile& file : files) {
    set.files.push_back(file.name);
    if (!loader.AdmitAll(file.documents, file.name)) set.skipped_files.push_back(file.name);
  }
  loader.DropDuplicates();
  return set;
}

ManifestSet LoadManifests(const std::vector<std::string>& paths, const LoadOptions& options) {
  return LoadManifests(DiskTree(), paths, options);
}

Result<doc::Node> ReloadObject(const Tree& tree, const Manifest& manifest, const LoadOptions& options) {
  const Location at = manifest.location();
  auto gone = [&](const std::string& why) -> Diagnostic {
    Diagnostic changed = InputError(at, "", manifest.file + " " + why +
                                                " while tjrender was rendering it (it is read once to list its objects "
                                                "and again to render them): run tjrender again once nothing writes to it");
    changed.rule = kRuleInputChanged;
    return changed;
  };
  if (!manifest.released()) return manifest.object;
  Result<std::string> read_again = std::string();
  if (manifest.released_text == nullptr) {
    read_again = tree.Read(manifest.released_from, options.max_file_bytes);
    if (!read_again.ok()) return gone("could not be read again (" + read_again.error().message + ")");
    if (std::hash<std::string_view>{}(*read_again) != manifest.source_hash) return gone("changed");
  }
  const std::string& text = manifest.released_text != nullptr ? *manifest.released_text : *read_again;
  yaml::ReadOptions read_options;
  read_options.max_document_bytes = options.max_file_bytes;
  Result<std::vector<doc::Node>> documents = yaml::ReadStream(text, manifest.file, read_options);
  // The same bytes (the hash matched, or they were kept): a refusal of the
  // whole document (a limit the first, pruned reading did not reach) is
  // the file's own error, not a change.
  if (!documents.ok()) return AsInputError(documents.take_error());
  LoadOptions whole = options;
  whole.release = nullptr;
  ManifestSet set = AdmitDocuments({ParsedFile{manifest.file, std::move(*documents)}}, whole);
  for (Manifest& candidate : set.manifests) {
    if (candidate.id == manifest.id) return std::move(candidate.object);
  }
  return gone("changed");
}

}  // namespace tjr::source
