#include "explain/trainer_explain.h"

#include <map>
#include <tuple>
#include <utility>

#include "doc/path.h"
#include "explain/chains.h"
#include "explain/driving_fields.h"
#include "json/json.h"
#include "render/render.h"
#include "render/runtime_patches.h"
#include "trainer/defaulting.h"
#include "trainer/release.h"

namespace tjr::explain {
namespace {

using LocationKey = std::tuple<const std::string*, std::uint32_t, std::uint32_t>;

LocationKey KeyOf(const Location& at) { return {at.file, at.line, at.column}; }

// The nodes of the inputs by where they were written, with their paths: a
// rendered value copied from an input says which field it came from.
struct InputIndex {
  struct Source {
    std::string path;  ///< in its object: "spec.trainer.image"
    doc::Node node;
  };
  std::map<LocationKey, Source> at;

  void Add(const doc::Node& object) {
    WalkFields(object, [&](const std::string& path, const doc::Node& node, const std::string*, std::size_t) {
      if (node.location().known()) at.emplace(KeyOf(node.location()), Source{path, node});
    });
  }
  const Source* Find(const Location& location) const {
    if (!location.known()) return nullptr;
    auto it = at.find(KeyOf(location));
    return it == at.end() ? nullptr : &it->second;
  }
};

// A JobSet-shaped stage from a runtime template: the JobSet's metadata
// labels and annotations come from the template's (the builder copies
// them), its spec is the template's spec.
doc::Node AsJobSet(const doc::Node* template_metadata, const doc::Node& spec) {
  doc::Node object = doc::Node::Mapping();
  if (template_metadata != nullptr && template_metadata->is_mapping()) {
    doc::Node metadata = doc::Node::Mapping();
    for (const char* key : {"labels", "annotations"}) {
      if (const doc::Node* value = template_metadata->Find(key); value != nullptr && !value->is_null()) {
        metadata.Set(key, *value);
      }
    }
    if (!metadata.empty()) object.Set("metadata", metadata);
  }
  object.Set("spec", spec);
  return object;
}

const doc::Node* TemplateOf(const doc::Node& runtime, const char* part) {
  return doc::FindPath(runtime, {"spec", "template", part});
}

std::string ValueText(const doc::Node& value) { return json::Write(value, false); }

// A scalar as text, strings unquoted: 3 and "3" read the same.
std::string ScalarText(const doc::Node& value) { return value.is_string() ? value.string_value() : ValueText(value); }

// The TrainJob with only the first `count` entries of its patch list.
doc::Node WithPatches(const doc::Node& trainjob, const char* list_key, std::size_t count) {
  doc::Node out = trainjob;
  doc::Node* spec = out.FindMutable("spec");
  if (spec == nullptr) return out;
  doc::Node* list = spec->FindMutable(list_key);
  if (list == nullptr || !list->is_sequence()) return out;
  std::vector<doc::Node>& items = list->mutable_items();
  if (items.size() > count) items.resize(count);
  return out;
}

bool HasKeyWithin(const doc::Node& root, const std::string& key) {
  bool found = false;
  WalkFields(root, [&](const std::string&, const doc::Node& node, const std::string*, std::size_t) {
    if (found || !node.is_mapping()) return;
    found = node.Find(key) != nullptr;
  });
  return found;
}

std::string LastSegment(const std::string& path) {
  std::size_t at = path.find_last_of('.');
  return at == std::string::npos ? path : path.substr(at + 1);
}

class TrainerExplainer {
 public:
  TrainerExplainer(const pipeline::RenderInputs& inputs, const std::string& target)
      : inputs_(inputs), release_(trainer::ReleaseOf(inputs.version)) {
    explanation_.target = target;
    explanation_.subject = "TrainJob " + doc::StringAtPath(inputs.written, {"metadata", "namespace"});
    if (!explanation_.subject.ends_with(' ')) explanation_.subject += '/';
    explanation_.subject += doc::StringAtPath(inputs.written, {"metadata", "name"});
    index_.Add(inputs.written);
    if (!inputs.runtime_written.is_null()) index_.Add(inputs.runtime_written);
    index_.Add(inputs.runtime);
  }

  Result<Explanation> Run(const std::vector<doc::Node>& rendered) {
    std::vector<Stage> stages;
    if (Status s = TemplateStages(&stages); !s.ok()) return s.take_error();
    render::RenderTrace trace;
    render::RenderOptions options = inputs_.options;
    options.runtime_snapshot_text = inputs_.runtime_snapshot_text;
    options.trace = &trace;
    Result<render::RenderedObjects> replayed = render::Render(inputs_.trainjob, inputs_.runtime, options);
    if (!replayed.ok()) return replayed.take_error();
    for (render::RenderTrace::Stage& stage : trace.stages) {
      stages.push_back({AddLayer(stage.layer), std::move(stage.jobset)});
    }
    // The objects shown are the pipeline's when it kept them (an admission
    // refusal keeps none), else the replay's.
    const std::vector<doc::Node>& objects = rendered.empty() ? replayed->objects : rendered;
    for (std::size_t i = 0; i < objects.size(); ++i) {
      const std::string builder = i < trace.builders.size() ? trace.builders[i] : "builder";
      ObjectExplanation object;
      object.object = objects[i];
      if (doc::StringAt(&objects[i], "kind") == "JobSet") {
        stages.push_back({AddLayer("builder"), objects[i]});
        object.fields = ChainsFromStages(
            stages, [this](const Stage& stage, const std::string& path, const doc::Node& value, Step* step) {
              return Annotate(stage, path, value, step);
            },
            [this, &stages](const std::string&, const ItemHistory& history) { return OrderOf(stages, history); });
      } else {
        std::vector<Stage> built = {{AddLayer(builder), objects[i]}};
        object.fields = ChainsFromStages(
            built, [this](const Stage& stage, const std::string& path, const doc::Node& value, Step* step) {
              return Annotate(stage, path, value, step);
            });
      }
      SplitCanonicalForms(&object.fields);
      explanation_.objects.push_back(std::move(object));
    }
    DropUnusedLayers();
    return std::move(explanation_);
  }

 private:
  std::size_t AddLayer(const std::string& name, LayerKind kind, Location at = {}) {
    for (std::size_t i = 0; i < explanation_.layers.size(); ++i) {
      if (explanation_.layers[i].name == name) return i;
    }
    explanation_.layers.push_back({kind, name, at});
    return explanation_.layers.size() - 1;
  }
  std::size_t AddLayer(const std::string& name) {
    return AddLayer(name, name.starts_with("plugin ") ? LayerKind::kPlugin : LayerKind::kBuilder);
  }

  // runtime -> default -> typed -> each patch entry.
  Status TemplateStages(std::vector<Stage>* stages) {
    const doc::Node& stored = inputs_.runtime;
    const doc::Node empty = doc::Node::Mapping();
    if (!inputs_.runtime_written.is_null()) {
      const doc::Node& written = inputs_.runtime_written;
      const doc::Node* spec = TemplateOf(written, "spec");
      stages->push_back({AddLayer("runtime", LayerKind::kRuntime, written.location()),
                         AsJobSet(TemplateOf(written, "metadata"), spec != nullptr ? *spec : empty)});
      // The defaults again, on a copy, to know which CRD line wrote what.
      doc::Node defaulted = written;
      Result<std::vector<trainer::AppliedDefault>> applied =
          trainer::ApplyBuiltinDefaults(defaulted, release_.crd_defaults);
      if (applied.ok()) {
        for (const trainer::AppliedDefault& d : *applied) {
          const doc::Node* node = FollowUpstream(defaulted, d.path);
          if (node != nullptr) defaults_.push_back({*node, d.source != nullptr ? d.source->source : ""});
        }
        const doc::Node* defaulted_spec = TemplateOf(defaulted, "spec");
        stages->push_back({AddLayer("default", LayerKind::kDefault),
                           AsJobSet(TemplateOf(defaulted, "metadata"), defaulted_spec != nullptr ? *defaulted_spec
                                                                                                  : empty)});
      }
    } else {
      stages->push_back({AddLayer("runtime", LayerKind::kRuntime, stored.location()),
                         AsJobSet(TemplateOf(stored, "metadata"),
                                  TemplateOf(stored, "spec") != nullptr ? *TemplateOf(stored, "spec") : empty)});
    }
    const doc::Node* stored_spec = TemplateOf(stored, "spec");
    const doc::Node& template_spec = stored_spec != nullptr ? *stored_spec : empty;
    const doc::Node* template_metadata = TemplateOf(stored, "metadata");
    list_key_ = release_.runtime_patches ? "runtimePatches" : "podTemplateOverrides";
    Result<doc::Node> typed =
        render::MergeJobSetTemplate(WithPatches(inputs_.trainjob, list_key_, 0), template_spec, inputs_.version);
    if (!typed.ok()) return typed.take_error();
    stages->push_back({AddLayer("typed round trip", LayerKind::kTypedRoundTrip), AsJobSet(template_metadata, *typed)});
    const doc::Node* patches = doc::FindPath(inputs_.trainjob, {"spec", list_key_});
    if (patches == nullptr || !patches->is_sequence()) return Ok();
    for (std::size_t i = 0; i < patches->size(); ++i) {
      const doc::Node& entry = (*patches)[i];
      std::string name = std::string(list_key_) + "[" + std::to_string(i) + "]";
      if (release_.runtime_patches) {
        const std::string manager = doc::StringAt(&entry, "manager");
        if (!manager.empty()) name = std::string(list_key_) + "[" + manager + "]";
      }
      Result<doc::Node> merged = render::MergeJobSetTemplate(WithPatches(inputs_.trainjob, list_key_, i + 1),
                                                             template_spec, inputs_.version);
      if (!merged.ok()) return merged.take_error();
      const std::size_t layer =
          AddLayer(name, release_.runtime_patches ? LayerKind::kPatch : LayerKind::kOverride, entry.location());
      stages->push_back({layer, AsJobSet(template_metadata, *merged)});
    }
    return Ok();
  }

  // The node at an upstream path (spec.template.spec.replicatedJobs[0].replicas).
  static const doc::Node* FollowUpstream(const doc::Node& root, const FieldPath& path) {
    const doc::Node* node = &root;
    for (const FieldPath::Step& step : path.steps()) {
      if (node == nullptr) return nullptr;
      if (step.type == FieldPath::Step::Type::kField) {
        node = node->is_mapping() ? node->Find(step.field) : nullptr;
      } else {
        node = node->is_sequence() && step.index < node->size() ? &(*node)[step.index] : nullptr;
      }
    }
    return node;
  }

  bool Annotate(const Stage& stage, const std::string& path, const doc::Node& value, Step* step) {
    const Layer& layer = explanation_.layers[stage.layer];
    switch (layer.kind) {
      case LayerKind::kDefault:
        if (step->action == Action::kSet) {
          step->detail = "CRD default";
          for (const auto& [node, source] : defaults_) {
            if (node.SharesRepresentationWith(value) && !source.empty()) step->detail += " at " + source;
          }
        }
        return true;
      case LayerKind::kTypedRoundTrip:
        if (step->action == Action::kDeleted) {
          step->detail = "dropped by the decode into the Go type (an unknown field, or an empty value omitted)";
        }
        return true;
      case LayerKind::kPlugin:
      case LayerKind::kBuilder:
        Drive(layer.name, path, value, step);
        return true;
      default:
        return true;
    }
  }

  // Who the builder or a plugin took the value from: the input field the
  // node was copied from, else the field the driving table names.
  void Drive(const std::string& layer, const std::string& path, const doc::Node& value, Step* step) {
    if (step->action != Action::kSet) return;
    // A copy of an input node: the same kind of node at its location (a
    // default written into a mapping carries the mapping's location).
    if (const InputIndex::Source* source = index_.Find(value.location());
        source != nullptr && IsLeaf(source->node) == IsLeaf(value)) {
      step->detail = "from " + source->path;
      return;
    }
    for (const DrivingField& driving : DrivingFieldsOf(layer, path)) {
      auto follow = [&](const doc::Node& object) {
        const doc::Node* field = &object;
        for (std::string_view key : driving.path) field = field != nullptr ? doc::At(field, key) : nullptr;
        return field;
      };
      const doc::Node* field = follow(driving.in_runtime ? inputs_.runtime : inputs_.written);
      // A scalar drives only a value it equals (PET_NNODES "3" from
      // numNodes 3): a count of 1 before the plugin raised it is not the
      // TrainJob's 3.
      if (field != nullptr && field->is_scalar() && value.is_scalar() && ScalarText(*field) != ScalarText(value)) {
        continue;
      }
      if (field != nullptr && !field->is_null()) {
        step->detail = "from " + driving.text;
        step->location = field->location();
        return;
      }
      // Not written, but defaulted by the API server before the controller read it.
      if (!driving.in_runtime && (field = follow(inputs_.trainjob)) != nullptr && !field->is_null()) {
        step->detail = "from " + driving.text + ", a TrainJob CRD default";
        step->location = {};
        return;
      }
    }
    if (step->location.known() && !IsLeaf(value)) return;
    // A scalar that only carries its parent's location was made here.
    if (const InputIndex::Source* source = index_.Find(value.location());
        source != nullptr && IsLeaf(source->node) != IsLeaf(value)) {
      step->location = {};
    }
  }

  // A value the controller canonicalised ("1000m" written, "1" kept) is
  // two steps: the layer that wrote it, as written, then the typed round
  // trip that changed its form.
  void SplitCanonicalForms(std::vector<Field>* fields) {
    const std::size_t typed = AddLayer("typed round trip", LayerKind::kTypedRoundTrip);
    for (Field& field : *fields) {
      std::vector<Step> out;
      for (std::size_t i = 0; i < field.chain.size(); ++i) {
        Step& step = field.chain[i];
        const InputIndex::Source* source =
            step.action == Action::kSet && IsLeaf(step.value) ? index_.Find(step.value.location()) : nullptr;
        if (source != nullptr && IsLeaf(source->node) && !(source->node == step.value) &&
            explanation_.layers[step.layer].kind != LayerKind::kTypedRoundTrip) {
          Step written = step;
          written.value = source->node;
          Step canonical = step;
          canonical.layer = typed;
          canonical.detail = "canonical form of " + ValueText(source->node);
          out.push_back(std::move(written));
          out.push_back(std::move(canonical));
          continue;
        }
        if (explanation_.layers[step.layer].kind == LayerKind::kTypedRoundTrip && step.action == Action::kSet &&
            step.detail.empty() && !out.empty() && out.back().action == Action::kSet) {
          step.detail = "canonical form of " + ValueText(out.back().value);
        }
        out.push_back(std::move(step));
      }
      field.chain = std::move(out);
    }
  }

  // Why a list item sits where it sits. Strategic merge (apimachinery's
  // mergeSlice + normalizeElementOrder + mergeSortedSlice) keeps the
  // patch's order for the items the patch lists, and an item the list did
  // not have is written before the list's remaining items that the patch
  // does not name; a `$setElementOrder` cannot change that here, because
  // the controller's typed decode of the patch drops every `$` directive.
  std::string OrderOf(const std::vector<Stage>& stages, const ItemHistory& history) {
    const Layer& arrived = explanation_.layers[stages[history.arrived].layer];
    const std::string list = LastSegment(history.list_path);
    const std::string place = Neighbours(history);
    std::string reason;
    switch (arrived.kind) {
      case LayerKind::kRuntime:
        reason = "in the runtime's order";
        break;
      case LayerKind::kDefault:
        reason = "written by a CRD default";
        break;
      case LayerKind::kOverride:
      case LayerKind::kPatch:
        reason = "added by " + arrived.name + place +
                 ": strategic merge keeps the patch's order for the items it lists and writes an item the list did "
                 "not have before the list's remaining items the patch does not name" + DirectiveNote(history);
        break;
      case LayerKind::kPlugin:
        reason = "appended by " + arrived.name + place + ": the plugin adds what the list lacks at its end";
        break;
      default:
        reason = "added by the " + arrived.name + place;
        break;
    }
    if (!history.moved) return reason;
    const Layer& mover = explanation_.layers[stages[*history.moved].layer];
    if (mover.kind == LayerKind::kOverride || mover.kind == LayerKind::kPatch) {
      reason += "; moved by " + mover.name + place + ": the patch lists the items in another order, and strategic "
                "merge keeps the patch's order";
      if (history.list_path == "spec.replicatedJobs" &&
          release_.patch_merge == trainer::PatchMerge::kRuntimePatchesWholeSpec) {
        reason += ", then the controller sorts replicatedJobs back into the runtime's order";
      }
    } else {
      reason += "; moved by " + mover.name + place;
    }
    return reason;
  }

  static std::string ItemName(const std::string& path) {
    const std::size_t open = path.find_last_of('[');
    return open == std::string::npos ? path : path.substr(open);
  }

  static std::string Neighbours(const ItemHistory& history) {
    if (!history.previous.empty() && !history.next.empty()) {
      return " (after " + ItemName(history.previous) + ", before " + ItemName(history.next) + ")";
    }
    if (!history.previous.empty()) return " (last, after " + ItemName(history.previous) + ")";
    if (!history.next.empty()) return " (first, before " + ItemName(history.next) + ")";
    return "";
  }

  // Whether the TrainJob wrote a `$setElementOrder` for this list, which the
  // typed decode dropped.
  std::string DirectiveNote(const ItemHistory& history) const {
    const std::string directive = "$setElementOrder/" + LastSegment(history.list_path);
    if (!HasKeyWithin(inputs_.written, directive)) return " (no `" + directive + "`)";
    return " (the TrainJob's `" + directive + "` is dropped by the controller's typed decode of the patch, so it "
           "orders nothing)";
  }

  // Layers no step names (a plugin that did not act) leave the legend.
  void DropUnusedLayers() {
    std::vector<bool> used(explanation_.layers.size(), false);
    for (const ObjectExplanation& object : explanation_.objects) {
      for (const Field& field : object.fields) {
        for (const Step& step : field.chain) used[step.layer] = true;
      }
    }
    std::vector<std::size_t> renumber(used.size(), 0);
    std::vector<Layer> kept;
    for (std::size_t i = 0; i < used.size(); ++i) {
      renumber[i] = kept.size();
      if (used[i]) kept.push_back(std::move(explanation_.layers[i]));
    }
    explanation_.layers = std::move(kept);
    for (ObjectExplanation& object : explanation_.objects) {
      for (Field& field : object.fields) {
        for (Step& step : field.chain) step.layer = renumber[step.layer];
      }
    }
  }

  const pipeline::RenderInputs& inputs_;
  const trainer::Release& release_;
  Explanation explanation_;
  InputIndex index_;
  std::vector<std::pair<doc::Node, std::string>> defaults_;
  const char* list_key_ = "runtimePatches";
};

}  // namespace

Result<Explanation> ExplainTrainJob(const pipeline::RenderInputs& inputs, const std::vector<doc::Node>& rendered,
                                    const std::string& target) {
  TrainerExplainer explainer(inputs, target);
  return explainer.Run(rendered);
}

}  // namespace tjr::explain
